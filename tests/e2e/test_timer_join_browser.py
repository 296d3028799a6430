"""Issue 17 in the real browser (Playwright driving Debian's chromium): the round timer, which
survives a restart of the server process; players joining from their phones through the join
address and its QR code, approved by the organizer; and the public overview and archive on a
phone.

Skipped, with the reason, where /usr/bin/chromium or playwright is missing. Screenshots go to
KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary folder.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import segno
from kit import LAPTOP
from kit import PHONE
from kit import WALL
from kit import free_port
from kit import log_in
from kit import needs_browser
from kit import serve
from kit import until
from test_phone_layout import OVERFLOWS

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web import create_app
from kolrami.web.network import lan_address
from web_helpers import PASSWORD
from web_helpers import new_event
from web_helpers import organizer

TOO_BIG = json.dumps({"name": "Two Enterprises", "ships": [{"id": "enterprise"}] * 2})

pytestmark = [needs_browser, pytest.mark.slow]


class Serve:
    """`kolrami serve` as a process of its own on a database, started and stopped at will."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-c", "from kolrami.cli import run; run()"),
                *("serve", "--db", str(self.db), "--port", str(self.port)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 120  # a busy machine takes a while to import it all
        while True:
            assert self.process.poll() is None, self.process.stderr and self.process.stderr.read()
            try:
                if httpx.get(self.base + "/", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "kolrami serve did not start"
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)
        self.process = None


def _login(page: Any, base: str) -> None:
    log_in(page, base, PASSWORD)


def _seconds(clock: str) -> int:
    minutes, seconds = clock.strip().split(":")
    return int(minutes) * 60 + int(seconds)


@pytest.mark.rule("OP-02")
def test_the_timer_survives_a_server_restart(browser: Any, tmp_path: Path, shots: Path) -> None:
    db = tmp_path / "store.db"
    desk = organizer(create_app(Store(str(db))))
    eid = new_event(desk, players=4)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    server = Serve(db, free_port())
    server.start()
    try:
        laptop = browser.new_context(**LAPTOP).new_page()
        _login(laptop, server.base)
        laptop.goto(f"{server.base}/org/events/{eid}/rounds/1")
        started = time.time()
        laptop.click("text=Start the 60 minutes")
        laptop.fill("#add-minutes", "5")
        laptop.click("#timer button:has-text('Add')")
        laptop.wait_for_selector("#timer .timer-note")
        # a negative number: the browser's own check is taken off, the server refuses it
        laptop.evaluate("document.querySelector('#add-minutes').removeAttribute('min')")
        laptop.fill("#add-minutes", "-5")
        with laptop.expect_response(lambda r: r.request.method == "POST") as sent:
            laptop.click("#timer button:has-text('Add')")
        assert sent.value.status == 400
        error = laptop.inner_text("#timer-error")
        assert "minutes to add '-5': a whole number from 1 to 120" in error
        assert "\n" not in error
        assert Store(str(db)).timer("November").added_minutes == 5  # unchanged by the refusal

        wall = browser.new_context(**WALL).new_page()
        wall.goto(f"{server.base}/events/{eid}/clock")
        first = _seconds(wall.inner_text("[data-digits]"))
        assert abs(first - (65 * 60 - (time.time() - started))) <= 3
        until(
            lambda: _seconds(wall.inner_text("[data-digits]")) < first, "the clock to count", 5
        )  # it counts down by itself
        size = wall.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('[data-digits]')).fontSize)"
        )
        assert size >= 300  # pixels: readable from across the room
        assert wall.evaluate(OVERFLOWS) == []  # and all of it on the screen
        wall.screenshot(path=str(shots / "wall-clock.png"))

        server.stop()  # mid-round: the wall clock goes on counting, and says it is offline
        wall.wait_for_selector("[data-offline]", timeout=30_000)
        time.sleep(1)
        server.start()  # the same database, a new process
        wall.reload()
        after = _seconds(wall.inner_text("[data-digits]"))
        expected = 65 * 60 - (time.time() - started)
        assert abs(after - expected) <= 3, (after, expected)
        assert after < first - 4  # the time the server was down counted too
        assert wall.get_attribute("#round-timer", "data-state") == "running"

        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{server.base}/events/{eid}")
        on_phone = _seconds(phone.inner_text("#round-timer [data-digits]"))
        assert abs(on_phone - (65 * 60 - (time.time() - started))) <= 3
        assert "ends " in phone.inner_text("#round-timer [data-note]")
        assert phone.evaluate(OVERFLOWS) == []
        phone.screenshot(path=str(shots / "phone-timer.png"), full_page=True)

        # paused at the counter: the wall clock, already open, stops within a poll
        laptop.goto(f"{server.base}/org/events/{eid}/rounds/1")
        laptop.click("#timer button:has-text('Pause')")
        until(
            lambda: wall.get_attribute("#round-timer", "data-state") == "paused",
            "the wall clock to pause",
            30,
        )
        assert wall.inner_text("[data-note]") == "paused"
        slips = laptop.context.new_page()
        slips.goto(f"{server.base}/org/events/{eid}/print/rounds/1/slips")
        assert "Round ends at" in slips.inner_text("body")
    finally:
        server.stop()


