"""`kolrami tournament timer ...` (issue 17): the same stored timer the web app shows; bad
input is one line and exit code 2, and the timer stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.tournament.store import Store

runner = CliRunner()
PRESETS = ("federation-cruisers", "klingon-wolfpack", "federation-venture", "klingon-strike")


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def paired(tmp_path: Path) -> str:
    db = str(tmp_path / "t.db")
    ok("tournament", "new", "Nov", "--db", db)
    for name in PRESETS:
        ok("tournament", "player", "add", name, "--fleet", f"presets:{name}", "--db", db)
    ok("tournament", "pair", "--db", db)
    return db


@pytest.mark.rule("OP-02")
def test_start_add_pause_resume_and_show(tmp_path: Path) -> None:
    db = paired(tmp_path)
    assert "round 1: not started, 60:00 left of 60 minutes" in ok(
        "tournament", "timer", "show", "--db", db
    )
    assert "round 1: running" in ok("tournament", "timer", "start", "--db", db)
    shown = json.loads(ok("tournament", "timer", "add", "5", "--db", db, "--json"))
    assert (shown["status"], shown["added_minutes"]) == ("running", 5)
    assert 3890 <= shown["remaining_seconds"] <= 3900
    assert "paused" in ok("tournament", "timer", "pause", "--db", db)
    assert Store(db).timer("Nov").status == "paused"  # in the store, for the web app too
    assert "running" in ok("tournament", "timer", "resume", "--round", "1", "--db", db)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add", "0"), "minutes to add '0': a whole number from 1 to 120"),
        (("add", "abc"), "minutes to add 'abc': a whole number from 1 to 120"),
        (("add", "-5"), "minutes to add '-5': a whole number from 1 to 120"),
        (("start",), "round 1's timer was started already"),
        (("resume",), "round 1's timer is not paused"),
        (("show", "--round", "3"), "Nov has no round 3 yet"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_changes_nothing(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    db = paired(tmp_path)
    ok("tournament", "timer", "start", "--db", db)
    before = Store(db).timer("Nov")
    result = runner.invoke(app, ["tournament", "timer", *args, "--db", db])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    after = Store(db).timer("Nov")
    assert (after.started_at, after.added_minutes, after.paused_at) == (
        before.started_at,
        before.added_minutes,
        before.paused_at,
    )


def test_no_round_paired_yet(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    ok("tournament", "new", "Nov", "--db", db)
    result = runner.invoke(app, ["tournament", "timer", "start", "--db", db])
    assert result.exit_code == 2
    assert "no round paired yet: pair round 1 before starting its timer" in result.stderr
