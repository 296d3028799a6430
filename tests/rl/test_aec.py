"""`kolrami.rl`'s PettingZoo AEC environment: PettingZoo's own API and seed tests on both
scenarios, the log `kolrami battle` gives for the same orders, refusals, and what an agent can
see."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.test import seed_test
from typer.testing import CliRunner

from kolrami.captains.features import FIELDS
from kolrami.captains.features import MAX_SHIPS
from kolrami.captains.features import SHIP
from kolrami.captains.features import SIZE
from kolrami.captains.macro import ACTIONS
from kolrami.captains.macro import BLOCKS
from kolrami.captains.macro import N_ACTIONS
from kolrami.captains.macro import kind_of
from kolrami.cli import app
from kolrami.engine.events import ControlChanged
from kolrami.errors import KolramiError
from kolrami.rl import IllegalActionError
from kolrami.rl import KolramiAEC
from kolrami.rl import env

SCENARIOS = ("standard", "peak-performance")
#: PettingZoo's api_test warns of any environment whose observations are dicts with an action
#: mask (its own classic games are listed as exceptions)
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_pettingzoo_api_test(scenario: str) -> None:
    api_test(env(scenario=scenario, turns=2), num_cycles=60)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_pettingzoo_seed_test(scenario: str) -> None:
    seed_test(lambda: env(scenario=scenario, turns=2), num_cycles=60)


def play_doctrine(e: KolramiAEC, seed: int) -> dict[str, float]:
    """Every agent takes its block's first action, the aggressive doctrine's own answer; the
    rewards each agent was given when it was done."""
    e.reset(seed=seed)
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = float(reward)
            e.step(None)
            continue
        decision = e.match.decision if e.match else None
        assert decision is not None
        e.step(BLOCKS[kind_of(decision)][0])
    return final


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_log_is_the_one_kolrami_battle_gives_for_the_same_orders(scenario: str) -> None:
    e = env(scenario=scenario, turns=2, names=("aggressive", "aggressive"))
    play_doctrine(e, 7)
    out = CliRunner().invoke(
        app, ["battle", "--scenario", scenario, "--turns", "2", "--seed", "7", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["log_sha256"] == e.battle.log.sha256()
    assert e.log() == e.battle.log.jsonl()
    assert "<html" in e.replay_html().lower()


def test_an_action_not_offered_is_refused_naming_the_decision_and_the_legal_choices() -> None:
    e = env(turns=2)
    e.reset(seed=3)
    obs, *_ = e.last()
    mask = obs["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = len(e.battle.log)
    with pytest.raises(IllegalActionError) as refused:
        e.step(illegal)
    message = str(refused.value)
    assert "\n" not in message
    assert ACTIONS[illegal] in message
    decision = e.match.decision if e.match else None
    assert str(decision) in message
    for index in np.flatnonzero(mask):
        assert f"{index} {ACTIONS[index]}" in message
    assert len(e.battle.log) == before  # the battle untouched
    with pytest.raises(IllegalActionError, match="not in 0"):
        e.step(N_ACTIONS + 5)
    e.step(int(np.flatnonzero(mask)[0]))  # and a legal one is taken


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"scenario": "no-such-scenario"}, "scenario"),
        ({"scenario": "advanced"}, "advanced game"),
        ({"fleets": ("presets:no-such-fleet", "presets:klingon-wolfpack")}, "no-such-fleet"),
        ({"reward": "glory"}, "reward 'glory'"),
        ({"reward": "points"}, "scores no Fleet Points"),
        ({"turns": 0}, "turns 0"),
        ({"rules": ("no-such-rule",)}, "no-such-rule"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_arguments_are_refused_at_construction_in_one_line(
    kwargs: dict[str, Any], says: str
) -> None:
    with pytest.raises(KolramiError) as refused:
        KolramiAEC(**kwargs)
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("seed", [2, 9])
def test_the_reward_is_the_scenarios_result(seed: int) -> None:
    e = env(scenario="standard", turns=2)
    final = play_doctrine(e, seed)
    result = e.battle.result
    assert result is not None
    want = (
        {"A": 0.0, "B": 0.0}
        if result.winner is None
        else {s: 1.0 if s == result.winner else -1.0 for s in "AB"}
    )
    assert final == {"player_0": want["A"], "player_1": want["B"]}


def test_the_peak_performance_reward_may_be_the_fleet_point_difference() -> None:
    e = env(scenario="peak-performance", turns=2, reward="points")
    final = play_doctrine(e, 5)
    fp = e.battle.fleet_points
    assert final == {"player_0": (fp["A"] - fp["B"]) / 100, "player_1": (fp["B"] - fp["A"]) / 100}


def test_a_shaped_reward_adds_up_to_points_destroyed_and_the_result() -> None:
    e = env(scenario="standard", turns=2, reward="shaped")
    e.reset(seed=2)
    total = {"player_0": 0.0, "player_1": 0.0}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert e.match is not None
        assert e.match.decision is not None
        e.step(BLOCKS[kind_of(e.match.decision)][0])
    assert total["player_0"] == pytest.approx(-total["player_1"])


def test_render_is_text() -> None:
    e = env(turns=1, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None
    decision = e.match.decision if e.match else None
    assert decision is not None
    assert f"side {decision.side} decides" in text
    assert f"{kind_of(decision)}:aggressive" in text


def enemy_slots(observation: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    start = FIELDS.index("enemy_1_present")
    return observation[start : start + MAX_SHIPS * len(SHIP)]


def test_an_agent_cannot_see_or_change_what_its_side_may_not_know() -> None:
    """As the cheater-captain test (tests/captains/test_views.py) does for captains: the
    observation is built from the side's view, so an enemy its side cannot see leaves no trace,
    wherever that ship is; and an agent writing to its observation changes no battle."""
    e = env(turns=2)
    e.reset(seed=4)
    battle = e.battle
    battle.sight = lambda side, ship: ship.side == side  # every enemy hidden from its enemy
    seen = e.observe("player_0")["observation"]
    assert seen.shape == (SIZE,)
    assert not enemy_slots(seen).any()
    for ship in battle.side_ships("B"):  # the hidden ships move: side A's agent sees nothing
        ship.x, ship.y, ship.heading = 10.0, 10.0, 2
    battle.record(ControlChanged("B1", True))  # (a change: fresh snapshots)
    again = e.observe("player_0")["observation"]
    assert np.array_equal(seen, again)
    assert e.observe("player_1")["observation"][FIELDS.index("own_1_x")] == pytest.approx(
        10.0 / battle.scenario.table_width_cm
    )
    battle.sight = None
    shown = e.observe("player_0")["observation"]
    assert enemy_slots(shown).any()
    log = battle.log.sha256()
    shown[:] = 0  # an agent writing to its observation
    e.observe("player_0")["action_mask"][:] = 1
    assert battle.log.sha256() == log
    assert e.observe("player_0")["observation"].any()
