"""Golden transcripts: each committed battle log is played again from its own header and its own
logged orders, and the new log must equal the file byte for byte.

The battle is rebuilt from the transcript's `battle_started` header (`driver.rebuild`) and played
by scripted captains that give the `order_given` orders of the transcript, parsed with
`kolrami.engine.orders.parse` (`captains.scripted.logged_captains`, the path behind
`kolrami replay --orders`). The captains that first played the battle are never asked, so a
captain may change how it plays without moving a golden: these tests pin the engine, the rules
and the ship data. (That the same captains and seed give the same log is
tests/engine/test_determinism.py; that the captains still choose the same orders is
scripts/log_fingerprint.py.)

A difference means the engine, the rules or the data now resolve the same orders differently.
If that change is a bug, fix it. If it is on purpose, re-record the transcripts with
`python scripts/regen_golden.py`, read `git diff tests/golden`, and commit them with the change
(bump RULES_VERSION when outcomes change, and store it with every result).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kolrami.captains.base import BattleView
from kolrami.captains.base import Captain
from kolrami.captains.scripted import logged_captains
from kolrami.engine.driver import run
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.registry import read_log

GOLDEN_DIR = Path(__file__).resolve().parent
ROOT = GOLDEN_DIR.parents[1]
SCRIPT = ROOT / "scripts" / "regen_golden.py"
HINT = (
    "the transcript's orders no longer play out as it says. If the engine, rules or data "
    "changed on purpose, run `python scripts/regen_golden.py` (with the venv's python), check "
    "`git diff tests/golden` and commit the new transcripts; otherwise this is a regression."
)
TRANSCRIPTS = sorted(GOLDEN_DIR.glob("*.jsonl"))


class NeverAsked:
    """A captain that fails the test if the replay ever asks it for an order."""

    name = "never-asked"

    def decide(self, view: BattleView, decision: Decision) -> Order:
        pytest.fail(f"the replay asked a captain for an order: {decision}")


def replay(text: str) -> str:
    """Play a transcript again from its header with its logged orders; the new JSONL log."""
    events = read_log(text)
    header: dict[str, Any] = json.loads(text.splitlines()[0])["header"]
    scenario, fleets, names, seed, extra = rebuild(dict(header))
    battle = new_battle(scenario, fleets, seed, names, extra_rules=extra)
    captains: dict[str, Captain] = {}
    for side, captain in logged_captains(events).items():
        captain.fallback = NeverAsked()  # every decision must be answered from the log
        captains[side] = captain
    run(battle, captains)
    return battle.log.jsonl()


def first_difference(expected: str, got: str) -> str:
    """Where two transcripts part: the line number and both lines, from where they differ."""
    old, new = expected.splitlines(), got.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), 0)
            start = max(0, at - 60)
            return (
                f"first difference at line {number}, column {at + 1}:\n"
                f"  golden: ...{a[start : start + 200]}\n  now:    ...{b[start : start + 200]}"
            )
    return f"the golden transcript has {len(old)} lines, the replay {len(new)}"


def check_same(name: str, expected: str, got: str) -> None:
    """Fail with the hint and the first difference (not pytest's diff of two long strings)."""
    if got != expected:
        pytest.fail(f"{name}: {HINT}\n{first_difference(expected, got)}", pytrace=False)


def regen_script() -> ModuleType:
    """scripts/regen_golden.py, loaded as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("regen_golden", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def test_there_are_golden_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 3, f"no transcripts in {GOLDEN_DIR}: run scripts/regen_golden.py"


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_a_golden_battle_replays_from_its_header_and_logged_orders(path: Path) -> None:
    expected = path.read_text(encoding="utf-8")
    first = json.loads(expected.splitlines()[0])
    assert first["e"] == "battle_started"
    assert '"e":"order_given"' in expected  # a battle with orders in it, not a bare header
    check_same(path.name, expected, replay(expected))


def test_the_replay_does_not_ask_the_captains_that_played() -> None:
    # The header names the captains; with other names in it the replay plays the same orders
    # and so the same battle: only the header line differs.
    path = TRANSCRIPTS[0]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = json.loads(lines[0])
    first["header"]["captains"] = ["random", "random"]
    renamed = json.dumps(first, separators=(",", ":")) + "\n"
    got = replay(renamed + "".join(lines[1:])).splitlines(keepends=True)
    assert got[1:] == lines[1:]
    assert json.loads(got[0])["header"]["captains"] == ["random", "random"]


def test_a_changed_transcript_is_caught() -> None:
    # The comparison can fail: one digit changed in a transcript is reported with its line.
    path = TRANSCRIPTS[0]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    moved = next(i for i, line in enumerate(lines) if '"e":"ship_moved"' in line)
    lines[moved] = lines[moved].replace('"speed":', '"speed":1', 1)
    tampered = "".join(lines)
    got = replay(tampered)
    assert got != tampered
    assert f"line {moved + 1}" in first_difference(tampered, got)


def test_a_changed_order_changes_the_replay() -> None:
    # The replay follows the logged orders: a slower last manoeuvre (the last, so that no later
    # order depends on where it went) gives the same log up to it and other moves after it.
    # (Slower: a transcript's last move is often flat out for its Engine Power, FPF-MOV-11.)
    path = TRANSCRIPTS[0]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = max(i for i, line in enumerate(lines) if '"e":"order_given"' in line and " SPD " in line)
    order = json.loads(lines[at])["order"]
    speed = order.split(" SPD ", 1)[1].split(" ", 1)[0]
    other = int(speed) - 1 if int(speed) > 0 else 1
    changed = order.replace(f" SPD {speed} ", f" SPD {other} ", 1)
    assert changed != order
    lines[at] = lines[at].replace(json.dumps(order), json.dumps(changed))
    got = replay("".join(lines)).splitlines(keepends=True)
    assert got[: at + 1] == lines[: at + 1]  # the changed order is played and logged
    after = [line for line in got[at + 1 :] if '"e":"ship_moved"' in line]
    before = [line for line in lines[at + 1 :] if '"e":"ship_moved"' in line]
    assert after
    assert after != before


def test_the_script_re_records_exactly_the_committed_transcripts() -> None:
    # scripts/regen_golden.py re-records each transcript the same way; nothing would change.
    script = regen_script()
    assert script.GOLDEN_DIR == GOLDEN_DIR
    names = {g.name for g in script.GOLDEN}
    assert names == {p.name for p in TRANSCRIPTS}, (
        "the transcripts in tests/golden are not the battles scripts/regen_golden.py lists: "
        "run `python scripts/regen_golden.py` and delete stale files"
    )
    for path in TRANSCRIPTS:
        text = path.read_text(encoding="utf-8")
        check_same(path.name, text, script.re_record(text))
