"""Shared test set-up: the `--full` switch for slow suites and the sample size they run with."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.tournament.store import Store
from kolrami.web import create_app


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=False,
        help="run slow suites in full instead of the bounded sample `make test` runs",
    )


@pytest.fixture
def full(request: pytest.FixtureRequest) -> bool:
    """True when the run asked for full slow suites (`pytest --full`)."""
    return bool(request.config.getoption("--full"))


@pytest.fixture
def sample(full: bool) -> int:
    """Scale for slow suites: 1 in `make test`, 20 with `--full`."""
    return 20 if full else 1


# --- the web app's fixtures (tests/web) ---


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "store.db")


@pytest.fixture
def store(db: str) -> Store:
    return Store(db)


@pytest.fixture
def app(store: Store) -> FastAPI:
    return create_app(store, own_hosts=("testserver",))  # TestClient's host name


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c
