"""The module adv-terrain: it puts the groups of terrain rules together (one file a group in
this package) and hooks them into the advanced game's steps.

After each phase's movement the module works out every ship's surroundings (`Surroundings`,
recorded by a SurroundingsChanged change) and the core reads them: no locks, cloaks, shields or
torpedoes where the terrain forbids them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kolrami.catalog.advanced import AdvWeapon
from kolrami.rules.advanced import cloak
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.officers import lose_lock
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import LayDecision
from kolrami.rules.advanced.orders import LayOrder
from kolrami.rules.advanced.orders import mine_target
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.state import Surroundings
from kolrami.rules.advanced.state import on_decision
from kolrami.rules.advanced.state import state_of
from kolrami.rules.advanced.terrain import black_hole
from kolrami.rules.advanced.terrain import gas_giant
from kolrami.rules.advanced.terrain import ion
from kolrami.rules.advanced.terrain import magnetar
from kolrami.rules.advanced.terrain import mines
from kolrami.rules.advanced.terrain import nebula
from kolrami.rules.advanced.terrain import neutron
from kolrami.rules.advanced.terrain import orbit
from kolrami.rules.advanced.terrain.common import TerrainState
from kolrami.rules.advanced.terrain.common import strike
from kolrami.rules.advanced.terrain.common import terrain_for
from kolrami.rules.advanced.terrain.common import terrain_of
from kolrami.rules.advanced.terrain_events import SurroundingsChanged
from kolrami.rules.steps import Asked
from kolrami.rules.steps import Each
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import GasGiant
from kolrami.scenarios.models import IonStorm
from kolrami.scenarios.models import Magnetar
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import Moon
from kolrami.scenarios.models import Nebula
from kolrami.scenarios.models import NeutronStar
from kolrami.scenarios.models import Planet
from kolrami.scenarios.models import Scenario

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.step import Step


def surroundings(
    scenario: Scenario,
    hex_cm: int,
    turn: int,
    phase: int,
    adv: AdvShip,
    orbiting: bool,
    bands: bool = False,
) -> Surroundings:
    """What the terrain does to a ship where it is now (`orbiting`: it bought no movement this
    turn, so a ship in an orbit band is in standard orbit; `bands`: the magnetar's optional
    distance bands are on)."""
    x, y = adv.ship.x, adv.ship.y
    inside = storm = pull = False
    disk = layer = 0
    band = -1
    for index, t in enumerate(scenario.terrain):
        if isinstance(t, Nebula):
            inside = inside or nebula.in_nebula(t, x, y)
        elif isinstance(t, IonStorm):
            storm = storm or t.covers(x, y, ion.storm_advance(t, hex_cm, turn, phase))
        elif isinstance(t, BlackHole):
            disk = max(disk, min(t.rings, black_hole.disk_depth(t, hex_cm, x, y)))
        elif isinstance(t, GasGiant):
            layer = max(layer, min(3, gas_giant.giant_layer(t, hex_cm, x, y)))
        elif isinstance(t, Magnetar):
            pull = pull or magnetar.acts(t, hex_cm, x, y, turn, phase, bands)
        features = Planet | Moon | GasGiant | BlackHole
        if orbiting and band < 0 and isinstance(t, features) and orbit.in_band(t, hex_cm, x, y):
            band = index
    return Surroundings(inside, storm, disk, layer, pull and adv.shields_up, band)


def deadly(scenario: Scenario, hex_cm: int, x: float, y: float) -> str:
    """What destroys a ship at (x, y) outright, or '': an event horizon, a neutron star's or
    magnetar's hex, a gas giant's core."""
    for t in scenario.terrain:
        if isinstance(t, BlackHole) and black_hole.beyond_horizon(t, x, y):
            return "the event horizon"
        if isinstance(t, NeutronStar | Magnetar) and neutron.in_star_hex(t, hex_cm, x, y):
            return f"the {t.kind.replace('-', ' ')}"
        if isinstance(t, GasGiant) and gas_giant.in_core(t, hex_cm, x, y):
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
            cost += black_hole.disk_cost(t, hex_cm, x, y)
        elif isinstance(t, GasGiant):
            cost += gas_giant.layer_cost(t, hex_cm, x, y)
        elif isinstance(t, IonStorm) and t.covers(x, y, ion.storm_advance(t, hex_cm, turn, PHASES)):
            cost += 6.0
        elif isinstance(t, Minefield):
            cost += mines.mine_cost(t, hex_cm, x, y)
        elif isinstance(t, Magnetar) and magnetar.in_reach(t, hex_cm, x, y):
            cost += 2.0
    return cost


class Terrain(AdvancedModule):
    """The battlefield's own rules in the advanced game (docs/rules.md under each clause id)."""

    name = "adv-terrain"
    clauses = (
        nebula.CLAUSES
        + ion.CLAUSES
        + mines.CLAUSES
        + black_hole.CLAUSES
        + neutron.CLAUSES
        + magnetar.CLAUSES
        + gas_giant.CLAUSES
        + orbit.CLAUSES
    )
    summary = (
        "Advanced terrain: the scenario's nebulae, ion storms, minefields, black holes, neutron "
        "stars, magnetars and gas giants act on ships; planets, moons, gas giants and black "
        "holes can be orbited."
    )

    # --- set-up and movement ------------------------------------------------------------------

    def adv_turn_start(self, battle: Battle, state: AdvancedState) -> None:
        if state.terrain is None:
            t = TerrainState(mines.mines_of(battle.scenario))
            t.last = {a.id: (a.ship.x, a.ship.y) for a in state.ships.values()}
            state.terrain = t

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        t = terrain_of(battle)
        assert t is not None
        scenario = battle.scenario
        for adv in list(state.ships.values()):
            if not adv.alive:
                continue
            if adv.moves == 0 and adv.around.orbit >= 0:
                orbit.orbit(battle, state, adv, scenario)
            self._settle(battle, state, adv, phase)
            doom = deadly(scenario, state.hex_cm, adv.ship.x, adv.ship.y)
            if doom and adv.alive and not self._escapes(battle, state, adv, doom):
                strike(battle, adv, doom, 0, adv.ship.superstructure)
            if adv.alive:
                mines.check_mines(battle, state, t, adv)
            t.last[adv.id] = (adv.ship.x, adv.ship.y)
        nebula.sense(battle, state, t)
        t.laying.clear()
        if any(isinstance(f, Minefield) and f.lay_area for f in scenario.terrain):
            return (Each(_LAY.at(phase), sides),)  # ADV-MINE-02: only where the scenario allows
        return ()

    def _escapes(self, battle: Battle, state: AdvancedState, adv: AdvShip, doom: str) -> bool:
        """With the option adv-bh-escapes, a ship at an event horizon tries its one clever
        escape of the battle (ADV-BH-10); True when it got away."""
        t = terrain_for(state)
        if black_hole.ESCAPES_MODULE not in state.rules.names or t is None:
            return False
        if doom != "the event horizon" or adv.id in t.escaped:
            return False
        hole = next(
            f
            for f in battle.scenario.terrain
            if isinstance(f, BlackHole) and black_hole.beyond_horizon(f, adv.ship.x, adv.ship.y)
        )
        t.escaped.add(adv.id)
        return black_hole.try_escape(battle, state, adv, hole)

    def object_problem(
        self, state: AdvancedState, ship: AdvShip, weapons: tuple[int, ...], target: str
    ) -> str | None:
        t = terrain_for(state)
        key = mine_target(target)
        if t is None or key is None:
            return f"there is no '{target}' on the table"
        return mines.mine_shot_problem(state, t, ship, weapons, key)

    def fire_at_object(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, attack: Attack
    ) -> None:
        t = terrain_for(state)
        if t is not None and mine_target(attack.target) is not None:
            mines.shoot_mine(battle, state, t, ship, attack)

    def fire_barred(self, state: AdvancedState, ship: AdvShip) -> bool:
        t = terrain_for(state)
        return t is not None and ship.id in t.laying  # laying a mine (ADV-MINE-02)

    def _settle(self, battle: Battle, state: AdvancedState, adv: AdvShip, phase: int) -> None:
        """Work out the ship's surroundings; on a change, record it and apply what follows:
        locks and cloaks fail in a nebula, a disk and an atmosphere."""
        now = surroundings(
            battle.scenario,
            state.hex_cm,
            battle.turn,
            phase,
            adv,
            orbiting=adv.moves == 0,
            bands=magnetar.BANDS_MODULE in state.rules.names,
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

    def hides(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        near = state.hex_cm + 1e-6
        close = any(
            math.hypot(a.ship.x - ship.ship.x, a.ship.y - ship.ship.y) <= near
            for a in state.side(side)
        )
        if close:
            return False
        if gas_giant.hidden(ship):
            return True
        t = terrain_for(state)
        return t is not None and side in t.blind

    # --- fire -----------------------------------------------------------------------------------

    def to_hit_penalty(self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon) -> int:
        return black_hole.to_hit_penalty(ship) + gas_giant.to_hit_penalty(ship, weapon)

    def terrain_damage(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, damage: int
    ) -> int:
        if weapon.beam and ship.around.disk:
            damage += black_hole.beam_bonus(ship)
        return gas_giant.torpedo_damage(ship, weapon, damage)

    # --- the end of a phase: storms, disks, pressure, drag and pull -----------------------------

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        scenario = battle.scenario
        hex_cm = state.hex_cm
        for adv in list(state.ships.values()):
            if not adv.alive:
                continue
            self._settle(battle, state, adv, phase)  # the storm front moved
            x, y = adv.ship.x, adv.ship.y
            for f in scenario.terrain:
                if not adv.alive:
                    break
                if isinstance(f, IonStorm):
                    ion.storm_damage(battle, state, adv, f, phase)
                elif isinstance(f, BlackHole):
                    black_hole.disk_effects(battle, state, adv, f)
                elif isinstance(f, GasGiant):
                    gas_giant.pressure(battle, adv, f, hex_cm, x, y)
                elif isinstance(f, Magnetar):
                    magnetar.pull(battle, state, adv, f, phase, x, y)
            if adv.alive:
                doom = deadly(scenario, hex_cm, adv.ship.x, adv.ship.y)
                if doom and not self._escapes(battle, state, adv, doom):
                    strike(battle, adv, doom, 0, adv.ship.superstructure)
        t = terrain_of(battle)
        if t is not None:
            mines.firing_mines_fire(battle, state, t)  # ADV-MINE-09
            t.last = {a.id: (a.ship.x, a.ship.y) for a in state.ships.values()}


class MagnetarBands(AdvancedModule):
    """ADV-MAG-02 (optional): a magnetar's effect in thirds by distance (docs/rules.md)."""

    name = magnetar.BANDS_MODULE
    clauses = magnetar.BAND_CLAUSES
    summary = (
        "Advanced terrain option: a magnetar acts in thirds by distance: every phase within "
        "the nearest third of its reach, two phases of three in the middle third, one in the "
        "outer third (with adv-terrain)."
    )


class BlackHoleEscapes(AdvancedModule):
    """ADV-BH-10 (optional): a ship reaching an event horizon tries one clever escape."""

    name = black_hole.ESCAPES_MODULE
    clauses = black_hole.ESCAPE_CLAUSES
    summary = (
        "Advanced terrain option: a ship reaching a black hole's event horizon tries one "
        "clever escape a battle (a Helm Ops check) and skips off it at warp on a pass (with "
        "adv-terrain)."
    )


def _ask_lay(battle: Battle, side: str, phase: int) -> LayDecision | None:
    """A side's minelayers may lay mines where the scenario lets them (ADV-MINE-02)."""
    t = terrain_of(battle)
    assert t is not None
    ships = mines.may_lay(battle.scenario, state_of(battle), t, side)
    return LayDecision(side, phase, ships) if ships else None


def _lay(battle: Battle, decision: LayDecision, order: LayOrder) -> None:
    state = state_of(battle)
    t = terrain_of(battle)
    assert t is not None
    for sid in order.ships:
        mines.lay(battle, state, t, state.of(sid))


_LAY = Asked(LayDecision, LayOrder, "LAY", _ask_lay, on_decision(mines.verify_lay), _lay)
