"""Minefields in the advanced game (module adv-terrain): ADV-MINE-01, ADV-MINE-02, ADV-MINE-03,
ADV-MINE-04, ADV-MINE-05, ADV-MINE-06, ADV-MINE-07, ADV-MINE-08, ADV-MINE-09. Readings in
docs/rules.md under each clause id.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced.combat import manual_fire
from kolrami.rules.advanced.combat import ready_problem
from kolrami.rules.advanced.geometry import bearing_to
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.geometry import weapon_bears
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import LayDecision
from kolrami.rules.advanced.orders import LayOrder
from kolrami.rules.advanced.orders import mine_target
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain.common import Mine
from kolrami.rules.advanced.terrain.common import TerrainState
from kolrami.rules.advanced.terrain.common import segment_gap
from kolrami.rules.advanced.terrain.common import strike
from kolrami.rules.advanced.terrain.common import terrain_of
from kolrami.rules.advanced.terrain_events import MineFired
from kolrami.rules.advanced.terrain_events import MineLaid
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.rules.advanced.terrain_events import MineShot
from kolrami.scenarios.models import Feature
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import Scenario

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
    "ADV-MINE-09",
)

#: A firing mine shoots at the nearest enemy ship within this many hexes at the end of each
#: phase, hits on a d10 at or under FIRING_NUMBER and deals FIRING_DAMAGE to the facing toward
#: it (ADV-MINE-09: "weakly"; our numbers, docs/rules.md).
FIRING_HEXES = 2
FIRING_NUMBER = 5
FIRING_DAMAGE = 2

#: A mine goes off on a d10 at or under this on entry, one more each phase after (ADV-MINE-04).
MINE_NUMBER = 6


def mines_of(scenario: Scenario) -> dict[str, Mine]:
    """Every mine the scenario lays, by key."""
    out: dict[str, Mine] = {}
    for number, t in enumerate(scenario.terrain, start=1):
        if isinstance(t, Minefield):
            for k, (x, y) in enumerate(t.mines, start=1):
                key = f"{number}.{k}"
                out[key] = Mine(key, x, y, t.owner, t.damage, bool(t.cloaked), bool(t.firing))
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
        if mine.key in t.cleared or mine.firing or not adv.alive:
            continue  # a firing mine shoots rather than goes off (ADV-MINE-09)
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
        battle.note(
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
    t.mines[key] = Mine(
        key, x, y, field.owner, field.damage, bool(field.cloaked), bool(field.firing)
    )
    t.clear_of.add((adv.id, key))
    t.laying.add(adv.id)
    battle.record(MineLaid(adv.id, key, round(x, 3), round(y, 3), adv.stores - 1))
    return key


# --- firing mines (ADV-MINE-09) -----------------------------------------------------------------


def firing_mines_fire(battle: Battle, state: AdvancedState, t: TerrainState) -> None:
    """At the end of a phase each live firing mine shoots at the nearest enemy ship within
    FIRING_HEXES; the side shot at now knows where it is (and may fire back)."""
    reach = FIRING_HEXES * state.hex_cm
    for mine in list(t.mines.values()):
        if not mine.firing or mine.key in t.cleared:
            continue
        enemy = "B" if mine.owner == "A" else "A"
        near = [
            (math.hypot(a.ship.x - mine.x, a.ship.y - mine.y), a.id, a)
            for a in state.side(enemy)
            if math.hypot(a.ship.x - mine.x, a.ship.y - mine.y) <= reach
        ]
        if not near:
            continue
        _, _, target = min(near, key=lambda n: (n[0], n[1]))
        t.found[enemy].add(mine.key)
        roll = battle.dice.d10()
        hit = roll <= FIRING_NUMBER
        battle.note(
            MineFired, mine.key, target.id, roll, FIRING_NUMBER, hit, FIRING_DAMAGE if hit else 0
        )
        if hit:
            ts = target.ship
            facing = facing_toward(ts.x, ts.y, ts.heading, mine.x, mine.y)
            strike(battle, target, "a firing mine", facing, FIRING_DAMAGE)


def mine_shot_problem(
    state: AdvancedState, t: TerrainState, adv: AdvShip, weapons: tuple[int, ...], key: str
) -> str | None:
    """Why these weapons may not fire at mine `key` now, or None: a live firing mine of the
    enemy that the side knows of, each weapon ready, in range and bearing on it (ADV-MINE-09)."""
    mine = t.mines.get(key)
    if (
        mine is None
        or mine.key in t.cleared
        or mine.owner == adv.side
        or mine.key not in t.found[adv.side]
    ):
        return f"no enemy firing mine M{key} is known on the table (ADV-MINE-09)"
    if not mine.firing:
        return f"mine M{key} is not a firing mine: it cannot be shot at (ADV-MINE-09)"
    s = adv.ship
    dist = math.hypot(mine.x - s.x, mine.y - s.y)
    for i in weapons:
        problem = ready_problem(adv, i)
        if problem:
            return problem
        w = adv.sheet.weapons[i]
        if dist > w.range_cm:
            return f"w{i} reaches {w.range_cm} cm; mine M{key} is {dist:.1f} cm away"
        if not weapon_bears(w.arcs, bearing_to(s.x, s.y, s.heading, mine.x, mine.y)):
            return f"w{i} does not bear on mine M{key} ({'/'.join(a.value for a in w.arcs)})"
    return None


def shoot_mine(
    battle: Battle, state: AdvancedState, t: TerrainState, adv: AdvShip, attack: Attack
) -> None:
    """A ship's attack at a firing mine: no lock holds on a mine, so the gunner fires by hand
    (the Helm: Weapons check, ADV-FIRE-03), then one to-hit roll; a hit of any damage destroys
    the mine (ADV-MINE-09)."""
    key = mine_target(attack.target)
    mine = t.mines.get(key or "")
    if mine is None or mine.key in t.cleared:
        return
    s = adv.ship
    dist = math.hypot(mine.x - s.x, mine.y - s.y)
    weapons = [adv.sheet.weapons[i] for i in attack.weapons]
    if not manual_fire(battle, adv, f"M{mine.key}"):  # a mine holds no lock (ADV-MINE-09)
        return
    needed = min(state.rules.to_hit_number(state, adv, w, dist) for w in weapons)
    modifier = adv.penalty + state.rules.to_hit_penalty(state, adv, weapons[0])
    roll = battle.dice.d10()
    hit = needed > 0 and roll + modifier <= needed
    battle.note(MineShot, adv.id, mine.key, list(attack.weapons), needed, roll, modifier, hit)
    if hit:
        t.cleared.add(mine.key)
        for side in ("A", "B"):
            t.found[side].discard(mine.key)


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
