"""A database Kolrami cannot use as it is (issue 16 item 16): read-only here, damaged, not a
database at all, or made by a newer Kolrami. Each is one line naming the database and the fix
(StoreUnavailableError), on opening it or on the first read or write that meets it; nothing
half-saved."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store
from kolrami.tournament.store import StoreUnavailableError

pytestmark = pytest.mark.sqlite_only("damaged, read-only and newer SQLite files")


def event_store(path: Path, players: int = 2) -> Store:
    store = Store(str(path))
    store.create_event("Night")
    fleet = load_fleet("presets:klingon-strike")
    for i in range(players):
        store.add_player("Night", f"P{i}", fleet)
    return store


def settled(path: Path) -> None:
    """The file on its own (the write-ahead log folded in), as a copied or backed-up file is."""
    with sqlite3.connect(path) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        c.execute("PRAGMA journal_mode=DELETE")


def test_a_read_only_database_refuses_the_first_write_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "night.db"
    event_store(path).engine.dispose()
    read_only = Store(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert [p["name"] for p in read_only.players("Night")] == ["P0", "P1"]  # reading works
    with pytest.raises(StoreUnavailableError) as refused:
        read_only.add_player("Night", "P2", load_fleet("presets:klingon-strike"))
    message = str(refused.value)
    assert "\n" not in message
    assert str(path) in message
    assert "read-only here, so nothing was saved" in message
    assert "write access" in message
    assert len(Store(str(path)).players("Night")) == 2


def test_a_newer_schema_names_its_revision_and_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    event_store(path).engine.dispose()
    with sqlite3.connect(path) as c:
        c.execute("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(StoreUnavailableError) as refused:
        Store(str(path))
    message = str(refused.value)
    assert "\n" not in message
    assert "Can't locate" not in message
    assert f"the database {path} was made by a newer Kolrami" in message
    assert "'0099'" in message
    assert "pip install --upgrade kolrami" in message


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"minutes of the club meeting\n" * 200)
    with pytest.raises(StoreUnavailableError) as refused:
        Store(str(path))
    message = str(refused.value)
    assert "\n" not in message
    assert f"{path} is not a SQLite database" in message
    assert "sqlalche.me" not in message
    assert path.read_bytes() == b"minutes of the club meeting\n" * 200  # untouched


def test_damage_inside_the_file_is_found_by_the_health_check_and_by_the_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "damaged.db"
    event_store(path, players=60).engine.dispose()
    settled(path)
    size = path.stat().st_size
    with path.open("r+b") as f:  # a page of the players' table overwritten
        f.seek(size - 3 * 4096)
        f.write(os.urandom(4096))
    store = Store(str(path))  # the schema's pages are whole: it opens
    with pytest.raises(StoreUnavailableError) as checked:
        store.check_health()
    assert f"the database {path} is damaged" in str(checked.value)
    assert f"sqlite3 {path} .recover" in str(checked.value)
    with pytest.raises(StoreUnavailableError, match="is damaged"):
        store.players("Night")


def test_a_sound_database_passes_the_health_check(tmp_path: Path) -> None:
    event_store(tmp_path / "fine.db").check_health()
