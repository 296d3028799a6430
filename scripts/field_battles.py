#!/usr/bin/env python3
"""Many seeded battles of the web-trap and probe-hunt scenarios (issue 18, part b): the check
that webs, probes and jamming play without an error. Prints one line a scenario: battles,
errors, the outcome split, and how often each web, probe and jamming event happened.

    python scripts/field_battles.py                       # 200 battles a scenario, doctrines
    python scripts/field_battles.py --seeds 20 --scenario web-trap --random
"""

from __future__ import annotations

import argparse
import collections
import traceback

from kolrami.fleet import load_fleet
from kolrami.rules.advanced.field_events import FIELD_EVENTS
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

SCENARIOS = ("web-trap", "probe-hunt")
#: the doctrines in turn: each temperament against itself and the other
DOCTRINES = (
    ("aggressive", "aggressive"),
    ("kiting", "kiting"),
    ("aggressive", "kiting"),
    ("kiting", "aggressive"),
)
RANDOM = (("random", "random"), ("random", "aggressive"), ("aggressive", "random"))
KINDS = {cls.kind for cls in FIELD_EVENTS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--scenario", action="append", choices=SCENARIOS)
    parser.add_argument("--random", action="store_true", help="the random captain's pairings")
    args = parser.parse_args()
    pairings = RANDOM if args.random else DOCTRINES
    failed = 0
    for name in args.scenario or SCENARIOS:
        scenario = builtin_scenario(name)
        fleets = (load_fleet(scenario.fleets[0]), load_fleet(scenario.fleets[1]))
        errors = 0
        winners: collections.Counter[str] = collections.Counter()
        kinds: collections.Counter[str] = collections.Counter()
        for seed in range(args.seeds):
            captains = pairings[seed % len(pairings)]
            try:
                battle = simulate(scenario, fleets, captains, seed)
            except Exception:
                errors += 1
                if errors == 1:
                    traceback.print_exc()
                continue
            result = battle.result
            winners[(result.winner or "draw") if result else "none"] += 1
            for event in battle.log:
                if event.kind in KINDS:
                    kinds[event.kind] += 1
        failed += errors
        print(
            f"{name}: {args.seeds} battles, {errors} errors, "
            f"results {dict(sorted(winners.items()))}, "
            f"events {dict(sorted(kinds.items()))}"
        )
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
