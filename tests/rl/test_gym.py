"""`kolrami.rl`'s Gymnasium wrapper: Gymnasium's own env checker on both scenarios, one agent
against built-in and plugin captains, refusals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from kolrami.errors import KolramiError
from kolrami.rl import IllegalActionError
from kolrami.rl.gym import KolramiGym

SCENARIOS = ("standard", "peak-performance")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_gymnasium_check_env(scenario: str) -> None:
    # (the checker steps unmasked samples: an action not offered plays the doctrine's)
    env = KolramiGym(scenario=scenario, turns=1, illegal="doctrine")
    check_env(env, skip_render_check=True)


def play(env: KolramiGym, seed: int) -> tuple[float, int, dict[str, object]]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize(("side", "opponent"), [("A", "random"), ("B", "kiting")])
def test_an_agent_plays_a_whole_battle_against_a_captain(side: str, opponent: str) -> None:
    env = KolramiGym(scenario="peak-performance", turns=2, side=side, opponent=opponent)
    reward, steps, info = play(env, 3)
    assert steps > 0
    assert reward in (-1.0, 0.0, 1.0)
    assert info["winner"] in ("A", "B", None)
    assert env.match is not None
    assert env.match.battle.header["captains"][0 if side == "B" else 1] == opponent


def test_the_same_seed_plays_the_same_battle() -> None:
    env = KolramiGym(turns=2)
    play(env, 8)
    first = env.match.battle.log.sha256() if env.match else ""
    play(env, 8)
    assert env.match is not None
    assert env.match.battle.log.sha256() == first


PLUGIN = """
from kolrami.captains.doctrines import AggressiveCaptain


class Brawler(AggressiveCaptain):
    name = "brawler"
"""


def test_a_plugin_captain_is_an_opponent(tmp_path: Path) -> None:
    path = tmp_path / "brawler.py"
    path.write_text(PLUGIN)
    env = KolramiGym(turns=1, opponent=f"{path}:Brawler")
    _, steps, _ = play(env, 1)
    assert steps > 0


def test_an_action_not_offered_is_refused_by_default() -> None:
    env = KolramiGym(turns=1)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal: "):
        env.step(illegal)


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"opponent": "no-such-captain"}, "no-such-captain"),
        ({"side": "C"}, "side 'C'"),
        ({"illegal": "ignore"}, "illegal 'ignore'"),
        ({"rules": ("adv-cloak",)}, "advanced game"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(kwargs: dict[str, str], says: str) -> None:
    with pytest.raises(KolramiError) as refused:
        KolramiGym(**kwargs)  # type: ignore[arg-type]
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)
