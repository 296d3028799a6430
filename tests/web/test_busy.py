"""A database held by another writer (the CLI, say) for longer than the busy timeout: the web app
answers 503 with a one-line message, and nothing is saved."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kolrami.tournament import database
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import PASSWORD
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import table
from web_helpers import text

pytestmark = pytest.mark.sqlite_only(
    "SQLite's write lock held by another process, its I/O errors and read-only files"
)


def _busy_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Store, Desk, int, str, dict[str, Any], dict[str, str]]:
    """A store that gives up on a held write lock after 50 ms, round 1 paired; its file, the
    store, the organizer's desk, the event's id and name, table 1 and a result form for it."""
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "busy.db"
    store = Store(str(path))
    desk = organizer(create_app(store))
    eid = new_event(desk)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    name = store.event_name(eid)
    game = table(store, name)
    form = {"winner": game["a"], "fp_a": "0", "fp_b": "0", "version": str(game["version"])}
    return path, store, desk, eid, name, game, form


def test_a_result_while_another_process_writes_gets_503_and_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, store, desk, eid, name, game, form = _busy_table(tmp_path, monkeypatch)
    other = sqlite3.connect(path, isolation_level=None)  # the CLI, mid-way through a write
    other.execute("BEGIN IMMEDIATE")
    try:
        busy = desk.post(f"/org/events/{eid}/rounds/1/tables/1", form)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert busy.status_code == 503
    assert "nothing was saved; send it again in a moment" in text(busy)
    assert table(store, name)["winner"] is None
    # the lock gone, the same form goes through
    assert desk.post(f"/org/events/{eid}/rounds/1/tables/1", form).status_code == 303
    assert table(store, name)["winner"] == game["a"]


def test_other_database_errors_are_not_called_busy(tmp_path: Path) -> None:
    app = create_app(Store(str(tmp_path / "x.db")))

    @app.get("/boom")
    def boom() -> None:
        raise sqlite3.OperationalError("disk I/O error")

    @app.get("/locked")
    def locked() -> None:
        busy = sqlite3.OperationalError("database is locked")
        busy.sqlite_errorname = "SQLITE_BUSY"  # as the driver raises it: the kind, not the text
        raise busy

    @app.get("/says-locked")
    def says_locked() -> None:
        raise sqlite3.OperationalError("table locked_rows has no column x")  # not busy

    client = TestClient(app, raise_server_exceptions=False)
    assert client.get("/boom").status_code == 500  # a real fault is not dressed up as busy
    assert client.get("/locked").status_code == 503
    assert client.get("/says-locked").status_code == 500  # told by its kind, not its words


def test_a_refused_htmx_save_is_one_line_for_the_cards_message_area(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the browser test (tests/e2e/test_card_refusals.py) sees, at the HTTP level: the
    answer to a refused htmx save is one line, sent to the card's message area (HX-Retarget),
    with the session's CSRF token; the same refusal without htmx is the whole error page."""
    path, store, desk, eid, name, _game, form = _busy_table(tmp_path, monkeypatch)
    htmx = {"HX-Request": "true", "HX-Target": "article#table-1", "X-CSRF-Token": desk.csrf}
    url = f"/org/events/{eid}/rounds/1/tables/1"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        busy = desk.client.post(url, data=form, headers=htmx)
        page = desk.post(url, form)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert busy.status_code == 503
    assert busy.headers["hx-retarget"] == "#table-1-message"
    assert busy.headers["hx-reswap"] == "innerHTML"
    assert busy.headers["x-csrf-token"] == desk.csrf
    assert "<html" not in busy.text
    assert len(busy.text.splitlines()) == 1
    assert "nothing was saved" in text(busy)
    assert page.status_code == 503
    assert "<html" in page.text  # no htmx: the error page
    # any other refusal too: a table that does not exist, a form from an ended login
    missing = desk.client.post(url.replace("/1/tables/1", "/9/tables/1"), data=form, headers=htmx)
    assert missing.status_code == 404
    assert missing.headers["hx-retarget"] == "#table-1-message"
    assert "<html" not in missing.text
    desk.post("/logout")
    ended = desk.client.post(url, data=form, headers=htmx)
    assert ended.status_code == 403
    assert "it is renewed now: send it again" in text(ended)
    assert ended.headers["x-csrf-token"] != desk.csrf
    # no message area named: nothing is swapped in place of the target
    elsewhere = desk.client.post(url, data=form, headers={"HX-Request": "true"})
    assert elsewhere.headers["hx-reswap"] == "none"
    assert table(store, name)["winner"] is None


def test_a_read_only_database_gives_503_with_the_fix_on_the_first_write(tmp_path: Path) -> None:
    path = tmp_path / "night.db"
    store = Store(str(path))
    app = create_app(store)
    desk = organizer(app)
    eid = new_event(desk)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    name = store.event_name(eid)
    game = table(store, name)
    before = store.export(name)
    store.engine.dispose()
    read_only = create_app(f"sqlite:///file:{path}?mode=ro&uri=true")
    phone = Desk(TestClient(read_only))
    assert phone.client.get(f"/events/{eid}/standings").status_code == 200  # reading works
    phone.refresh(f"/events/{eid}/rounds/1/tables/1")
    sent = phone.post(
        f"/events/{eid}/rounds/1/tables/1/report",
        {
            "player": game["a"],
            "winner": game["a"],
            "fp_a": "1",
            "fp_b": "0",
            "pin": desk.pins[game["a"]],
        },
    )
    assert sent.status_code == 503
    assert f"the database {path} is read-only here, so nothing was saved" in text(sent)
    login = Desk(TestClient(read_only))  # logging in keeps a session: a write too
    login.refresh("/login")
    refused = login.post("/login", {"username": "mara", "password": PASSWORD})
    assert refused.status_code == 503
    assert "read-only here" in text(refused)
    assert Store(str(path)).export(name) == before
