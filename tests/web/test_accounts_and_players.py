"""Accounts, PINs and registration: hashed secrets, growing delays on wrong PINs and passwords
(never a lock on the owner), PINs
shown once, events made with the CLI taken over, and registration problems shown beside their
fields with the store untouched."""

from __future__ import annotations

import json
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import dumps
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web import security
from kolrami.web.deps import safe_next
from web_helpers import PASSWORD
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import organizer_event
from web_helpers import pin_on
from web_helpers import text


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_first_account_is_made_once_and_its_password_hashed(
    app: FastAPI, client: TestClient
) -> None:
    desk = Desk(client)
    assert client.get("/login", follow_redirects=False).headers["location"] == "/setup"
    desk.refresh("/setup")
    short = desk.post("/setup", {"username": "mara", "password": "short", "again": "short"})
    assert short.status_code == 400
    assert 'id="err-password"' in text(short)
    made = desk.post("/setup", {"username": "mara", "password": PASSWORD, "again": PASSWORD})
    assert made.status_code == 303
    store: Store = app.state.web.store
    found = store.organizer("mara")
    assert found is not None
    assert found[1].startswith("$argon2")
    assert PASSWORD not in found[1]
    assert client.get("/org").status_code == 200  # logged in at once
    # the setup page closes once an organizer exists
    assert TestClient(app).get("/setup").status_code == 404


def device(app: FastAPI, address: str) -> Desk:
    """A browser on its own device (its own client address)."""
    return Desk(TestClient(app, client=(address, 50000)))


def test_wrong_passwords_slow_the_device_down_but_never_lock_the_owner_out(
    app: FastAPI,
) -> None:
    organizer(app)  # makes the account
    clock = Clock()
    app.state.web.logins.clock = clock
    attacker = device(app, "10.0.0.66")
    attacker.refresh("/login")
    waits = []
    for _ in range(12):
        wrong = attacker.post("/login", {"username": "mara", "password": "guess-guess"})
        if wrong.status_code == 429:  # it waits: told how long, its guess not even checked
            assert "too many wrong passwords from this device" in text(wrong)
            waits.append(int(wrong.headers["retry-after"]))
            clock.now += waits[-1]
            wrong = attacker.post("/login", {"username": "mara", "password": "guess-guess"})
        assert wrong.status_code == 400
        assert "wrong user name or password" in text(wrong)
    assert waits == [1, 2, 4, 8, 16, 32, 64, 128]  # three typos free, then the delays double
    # the attacker's device waits, even with the right password...
    held = attacker.post("/login", {"username": "mara", "password": PASSWORD})
    assert held.status_code == 429
    assert int(held.headers["retry-after"]) > 0
    # ...while the owner's tablet logs in at once: mara is never locked out
    owner = device(app, "10.0.0.7")
    owner.refresh("/login")
    assert owner.post("/login", {"username": "mara", "password": PASSWORD}).status_code == 303
    # a second attacking device gets no fresh run of free guesses at mara: one wrong answer
    # and it waits as long as the account's delay
    other = device(app, "10.0.0.67")
    other.refresh("/login")
    assert other.post("/login", {"username": "mara", "password": "guess-2"}).status_code == 400
    assert other.post("/login", {"username": "mara", "password": "guess-3"}).status_code == 429
    # the wait over, the right password works on the attacker's device too
    clock.now += int(held.headers["retry-after"])
    assert attacker.post("/login", {"username": "mara", "password": PASSWORD}).status_code == 303


def test_the_throttle_grows_caps_and_forgets() -> None:
    clock = Clock()
    throttle = security.Throttle(account_free=3, device_free=5, cap_seconds=900, clock=clock)
    waits = [throttle.failed("user:mara", "10.0.0.66") for _ in range(20)]
    assert waits[:3] == [0, 0, 0]  # typos cost nothing
    assert waits[3:8] == [1, 2, 4, 8, 16]  # then each wrong answer doubles the wait
    assert max(waits) == 900  # up to the cap
    assert throttle.wait_seconds("10.0.0.66") == 900
    assert throttle.wait_seconds("10.0.0.7") == 0  # nothing falls on another device
    clock.now += 900
    assert throttle.wait_seconds("10.0.0.66") == 0
    clock.now += 3600  # an hour without a wrong answer: forgotten
    assert throttle.failed("user:mara", "10.0.0.66") == 0


