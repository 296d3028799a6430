#!/usr/bin/env python3
"""Many seeded battles on each built-in terrain scenario: the check that terrain plays without
an error (issue 19). Prints one line a scenario: battles, errors, how they ended, terrain events.

    python scripts/terrain_battles.py                 # 200 battles a scenario
    python scripts/terrain_battles.py --seeds 20 --scenario minefield
"""

from __future__ import annotations

import argparse
import collections
import traceback

from kolrami.fleet import load_fleet
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

SCENARIOS = ("nebula-ambush", "ion-storm-crossing", "minefield", "black-hole", "gas-giant-hide")
#: captain pairings played in turn: the advanced doctrine against itself and the random captain
PAIRINGS = (("aggressive", "aggressive"), ("aggressive", "random"), ("random", "random"))
TERRAIN_KINDS = (
    "terrain_damage",
    "terrain_moved",
    "mine_rolled",
    "surroundings_changed",
    "terrain_check",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--scenario", action="append", choices=SCENARIOS)
    args = parser.parse_args()
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    failed = 0
    for name in args.scenario or SCENARIOS:
        scenario = builtin_scenario(name)
        errors = 0
        winners: collections.Counter[str] = collections.Counter()
        kinds: collections.Counter[str] = collections.Counter()
        for seed in range(args.seeds):
            captains = PAIRINGS[seed % len(PAIRINGS)]
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
                if event.kind in TERRAIN_KINDS:
                    kinds[event.kind] += 1
        failed += errors
        print(
            f"{name}: {args.seeds} battles, {errors} errors, "
            f"results {dict(sorted(winners.items()))}, "
            f"terrain events {dict(sorted(kinds.items()))}"
        )
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
