"""Shared test set-up: the `--full` switch for slow suites and the sample size they run with."""

from __future__ import annotations

import pytest


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
