#!/usr/bin/env python3
"""Regenerate the golden battle transcripts in tests/golden/ (GUIDE 7: golden JSONL, diffed).

Each transcript is the full JSONL event log of one seeded battle between built-in captains.
tests/engine/test_golden.py replays every transcript from its header and diffs it against the
file, so any change to what a battle does shows up there. When the rules, the data or a captain
change on purpose, run this script, read the diff (`git diff tests/golden`), and commit both.

    python scripts/regen_golden.py            # rewrite the transcripts
    python scripts/regen_golden.py --check    # exit 1 if a transcript would change
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from kolrami.captains import make_captain
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice, derive_seed
from kolrami.engine.driver import run
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"


@dataclass(frozen=True, slots=True)
class Golden:
    """One golden battle: two preset fleets, their captains and the seed."""

    fleet_a: str
    fleet_b: str
    captain_a: str
    captain_b: str
    seed: int
    scenario: str = "standard"

    @property
    def name(self) -> str:
        """The transcript's file name."""
        return (
            f"{self.fleet_a}-{self.captain_a}-vs-{self.fleet_b}-{self.captain_b}"
            f"-seed{self.seed}.jsonl"
        )


GOLDEN: tuple[Golden, ...] = (
    Golden("federation-cruisers", "klingon-wolfpack", "aggressive", "aggressive", 1),
    Golden("klingon-strike", "federation-venture", "kiting", "aggressive", 2),
    Golden("federation-fleet", "klingon-fleet", "aggressive", "kiting", 3),
)


def play(golden: Golden) -> Battle:
    """Play one golden battle; each captain's dice derive from the seed and its side."""
    battle = new_battle(
        builtin_scenario(golden.scenario),
        (load_fleet(f"presets:{golden.fleet_a}"), load_fleet(f"presets:{golden.fleet_b}")),
        golden.seed,
        captains=(golden.captain_a, golden.captain_b),
    )
    captains = {
        side: make_captain(name, Dice(derive_seed(golden.seed, "captain", side)))
        for side, name in (("A", golden.captain_a), ("B", golden.captain_b))
    }
    run(battle, captains)
    return battle


def render_all() -> dict[str, str]:
    """Every golden transcript by file name, as this checkout plays it."""
    return {g.name: play(g).log.jsonl() for g in GOLDEN}


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the transcripts; the exit code says if any differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="only report transcripts that would change"
    )
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    fresh = render_all()
    changed = []
    for name, text in fresh.items():
        path = GOLDEN_DIR / name
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            print(f"unchanged  {path}")
            continue
        changed.append(name)
        if args.check:
            print(f"differs    {path}")
        else:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"{'written' if old is None else 'updated'}    {path}")
    stale = sorted(p.name for p in GOLDEN_DIR.glob("*.jsonl") if p.name not in fresh)
    for name in stale:
        print(f"stale      {GOLDEN_DIR / name} (no battle in GOLDEN writes it; delete it)")
    return 1 if args.check and (changed or stale) else 0


if __name__ == "__main__":
    sys.exit(main())
