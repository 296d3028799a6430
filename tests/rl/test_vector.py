"""`kolrami.rl`'s vector environments: N battles in one process, and the same battles across
worker processes."""

from __future__ import annotations

import numpy as np
import pytest

from kolrami.captains.features import SIZE
from kolrami.captains.macro import N_ACTIONS
from kolrami.errors import KolramiError
from kolrami.rl.vector import ProcessVectorKolrami
from kolrami.rl.vector import VectorKolrami


def run(envs: VectorKolrami | ProcessVectorKolrami, steps: int) -> tuple[float, int, list[bytes]]:
    obs, _ = envs.reset(seed=10)
    rng = np.random.default_rng(0)
    total, ended, seen = 0.0, 0, []
    for _ in range(steps):
        assert obs["observation"].shape == (envs.num_envs, SIZE)
        assert obs["action_mask"].shape == (envs.num_envs, N_ACTIONS)
        assert obs["action_mask"].any(axis=1).all()  # every battle offers a legal action
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample(obs, rng))
        assert not truncated.any()
        total += float(rewards.sum())
        ended += int(terminated.sum())
        if terminated.any():
            assert set(infos["winner"][terminated]) <= {"A", "B", None}
        seen.append(obs["observation"].tobytes())
    return total, ended, seen


def test_battles_end_and_begin_again_in_one_process() -> None:
    envs = VectorKolrami(3, turns=1, opponent="random")
    total, ended, _ = run(envs, 40)
    assert ended >= 3
    assert -ended <= total <= ended
    envs.close()


def test_worker_processes_play_the_same_battles() -> None:
    one = VectorKolrami(3, turns=1, opponent="random")
    many = ProcessVectorKolrami(3, processes=2, turns=1, opponent="random")
    try:
        assert run(one, 25) == run(many, 25)
    finally:
        many.close()
        one.close()


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(KolramiError, match="num_envs 0"):
        VectorKolrami(0)
    with pytest.raises(KolramiError, match="processes 3"):
        ProcessVectorKolrami(2, processes=3)
    envs = VectorKolrami(2, turns=1)
    envs.reset(seed=1)
    with pytest.raises(KolramiError, match="3 actions for 2 battles"):
        envs.step([0, 0, 0])
