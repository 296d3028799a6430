"""The tournament commands take their arguments one way (issue 47, items 6, 8 and 12; issue 45's
shared argument types): the player first, the round --round N (default: the latest paired), the
event --event NAME; the earlier forms still work. An impossible score is refused unless
--anyway; `pair` and `result` print the public standings address and the standings CSV."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import cup
from cli_kit import dump
from cli_kit import refused as one_line_refusal

from kolrami.cli import main

BASE = "http://192.168.1.20:8000"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return cup(tmp_path / "args.db", ("Ana Lima", "Bea", "Cal", "Dan"))


def _tables(db: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, str]]:
    capsys.readouterr()
    assert main(["tournament", "pairings", "--json", "--db", str(db)]) == 0
    tables: list[dict[str, str]] = json.loads(capsys.readouterr().out)["tables"]
    return tables


def refused(db: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`args` refused with `message`, the store untouched."""
    before = dump(db)
    capsys.readouterr()
    assert message in one_line_refusal(capsys, *args, "--db", str(db))
    assert dump(db) == before


@pytest.fixture
def table(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Round 1 paired: its first table."""
    assert main(["tournament", "pair", "--db", str(db)]) == 0
    return _tables(db, capsys)[0]


def test_result_and_verify_take_the_player_then_round_as_an_option(
    db: Path, capsys: pytest.CaptureFixture[str], table: dict[str, str]
) -> None:
    d, t = ["--db", str(db)], table
    # the round defaults to the latest paired, as in slips, pairings and the timer
    assert main(["tournament", "result", t["a"], "--win", "--fp", "83", *d]) == 0
    assert "Round 1:" in capsys.readouterr().out
    # the earlier form, round first, still works and means the same
    assert main(["tournament", "result", "1", t["b"], "--loss", "--fp", "0", *d]) == 0
    assert main(["tournament", "verify", t["a"], "--initials", "XY", "--stage", "result", *d]) == 0
    assert main(["tournament", "verify", "1", t["b"], "--round", "1", "--initials", "ZZ", *d]) == 0
    refused(
        db, ["tournament", "result", "1", t["a"], "--round", "2", "--fp", "40"], "disagree", capsys
    )
    refused(db, ["tournament", "result", t["a"], "--round", "2", "--fp", "40"], "round 2", capsys)
    refused(db, ["tournament", "result", t["a"]], "--fp N", capsys)
    refused(db, ["tournament", "verify", t["a"]], "--initials XY", capsys)


def test_result_before_any_pairing_says_to_pair(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(db, ["tournament", "result", "Bea", "--fp", "1"], "pair one", capsys)


def test_slips_and_pairings_take_the_event_as_an_option_and_slips_default_their_file(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = ["--db", str(db)]
    assert main(["tournament", "pair", *d]) == 0
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "slips", *d]) == 0  # no --out needed: slips.html here
    assert (tmp_path / "slips.html").read_text(encoding="utf-8").startswith("<!")
    assert main(["tournament", "slips", "--event", "Cup", "--round", "1", *d]) == 0
    assert main(["tournament", "pairings", "--event", "cup", *d]) == 0
    assert main(["tournament", "pairings", "Cup", *d]) == 0  # the earlier form
    # a round number where the event went: said so, not "no event '1'"
    refused(db, ["tournament", "slips", "1"], "a round is --round 1", capsys)
    refused(db, ["tournament", "pairings", "Cup", "--event", "Other"], "--event NAME", capsys)


@pytest.mark.rule("PP-16")
def test_an_impossible_score_is_refused_unless_anyway(
    db: Path, capsys: pytest.CaptureFixture[str], table: dict[str, str]
) -> None:
    d, t = ["--db", str(db)], table
    refused(
        db,
        ["tournament", "result", t["a"], "--win", "--fp", "9999"],
        "nothing recorded",
        capsys,
    )
    capsys.readouterr()
    assert main(["tournament", "result", t["a"], "--win", "--fp", "9999", "--anyway", *d]) == 0
    assert "Recorded anyway" in capsys.readouterr().out
    assert main(["tournament", "standings", "--json", *d]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert next(r for r in rows if r["player"] == t["a"])["fleet_points"] == 9999


def test_pair_and_result_print_the_standings_address_and_csv(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = ["--db", str(db), "--base", BASE]
    capsys.readouterr()
    assert main(["tournament", "pair", *d]) == 0
    out = capsys.readouterr().out
    assert f"{BASE}/events/1/standings" in out
    assert f"{BASE}/events/1/export/standings.csv" in out
    t = _tables(db, capsys)[0]
    assert main(["tournament", "result", t["a"], "--fp", "0", "--json", *d]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["standings_url"] == f"{BASE}/events/1/standings"
    assert doc["standings_csv_url"] == f"{BASE}/events/1/export/standings.csv"
    refused(db, ["tournament", "pair", "--base", "ftp://x"], "--base", capsys)


def test_players_are_found_by_one_of_their_words(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = ["--db", str(db)]
    assert main(["tournament", "player", "rename", "ana", "Ana Lima-Sousa", *d]) == 0
    assert "Renamed Ana Lima" in capsys.readouterr().out
    assert main(["tournament", "player", "remove", "lima sousa", *d]) == 0


def test_standings_during_round_1_do_not_read_after_0_rounds(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "pair", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["tournament", "standings", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "after 0 rounds" not in out
    assert "round 1 in progress, no round complete yet" in out
