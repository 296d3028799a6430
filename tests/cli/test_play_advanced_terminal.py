"""`kolrami play` of the advanced game at a real terminal (a pty, through pexpect): every
decision answered by the number of one of its listed choices (or several ships' numbers for one
order), with a tactical action, a mine laid and a firing mine shot at, one order refused with
its clause, and the saved log re-running identically from its orders."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.engine.events import OrderGiven
from kolrami.rules.registry import read_log
from play_kit import CLOSE_QUARTERS
from play_kit import by_hand

KOLRAMI = str(Path(sys.executable).with_name("kolrami"))
PROMPT = re.compile(r"^([AB])> ", re.MULTILINE)
#: a numbered choice: "  12. A1:M9/S/W6.6.1.1  (A1: shields, full weapons, speed ...)"
CHOICE = re.compile(r"^\s*(\d+)\. (\S+(?: \S+)*?)  \((.*)\)\s*$", re.MULTILINE)
#: a move among many, listed in columns: "  1. MOVE A1 3 T0 T0      2. MOVE A1 3 T-1 T-1"
COLUMN = re.compile(r"(\d+)\. (MOVE \S+ \d+ T[-+]?\d T[-+]?\d)")
TITLE = re.compile(r"^Side [AB]: (.*?)(?: for (\S+(?:, \S+)*))?$", re.MULTILINE)
KINDS = {
    "power for the game turn": "PowerDecision",
    "tactical actions": "TacticsDecision",
    "lay mines": "LayDecision",
    "declare fire": "AttackDecision",
}


def _decision(screen: str) -> tuple[str, tuple[str, ...], list[tuple[int, str, str]]]:
    """The last decision on the screen: its kind (as far as the test player cares), its ships
    and its numbered choices."""
    at = max(m.start() for m in TITLE.finditer(screen))
    title = TITLE.match(screen, at)
    assert title is not None
    kind = next((k for words, k in KINDS.items() if title.group(1).startswith(words)), "")
    ships = tuple((title.group(2) or "").split(", ")) if title.group(2) else ()
    listed = [(int(n), text, label) for n, text, label in CHOICE.findall(screen[at:])]
    listed += [(int(n), text, text) for n, text in COLUMN.findall(screen[at:])]
    listed.sort()
    return kind, ships, listed


@pytest.mark.rule("ADV-SEQ-02", "ADV-MINE-02", "ADV-MINE-09")
def test_a_whole_advanced_battle_by_numbers_at_the_terminal_replays_identically(
    tmp_path: Path,
) -> None:
    log = tmp_path / "game.jsonl"
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200"}
    args = ["play", "--scenario", CLOSE_QUARTERS, "--seed", "0", "--save", str(log)]
    args += ["--opponent", "aggressive", "--width", "200"]
    child = pexpect.spawn(
        KOLRAMI, args, env=env, encoding="utf-8", timeout=60, dimensions=(50, 250)
    )
    refused = False
    given: list[str] = []
    screen = ""
    while True:
        got = child.expect([PROMPT, r"Result: .*\n", pexpect.EOF])
        if got != 0:
            break
        screen += str(child.before).replace("\r", "")
        kind, ships, listed = _decision(screen)
        assert listed, screen[-1500:]
        if listed[0][1].startswith("MOVE") and not refused:
            ship = listed[0][1].split()[1]
            child.sendline(f"MOVE {ship} 99 T0 T0")  # more hexes than the phase allows
            child.expect(r"refused: .*\n")
            assert "ADV-SEQ-02" in child.after, child.after
            # its hint line ("type rule ADV-SEQ-02") is not awaited: once, in CI's full run, it
            # did not come before the prompt (unexplained; alone it always does)
            child.expect(PROMPT)
            refused = True
        child.sendline(by_hand(kind, ships, listed))
        child.expect(r"= (.*?)\r?\n")
        given.append(child.match.group(1).strip())
        child.expect("order given")
        screen = ""
    child.expect(pexpect.EOF)
    assert refused
    assert any(t.startswith("LAY A") for t in given), given
    assert any(">M" in t for t in given), given
    assert any(t.startswith("TACTICS A") for t in given), given
    events = read_log(log.read_text(encoding="utf-8"))
    typed = [e.order for e in events if isinstance(e, OrderGiven) and e.side == "A"]
    assert typed == given
    result = CliRunner().invoke(app, ["replay", str(log), "--orders"])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output
