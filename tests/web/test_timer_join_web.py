"""The timer, the join address and self-registration in the web app (issue 17), without a
browser: the address phones are shown (never loopback while the machine has another), bad
timer input and approving an illegal fleet refused in one line (4xx) with nothing changed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from fastapi import FastAPI
from sqlalchemy import func
from sqlalchemy import select
from starlette.requests import Request

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.models import JoinRequestRow
from kolrami.tournament.models import now
from kolrami.tournament.services.joining import JOIN_HOURS
from kolrami.web import network
from kolrami.web.live import local_time
from kolrami.web.network import check_public_url
from kolrami.web.network import join_address
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import text

TOO_BIG = json.dumps({"name": "Two Enterprises", "ships": [{"id": "enterprise"}] * 2})


def _request(url_host: str, port: int = 8000) -> Request:
    return Request(
        {
            "type": "http",
            "scheme": "http",
            "server": (url_host, port),
            "path": "/org/events/1",
            "query_string": b"",
            "headers": [(b"host", f"{url_host}:{port}".encode())],
        }
    )


def test_the_join_address_is_the_machines_network_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.20")
    shown = join_address(_request("127.0.0.1"), listen_host="0.0.0.0")
    assert (shown.base, shown.warning) == ("http://192.168.1.20:8000", "")
    local = join_address(_request("localhost"), listen_host="127.0.0.1")
    assert local.base == "http://192.168.1.20:8000"
    assert "--host 0.0.0.0" in local.warning
    # opened by its network address already: that is the one phones use
    assert join_address(_request("10.0.0.5")).base == "http://10.0.0.5:8000"
    # the organizer's own setting wins
    given = join_address(_request("127.0.0.1"), "http://kolrami.store.lan/")
    assert given.base == "http://kolrami.store.lan"


def test_loopback_only_when_there_is_nothing_else_and_then_it_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(network, "lan_address", lambda: None)
    shown = join_address(_request("127.0.0.1"))
    assert shown.base == "http://127.0.0.1:8000"
    assert "on no network" in shown.warning


def test_lan_address_is_never_loopback() -> None:
    found = network.lan_address()
    assert found is None or not found.startswith("127.")


@pytest.mark.parametrize("bad", ["ftp://x", "192.168.1.2:8000", "http://", "http://h/?a=1"])
def test_a_public_url_phones_cannot_open_is_refused(bad: str) -> None:
    with pytest.raises(InvalidInputError, match=r"--public-url .*: give the address phones open"):
        check_public_url(bad)


def test_a_public_url_too_long_for_a_qr_code_is_refused() -> None:
    long_url = "http://" + "a" * 300 + ".example"
    with pytest.raises(InvalidInputError, match=r"--base .*too long to print as a QR code"):
        check_public_url(long_url, "--base")
    assert check_public_url("http://192.168.1.20:8000/") == "http://192.168.1.20:8000"


def test_bad_timer_input_is_a_400_and_changes_nothing(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=4)
    store = app.state.web.store
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    desk.refresh(f"/org/events/{eid}/rounds/1")
    assert desk.post(f"/org/events/{eid}/rounds/1/timer", {"action": "start"}).status_code == 303
    before = store.timer(None).as_dict()
    for form, message in (
        ({"action": "add", "minutes": "-5"}, "minutes to add '-5': a whole number from 1 to 120"),
        ({"action": "add", "minutes": "0"}, "minutes to add '0'"),
        ({"action": "add", "minutes": "ten"}, "minutes to add 'ten'"),
        ({"action": "start"}, "round 1's timer was started already"),
        ({"action": "resume"}, "round 1's timer is not paused"),
        ({"action": "reset"}, "timer action 'reset': one of start, pause, resume, add"),
    ):
        page = desk.post(f"/org/events/{eid}/rounds/1/timer", form)
        assert page.status_code == 400, form
        assert message in text(page), form
    after = store.timer(None).as_dict()
    assert after["added_minutes"] == before["added_minutes"] == 0
    assert after["status"] == "running"
    assert desk.post(f"/org/events/{eid}/rounds/2/timer", {"action": "start"}).status_code == 404
    clock = desk.client.get(f"/events/{eid}/clock.json").json()
    assert clock["status"] == "running"
    assert 3590 <= clock["remaining_seconds"] <= 3600


def test_self_registration_is_closed_until_opened_and_approval_checks_the_fleet(
    app: FastAPI,
) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=2)
    store = app.state.web.store
    phone = organizer(app, "phone-owner")  # any browser with a session (the CSRF token)
    phone.refresh(f"/events/{eid}/join")
    share = share_string(load_fleet("presets:klingon-strike"))
    closed = phone.post(f"/events/{eid}/join", {"name": "Ann", "fleet": share})
    assert closed.status_code == 400
    assert "does not take registrations from phones" in text(closed)
    assert store.join_requests(None) == []
    assert (
        desk.post(f"/org/events/{eid}/join-settings", {"self_registration": "on"}).status_code
        == 303
    )
    unreadable = phone.post(f"/events/{eid}/join", {"name": "Ann", "fleet": "KF1-nonsense"})
    assert unreadable.status_code == 400
    assert store.join_requests(None) == []
    assert phone.post(f"/events/{eid}/join", {"name": "Ann", "fleet": share}).status_code == 303
    illegal = phone.post(f"/events/{eid}/join", {"name": "Bob", "fleet": TOO_BIG})
    assert illegal.status_code == 200  # kept, with its problem said at once
    assert "Total Build 360 SP" in text(illegal)
    waiting = {r["name"]: r["id"] for r in store.join_requests(None)}
    refused = desk.post(f"/org/events/{eid}/join-requests/{waiting['Bob']}/approve")
    assert refused.status_code == 400
    assert "Bob's fleet is not legal for November" in text(refused)
    assert [p["name"] for p in store.players()] == ["P0", "P1"]
    approved = desk.post(f"/org/events/{eid}/join-requests/{waiting['Ann']}/approve")
    assert approved.status_code == 303
    assert "/pins/" in approved.headers["location"]
    assert [p["name"] for p in store.players()] == ["P0", "P1", "Ann"]
    assert store.players()[2]["has_pin"]
    again = desk.post(f"/org/events/{eid}/join-requests/{waiting['Ann']}/approve")
    assert again.status_code == 400
    assert "was approved already" in text(again)


def _open_for_phones(app: FastAPI) -> tuple[Desk, int]:
    desk = organizer(app)
    eid = new_event(desk, players=2)
    desk.post(f"/org/events/{eid}/join-settings", {"self_registration": "on"})
    return desk, eid


def test_one_device_cannot_flood_the_join_queue(app: FastAPI) -> None:
    """A few requests at once, then a few a minute from one device: the rest are told to
    wait (429) and nothing of them is kept, so the queue stays open for the others."""
    _, eid = _open_for_phones(app)
    phone = organizer(app, "phone-owner")
    share = share_string(load_fleet("presets:klingon-strike"))
    answers = [
        phone.post(f"/events/{eid}/join", {"name": f"Flood {i}", "fleet": share}).status_code
        for i in range(12)
    ]
    assert answers[:6] == [303] * 6
    assert set(answers[6:]) == {429}
    refused = phone.post(f"/events/{eid}/join", {"name": "Late", "fleet": share})
    assert "too many requests from this device: wait" in text(refused)
    assert len(app.state.web.store.join_requests(None)) == 6


def test_a_request_sent_again_leaves_one_row_and_all_can_be_refused_at_once(
    app: FastAPI,
) -> None:
    desk, eid = _open_for_phones(app)
    store = app.state.web.store
    for _ in range(5):
        store.request_join(None, "Ann", load_fleet("presets:klingon-strike"))
    store.request_join(None, "Ben", load_fleet("presets:klingon-strike"))
    assert [r["name"] for r in store.join_requests(None)] == ["Ann", "Ben"]
    with store.transaction(False) as s:  # the rows themselves: re-sends left none behind
        assert s.scalars(select(func.count(JoinRequestRow.id))).one() == 2
    page = desk.client.get(f"/org/events/{eid}")
    assert 'id="refuse-all"' in page.text
    done = desk.post(f"/org/events/{eid}/join-requests/refuse-all", {})
    assert done.status_code == 303
    assert store.join_requests(None) == []
    assert any("all 2 waiting requests to join refused" in c["what"] for c in store.corrections())


def test_a_request_lapses_after_the_evening(app: FastAPI) -> None:
    _open_for_phones(app)
    store = app.state.web.store
    store.request_join(None, "Ann", load_fleet("presets:klingon-strike"))
    with store.transaction(True) as s:
        for row in s.query(JoinRequestRow):
            row.created_at = now() - timedelta(hours=JOIN_HOURS + 1)
    assert store.join_requests(None) == []
    store.request_join(None, "Ben", load_fleet("presets:klingon-strike"))
    assert [r["name"] for r in store.join_requests(None)] == ["Ben"]


def test_printed_times_carry_their_time_zone() -> None:
    at = now()
    plain, zoned = local_time(at), local_time(at, zone=True)
    assert zoned.startswith(plain)
    assert len(zoned) > len(plain)  # "21:40 UTC", "21:40 CET": paper says which clock
