"""The pages a phone shows, in the real browser (Playwright driving Debian's chromium): nothing may
run past the screen's right edge, not even inside a table that scrolls sideways, so no column
(the fleet's SP, the organizer's New PIN and Drop) is cut off.

Skipped, with the reason, where /usr/bin/chromium or playwright is missing. Screenshots go to
KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kit import log_in
from kit import needs_browser
from kit import serve

from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import PASSWORD
from web_helpers import new_event
from web_helpers import organizer

PHONES = {"small-phone": 360, "phone": 390}

pytestmark = needs_browser

# every box on the screen whose right edge passes the viewport's, or that hides part of itself
# by scrolling sideways
OVERFLOWS = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    let clipped = false;  // visually hidden (for screen readers only): not on the screen at all
    for (let a = e; a && a !== document.body; a = a.parentElement)
      if (getComputedStyle(a).clip !== 'auto') clipped = true;
    if (clipped) continue;
    const what = e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' '
      + (e.textContent || '').trim().slice(0, 30);
    if (r.right > width + 0.5) out.push(['past the edge', what, Math.round(r.right), width]);
    else if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      out.push(['scrolls sideways', what, e.scrollWidth, e.clientWidth]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int]]:
    """An event with six players (one with a long name, an email and a big fleet), served by
    uvicorn on loopback; yields the base URL, the event id and a player's id."""
    store = Store(str(tmp_path_factory.mktemp("phone") / "store.db"))
    app = create_app(store)
    desk = organizer(app)
    eid = new_event(desk, players=5)
    desk.refresh(f"/org/events/{eid}")
    long_one = {
        "name": "Tavish Orrin-Vasquez",
        "email": "tavish.orrin-vasquez@example.org",
        "fleet": share_string(load_fleet("presets:klingon-fleet")),
        "csrf_token": desk.csrf,
    }
    page = desk.client.post(f"/org/events/{eid}/players", data=long_one)
    assert page.status_code == 200, page.text
    listing = desk.refresh(f"/org/events/{eid}")
    found = re.search(rf'href="/events/{eid}/players/(\d+)">Tavish', listing)
    assert found, "the long-named player is not listed"
    player = int(found.group(1))
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303  # fleets go public
    for base in serve(app):
        yield base, eid, player


@pytest.fixture(params=list(PHONES))
def device(request: pytest.FixtureRequest) -> str:
    """Each phone of PHONES by name, in turn."""
    return str(request.param)


@pytest.fixture
def phone(browser: Any, device: str) -> Iterator[Any]:
    """A page as wide as the phone `device`, in a browser context of its own."""
    context = browser.new_context(
        viewport={"width": PHONES[device], "height": 800}, is_mobile=True, has_touch=True
    )
    yield context.new_page()
    context.close()


def test_the_public_fleet_page_fits_a_phone(
    phone: Any, site: tuple[str, int, int], shots: Path, device: str
) -> None:
    base, eid, player = site
    phone.goto(f"{base}/events/{eid}/players/{player}")
    text = phone.inner_text("main")
    assert "Total Build" in text
    assert phone.evaluate(OVERFLOWS) == []
    # the SP of every card is on the screen, beside its title
    sp = phone.evaluate(
        "[...document.querySelectorAll('table.fleet td.num')].map(td => "
        "[td.getBoundingClientRect().right, td.textContent.trim()])"
    )
    assert sp
    assert all(right <= PHONES[device] for right, _ in sp)
    phone.screenshot(path=str(shots / f"{device}-fleet.png"), full_page=True)


def test_the_organizers_player_table_fits_a_phone(
    phone: Any, site: tuple[str, int, int], shots: Path, device: str
) -> None:
    base, eid, _ = site
    log_in(phone, base, PASSWORD)
    phone.goto(f"{base}/org/events/{eid}")
    assert phone.evaluate(OVERFLOWS) == []
    for label in ("New PIN", "Drop"):
        buttons = phone.locator(f"#players button:has-text('{label}')")
        assert buttons.count() == 6
        for n in range(6):
            box = buttons.nth(n).bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= PHONES[device], (label, n, box)
    phone.screenshot(path=str(shots / f"{device}-players.png"), full_page=True)
