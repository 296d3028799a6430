"""What the commands' tests share: a command run and its output, a store made through the CLI
and its rows."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.cli import main

runner = CliRunner()


def run_ok(*args: str) -> str:
    """A command's output; it must succeed."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """A command refused as bad input: exit 2, nothing on stdout and one line on stderr,
    "kolrami: error: ..."; that line."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("kolrami: error: "), err
    return err


def dump(db: Path) -> list[str]:
    """Every row of a SQLite store, as SQL."""
    with contextlib.closing(sqlite3.connect(db)) as c:
        return list(c.iterdump())


def cup(path: Path, players: Iterable[str]) -> Path:
    """An event Cup (seed 3) made at `path` with `kolrami tournament`, the players registered
    with presets:klingon-strike."""
    assert main(["tournament", "new", "Cup", "--seed", "3", "--db", str(path)]) == 0
    for name in players:
        args = ["tournament", "player", "add", name, "--fleet", "presets:klingon-strike"]
        assert main([*args, "--db", str(path)]) == 0
    return path
