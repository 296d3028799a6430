"""The replay page draws module adv-tactics' tractor beams and beam-overs (issue 18), in Debian's
chromium: at a moment a link is on, a line joins the two ships, styled by its kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kit import needs_browser
from kit import open_replay
from kit import tab

from kolrami.fleet import load_fleet
from kolrami.report.replay import replay_data
from kolrami.report.replay import write_replay
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

pytestmark = needs_browser


@pytest.fixture(scope="module")
def page_and_data(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Any, Any]]:
    fleets = (load_fleet("presets:gorn-hunters"), load_fleet("presets:klingon-wolfpack"))
    battle = simulate(builtin_scenario("boarding-action"), fleets, ("aggressive", "aggressive"), 2)
    out = tmp_path_factory.mktemp("replay") / "board.html"
    write_replay(battle.events(), out)
    data = replay_data(battle.events())
    page = open_replay(tab(browser, 1300), out)
    yield page, (data, page.errors)
    page.close()


@pytest.mark.parametrize("kind", ["tractor", "board"])
def test_a_link_is_drawn_between_the_two_ships_while_it_is_on(
    page_and_data: tuple[Any, Any], kind: str
) -> None:
    page, (data, errors) = page_and_data
    at = next(
        (i, link)
        for i, step in enumerate(data["steps"])
        for link in step["links"]
        if link[4] == kind
    )
    i, (a, b, one, two, _) = at
    page.evaluate(f"window.kolramiReplay.go({i}, {(a + b) / 2})")
    drawn = page.locator(f"line.link.{kind}")
    assert drawn.count() >= 1
    titles = page.eval_on_selector_all(
        f"line.link.{kind} title", "nodes => nodes.map(n => n.textContent)"
    )
    ids = [s["id"] for s in data["ships"]]
    assert f"{ids[one]} {kind} {ids[two]}" in titles
    assert errors == []