def test_login_goes_back_only_to_this_site() -> None:
    assert safe_next("/org/events/3") == "/org/events/3"
    for bad in ("https://evil.example/", "//evil.example", "/\\evil.example", "", None):
        assert safe_next(bad) == "/org"


def test_pins_are_shown_once_stored_hashed_and_limited(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=3)
    for player, pin in desk.pins.items():
        stored = store.pin_hash(name, player)
        assert stored is not None
        assert stored.startswith("$argon2")
        assert pin not in stored
        assert len(pin) == 4
    assert desk.pins["P0"] not in desk.client.get(f"/org/events/{eid}").text
    desk.post(f"/org/events/{eid}/pair")
    g = next(t for t in store.games(name, 1) if t["b"] is not None)
    clock = Clock()
    app.state.web.pins.clock = clock
    phone = device(app, "10.0.0.66")
    phone.refresh(f"/events/{eid}/rounds/1/tables/{g['table']}")
    url = f"/events/{eid}/rounds/1/tables/{g['table']}/report"
    form = {"player": g["a"], "winner": g["a"], "fp_a": "0", "fp_b": "0"}
    right = desk.pins[g["a"]]
    wrong = "0000" if right != "0000" else "1111"
    waits = []
    for _ in range(8):
        refused = phone.post(url, {**form, "pin": wrong})
        if refused.status_code == 429:
            assert "too many wrong PINs from this device" in text(refused)
            assert 'id="err-pin"' in text(refused)
            waits.append(int(refused.headers["retry-after"]))
            clock.now += waits[-1]
            refused = phone.post(url, {**form, "pin": wrong})
        assert refused.status_code == 400
        assert f"that is not {g['a']}'s PIN" in text(refused)
    assert waits == [1, 2, 4, 8]
    held = phone.post(url, {**form, "pin": right})
    assert held.status_code == 429  # this phone waits, right PIN or not
    assert not store.reports(name)
    # the player's own phone is not locked out: his right PIN goes through at once
    own = device(app, "10.0.0.8")
    own.refresh(f"/events/{eid}/rounds/1/tables/{g['table']}")
    assert own.post(url, {**form, "pin": right}).status_code == 303
    assert store.reports(name)


def test_one_device_trying_pins_across_players_is_slowed_down(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=7)
    desk.post(f"/org/events/{eid}/pair")
    clock = Clock()
    app.state.web.pins.clock = clock
    phone = device(app, "10.0.0.66")
    phone.refresh(f"/events/{eid}/rounds/1/tables/1")
    tables = [t for t in store.games(name, 1) if t["b"] is not None]
    waits = []
    for t in tables:
        for who in (t["a"], t["b"]):
            wrong = "0000" if desk.pins[who] != "0000" else "1111"
            form = {"player": who, "winner": who, "fp_a": "0", "fp_b": "0", "pin": wrong}
            url = f"/events/{eid}/rounds/1/tables/{t['table']}/report"
            for _ in range(2):  # under each player's own free tries
                sent = phone.post(url, form)
                if sent.status_code == 429:  # the device waits as it is told, then guesses on
                    waits.append(int(sent.headers["retry-after"]))
                    clock.now += waits[-1]
                    sent = phone.post(url, form)
                assert sent.status_code == 400
    # a phone passed round a table: six typos cost nothing; then the device waits, longer
    # after each wrong PIN, whoever it was for
    assert waits == [1, 2, 4, 8, 16]
    t = tables[0]
    last = phone.post(
        f"/events/{eid}/rounds/1/tables/{t['table']}/report",
        {"player": t["a"], "winner": t["a"], "fp_a": "0", "fp_b": "0", "pin": desk.pins[t["a"]]},
    )
    assert last.status_code == 429
    assert int(last.headers["retry-after"]) == 32


