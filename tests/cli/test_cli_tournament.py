"""`kolrami tournament ...` as the organizer meets it, and standings from a results file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_kit import refused
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.cli import main

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


RESULTS: dict[str, Any] = {
    "players": ["Ann", "Ben", "Cat"],
    "rounds": [
        [{"a": "Ann", "b": "Ben", "winner": "Ann", "fp": {"Ann": 120, "Ben": 47}}, {"bye": "Cat"}],
        [{"a": "Ann", "b": "Cat", "winner": "Cat", "fp": {"Ann": 90, "Cat": 100}}, {"bye": "Ben"}],
        [{"a": "Ben", "b": "Cat", "winner": "Ben", "fp": {"Ben": 80, "Cat": 70}}, {"bye": "Ann"}],
    ],
}


@pytest.mark.rule("OP-10", "OP-18", "OP-22")
def test_standings_from_a_results_file(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(RESULTS))
    data = json.loads(ok("tournament", "standings", "--from", str(path), "--json"))
    rows = {r["player"]: r for r in data["standings"]}
    # byes score the mean of the others that round, rounded up: 84, 95, 75
    assert rows["Cat"]["fp_by_round"] == [84, 100, 70]
    assert rows["Ben"]["fp_by_round"] == [47, 95, 80]
    assert rows["Ann"]["fp_by_round"] == [120, 90, 75]
    assert [(r["rank"], r["title"], r["player"]) for r in data["standings"]] == [
        (1, "Admiral", "Ann"),
        (2, "Vice Admiral", "Cat"),
        (3, "", "Ben"),
    ]
    assert set(data["standings"][0]) == {
        "rank",
        "title",
        "player",
        "battle_points",
        "fleet_points",
        "byes",
        "fp_by_round",
        "tied",
        "dropped",
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rounds"][0].append({"bye": "Ann"}), "Ann plays twice in round 1"),
        (lambda d: d["rounds"][1][0].update(b="Zed"), "unknown player 'Zed'"),
        (lambda d: d["rounds"][2][0].update(winner="Ann"), "winner 'Ann' did not play this game"),
        (lambda d: d["rounds"][0][0]["fp"].pop("Ben"), "fp must give the Fleet Points"),
        (lambda d: d.update(players=["Ann", "Ann"]), "'Ann' is listed twice"),
        (lambda d: d.update(rolloffs={"Zed": 3}), "rolloffs: unknown player 'Zed'"),
    ],
)
def test_bad_results_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, message: str
) -> None:
    doc = json.loads(json.dumps(RESULTS))
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert message in refused(capsys, "tournament", "standings", "--from", str(path))


def test_an_event_at_the_counter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "kolrami.db")
    ok(
        "tournament",
        "new",
        "Peak Performance November",
        "--date",
        "2026-11-30",
        "--seed",
        "5",
        "--db",
        db,
    )
    for name, preset in (
        ("Mara", "federation-cruisers"),
        ("Dev", "klingon-wolfpack"),
        ("Ilse", "federation-venture"),
    ):
        ok("tournament", "player", "add", name, "--fleet", f"presets:{preset}", "--db", db)
    out = ok("tournament", "pair", "--db", db)
    assert "bye: 2 BP" in out
    pairing = json.loads(ok("tournament", "standings", "--json", "--db", db))
    assert (pairing["rounds_paired"], pairing["rounds_played"]) == (1, 0)  # paired, not played
    tables = _store_games(db, 1)
    game = next(g for g in tables if g["b"])
    ok("tournament", "verify", "1", game["a"], "--initials", "XY", "--db", db)
    ok("tournament", "result", "1", game["a"], "--win", "--fp", "250", "--anyway", "--db", db)
    # 212 is impossible against the winner's fleet: refused, then recorded as the table agreed
    assert main(["tournament", "result", game["b"], "--loss", "--fp", "212", "--db", db]) == 2
    assert "--anyway" in capsys.readouterr().err
    out = ok(
        "tournament", "result", "1", game["b"], "--loss", "--fp", "212", "--anyway", "--db", db
    )
    assert "Recorded anyway:" in out
    data = json.loads(ok("tournament", "standings", "--json", "--db", db))
    assert data["standings"][0]["battle_points"] == 2
    sheet = tmp_path / "sheets.html"
    ok("tournament", "sheet", "--html", str(sheet), "--db", db)
    html = sheet.read_text()
    assert "SCORE SHEET" in html
    assert html.count("FLEET BUILD SHEET") >= 3
    export = tmp_path / "event.json"
    ok("tournament", "export", "--out", str(export), "--db", db)
    other = str(tmp_path / "other.db")
    ok("tournament", "import", str(export), "--db", other)
    assert (
        json.loads(ok("tournament", "standings", "--json", "--db", other))["standings"]
        == data["standings"]
    )
    # bad input: one line, exit 2, nothing changed
    assert main(["tournament", "result", "1", "Nobody", "--win", "--fp", "10", "--db", db]) == 2
    assert "no player 'Nobody'" in capsys.readouterr().err
    assert main(["tournament", "result", "1", game["a"], "--win", "--fp", "-3", "--db", db]) == 2
    assert "scores start at 0" in capsys.readouterr().err
    after = json.loads(ok("tournament", "standings", "--json", "--db", db))
    assert after == data


def _store_games(db: str, number: int) -> list[dict[str, Any]]:
    from kolrami.tournament.store import Store

    return Store(db).games(None, number)


def test_simulate_a_whole_event(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    out = ok("tournament", "simulate", "--players", "5", "--seed", "2", "--report", str(report))
    assert "Round 3" in out
    assert "Admiral" in out
    assert "bye" in out
    html = report.read_text()
    assert "Final standings" in html
    replays = list((tmp_path / "report_replays").glob("*.html"))
    assert len(replays) == 6  # two games a round, three rounds
    data = json.loads(ok("tournament", "simulate", "--players", "5", "--seed", "2", "--json"))
    again = json.loads(ok("tournament", "simulate", "--players", "5", "--seed", "2", "--json"))
    assert data["standings"] == again["standings"]  # one seed, one event


def test_bad_tournament_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    assert main(["tournament", "pair", "--db", db]) == 2
    assert "no such store (nothing was created)" in capsys.readouterr().err
    assert not Path(db).exists()
    assert main(["tournament", "new", "X", "--scenario", "standart", "--db", db]) == 2
    assert "did you mean 'standard'?" in capsys.readouterr().err
    assert main(["tournament", "simulate", "--players", "1"]) == 2
    assert "at least 2 players" in capsys.readouterr().err
