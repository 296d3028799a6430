"""The web app records nothing wrong (issue 16): unicode digits are refused beside the field,
not a 500; a winner with fewer Fleet Points is refused (PP-22); the organizer's correction drops
the players' PIN confirmation and says whose entry it is; roll-off entries are checked."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.tournament import core
from kolrami.tournament.store import Store
from kolrami.web import create_app
from kolrami.web import security
from kolrami.web.routers import auth
from web_helpers import PASSWORD
from web_helpers import Desk
from web_helpers import PairedGame
from web_helpers import organizer
from web_helpers import phone
from web_helpers import possible_points
from web_helpers import table
from web_helpers import text


@pytest.mark.parametrize("bad", ["\u00b2", "\u0663", "\uff11\uff12", "1" * 40])
def test_unicode_digits_are_refused_not_a_server_error(
    app: FastAPI, paired_game: PairedGame, bad: str
) -> None:
    desk, eid, store, name, g = paired_game
    before = store.export(name)
    org = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        {"winner": g["a"], "fp_a": bad[:10], "fp_b": "0", "version": str(g["version"])},
    )
    assert org.status_code == 400
    assert "a whole number" in text(org)
    player = phone(app, eid)
    sent = player.post(
        f"/events/{eid}/rounds/1/tables/1/report",
        {
            "player": g["a"],
            "winner": g["a"],
            "fp_a": bad[:10],
            "fp_b": "1",
            "pin": desk.pins[g["a"]],
        },
    )
    assert sent.status_code == 400
    assert "a whole number" in text(sent)
    made = desk.post(
        "/org/events",
        {"name": "Other", "sp_limit": bad[:10], "rounds": "3", "minutes": "60"},
    )
    assert made.status_code == 400
    assert "SP limit: a whole number above 0" in text(made)
    assert store.export(name) == before


@pytest.mark.rule("PP-22")
def test_a_winner_with_fewer_fleet_points_is_refused(
    paired_game: PairedGame,
) -> None:
    desk, eid, store, name, g = paired_game
    response = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        {
            "winner": g["a"],
            "fp_a": "0",
            "fp_b": "108",
            "version": str(g["version"]),
            "accept": "yes",
        },
    )
    assert response.status_code == 400
    assert f"{g['a']} cannot have won with 0 Fleet Points" in text(response)
    assert "PP-22" in text(response)
    assert 'id="err-winner"' in text(response)  # under the winner's choice, by the error's field
    assert 'id="err-form"' not in text(response)
    assert table(store, name)["winner"] is None


def test_the_organizers_correction_drops_the_pin_confirmation(
    app: FastAPI, paired_game: PairedGame
) -> None:
    desk, eid, store, name, g = paired_game
    fleets = store.fleets(name)
    fb = possible_points(fleets[g["a"]], 10)
    fa = possible_points(fleets[g["b"]], fb + 1)
    rid = store.report_result(name, 1, g["a"], g["a"], {g["a"]: fa, g["b"]: fb})
    assert store.confirm_report(name, rid, g["b"]) == ""
    card = desk.client.get(f"/org/events/{eid}/rounds/1").text
    assert "confirmed by PINs" in card
    version = str(table(store, name)["version"])
    fixed = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        {"winner": g["a"], "fp_a": str(fa), "fp_b": "0", "version": version, "accept": "yes"},
    )
    assert fixed.status_code == 303
    t = table(store, name)
    assert (t["result_initials_a"], t["result_initials_b"]) == ("", "")
    assert t["entered_by"] == "organizer mara"
    page = text(desk.client.get(f"/org/events/{eid}/rounds/1"))
    assert "entered by organizer mara" in page
    assert "confirmed by PINs" not in page
    sheets = desk.client.get(f"/org/events/{eid}/print/sheets").text
    assert "confirmation of the earlier result no longer applies" in text(
        desk.client.get(f"/org/events/{eid}/corrections")
    )
    assert sheets


@pytest.mark.rule("OP-24")
def test_a_roll_off_entry_is_checked_on_the_web(paired: tuple[Desk, int, Store, str]) -> None:
    desk, eid, store, name = paired
    for t in store.games(name, 1):
        if t["b"]:
            desk.post(
                f"/org/events/{eid}/rounds/1/tables/{t['table']}",
                {"winner": t["a"], "fp_a": "0", "fp_b": "0", "version": str(t["version"])},
            )
    page = text(desk.client.get(f"/org/events/{eid}"))
    assert "share a rank" in page
    view = store.state(name)
    group = core.tied_groups(view.standings())[0]
    before = store.export(name)
    bad = desk.post(
        f"/org/events/{eid}/rolloff",
        {"how": "entered", **{f"roll_{p}": "9" for p in group}},
    )
    assert bad.status_code == 400
    assert "0 to 5" in text(bad)
    assert store.export(name) == before
    good = desk.post(
        f"/org/events/{eid}/rolloff",
        {"how": "entered", **{f"roll_{p}": str(i) for i, p in enumerate(group)}},
    )
    assert good.status_code == 303
    assert len(store.state(name).roll_offs) == 1


def test_simultaneous_setups_make_one_account(store: Store) -> None:
    made = [store.create_first_organizer(f"org{i}", "x") for i in range(4)]
    assert made[0] is not None
    assert made[1:] == [None, None, None]
    assert store.organizer_count() == 1


def test_setup_only_at_the_servers_own_names(store: Store) -> None:
    app = create_app(store)  # no extra names: TestClient's 'testserver' is not one of ours
    rebinding = Desk(TestClient(app, base_url="http://attacker.example"))
    page = rebinding.client.get("/setup")
    assert page.status_code == 403
    assert "own address" in text(page)
    local = Desk(TestClient(app, base_url="http://localhost:8000"))
    local.refresh("/setup")
    made = local.post("/setup", {"username": "mara", "password": PASSWORD, "again": PASSWORD})
    assert made.status_code == 303
    assert store.organizer_count() == 1


def test_login_checks_a_hash_for_unknown_names_too(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    organizer(app)
    checked: list[str] = []
    real = security.verify_secret

    def counting(stored: str | None, given: str) -> bool:
        checked.append(given)
        return real(stored, given)

    monkeypatch.setattr(auth, "verify_secret", counting)
    desk = Desk(TestClient(app))
    desk.refresh("/login")
    for user in ("mara", "nobody"):
        response = desk.post("/login", {"username": user, "password": "wrong-password"})
        assert response.status_code == 400
    assert checked == ["wrong-password", "wrong-password"]  # the same work either way
