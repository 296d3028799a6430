"""A refused save on a table card, in a real browser (issue 16 item 17): the database busy (503),
the login ended (401), the form expired (403). Each time the card keeps its form with what was
typed and shows one line in its message area (no error page pasted into the card); the same
form, sent again once the cause is gone, is saved."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kit import LAPTOP
from kit import Device
from kit import needs_browser
from kit import serve

from kolrami.fleet import load_fleet
from kolrami.tournament import store as store_module
from kolrami.tournament.store import Store
from kolrami.web import create_app
from kolrami.web.security import hash_secret
from web_helpers import FLEETS
from web_helpers import PASSWORD
from web_helpers import possible_points

pytestmark = [needs_browser, pytest.mark.slow]


@pytest.fixture
def busy_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A store that gives up on a held write lock after 50 ms (not 5 s), with an event of four
    players paired for round 1 and run by the organizer mara."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 50)
    store = Store(str(tmp_path / "cards.db"))
    mara = store.create_organizer("mara", hash_secret(PASSWORD))
    store.create_event("Cards", sp_limit=300, rounds=3, seed=7)
    for name, preset in zip(("Ann", "Ben", "Cat", "Dev"), FLEETS, strict=False):
        store.add_player("Cards", name, load_fleet(f"presets:{preset}"))
    store.adopt_event("Cards", mara, "organizer mara")
    store.pair_next_round("Cards")
    return store


@pytest.fixture
def site(busy_store: Store) -> Iterator[str]:
    yield from serve(create_app(busy_store))


def _log_in(page: Any) -> None:
    page.fill("#username", "mara")
    page.fill("#password", PASSWORD)
    page.click("main button[type=submit]")


def _type_result(page: Any, table: int, winner: str, fp: tuple[int, int]) -> Any:
    card = page.locator(f"#table-{table}")
    card.locator(f"input[name=winner][value='{winner}']").check()
    card.locator(f"#fp_a-{table}").fill(str(fp[0]))
    card.locator(f"#fp_b-{table}").fill(str(fp[1]))
    return card


def _kept(card: Any, table: int, winner: str, fp: tuple[int, int]) -> None:
    """The card still holds its form as typed, and no page was pasted into it."""
    assert card.locator(f"input[name=winner][value='{winner}']").is_checked()
    assert card.locator(f"#fp_a-{table}").input_value() == str(fp[0])
    assert card.locator(f"#fp_b-{table}").input_value() == str(fp[1])
    assert card.locator("h1, header.top, footer, main").count() == 0


def _refused(page: Any, card: Any, table: int, status: int) -> Any:
    """Save the card: the answer has `status`; the card's message line, once shown."""
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        card.locator(".result-form button[type=submit]").click()
    assert answer.value.status == status
    message = card.locator(f"#table-{table}-message")
    message.wait_for(state="visible")
    return message


def test_a_refused_save_keeps_the_card_and_says_why_in_one_line(
    browser: Any, site: str, busy_store: Store, shots: Path
) -> None:
    laptop = Device(browser, site, shots, "cards", **LAPTOP)
    page = laptop.go("/login")
    _log_in(page)
    page.wait_for_url("**/org")
    eid = busy_store.event_id("Cards")
    games = [g for g in busy_store.games("Cards", 1) if g["b"] is not None]
    fleets = busy_store.fleets("Cards")
    page = laptop.go(f"/org/events/{eid}/rounds/1")

    # 1. the command line holds the database: 503, one line in the card, the typed result kept
    g = games[0]
    loser_fp = possible_points(fleets[g["a"]], 40)
    fp = (possible_points(fleets[g["b"]], loser_fp + 1), loser_fp)
    card = _type_result(page, g["table"], g["a"], fp)
    other = sqlite3.connect(busy_store.url.removeprefix("sqlite:///"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        message = _refused(page, card, g["table"], 503)
        assert "records are busy" in message.inner_text()
        assert "nothing was saved" in message.inner_text()
        assert len(message.inner_text().splitlines()) == 1
        _kept(card, g["table"], g["a"], fp)
        laptop.shot("busy")
    finally:
        other.execute("ROLLBACK")
        other.close()
    # the lock gone, the same button saves what was typed
    card.locator(".result-form button[type=submit]").click()
    page.wait_for_selector(f"#table-{g['table']} .note.ok")
    saved = next(x for x in busy_store.games("Cards", 1) if x["table"] == g["table"])
    assert saved["winner"] == g["a"]
    assert (saved["fp_a"], saved["fp_b"]) == fp

    # 2. the login ends meanwhile (logged out everywhere from another device): 401, one line
    # with a link to log in again, the typed result kept
    h = games[1]
    loser_fp = possible_points(fleets[h["b"]], 40)
    fp = (loser_fp, possible_points(fleets[h["a"]], loser_fp + 1))
    card = _type_result(page, h["table"], h["b"], fp)
    mara = busy_store.organizer("mara")
    assert mara is not None
    busy_store.end_web_sessions(mara[0])
    message = _refused(page, card, h["table"], 401)
    assert "your login has ended" in message.inner_text()
    _kept(card, h["table"], h["b"], fp)
    laptop.shot("login-ended")
    # she logs in again in a new tab, as the line says
    with laptop.context.expect_page() as opened:
        message.locator("a").click()
    login = opened.value
    login.wait_for_load_state()
    _log_in(login)
    login.wait_for_load_state()
    # 3. the card's form was made for the old login: 403, one line, the form renewed and kept
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        card.locator(".result-form button[type=submit]").click()
    assert answer.value.status == 403
    # the 403's line lands in the card once htmx has swapped it in: wait for it, not a moment
    page.wait_for_function(
        "([sel, text]) => (document.querySelector(sel)?.innerText || '').includes(text)",
        arg=[f"#table-{h['table']}-message", "it is renewed now: send it again"],
    )
    assert "it is renewed now: send it again" in message.inner_text()
    _kept(card, h["table"], h["b"], fp)
    # and sent again, it is saved as typed
    card.locator(".result-form button[type=submit]").click()
    page.wait_for_selector(f"#table-{h['table']} .note.ok")
    saved = next(x for x in busy_store.games("Cards", 1) if x["table"] == h["table"])
    assert saved["winner"] == h["b"]
    assert (saved["fp_a"], saved["fp_b"]) == fp
    # nothing went wrong in the page's scripts (the browser logs each refused answer itself)
    assert not [e for e in laptop.errors if not e.startswith("Failed to load resource")]
