"""Every route of the app, through the test client: the public ones answer anyone, every other one
refuses an anonymous request and any other organizer, every POST refuses a missing or wrong
CSRF token, and each page works for its owner."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import text
from web_helpers import token
from web_helpers import untouched

#: Routes anyone may use (method, path). Every other route is an organizer's.
PUBLIC = {
    ("GET", "/"),
    ("GET", "/favicon.ico"),
    ("GET", "/events/{eid}"),
    ("GET", "/events/{eid}/standings"),
    ("GET", "/events/{eid}/rounds/{number}"),
    ("GET", "/events/{eid}/players/{pid}"),
    ("GET", "/events/{eid}/rounds/{number}/tables/{table}/replay"),
    ("GET", "/events/{eid}/report"),
    ("GET", "/events/{eid}/rounds/{number}/tables/{table}"),
    ("POST", "/events/{eid}/rounds/{number}/tables/{table}/report"),
    ("POST", "/events/{eid}/rounds/{number}/tables/{table}/build"),  # a player's PIN, OP-14
    ("POST", "/events/{eid}/reports/{rid}"),
    ("GET", "/login"),
    ("POST", "/login"),
    ("POST", "/logout"),
    ("GET", "/setup"),
    ("POST", "/setup"),
    # playing a battle needs no login (issue 20): a game is reached by its unguessable id
    ("GET", "/play"),
    ("POST", "/play"),
    ("GET", "/play/rules/{rule_id}"),
    ("GET", "/play/{gid}"),
    ("GET", "/play/{gid}/state"),
    ("POST", "/play/{gid}/order"),
    ("POST", "/play/{gid}/undo"),
    ("GET", "/play/{gid}/log.jsonl"),
    ("GET", "/play/{gid}/replay"),
    # the players' fleet builder (issue 43): no login, nothing stored
    ("GET", "/fleets/build"),
    ("POST", "/fleets/build"),
    ("GET", "/fleets/build/fleet.json"),
    ("GET", "/fleets/build/share.txt"),
    ("GET", "/fleets/build/sheet.pdf"),
    # the event's day on phones and the wall (issue 17): the clock, joining, the overview
    ("GET", "/events/{eid}/clock"),
    ("GET", "/events/{eid}/clock.json"),
    ("GET", "/events/{eid}/join"),
    ("POST", "/events/{eid}/join"),
    ("GET", "/events/{eid}/overview"),
    ("GET", "/archive"),
}


#: the /play game the `event` fixture starts (its id is unguessable: made, not chosen)
GAME: dict[str, str] = {}


def routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every route the app serves (from its OpenAPI description, which lists
    every route with its full path whatever the FastAPI version keeps in app.routes)."""
    out = [
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
    ]
    return [*out, ("GET", "/favicon.ico")]  # the one route kept out of the description


def concrete(path: str, eid: int, rid: int = 1) -> str:
    """The path with its parameters filled in for the test event."""
    values = {"eid": eid, "number": 1, "table": 1, "pid": 1, "rid": rid, "token": "gone"}
    values |= {"gid": GAME.get("gid", "g" * 24), "rule_id": "FPF-MOV-07"}
    url = re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), path)
    if path.startswith("/fleets/build/"):  # a download of the builder's fleet, in its address
        url += "?fleet=" + share_string(load_fleet("presets:klingon-strike"))
    return url


@pytest.fixture
def event(app: FastAPI) -> tuple[Desk, int]:
    """Mara's event with five players and round 1 paired; one table played by the AI."""
    desk = organizer(app)
    eid = new_event(desk)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    assert desk.post(f"/org/events/{eid}/rounds/1/tables/1/ai", {"version": "1"}).status_code == 303
    started = desk.post("/play", {"turns": "1", "seed": "1"})
    assert started.status_code == 303
    GAME["gid"] = started.headers["location"].rsplit("/", 1)[1]
    return desk, eid


def test_the_public_list_names_real_routes(app: FastAPI) -> None:
    served = set(routes(app))
    assert served >= PUBLIC, PUBLIC - served


def test_every_organizer_route_refuses_an_anonymous_request(
    app: FastAPI, event: tuple[Desk, int]
) -> None:
    _, eid = event
    anonymous = Desk(TestClient(app))
    anonymous.refresh("/login")  # a session with a valid CSRF token: only the login is missing
    checked = 0
    with untouched(app, eid):
        for method, path in routes(app):
            if (method, path) in PUBLIC:
                continue
            url = concrete(path, eid)
            if method == "GET":
                response = anonymous.client.get(url, follow_redirects=False)
            else:
                response = anonymous.post(url, {"name": "Mallory", "version": "1"})
            assert response.status_code == 303, (method, path, response.status_code)
            assert response.headers["location"].startswith("/login?next="), (method, path)
            checked += 1
    assert checked >= 20


