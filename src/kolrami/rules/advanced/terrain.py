"""The advanced game's terrain (module adv-terrain): nebulae, ion storms, mines, black holes,
neutron stars, magnetars, gas giants and standard orbit, as a scenario places them
(kolrami.scenarios.models).

Distances the rules count in hexes are the scenario's `hex_cm` (GUIDE 4): a point is "in" a
hex when it lies within half a hex of its centre. After each phase's movement the module works
out every ship's surroundings (`Surroundings`, recorded by a SurroundingsChanged change) and the
core reads them: no locks, cloaks, shields or torpedoes where the terrain forbids them. Damage
and forced moves go through the terrain events' changes (GUIDE 3.11); the readings are in
docs/rules.md under each clause id.

Clauses: ADV-NEB-01, ADV-NEB-02, ADV-NEB-03, ADV-NEB-04, ADV-NEB-05; ADV-ION-01, ADV-ION-02,
ADV-ION-03; ADV-MINE-01, ADV-MINE-03, ADV-MINE-04, ADV-MINE-05, ADV-MINE-06, ADV-MINE-07,
ADV-MINE-08; ADV-BH-01, ADV-BH-02, ADV-BH-03, ADV-BH-04, ADV-BH-05, ADV-BH-06, ADV-BH-07,
ADV-BH-09; ADV-NS-01; ADV-MAG-01; ADV-GG-01, ADV-GG-02, ADV-GG-03, ADV-GG-04, ADV-GG-05;
ADV-ORB-01, ADV-ORB-02. ADV-CLOAK-09 is in kolrami.rules.advanced.cloak.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kolrami.catalog.advanced import AdvWeapon, AdvWeaponKind
from kolrami.engine import events as ev
from kolrami.rules.advanced import cloak
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.officers import lose_lock
from kolrami.rules.advanced.state import KEY as STATE_KEY
from kolrami.rules.advanced.state import PHASES, AdvancedState, AdvShip, Surroundings
from kolrami.rules.advanced.terrain_events import (
    MineRolled,
    SurroundingsChanged,
    TerrainCheck,
    TerrainDamage,
    TerrainMoved,
)
from kolrami.rules.module import rules_of
from kolrami.scenarios.models import (
    BlackHole,
    Feature,
    GasGiant,
    IonStorm,
    Magnetar,
    Minefield,
    Moon,
    Nebula,
    NeutronStar,
    Planet,
    Scenario,
)

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.orders import Decision

#: A mine goes off on a d10 at or under this on entry, one more each phase after (ADV-MINE-04).
MINE_NUMBER = 6
#: A nebula's sensing d10 must come in under this; boosted by sensor power (ADV-NEB-02).
SENSING = 4
SENSING_BOOSTS = ((4, 6), (2, 5))  # (power, number): 2 power -> under 5, 4 power -> under 6
#: Pressure per move on each of the three leading facings, by atmosphere layer (ADV-GG-01,
#: ADV-GG-02); torpedo damage factors by layer.
PRESSURE = {1: 1, 2: 6, 3: 18}
TORPEDO_FACTOR = {1: 1.5, 2: 2.0, 3: 4.0}
#: To-hit penalty for torpedoes fired inside an atmosphere (ADV-GG-01).
ATMOSPHERE_TORPEDO_PENALTY = 5
#: The most an accretion disk ring deals: the ring next to the event horizon (ADV-BH-01).
INNER_RING_DAMAGE = 6
LEADING_FACINGS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Mine:
    """One mine of a scenario's minefield: its key ('2.1': feature 2, mine 1), place, owner."""

    key: str
    x: float
    y: float
    owner: str
    damage: int
    cloaked: bool


