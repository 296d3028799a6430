"""The fixtures of the browser tests (their kit is tests/e2e/kit.py): chromium, the screenshot
folder, a fresh SQLite store and the app on it served by uvicorn on loopback."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kit import ARGS
from kit import CHROMIUM
from kit import serve

from kolrami.tournament.store import Store
from kolrami.web import create_app


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, launched once for a test module (each test opens its own contexts)."""
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="needs playwright (pip install playwright)"
    )
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("KOLRAMI_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A fresh SQLite store (the browser tests read its file; they do not run on PostgreSQL)."""
    return Store(str(tmp_path / "store.db"))


@pytest.fixture
def server(store: Store, tmp_path: Path) -> Iterator[str]:
    """The app on the test's store, served by uvicorn on a loopback port; /play's games in the
    test's temporary folder."""
    yield from serve(create_app(store, play_dir=tmp_path / "games"))
