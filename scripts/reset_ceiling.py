#!/usr/bin/env python3
"""The figures behind the score check's ceilings (store.py: RESETS_PER_HOUR, ...): how often one
ship and one fleet were reset, and the most Fleet Points scored, in simulated Peak Performance
battles of one 60-minute round (the scenario's 12 turns).

    python scripts/reset_ceiling.py             # all ordered preset pairs, 10 seeds, 2 pairings
    python scripts/reset_ceiling.py --seeds 3
"""

from __future__ import annotations

import argparse
import collections
import itertools

from kolrami.fleet import load_fleet
from kolrami.fleet.model import preset_names
from kolrami.rules import events as ev
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate

PAIRINGS = (("aggressive", "aggressive"), ("aggressive", "kiting"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=10, help="seeds per pair of fleets")
    seeds = parser.parse_args().seeds
    scenario = load_scenario("peak-performance")
    per_ship: collections.Counter[int] = collections.Counter()
    per_fleet: list[int] = []
    points: list[int] = []
    battles = 0
    for (a, b), seed, captains in itertools.product(
        itertools.permutations(preset_names(), 2), range(seeds), PAIRINGS
    ):
        fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
        battle = simulate(scenario, fleets, captains, seed)
        battle.finish()
        resets = [e.ship for e in battle.log.events() if isinstance(e, ev.ShipReset)]
        per_ship.update(collections.Counter(resets).values())
        per_fleet += list(collections.Counter(s[:1] for s in resets).values())
        points += list(battle.fleet_points.values())
        battles += 1
    per_fleet.sort()
    points.sort()
    print(
        f"{battles} battles; most resets of one ship {max(per_ship)} "
        f"(ships by resets {sorted(per_ship.items())}); most resets of one fleet "
        f"{per_fleet[-1]} (99th percentile {per_fleet[int(len(per_fleet) * 0.99)]}); "
        f"most Fleet Points {points[-1]} (99th percentile {points[int(len(points) * 0.99)]})"
    )


if __name__ == "__main__":
    main()
