"""Shared test set-up: the `--full` switch for slow suites and the sample size they run with,
and the databases the store's and the web app's tests run on (SQLite, or PostgreSQL when
KOLRAMI_TEST_DB names a server: scripts/postgres_tests.sh)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy import make_url
from sqlalchemy import text
from sqlalchemy.engine import Engine

from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import Desk
from web_helpers import PairedGame
from web_helpers import organizer_event
from web_helpers import table

#: A PostgreSQL URL (postgresql+psycopg://user@/db?host=...) to run the store's and the web
#: app's tests on instead of SQLite files; unset, every test uses SQLite.
TEST_DB = os.environ.get("KOLRAMI_TEST_DB", "")
#: The migrated database each test's database is copied from (CREATE DATABASE ... TEMPLATE).
TEMPLATE = "kolrami_test_template"
_numbers = itertools.count()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run slow suites in full instead of the bounded sample `make test` runs",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the PostgreSQL run (KOLRAMI_TEST_DB), skip the tests of SQLite's own behaviour: they
    ran in `make test` already, and PostgreSQL has no file to damage, lock or kill mid-write."""
    if not TEST_DB:
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            why = marker.args[0] if marker.args else "SQLite's own behaviour"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {why}"))


@pytest.fixture
def full(request: pytest.FixtureRequest) -> bool:
    """True when the run asked for full slow suites (`pytest --full`)."""
    return bool(request.config.getoption("--full"))


@pytest.fixture
def sample(full: bool) -> int:
    """Scale for slow suites: 1 in `make test`, 20 with `--full`."""
    return 20 if full else 1


# --- the databases of the store's and the web app's tests (tests/tournament, tests/web) ---


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Engine | None]:
    """The PostgreSQL server of KOLRAMI_TEST_DB (its maintenance connection), or None."""
    if not TEST_DB:
        yield None
        return
    pytest.importorskip("psycopg", reason="KOLRAMI_TEST_DB needs pip install 'kolrami[postgres]'")
    admin = create_engine(TEST_DB, isolation_level="AUTOCOMMIT", pool_size=1)
    with admin.connect() as c:
        c.execute(text(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)"))
        c.execute(text(f"CREATE DATABASE {TEMPLATE}"))
    template = Store(make_url(TEST_DB).set(database=TEMPLATE).render_as_string(False))
    template.engine.dispose()  # a template is copied only while nobody is connected to it
    yield admin
    with admin.connect() as c:
        c.execute(text(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture
def new_db(tmp_path: Path, postgres_server: Engine | None) -> Iterator[Callable[[str], str]]:
    """Makes an empty store's database: a SQLite file in tmp_path, or with KOLRAMI_TEST_DB a
    new PostgreSQL database (migrated, copied from the template), dropped after the test."""
    made: list[str] = []

    def make(name: str) -> str:
        if postgres_server is None:
            return str(tmp_path / f"{name}.db")
        database = f"kolrami_test_{os.getpid()}_{next(_numbers)}"
        with postgres_server.connect() as c:
            c.execute(text(f"CREATE DATABASE {database} TEMPLATE {TEMPLATE}"))
        made.append(database)
        return make_url(TEST_DB).set(database=database).render_as_string(False)

    yield make
    if postgres_server is not None:
        with postgres_server.connect() as c:
            for database in made:
                c.execute(text(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"))


@pytest.fixture
def db(new_db: Callable[[str], str]) -> str:
    return new_db("store")


@pytest.fixture
def store(db: str) -> Store:
    return Store(db)


@pytest.fixture
def app(store: Store, tmp_path: Path) -> FastAPI:
    # TestClient's host name; /play's games beside the test, not in the shared temporary
    # folder (a PostgreSQL store has no file to keep them beside)
    return create_app(store, own_hosts=("testserver",), play_dir=tmp_path / "games")


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def paired(app: FastAPI) -> tuple[Desk, int, Store, str]:
    """The web app's tests: five players, round 1 paired: two tables and a bye; (the
    organizer's desk, the event's id, the store, the event's name)."""
    desk, eid, web_store, name = organizer_event(app)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    return desk, eid, web_store, name


@pytest.fixture
def paired_game(paired: tuple[Desk, int, Store, str]) -> PairedGame:
    """`paired`, and round 1's game at table 1."""
    desk, eid, store, name = paired
    return desk, eid, store, name, table(store, name)
