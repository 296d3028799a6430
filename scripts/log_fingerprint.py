#!/usr/bin/env python3
"""One fingerprint over many seeded battles' logs: the check for work that must not change play.

Speed work on the engine or the captains should leave every battle exactly as it was. The golden
transcripts cover three battles; this covers hundreds (both scenarios of FPF play, three captain
pairings, 30 seeds each by default). Run it before and after a change: the two lines must match.

    python scripts/log_fingerprint.py              # prints e.g. "180 battles 368257a1..."
    python scripts/log_fingerprint.py --seeds 100
    python scripts/log_fingerprint.py --admiral 12   # and 12 admiral:budget=64 battles (search)
    python scripts/log_fingerprint.py --peak-admiral 6   # and 6 in Peak Performance
    python scripts/log_fingerprint.py --advanced 4   # and the advanced game's scenarios, 4 seeds

The admiral's battles check what the doctrines' do not: the battle clone and `rules.resume`,
played thousands of times a battle by the search (standard battles; in Peak Performance it also
searches where reset ships return and the reactions to the enemy's moves).
"""

from __future__ import annotations

import argparse
import hashlib

from kolrami.fleet import load_fleet
from kolrami.scenarios.models import BUILTIN
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

SCENARIOS = ("standard", "peak-performance")
PAIRINGS = (("aggressive", "aggressive"), ("kiting", "aggressive"), ("kiting", "random"))
#: the other built-in scenarios are the advanced game's (terrain, tactics, webs, probes ...),
#: played by the doctrine that knows it and the random captain
ADVANCED = tuple(name for name in BUILTIN if name not in SCENARIOS)
ADVANCED_PAIRINGS = (("aggressive", "aggressive"), ("aggressive", "random"), ("random", "random"))
DEFAULT_FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")


def fingerprint(
    seeds: int,
    names: tuple[str, ...] = SCENARIOS,
    pairings: tuple[tuple[str, str], ...] = PAIRINGS,
) -> tuple[int, str]:
    """How many battles were played and the SHA-256 over their logs' own SHA-256s, in order
    (each scenario's own fleets where it names them)."""
    digest = hashlib.sha256()
    played = 0
    for name in names:
        scenario = builtin_scenario(name)
        a, b = scenario.fleets or DEFAULT_FLEETS
        fleets = (load_fleet(a), load_fleet(b))
        for captains in pairings:
            for seed in range(seeds):
                digest.update(simulate(scenario, fleets, captains, seed).log.sha256().encode())
                played += 1
    return played, digest.hexdigest()


def admiral_fingerprint(battles: int, scenario_name: str = "standard") -> tuple[int, str]:
    """The same over `battles` battles of admiral:budget=64 against aggressive."""
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    scenario = builtin_scenario(scenario_name)
    digest = hashlib.sha256()
    for seed in range(battles):
        captains = ("admiral:budget=64", "aggressive")
        digest.update(simulate(scenario, fleets, captains, seed).log.sha256().encode())
    return battles, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="seeds per scenario and pairing")
    parser.add_argument(
        "--admiral", type=int, default=0, help="also this many admiral:budget=64 battles"
    )
    parser.add_argument(
        "--peak-admiral",
        type=int,
        default=0,
        help="also this many admiral:budget=64 battles in Peak Performance",
    )
    parser.add_argument(
        "--advanced", type=int, default=0, help="also the advanced scenarios, this many seeds"
    )
    args = parser.parse_args()
    played, digest = fingerprint(args.seeds)
    print(f"{played} battles {digest}")
    if args.admiral:
        played, digest = admiral_fingerprint(args.admiral)
        print(f"{played} admiral battles {digest}")
    if args.peak_admiral:
        played, digest = admiral_fingerprint(args.peak_admiral, "peak-performance")
        print(f"{played} Peak Performance admiral battles {digest}")
    if args.advanced:
        played, digest = fingerprint(args.advanced, ADVANCED, ADVANCED_PAIRINGS)
        print(f"{played} advanced battles {digest}")


if __name__ == "__main__":
    main()