def test_a_new_pin_replaces_the_old_one(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=2)
    old = store.pin_hash(name, "P0")
    pid = next(p["id"] for p in store.players(name) if p["name"] == "P0")
    sent = desk.post(f"/org/events/{eid}/players/{pid}/pin")
    assert sent.status_code == 303  # post/redirect/get: a reload cannot give yet another PIN
    page = desk.client.get(sent.headers["location"])
    assert page.status_code == 200
    assert "The old PIN no longer works" in text(page)
    assert pin_on(page.text) != ""
    assert store.pin_hash(name, "P0") != old
    assert any(c["what"] == "new PIN for P0" for c in store.corrections(name))


def test_drop_a_player(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=3)
    pid = next(p["id"] for p in store.players(name) if p["name"] == "P2")
    assert desk.post(f"/org/events/{eid}/players/{pid}/drop").status_code == 303
    assert "P2" not in store.state(name).active
    again = desk.post(f"/org/events/{eid}/players/{pid}/drop")
    assert again.status_code == 400
    assert "has dropped already" in text(again)


def test_an_event_made_with_the_cli_can_be_taken_over_once(app: FastAPI) -> None:
    store: Store = app.state.web.store
    store.create_event("From the CLI", seed=1)
    store.add_player("From the CLI", "Ann", load_fleet("presets:klingon-strike"))
    eid = store.event_id("From the CLI")
    mara = organizer(app)
    assert mara.client.get(f"/org/events/{eid}").status_code == 404
    assert "From the CLI" in mara.client.get("/org").text
    assert mara.post(f"/org/events/{eid}/adopt").status_code == 303
    assert mara.client.get(f"/org/events/{eid}").status_code == 200
    olaf = organizer(app, "olaf")
    assert olaf.post(f"/org/events/{eid}/adopt").status_code == 404
    assert olaf.client.get(f"/org/events/{eid}").status_code == 404


def test_a_share_string_registers_and_a_bad_one_is_shown_beside_the_field(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=0)
    bad = desk.post(f"/org/events/{eid}/players", {"name": "Ann", "fleet": "KF1-garbage"})
    assert bad.status_code == 400
    assert 'id="err-fleet"' in text(bad)
    assert "not a Kolrami share string" in text(bad)
    assert 'value="Ann"' in text(bad)  # what was typed stays
    not_one = desk.post(f"/org/events/{eid}/players", {"name": "Ann", "fleet": "hello"})
    assert "not a share string" in text(not_one)
    assert store.players(name) == []
    ok = desk.post(
        f"/org/events/{eid}/players",
        {"name": "Ann", "fleet": share_string(load_fleet("presets:klingon-strike"))},
    )
    assert ok.status_code == 303
    ok = desk.client.get(ok.headers["location"])
    assert pin_on(ok.text)
    twice = desk.post(
        f"/org/events/{eid}/players",
        {"name": "Ann", "fleet": share_string(load_fleet("presets:klingon-strike"))},
    )
    assert twice.status_code == 400
    assert 'id="err-name"' in text(twice)
    assert "registered already" in text(twice)
    assert [p["name"] for p in store.players(name)] == ["Ann"]


def test_a_fleetx_file_is_uploaded_and_an_over_budget_one_refused(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=0)
    good = dumps(load_fleet("presets:federation-venture")).encode()
    response = desk.client.post(
        f"/org/events/{eid}/players",
        data={"name": "Ben", "csrf_token": desk.csrf},
        files={"upload": ("venture.json", good, "application/json")},
    )
    assert response.status_code == 200
    assert pin_on(response.text)
    big = json.loads(good)
    big["ships"] = [{"id": "enterprise"}, {"id": "enterprise"}]
    response = desk.client.post(
        f"/org/events/{eid}/players",
        data={"name": "Cat", "csrf_token": desk.csrf},
        files={"upload": ("big.json", json.dumps(big).encode(), "application/json")},
    )
    assert response.status_code == 400
    assert "exceeds the 300 SP limit by" in text(response)
    assert [p["name"] for p in store.players(name)] == ["Ben"]


