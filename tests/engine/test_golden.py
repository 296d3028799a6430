"""Golden transcripts: seeded battles replayed and diffed against the committed JSONL logs.

A difference means the engine, the rules, the ship data or a captain now plays these battles
differently. If that change is a bug, fix it. If it is on purpose, regenerate the transcripts
with `python scripts/regen_golden.py`, read `git diff tests/golden`, and commit them with the
change (bump RULES_VERSION when outcomes change, GUIDE 3.10).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kolrami.captains import make_captain
from kolrami.engine.chance import Dice, derive_seed
from kolrami.engine.driver import run
from kolrami.rules import new_battle, rebuild

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "golden"
SCRIPT = ROOT / "scripts" / "regen_golden.py"
HINT = (
    "the battle no longer plays as its golden transcript says. If the rules, data or captains "
    "changed on purpose, run `python scripts/regen_golden.py` (with the venv's python), check "
    "`git diff tests/golden` and commit the new transcripts; otherwise this is a regression."
)
TRANSCRIPTS = sorted(GOLDEN_DIR.glob("*.jsonl"))


def regen_script() -> ModuleType:
    """scripts/regen_golden.py, loaded as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("regen_golden", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def replay(header: dict[str, object]) -> str:
    """Play the battle a transcript's header describes; its JSONL log."""
    scenario, fleets, (cap_a, cap_b), seed, extra = rebuild(dict(header))
    battle = new_battle(scenario, fleets, seed, captains=(cap_a, cap_b), extra_rules=extra)
    captains = {
        side: make_captain(name, Dice(derive_seed(seed, "captain", side)))
        for side, name in (("A", cap_a), ("B", cap_b))
    }
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


def test_there_are_golden_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 3, f"no transcripts in {GOLDEN_DIR}: run scripts/regen_golden.py"


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_a_golden_battle_replays_from_its_header(path: Path) -> None:
    expected = path.read_text(encoding="utf-8")
    header = json.loads(expected.splitlines()[0])
    assert header["e"] == "battle_started"
    check_same(path.name, expected, replay(header["header"]))


def test_the_script_writes_exactly_the_committed_transcripts() -> None:
    fresh: dict[str, str] = regen_script().render_all()
    assert sorted(fresh) == [p.name for p in TRANSCRIPTS], (
        "the transcripts in tests/golden are not the ones scripts/regen_golden.py writes: "
        "run `python scripts/regen_golden.py` and delete stale files"
    )
    for name, text in fresh.items():
        check_same(name, (GOLDEN_DIR / name).read_text(encoding="utf-8"), text)


def test_a_changed_transcript_is_caught() -> None:
    # The comparison can fail: one digit changed in a transcript is reported with its line.
    path = TRANSCRIPTS[0]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    moved = next(i for i, line in enumerate(lines) if '"e":"ship_moved"' in line)
    lines[moved] = lines[moved].replace('"speed":', '"speed":1', 1)
    tampered = "".join(lines)
    header = json.loads(lines[0])["header"]
    got = replay(header)
    assert got != tampered
    assert f"line {moved + 1}" in first_difference(tampered, got)
