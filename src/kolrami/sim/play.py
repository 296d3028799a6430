"""One battle between named captains: the step every sweep, tournament and script repeats."""

from __future__ import annotations

from kolrami.captains.registry import make_captain
from kolrami.catalog import ShipPack
from kolrami.engine.battle import Battle
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.fleet.model import Fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import Scenario


def simulate(
    scenario: Scenario,
    fleets: tuple[Fleet, Fleet],
    captains: tuple[str, str],
    seed: int,
    extra_rules: tuple[str, ...] = (),
    pack: ShipPack | None = None,
) -> Battle:
    """Build and play a battle between two named captains (ships from `pack`, the built-in
    ones by default); returns the finished battle."""
    battle = new_battle(scenario, fleets, seed, captains, pack=pack, extra_rules=extra_rules)
    players = {
        side: make_captain(name, captain_dice(seed, side))
        for side, name in zip(("A", "B"), captains, strict=True)
    }
    run(battle, players)
    return battle
