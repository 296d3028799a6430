#!/usr/bin/env python3
"""CPU time of a run of seeded battles, for A/B speed work on one kind of battle (issue 40).

The battles are federation-cruisers against klingon-wolfpack, seeds 0 up, after one warm-up
battle, timed with `time.process_time` (the cost on one core, which other processes on a busy
machine do not add to). Run it on two trees in turn, e.g. with `KOLRAMI_PURE=1`:

    python scripts/battle_cpu.py advanced -n 20       # the advanced scenario
    python scripts/battle_cpu.py doctrine -n 200       # the standard scenario
    python scripts/battle_cpu.py admiral -n 4          # admiral:budget=64 v aggressive
    python scripts/battle_cpu.py advanced --profile    # and cProfile's top functions

Figures are printed, never asserted (docs/performance.md).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from kolrami import engine_build
from kolrami.fleet import load_fleet
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

CAPTAINS = {
    "advanced": ("advanced", ("aggressive", "aggressive")),
    "doctrine": ("standard", ("aggressive", "aggressive")),
    "admiral": ("standard", ("admiral:budget=64", "aggressive")),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(CAPTAINS))
    parser.add_argument("-n", type=int, default=20, help="battles (seeds 0 to n-1)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--top", type=int, default=40, help="functions printed by --profile")
    args = parser.parse_args()
    name, captains = CAPTAINS[args.kind]
    scenario = builtin_scenario(name)
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    simulate(scenario, fleets, ("aggressive", "aggressive"), 999)  # imports and caches warm
    profile = cProfile.Profile() if args.profile else None
    start = time.process_time()
    if profile is not None:
        profile.enable()
    for seed in range(args.n):
        simulate(scenario, fleets, captains, seed)
    if profile is not None:
        profile.disable()
    cpu = time.process_time() - start
    print(f"{args.kind}: {args.n} battles, {cpu:.2f} CPU s, {args.n / cpu:.2f} battles/s")
    print(f"engine: {engine_build()}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
