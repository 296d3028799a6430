"""What an organizer coming from Cryodex, cobra or BCP asks for (issue 17, items 3 to 7), in the
real browser (Playwright driving Debian's chromium, with the kit of tests/e2e):
co-organizers, edits before and during the event, the build check from the phone (OP-14),
pairings by table and by name, and an event imported and its standings exported.

Each bad input meets a one-line refusal on the page and leaves the store as it was.
Screenshots go to KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary
folder.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import test_web_browser as wb
from kit import LAPTOP
from kit import PHONE
from kit import Device

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web.security import hash_pin
from kolrami.web.security import hash_secret
from web_helpers import FLEETS
from web_helpers import PASSWORD
from web_helpers import possible_points

pytestmark = wb.pytestmark

PINS = {"Ann": "1111", "Ben": "2222", "Cat": "3333", "Dev": "4444", "Eli": "5555"}


def _setup(store: Store, players: int = 5, owner: str = "mara") -> int:
    """Accounts mara and lee; an event run by `owner` with players Ann, Ben, ... and PINs."""
    ids = {}
    for name in ("mara", "lee"):
        found = store.organizer(name)
        ids[name] = found[0] if found else store.create_organizer(name, hash_secret(PASSWORD))
    store.create_event(
        "Friday", "2026-12-04", 300, "peak-performance", 3, 60, 11, ("Admiral",), owner=ids[owner]
    )
    for name, preset in list(zip(PINS, FLEETS, strict=False))[:players]:
        store.add_player(
            "Friday", name, load_fleet(f"presets:{preset}"), pin_hash=hash_pin(PINS[name])
        )
    return store.event_id("Friday")


def _login(browser: Any, server: str, shots: Path, who: str, **kwargs: Any) -> Device:
    device = Device(browser, server, shots, who, **(kwargs or LAPTOP))
    page = device.go("/login")
    page.fill("#username", who)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/org")
    return device


def _script_errors(device: Device) -> list[str]:
    """The page's script errors; the console's line for a refused form (a 4xx we asked for by
    sending bad input) is not one."""
    return [e for e in device.errors if "status of 4" not in e]


def _dump(store: Store) -> list[str]:
    path = store.url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path)) as c:
        return [
            line
            for line in c.iterdump()
            if "web_sessions" not in line and "app_secrets" not in line
        ]


def test_item_3_co_organizers(browser: Any, server: str, store: Store, shots: Path) -> None:
    eid = _setup(store)
    mara = _login(browser, server, shots, "mara")
    lee = _login(browser, server, shots, "lee")
    assert lee.page.goto(f"{server}/org/events/{eid}").status == 404

    page = mara.go(f"/org/events/{eid}")
    page.click("text=Co-organizers")
    page.wait_for_url("**/organizers")
    before = _dump(store)
    page.fill("#username", "zed")
    page.click("button:has-text('Share the event')")
    assert "no organizer account 'zed'" in page.inner_text("#err-username")
    assert _dump(store) == before
    page.fill("#username", "lee")
    page.click("button:has-text('Share the event')")
    page.wait_for_selector("td.organizer-name:has-text('lee')")
    mara.shot("item3-shared")

    # lee runs it too now: he renames a player, and the log says it was lee
    page = lee.go(f"/org/events/{eid}")
    assert page.inner_text("h1") == "Friday"
    page.click("#players tr:has-text('Eli') button:has-text('Edit')")
    page.fill("#new_name", "Elias")
    page.click("button:has-text('Rename')")
    page.wait_for_url(f"**/org/events/{eid}*")
    page = mara.go(f"/org/events/{eid}/corrections")
    rows = [r.inner_text() for r in page.query_selector_all("tbody tr")]
    assert any("organizer mara" in r and "shared Friday with organizer lee" in r for r in rows)
    assert any("organizer lee" in r and "Eli renamed Elias" in r for r in rows)
    mara.shot("item3-log")

    # mara stops sharing it; lee no longer sees it; the last organizer cannot be removed
    page = mara.go(f"/org/events/{eid}/organizers")
    page.click("tr:has-text('lee') button:has-text('Remove')")
    page.wait_for_url("**/organizers")
    assert page.locator("td.organizer-name").count() == 1
    assert page.locator("button:has-text('Remove')").count() == 0
    assert lee.page.goto(f"{server}/org/events/{eid}").status == 404
    assert any(
        "removed organizer lee" in line["what"] and line["who"] == "organizer mara"
        for line in store.corrections("Friday")
    )
    assert _script_errors(mara) == []


@pytest.mark.rule("OP-12")
def test_item_4_edits(browser: Any, server: str, store: Store, shots: Path) -> None:
    eid = _setup(store)
    mara = _login(browser, server, shots, "mara")

    # before round 1: a new fleet for Ben, Dev removed, Cat dropped (asked first) and back
    page = mara.go(f"/org/events/{eid}")
    page.click("#players tr:has-text('Ben') button:has-text('Edit')")
    page.fill("#fleet", share_string(load_fleet("presets:klingon-raiders")))
    page.click("button:has-text('Change the fleet')")
    page.wait_for_url(f"**/org/events/{eid}*")
    assert store.fleets("Friday")["Ben"].name == load_fleet("presets:klingon-raiders").name
    page.click("#players tr:has-text('Dev') button:has-text('Edit')")
    page.click("button:has-text('Remove Dev')")
    page.wait_for_url(f"**/org/events/{eid}*")
    assert "Dev" not in page.inner_text("#players")
    page.click("#players tr:has-text('Cat') button:has-text('Drop')")
    page.wait_for_selector("text=Drop Cat?")
    mara.shot("item4-drop-asks")
    assert store.players("Friday")[2]["dropped_after"] is None  # asking drops nobody
    page.click("button:has-text('Yes, drop Cat')")
    page.wait_for_url(f"**/org/events/{eid}*")
    assert "dropped after round 0" in page.inner_text("#players tr:has-text('Cat')")
    page.click("#players tr:has-text('Cat') button:has-text('Undo the drop')")
    page.wait_for_url(f"**/org/events/{eid}*")
    assert "playing" in page.inner_text("#players tr:has-text('Cat')")

    # round 1: four players (Dev is gone), two tables, no bye
    page.click("button:has-text('Pair round 1')")
    page.wait_for_url("**/rounds/1")
    tables = wb._tables(mara, eid, 1)
    (t1, a1, b1), (t2, a2, b2) = tables

    # a rename is refused now, citing OP-12, and nothing changes
    before = _dump(store)
    page = mara.go(f"/org/events/{eid}")
    page.click("#players tr:has-text('Ann') button:has-text('Edit')")
    page.fill("#new_name", "Anne")
    page.click("button:has-text('Rename')")
    assert "(OP-12)" in page.inner_text("#err-new_name")
    assert _dump(store) == before
    mara.shot("item4-rename-refused")

    # swap two players by hand: a warning only when a rule is bent (none in round 1 here)
    page = mara.go(f"/org/events/{eid}/rounds/1")
    page.select_option("#swap-first", a1)
    page.select_option("#swap-second", a2)
    page.click("button:has-text('Swap them')")
    page.wait_for_selector("text=Swapped.")
    now = {frozenset(g.players) for g in store.state("Friday").rounds[0]}
    assert now == {frozenset((a2, b1)), frozenset((a1, b2))}

    # cancel and pair again (same players, same seed: the drawn pairing comes back)
    page.click("button:has-text('Cancel and pair round 1 again')")
    page.wait_for_url("**/rounds/1")
    again = {frozenset(g.players) for g in store.state("Friday").rounds[0]}
    assert again == {frozenset((a1, b1)), frozenset((a2, b2))}

    # play round 1; in round 2, a swap that brings back a round-1 pair is warned about
    for table, a, b in ((t1, a1, b1), (t2, a2, b2)):
        fleets = store.fleets("Friday")
        win = possible_points(fleets[b], 40)
        store.record_game("Friday", 1, table, a, {a: win, b: 0}, "organizer mara")
    page = mara.go(f"/org/events/{eid}/rounds/1")
    assert page.locator("#round-edits").count() == 0  # results are in: no cancel, no swap
    page.click("button:has-text('Pair round 2')")
    page.wait_for_url("**/rounds/2")
    (x, y), _ = (tuple(g.players) for g in store.state("Friday").rounds[1])
    first_opponent = {a1: b1, b1: a1, a2: b2, b2: a2}[x]  # at the other table of round 2
    before = _dump(store)
    page.select_option("#swap-first", x)
    page.select_option("#swap-second", "")
    page.click("button:has-text('Swap them')")
    assert "name the two players" in page.inner_text("#err-edit")
    assert _dump(store) == before
    page.select_option("#swap-first", y)
    page.select_option("#swap-second", first_opponent)  # x meets his round-1 opponent again
    page.click("button:has-text('Swap them')")
    page.wait_for_selector(".note.warn")
    assert "(OP-04)" in page.inner_text(".note.warn")
    mara.shot("item4-swap-warning")
    assert _script_errors(mara) == []


@pytest.mark.rule("OP-14")
def test_item_5_build_check(browser: Any, server: str, store: Store, shots: Path) -> None:
    eid = _setup(store, players=4)
    mara = _login(browser, server, shots, "mara")
    page = mara.go(f"/org/events/{eid}")
    page.click("button:has-text('Pair round 1')")
    page.wait_for_url("**/rounds/1")
    (table, a, b), _ = wb._tables(mara, eid, 1)
    assert a in page.inner_text(".build-waiting")
    assert b in page.inner_text(".build-waiting")

    phone = Device(browser, server, shots, "phone", **PHONE)
    page = phone.go(f"/events/{eid}/rounds/1/tables/{table}")
    page.check(f"#build-check input[name=player][value='{a}']")
    page.fill("#initials", "XX")
    page.fill("#build_pin", "0000")
    before = _dump(store)
    page.click("#build-check button[type=submit]")
    assert "not " in page.inner_text("#err-build_pin")
    assert _dump(store) == before
    page.check(f"#build-check input[name=player][value='{a}']")
    page.fill("#initials", "AB")
    page.fill("#build_pin", PINS[a])
    page.click("#build-check button[type=submit]")
    page.wait_for_selector("text=Initialled. Thank you!")
    assert f"{a} on {b}'s build: initialled (AB)" in page.inner_text("#build-check")
    phone.shot("item5-phone-build-check")

    page = mara.go(f"/org/events/{eid}/rounds/1")
    waiting = page.inner_text(".build-waiting")
    assert b in waiting
    assert a not in waiting.split(", ")
    mara.shot("item5-organizer-sees-who-has-not")
    page = mara.go(f"/org/events/{eid}/print/rounds/1/slips")
    assert f"{a} initialled {b}'s build (AB)" in page.inner_text(
        f"section.slip:has-text('Table {table}')"
    )
    assert f"{b} has not initialled {a}'s build" in page.inner_text("body")
    page = mara.go(f"/org/events/{eid}/print/rounds/1/pairings")
    assert f"waiting for {b}" in page.inner_text("table.by-table")
    # and the Fleet Build Sheet's round log: a's initials on b's sheet, in the build column
    page = mara.go(f"/org/events/{eid}/print/sheets")
    row = rf"<td>1</td><td>{re.escape(a)}(&nbsp;|\xa0)</td><td>AB(&nbsp;|\xa0)</td>"
    assert re.search(row, page.content())  # round 1 on b's sheet: opponent a, a's initials
    assert _script_errors(phone) == []


def test_item_6_pairings_by_table_and_by_name(
    browser: Any, server: str, store: Store, shots: Path
) -> None:
    eid = _setup(store)
    store.pair_next_round("Friday")
    mara = _login(browser, server, shots, "mara")
    page = mara.go(f"/org/events/{eid}/print/rounds/1/pairings")
    by_table = page.locator("table.by-table tbody tr")
    assert by_table.count() == 2  # five players: two tables and the bye
    rows = page.locator("table.by-name tbody tr")
    names = [rows.nth(i).locator("td").first.inner_text() for i in range(rows.count())]
    assert names == sorted(PINS)
    bye = store.state("Friday").rounds[0][-1].a
    assert page.locator(f"table.by-name tr:has-text('{bye}') td").nth(1).inner_text() == "bye"
    mara.shot("item6-pairings-by-name")
    assert _script_errors(mara) == []


def test_item_7_import_and_standings_csv(
    browser: Any, server: str, store: Store, shots: Path, tmp_path: Path
) -> None:
    eid = _setup(store, players=4)
    store.pair_next_round("Friday")
    doc = store.export("Friday")
    doc["event"]["name"] = "Friday again"
    good = tmp_path / "friday.json"
    good.write_text(json.dumps(doc, default=str))
    broken = tmp_path / "broken.json"
    broken.write_text('{"kolrami": "event/1", "event": {"name": "Half"}')
    mara = _login(browser, server, shots, "mara")

    page = mara.go("/org")
    before = _dump(store)
    page.set_input_files("#import-file", str(broken))
    page.click("button:has-text('Import the event')")
    message = page.inner_text("#err-import")
    assert "broken.json: not valid JSON" in message
    assert "\n" not in message.strip()
    assert _dump(store) == before
    mara.shot("item7-broken-import")
    page.set_input_files("#import-file", str(good))
    page.click("button:has-text('Import the event')")
    page.wait_for_url(re.compile(r".*/org/events/\d+$"))
    assert page.inner_text("h1") == "Friday again"
    assert len(store.state("Friday again").rounds) == 1

    page = mara.go(f"/org/events/{eid}")
    with page.expect_download() as download:
        page.click("text=Standings (CSV)")
    path = download.value.path()
    rows = list(csv.reader(io.StringIO(Path(path).read_text(encoding="utf-8"))))
    assert rows[0][:3] == ["rank", "title", "player"]
    assert sorted(r[2] for r in rows[1:]) == sorted(list(PINS)[:4])
    with page.expect_download() as download:
        page.click("text=Export (JSON)")
    assert json.loads(Path(download.value.path()).read_text())["event"]["name"] == "Friday"
    assert _script_errors(mara) == []
