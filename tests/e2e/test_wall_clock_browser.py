"""Issue 47 item 9 in the real browser: the wall clock's join QR code whole on the screen at
the projector and TV sizes a club has (a corner square cut off and phones cannot scan it).

Skipped, with the reason, where /usr/bin/chromium or playwright is missing. Screenshots go to
KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kit import needs_browser
from kit import serve
from test_phone_layout import OVERFLOWS

from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import new_event
from web_helpers import organizer

pytestmark = [needs_browser, pytest.mark.slow]

#: a projector, a 720p television, a 1080p one
WALLS = [(1024, 768), (1280, 720), (1920, 1080)]

#: the QR code as drawn (its light square, quiet zone included: the first path), the SVG box it
#: is drawn in and the viewport, in CSS pixels
QR_BOX = """() => {
  const svg = document.querySelector('.wall-join svg'), box = svg.getBoundingClientRect();
  const code = svg.querySelector('path').getBoundingClientRect();
  return [[code.left, code.top, code.right, code.bottom],
          [box.left, box.top, box.right, box.bottom],
          document.documentElement.clientWidth, document.documentElement.clientHeight];
}"""


@pytest.fixture(scope="module")
def wall_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """An event with its first round paired, served on loopback: the base URL and its id."""
    store = Store(str(tmp_path_factory.mktemp("wall") / "store.db"))
    app = create_app(store)
    desk = organizer(app)
    eid = new_event(desk, players=4)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    for base in serve(app):
        yield base, eid


@pytest.mark.parametrize(("width", "height"), WALLS)
def test_the_wall_clocks_qr_code_is_whole_on_the_screen(
    browser: Any, wall_site: tuple[str, int], shots: Path, width: int, height: int
) -> None:
    base, eid = wall_site
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{base}/events/{eid}/clock")
    code, box, view_w, view_h = page.evaluate(QR_BOX)
    assert (view_w, view_h) == (width, height)
    left, top, right, bottom = code
    # the whole code inside the SVG's box (not cut off at its edges) and that box on the screen
    assert box[0] - 0.5 <= left, (code, box)
    assert box[1] - 0.5 <= top, (code, box)
    assert right <= box[2] + 0.5, (code, box)
    assert bottom <= box[3] + 0.5, (code, box)
    assert min(left, top) >= 0, code
    assert right <= view_w, (code, view_w)
    assert bottom <= view_h, (code, view_h)
    assert right - left >= 110  # CSS pixels: big enough to scan from a step or two away
    assert page.evaluate(OVERFLOWS) == []
    digits = page.evaluate("document.querySelector('[data-digits]').getBoundingClientRect().bottom")
    assert digits <= top  # the timer above the code, not over it
    page.screenshot(path=str(shots / f"wall-clock-{width}x{height}.png"))
    page.context.close()
