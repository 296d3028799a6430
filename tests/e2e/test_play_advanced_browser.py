"""/play in a real browser, the advanced game by clicking: every decision answered from its
listed choices (buttons for whole orders, a select per ship for the parts of one), with a
tactical action, a mine laid and a firing mine shot at, one order refused with its clause
linked, and the downloaded log re-running identically from its orders.

The game is a small advanced scenario (tests/close-quarters.toml) put in the play folder as a
log before the server starts, as a restarted server finds its games.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kit import TABLET
from kit import board_ready
from kit import needs_browser
from kit import refuse
from kit import serve
from kit import until
from typer.testing import CliRunner

from kolrami.cli import app as cli
from kolrami.fleet import load_fleet
from kolrami.scenarios.models import load_scenario
from kolrami.sim.session import HUMAN
from kolrami.sim.session import PlaySession
from kolrami.tournament.store import Store
from kolrami.web import create_app
from play_kit import CLOSE_QUARTERS
from play_kit import by_hand

pytestmark = [needs_browser, pytest.mark.slow]


@pytest.fixture
def game(store: Store, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(the server's base URL, the id of a close-quarters game side A plays by hand)."""
    folder = tmp_path / "games"
    folder.mkdir()
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    session = PlaySession(load_scenario(CLOSE_QUARTERS), fleets, 0, (HUMAN, "aggressive"))
    gid = secrets.token_urlsafe(18)
    (folder / f"{gid}.jsonl").write_text(session.log_text(), encoding="utf-8")
    for base in serve(create_app(store, play_dir=folder)):
        yield base, gid


def _orders(page: Any) -> int:
    return int(page.get_attribute("#play", "data-orders") or -1)


def _listed(page: Any) -> tuple[list[tuple[int, str, str]], list[tuple[Any, str | None]]]:
    """The decision's choices as the page lists them, numbered: whole orders (buttons), then
    each ship's parts (options of its select); and where each number is clicked."""
    listed: list[tuple[int, str, str]] = []
    where: list[tuple[Any, str | None]] = []
    buttons = page.locator("#decision .menu-whole button.choice")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        listed.append((len(listed) + 1, b.get_attribute("data-order"), b.inner_text()))
        where.append((b, None))
    selects = page.locator("#decision select.part")
    for i in range(selects.count()):
        sel = selects.nth(i)
        options = sel.locator("option")
        for j in range(1, options.count()):
            o = options.nth(j)
            value = o.get_attribute("value")
            listed.append((len(listed) + 1, value, o.inner_text()))
            where.append((sel, value))
    return listed, where


def _ships(listed: list[tuple[int, str, str]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.split(":")[0] for _, t, _ in listed if ":" in t and " " not in t))


def test_a_whole_advanced_battle_by_clicking_replays_identically(
    browser: Any, game: tuple[str, str], shots: Path, tmp_path: Path
) -> None:
    server, gid = game
    context = browser.new_context(**TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/play/{gid}")
    board_ready(page)
    refused = shot = False
    given: list[str] = []
    steps = 0
    while page.get_attribute("#play", "data-over") != "yes":
        steps += 1
        assert steps < 300, "the battle did not end"
        kind = page.get_attribute("#play", "data-kind") or ""
        before = _orders(page)
        listed, where = _listed(page)
        assert listed, f"{kind} lists no choices"
        if kind == "MoveDecision" and not refused:
            ship = listed[0][1].split()[1]
            refuse(page, server, f"MOVE {ship} 99 T0 T0", "ADV-SEQ-02")
            refused = True
        picks = [int(n) for n in by_hand(kind, _ships(listed), listed).split()]
        first, value = where[picks[0] - 1]
        if value is None:  # a whole order: its button sends it
            given.append(listed[picks[0] - 1][1])
            first.click()
        else:
            for n in picks:
                sel, v = where[n - 1]
                sel.select_option(v)
            given.append(page.input_value("#order"))
            if kind == "TacticsDecision" and not shot:
                page.screenshot(path=str(shots / "play-advanced-board.png"), full_page=True)
                shot = True
            page.click("#send")

        def taken(n: int = before) -> bool:
            return bool(_orders(page) != n or page.locator("#refusal").is_visible())

        until(taken, "the order to be taken")
        assert page.locator("#refusal").is_hidden(), page.inner_text("#refusal")
    assert refused
    assert any(t.startswith("LAY A") for t in given), given
    assert any(">M" in t for t in given), given  # a firing mine shot at
    assert any(t.startswith("TACTICS A") for t in given), given
    assert "Result:" in page.inner_text("#decision")

    log = tmp_path / "game.jsonl"
    text = page.request.get(f"{server}/play/{gid}/log.jsonl?view=referee").text()
    log.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(log), "--orders"])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output
    assert [e for e in errors if "status of 422" not in e] == [], errors
    context.close()
