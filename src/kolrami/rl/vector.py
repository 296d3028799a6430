"""N Kolrami battles stepped together: `VectorKolrami` in one process, `ProcessVectorKolrami`
across worker processes (each stepping its share of the battles in one process).

Both are Gymnasium vector environments of `KolramiGym` (one agent's side against a captain):
observations are batched dicts ("observation" (N, SIZE), "action_mask" (N, N_ACTIONS)),
`step(actions)` takes one action per battle, and a battle that ends is reset at once, its next
seed from its own generator (Gymnasium's same-step autoreset: the last observation of the
battle that ended is in infos["final_obs"], its winner in infos["winner"]).

    from kolrami.rl.vector import VectorKolrami
    envs = VectorKolrami(64, opponent="aggressive", turns=4)
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminations, truncations, infos = envs.step(envs.sample(obs))
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import sys
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv

from kolrami.captains.features import CLIP
from kolrami.captains.features import SIZE
from kolrami.captains.macro import N_ACTIONS
from kolrami.errors import InvalidInputError
from kolrami.rl.gym import KolramiGym

Obs = dict[str, npt.NDArray[Any]]


def _actions(actions: npt.ArrayLike, n: int) -> npt.NDArray[Any]:
    """A step's actions as one flat array, one a battle, or a one-line refusal."""
    acts = np.asarray(actions).reshape(-1)
    if acts.shape != (n,):
        raise InvalidInputError(f"step: {acts.size} actions for {n} battles")
    return acts


#: what `step` returns: observations, rewards, terminations, truncations, infos
Stepped = tuple[
    Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
]


def _spaces(n: int) -> tuple[spaces.Dict, spaces.MultiDiscrete]:
    observations = spaces.Dict(
        {
            "observation": spaces.Box(-CLIP, CLIP, (n, SIZE), np.float32),
            "action_mask": spaces.Box(0, 1, (n, N_ACTIONS), np.int8),
        }
    )
    return observations, spaces.MultiDiscrete(np.full(n, N_ACTIONS))


def _check(n: int) -> None:
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"num_envs {n!r}: step at least one battle")


