"""A CLI command is one unit of work on its store: every store call it makes is in one
transaction (cli/support.command_unit), committed when it ends well and not at all when it
fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy import event
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store

runner = CliRunner()


def test_a_command_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "cli.db")
    store = Store(db)
    store.create_event("Nov", seed=1)
    for name in ("Ann", "Ben"):
        store.add_player("Nov", name, load_fleet("presets:klingon-raiders"))
    begun: list[Any] = []

    def count(connection: Any) -> None:
        begun.append(connection)

    event.listen(Engine, "begin", count)
    try:
        # the migration check, the loose name's look-up (a read), then the command: dropping
        # Ann and naming her (several calls)
        dropped = runner.invoke(app, ["tournament", "player", "drop", "ann", "--db", db])
    finally:
        event.remove(Engine, "begin", count)
    assert dropped.exit_code == 0, dropped.output
    assert len(begun) == 3, "migration check, name look-up, then one transaction for the command"
    assert [p["dropped_after"] for p in store.players("Nov")] == [0, None]
    again = runner.invoke(app, ["tournament", "player", "drop", "Ann", "--db", db])
    assert again.exit_code == 2
    assert "dropped already" in again.output
    assert [p["dropped_after"] for p in store.players("Nov")] == [0, None]