@dataclass(slots=True)
class TerrainState:
    """What the terrain module keeps during a battle (under battle.extensions['terrain'])."""

    mines: dict[str, Mine]
    #: mines gone off (the hex counts as clear, ADV-MINE-06)
    cleared: set[str] = field(default_factory=set)
    #: mines each side has found (ADV-MINE-03); a side always knows its own
    found: dict[str, set[str]] = field(default_factory=lambda: {"A": set(), "B": set()})
    #: (ship, mine) -> (phases the ship has stayed in the mined hex, the facing that entered)
    inside: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    #: where each ship was at the last terrain check (to see what it passed through)
    last: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: sides whose every ship is in a nebula and failed this phase's sensing (ADV-NEB-02)
    blind: set[str] = field(default_factory=set)


def mines_of(scenario: Scenario) -> dict[str, Mine]:
    """Every mine the scenario lays, by key."""
    out: dict[str, Mine] = {}
    for number, t in enumerate(scenario.terrain, start=1):
        if isinstance(t, Minefield):
            for k, (x, y) in enumerate(t.mines, start=1):
                key = f"{number}.{k}"
                out[key] = Mine(key, x, y, t.owner, t.damage, bool(t.cloaked))
    return out


def terrain_of(battle: Battle) -> TerrainState | None:
    """The battle's terrain state, when the module plays an advanced battle."""
    found = battle.extensions.get(STATE_KEY)
    return terrain_for(found) if isinstance(found, AdvancedState) else None


# --- geometry in hexes (GUIDE 4) ---------------------------------------------------------------


def storm_advance(storm: IonStorm, hex_cm: int, turn: int, phase: int) -> float:
    """How far (cm) an ion storm's front has moved by the end of `phase` of `turn`
    (ADV-ION-01: a steady speed a game turn, set by the scenario)."""
    return storm.speed_hexes * hex_cm * ((turn - 1) + phase / PHASES)


def disk_depth(hole: BlackHole, hex_cm: int, x: float, y: float) -> int:
    """The accretion disk ring a point is in: 1 outermost to `rings` next to the event horizon;
    0 outside the disk, rings + 1 at or inside the event horizon."""
    r = hole.distance(x, y)
    if r <= hole.horizon_cm:
        return hole.rings + 1
    outer = hole.horizon_cm + hole.rings * hex_cm
    if r > outer:
        return 0
    return min(hole.rings, max(1, math.ceil((outer - r) / hex_cm)))


def ring_damage(hole: BlackHole, depth: int) -> int:
    """Superstructure a disk ring deals a phase: its depth, and 6 next to the horizon
    (ADV-BH-01)."""
    return INNER_RING_DAMAGE if depth >= hole.rings else depth


def giant_layer(giant: GasGiant, hex_cm: int, x: float, y: float) -> int:
    """A gas giant's layer at a point: 0 outside, 1 the outer atmosphere (the outermost hex
    ring), 2 one hex deeper, 3 deeper still, 4 the solid core hex (ADV-GG-01, ADV-GG-02,
    ADV-GG-03)."""
    d = giant.distance(x, y) / hex_cm
    if d <= 0.5:
        return 4
    if d > giant.radius_hexes:
        return 0
    if d > giant.radius_hexes - 1:
        return 1
    if d > giant.radius_hexes - 2:
        return 2
    return 3


def orbit_band(
    feature: Planet | Moon | GasGiant | BlackHole, hex_cm: int
) -> tuple[float, float] | None:
    """The (inner, outer) radius in cm of a feature's standard orbit: the hex next to a moon or
    planet, 2 hexes out for a gas giant, the hex next to a black hole's disk (ADV-ORB-02)."""
    if isinstance(feature, Planet | Moon):
        return feature.radius_cm, feature.radius_cm + hex_cm
    if isinstance(feature, GasGiant):
        return (feature.radius_hexes + 1) * hex_cm, (feature.radius_hexes + 2) * hex_cm
    outer = feature.horizon_cm + feature.rings * hex_cm
    return outer, outer + hex_cm


