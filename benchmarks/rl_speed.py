"""`make bench` key `rl`: environment steps per second of kolrami.rl (docs/research.md).

A step is one agent's decision. The AEC figure counts both sides' decisions (random legal
macro-actions); the Gymnasium and vector figures count the agent's decisions only, each with
the opponent's (the aggressive doctrine's) answers until the agent is asked again. The single
and vector environments run pinned to one core; the multi-process variant on every core the
process may use. Battles are 12-turn standard battles, cruisers against the wolfpack.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from kolrami.rl import env
from kolrami.rl.core import Match
from kolrami.rl.core import configure
from kolrami.rl.gym import KolramiGym
from kolrami.rl.vector import ProcessVectorKolrami
from kolrami.rl.vector import VectorKolrami

SECONDS = 3.0


@contextmanager
def one_core() -> Iterator[int]:
    """Run pinned to one core (where the platform allows), then as before."""
    if not hasattr(os, "sched_getaffinity"):
        yield 0
        return
    cores = os.sched_getaffinity(0)
    core = min(cores)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, cores)


def aec_rate() -> float:
    e = env()
    rng = np.random.default_rng(0)
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        e.reset(seed=seed)
        seed += 1
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def gym_rate() -> float:
    e = KolramiGym()
    rng = np.random.default_rng(0)
    steps = 0
    obs, _ = e.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        obs, _, terminated, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated:
            obs, _ = e.reset()
    return steps / (time.perf_counter() - start)


def vector_rate(n: int, processes: int = 0) -> float:
    envs = ProcessVectorKolrami(n, processes) if processes else VectorKolrami(n)
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        obs, *_ = envs.step(envs.sample(obs, rng))
        steps += n
    rate = steps / (time.perf_counter() - start)
    envs.close()
    return rate


def choices_share() -> dict[str, float]:
    """Where a step's time goes: the macro-actions' enumeration (the doctrines' candidates
    and the rules' check of each) against the rest (observation, apply, opponent)."""
    config = configure()
    rng = np.random.default_rng(0)
    enumerate_s = total_s = 0.0
    steps = 0
    for seed in range(3):
        match = Match(config, seed)
        while not match.over:
            t0 = time.perf_counter()
            choices = match.choices()
            t1 = time.perf_counter()
            side = match.to_move()
            assert side is not None
            match.observation(side)
            match.act(int(rng.choice(choices.legal())))
            t2 = time.perf_counter()
            enumerate_s += t1 - t0
            total_s += t2 - t0
            steps += 1
    return {
        "step_ms": round(total_s / steps * 1000, 3),
        "choices_ms": round(enumerate_s / steps * 1000, 3),
    }


def rl_figures() -> dict[str, Any]:
    with one_core() as core:
        aec = aec_rate()
        single = gym_rate()
        vector = vector_rate(64)
        share = choices_share()
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2
    processes = vector_rate(64, max(2, workers))
    return {
        "pinned_core": core,
        "aec_steps_per_second": round(aec, 1),
        "gym_steps_per_second": round(single, 1),
        "vector_64_steps_per_second": round(vector, 1),
        "vector_64_over_single": round(vector / single, 2),
        f"process_vector_64_x{max(2, workers)}_steps_per_second": round(processes, 1),
        **share,
    }


if __name__ == "__main__":
    print(json.dumps(rl_figures(), indent=2))
