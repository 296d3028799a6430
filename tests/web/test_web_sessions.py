"""Organizer sessions live in the store (web_sessions, issue 16 item 10): logging out ends the
session, so a copy of the cookie taken before stops working; a login lasts a fixed time however
busy it is; the password can be changed (with the current one), every login of an account ended
at once, and an account removed (never the last)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from kolrami.tournament import store as store_module
from kolrami.tournament.models import WebSessionRow
from kolrami.tournament.store import SESSION_LIFETIME
from kolrami.tournament.store import Store
from kolrami.web import create_app
from kolrami.web.app import SESSION_COOKIE
from web_helpers import PASSWORD
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import text

NEW_PASSWORD = "tribble-2027"


def captured(desk: Desk) -> TestClient:
    """Another browser holding a copy of the desk's session cookie (a sniffed or stolen one)."""
    thief = TestClient(desk.client.app)
    thief.cookies.set(SESSION_COOKIE, desk.client.cookies[SESSION_COOKIE])
    return thief


def logged_in(client: TestClient) -> bool:
    return client.get("/org", follow_redirects=False).status_code == 200


def test_a_cookie_captured_before_logout_is_refused_after_it(app: FastAPI) -> None:
    desk = organizer(app)
    thief = captured(desk)
    assert logged_in(thief)  # a copied cookie works while the session lives...
    assert desk.post("/logout").status_code == 303
    assert not logged_in(desk.client)
    page = thief.get("/org", follow_redirects=False)
    assert page.status_code == 303  # ...and not after the logout
    assert page.headers["location"].startswith("/login")
    # nor for a write: the organizer's forms refuse it
    store: Store = app.state.web.store
    made = thief.post("/org/events", data={"name": "Stolen", "csrf_token": "x"})
    assert made.status_code in (303, 403)
    assert "Stolen" not in store.events()


def test_the_database_keeps_no_working_cookie(app: FastAPI) -> None:
    desk = organizer(app)
    store: Store = app.state.web.store
    with store.transaction(write=False) as s:
        kept = list(s.scalars(select(WebSessionRow.id)))
    assert len(kept) == 1
    cookie = desk.client.cookies[SESSION_COOKIE]
    assert kept[0] not in cookie  # the row holds a hash of the token, not the token


def test_a_login_has_an_absolute_lifetime(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    desk = organizer(app)
    for _ in range(3):  # using the session does not renew it
        assert logged_in(desk.client)
    later = store_module.naive_utc(SESSION_LIFETIME + timedelta(minutes=1))
    monkeypatch.setattr(store_module, "naive_utc", lambda offset=timedelta(0): later + offset)
    assert not logged_in(desk.client)


def test_the_cookie_is_secure_over_tls(store: Store) -> None:
    organizer(create_app(store, own_hosts=("testserver",)))  # makes the account
    app = create_app(store, https_only=True, own_hosts=("testserver",))
    with TestClient(app, base_url="https://testserver") as browser:
        desk = Desk(browser)
        desk.refresh("/login")
        login = desk.post("/login", {"username": "mara", "password": PASSWORD})
        assert login.status_code == 303
        assert "; secure" in login.headers["set-cookie"].lower()
        assert logged_in(browser)
    plain = TestClient(create_app(store, own_hosts=("testserver",))).get("/login")
    assert "secure" not in plain.headers["set-cookie"].lower()


def test_change_the_password(app: FastAPI) -> None:
    desk = organizer(app)
    other_tablet = organizer(app)
    desk.refresh("/org/account")
    form = {"current": "not-it-at-all", "password": NEW_PASSWORD, "again": NEW_PASSWORD}
    wrong = desk.post("/org/account/password", form)
    assert wrong.status_code == 400
    assert "that is not this account's password" in text(wrong)
    short = desk.post("/org/account/password", {**form, "current": PASSWORD, "password": "x"})
    assert short.status_code == 400
    assert 'id="err-password"' in text(short)
    done = desk.post("/org/account/password", {**form, "current": PASSWORD})
    assert done.status_code == 200
    assert "Password changed" in text(done)
    assert logged_in(desk.client)  # this browser goes on
    assert not logged_in(other_tablet.client)  # the others are logged out
    fresh = Desk(TestClient(app))
    fresh.refresh("/login")
    old = fresh.post("/login", {"username": "mara", "password": PASSWORD})
    assert old.status_code == 400
    assert fresh.post("/login", {"username": "mara", "password": NEW_PASSWORD}).status_code == 303


def test_log_out_everywhere(app: FastAPI) -> None:
    desk = organizer(app)
    tablet = organizer(app)
    helper = organizer(app, "kim")
    stolen = captured(tablet)
    desk.refresh("/org/account")
    ended = desk.post("/org/account/sessions/end")
    assert ended.status_code == 303
    assert "Logged out everywhere" in text(desk.client.get(ended.headers["location"]))
    for client in (desk.client, tablet.client, stolen):
        assert not logged_in(client)
    assert logged_in(helper.client)  # another account's logins are its own


def test_remove_an_account_but_never_the_last(app: FastAPI) -> None:
    mara = organizer(app)
    mara.refresh("/org/account")
    alone = mara.post("/org/account/remove", {"current": PASSWORD})
    assert alone.status_code == 400
    assert "the only organizer account" in text(alone)
    assert logged_in(mara.client)
    kim = organizer(app, "kim")
    eid = new_event(kim, "Kim's night", players=2)
    kim.refresh("/org/account")
    assert kim.post("/org/account/remove", {"current": "wrong-password"}).status_code == 400
    gone = kim.post("/org/account/remove", {"current": PASSWORD})
    assert gone.status_code == 303
    store: Store = app.state.web.store
    assert store.organizer("kim") is None
    assert not logged_in(kim.client)
    # Kim's event waits for another organizer; its players and log stay
    assert store.organizers_of("Kim's night") == []
    assert len(store.players("Kim's night")) == 2
    assert any("account was removed" in c["what"] for c in store.corrections("Kim's night"))
    home = mara.client.get("/org")
    assert f"/org/events/{eid}/adopt" in home.text
