"""The registration form reads fleets within the fleet's bounds (issue 16, item 14): a share
string that inflates past any fleet, or a fleet of a version this Kolrami does not know, is a 400
with the message under the fleet field, and nobody is registered."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from fastapi import FastAPI

from kolrami.tournament.store import Store
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import text


def packed(doc: Any) -> str:
    raw = json.dumps(doc, separators=(",", ":")).encode()
    return "KF1-" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def test_a_share_string_bomb_is_a_400_and_registers_nobody(app: FastAPI, store: Store) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=2)
    bomb = packed({"name": "Bomb", "ships": [{"id": "reliant"}], "vendor": {"x": " " * 10**7}})
    too_new = packed({"name": "New", "version": 99, "ships": [{"id": "reliant"}]})
    for fleet, said in ((bomb, "larger than 256 KiB"), (too_new, "FleetX version 99")):
        page = desk.post(f"/org/events/{eid}/players", {"name": "Zed", "fleet": fleet})
        assert page.status_code == 400
        assert said in text(page)
        check = desk.post(f"/org/events/{eid}/fleet-check", {"fleet": fleet})
        assert said in text(check)
    assert [p["name"] for p in store.players("November")] == ["P0", "P1"]