def segment_gap(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Shortest distance from the point P to the segment AB."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def surroundings(
    scenario: Scenario, hex_cm: int, turn: int, phase: int, adv: AdvShip, orbiting: bool
) -> Surroundings:
    """What the terrain does to a ship where it is now (`orbiting`: it bought no movement this
    turn, so a ship in an orbit band is in standard orbit, ADV-ORB-01)."""
    x, y = adv.ship.x, adv.ship.y
    nebula = storm = pull = False
    disk = layer = 0
    orbit = -1
    for index, t in enumerate(scenario.terrain):
        if isinstance(t, Nebula):
            nebula = nebula or t.contains(x, y)
        elif isinstance(t, IonStorm):
            storm = storm or t.covers(x, y, storm_advance(t, hex_cm, turn, phase))
        elif isinstance(t, BlackHole):
            disk = max(disk, min(t.rings, disk_depth(t, hex_cm, x, y)))
        elif isinstance(t, GasGiant):
            layer = max(layer, min(3, giant_layer(t, hex_cm, x, y)))
        elif isinstance(t, Magnetar):
            pull = pull or t.distance(x, y) <= t.reach_hexes * hex_cm
        if orbiting and orbit < 0 and isinstance(t, Planet | Moon | GasGiant | BlackHole):
            band = orbit_band(t, hex_cm)
            if band is not None and band[0] < t.distance(x, y) <= band[1]:
                orbit = index
    return Surroundings(nebula, storm, disk, layer, pull and adv.shields_up, orbit)


def deadly(scenario: Scenario, hex_cm: int, x: float, y: float) -> str:
    """What destroys a ship at (x, y) outright, or '': an event horizon (ADV-BH-09), a neutron
    star's or magnetar's hex (ADV-NS-01), a gas giant's core (ADV-GG-03)."""
    for t in scenario.terrain:
        if isinstance(t, BlackHole) and t.distance(x, y) <= t.horizon_cm:
            return "the event horizon"
        if isinstance(t, NeutronStar | Magnetar) and t.distance(x, y) <= hex_cm / 2:
            return f"the {t.kind.replace('-', ' ')}"
        if isinstance(t, GasGiant) and giant_layer(t, hex_cm, x, y) == 4:
            return "the gas giant's core"
    return ""


def danger(scenario: Scenario, hex_cm: int, x: float, y: float, turn: int) -> float:
    """A rough cost of ending a move at (x, y), for captains that respect terrain: what would
    destroy the ship is very dear; disk rings, deep atmosphere and storms cost their damage."""
    if deadly(scenario, hex_cm, x, y):
        return 1000.0
    cost = 0.0
    for t in scenario.terrain:
        if isinstance(t, BlackHole):
            depth = disk_depth(t, hex_cm, x, y)
            if depth:
                cost += 5.0 * ring_damage(t, depth) + 5.0
        elif isinstance(t, GasGiant):
            layer = giant_layer(t, hex_cm, x, y)
            if layer >= 2:
                cost += 3.0 * PRESSURE[min(3, layer)] * len(LEADING_FACINGS)
        elif isinstance(t, IonStorm) and t.covers(x, y, storm_advance(t, hex_cm, turn, PHASES)):
            cost += 6.0
        elif isinstance(t, Minefield):
            for mx, my in t.mines:
                if math.hypot(mx - x, my - y) <= hex_cm:
                    cost += 2.0 * t.damage
        elif isinstance(t, Magnetar) and t.distance(x, y) <= t.reach_hexes * hex_cm:
            cost += 2.0
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


# --- the one door for terrain damage ---------------------------------------------------------


def strike(battle: Battle, adv: AdvShip, source: str, facing: int, damage: int) -> None:
    """Terrain deals `damage` to a facing (its shields, if up and working, absorb first) or,
    with facing 0, straight to the superstructure; a ship brought to 0 is destroyed."""
    if not adv.alive or damage <= 0:
        return
    ship = adv.ship
    reinf = base = absorbed = 0
    if facing:
        reinf, base = adv.reinforcement[facing - 1], adv.base[facing - 1]
        if adv.shielded:
            from_reinf = min(reinf, damage)
            from_base = min(base, damage - from_reinf)
            reinf, base = reinf - from_reinf, base - from_base
            absorbed = from_reinf + from_base
    left = ship.superstructure - (damage - absorbed)
    battle.record(TerrainDamage(adv.id, source, facing, damage, absorbed, base, reinf, left))
    if ship.superstructure <= 0 and ship.alive:
        rules_of(battle).destroyed(battle, ship, None)


