"""The Captain protocol and the view of the battle a captain is given.

A captain answers Decisions with Orders. It sees the battle through a BattleView of its own side:
its own ships in full, enemy ships as the rules let it see them (everything in FPF; cloaks and
mines will hide some). The view never exposes the battle's dice: a captain that wants chance
has its own generator.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from functools import lru_cache
from typing import TYPE_CHECKING
from typing import Protocol

from kolrami.catalog.models import WeaponKind
from kolrami.engine.chance import Dice
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.rules.fpf.damage import penetrating_faces
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import RepairOrder
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.fpf.view import BattleView

__all__ = [
    "REPAIR_KINDS",
    "BattleView",
    "Bounds",
    "Captain",
    "CaptainFactory",
    "bounds_of",
    "default_repairs",
    "default_return",
]

if TYPE_CHECKING:
    from kolrami.engine.view import ShipView


class Captain(Protocol):
    """Anything that can answer a battle's decisions for one side."""

    name: str

    def decide(self, view: BattleView, decision: Decision) -> Order:
        """The order answering `decision`, given what `view` shows."""
        ...


@cache
def mean_volley(shots: int, strength: int, shields: int, kind: WeaponKind) -> float:
    """Mean damage of `shots` shots of `kind` at `strength` against `shields` (memoised)."""
    p = penetrating_faces(shields, strength) / 10
    return shots * p * (3.5 if kind is WeaponKind.PHOTON else 1.0)


#: the kinds of item a Damage Control point may go to (`default_repairs`' `first`)
REPAIR_KINDS = ("weapons", "shields", "engine_power", "computer")


def default_repairs(view: BattleView, decision: RepairDecision, first: str = "") -> RepairOrder:
    """A sound default allocation: regain control first, then weapons, shields, engines.
    `first`, one of REPAIR_KINDS, goes before the rest once control is regained (the
    alternatives a search weighs)."""
    repairs: list[tuple[str, str]] = []
    for sid, damaged, points in zip(decision.ships, decision.items, decision.points, strict=True):
        ship = view.ship(sid)
        systems = ship.systems
        items = list(damaged)
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
        rest: list[str] = [i for i in ("shields", "engine_power") if i in items and i not in plan]
        partial = [i for i in items if "." in i and i not in knocked_out]
        queue = knocked_out + rest + partial
        if first == "weapons":
            queue = knocked_out + partial + rest
        elif first in rest:
            queue = [first] + [i for i in queue if i != first]
        elif first == "computer":
            while points and systems < ship.max_systems:
                plan.append("computer")
                systems += 1
                points -= 1
        for item in queue:
            if not points:
                break
            plan.append(item)
            points -= 1
        while points and systems < ship.max_systems:
            plan.append("computer")
            systems += 1
            points -= 1
        repairs += [(sid, i) for i in plan]
    return _repair_order(tuple(repairs))


@lru_cache(maxsize=1024)
def _repair_order(repairs: tuple[tuple[str, str], ...]) -> RepairOrder:
    """The order of these repairs: made once for each list (an order is an immutable value,
    and a frozen dataclass is slow to build; the same lists, often none, come up all battle)."""
    return RepairOrder(repairs)


def default_return(view: BattleView, decision: ReturnDecision) -> ReturnOrder:
    """Return where the enemy is nearest across the table, facing it (PP-11)."""
    spots = decision.spots
    enemies = view.enemies()
    if enemies:
        ex = sum(e.x for e in enemies) / len(enemies)
        x, y = min(spots, key=lambda p: (abs(p[0] - ex), -p[1] if view.side == "A" else p[1]))
    else:
        x, y = spots[len(spots) // 2]
    return ReturnOrder(decision.ship, x, y, 0 if view.side == "A" else 3)


def _mount_value(ship: ShipView, item: str) -> int:
    kind_name, _, index = item.partition(".")
    kind = WeaponKind.PHASER if kind_name == "phasers" else WeaponKind.PHOTON
    return ship.mounts[kind][int(index)]


#: Builds a captain from its own dice.
CaptainFactory = Callable[[Dice], Captain]
#: What a captain's factory declares of a parameter it takes (its `parameters`): the least
#: whole number it takes, or the least and the greatest.
Bounds = int | tuple[int, int]


def bounds_of(declared: Bounds) -> tuple[int, int | None]:
    """A declared parameter's least and greatest value (None: no greatest)."""
    if isinstance(declared, tuple):
        return declared
    return declared, None
