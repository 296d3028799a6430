"""The organizer's edits in the web app (issue 17, items 3 to 7) through the HTTP client: each
refusal is a 4xx with its one-line message and leaves the database as it was."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest
from fastapi import FastAPI

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import text


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(Store(str(tmp_path / "web-edits.db")), own_hosts=("testserver",))


def dump(app: FastAPI) -> list[str]:
    store: Store = app.state.web.store
    path = store.url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as c:
        return [
            line
            for line in c.iterdump()
            if "web_sessions" not in line and "app_secrets" not in line
        ]


def _pid(app: FastAPI, name: str) -> int:
    store: Store = app.state.web.store
    return next(int(p["id"]) for p in store.players("November") if p["name"] == name)


def refused(desk: Desk, app: FastAPI, path: str, data: dict[str, str], message: str) -> None:
    before = dump(app)
    response = desk.post(path, data)
    assert 400 <= response.status_code < 500, response.text
    assert message in text(response)
    assert dump(app) == before


@pytest.mark.rule("OP-12")
def test_player_edits_before_round_1_and_refused_after(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=4)
    pid = _pid(app, "P0")
    assert (
        desk.post(f"/org/events/{eid}/players/{pid}/rename", {"new_name": "Ann"}).status_code == 303
    )
    fleet = share_string(load_fleet("presets:klingon-raiders"))
    assert desk.post(f"/org/events/{eid}/players/{pid}/fleet", {"fleet": fleet}).status_code == 303
    refused(desk, app, f"/org/events/{eid}/players/{pid}/fleet", {"fleet": "KF1-nonsense"}, "")
    refused(
        desk,
        app,
        f"/org/events/{eid}/players/{pid}/rename",
        {"new_name": "P1"},
        "registered already",
    )
    assert desk.post(f"/org/events/{eid}/players/{_pid(app, 'P3')}/remove").status_code == 303
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    for path, data in (
        (f"/org/events/{eid}/players/{pid}/rename", {"new_name": "Anna"}),
        (f"/org/events/{eid}/players/{pid}/fleet", {"fleet": fleet}),
        (f"/org/events/{eid}/players/{pid}/remove", {}),
    ):
        refused(desk, app, path, data, "locked once round 1 is paired (OP-12)")
    log = text(desk.client.get(f"/org/events/{eid}/corrections"))
    assert "P0 renamed Ann" in log
    assert "organizer mara" in log


def test_drop_asks_first_and_can_be_undone(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=4)
    pid = _pid(app, "P2")
    page = text(desk.client.get(f"/org/events/{eid}"))
    # the Drop button asks first: it opens a page (GET), it drops nothing
    assert f'method="get" action="/org/events/{eid}/players/{pid}/drop"' in page
    ask = text(desk.client.get(f"/org/events/{eid}/players/{pid}/drop"))
    assert "Drop P2?" in ask
    assert desk.post(f"/org/events/{eid}/players/{pid}/drop").status_code == 303
    assert desk.post(f"/org/events/{eid}/players/{pid}/undrop").status_code == 303
    refused(desk, app, f"/org/events/{eid}/players/{pid}/undrop", {}, "has not dropped")


def test_round_cancel_repair_and_swap(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=5)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    store: Store = app.state.web.store
    r1 = store.state("November").rounds[0]
    bye = next(g.a for g in r1 if g.bye)
    other = next(g.a for g in r1 if not g.bye)
    swapped = desk.post(f"/org/events/{eid}/rounds/swap", {"first": bye, "second": other})
    assert swapped.status_code == 200
    assert "(OP-08)" in text(swapped)
    assert next(g.a for g in store.state("November").rounds[0] if g.bye) == other
    refused(
        desk, app, f"/org/events/{eid}/rounds/swap", {"first": bye, "second": "Nobody"},
        "no player 'Nobody'",
    )  # fmt: skip
    assert desk.post(f"/org/events/{eid}/rounds/repair").status_code == 303
    assert desk.post(f"/org/events/{eid}/rounds/cancel").status_code == 303
    assert store.state("November").rounds == ()
    refused(desk, app, f"/org/events/{eid}/rounds/cancel", {}, "no round paired yet")


def test_share_with_a_co_organizer(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=2)
    lee = organizer(app, "lee")
    assert lee.client.get(f"/org/events/{eid}").status_code == 404
    assert desk.post(f"/org/events/{eid}/organizers", {"username": "lee"}).status_code == 303
    assert lee.client.get(f"/org/events/{eid}").status_code == 200
    lee.refresh(f"/org/events/{eid}")
    pid = _pid(app, "P1")
    assert (
        lee.post(f"/org/events/{eid}/players/{pid}/rename", {"new_name": "Bo"}).status_code == 303
    )
    log = text(desk.client.get(f"/org/events/{eid}/corrections"))
    assert "organizer mara shared November with organizer lee" in log
    assert re.search(r"<td>organizer lee</td><td>P1 renamed Bo</td>", log)
    refused(
        desk,
        app,
        f"/org/events/{eid}/organizers",
        {"username": "zed"},
        "no organizer account 'zed'",
    )
    assert desk.post(f"/org/events/{eid}/organizers/remove", {"username": "lee"}).status_code == 303
    refused(
        desk, app, f"/org/events/{eid}/organizers/remove", {"username": "mara"}, "only organizer"
    )  # fmt: skip
    assert lee.client.get(f"/org/events/{eid}").status_code == 404


def test_a_co_organizer_cannot_remove_the_owner(app: FastAPI) -> None:
    """Issue 44: the event's creator is removed only by himself or after handing it over."""
    desk = organizer(app)
    eid = new_event(desk, players=2)
    lee = organizer(app, "lee")
    assert desk.post(f"/org/events/{eid}/organizers", {"username": "lee"}).status_code == 303
    lee.refresh(f"/org/events/{eid}/organizers")
    refused(lee, app, f"/org/events/{eid}/organizers/remove", {"username": "mara"}, "owns")
    refused(lee, app, f"/org/events/{eid}/organizers/owner", {"username": "lee"}, "only the owner")
    assert "Hand the event over" not in text(lee.client.get(f"/org/events/{eid}/organizers"))
    page = text(desk.client.get(f"/org/events/{eid}/organizers"))
    assert "Hand the event over" in page
    desk.refresh(f"/org/events/{eid}/organizers")
    assert desk.post(f"/org/events/{eid}/organizers/owner", {"username": "lee"}).status_code == 303
    lee.refresh(f"/org/events/{eid}/organizers")
    assert lee.post(f"/org/events/{eid}/organizers/remove", {"username": "mara"}).status_code == 303
    assert desk.client.get(f"/org/events/{eid}").status_code == 404


