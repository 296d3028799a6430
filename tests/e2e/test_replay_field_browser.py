"""The replay of the advanced game's field in a real browser (Playwright driving Debian's
chromium): probes and webs are drawn, cloaked ships are faint in the referee's view and absent
from the other side's. Skipped, with the reason, where chromium or playwright is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
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


def _replay(name: str, seed: int, tmp: Path) -> tuple[Path, dict[str, Any]]:
    scenario = builtin_scenario(name)
    fleets = (load_fleet(scenario.fleets[0]), load_fleet(scenario.fleets[1]))
    battle = simulate(scenario, fleets, ("aggressive", "aggressive"), seed)
    out = tmp / f"{name}.html"
    write_replay(battle.events(), out)
    return out, replay_data(battle.events())


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    opened = tab(browser)
    yield opened
    opened.close()


def test_cloaked_ships_are_faint_for_the_referee_and_gone_for_the_hunters(
    page: Any, tmp_path: Path
) -> None:
    path, data = _replay("probe-hunt", 2, tmp_path)
    step = next(
        i for i, s in enumerate(data["steps"]) if s["field"]["cloaked"] and s["field"]["probes"]
    )
    cloaked = data["steps"][step]["field"]["cloaked"]
    open_replay(page, path)
    page.evaluate(f"window.kolramiReplay.go({step}, 1)")
    faint = page.evaluate(
        "[...document.querySelectorAll('g.ship.cloaked')].filter(g => g.style.display !== 'none')"
        ".length"
    )
    assert faint == len(cloaked)
    assert page.evaluate("document.querySelectorAll('g.probe').length") == len(
        data["steps"][step]["field"]["probes"]
    )
    page.select_option("#view", "A")
    shown = page.evaluate(
        "[...document.querySelectorAll('g.ship.cloaked')].filter(g => g.style.display !== 'none')"
        ".length"
    )
    assert shown == 0
    page.select_option("#view", "B")  # side B sees its own cloaked ships
    assert page.evaluate(
        "[...document.querySelectorAll('g.ship.cloaked')].filter(g => g.style.display !== 'none')"
        ".length"
    ) == len(cloaked)
    assert not page.errors


def test_webs_are_drawn_around_their_captives(page: Any, tmp_path: Path) -> None:
    path, data = _replay("web-trap", 3, tmp_path)
    step = next(i for i, s in enumerate(data["steps"]) if s["field"]["webs"])
    open_replay(page, path)
    page.evaluate(f"window.kolramiReplay.go({step}, 1)")
    assert page.evaluate("document.querySelectorAll('g.web').length") >= 1
    assert not page.errors


def test_a_side_s_page_holds_only_what_that_side_saw(page: Any, tmp_path: Path) -> None:
    scenario = builtin_scenario("probe-hunt")
    fleets = (load_fleet(scenario.fleets[0]), load_fleet(scenario.fleets[1]))
    battle = simulate(scenario, fleets, ("aggressive", "aggressive"), 2)
    events = list(battle.events())
    full = replay_data(events)
    mine = replay_data(events, view="A")
    out = tmp_path / "side-a.html"
    write_replay(events, out, view="A")
    open_replay(page, out)
    assert page.evaluate("document.getElementById('view').disabled")
    assert page.evaluate("[...document.getElementById('view').options].map(o => o.value)") == ["A"]
    assert page.evaluate("document.querySelectorAll('.card').length") == len(mine["ships"])
    assert len(mine["ships"]) <= len(full["ships"])
    # a step where a Romulan is under its cloak: none of side B's cloaked ships is drawn
    step = next(i for i, s in enumerate(mine["steps"]) if s["field"]["cloaked"])
    page.evaluate(f"window.kolramiReplay.go({step}, 1)")
    shown = page.evaluate(
        "[...document.querySelectorAll('g.ship.cloaked')].filter(g => g.style.display !== 'none')"
        ".length"
    )
    assert shown == 0
    assert not page.errors
    shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    page.screenshot(path=str(shots / "replay-probe-hunt-side-a-page.png"), full_page=True)
