"""Minefields in the advanced game (module adv-terrain): ADV-MINE-01, ADV-MINE-02, ADV-MINE-03,
ADV-MINE-04, ADV-MINE-05, ADV-MINE-06, ADV-MINE-07, ADV-MINE-08. Readings in docs/rules.md under
each clause id.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.orders import LayDecision, LayOrder
from kolrami.rules.advanced.state import AdvancedState, AdvShip
from kolrami.rules.advanced.terrain.common import (
    Mine,
    TerrainState,
    segment_gap,
    strike,
    terrain_of,
)
from kolrami.rules.advanced.terrain_events import MineLaid, MineRolled
from kolrami.scenarios.models import Feature, Minefield, Scenario

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = (
    "ADV-MINE-01",
    "ADV-MINE-02",
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
    for mine in list(t.mines.values()):
        if mine.key in t.cleared or not adv.alive:
            continue
        key = (adv.id, mine.key)
        here = math.hypot(mine.x - x, mine.y - y) <= half
        if key in t.clear_of:  # its own layer, not yet out of the hex (ADV-MINE-02)
            if not here:
                t.clear_of.discard(key)
            continue
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


# --- laying mines in play (ADV-MINE-02) --------------------------------------------------------


def lay_field(scenario: Scenario, adv: AdvShip) -> int | None:
    """The number (from 1) of the first minefield of the ship's side that lets it lay a mine
    where it stands, or None."""
    for number, f in enumerate(scenario.terrain, start=1):
        if (
            isinstance(f, Minefield)
            and f.owner == adv.side
            and f.may_lay_at(adv.ship.x, adv.ship.y)
        ):
            return number
    return None


def lay_problem(
    scenario: Scenario, state: AdvancedState, t: TerrainState, adv: AdvShip
) -> str | None:
    """Why the ship may not lay a mine now, or None (ADV-MINE-02): only where the scenario lets
    its side lay them, uncloaked, shields down, with a missile casing in its torpedo stores, and
    not in a hex that already holds a live mine."""
    if not adv.alive:
        return "it is out of play"
    if lay_field(scenario, adv) is None:
        return "the scenario lets its side lay mines only in its minefield's lay area (ADV-MINE-02)"
    if adv.cloaked:
        return "a cloaked ship cannot lay mines: drop the cloak (ADV-MINE-02)"
    if adv.shields_up:
        return "a ship lays mines with its shields down: plan the turn with N (ADV-MINE-02)"
    if adv.stores < 1:
        return "each mine takes a missile casing and its torpedo stores are empty (ADV-MINE-02)"
    half = state.hex_cm / 2
    for mine in t.mines.values():
        if (
            mine.key not in t.cleared
            and math.hypot(mine.x - adv.ship.x, mine.y - adv.ship.y) <= half
        ):
            return f"its hex already holds mine {mine.key} (ADV-MINE-02)"
    return None


def may_lay(
    scenario: Scenario, state: AdvancedState, t: TerrainState, side: str
) -> tuple[str, ...]:
    """The ships of `side` that may lay a mine this phase."""
    return tuple(a.id for a in state.side(side) if lay_problem(scenario, state, t, a) is None)


def verify_lay(decision: LayDecision, order: LayOrder) -> None:
    """A side's mine laying for one phase: ships the decision names, each once (at most one
    mine a phase, ADV-MINE-02)."""
    for sid in order.ships:
        if sid not in decision.ships:
            may = ", ".join(decision.ships) or "none"
            raise IllegalOrderError(
                f"{sid} cannot lay a mine now (ADV-MINE-02); ships that can: {may}"
            )
    if len(set(order.ships)) != len(order.ships):
        raise IllegalOrderError("a ship lays at most one mine a phase (ADV-MINE-02); name it once")


def lay(battle: Battle, state: AdvancedState, t: TerrainState, adv: AdvShip) -> str:
    """The ship lays a mine of its side's field where it stands: one casing spent, the mine
    known to its side only, the ship holding its fire this phase (ADV-MINE-02). Its key."""
    number = lay_field(battle.scenario, adv)
    assert number is not None
    field = battle.scenario.terrain[number - 1]
    assert isinstance(field, Minefield)
    count = sum(1 for k in t.mines if k.split(".")[0] == str(number))
    key = f"{number}.{count + 1}"
    x, y = adv.ship.x, adv.ship.y
    t.mines[key] = Mine(key, x, y, field.owner, field.damage, bool(field.cloaked))
    t.clear_of.add((adv.id, key))
    t.laying.add(adv.id)
    battle.record(MineLaid(adv.id, key, round(x, 3), round(y, 3), adv.stores - 1))
    return key


def seen_scenario(battle: Battle, side: str) -> Scenario:
    """The scenario as `side` knows it: minefields hold only the mines it laid or has found
    (ADV-MINE-03); everything else is in plain sight. The log keeps the whole scenario."""
    scenario = battle.scenario
    if not any(isinstance(f, Minefield) for f in scenario.terrain):
        return scenario
    t = terrain_of(battle)
    cleared = t.cleared if t is not None else set()
    found = t.found[side] if t is not None else set()
    laid = t.mines if t is not None else mines_of(scenario)  # with the mines laid in play
    kept: list[Feature] = []
    for number, f in enumerate(scenario.terrain, start=1):
        if not isinstance(f, Minefield):
            kept.append(f)
            continue
        field_mines = [m for m in laid.values() if m.key.split(".")[0] == str(number)]
        if f.owner == side:
            live = [(m.x, m.y) for m in field_mines if m.key not in cleared]
        else:
            live = [(m.x, m.y) for m in field_mines if m.key in found]
        if live:
            kept.append(f.model_copy(update={"mines": tuple(live)}))
    return scenario.model_copy(update={"terrain": tuple(kept)})
