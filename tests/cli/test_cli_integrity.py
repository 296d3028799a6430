"""`kolrami tournament` refuses what would record something wrong (issue 16): one line, exit 2,
nothing stored changed; corrections are explicit and logged; roll-offs show their dice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import refused
from cli_kit import run_ok
from typer.testing import CliRunner

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "k.db")
    run_ok("tournament", "new", "Nov", "--seed", "5", "--db", path)
    for name, preset in (("Ann", "federation-cruisers"), ("Bob", "klingon-wolfpack")):
        run_ok("tournament", "player", "add", name, "--fleet", f"presets:{preset}", "--db", path)
    return path


def test_the_last_report_does_not_rewrite_a_table(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    standings = run_ok("tournament", "standings", "--db", db)
    assert "Admiral" not in standings  # no titles before any round
    assert "Level" not in standings
    run_ok("tournament", "pair", "--db", db)
    run_ok("tournament", "result", "1", "Ann", "--win", "--fp", "85", "--anyway", "--db", db)
    before = run_ok("tournament", "export", "--db", db)
    assert "disagrees" in refused(
        capsys, "tournament", "result", "1", "Bob", "--win", "--fp", "84", "--db", db
    )
    run_ok("tournament", "result", "1", "Bob", "--loss", "--fp", "0", "--db", db)
    after_bob = run_ok("tournament", "export", "--db", db)
    assert "--correct" in refused(
        capsys, "tournament", "result", "1", "Ann", "--loss", "--fp", "200", "--db", db
    )
    run_ok("tournament", "verify", "1", "Ann", "--initials", "BB", "--stage", "result", "--db", db)
    assert "initialled" in refused(
        capsys, "tournament", "result", "1", "Ann", "--win", "--fp", "90", "--db", db
    )
    assert before != after_bob
    run_ok(
        "tournament", "result", "1", "Ann", "--win", "--fp", "90", "--correct",
        "--why", "misread the sheet", "--who", "Mara", "--db", db,
    )  # fmt: skip
    log = json.loads(run_ok("tournament", "export", "--db", db))["corrections"]
    assert log[-1]["who"] == "Mara: misread the sheet"
    assert "85 -> 90" in log[-1]["what"]


@pytest.mark.rule("PP-22")
def test_a_winner_with_fewer_fleet_points_is_refused(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run_ok("tournament", "pair", "--db", db)
    run_ok("tournament", "result", "1", "Ann", "--win", "--fp", "0", "--db", db)
    err = refused(capsys, "tournament", "result", "1", "Bob", "--loss", "--fp", "108", "--db", db)
    assert "Ann cannot have won with 0 Fleet Points against Bob's 108" in err
    assert "(PP-22)" in err


@pytest.mark.rule("OP-24")
def test_roll_offs_show_dice_and_refuse_impossible_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "r.db")
    run_ok("tournament", "new", "R", "--seed", "2", "--db", path)
    for i, preset in enumerate(("federation-cruisers", "klingon-wolfpack") * 2):
        run_ok("tournament", "player", "add", f"P{i}", "--fleet", f"presets:{preset}", "--db", path)
    assert "no round has been played yet" in refused(
        capsys, "tournament", "rolloff", "--enter", "P0=3", "--enter", "P1=2", "--db", path
    )
    pairing = json.loads(run_ok("tournament", "pair", "--json", "--db", path))
    for t in pairing["tables"]:
        run_ok("tournament", "result", "1", t["a"], "--win", "--fp", "10", "--anyway", "--db", path)
        run_ok("tournament", "result", "1", t["b"], "--loss", "--fp", "0", "--db", path)
    winners = sorted(t["a"] for t in pairing["tables"])
    standings = run_ok("tournament", "standings", "--db", path)
    assert "share a rank: roll off" in standings
    data = json.loads(run_ok("tournament", "standings", "--json", "--db", path))
    assert data["rounds_played"] == 1
    assert [t["players"] for t in data["ties"]] == [
        winners,
        sorted(t["b"] for t in pairing["tables"]),
    ]
    a, b = winners
    assert "0 to 5" in refused(
        capsys, "tournament", "rolloff", "--enter", f"{a}=3", "--enter", f"{b}=9", "--db", path
    )
    assert "roll again" in refused(
        capsys, "tournament", "rolloff", "--enter", f"{a}=3", "--enter", f"{b}=3", "--db", path
    )
    assert "write PLAYER=N" in refused(
        capsys, "tournament", "rolloff", "--enter", f"{a}=\u00b2", "--db", path
    )
    out = run_ok(
        "tournament", "rolloff", "--enter", f"{a}=3,1", "--enter", f"{b}=3,4", "--db", path
    )
    assert f"{b} 3 then 4, {a} 3 then 1" in out
    out = run_ok("tournament", "rolloff", "--db", path)
    assert "hits and criticals of five attack dice" in out
    assert "00000" not in out  # dice, not sort keys
    standings = run_ok("tournament", "standings", "--db", path)
    assert "Ordered by the roll-off after round 1" in standings
    assert "Level" not in standings
    log = json.loads(run_ok("tournament", "export", "--db", path))["corrections"]
    assert sum("roll-off after round 1" in c["what"] for c in log) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--date", "2026-13-45"), "not a calendar date"),
        (("--limit", "9" * 30), "SP limit"),
        (("--limit", "-5"), "SP limit"),
        (("--seed", "-1"), "seed -1"),
        (("--rounds", "0"), "0 rounds"),
    ],
)
def test_event_settings_that_cannot_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    path = tmp_path / "s.db"
    assert message in refused(capsys, "tournament", "new", "X", *args, "--db", str(path))
    assert not path.exists()  # nothing made


def test_fleet_points_too_large_for_the_store(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run_ok("tournament", "pair", "--db", db)
    before = run_ok("tournament", "export", "--db", db)
    assert "no battle scores more" in refused(
        capsys, "tournament", "result", "1", "Ann", "--win", "--fp", "9" * 25, "--db", db
    )
    assert run_ok("tournament", "export", "--db", db) == before


def test_standings_say_how_many_rounds_are_played(db: str) -> None:
    run_ok("tournament", "pair", "--db", db)
    data = json.loads(run_ok("tournament", "standings", "--json", "--db", db))
    assert (data["rounds_paired"], data["rounds_played"], data["ties"]) == (1, 0, [])
    assert "Standings: round 1 in progress, no round complete yet" in run_ok(
        "tournament", "standings", "--db", db
    )
    run_ok("tournament", "player", "drop", "Bob", "--db", db)
    data = json.loads(run_ok("tournament", "standings", "--json", "--db", db))
    assert {r["player"]: r["dropped"] for r in data["standings"]} == {"Ann": False, "Bob": True}
    assert "Bob (dropped)" in run_ok("tournament", "standings", "--db", db)