class VectorKolrami(VectorEnv):
    """`num_envs` battles of KolramiGym(**kwargs), stepped one after another in this process."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012  # (as VectorEnv's)

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        _check(num_envs)
        self.envs = [KolramiGym(**kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space, self.action_space = _spaces(num_envs)
        self._obs = np.zeros((num_envs, SIZE), np.float32)
        self._mask = np.zeros((num_envs, N_ACTIONS), np.int8)

    def _put(self, i: int, obs: Obs) -> None:
        self._obs[i] = obs["observation"]
        self._mask[i] = obs["action_mask"]

    def _batch(self) -> Obs:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Every battle anew: battle i's seed is `seed + i` (or `seed[i]`)."""
        seeds = (
            [None] * self.num_envs
            if seed is None
            else [seed + i for i in range(self.num_envs)]
            if isinstance(seed, int)
            else list(seed)
        )
        if len(seeds) != self.num_envs:
            raise InvalidInputError(f"reset: {len(seeds)} seeds for {self.num_envs} battles")
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            self._put(i, env.reset(seed=s)[0])
        return self._batch(), {}

    def step(self, actions: npt.ArrayLike) -> Stepped:
        acts = _actions(actions, self.num_envs)
        n = self.num_envs
        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        final: list[Obs | None] = [None] * n
        winners: list[str | None] = [None] * n
        for i, env in enumerate(self.envs):
            obs, reward, done, _, info = env.step(int(acts[i]))
            rewards[i] = reward
            if done:
                terminated[i] = True
                final[i] = obs
                winners[i] = info.get("winner")
                obs, _ = env.reset()
            self._put(i, obs)
        infos: dict[str, Any] = {}
        if terminated.any():
            infos = {
                "final_obs": np.array(final, dtype=object),
                "_final_obs": terminated.copy(),
                "winner": np.array(winners, dtype=object),
                "_winner": terminated.copy(),
            }
        return self._batch(), rewards, terminated, np.zeros(n, dtype=bool), infos

    def sample(self, obs: Obs, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A random legal action for each battle (a baseline, and the benchmark's policy)."""
        return sample_legal(obs, rng)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


def _worker(pipe: Connection, n: int, kwargs: dict[str, Any]) -> None:
    """A worker process: its share of the battles, answering the parent's calls."""
    envs = VectorKolrami(n, **kwargs)
    while True:
        call, arg = pipe.recv()
        if call == "reset":
            pipe.send(envs.reset(seed=arg))
        elif call == "step":
            pipe.send(envs.step(arg))
        else:
            envs.close()
            pipe.close()
            return


class ProcessVectorKolrami(VectorEnv):
    """`num_envs` battles shared among `processes` worker processes, each stepping its share
    as VectorKolrami does; the same interface and results as VectorKolrami for the same seed."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012  # (as VectorEnv's)

    def __init__(self, num_envs: int, processes: int = 2, **kwargs: Any) -> None:
        _check(num_envs)
        if not isinstance(processes, int) or not 1 <= processes <= num_envs:
            raise InvalidInputError(f"processes {processes!r}: from 1 to num_envs ({num_envs})")
        self.num_envs = num_envs
        probe = KolramiGym(**kwargs)  # its arguments refused here, in this process, in one line
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space, self.action_space = _spaces(num_envs)
        shares = [
            num_envs // processes + (1 if i < num_envs % processes else 0) for i in range(processes)
        ]
        self.cuts = np.cumsum([0, *shares])
        # (forked workers start at once; elsewhere they import kolrami afresh)
        context = mp.get_context("fork") if sys.platform == "linux" else mp.get_context("spawn")
        self.pipes: list[Connection] = []
        self.workers = []
        for share in shares:
            parent, child = context.Pipe()
            worker = context.Process(target=_worker, args=(child, share, kwargs), daemon=True)
            worker.start()
            child.close()
            self.pipes.append(parent)
            self.workers.append(worker)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Every battle anew: battle i's seed is `seed + i` (or `seed[i]`), as VectorKolrami."""
        for k, pipe in enumerate(self.pipes):
            lo, hi = int(self.cuts[k]), int(self.cuts[k + 1])
            part = None if seed is None else (seed + lo if isinstance(seed, int) else seed[lo:hi])
            pipe.send(("reset", part))
        results = [pipe.recv() for pipe in self.pipes]
        return _join([r[0] for r in results]), {}

    def step(self, actions: npt.ArrayLike) -> Stepped:
        acts = _actions(actions, self.num_envs)
        for k, pipe in enumerate(self.pipes):
            pipe.send(("step", acts[self.cuts[k] : self.cuts[k + 1]]))
        results = [pipe.recv() for pipe in self.pipes]
        obs = _join([r[0] for r in results])
        rewards = np.concatenate([r[1] for r in results])
        terminated = np.concatenate([r[2] for r in results])
        truncated = np.concatenate([r[3] for r in results])
        infos: dict[str, Any] = {}
        if terminated.any():
            for key in ("final_obs", "winner"):
                parts = []
                for r, share in zip(results, np.diff(self.cuts), strict=True):
                    parts.append(r[4].get(key, np.array([None] * int(share), dtype=object)))
                infos[key] = np.concatenate(parts)
                infos["_" + key] = terminated.copy()
        return obs, rewards, terminated, truncated, infos

    def sample(self, obs: Obs, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A random legal action for each battle (as VectorKolrami.sample)."""
        return sample_legal(obs, rng)

    def close_extras(self, **kwargs: Any) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(BrokenPipeError, OSError):  # (a worker already gone)
                pipe.send(("close", None))
        for worker in self.workers:
            worker.join(timeout=5)


def _join(parts: list[Obs]) -> Obs:
    return {key: np.concatenate([p[key] for p in parts]) for key in ("observation", "action_mask")}


def sample_legal(obs: Obs, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
    """A random legal action for each row of a batch of observations."""
    rng = rng or np.random.default_rng()
    masks = obs["action_mask"].astype(np.float64)
    noise = rng.random(masks.shape) * masks - (1 - masks)
    return np.asarray(noise.argmax(axis=1), dtype=np.int64)
