"""`kolrami play` at a real terminal (a pty, through pexpect): a whole small battle typed in, an
illegal order refused with its clause, an undo, save and resume, and the final log re-running
identically from its orders."""

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

KOLRAMI = str(Path(sys.executable).with_name("kolrami"))
PROMPT = re.compile(r"^([AB])> ", re.MULTILINE)


def _spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "160"}
    return pexpect.spawn(
        KOLRAMI, ["play", *args, "--width", "160"], env=env, encoding="utf-8", timeout=60
    )


def _answer(screen: str) -> str:
    """The order a test player gives: the example the prompt offers for this decision."""
    tail = (
        screen[screen.rfind("In arc and range now") :] if "In arc and range" in screen else screen
    )
    if "FIRST or SECOND" in tail:
        return "FIRST"
    m = re.findall(r"e\.g\. (.+?)(?:  \||$)", tail, re.MULTILINE)
    if m:
        return str(m[0]).strip()
    m2 = re.search(r"^\s+(REACT \S+ HOLD)", tail, re.MULTILINE)
    if m2:
        return m2.group(1)
    m3 = re.search(r"Activate one squadron: (ACT \S+)", tail)
    assert m3, f"no choice found in:\n{tail[-800:]}"
    return m3.group(1)


def _play_until_end(child: pexpect.spawn, stop_after: int | None = None) -> int:
    """Answer every prompt with its example; returns how many orders were given."""
    given = 0
    while True:
        got = child.expect([PROMPT, r"Result: .*\n", pexpect.EOF])
        if got != 0:
            return given
        if stop_after is not None and given == stop_after:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            return given
        child.sendline(_answer(str(child.before)))
        child.expect("order given")
        given += 1


@pytest.mark.rule("FPF-MOV-06")
def test_a_whole_battle_typed_at_the_terminal_replays_identically(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    child = _spawn("--seed", "11", "--turns", "2", "--save", str(log), "--opponent", "aggressive")
    child.expect(PROMPT)  # the roll-off or the first activation
    # an order the rules refuse: the battle is untouched and the refusal names its clause
    child.sendline("AS1 SPD 90 T0 T0 HOLD")
    child.expect(r"refused: .*\n")
    line = child.after
    assert "(FPF-MOV-" in line or "expected" in line, line
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("undo")
    child.expect(PROMPT)
    child.sendline("?")  # the choices again, for the player below to read
    # play five orders, then stop: the log so far is saved
    given = _play_until_end(child, stop_after=5)
    assert given == 5
    saved = log.read_text(encoding="utf-8")
    mine = [e for e in read_log(saved) if isinstance(e, OrderGiven) and e.side == "A"]
    assert len(mine) == 5
    # resume from the log and play to the end
    child = _spawn("--resume", str(log))
    given += _play_until_end(child)
    child.expect(pexpect.EOF)
    assert given > 5
    events = read_log(log.read_text(encoding="utf-8"))
    assert type(events[-1]).__name__ == "BattleEnded"
    result = CliRunner().invoke(app, ["replay", str(log), "--orders"])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output


def test_completion_and_undo_of_an_order_not_yet_committed(tmp_path: Path) -> None:
    # hot-seat: the roll-off's winner chooses, then activates, with no die rolled between
    child = _spawn("--seed", "5", "--turns", "1", "--side", "both")
    child.expect("FIRST or SECOND")  # both squadrons start at 20 cm: a roll-off
    child.expect(PROMPT)
    child.send("FIR\t")  # tab completes the word
    child.sendline("")
    child.expect("order given: FIRST")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(r"Took back: FIRST")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
