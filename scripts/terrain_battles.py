#!/usr/bin/env python3
"""Many seeded battles on each built-in terrain scenario: the check that terrain plays without
an error (issue 19). Prints one line a scenario: battles, errors, how they ended, terrain events.

    python -m scripts.terrain_battles                 # 200 battles a scenario
    python -m scripts.terrain_battles --seeds 20 --scenario minefield
    python -m scripts.terrain_battles --views 7      # one minefield battle: referee vs sides
    python -m scripts.terrain_battles --views 1 --lay   # the same with mines laid in play
    python -m scripts.terrain_battles --seeds 20 --fingerprint   # a hash of each scenario's logs

Terrain losses are ships the terrain destroyed (the strike that took a ship to 0 was terrain's:
a horizon, a core, a mine, a storm, a disk, pressure), counted by the captain that flew them.
"""

from __future__ import annotations

import argparse
import collections
import hashlib

from kolrami.captains.base import BattleView
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.fleet import load_fleet
from kolrami.rules.advanced.terrain_events import MineLaid
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.rules.advanced.terrain_events import TerrainDamage
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate
from scripts.survey import Tally
from scripts.survey import in_turn
from scripts.survey import survey

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


def mines_seen(battle: Battle) -> None:
    """What the referee's log and each side's view hold of the mines at the battle's end."""
    header = next(iter(battle.events()))
    assert isinstance(header, ev.BattleStarted)
    laid = [t for t in header.header["scenario"]["terrain"] if t["kind"] == "minefield"]
    rolls = [e for e in battle.events() if isinstance(e, MineRolled)]
    gone = sorted({e.mine for e in rolls if e.exploded})
    print(
        f"referee (log): {sum(len(t['mines']) for t in laid)} mines laid by side "
        f"{'/'.join(t['owner'] for t in laid)}; {len(rolls)} mine rolls, went off: {gone}"
    )
    in_play = [e for e in battle.events() if isinstance(e, MineLaid)]
    if in_play:
        print(
            f"referee (log): {len(in_play)} mines laid in play: "
            + ", ".join(f"{e.mine} by {e.ship} at ({e.x:g}, {e.y:g})" for e in in_play)
        )
    for side in ("A", "B"):
        view = BattleView(battle, side).scenario
        seen = [m for t in view.terrain if isinstance(t, Minefield) for m in t.mines]
        print(f"side {side}'s view: {len(seen)} mines {seen}")


def terrain_losses(battle: Battle) -> list[tuple[str, str]]:
    """(side, what destroyed it) for each ship the terrain destroyed in the battle."""
    lost: dict[str, str] = {}
    for event in battle.events():
        if isinstance(event, TerrainDamage) and event.superstructure <= 0:
            lost.setdefault(event.ship, event.source)
    return [(battle.ships[sid].side, source) for sid, source in lost.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--scenario", action="append", choices=SCENARIOS)
    parser.add_argument("--views", type=int, metavar="SEED", help="one minefield battle's views")
    parser.add_argument("--fingerprint", action="store_true", help="print a hash of the logs")
    parser.add_argument(
        "--lay", action="store_true", help="with --views: side B may lay mines in its half"
    )
    args = parser.parse_args()
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    if args.views is not None:
        scenario = builtin_scenario("minefield")
        captains = ("aggressive", "aggressive")
        if args.lay:  # side B may lay more in its half; random captains drop their shields
            half = ((0.0, 60.0), (scenario.table_width_cm, scenario.table_height_cm))
            fields = tuple(
                f.model_copy(update={"lay_area": half}) if isinstance(f, Minefield) else f
                for f in scenario.terrain
            )
            scenario = scenario.model_copy(update={"terrain": fields})
            captains = ("random", "random")
        battle = simulate(scenario, fleets, captains, args.views)
        mines_seen(battle)
        return
    failed = 0
    for name in args.scenario or SCENARIOS:
        scenario = builtin_scenario(name)
        tally = Tally(TERRAIN_KINDS)
        losses: collections.Counter[str] = collections.Counter()
        flown: collections.Counter[str] = collections.Counter()
        causes: collections.Counter[str] = collections.Counter()
        digest = hashlib.sha256()
        for captains, battle in survey(scenario, args.seeds, tally, in_turn(fleets, PAIRINGS)):
            digest.update(battle.log.sha256().encode())
            sides = dict(zip(("A", "B"), captains, strict=True))
            for side in ("A", "B"):
                flown[sides[side]] += sum(s.side == side for s in battle.ships.values())
            for side, source in terrain_losses(battle):
                losses[sides[side]] += 1
                causes[source] += 1
        failed += tally.errors
        print(tally.line(name, args.seeds, "terrain events"))
        lost = ", ".join(f"{c} {losses[c]}/{flown[c]} ships" for c in sorted(flown))
        print(f"  terrain losses by captain: {lost}; causes {dict(sorted(causes.items()))}")
        if args.fingerprint:
            print(f"  fingerprint {digest.hexdigest()}")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
