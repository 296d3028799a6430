"""The Captain protocol (GUIDE 3.9) and the view of the battle a captain is given (GUIDE 3.8).

A captain answers Decisions with Orders. It sees the battle through a BattleView of its own side:
its own ships in full, enemy ships as the rules let it see them (everything in FPF; cloaks and
mines will hide some). The view never exposes the battle's dice: a captain that wants chance
has its own generator.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Protocol

from kolrami.catalog.models import Arc, WeaponKind
from kolrami.engine.chance import Dice
from kolrami.engine.orders import (
    Decision,
    Order,
    RepairDecision,
    RepairOrder,
    ReturnDecision,
    ReturnOrder,
)
from kolrami.errors import UnknownNameError
from kolrami.rules.fpf.damage import penetrating_faces
from kolrami.rules.fpf.repairs import damaged_items

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, ShipState, SquadronState
    from kolrami.rules.advanced.view import AdvancedView
    from kolrami.scenarios.models import Scenario


class Captain(Protocol):
    """Anything that can answer a battle's decisions for one side."""

    name: str

    def decide(self, view: BattleView, decision: Decision) -> Order:
        """The order answering `decision`, given what `view` shows."""
        ...


class BattleView:
    """What one side may know of a battle. Read it; never change the objects it returns."""

    __slots__ = ("_battle", "enemy", "side")

    def __init__(self, battle: Battle, side: str) -> None:
        self._battle = battle
        self.side = side
        self.enemy = "B" if side == "A" else "A"

    @property
    def turn(self) -> int:
        """The current turn number."""
        return self._battle.turn

    @property
    def scenario(self) -> Scenario:
        """The scenario being played."""
        return self._battle.scenario

    def own_ships(self) -> list[ShipState]:
        """This side's ships in play."""
        return self._battle.side_ships(self.side)

    def enemies(self) -> list[ShipState]:
        """Enemy ships in play that this side can see."""
        return self._seen(self._battle.side_ships(self.enemy))

    def ship(self, ship_id: str) -> ShipState:
        """A ship by id (own, or a visible enemy)."""
        ship = self._battle.ships[ship_id]
        if ship.side != self.side and not self._battle.visible(self.side, ship):
            raise KeyError(ship_id)
        return ship

    def squadron(self, squadron_id: str) -> SquadronState:
        """A squadron by id."""
        return self._battle.squadrons[squadron_id]

    def members(self, squadron_id: str) -> list[ShipState]:
        """Ships of a squadron still in play (formation first)."""
        q = self._battle.squadrons[squadron_id]
        ships = self._battle.ships
        ids = q.formation + [s for s in q.ships if s not in q.formation]
        found = [s for sid in ids if (s := ships[sid]).alive]
        return self._seen(found)

    def _seen(self, ships: list[ShipState]) -> list[ShipState]:
        """The ships of `ships` this side can see (cloaked enemies it cannot are left out)."""
        b = self._battle
        if b.sight is None:  # nothing is hidden (FPF)
            return ships
        return [s for s in ships if b.visible(self.side, s)]

    def movers(self, squadron_id: str) -> list[str | None]:
        """Who needs a manoeuvre in a squadron's orders (None: the formation)."""
        return self._battle.movers(self._battle.squadrons[squadron_id])

    def firers(self, squadron_id: str) -> list[ShipState]:
        """Ships of a squadron able to fire."""
        return self._seen(self._battle.firers(self._battle.squadrons[squadron_id]))

    def speed_limits(self, mover: str | None, squadron_id: str, pivot: bool) -> tuple[int, int]:
        """Legal speeds for a mover (the formation when None)."""
        b = self._battle
        if mover is None:
            return b.formation_limits(b.squadrons[squadron_id], pivot)
        return b.speed_limits(self.ship(mover), pivot)

    def fires_as_unit(self) -> bool:
        """Whether a firing squadron must fire with every ship (FPF-FIRE-13)."""
        return self._battle.rules.squadron_fires_as_unit(self._battle)

    def mover_position(self, mover: str | None, squadron_id: str) -> ShipState:
        """The ship whose position a mover's manoeuvre starts from (KeyError for a hidden
        enemy)."""
        if mover is None:
            q = self._battle.squadrons[squadron_id]
            return self.ship(q.formation[0])
        return self.ship(mover)

    def obstacles(self) -> list[tuple[float, float, float]]:
        """(x, y, radius) circles a ship's centre cannot enter: planets grown by a base radius."""
        r = self._battle.scenario.base_radius_cm
        return [(t.x, t.y, t.radius_cm + r) for t in self._battle.blockers]

    def return_spots(self, ship_id: str) -> list[tuple[float, float]]:
        """Legal spots where a reset ship may return (Peak Performance, PP-11)."""
        from kolrami.rules.peak import return_spots

        return return_spots(self._battle, self._battle.ships[ship_id])

    def fleet_points(self) -> dict[str, int]:
        """Fleet Points so far, when the scenario scores them."""
        return dict(self._battle.fleet_points)

    def count_candidates(self, n: int) -> None:
        """Report manoeuvres evaluated (for benchmarks)."""
        self._battle.stats.candidates += n

    def advanced(self) -> AdvancedView:
        """The advanced game's part of the view (officers, power, shields, locks); only in a
        battle the advanced driver plays."""
        from kolrami.rules.advanced.view import AdvancedView

        return AdvancedView(self._battle, self.side)