def test_build_check_from_the_phone(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=4)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    store: Store = app.state.web.store
    g = store.state("November").rounds[0][0]
    assert g.b is not None
    path = f"/events/{eid}/rounds/1/tables/1/build"
    refused(desk, app, path, {"player": g.a, "initials": "AA", "pin": "0000"}, "PIN")
    refused(desk, app, path, {"player": g.a, "initials": "", "pin": desk.pins[g.a]}, "initials")
    ok = desk.post(path, {"player": g.a, "initials": "AA", "pin": desk.pins[g.a]})
    assert ok.status_code == 303
    assert store.games("November", 1)[0]["build_initials_b"] == "AA"
    org = text(desk.client.get(f"/org/events/{eid}/rounds/1"))
    assert re.search(r'class="build-waiting">[^<]*' + re.escape(g.b), org)
    slips = text(desk.client.get(f"/org/events/{eid}/print/rounds/1/slips"))
    assert f"{g.a} initialled {g.b}'s build (AA)" in slips


def test_pairings_by_table_and_by_name(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=5)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    page = text(desk.client.get(f"/org/events/{eid}/print/rounds/1/pairings"))
    by_name = page[page.index("By player name") :]
    names = re.findall(r"<tr><td>(P\d)</td>", by_name)
    assert names == ["P0", "P1", "P2", "P3", "P4"]


def test_import_and_standings_csv(app: FastAPI, tmp_path: Path) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=4)
    export = desk.client.get(f"/org/events/{eid}/export").json()
    rows = list(
        csv.reader(io.StringIO(desk.client.get(f"/org/events/{eid}/export/standings.csv").text))
    )
    assert rows[0][2] == "player"
    assert len(rows) == 5
    for bad, message in (
        (b"{not json", "event.json: not valid JSON"),
        (b'{"kolrami": "event/1", "event": {}}', "event.json: event.name: field required"),
        (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
        (json.dumps(export).encode(), "exists already"),
        (b"[]", "not a Kolrami event export"),
    ):
        before = dump(app)
        response = desk.client.post(
            "/org/import",
            data={"csrf_token": desk.csrf},
            files={"upload": ("event.json", bad)},
            follow_redirects=False,
        )
        assert response.status_code == 400
        assert message in text(response)
        assert dump(app) == before
    export["event"]["name"] = "December"
    good = desk.client.post(
        "/org/import",
        data={"csrf_token": desk.csrf},
        files={"upload": ("event.json", json.dumps(export).encode())},
        follow_redirects=False,
    )
    assert good.status_code == 303
    assert "December" in text(desk.client.get(good.headers["location"]))


def test_events_typed_by_hand_is_the_list_and_standings_before_a_complete_round_say_so(
    app: FastAPI,
) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=4)
    moved = desk.client.get("/events", follow_redirects=False)
    assert moved.status_code == 307
    assert moved.headers["location"] == "/"
    assert "November" in desk.client.get("/events").text
    desk.post(f"/org/events/{eid}/pair", {})
    page = desk.client.get(f"/events/{eid}/standings").text
    assert "after 0 rounds" not in page
    assert "round 1 in progress, no round complete yet" in page
