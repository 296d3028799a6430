#!/usr/bin/env python3
"""Many seeded battles of the web-trap and probe-hunt scenarios (issue 18, part b): the check
that webs, probes and jamming play without an error. Prints one line a scenario: battles,
errors, the outcome split, and how often each web, probe and jamming event happened.

    python -m scripts.field_battles                       # 200 battles a scenario, doctrines
    python -m scripts.field_battles --seeds 20 --scenario web-trap --random
"""

from __future__ import annotations

import argparse

from kolrami.fleet import load_fleet
from kolrami.rules.advanced.field_events import FIELD_EVENTS
from kolrami.scenarios.models import builtin_scenario
from scripts.survey import Tally
from scripts.survey import in_turn
from scripts.survey import survey

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
        tally = Tally(KINDS)
        for _ in survey(scenario, args.seeds, tally, in_turn(fleets, pairings)):
            pass
        failed += tally.errors
        print(tally.line(name, args.seeds))
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
