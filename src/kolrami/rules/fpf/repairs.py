"""Damage control (FPF-REP): the repairs phase, its items and its legality checks."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING
from typing import Final

from kolrami.catalog.models import WeaponKind
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.step import Step
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import rules_in
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import RepairOrder
from kolrami.rules.module import RuleModule
from kolrami.rules.module import Ruleset
from kolrami.rules.steps import Call
from kolrami.rules.steps import Each
from kolrami.rules.steps import Question

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState


# A decision is an immutable value, and the same one comes up turn after turn while the damage
# stands; a frozen dataclass is slow to build, so each is made once for each set of values
# (as initiative's decisions).
_repair_decision: Final = lru_cache(maxsize=1024)(RepairDecision)

#: whether FPF's own repairs (`FpfRepairs.shield_ceiling`) decide the shield ceiling of each
#: battle's rules met so far, by the rules' identity (an entry holds them)
_OWN_CEILING: Final[dict[int, tuple[Ruleset, bool]]] = {}


class _Last:
    """The rules `_shield_ceiling` last looked up, and whether the ceiling is FPF's own there:
    nearly every call is of the same battle's rules as the one before, found by identity (an
    `id()` and a dict look-up cost several times more)."""

    __slots__ = ("own", "rules")

    def __init__(self) -> None:
        self.rules: Ruleset | None = None
        self.own = False


_LAST: Final = _Last()


def _shield_ceiling(battle: Battle, ship: ShipState) -> int:
    """The `shield_ceiling` policy: FPF's own (the ship's own shields) read natively when it is
    the battle's, and not through a Python call each time."""
    rules = rules_in(battle)
    last = _LAST
    if last.rules is not rules:
        last.own = _own_ceiling(rules)
        last.rules = rules
    if last.own:
        return ship.max_shields  # FpfRepairs.shield_ceiling
    return rules.shield_ceiling(battle, ship)


def _own_ceiling(rules: Ruleset) -> bool:
    """Whether FPF's own repairs decide the shield ceiling of `rules`, by their identity."""
    known = _OWN_CEILING.get(id(rules))
    if known is None:
        if len(_OWN_CEILING) >= 256:  # (a bound for long sessions of rules made on the fly)
            _OWN_CEILING.clear()
        own = type(rules.provider(RuleModule.shield_ceiling)) is FpfRepairs
        known = _OWN_CEILING[id(rules)] = (rules, own)
    return known[1]


def damaged_items(battle: Battle, ship: ShipState) -> list[str]:
    """Items a Damage Control point could work on now (FPF-REP-01, FPF-REP-05, FPF-REP-07)."""
    items = []
    if ship.systems < ship.max_systems:
        items.append("computer")
    if ship.engine_power < ship.max_engine:
        items.append("engine_power")
    if ship.shields < _shield_ceiling(battle, ship):
        items.append("shields")
    mounts = ship.mounts
    # (each class's printed mounts, kept with its facts: a catalog model's fields are slow reads)
    for kind, printed in ship.class_facts().printed:
        now = mounts[kind]
        if now != printed:
            items += [f"{kind.value}s.{i}" for i, p in enumerate(printed) if now[i] < p]
    return items


def repair_decision(battle: Battle, side: str) -> RepairDecision | None:
    """What `side` may repair this turn (FPF-REP-02): ships with points and damage, each with
    its damaged items and its points; None when there is nothing to repair."""
    ships, damaged, points = [], [], []
    for s in battle.side_ships(side):
        if s.damage_control > 0:
            items = damaged_items(battle, s)
            if items:
                ships.append(s.id)
                damaged.append(tuple(items))
                points.append(s.damage_control)
    if not ships:
        return None
    return _repair_decision(side, tuple(ships), tuple(damaged), tuple(points))


def verify_repair_order(battle: Battle, decision: RepairDecision, order: object) -> None:
    """A REPAIR order answering `decision`, within the rules (IllegalOrderError says why)."""
    if not isinstance(order, RepairOrder):
        raise IllegalOrderError(f"expected a REPAIR order, got '{order}'")
    verify_repairs(battle, decision, order)


