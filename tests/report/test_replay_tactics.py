"""The replay of module adv-tactics' battles (issue 18): an advanced turn's moves phase by phase,
tractor beams, beam-overs and docks as lines between the two ships, and the tactics events in
the log."""

from __future__ import annotations

from functools import cache
from typing import Any

from kolrami.fleet import load_fleet
from kolrami.report.replay import replay_data
from kolrami.rules.advanced import tactics_events as te
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate


@cache
def _data(
    scenario: str, a: str, b: str, seed: int, captain: str = "random"
) -> tuple[dict[str, Any], int]:
    battle = simulate(
        builtin_scenario(scenario),
        (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}")),
        (captain, captain),
        seed,
    )
    docks = sum(isinstance(e, te.Docked) for e in battle.events())
    return replay_data(battle.events()), docks


def links(data: dict[str, Any], kind: str) -> list[list[Any]]:
    return [link for step in data["steps"] for link in step["links"] if link[4] == kind]


def test_an_advanced_turn_s_moves_are_drawn() -> None:
    data, _ = _data("boarding-action", "gorn-hunters", "klingon-wolfpack", 2)
    moves = [m for step in data["steps"] for m in step["moves"]]
    assert moves
    for _, a, b, path, _ in moves:
        assert 0 <= a <= b <= 1
        assert len(path) >= 2


def test_tractor_beams_and_beam_overs_are_lines_between_the_ships() -> None:
    data, _ = _data("boarding-action", "gorn-hunters", "klingon-wolfpack", 2, "aggressive")
    tractors = links(data, "tractor")
    boards = links(data, "board")
    assert tractors
    assert boards
    for a, b, one, two, _ in tractors + boards:
        assert 0 <= a <= b <= 1
        assert one != two
    told = [line[1] for step in data["steps"] for line in step["log"] if line[2] == "tactics"]
    assert any("tractor beam" in t for t in told)
    assert any("boarder" in t for t in told)


def test_a_dock_is_a_line_to_the_base_while_it_lasts() -> None:
    seed = next(
        s
        for s in range(40)
        if _data("starbase-assault", "federation-starbase", "klingon-wolfpack", s)[1]
    )
    data, _ = _data("starbase-assault", "federation-starbase", "klingon-wolfpack", seed)
    docks = links(data, "dock")
    assert docks
    base = [s["id"] for s in data["ships"]].index("A1")  # the starbase
    assert all(link[3] == base for link in docks)