def test_players_join_from_their_phones(browser: Any, tmp_path: Path, shots: Path) -> None:
    store = Store(str(tmp_path / "store.db"))
    app = create_app(store, listen_host="127.0.0.1")
    desk = organizer(app)
    eid = new_event(desk, players=3)
    for base in serve(app):
        laptop = browser.new_context(**LAPTOP).new_page()
        _login(laptop, base)
        laptop.goto(f"{base}/org/events/{eid}")
        shown = laptop.inner_text("#join-url")
        lan = lan_address()
        if lan is not None:  # the machine's address on its network, never loopback
            assert shown.startswith(f"http://{lan}:")
            assert "127.0.0.1" not in shown
            assert "--host 0.0.0.0" in laptop.inner_text("#join-warning")
        else:  # no network at all: loopback, and the page says so
            assert "only it can open this address" in laptop.inner_text("#join-warning")
        assert shown.endswith(f"/events/{eid}/join")
        assert laptop.locator("#joining svg.segno").count() == 1
        laptop.check("#self-registration")
        laptop.fill("#venue", "Warp Core Games")
        laptop.click("#joining button:has-text('Save')")

        ann = browser.new_context(**PHONE).new_page()
        ann.goto(f"{base}/events/{eid}/join")
        ann.fill("#join-name", "Ann Phone")
        ann.fill("#join-fleet", share_string(load_fleet("presets:klingon-strike")))
        ann.click("#join button[type=submit]")
        ann.wait_for_selector("#join-sent")
        assert ann.evaluate(OVERFLOWS) == []
        ann.screenshot(path=str(shots / "phone-join.png"), full_page=True)
        bob = browser.new_context(**PHONE).new_page()
        bob.goto(f"{base}/events/{eid}/join")
        bob.fill("#join-name", "Bob Big")
        bob.fill("#join-fleet", TOO_BIG)
        bob.click("#join button[type=submit]")
        assert "Total Build 360 SP" in bob.inner_text("#join-legal")
        assert [p["name"] for p in store.players()] == ["P0", "P1", "P2"]  # nobody yet

        laptop.goto(f"{base}/org/events/{eid}")
        requests = store.join_requests(None)
        by_name = {r["name"]: r["id"] for r in requests}
        assert set(by_name) == {"Ann Phone", "Bob Big"}
        with laptop.expect_response(lambda r: r.request.method == "POST") as sent:
            laptop.click(f"#join-request-{by_name['Bob Big']} button:has-text('Approve')")
        assert sent.value.status == 400
        error = laptop.inner_text("#joining .error")
        assert "Bob Big's fleet is not legal for November" in error
        assert "\n" not in error
        assert len(store.players()) == 3
        assert len(store.join_requests(None)) == 2
        laptop.click(f"#join-request-{by_name['Ann Phone']} button:has-text('Approve')")
        laptop.wait_for_selector(".pin")
        assert re.fullmatch(r"\d{4,8}", laptop.inner_text(".pin").strip())
        assert "Ann Phone" in [p["name"] for p in store.players()]

        assert desk.post(f"/org/events/{eid}/pair").status_code == 303
        slips = laptop.context.new_page()
        slips.goto(f"{base}/org/events/{eid}/print/rounds/1/slips")
        first = slips.locator(".slip").first
        url = first.locator(".join-url").inner_text()
        assert url == shown
        # the code is the join address's: the same modules segno draws for it
        drawn = first.locator("svg.segno path.qrline").get_attribute("d")
        expected = segno.make_qr(url, error="m").svg_inline(scale=2)
        assert f'd="{drawn}"' in expected
        assert "Round ends at: ________ (60 minutes from the start)" in first.inner_text()
        first.screenshot(path=str(shots / "slip-qr.png"))
        pairings = laptop.context.new_page()
        pairings.goto(f"{base}/org/events/{eid}/print/rounds/1/pairings")
        assert pairings.locator(".print-join svg.segno").count() == 1
        assert url in pairings.inner_text(".print-join")


def test_the_public_overview_and_archive_on_a_phone(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    store = Store(str(tmp_path / "store.db"))
    app = create_app(store)
    desk = organizer(app)
    eid = new_event(desk, players=4, rounds=1)
    store.set_public_settings(None, "Warp Core Games", False, "organizer mara")
    for base in serve(app):
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{base}/events/{eid}/overview")
        assert "Registration: 4 players" in phone.inner_text("#current-round")
        assert desk.post(f"/org/events/{eid}/pair").status_code == 303
        store.start_timer(None)
        phone.reload()
        assert "Now: round 1 of 1" in phone.inner_text("#current-round")
        assert phone.locator("#round-timer [data-digits]").count() == 1
        assert phone.locator("#pairings li.pairing").count() == 2
        assert phone.locator("#standings table.standings").count() == 1
        for g in store.games(None, 1):
            store.record_result(None, 1, g["a"], True, 120)
            store.record_result(None, 1, g["b"], False, 60)
        phone.reload()
        assert "every round is played" in phone.inner_text("#event-over")
        results = phone.inner_text("#results")
        assert results.count("won, 120\u201360") == 2
        fleets = phone.locator("#fleets .fleet-card")
        assert fleets.count() == 4
        assert "Total Build" in fleets.first.inner_text()
        assert phone.locator("#round-timer").count() == 0  # the event is over
        assert phone.evaluate(OVERFLOWS) == []
        phone.screenshot(path=str(shots / "phone-overview.png"), full_page=True)
        phone.goto(f"{base}/archive")
        venue = phone.locator("section.venue").first
        assert venue.locator("h2").inner_text() == "Warp Core Games"
        assert "November" in venue.inner_text()
        assert phone.evaluate(OVERFLOWS) == []
