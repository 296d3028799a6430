"""What the tournament commands' tests share: a store made through the CLI, and its rows."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from kolrami.cli import main


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