def expected_volley(ship: ShipState, kind: WeaponKind, target_shields: int) -> float:
    """Mean damage of one weapon group of `ship` against `target_shields` (FPF-DMG-01, FPF-DMG-02,
    FPF-DMG-03, FPF-DMG-04, FPF-DMG-05)."""
    weapon = ship.cls.weapon(kind)
    if weapon is None:
        return 0.0
    return mean_volley(ship.shots(kind), ship.strength[kind], target_shields, kind)


@cache
def mean_volley(shots: int, strength: int, shields: int, kind: WeaponKind) -> float:
    """Mean damage of `shots` shots of `kind` at `strength` against `shields` (memoised)."""
    p = penetrating_faces(shields, strength) / 10
    return shots * p * (3.5 if kind is WeaponKind.PHOTON else 1.0)


def default_repairs(view: BattleView, decision: RepairDecision) -> RepairOrder:
    """A sound default allocation: regain control first, then weapons, shields, engines."""
    repairs: list[tuple[str, str]] = []
    for sid in decision.ships:
        ship = view.ship(sid)
        points = ship.damage_control
        systems = ship.systems
        items = damaged_items(ship)
        plan: list[str] = []
        # Systems at or below 0 first: a step per point until the ship is back in control.
        while points and systems <= 0:
            plan.append("computer")
            systems += 1
            points -= 1
        if points and ship.engine_power == 0:
            plan.append("engine_power")
            points -= 1
        knocked_out = [i for i in items if "." in i and _mount_value(ship, i) == 0]
        rest = [i for i in ("shields", "engine_power") if i in items and i not in plan]
        partial = [i for i in items if "." in i and i not in knocked_out]
        for item in knocked_out + rest + partial:
            if not points:
                break
            plan.append(item)
            points -= 1
        while points and systems < ship.max_systems:
            plan.append("computer")
            systems += 1
            points -= 1
        repairs += [(sid, i) for i in plan]
    return RepairOrder(tuple(repairs))


def default_return(view: BattleView, decision: ReturnDecision) -> ReturnOrder:
    """Return where the enemy is nearest across the table, facing it (PP-11)."""
    spots = view.return_spots(decision.ship)
    enemies = view.enemies()
    if enemies:
        ex = sum(e.x for e in enemies) / len(enemies)
        x, y = min(spots, key=lambda p: (abs(p[0] - ex), -p[1] if view.side == "A" else p[1]))
    else:
        x, y = spots[len(spots) // 2]
    return ReturnOrder(decision.ship, x, y, 0 if view.side == "A" else 3)


def _mount_value(ship: ShipState, item: str) -> int:
    kind_name, _, index = item.partition(".")
    kind = WeaponKind.PHASER if kind_name == "phasers" else WeaponKind.PHOTON
    return ship.mounts[kind][int(index)]


def best_arc_weapons(ship: ShipState, arc: Arc) -> list[WeaponKind]:
    """Working weapon kinds of `ship` bearing on `arc`."""
    return ship.bears(arc)


CaptainFactory = Callable[[Dice], Captain]
_FACTORIES: dict[str, CaptainFactory] = {}


def register_captain(name: str, factory: CaptainFactory) -> None:
    """Make a captain available to the CLI and to sweeps by name."""
    _FACTORIES[name] = factory


def captain_names() -> list[str]:
    """Names of the built-in captains."""
    _load_builtins()
    return sorted(_FACTORIES)


def make_captain(name: str, dice: Dice) -> Captain:
    """A new captain by name, with its own dice."""
    _load_builtins()
    factory = _FACTORIES.get(name)
    if factory is None:
        import difflib

        close = difflib.get_close_matches(name, list(_FACTORIES), n=1)
        raise UnknownNameError("captain", name, close[0] if close else None, captain_names())
    return factory(dice)


def _load_builtins() -> None:
    from kolrami.captains import doctrines  # noqa: F401  (registers the doctrines)
