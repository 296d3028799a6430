"""A big event's build-sheet print page (issue 16 item 15): sent as it is made (streamed), and
past SHEETS_PER_PART players it comes a part at a time, the score sheet with part 1, each part
with links to the others that do not print."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store
from kolrami.web.routers import organizer as organizer_router
from web_helpers import FLEETS
from web_helpers import organizer


@pytest.fixture
def big(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> tuple[TestClient, int]:
    monkeypatch.setattr(organizer_router, "SHEETS_PER_PART", 20)
    desk = organizer(app)
    store: Store = app.state.web.store
    mara = store.organizer("mara")
    assert mara is not None
    store.create_event("Big", seed=5)
    fleets = [load_fleet(f"presets:{name}") for name in FLEETS]
    for i in range(45):
        store.add_player("Big", f"Player {i:02d}", fleets[i % len(fleets)])
    store.adopt_event("Big", mara[0], "organizer mara")
    store.pair_next_round("Big")
    return desk.client, store.event_id("Big")


def test_a_big_events_sheets_come_in_parts(big: tuple[TestClient, int]) -> None:
    client, eid = big
    url = f"/org/events/{eid}/print/sheets"
    first = client.get(url)
    assert first.status_code == 200
    assert first.headers["content-type"].startswith("text/html")
    assert "content-length" not in first.headers  # streamed: sent as each sheet is made
    assert "SCORE SHEET: Big" in first.text
    assert first.text.count('<div class="player-sheet">') == 20
    assert "45 players: the sheets come in 3 parts of 20" in first.text
    assert "@media print { .sheet-parts { display: none; } }" in first.text
    assert 'href="?part=3"' in first.text
    last = client.get(url, params={"part": 3})
    assert last.status_code == 200
    assert "SCORE SHEET" not in last.text
    assert last.text.count('<div class="player-sheet">') == 5
    assert "part 3: players 41 to 45" in last.text
    assert last.text.rstrip().endswith("</body></html>")
    seen = [
        html.split('<div class="player-sheet">')[1:]
        for html in (first.text, client.get(url, params={"part": 2}).text, last.text)
    ]
    assert sum(len(s) for s in seen) == 45  # every player once
    assert client.get(url, params={"part": 4}).status_code == 404
    assert client.get(url, params={"part": 0}).status_code == 404
    assert "1 to 3" in client.get(url, params={"part": 4}).text


def test_an_event_within_one_part_prints_on_one_page(app: FastAPI) -> None:
    desk = organizer(app)
    store: Store = app.state.web.store
    mara = store.organizer("mara")
    assert mara is not None
    store.create_event("Small", seed=5)
    for i in range(3):
        store.add_player("Small", f"P{i}", load_fleet(f"presets:{FLEETS[i]}"))
    store.adopt_event("Small", mara[0], "organizer mara")
    page = desk.client.get(f"/org/events/{store.event_id('Small')}/print/sheets")
    assert page.status_code == 200
    assert page.text.count('<div class="player-sheet">') == 3
    assert "sheet-parts" not in page.text
