"""Helpers for the web app's tests: log in, create events and register players the way a browser
would, and read the CSRF token and the PIN off the pages."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.model import Fleet
from kolrami.sim.score_check import check_score
from kolrami.tournament.store import Store

PASSWORD = "counter-2026"
FLEETS = (
    "federation-cruisers",
    "klingon-wolfpack",
    "federation-venture",
    "klingon-strike",
    "federation-flagship",
    "klingon-raiders",
    "federation-fleet",
)


def text(response: Response) -> str:
    """A page's text with the HTML escapes undone (names with apostrophes read as typed)."""
    return html.unescape(response.text)


def token(html: str) -> str:
    """The CSRF token of the first form on a page."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def pin_on(html: str) -> str:
    """The PIN shown once after a registration."""
    found = re.search(r'class="pin"[^>]*>(\d+)<', html)
    assert found, "no PIN on the page"
    return found.group(1)


def possible_points(against: Fleet, at_least: int = 1) -> int:
    """Fleet Points that can be scored against a fleet (the score check agrees)."""
    return next(p for p in range(at_least, 5000) if check_score(against, p, 12).achievable)


def impossible_points(against: Fleet, at_least: int = 200) -> int:
    """Fleet Points that cannot be scored against a fleet (the score check refuses them)."""
    return next(p for p in range(at_least, 5000) if not check_score(against, p, 12).achievable)


@dataclass(slots=True)
class Desk:
    """A browser-like client: a session cookie, and the CSRF token of its session."""

    client: TestClient
    csrf: str = ""
    pins: dict[str, str] = field(default_factory=dict)

    def refresh(self, path: str = "/") -> str:
        """Load a page and keep the session's CSRF token."""
        page = self.client.get(path)
        self.csrf = token(page.text)
        return page.text

    def post(self, path: str, data: dict[str, str] | None = None) -> Response:
        """POST a form with the session's token (redirects are not followed)."""
        return self.client.post(
            path, data={**(data or {}), "csrf_token": self.csrf}, follow_redirects=False
        )


def organizer(app: FastAPI, username: str = "mara") -> Desk:
    """A new client logged in as an organizer (the account is made if needed)."""
    store: Store = app.state.web.store
    desk = Desk(TestClient(app))
    if store.organizer(username) is None:
        from kolrami.web.security import hash_secret

        store.create_organizer(username, hash_secret(PASSWORD))
    desk.refresh("/login")
    response = desk.client.post(
        "/login",
        data={"username": username, "password": PASSWORD, "csrf_token": desk.csrf},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    desk.refresh("/org")
    return desk


def new_event(desk: Desk, name: str = "November", players: int = 5, rounds: int = 3) -> int:
    """Create an event through the form and register players with share strings; returns its
    id. The PINs shown are kept in desk.pins."""
    response = desk.client.post(
        "/org/events",
        data={
            "name": name,
            "date": "2026-11-30",
            "sp_limit": "300",
            "scenario": "peak-performance",
            "rounds": str(rounds),
            "minutes": "60",
            "titles": "Admiral, Vice Admiral",
            "seed": "2026",  # one seed, one evening: the same pairings on every run
            "csrf_token": desk.csrf,
        },
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    eid = int(response.headers["location"].rsplit("/", 1)[1])
    for i in range(players):
        page = desk.client.post(
            f"/org/events/{eid}/players",
            data={
                "name": f"P{i}",
                "fleet": share_string(load_fleet(f"presets:{FLEETS[i % len(FLEETS)]}")),
                "csrf_token": desk.csrf,
            },
        )
        assert page.status_code == 200, page.text
        desk.pins[f"P{i}"] = pin_on(page.text)
    return eid


def table(store: Store, name: str, number: int = 1, at: int = 1) -> dict[str, Any]:
    """Round `number`'s game at table `at`, as the store lists it."""
    return next(g for g in store.games(name, number) if g["table"] == at)


def phone(app: FastAPI, eid: int) -> Desk:
    """A player's phone (no login) on round 1's table 1 page, its CSRF token read."""
    p = Desk(TestClient(app))
    p.refresh(f"/events/{eid}/rounds/1/tables/1")
    return p


@contextmanager
def untouched(app: FastAPI, eid: int) -> Iterator[str]:
    """For a block that must change nothing of event `eid` (bad input leaves stored data
    untouched): the event's name; on leaving, its export must be what it was."""
    store: Store = app.state.web.store
    name = store.event_name(eid)
    before = store.export(name)
    yield name
    assert store.export(name) == before, f"event {name!r} was changed"


def organizer_event(app: FastAPI, players: int = 5) -> tuple[Desk, int, Store, str]:
    """Mara logged in with a new event of `players` players (`new_event`): her desk, the
    event's id, the web app's store and the event's name."""
    desk = organizer(app)
    eid = new_event(desk, players=players)
    store: Store = app.state.web.store
    return desk, eid, store, store.event_name(eid)


#: `paired`'s desk, event id, store and event name, and round 1's game at table 1.
PairedGame = tuple[Desk, int, Store, str, dict[str, Any]]