def test_htmx_requests_without_login_are_sent_to_the_login_page(
    app: FastAPI, event: tuple[Desk, int]
) -> None:
    _, eid = event
    anonymous = Desk(TestClient(app))
    anonymous.refresh("/login")
    response = anonymous.client.post(
        f"/org/events/{eid}/rounds/1/tables/2",
        data={"csrf_token": anonymous.csrf},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 401
    assert response.headers["HX-Redirect"].startswith("/login?next=")


def test_another_organizer_reaches_nothing_of_the_event(
    app: FastAPI, event: tuple[Desk, int]
) -> None:
    _, eid = event
    other = organizer(app, "olaf")
    new_event(other, "Harbour Cup", players=2)
    with untouched(app, eid) as name:
        for method, path in routes(app):
            if (method, path) in PUBLIC or "{eid}" not in path:
                continue
            url = concrete(path, eid)
            if method == "GET":
                response = other.client.get(url, follow_redirects=False)
            else:
                response = other.post(url, {"name": "Mallory", "winner": "P0", "version": "1"})
            assert response.status_code == 404, (method, path, response.status_code)
            assert "among yours" in text(response) or "to take over" in response.text
    # his dashboard lists his own event only
    page = other.client.get("/org").text
    assert "Harbour Cup" in page
    assert name not in page


def test_every_post_refuses_a_missing_or_wrong_csrf_token(
    app: FastAPI, event: tuple[Desk, int]
) -> None:
    desk, eid = event
    posts = [path for method, path in routes(app) if method == "POST"]
    assert len(posts) >= 15
    with untouched(app, eid):
        for path in posts:
            url = concrete(path, eid)
            for sent in ({}, {"csrf_token": "forged"}):
                response = desk.client.post(url, data={"name": "X", **sent}, follow_redirects=False)
                assert response.status_code == 403, (path, sent, response.status_code)
                assert "reload the page" in text(response)
    assert desk.client.get("/org").status_code == 200  # still logged in: nothing happened


def test_a_form_from_another_site_is_refused(app: FastAPI, event: tuple[Desk, int]) -> None:
    desk, eid = event
    response = desk.client.post(
        f"/org/events/{eid}/pair",
        data={"csrf_token": desk.csrf},
        headers={"Origin": "http://evil.example"},
    )
    assert response.status_code == 403
    assert "another site" in text(response)


def test_the_token_also_comes_as_a_header(app: FastAPI, event: tuple[Desk, int]) -> None:
    desk, eid = event
    response = desk.client.post(
        f"/org/events/{eid}/fleet-check",
        data={"fleet": "KF1-nonsense"},
        headers={"X-CSRF-Token": desk.csrf, "HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "not a Kolrami share string" in text(response)


def test_every_page_answers_its_owner(app: FastAPI, event: tuple[Desk, int]) -> None:
    desk, eid = event
    for method, path in routes(app):
        if method != "GET" or path in ("/setup",):
            continue
        url = concrete(path, eid)
        if path.endswith("/replay"):
            url = url  # table 1 was played by the AI
        response = desk.client.get(url, follow_redirects=False)
        # a PIN's page under a token never given is gone (410), with a way to a new PIN
        expected = (410,) if path.endswith("/pins/{token}") else (200, 303)
        assert response.status_code in expected, (path, response.status_code)
        if response.status_code == 200 and "text/html" in response.headers["content-type"]:
            assert "<html" in text(response).lower()


def test_public_pages_answer_anyone(app: FastAPI, event: tuple[Desk, int]) -> None:
    _, eid = event
    anyone = TestClient(app)
    for method, path in PUBLIC:
        if method != "GET" or path in ("/setup", "/login"):
            continue
        response = anyone.get(concrete(path, eid))
        assert response.status_code == 200, (path, response.status_code)
    assert anyone.get("/login").status_code == 200
    assert anyone.get("/setup").status_code == 404  # an account exists


def test_the_pages_carry_a_token_and_the_security_headers(client: TestClient) -> None:
    page = client.get("/setup")
    assert token(page.text)
    headers = page.headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    cookie = headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=lax" in cookie


def test_unknown_pages_and_events_are_404(client: TestClient) -> None:
    assert client.get("/nowhere").status_code == 404
    response = client.get("/events/99")
    assert response.status_code == 404
    assert "no event #99" in text(response)
    assert client.get("/events/abc").status_code == 422
