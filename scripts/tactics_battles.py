#!/usr/bin/env python3
"""Many seeded battles on the two tactics scenarios (starbase-assault, boarding-action) played by
the doctrines: the check that module adv-tactics plays without an error (issue 18). Prints one
line a scenario: battles, errors, how they ended, and how often each tactical event happened.

    python -m scripts.tactics_battles                 # 200 battles a scenario
    python -m scripts.tactics_battles --seeds 20 --scenario boarding-action
    python -m scripts.tactics_battles --captains random   # the fuzzer on both sides
"""

from __future__ import annotations

import argparse

from kolrami.fleet import Fleet
from kolrami.fleet import load_fleet
from kolrami.rules.advanced.tactics_events import TACTICS_EVENTS
from kolrami.scenarios.models import builtin_scenario
from scripts.survey import Tally
from scripts.survey import survey

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
        tally = Tally(KINDS)

        def setup(seed: int, name: str = name) -> tuple[tuple[Fleet, Fleet], tuple[str, str]]:
            a, b = FLEETS[name][seed % len(FLEETS[name])]
            fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
            return fleets, pairings[seed % len(pairings)]

        for _ in survey(sc, args.seeds, tally, setup):
            pass
        print(tally.line(name, args.seeds))


if __name__ == "__main__":
    main()
