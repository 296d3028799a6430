"""The organizer's score check: which Fleet Point totals a fleet can give up (PP-16..21)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.errors import InvalidInputError
from kolrami.rules.sandbox import fleet_of
from kolrami.sim.score_check import check_score

CRUISERS = fleet_of([["reliant", "reliant", "charger"]])  # 90, 90 and 70 SP, no cards


@pytest.mark.rule("PP-16", "PP-17", "PP-21")
@pytest.mark.parametrize(
    ("points", "resets"),
    [
        (0, [0, 0, 0]),
        (95, [1, 0, 0]),
        (75, [0, 0, 1]),
        (265, [1, 1, 1]),
        (190, [1, 1, 0]),
        (360, [2, 1, 1]),
    ],
)
def test_achievable_totals_with_a_breakdown(points: int, resets: list[int]) -> None:
    verdict = check_score(CRUISERS, points)
    assert verdict.achievable
    assert [s.resets for s in verdict.ships] == resets
    assert verdict.kill_points + verdict.bonus_points == points
    assert verdict.bonus_points == 5 * sum(resets)


@pytest.mark.rule("PP-16", "PP-21")
@pytest.mark.parametrize("points", [1, 90, 94, 96, 212, 264, 266])
def test_impossible_totals_are_rejected_with_the_nearest(points: int) -> None:
    verdict = check_score(CRUISERS, points)
    assert not verdict.achievable
    below, above = verdict.nearest
    assert below is None or (below < points and check_score(CRUISERS, below).achievable)
    assert above is not None
    assert above > points
    assert check_score(CRUISERS, above).achievable


@pytest.mark.rule("PP-17")
def test_a_ship_resets_at_most_once_a_turn() -> None:
    lone = fleet_of([["bird-of-prey"]])  # 15 SP: 20 a reset
    assert check_score(lone, 20 * 12, turns=12).achievable
    assert not check_score(lone, 20 * 13, turns=12).achievable
    assert check_score(lone, 20 * 13, turns=13).achievable


@pytest.mark.rule("PP-18", "PP-19")
def test_the_resource_scores_once_every_ship_has_a_token() -> None:
    fleet = CRUISERS.model_copy(update={"resource": "reinforcements-sideboard"})
    verdict = check_score(fleet, 265 + 10)
    assert verdict.achievable
    assert verdict.resource_points == 10
    assert [s.resets for s in verdict.ships] == [1, 1, 1]
    # the resource cannot score unless every ship was reset
    assert not check_score(fleet, 95 + 10).achievable
    # once per battle by default; again on each later reset with the repeat option:
    # 485 = Reliant x2, Reliant x2, Charger x1 (4 x 95 + 75) plus the resource 3 times
    assert not check_score(fleet, 485).achievable
    repeat = check_score(fleet, 485, resource_repeat=True)
    assert repeat.achievable
    assert [s.resets for s in repeat.ships] == [2, 2, 1]
    assert repeat.resource_points == 30


def test_bad_numbers() -> None:
    with pytest.raises(InvalidInputError, match="negative"):
        check_score(CRUISERS, -5)
    with pytest.raises(InvalidInputError, match="turns"):
        check_score(CRUISERS, 5, turns=0)


def test_cli_peak_check(tmp_path: Path) -> None:
    runner = CliRunner()
    fleet = tmp_path / "cruisers.json"
    fleet.write_text(CRUISERS.model_dump_json())
    ok = runner.invoke(app, ["peak", "check", "--fleet", str(fleet), "--points", "265", "--json"])
    assert ok.exit_code == 0
    data = json.loads(ok.stdout)
    assert data["achievable"] is True
    assert data["breakdown"]["bonus"] == 15
    bad = runner.invoke(app, ["peak", "check", "--fleet", str(fleet), "--points", "212"])
    assert bad.exit_code == 1
    assert "Not achievable" in bad.stdout
    assert "190 and 225" in bad.stdout
    # the same answer, the same exit code, with --json (issue 16, item 22)
    bad_json = runner.invoke(
        app, ["peak", "check", "--fleet", str(fleet), "--points", "212", "--json"]
    )
    assert bad_json.exit_code == 1
    assert json.loads(bad_json.stdout)["achievable"] is False


def test_a_typo_far_above_any_score_is_answered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The web app checks the organizer's entry on its event loop (and a player's report under
    # the store's write lock): an extra digit must not make the search for the nearest
    # achievable total walk down from it one point at a time (10 s for 20,000; 10 digits: hours).
    from kolrami.sim import score_check

    real, calls = score_check._resets_for, [0]

    def counted(values: list[int], caps: list[int], target: int) -> list[int] | None:
        calls[0] += 1
        assert calls[0] < 1000, "the search walks point by point"
        return real(values, caps, target)

    monkeypatch.setattr(score_check, "_resets_for", counted)
    top = 12 * (95 + 95 + 75)  # every ship reset every turn
    for typo in (top + 1, 31800, 9_999_999_999):
        verdict = check_score(CRUISERS, typo)
        assert not verdict.achievable
        assert verdict.nearest == (top, None)
