"""One store session per HTTP request (web/deps.request_unit): every store call of a request
joins it, its writes are one transaction committed before the answer is sent, and a request
that fails keeps nothing of what it wrote."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from web_helpers import new_event
from web_helpers import organizer


class Counting:
    """The store's session factory, counting the sessions made from it."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.made = 0

    def __call__(self, **kw: Any) -> Any:
        self.made += 1
        return self.real(**kw)

    def begin(self) -> Any:
        self.made += 1
        return self.real.begin()


def test_a_request_is_one_session(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=2)
    store: Store = app.state.web.store
    counting = Counting(store._sessions)
    monkeypatch.setattr(store, "_sessions", counting)
    page = desk.client.post(  # reads the settings, registers, shows the event: many calls
        f"/org/events/{eid}/players",
        data={
            "name": "Zoe",
            "fleet": share_string(load_fleet("presets:klingon-raiders")),
            "csrf_token": desk.csrf,
        },
        follow_redirects=False,
    )
    assert page.status_code == 303, page.text  # to the PIN's page
    assert counting.made == 1, "every store call of the request in one session"
    monkeypatch.undo()
    assert "Zoe" in [p["name"] for p in Store(store.url).players("November")]  # committed
    counting = Counting(store._sessions)
    monkeypatch.setattr(store, "_sessions", counting)
    assert desk.client.get(f"/org/events/{eid}").status_code == 200
    assert counting.made <= 1  # a page: one read session (none when all it shows is kept)


def test_a_refused_call_keeps_the_requests_other_writes(store: Store) -> None:
    """A call refused inside a unit undoes only itself (a savepoint); the unit commits the
    rest, once, at its end; a unit that raises keeps nothing."""
    store.create_event("Nov", seed=1)
    other = Store(store.url)  # another connection's view
    with store.unit():
        store.add_player("Nov", "Ann", load_fleet("presets:klingon-raiders"))
        with pytest.raises(Exception, match="registered already"):
            store.add_player("Nov", "Ann", load_fleet("presets:klingon-raiders"))
        store.add_player("Nov", "Ben", load_fleet("presets:klingon-raiders"))
        assert [p["name"] for p in store.players("Nov")] == ["Ann", "Ben"]  # its own writes
        assert other.players("Nov") == []  # nobody else sees them before the end
    assert [p["name"] for p in other.players("Nov")] == ["Ann", "Ben"]

    def failing() -> None:
        with store.unit():
            store.add_player("Nov", "Cat", load_fleet("presets:klingon-raiders"))
            raise RuntimeError("the request failed")

    with pytest.raises(RuntimeError):
        failing()
    assert [p["name"] for p in store.players("Nov")] == ["Ann", "Ben"]
