"""Results through the web app: players report and confirm with PINs (OP-14, FBS-10), disputes and
impossible scores go to the organizer, the organizer enters, corrects and overrides, two tablets
at once never lose an update, and bad input is refused with its message and the store untouched."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.tournament.store import Store
from web_helpers import Desk
from web_helpers import PairedGame
from web_helpers import impossible_points
from web_helpers import organizer
from web_helpers import phone
from web_helpers import possible_points
from web_helpers import table
from web_helpers import text


def points(store: Store, name: str, g: dict[str, Any]) -> dict[str, int]:
    fleets = store.fleets(name)
    b = possible_points(fleets[g["a"]], 30)
    return {g["a"]: possible_points(fleets[g["b"]], max(50, b + 1)), g["b"]: b}  # PP-22


#: What `at_table` gives.
Reporting = tuple[Desk, int, Store, str, dict[str, Any], dict[str, int], Desk]


@pytest.fixture
def at_table(app: FastAPI, paired_game: PairedGame) -> Reporting:
    """`paired` and its table 1: (desk, event id, store, event name, the game, Fleet Points
    that score, a player's phone on the table's page)."""
    desk, eid, store, name, g = paired_game
    return desk, eid, store, name, g, points(store, name, g), phone(app, eid)


def report(p: Desk, eid: int, g: dict[str, Any], fp: dict[str, int], pin: str) -> Any:
    return p.post(
        f"/events/{eid}/rounds/1/tables/{g['table']}/report",
        {
            "player": g["a"],
            "winner": g["a"],
            "fp_a": str(fp[g["a"]]),
            "fp_b": str(fp[g["b"]]),
            "pin": pin,
        },
    )


def test_a_report_waits_for_the_opponents_pin_then_counts(
    at_table: Reporting,
) -> None:
    desk, eid, store, name, g, fp, p = at_table
    sent = report(p, eid, g, fp, desk.pins[g["a"]])
    assert sent.status_code == 303
    page = p.client.get(sent.headers["location"]).text
    assert f"{g['b']}, your PIN" in page
    assert table(store, name)["winner"] is None  # not yet: it waits for the opponent
    (r,) = store.reports(name)
    # the reporter cannot confirm his own report: it asks the opponent's PIN
    own = p.post(f"/events/{eid}/reports/{r['id']}", {"pin": desk.pins[g["a"]]})
    assert own.status_code == 400
    assert f"that is not {g['b']}'s PIN" in text(own)
    ok = p.post(f"/events/{eid}/reports/{r['id']}", {"pin": desk.pins[g["b"]]})
    assert ok.status_code == 200
    assert "the result is recorded" in text(ok)
    done = table(store, name)
    assert (done["winner"], done["fp_a"], done["fp_b"]) == (g["a"], fp[g["a"]], fp[g["b"]])
    assert done["result_initials_a"]
    assert done["result_initials_b"]
    log = store.corrections(name)
    assert any(c["who"] == f"{g['a']} (PIN)" and "reports" in c["what"] for c in log)
    assert any(c["who"] == f"{g['b']} (PIN)" and "confirms" in c["what"] for c in log)
    # a second report of a recorded table is refused: the organizer corrects it
    again = report(p, eid, g, fp, desk.pins[g["a"]])
    assert again.status_code == 400
    assert "recorded already" in text(again)


def test_a_dispute_goes_to_the_organizer_who_overrides(
    at_table: Reporting,
) -> None:
    desk, eid, store, name, g, fp, p = at_table
    report(p, eid, g, fp, desk.pins[g["a"]])
    (r,) = store.reports(name)
    disputed = p.post(
        f"/events/{eid}/reports/{r['id']}",
        {"pin": desk.pins[g["b"]], "action": "dispute", "note": "I won on the last turn"},
    )
    assert "Sent to the organizer" in text(disputed)
    assert table(store, name)["winner"] is None
    page = desk.client.get(f"/org/events/{eid}/rounds/1").text
    assert "disputes it" in page
    assert "I won on the last turn" in page
    version = str(table(store, name)["version"])
    override = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        {
            "winner": g["b"],
            "fp_a": str(fp[g["b"]]),
            "fp_b": str(fp[g["a"]]),  # the winner has more Fleet Points (PP-22)
            "version": version,
            "accept": "yes",
        },
    )
    assert override.status_code == 303
    assert table(store, name)["winner"] == g["b"]
    assert store.reports(name)[0]["status"] == "overridden"
    assert any(c["who"] == "organizer mara" for c in store.corrections(name))


def test_an_impossible_score_is_held_for_the_organizer(
    at_table: Reporting,
) -> None:
    desk, eid, store, name, g, fp, p = at_table
    fp[g["a"]] = impossible_points(store.fleets(name)[g["b"]])
    report(p, eid, g, fp, desk.pins[g["a"]])
    (r,) = store.reports(name)
    confirmed = p.post(f"/events/{eid}/reports/{r['id']}", {"pin": desk.pins[g["b"]]})
    assert "the score check fails" in text(confirmed)
    assert table(store, name)["winner"] is None
    assert store.reports(name)[0]["status"] == "flagged"
    page = desk.client.get(f"/org/events/{eid}/rounds/1").text
    assert f"cannot be scored against {g['b']}" in page
    # the organizer accepts it after looking at the sheet
    accepted = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        {
            "winner": g["a"],
            "fp_a": str(fp[g["a"]]),
            "fp_b": str(fp[g["b"]]),
            "version": str(table(store, name)["version"]),
            "accept": "yes",
        },
    )
    assert accepted.status_code == 303
    assert table(store, name)["fp_a"] == fp[g["a"]]
    assert store.reports(name)[0]["status"] == "accepted"


def test_the_organizer_is_warned_before_an_impossible_score_is_recorded(
    app: FastAPI, paired_game: PairedGame
) -> None:
    desk, eid, store, name, g = paired_game
    bad = impossible_points(store.fleets(name)[g["b"]])
    form = {"winner": g["a"], "fp_a": str(bad), "fp_b": "0", "version": str(g["version"])}
    first = desk.post(f"/org/events/{eid}/rounds/1/tables/1", form)
    assert first.status_code == 200
    assert "Check before you accept" in text(first)
    assert "Record it anyway" in text(first)
    assert table(store, name)["winner"] is None
    second = desk.post(f"/org/events/{eid}/rounds/1/tables/1", {**form, "accept": "yes"})
    assert second.status_code == 303
    assert table(store, name)["fp_a"] == bad
    assert table(store, name)["flag"]


def test_a_typo_with_extra_digits_is_questioned_at_once(
    app: FastAPI, paired_game: PairedGame
) -> None:
    # the result route runs on the event loop: a slow score check would stall every client
    desk, eid, store, name, g = paired_game
    form = {"winner": g["a"], "fp_a": "99999", "fp_b": "0", "version": str(g["version"])}
    response = desk.post(f"/org/events/{eid}/rounds/1/tables/1", form)
    assert response.status_code == 200
    assert "Check before you accept" in text(response)
    assert "nearest plausible" in text(response)
    assert table(store, name)["winner"] is None


def test_two_tablets_at_once_the_second_is_told(app: FastAPI, paired_game: PairedGame) -> None:
    desk, eid, store, name, g = paired_game
    tablet = organizer(app)  # Mara logged in on a second tablet
    version = str(g["version"])  # both pages were loaded before either saved
    first = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        {"winner": g["a"], "fp_a": "0", "fp_b": "0", "version": version},
    )
    assert first.status_code == 303
    second = tablet.client.post(
        f"/org/events/{eid}/rounds/1/tables/1",
        data={
            "winner": g["b"],
            "fp_a": "0",
            "fp_b": "0",
            "version": version,
            "csrf_token": tablet.csrf,
        },
        headers={"HX-Request": "true"},
    )
    assert second.status_code == 409
    assert "changed by someone else a moment ago" in text(second)
    assert f"You had entered: {g['b']} won" in text(second)
    assert 'class="card table-card' in text(second)  # htmx gets the table's card only
    assert table(store, name)["winner"] == g["a"]


def test_simultaneous_entries_never_lose_an_update(app: FastAPI, paired_game: PairedGame) -> None:
    desk, eid, store, name, g = paired_game
    tablets = [desk, organizer(app), organizer(app), organizer(app)]
    version = str(g["version"])
    statuses: list[int] = []
    start = threading.Barrier(len(tablets))

    def enter(t: Desk, fp: int) -> None:
        start.wait()
        response = t.post(
            f"/org/events/{eid}/rounds/1/tables/1",
            {"winner": g["a"], "fp_a": str(fp), "fp_b": "0", "version": version, "accept": "yes"},
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=enter, args=(t, i)) for i, t in enumerate(tablets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [303, 409, 409, 409]
    entries = [c for c in store.corrections(name) if "beat" in c["what"]]
    assert len(entries) == 1  # one entry won; the others changed nothing
    assert table(store, name)["fp_a"] == int(entries[0]["what"].split(f"{g['a']} ")[-1][:1])


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"winner": "Nobody", "fp_a": "1", "fp_b": "1"}, "winner", "choose the winner"),
        ({"winner": "A", "fp_a": "-3", "fp_b": "1"}, "fp_a", "a whole number, 0 to"),
        ({"winner": "A", "fp_a": "12", "fp_b": "lots"}, "fp_b", "a whole number, 0 to"),
    ],
)
def test_bad_results_are_refused_beside_the_field(
    app: FastAPI,
    paired_game: PairedGame,
    form: dict[str, str],
    field: str,
    message: str,
) -> None:
    desk, eid, store, name, g = paired_game
    before = store.export(name)
    sent = {k: (g["a"] if v == "A" else v) for k, v in form.items()}
    response = desk.post(
        f"/org/events/{eid}/rounds/1/tables/1", {**sent, "version": str(g["version"])}
    )
    assert response.status_code == 400
    assert f'id="err-{field}"' in text(response)
    assert message in text(response)
    assert store.export(name) == before


def test_bad_reports_are_refused_and_nothing_is_stored(
    app: FastAPI, paired_game: PairedGame
) -> None:
    desk, eid, store, name, g = paired_game
    before = store.export(name)
    p = phone(app, eid)
    url = f"/events/{eid}/rounds/1/tables/1/report"
    missing = p.post(url, {"player": g["a"], "fp_a": "x", "pin": desk.pins[g["a"]]})
    assert missing.status_code == 400
    assert "say who won" in text(missing)
    assert f"{g['a']}'s Fleet Points: a whole number" in text(missing)
    stranger = p.post(url, {"player": "Mallory", "winner": g["a"], "fp_a": "1", "fp_b": "1"})
    assert "say who you are" in text(stranger)
    # more digits than SQLite's integers hold: refused with the field's name, not a crash
    huge = {"player": g["a"], "winner": g["a"], "fp_a": "9" * 25, "fp_b": "0"}
    refused = p.post(url, {**huge, "pin": desk.pins[g["a"]]})
    assert refused.status_code == 422
    assert "fp_a" in text(refused)
    assert store.export(name) == before
    bye = next(t for t in store.games(name, 1) if t["b"] is None)
    assert p.post(f"/events/{eid}/rounds/1/tables/{bye['table']}/report").status_code == 400


def test_the_ai_plays_a_table_and_its_replay_is_public(
    app: FastAPI, paired: tuple[Desk, int, Store, str]
) -> None:
    desk, eid, store, name = paired
    played = desk.post(f"/org/events/{eid}/rounds/1/tables/2/ai", {"version": "1"})
    assert played.status_code == 303
    g = table(store, name, at=2)
    assert g["winner"] in (g["a"], g["b"])
    assert store.battle_log(name, 1, 2)
    replay = TestClient(app).get(f"/events/{eid}/rounds/1/tables/2/replay")
    assert replay.status_code == 200
    assert "kolramiReplay" in text(replay)
    assert "'unsafe-inline'" in replay.headers["content-security-policy"]
    assert TestClient(app).get(f"/events/{eid}/rounds/1/tables/1/replay").status_code == 404


def test_three_rounds_byes_rolloff_and_export(
    app: FastAPI, paired: tuple[Desk, int, Store, str]
) -> None:
    desk, eid, store, name = paired
    for number in (1, 2, 3):
        if number > 1:
            assert desk.post(f"/org/events/{eid}/pair").status_code == 303
        games = store.games(name, number)
        assert sum(1 for t in games if t["b"] is None) == 1  # five players: a bye each round
        for t in games:
            if t["b"] is not None:
                form = {"winner": t["a"], "fp_a": "0", "fp_b": "0", "version": str(t["version"])}
                response = desk.post(f"/org/events/{eid}/rounds/{number}/tables/{t['table']}", form)
                assert response.status_code == 303
    page = TestClient(app).get(f"/events/{eid}/standings").text
    assert "Final standings" in page
    assert "Level on Battle and Fleet Points" in page  # everyone scored 0 FP: ties
    rolled = desk.post(f"/org/events/{eid}/rolloff", {"how": "rolled"})
    assert rolled.status_code == 303
    assert store.state(name).roll_offs
    page = TestClient(app).get(f"/events/{eid}/standings").text
    assert "Level on Battle and Fleet Points" not in page
    assert "Admiral" in page
    assert "Vice Admiral" in page
    assert "Ordered by the roll-off after round 3" in text(
        TestClient(app).get(f"/events/{eid}/standings")
    )
    assert store.state(name).standings()[0].title == "Admiral"
    exported = desk.client.get(f"/org/events/{eid}/export")
    assert exported.headers["content-disposition"] == 'attachment; filename="november.json"'
    assert exported.json()["kolrami"] == "event/1"
    assert len(exported.json()["rounds"]) == 3
    sheets = desk.client.get(f"/org/events/{eid}/print/sheets")
    assert sheets.text.count('class="player-sheet"') == 5
    slips = desk.client.get(f"/org/events/{eid}/print/rounds/2/slips")
    assert slips.text.count('class="slip"') == 2
    pdf = desk.client.get(f"/org/events/{eid}/print/sheets.pdf")
    assert pdf.content.startswith(b"%PDF")


def test_a_bad_pairing_request_is_shown_beside_the_button(
    app: FastAPI, paired: tuple[Desk, int, Store, str]
) -> None:
    desk, eid, store, name = paired
    response = desk.post(f"/org/events/{eid}/pair")  # round 1 has no results yet
    assert response.status_code == 400
    assert 'id="err-pair"' in text(response)
    assert "round 1 is not finished" in text(response)
    assert len(store.state(name).rounds) == 1


def test_the_store_survives_a_restart(app: FastAPI, paired_game: PairedGame) -> None:
    desk, eid, store, _, g = paired_game
    form = {
        "winner": g["a"],
        "fp_a": "10",
        "fp_b": "0",
        "version": str(g["version"]),
        "accept": "yes",
    }
    assert desk.post(f"/org/events/{eid}/rounds/1/tables/1", form).status_code == 303
    from kolrami.web import create_app

    again = create_app(store.url)  # the laptop's battery died: the server starts again
    page = TestClient(again).get(f"/events/{eid}").text
    assert f"<strong>{g['a']}</strong> won 10 : 0 against {g['b']}" in page


def test_the_winners_score_comes_first_and_a_half_entered_result_says_so(
    app: FastAPI, paired_game: PairedGame
) -> None:
    """Issue 23: 'Finn won · 90 : 100' read as if Finn scored 90; and a result entered on the
    CLI for one player showed as 'no result yet'."""
    desk, eid, store, name, g = paired_game
    store.record_result(name, 1, g["b"], True, 100)  # the CLI: one player's result
    page = desk.client.get(f"/events/{eid}").text
    assert "one score missing" in page
    assert f"<strong>{g['b']}</strong> won; {g['a']}'s Fleet Points still to enter" in page
    store.record_result(name, 1, g["a"], False, 90)
    page = desk.client.get(f"/events/{eid}").text
    assert f"<strong>{g['b']}</strong> won 100 : 90 against {g['a']}" in page


def test_a_result_for_a_table_that_is_not_there_is_refused(
    app: FastAPI, paired_game: PairedGame
) -> None:
    """The table is looked up in the kept snapshot: a round not paired, a table not in it (404)
    and the bye (400) are refused, and nothing is stored."""
    desk, eid, store, name, g = paired_game
    bye = next(t for t in store.games(name, 1) if t["b"] is None)
    before = store.export(name)
    form = {"winner": g["a"], "fp_a": "1", "fp_b": "2", "version": "1"}
    for number, at, status, message in (
        (2, 1, 404, "round 2 has no table 1"),
        (0, 1, 404, "round 0 has no table 1"),
        (1, 99, 404, "round 1 has no table 99"),
        (1, bye["table"], 400, f"{bye['a']} has the bye: there is no result to enter"),
    ):
        response = desk.post(f"/org/events/{eid}/rounds/{number}/tables/{at}", form)
        assert response.status_code == status, (number, at)
        assert message in text(response)
    assert store.export(name) == before


def test_standings_with_one_sides_report_are_provisional(
    app: FastAPI, paired: tuple[Desk, int, Store, str]
) -> None:
    """Issue 44: while a table has one side's report only, the standings say so."""
    desk, eid, store, name = paired
    g = table(store, name)
    assert "Provisional" not in text(desk.client.get(f"/events/{eid}/standings"))
    fp = points(store, name, g)
    p = phone(app, eid)
    assert report(p, eid, g, fp, desk.pins[g["a"]]).status_code == 303
    page = text(desk.client.get(f"/events/{eid}/standings"))
    assert f"Provisional: table {g['table']} of round 1 has only one side's report" in page
    assert f"{g['a']} (provisional)" in page
    assert f"{g['b']} (provisional)" in page
    (r,) = store.reports(name)
    assert p.post(f"/events/{eid}/reports/{r['id']}", {"pin": desk.pins[g["b"]]}).status_code == 200
    assert "provisional" not in text(desk.client.get(f"/events/{eid}/standings")).lower()
