"""The store on PostgreSQL as on SQLite (issue 16): URLs that take the project's driver, whole
numbers past 2**31, and writers one at a time across processes. The store's and the web app's
suites run on PostgreSQL through scripts/postgres_tests.sh (KOLRAMI_TEST_DB); the tests here
that need a server are skipped, with the reason, without one."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy import select
from sqlalchemy import text
from sqlalchemy.engine import Engine

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament import database
from kolrami.tournament.models import RoundRow
from kolrami.tournament.store import MAX_SEED
from kolrami.tournament.store import Store
from kolrami.tournament.store import StoreBusyError
from kolrami.tournament.store import database_url


def test_postgresql_urls_take_psycopg_3() -> None:
    assert database_url("postgresql://ann@db.example/kolrami") == (
        "postgresql+psycopg://ann@db.example/kolrami"
    )
    assert database_url("postgres://ann@/kolrami?host=/run/pg") == (
        "postgresql+psycopg://ann@/kolrami?host=/run/pg"
    )
    assert database_url("postgresql+psycopg://ann@h/k") == "postgresql+psycopg://ann@h/k"
    assert database_url("e.db") == "sqlite:///e.db"


def test_the_largest_seed_and_roll_off_keys_are_kept(db: str) -> None:
    """Seeds up to 2**63 - 1 (every command takes them): PostgreSQL's INTEGER is 32-bit."""
    store = Store(db)
    store.create_event("Big", seed=MAX_SEED)
    for i, fleet in enumerate(("federation-cruisers", "klingon-wolfpack")):
        store.add_player("Big", f"P{i}", load_fleet(fleet))
    store.pair_next_round("Big")
    assert store.export("Big")["event"]["seed"] == MAX_SEED
    with store.engine.connect() as c:
        seed = c.execute(select(RoundRow.seed)).scalar_one()
    assert seed <= MAX_SEED
    assert seed > 2**31  # a round's seed is derived from the event's: 64-bit too


@pytest.fixture
def postgres(db: str) -> Engine:
    if not db.startswith("postgresql"):
        pytest.skip("needs a PostgreSQL server: scripts/postgres_tests.sh (KOLRAMI_TEST_DB)")
    return create_engine(db)


def test_a_write_waits_for_another_processes_then_is_busy(
    db: str, postgres: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process inside a write (holding the store's write lock): a write here waits for
    it, as on SQLite, and past the timeout is refused as busy with nothing saved."""
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 300)
    store = Store(db)
    store.create_event("Nov", seed=1)
    with postgres.connect() as other:
        other.execute(text(f"SELECT pg_advisory_xact_lock({database.WRITE_LOCK_KEY})"))
        started = time.monotonic()
        with pytest.raises(StoreBusyError, match="nothing was saved; send it again"):
            store.add_player("Nov", "Ann", load_fleet("federation-cruisers"))
        assert time.monotonic() - started >= 0.25  # it waited for the other writer
        assert store.players("Nov") == []
        other.rollback()  # the other process is done: writes go through again
    store.add_player("Nov", "Ann", load_fleet("federation-cruisers"))
    with store.engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM players")).scalar() == 1


def test_a_text_longer_than_its_column_is_refused_on_every_database(db: str) -> None:
    """SQLite keeps a text of any length, PostgreSQL refuses it mid-write (a 500 on the web):
    both refuse it in one line, before anything is written."""
    store = Store(db)
    store.create_event("Nov", seed=1)
    for i, fleet in enumerate(("federation-cruisers", "klingon-wolfpack")):
        store.add_player("Nov", f"P{i}", load_fleet(fleet))
    store.pair_next_round("Nov")
    before = store.corrections("Nov")
    who = "Mara " * 30
    with pytest.raises(InvalidInputError, match="shorten it to 120 or fewer"):
        store.drop_player("Nov", "P0", who=who)
    with pytest.raises(InvalidInputError, match="shorten it to 120 or fewer"):
        store.record_game("Nov", 1, 1, "P0", {"P0": 4, "P1": 3}, who)
    assert store.corrections("Nov") == before
    assert all(p["dropped_after"] is None for p in store.players("Nov"))
    assert store.games("Nov", 1)[0]["winner"] is None


def test_a_postgresql_store_that_does_not_open_is_one_line(tmp_path: Path) -> None:
    """No server at the socket (or no driver installed): one line naming the database, without
    its password, and the fix."""
    url = f"postgresql://ann:s3cret@/kolrami?host={tmp_path}&port=1"
    with pytest.raises(InvalidInputError) as refused:
        Store(url)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("cannot open the PostgreSQL store postgresql+psycopg://ann:***@")
    assert "s3cret" not in message
    assert "createdb NAME" in message or "pip install 'kolrami[postgres]'" in message


def test_without_the_driver_the_fix_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if kolrami[postgres] were not installed
    with pytest.raises(InvalidInputError, match=r"pip install 'kolrami\[postgres\]'$"):
        Store("postgresql://ann@db.example/kolrami")
