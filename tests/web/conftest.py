"""The web app's tests' shared set-up (the app and its store are tests/conftest.py's)."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from kolrami.tournament.store import Store
from web_helpers import Desk, new_event, organizer


@pytest.fixture
def paired(app: FastAPI) -> tuple[Desk, int, Store, str]:
    """Five players, round 1 paired: two tables and a bye; (the organizer's desk, the event's
    id, the store, the event's name)."""
    desk = organizer(app)
    eid = new_event(desk)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    store: Store = app.state.web.store
    return desk, eid, store, store.event_name(eid)