def shift(battle: Battle, adv: AdvShip, cause: str, x: float, y: float) -> None:
    """Terrain moves a ship to (x, y) (a drag, a pull, an orbit), logged as a move too."""
    ship = adv.ship
    start = [ship.x, ship.y]
    battle.record(TerrainMoved(adv.id, cause, round(x, 3), round(y, 3)))
    battle.log.record(
        ev.ShipMoved, ship.id, [start, [ship.x, ship.y]], ship.heading, ship.speed, 0.0
    )


def toward(adv: AdvShip, cx: float, cy: float, cm: float) -> tuple[float, float]:
    """The point `cm` from the ship toward (cx, cy) (never past it)."""
    x, y = adv.ship.x, adv.ship.y
    d = math.hypot(cx - x, cy - y)
    if d <= cm or d == 0:
        return cx, cy
    return x + (cx - x) * cm / d, y + (cy - y) * cm / d


class Terrain(AdvancedModule):
    """The battlefield's own rules in the advanced game (docs/rules.md under each clause id)."""

    name = "adv-terrain"
    clauses = (
        "ADV-NEB-01",
        "ADV-NEB-02",
        "ADV-NEB-03",
        "ADV-NEB-04",
        "ADV-NEB-05",
        "ADV-ION-01",
        "ADV-ION-02",
        "ADV-ION-03",
        "ADV-MINE-01",
        "ADV-MINE-03",
        "ADV-MINE-04",
        "ADV-MINE-05",
        "ADV-MINE-06",
        "ADV-MINE-07",
        "ADV-MINE-08",
        "ADV-BH-01",
        "ADV-BH-02",
        "ADV-BH-03",
        "ADV-BH-04",
        "ADV-BH-05",
        "ADV-BH-06",
        "ADV-BH-07",
        "ADV-BH-09",
        "ADV-NS-01",
        "ADV-MAG-01",
        "ADV-GG-01",
        "ADV-GG-02",
        "ADV-GG-03",
        "ADV-GG-04",
        "ADV-GG-05",
        "ADV-ORB-01",
        "ADV-ORB-02",
    )
    summary = (
        "Advanced terrain: the scenario's nebulae, ion storms, minefields, black holes, neutron "
        "stars, magnetars and gas giants act on ships; planets, moons, gas giants and black "
        "holes can be orbited."
    )

    # --- set-up and movement ------------------------------------------------------------------

    def adv_turn_start(self, battle: Battle, state: AdvancedState) -> None:
        if state.terrain is None:
            t = TerrainState(mines_of(battle.scenario))
            t.last = {a.id: (a.ship.x, a.ship.y) for a in state.ships.values()}
            state.terrain = t

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Iterator[Decision]:
        t = terrain_of(battle)
        assert t is not None
        scenario = battle.scenario
        for adv in list(state.ships.values()):
            if not adv.alive:
                continue
            if adv.moves == 0 and adv.around.orbit >= 0:
                self._orbit(battle, state, adv)  # ADV-ORB-01: 1 hex a phase, for free
            self._settle(battle, state, adv, phase)
            doom = deadly(scenario, state.hex_cm, adv.ship.x, adv.ship.y)
            if doom and adv.alive:  # ADV-BH-09, ADV-NS-01, ADV-GG-03
                strike(battle, adv, doom, 0, adv.ship.superstructure)
            if adv.alive:
                self._mines(battle, state, t, adv)
            t.last[adv.id] = (adv.ship.x, adv.ship.y)
        self._sensing(battle, state, t)
        yield from ()

    def _settle(self, battle: Battle, state: AdvancedState, adv: AdvShip, phase: int) -> None:
        """Work out the ship's surroundings; on a change, record it and apply what follows:
        locks and cloaks fail in a nebula (ADV-NEB-03, ADV-NEB-04), a disk (ADV-BH-07) and an
        atmosphere (ADV-GG-04, ADV-GG-05)."""
        now = surroundings(
            battle.scenario, state.hex_cm, battle.turn, phase, adv, orbiting=adv.moves == 0
        )
        if now == adv.around:
            return
        battle.record(
            SurroundingsChanged(
                adv.id, now.nebula, now.storm, now.disk, now.layer, now.pull, now.orbit
            )
        )
        if now.no_lock:
            lose_lock(battle, adv, now.no_lock)
            for e in state.ships.values():
                if e.lock == adv.id:
                    lose_lock(battle, e, f"target {now.no_lock.removeprefix('no lock holds ')}")
        if now.no_cloak and adv.cloaked:
            cloak.disengage(battle, state, adv, now.no_cloak)

    def _orbit(self, battle: Battle, state: AdvancedState, adv: AdvShip) -> None:
        """One hex along the orbit, counter-clockwise (ADV-ORB-01)."""
        feature = battle.scenario.terrain[adv.around.orbit]
        if not isinstance(feature, Planet | Moon | GasGiant | BlackHole):
            return
        x, y = adv.ship.x, adv.ship.y
        r = feature.distance(x, y)
        if r == 0:
            return
        angle = math.atan2(y - feature.y, x - feature.x) + state.hex_cm / r
        shift(
            battle,
            adv,
            "standard orbit",
            feature.x + r * math.cos(angle),
            feature.y + r * math.sin(angle),
        )

    # --- mines ----------------------------------------------------------------------------------

    def _mines(self, battle: Battle, state: AdvancedState, t: TerrainState, adv: AdvShip) -> None:
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

    # --- sensing in a nebula (ADV-NEB-02) ---------------------------------------------------------

    def _sensing(self, battle: Battle, state: AdvancedState, t: TerrainState) -> None:
        """Each ship in a nebula rolls to see other ships this phase; a side all of whose ships
        are in nebulae and all failed sees no enemy beyond 1 hex."""
        t.blind.clear()
        for side in ("A", "B"):
            ships = state.side(side)
            if not ships or not all(a.around.nebula for a in ships):
                continue
            sees = False
            for a in ships:
                needed = sensing_number(0)
                roll = battle.dice.d10()
                ok = roll < needed
                battle.log.record(TerrainCheck, a.id, "nebula sensing d10", roll, needed, ok)
                sees = sees or ok
            if not sees:
                t.blind.add(side)

    def hides(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        near = state.hex_cm + 1e-6
        close = any(
            math.hypot(a.ship.x - ship.ship.x, a.ship.y - ship.ship.y) <= near
            for a in state.side(side)
        )
        if close:
            return False
        if ship.around.layer:  # movement in an atmosphere is the referee's (ADV-GG-04)
            return True
        t = terrain_for(state)
        return t is not None and side in t.blind

    # --- fire -----------------------------------------------------------------------------------

    def to_hit_penalty(self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon) -> int:
        penalty = ship.around.disk  # gravitational eddies: +1 per hex of depth (ADV-BH-04)
        if ship.around.layer and not weapon.beam:
            penalty += ATMOSPHERE_TORPEDO_PENALTY  # ADV-GG-01
        return penalty

    def terrain_damage(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, damage: int
    ) -> int:
        if weapon.beam and ship.around.disk:
            damage += 2 * ship.around.disk  # the disk's charging effect (ADV-BH-05)
        if not weapon.beam and ship.around.layer:
            if weapon.kind is AdvWeaponKind.PLASMA:
                damage //= 2  # ADV-GG-05
            else:
                damage = int(damage * TORPEDO_FACTOR[ship.around.layer])  # ADV-GG-01, ADV-GG-02
        return damage

    # --- the end of a phase: storms, disks, pressure, drag and pull -----------------------------

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        scenario = battle.scenario
        hex_cm = state.hex_cm
        for adv in list(state.ships.values()):
            if not adv.alive:
                continue
            self._settle(battle, state, adv, phase)  # the storm front moved (ADV-ION-01)
            x, y = adv.ship.x, adv.ship.y
            for f in scenario.terrain:
                if not adv.alive:
                    break
                if isinstance(f, IonStorm):
                    self._storm(battle, state, adv, f, phase)
                elif isinstance(f, BlackHole):
                    self._disk(battle, state, adv, f)
                elif isinstance(f, GasGiant):
                    layer = min(3, giant_layer(f, hex_cm, x, y))
                    if layer and adv.moved_last:  # pressure on the leading facings
                        for facing in LEADING_FACINGS:  # ADV-GG-01, ADV-GG-02
                            strike(battle, adv, "atmospheric pressure", facing, PRESSURE[layer])
                elif isinstance(f, Magnetar):
                    reach = f.reach_hexes * hex_cm
                    if f.distance(x, y) <= reach and not adv.shields_up:  # ADV-MAG-01
                        shift(battle, adv, "the magnetar's pull", *toward(adv, f.x, f.y, hex_cm))
            if adv.alive:
                doom = deadly(scenario, hex_cm, adv.ship.x, adv.ship.y)
                if doom:
                    strike(battle, adv, doom, 0, adv.ship.superstructure)
        t = terrain_of(battle)
        if t is not None:
            t.last = {a.id: (a.ship.x, a.ship.y) for a in state.ships.values()}

    def _storm(
        self, battle: Battle, state: AdvancedState, adv: AdvShip, storm: IonStorm, phase: int
    ) -> None:
        """1 damage a phase on every facing touching the storm: all six inside it, the facing
        toward it within half a hex of its front (ADV-ION-02)."""
        advance = storm_advance(storm, state.hex_cm, battle.turn, phase)
        x, y = adv.ship.x, adv.ship.y
        if storm.covers(x, y, advance):
            for facing in range(1, 7):
                strike(battle, adv, "the ion storm", facing, 1)
            return
        gap = storm.offset(x, y) - advance
        if 0 < gap <= state.hex_cm / 2:
            dx, dy = storm.direction()
            facing = facing_toward(x, y, adv.ship.heading, x - dx * gap, y - dy * gap)
            strike(battle, adv, "the ion storm", facing, 1)

    def _disk(self, battle: Battle, state: AdvancedState, adv: AdvShip, hole: BlackHole) -> None:
        """Ring damage (ADV-BH-01), debris (ADV-BH-02) and the drag inward (ADV-BH-03)."""
        depth = disk_depth(hole, state.hex_cm, adv.ship.x, adv.ship.y)
        if not depth or depth > hole.rings:
            return
        strike(battle, adv, f"accretion disk ring {depth}", 0, ring_damage(hole, depth))
        if not adv.alive:
            return
        result = check(battle.dice, adv.rating("helm", "helm_ops"), adv.penalty)
        battle.log.record(
            TerrainCheck,
            adv.id,
            "disk debris Helm Ops",
            result.roll + result.modifier,
            result.rating,
            result.outcome.passed,
        )
        if not result.outcome.passed:
            facing, amount = battle.dice.d6(), battle.dice.d(3)
            strike(battle, adv, "disk debris", facing, amount)
        # holding against the well costs `depth` extra hexes a phase; a ship that did not
        # move that far this phase is dragged one hex inward
        if adv.alive and allowance_used(adv) < depth:
            shift(battle, adv, "the black hole's drag", *toward(adv, hole.x, hole.y, state.hex_cm))


def allowance_used(adv: AdvShip) -> int:
    """Hexes the ship moved this phase (the whole of its phase share when it moved)."""
    if not adv.moved_last:
        return 0
    return max(1, adv.moves // PHASES)


def sensing_number(power: int) -> int:
    """The d10 a ship in a nebula must roll under to see other ships, with `power` put into
    sensors (ADV-NEB-02)."""
    for needed_power, number in SENSING_BOOSTS:
        if power >= needed_power:
            return number
    return SENSING


def terrain_for(state: AdvancedState) -> TerrainState | None:
    """The terrain state kept beside an advanced state (set when the first turn starts)."""
    return state.terrain if isinstance(state.terrain, TerrainState) else None


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
