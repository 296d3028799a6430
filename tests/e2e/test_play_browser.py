"""/play in a real browser: a human (side A, on a tablet) plays a whole small battle against the
AI by clicking, the page is reloaded mid-battle and goes on, an illegal order is refused with its
clause linked, and the finished log re-runs identically from its orders.

Skipped, with the reason, where /usr/bin/chromium or playwright is missing. Screenshots go to
KOLRAMI_SCREENSHOTS (a folder) when it is set, else to the test's temporary folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kit import TABLET
from kit import board_ready
from kit import needs_browser
from kit import refuse
from kit import start_play
from kit import until
from typer.testing import CliRunner

from kolrami.cli import app as cli

pytestmark = [needs_browser, pytest.mark.slow]


def _orders(page: Any) -> int:
    return int(page.get_attribute("#play", "data-orders"))


def _pick_fire(page: Any) -> None:
    """Lock every firer on a target in arc and range, when all of them have one (a squadron
    fires as a unit); else hold."""
    selects = page.locator("select.fire")
    picks = []
    for i in range(selects.count()):
        in_reach = selects.nth(i).locator("option[data-reach=yes]")
        if in_reach.count() == 0:
            return
        picks.append(in_reach.first.get_attribute("value"))
    for i, value in enumerate(picks):
        selects.nth(i).select_option(value)


def _act(page: Any, kind: str) -> None:
    """Answer the decision on the screen by clicking."""
    if kind == "InitiativeDecision":
        page.click("#first")
        return
    if kind == "ActivationDecision":
        page.locator("button.choice").first.click()
        return
    if kind == "OrdersDecision":
        dots = page.locator("#board .end")
        if dots.count():
            dots.nth(dots.count() // 2).click(force=True)  # (a dot may sit under a ship's label)
    if kind in ("OrdersDecision", "ReactionDecision"):
        _pick_fire(page)
    page.click("#send")


def test_a_whole_battle_by_clicking_on_a_tablet_replays_identically(
    browser: Any, server: str, shots: Path, tmp_path: Path
) -> None:
    context = browser.new_context(**TABLET)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))

    start_play(page, server, seed=3, turns=2)
    game = page.url.rsplit("/", 1)[1]
    board_ready(page)

    refused = reloaded = shot = False
    steps = 0
    while page.get_attribute("#play", "data-over") != "yes":
        steps += 1
        assert steps < 200, "the battle did not end"
        kind = page.get_attribute("#play", "data-kind")
        before = _orders(page)
        if kind == "OrdersDecision" and not refused:
            # an order the rules refuse: the clause is named and linked, the battle untouched
            refuse(page, server, "AS1 SPD 99 T0 T0 HOLD", "FPF-MOV-06")
            refused = True
            # the board mid-turn: a ship's arcs on hover and the move's end points
            page.locator("#board .ship[data-ship=A1] .hull").hover(force=True)
            assert page.locator("#board .arc").count() > 0
            assert page.locator("#board .end").count() > 0
            page.screenshot(path=str(shots / "play-tablet-orders.png"), full_page=True)
            shot = True
        if steps == 6 and not reloaded:
            page.reload()  # the game is kept on the server: the reload goes on where it was
            board_ready(page)
            assert _orders(page) == before
            reloaded = True
        _act(page, kind or "")

        def taken(n: int = before) -> bool:
            return bool(_orders(page) != n or page.locator("#refusal").is_visible())

        until(taken, "the order to be taken")
        assert page.locator("#refusal").is_hidden(), page.inner_text("#refusal")
        if page.locator(".die").count() and shot and not (shots / "play-tablet-dice.png").exists():
            page.screenshot(path=str(shots / "play-tablet-dice.png"), full_page=True)
    assert refused
    assert reloaded
    assert "Result:" in page.inner_text("#decision")

    log = tmp_path / "game.jsonl"
    log.write_text(page.request.get(f"{server}/play/{game}/log.jsonl").text(), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(log), "--orders"])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output
    assert page.request.get(f"{server}/play/{game}/replay").ok
    # (the one refusal answers 422, which the browser notes in its console)
    assert [e for e in errors if "status of 422" not in e] == [], errors
    assert all(u.startswith(server) for u in requests), [
        u for u in requests if not u.startswith(server)
    ]
    context.close()
