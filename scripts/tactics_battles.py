#!/usr/bin/env python3
"""Many seeded battles on the two tactics scenarios (starbase-assault, boarding-action) played by
the doctrines: the check that module adv-tactics plays without an error (issue 18). Prints one
line a scenario: battles, errors, how they ended, and how often each tactical event happened.

    python scripts/tactics_battles.py                 # 200 battles a scenario
    python scripts/tactics_battles.py --seeds 20 --scenario boarding-action
    python scripts/tactics_battles.py --captains random   # the fuzzer on both sides
"""

from __future__ import annotations

import argparse
import collections
import traceback

from kolrami.fleet import load_fleet
from kolrami.rules.advanced.tactics_events import TACTICS_EVENTS
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

#: each scenario's fleets, played in turn: (side A, side B)
FLEETS: dict[str, tuple[tuple[str, str], ...]] = {
    "starbase-assault": (
        ("federation-starbase", "klingon-wolfpack"),
        ("klingon-outpost", "federation-cruisers"),
        ("federation-starbase", "gorn-hunters"),
        ("klingon-outpost", "orion-raiders"),
    ),
    "boarding-action": (
        ("gorn-hunters", "klingon-wolfpack"),
        ("federation-cruisers", "klingon-wolfpack"),
        ("orion-raiders", "federation-cruisers"),
        ("gorn-hunters", "tholian-weavers"),
    ),
}
#: the doctrines' pairings, played in turn
DOCTRINES = (("aggressive", "aggressive"), ("aggressive", "kiting"), ("kiting", "aggressive"))
KINDS = tuple(cls.kind for cls in TACTICS_EVENTS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--scenario", action="append", choices=sorted(FLEETS))
    parser.add_argument("--captains", choices=("doctrines", "random"), default="doctrines")
    args = parser.parse_args()
    pairings = DOCTRINES if args.captains == "doctrines" else (("random", "random"),)
    for name in args.scenario or sorted(FLEETS):
        sc = builtin_scenario(name)
        ends: collections.Counter[str] = collections.Counter()
        seen: collections.Counter[str] = collections.Counter()
        errors = 0
        for seed in range(args.seeds):
            a, b = FLEETS[name][seed % len(FLEETS[name])]
            captains = pairings[seed % len(pairings)]
            fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
            try:
                battle = simulate(sc, fleets, captains, seed)
            except Exception:  # a count of failures is the point of the script
                errors += 1
                print(f"{name} seed {seed} ({a} v {b}, {captains}):")
                traceback.print_exc()
                continue
            result = battle.result
            ends[result.winner or "draw" if result is not None else "unfinished"] += 1
            for e in battle.events():
                if e.kind in KINDS:
                    seen[e.kind] += 1
        split = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
        events = ", ".join(f"{k} {seen[k]}" for k in KINDS if seen[k])
        print(f"{name}: {args.seeds} battles, {errors} errors; outcome {split}")
        print(f"  events: {events}")


if __name__ == "__main__":
    main()