def test_a_typed_fleet_shows_each_problem_beside_its_field(app: FastAPI) -> None:
    desk, eid, store, name = organizer_event(app, players=0)
    url = f"/org/events/{eid}/players/build"
    assert desk.client.get(url).status_code == 200
    form = {
        "name": "Eli",
        "rows": "6",
        "ship_0_class": "enterprise",
        "ship_0_captain": "korvekh",  # a Klingon captain on a Federation ship
        "ship_1_class": "venture",
        "ship_1_upgrades": "Shield Capacitor Bnk",
        "ship_2_class": "reliant",
        "ship_3_squadron": "two",
        "ship_3_class": "defender",
        "action": "check",
    }
    checked = desk.post(url, form)
    assert checked.status_code == 200
    assert 'id="err-ship_1_upgrades"' in text(checked)
    assert "did you mean 'Shield Capacitor Bank'" in text(checked)
    assert 'id="err-ship_3_squadron"' in text(checked)
    assert 'id="err-ship_0_captain"' in text(checked)
    assert "may only serve on KLI ships" in text(checked)
    form.update(
        {"ship_1_upgrades": "Shield Capacitor Bank", "ship_3_squadron": "2", "ship_0_captain": ""}
    )
    over = desk.post(url, {**form, "action": "register"})
    assert over.status_code == 400
    assert 'id="err-total"' in text(over)
    assert "exceeds the 300 SP limit by" in text(over)
    assert store.players(name) == []
    more = desk.post(url, {**form, "action": "more"})
    assert 'name="ship_8_class"' in text(more)
    form.update({"ship_2_class": "", "ship_3_class": ""})
    done = desk.post(url, {**form, "action": "register"})
    assert done.status_code == 303
    done = desk.client.get(done.headers["location"])
    assert pin_on(done.text)
    fleet = store.fleets(name)["Eli"]
    assert [s.id for s in fleet.ships] == ["enterprise", "venture"]
    assert fleet.ships[1].upgrades == {"tech": ["shield-capacitor"]}


#: a good event form, one field of it changed by the tests below
DECEMBER = {
    "name": "December",
    "date": "2026-12-28",
    "sp_limit": "300",
    "scenario": "peak-performance",
    "rounds": "3",
    "minutes": "60",
}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", "an event needs a name"),
        ("sp_limit", "0", "SP limit: a whole number above 0"),
        ("rounds", "three", "Rounds: a whole number above 0"),
        ("scenario", "chess", "choose one of the scenarios"),
        ("date", "next Friday", "a date like 2026-11-30"),
        ("seed", "-5", "Seed: a whole number from 0 to 2**63 - 1"),
        ("seed", str(2**63), "Seed: a whole number from 0 to 2**63 - 1"),
    ],
)
def test_bad_event_settings_are_shown_beside_the_field(
    app: FastAPI, field: str, value: str, message: str
) -> None:
    response = organizer(app).post("/org/events", {**DECEMBER, field: value})
    assert response.status_code == 400
    assert f'id="err-{field}"' in text(response)
    assert message in text(response)
    assert app.state.web.store.event_list() == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("date", "2026-13-45", "not a calendar date"),
        ("sp_limit", "100001", "SP limit 100001: use 1 to 100000"),
        ("minutes", "1441", "1441 minutes a round"),
    ],
)
def test_the_stores_refusal_of_a_setting_is_shown_beside_its_field(
    app: FastAPI, field: str, value: str, message: str
) -> None:
    """Values of the right shape that the store refuses (a 13th month, a limit past any event):
    its error names the field, and the page shows the message there, not under Name."""
    response = organizer(app).post("/org/events", {**DECEMBER, field: value})
    assert response.status_code == 400
    page = text(response)
    shown = re.search(rf'<p class="error" id="err-{field}" role="alert">([^<]*)</p>', page)
    assert shown is not None, page
    assert message in shown.group(1)
    assert 'id="err-name"' not in page
    assert app.state.web.store.event_list() == []


