"""Issue 47 items 15 and 16 in the real browser: the organizer's phones-may-join checkbox is a
checkbox beside its words (not a large empty box), and each ship's label on the /play board sits
level with its own triangle (not half a slot off, beside the next ship of its column).

Skipped, with the reason, where /usr/bin/chromium or playwright is missing. Screenshots go to
KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kit import LAPTOP
from kit import TABLET
from kit import log_in
from kit import needs_browser
from kit import start_play
from kit import until

from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import PASSWORD
from web_helpers import new_event
from web_helpers import organizer

pytestmark = [needs_browser, pytest.mark.slow]

#: each ship on the board: its id, the centre of its base, and its label's box
SHIPS = """() => [...document.querySelectorAll('#board .ship')].map(g => {
  const base = g.querySelector('.base').getBoundingClientRect();
  const label = g.querySelector('.label').getBoundingClientRect();
  return [g.dataset.ship, (base.left + base.right) / 2, (base.top + base.bottom) / 2,
          [label.left, label.top, label.right, label.bottom]];
})"""


def test_the_phones_may_join_checkbox_is_a_small_box_beside_its_words(
    browser: Any, server: str, store: Store, shots: Path
) -> None:
    eid = new_event(organizer(create_app(store)), players=2)
    page = browser.new_context(**LAPTOP).new_page()
    log_in(page, server, PASSWORD)
    page.goto(f"{server}/org/events/{eid}")
    box = page.locator("#self-registration").bounding_box()
    words = page.locator("label:has(#self-registration)").bounding_box()
    assert box["width"] <= 32, box  # a checkbox, not the width of a text field
    assert box["height"] <= 32, box
    assert words["height"] <= 2.5 * box["height"], (words, box)  # its words on its line
    page.check("#self-registration")
    assert page.is_checked("#self-registration")
    page.locator("#joining").screenshot(path=str(shots / "join-settings-checkbox.png"))
    page.context.close()


def test_each_ships_label_is_level_with_its_own_triangle(
    browser: Any, server: str, shots: Path
) -> None:
    page = browser.new_context(**TABLET).new_page()
    start_play(page, server, seed=3, turns=2)
    until(lambda: page.locator("#board .ship .label").count() >= 6, "the board")
    ships = page.evaluate(SHIPS)
    for ship, _, y, (_, top, _, bottom) in ships:
        middle = (top + bottom) / 2
        assert abs(middle - y) <= (bottom - top) / 4, (ship, middle, y)  # level with its base
    for ship, x, _, (left, top, right, bottom) in ships:
        # the label's nearest ship is its own: the reader cannot take it for its neighbour's
        middle = ((left + right) / 2, (top + bottom) / 2)
        nearest = min(ships, key=lambda s: (s[1] - middle[0]) ** 2 + (s[2] - middle[1]) ** 2)
        assert nearest[0] == ship, (ship, nearest[0])
        assert left >= x  # beside it, to the right, not over the triangle
    page.locator("#board").screenshot(path=str(shots / "play-board-labels.png"))
    page.context.close()
