"""Minefields in the advanced game (module adv-terrain): ADV-MINE-01, ADV-MINE-03,
ADV-MINE-04, ADV-MINE-05, ADV-MINE-06, ADV-MINE-07, ADV-MINE-08. Readings in docs/rules.md under
each clause id.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.state import AdvancedState, AdvShip
from kolrami.rules.advanced.terrain.common import (
    Mine,
    TerrainState,
    segment_gap,
    strike,
    terrain_of,
)
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.scenarios.models import Feature, Minefield, Scenario

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = (
    "ADV-MINE-01",
    "ADV-MINE-03",
    "ADV-MINE-04",
    "ADV-MINE-05",
    "ADV-MINE-06",
    "ADV-MINE-07",
    "ADV-MINE-08",
)

#: A mine goes off on a d10 at or under this on entry, one more each phase after (ADV-MINE-04).
MINE_NUMBER = 6


def mines_of(scenario: Scenario) -> dict[str, Mine]:
    """Every mine the scenario lays, by key."""
    out: dict[str, Mine] = {}
    for number, t in enumerate(scenario.terrain, start=1):
        if isinstance(t, Minefield):
            for k, (x, y) in enumerate(t.mines, start=1):
                key = f"{number}.{k}"
                out[key] = Mine(key, x, y, t.owner, t.damage, bool(t.cloaked))
    return out


def mine_cost(field: Minefield, hex_cm: int, x: float, y: float) -> float:
    """What the mines of a field a side knows of near (x, y) cost a captain ending a move
    there."""
    cost = 0.0
    for mx, my in field.mines:
        if math.hypot(mx - x, my - y) <= hex_cm:
            cost += 2.0 * field.damage
    return cost


def mines_on_path(scenario: Scenario, hex_cm: int, path: list[tuple[float, float]]) -> int:
    """Damage of the mines a side knows of whose hexes the path (a list of points) crosses;
    a mine strikes whoever enters its hex, its layer's own ships too (ADV-MINE-04)."""
    total = 0
    for t in scenario.terrain:
        if not isinstance(t, Minefield):
            continue
        for mx, my in t.mines:
            for (ax, ay), (bx, by) in itertools.pairwise(path):
                if segment_gap(ax, ay, bx, by, mx, my) <= hex_cm / 2 + 1:
                    total += t.damage
                    break
    return total


def check_mines(battle: Battle, state: AdvancedState, t: TerrainState, adv: AdvShip) -> None:
    """Mines in hexes the ship entered or stays in (ADV-MINE-03, ADV-MINE-04, ADV-MINE-05,
    ADV-MINE-06, ADV-MINE-07)."""
    half = state.hex_cm / 2
    x, y = adv.ship.x, adv.ship.y
    px, py = t.last.get(adv.id, (x, y))
    for mine in t.mines.values():
        if mine.key in t.cleared or not adv.alive:
            continue
        key = (adv.id, mine.key)
        here = math.hypot(mine.x - x, mine.y - y) <= half
        passed = segment_gap(px, py, x, y, mine.x, mine.y) <= half
        if key in t.inside and not here:
            del t.inside[key]  # it left the hex without setting the mine off
            continue
        if key not in t.inside and not passed:
            continue
        stayed, facing = t.inside.get(key, (-1, 0))
        if stayed < 0:  # it entered: the part of the ship toward the mine went in first
            facing = facing_toward(px, py, adv.ship.heading, mine.x, mine.y)
            if (px, py) == (mine.x, mine.y):
                facing = 2
        stayed += 1
        # a mine is found when a ship enters its hex; a cloaked one only where its cloak
        # fails (nebulae and storms, ADV-MINE-08), or when it goes off (ADV-MINE-01)
        if not mine.cloaked or adv.around.nebula or adv.around.storm:
            t.found[adv.side].add(mine.key)
        needed = MINE_NUMBER + stayed
        roll = battle.dice.d10()
        exploded = roll <= needed
        dodge_roll = dodge_rating = 0
        dodged = False
        if exploded:
            dodge_rating = adv.rating("helm", "helm_ops") // 2  # ADV-MINE-05, rounded down
            dodge_roll = battle.dice.d100()
            dodged = dodge_roll <= dodge_rating
        battle.log.record(
            MineRolled,
            adv.id,
            mine.key,
            roll,
            needed,
            exploded,
            dodge_roll,
            dodge_rating,
            dodged,
        )
        if not exploded:
            if here:
                t.inside[key] = (stayed, facing)
            continue
        t.inside.pop(key, None)
        t.cleared.add(mine.key)  # ADV-MINE-06
        for side in ("A", "B"):
            t.found[side].discard(mine.key)
        if not dodged:
            strike(battle, adv, "a mine", facing, mine.damage)


def seen_scenario(battle: Battle, side: str) -> Scenario:
    """The scenario as `side` knows it: minefields hold only the mines it laid or has found
    (ADV-MINE-03); everything else is in plain sight. The log keeps the whole scenario."""
    scenario = battle.scenario
    if not any(isinstance(f, Minefield) for f in scenario.terrain):
        return scenario
    t = terrain_of(battle)
    cleared = t.cleared if t is not None else set()
    found = t.found[side] if t is not None else set()
    kept: list[Feature] = []
    for number, f in enumerate(scenario.terrain, start=1):
        if not isinstance(f, Minefield):
            kept.append(f)
            continue
        if f.owner == side:
            live = [
                (x, y)
                for k, (x, y) in enumerate(f.mines, start=1)
                if f"{number}.{k}" not in cleared
            ]
        else:
            live = [(x, y) for k, (x, y) in enumerate(f.mines, start=1) if f"{number}.{k}" in found]
        if live:
            kept.append(f.model_copy(update={"mines": tuple(live)}))
    return scenario.model_copy(update={"terrain": tuple(kept)})
