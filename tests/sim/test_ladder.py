"""The captain ladder: every pair of captains on mirror fleets, ranked by Bradley-Terry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_options import flags
from kolrami.cli import app
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import load_fleet
from kolrami.scenarios.models import load_scenario
from kolrami.sim.ladder import LadderPlan
from kolrami.sim.ladder import fleets_of
from kolrami.sim.ladder import rank_text
from kolrami.sim.ladder import run_ladder
from kolrami.sim.ladder import summarise_ladder

runner = CliRunner()


def _plan(battles: int = 4, captains: tuple[str, ...] = ("aggressive", "random")) -> LadderPlan:
    return LadderPlan(
        captains,
        fleets_of(["presets:federation-cruisers"], load_fleet),
        load_scenario("standard"),
        battles=battles,
        seed=2,
    )


def test_a_ladder_is_the_same_on_one_worker_and_two() -> None:
    plan = _plan(6, ("aggressive", "kiting", "random"))
    one, two = run_ladder(plan, 1), run_ladder(plan, 2)
    assert one.scores == two.scores
    assert one.to_json() == two.to_json()
    data = one.to_json()
    assert data["settings"]["battles"] == plan.total == 3 * 6
    assert [r["captain"] for r in data["ranking"]][-1] == "random"  # the fuzzer comes last
    assert {(p["captain"], p["opponent"]) for p in data["pairings"]} == {
        ("aggressive", "kiting"),
        ("aggressive", "random"),
        ("kiting", "random"),
    }


@pytest.mark.parametrize(
    ("captains", "battles", "message"),
    [
        (("aggressive",), 2, "at least two captains"),
        (("aggressive", "aggressive"), 2, "each captain once"),
        (("aggressive", "random"), 0, "at least 1"),
        (("aggressive", "random"), 10**9, "at most 200,000"),
        (("aggressive", "nosuch_mod_q:X"), 2, "cannot be imported"),
    ],
)
def test_a_ladder_that_cannot_be_played_is_refused(
    captains: tuple[str, ...], battles: int, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        _plan(battles, captains)


def test_the_ladder_command(tmp_path: Path) -> None:
    report = tmp_path / "ladder.html"
    options = flags(fleets="presets:klingon-wolfpack", battles=2, workers=1, report=report)
    result = runner.invoke(app, ["ladder", "aggressive", "random", *options, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["settings"]["fleets"] == ["klingon-wolfpack"]
    assert "Captain ladder" in report.read_text(encoding="utf-8")
    bad = runner.invoke(app, ["ladder", "aggressive", "--battles", "2"])
    assert bad.exit_code == 2
    assert "at least two captains" in bad.output


def test_captains_the_ladder_cannot_tell_apart_are_marked() -> None:
    """Issue 47 item 19: two captains level in play (their intervals overlap) share a marked
    rank and name each other; a captain that loses nine games in ten to both is told apart."""
    plan = _plan(20, ("aggressive", "kiting", "random"))
    scores = {}
    for n, g in enumerate(plan.games()):
        if {g.i, g.j} == {0, 1}:
            scores[g] = float(g.k % 2)  # aggressive and kiting: one game each in turn
        else:
            random_won = n % 10 == 0  # random wins one game in ten
            scores[g] = float(random_won) if g.i == 2 else float(not random_won)
    data = summarise_ladder(plan, scores).to_json()
    rows = {r["captain"]: r for r in data["ranking"]}
    assert rows["aggressive"]["tied"]
    assert rows["kiting"]["tied"]
    assert rows["aggressive"]["level_with"] == ["kiting"]
    assert rows["kiting"]["level_with"] == ["aggressive"]
    assert not rows["random"]["tied"]
    assert rows["random"]["level_with"] == []
    assert [rank_text(r) for r in data["ranking"]] == ["=1", "=2", "3"]
    page = summarise_ladder(plan, scores).html()
    assert "Cannot be told from" in page
    assert "<td>=1</td>" in page
