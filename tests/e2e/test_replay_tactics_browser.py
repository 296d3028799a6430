"""The replay page draws module adv-tactics' tractor beams and beam-overs (issue 18), in Debian's
chromium: at a moment a link is on, a line joins the two ships, styled by its kind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kolrami.fleet import load_fleet
from kolrami.report.replay import replay_data, write_replay
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
)
sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright")


@pytest.fixture(scope="module")
def page_and_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    fleets = (load_fleet("presets:gorn-hunters"), load_fleet("presets:klingon-wolfpack"))
    battle = simulate(builtin_scenario("boarding-action"), fleets, ("aggressive", "aggressive"), 2)
    out = tmp_path_factory.mktemp("replay") / "board.html"
    write_replay(battle.events(), out)
    data = replay_data(battle.events())
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(out.as_uri())
        page.wait_for_function("window.kolramiReplay && window.kolramiReplay.ready")
        yield page, (data, errors)
        browser.close()


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
