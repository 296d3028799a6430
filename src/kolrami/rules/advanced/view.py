"""What one side may know of the advanced game (ADV-SENS-03).

Its own ships in full; an enemy's advanced state (shields per facing, power, damage, crew) only
while one of its ships holds a sensor lock on it, as the locked ship's sheet is handed to the
sensing player. Otherwise only the enemy's printed advanced sheet is known. Captains get it from
`BattleView.advanced()`; they read it and never change what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kolrami.catalog.advanced import AdvancedSheet
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced import officers
from kolrami.rules.advanced import power
from kolrami.rules.advanced.field_events import Probe
from kolrami.rules.advanced.field_events import Web
from kolrami.rules.advanced.field_events import comms_of
from kolrami.rules.advanced.field_events import probes_of
from kolrami.rules.advanced.field_events import webs_of
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.state import allowance
from kolrami.rules.advanced.state import state_of
from kolrami.rules.advanced.tactics_events import TacticsState
from kolrami.rules.advanced.terrain.common import terrain_for

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState


@dataclass(frozen=True, slots=True)
class Contact:
    """What every player knows of a ship: the model on the table and its printed advanced
    sheet; `known` is its full advanced state when this side may see it (ADV-SENS-03)."""

    ship: ShipState
    sheet: AdvancedSheet
    known: AdvShip | None

    @property
    def id(self) -> str:
        """The ship id."""
        return self.ship.id


class AdvancedView:
    """One side's window on the advanced state."""

    __slots__ = ("_battle", "_state", "side")

    def __init__(self, battle: Battle, side: str) -> None:
        self._battle = battle
        self._state: AdvancedState = state_of(battle)
        self.side = side

    @property
    def tactical_advantage(self) -> str:
        """The side holding Tactical Advantage this turn."""
        return self._state.tac

    @property
    def phase(self) -> int:
        """The phase (1-5) being played; 0 before the first."""
        return self._state.phase

    @property
    def hex_cm(self) -> int:
        """Centimetres in a hex."""
        return self._state.hex_cm

    def own(self) -> list[AdvShip]:
        """This side's ships in play."""
        return self._state.side(self.side)

    def locked(self, ship_id: str) -> bool:
        """Whether one of this side's ships holds a sensor lock on `ship_id`."""
        return any(a.lock == ship_id and a.sensors_ok for a in self._state.side(self.side))

    def sees(self, ship_id: str) -> bool:
        """Whether this side sees the ship on the table (cloaked enemies it does not, unless
        pinged or revealed: ADV-CLOAK-03, ADV-CLOAK-04, ADV-CLOAK-06, ADV-CLOAK-08)."""
        adv = self._state.ships[ship_id]
        return adv.side == self.side or self._state.rules.visible(self._state, self.side, adv)

    def ship(self, ship_id: str) -> AdvShip:
        """A ship's full advanced state: own ships, and enemies under sensor lock that are not
        cloaked (a cloaked ship hands over no sheet, ADV-SENS-03)."""
        adv = self._state.ships[ship_id]
        if adv.side != self.side and (not self.locked(ship_id) or adv.hidden):
            raise KeyError(ship_id)
        return adv

    def known(self, ship_id: str) -> AdvShip | None:
        """The ship's advanced state if this side may see it, else None."""
        try:
            return self.ship(ship_id)
        except KeyError:
            return None

    def contact(self, ship_id: str) -> Contact:
        """What this side knows of a ship it sees (KeyError for a cloaked ship it does not)."""
        adv = self._state.ships[ship_id]
        if not self.sees(ship_id):
            raise KeyError(ship_id)
        return Contact(adv.ship, adv.sheet, self.known(ship_id))

    def unseen(self) -> list[str]:
        """Enemy ships in play that this side cannot see now (cloaked): their ids only."""
        return [
            a.id
            for a in self._state.ships.values()
            if a.side != self.side and a.alive and not self.sees(a.id)
        ]

    def lock_targets(self, ship_id: str) -> list[str]:
        """Enemies one of this side's ships may name for a lock (cloaked ones need a search)."""
        adv = self.ship(ship_id)
        rules = self._state.rules
        return [
            e.id
            for e in self._state.ships.values()
            if e.side != self.side and rules.lock_allowed(self._state, adv, e)
        ]

    def search_problem(self, ship_id: str, facing: int) -> str | None:
        """Why one of this side's ships may not search a facing for a cloaked ship, or None."""
        return self._state.rules.search_problem(self._state, self.ship(ship_id), facing)

    def cloak_problem(self, ship_id: str) -> str | None:
        """Why one of this side's ships may not engage a cloak, or None."""
        return self._state.rules.cloak_problem(self._state, self.ship(ship_id))

    def speed_limit(self, ship_id: str) -> int | None:
        """Most hexes the ship may buy this turn (None: no limit; ADV-OFF-10)."""
        return self._state.rules.speed_limit(self._state, self.ship(ship_id))

    def point_problem(self, ship_id: str, weapon: int, x: int, y: int) -> str | None:
        """Why the ship cannot fire a dispersal torpedo from `weapon` at (x, y) now, or None."""
        return combat.point_attack_problem(self._state, self.ship(ship_id), (weapon,), (x, y))

    def decoded(self) -> dict[str, PowerPlan]:
        """The enemy's power plans this turn, when this side has decoded their traffic
        (ADV-OFF-12); empty otherwise or before they are made."""
        if not any(a.decoded for a in self._state.side(self.side)):
            return {}
        return {
            a.id: a.plan
            for a in self._state.ships.values()
            if a.side != self.side and a.alive and a.plan is not None
        }

    def contacts(self) -> list[Contact]:
        """The enemy ships in play, as this side knows them."""
        return [
            self.contact(a.id)
            for a in self._state.ships.values()
            if a.side != self.side and a.alive and self._battle.visible(self.side, a.ship)
        ]

    def sheet(self, ship_id: str) -> AdvancedSheet:
        """Any ship's printed advanced sheet (what every player knows)."""
        return self._state.ships[ship_id].sheet

    def facing_points(self, ship_id: str, facing: int) -> int:
        """A facing's shield points: exact when known, else the sheet's full value."""
        adv = self.known(ship_id)
        if adv is None:
            return self.sheet(ship_id).shield_points
        if not adv.shielded and adv.plan is not None:
            return 0
        return adv.base[facing - 1] + adv.reinforcement[facing - 1]

    def attacks_at(self, ship_id: str) -> list[Attack]:
        """The attacks declared at one of this side's ships this phase (to decide on evasion)."""
        if self._state.ships[ship_id].side != self.side:
            raise KeyError(ship_id)
        return [a for a in self._state.attacks if a.target == ship_id]

    def declared(self) -> list[Attack]:
        """Every attack declared so far this phase (declarations are open, ADV-SEQ-04)."""
        return list(self._state.attacks)

    def legal_attacks(self, ship_id: str) -> list[tuple[tuple[int, ...], str]]:
        """(weapons, target) pairs one of this side's ships could declare now."""
        return combat.legal_attacks(self._state, self.ship(ship_id))

    def targets_allowed(self, ship_id: str) -> int:
        """Targets the ship may engage this phase."""
        return combat.targets_allowed(self.ship(ship_id), self._state)

    def to_hit(self, ship_id: str, weapon: int, distance: float) -> int:
        """The to-hit number of one weapon at a distance (before modifiers)."""
        adv = self._state.ships[ship_id]
        return self._state.rules.to_hit_number(
            self._state, adv, adv.sheet.weapons[weapon], distance
        )

    def bonus_options(self, ship_id: str) -> dict[str, tuple[str, ...]]:
        """The bonus choices of each officer of one of this side's ships."""
        return officers.bonus_options(self._state, self.ship(ship_id))

    def plan_cost(self, plan: PowerPlan) -> int:
        """The power a plan needs."""
        return power.plan_cost(self.ship(plan.ship), plan)

    def plan_problem(self, plan: PowerPlan) -> str | None:
        """Why a power plan is illegal, or None (for AIs and UIs: `can`)."""
        try:
            power.verify_plan(self._state, self.ship(plan.ship), plan)
        except IllegalOrderError as exc:
            return str(exc)
        return None

    def reinforcement_cap(self, ship_id: str, facing: int, base: int) -> int:
        """Most reinforcement a facing may hold over `base` (0 without the option)."""
        return self._state.rules.reinforcement_cap(self._state, self.ship(ship_id), facing, base)

    def allowance(self, ship_id: str, phase: int) -> int:
        """Hexes the ship may move in `phase`."""
        return allowance(self.ship(ship_id), phase)

    def module_on(self, name: str) -> bool:
        """Whether the advanced module `name` plays this battle."""
        return name in self._state.rules.names

    def max_moves(self, ship_id: str) -> int:
        """Most hexes the ship may buy this turn (emergency warp with module adv-tactics)."""
        return self._state.rules.max_moves(self._state, self.ship(ship_id))

    def tactics(self) -> TacticsState | None:
        """Module adv-tactics' public state (beams, boarders, docks), or None without it."""
        found = self._state.tactics
        return found if isinstance(found, TacticsState) else None

    # --- webs, probes and jamming (modules adv-webs, adv-probes, adv-comms) -----------------------

    def probes(self) -> list[Probe]:
        """The probes on the table (every player sees the probes themselves)."""
        return [p for p in probes_of(self._state).probes.values() if p.alive]

    def webs(self) -> list[Web]:
        """The webs holding ships (in plain sight)."""
        return list(webs_of(self._state).webs.values())

    def jamming(self) -> dict[str, str]:
        """What this side's ships jam (jammer -> ship or probe id)."""
        mine = {a.id for a in self._state.ships.values() if a.side == self.side}
        return {j: t for j, t in comms_of(self._state).jams.items() if j in mine}

    # --- terrain (module adv-terrain) -----------------------------------------------------------

    def firing_mines(self) -> list[tuple[str, float, float]]:
        """(key, x, y) of each live enemy firing mine this side has found: what its ships may
        shoot at (ADV-MINE-09; a mine is known once found, ADV-MINE-03)."""
        t = terrain_for(self._state)
        if t is None:
            return []
        found = t.found[self.side]
        return [
            (m.key, m.x, m.y)
            for m in t.mines.values()
            if m.firing and m.owner != self.side and m.key in found and m.key not in t.cleared
        ]