def test_an_event_made_with_a_seed_keeps_it(app: FastAPI) -> None:
    """The optional seed derives the round-1 pairings, byes and roll-offs again (OP-13)."""
    desk = organizer(app)
    form = {"name": "Seeded", "sp_limit": "300", "rounds": "3", "minutes": "60"}
    made = desk.post("/org/events", {**form, "seed": "2026"})
    assert made.status_code == 303
    drawn = desk.post("/org/events", {**form, "name": "Drawn", "seed": ""})
    assert drawn.status_code == 303
    store = app.state.web.store
    assert store.settings("Seeded")["seed"] == 2026
    assert 0 <= store.settings("Drawn")["seed"] < 2**63


def test_an_event_name_is_taken_once(app: FastAPI) -> None:
    desk = organizer(app)
    new_event(desk, players=0)
    again = desk.post("/org/events", {"name": "November", "sp_limit": "300", "rounds": "3"})
    assert again.status_code == 400
    assert "exists already" in text(again)


def test_another_organizer_account(app: FastAPI) -> None:
    desk = organizer(app)
    made = desk.post(
        "/org/organizers", {"username": "olaf", "password": PASSWORD, "again": PASSWORD}
    )
    assert made.status_code == 200
    assert "Made the account" in text(made)
    taken = desk.post(
        "/org/organizers", {"username": "olaf", "password": PASSWORD, "again": PASSWORD}
    )
    assert taken.status_code == 400
    assert "is taken" in text(taken)
    spaced = desk.post(
        "/org/organizers", {"username": "o laf", "password": PASSWORD, "again": "other-pass"}
    )
    assert 'id="err-again"' in text(spaced)


def test_logging_out_forgets_the_session(app: FastAPI) -> None:
    desk = organizer(app)
    assert desk.post("/logout").status_code == 303
    assert desk.client.get("/org", follow_redirects=False).status_code == 303


def test_what_players_type_is_escaped_everywhere(app: FastAPI) -> None:
    desk = organizer(app)
    eid = new_event(desk, players=0)
    evil = "<script>alert(1)</script>"
    response = desk.post(
        f"/org/events/{eid}/players",
        {"name": evil, "fleet": share_string(load_fleet("presets:klingon-strike"))},
    )
    assert response.status_code == 303
    pages = (
        desk.client.get(response.headers["location"]),  # the PIN's page names the player
        desk.client.get(f"/org/events/{eid}"),
        TestClient(app).get(f"/events/{eid}"),
        TestClient(app).get(f"/events/{eid}/standings"),  # the kept standings rows
    )
    for page in pages:
        assert evil not in page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_reloading_the_pin_page_neither_registers_again_nor_loses_the_pin(app: FastAPI) -> None:
    """Issue 23: the registration redirects to the PIN's page (post/redirect/get)."""
    desk, eid, store, name = organizer_event(app, players=1)
    fleet = share_string(load_fleet("presets:klingon-strike"))
    sent = desk.post(f"/org/events/{eid}/players", {"name": "Finn", "fleet": fleet})
    assert sent.status_code == 303
    where = sent.headers["location"]
    first = desk.client.get(where)
    again = desk.client.get(where)  # the reload
    assert pin_on(first.text) == pin_on(again.text) != ""
    assert [p["name"] for p in store.players(name)].count("Finn") == 1
    other = organizer(app, "dev")
    assert 'class="pin"' not in other.client.get(where).text  # another organizer never sees it