def verify_repairs(battle: Battle, decision: RepairDecision, order: RepairOrder) -> None:
    """Each ship spends at most its Damage Control rating, on items it has damaged."""
    spent: dict[str, int] = {}
    damaged: dict[str, list[str]] = {}  # each ship's damaged items, worked out once
    for ship_id, item in order.repairs:
        if ship_id not in decision.ships:
            raise IllegalOrderError(
                f"{ship_id} cannot repair now; ships that can: "
                f"{', '.join(decision.ships) or 'none'} (FPF-REP-02)"
            )
        ship = battle.ships[ship_id]
        spent[ship_id] = spent.get(ship_id, 0) + 1
        if spent[ship_id] > ship.damage_control:
            raise IllegalOrderError(
                f"{ship_id} has {ship.damage_control} Damage Control point(s) a turn and "
                f"spends {spent[ship_id]} (FPF-REP-01)"
            )
        if ship_id not in damaged:
            damaged[ship_id] = damaged_items(battle, ship)
        if item not in damaged[ship_id]:
            raise IllegalOrderError(
                f"{ship_id} has no damaged '{item}' to repair; damaged: "
                f"{', '.join(damaged_items(battle, ship)) or 'nothing'} (FPF-REP-07)"
            )
        if item != "computer" and order.repairs.count((ship_id, item)) > 1:
            raise IllegalOrderError(
                f"{ship_id} repairs '{item}' twice; one point restores it fully "
                "(FPF-REP-01); only Systems recover a step per point (FPF-REP-05)"
            )


# (the event class as a constant: compiled, `ev.Repaired` is a look-up in the module each time)
_REPAIRED: Final = ev.Repaired

#: a weapon kind by its repair item's name ("phasers"), without an Enum call
_KINDS: Final = {f"{kind.value}s": kind for kind in WeaponKind}


def apply_repair(battle: Battle, ship: ShipState, item: str) -> None:
    """One Damage Control point: Systems +1, anything else back to its printed value."""
    if item == "computer":
        value = min(ship.max_systems, ship.systems + 1)
    elif item == "engine_power":
        value = ship.max_engine
    elif item == "shields":
        value = rules_in(battle).shield_ceiling(battle, ship)
    else:
        kind_name, _, index = item.partition(".")
        weapon = ship.cls.weapon(_KINDS[kind_name])
        if weapon is None:
            raise ValueError(f"{ship.id} has no {kind_name} to repair")
        value = weapon.mounts[int(index)]
    battle.change(_REPAIRED, ship.id, item, value)


#: the sides in the order they spend their Damage Control (FPF-REP-02)
SIDES: Final = ("A", "B")


class _Repairs(Question):
    """Each side in turn spends its Damage Control points (FPF-REP-02)."""

    __slots__ = ()

    def ask(self, battle: Battle, item: str) -> Decision | None:
        return repair_decision(battle, item)

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, RepairDecision)
        verify_repair_order(battle, decision, order)

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(order, RepairOrder)
        for ship_id, item in order.repairs:
            apply_repair(battle, battle.ships[ship_id], item)


def regain_control(battle: Battle) -> None:
    """After the repairs, every ship that may regains control (FPF-DMG-13)."""
    for ship in battle.all_ships:
        if (
            ship.alive
            and not ship.in_control
            and (ship.engine_power > 0 or ship.class_facts().stationary)
            and ship.systems > 0
        ):
            battle.set_control(ship, True)


REPAIRS: Final = _Repairs()


class FpfRepairs(RuleModule):
    """Damage control at the start of the turn (FPF-REP-01, FPF-REP-02, FPF-REP-03, FPF-REP-04,
    FPF-REP-05, FPF-REP-06, FPF-REP-07)."""

    name = "fpf-repairs"
    core = True
    clauses = (
        "FPF-REP-01",
        "FPF-REP-02",
        "FPF-REP-03",
        "FPF-REP-04",
        "FPF-REP-05",
        "FPF-REP-06",
        "FPF-REP-07",
        "FPF-DMG-13",
    )
    summary = "Each Damage Control point restores one item (Systems: one step) at turn start."

    def repairs(self, battle: Battle) -> Sequence[Step[Battle]]:
        return (Each(REPAIRS, SIDES), Call(regain_control))

    def shield_ceiling(self, battle: Battle, ship: ShipState) -> int:
        # FPF-REP-01: an item is repaired back to the ship's own value (cards included); (read
        # natively by `_shield_ceiling` when this module decides: change both together)
        return ship.max_shields
