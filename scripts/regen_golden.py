#!/usr/bin/env python3
"""Regenerate the golden battle transcripts in tests/golden/ (JSONL, diffed by tests/golden).

Each transcript is the full JSONL event log of one seeded battle. tests/golden/test_golden.py
plays every transcript again from its header with its own logged orders (never asking the
captains) and diffs the new log against the file, so a change to how the engine, the rules or
the data resolve the same orders shows up there; a captain may change freely.

By default this script re-records: each transcript's logged orders are played again by this
checkout's engine and the file is rewritten with the new log (the orders stay the same; it says
so and stops if they no longer fit the battle's decisions). With --fresh the battles listed in
GOLDEN are played anew by their captains, which gives new orders: for a new golden battle, or
when a rules change means the old orders no longer fit. A battle in GOLDEN without a transcript
is always played fresh. Read the diff (`git diff tests/golden`) and commit it with the change.

    python scripts/regen_golden.py            # re-record the transcripts from their orders
    python scripts/regen_golden.py --check    # exit 1 if a transcript would change
    python scripts/regen_golden.py --fresh    # play the GOLDEN battles anew with their captains
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from kolrami.captains import make_captain
from kolrami.captains.scripted import logged_captains
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.engine.driver import run
from kolrami.engine.events import BattleStarted
from kolrami.engine.events import OrderGiven
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.registry import read_log
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


class OrdersNoLongerFitError(Exception):
    """Re-recording a transcript did not play exactly its logged orders."""


def re_record(text: str) -> str:
    """A transcript played again by this checkout from its header and logged orders: its new
    JSONL log. Raises OrdersNoLongerFitError when the new battle gave other orders (a logged
    order was left over or did not fit a decision, so a fallback answered)."""
    events = read_log(text)
    if not events or not isinstance(events[0], BattleStarted):
        raise ValueError("a transcript starts with a battle_started header")
    scenario, fleets, names, seed, extra = rebuild(events[0].header)
    battle = new_battle(scenario, fleets, seed, names, extra_rules=extra)
    run(battle, logged_captains(events))
    logged = [(e.side, e.order) for e in events if isinstance(e, OrderGiven)]
    given = [(e.side, e.order) for e in battle.events() if isinstance(e, OrderGiven)]
    if given != logged:
        raise OrdersNoLongerFitError(
            "the logged orders no longer fit the battle's decisions; play it anew with --fresh"
        )
    return battle.log.jsonl()


def render_all(fresh: bool = False) -> dict[str, str]:
    """Every golden transcript by file name, as this checkout records it: re-recorded from the
    committed transcript's orders, or (`fresh`, or no transcript yet) played by the captains."""
    out: dict[str, str] = {}
    for g in GOLDEN:
        path = GOLDEN_DIR / g.name
        if fresh or not path.exists():
            out[g.name] = play(g).log.jsonl()
            continue
        try:
            out[g.name] = re_record(path.read_text(encoding="utf-8"))
        except OrdersNoLongerFitError as exc:
            raise SystemExit(f"{path}: {exc}") from None
    return out


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the transcripts; the exit code says if any differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="only report transcripts that would change"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="play the GOLDEN battles anew with their captains"
    )
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    fresh = render_all(args.fresh)
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
