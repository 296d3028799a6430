"""Shared set-up for the clause-by-clause FPF engine tests (tests/rules).

`fight` plays a sandbox battle with a `Script` captain a side; decisions the script does not
cover go to `SteadyCaptain` (squadrons stand on at their last speed and hold fire, repairs by
the default priority, no reaction fire, second after a won roll-off). `LoadedDice` replaces a
battle's dice with listed faces so that a test can state exactly which shots penetrate and
where they land.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TypeVar

from kolrami.captains.base import BattleView
from kolrami.captains.scripted import PassiveCaptain
from kolrami.engine.battle import Battle
from kolrami.engine.battle import Result
from kolrami.engine.chance import Dice
from kolrami.engine.driver import run
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.rules import events as ev
from kolrami.rules.fpf import orders as fo
from kolrami.rules.registry import parse_order

E = TypeVar("E", bound=ev.Event)


class SteadyCaptain(PassiveCaptain):
    """Fallback captain: every mover keeps its last speed and heading, and holds fire."""

    def decide(self, view: BattleView, decision: Decision) -> Order:
        if isinstance(decision, fo.OrdersDecision):
            moves = tuple(
                (mover, fo.Maneuver(view.mover_position(mover, decision.squadron).last_speed))
                for mover in view.movers(decision.squadron)
            )
            return fo.SquadronOrder(decision.squadron, moves, None)
        return super().decide(view, decision)


class Script:
    """Answers each decision with the first scripted order meant for it, else SteadyCaptain.

    Unlike ScriptedCaptain, an order waits in the list until a decision it fits comes up: a
    squadron's orders wait for that squadron, FIRST/SECOND for a roll-off the side wins.
    """

    name = "script"

    def __init__(self, orders: Iterable[str]) -> None:
        self.orders: list[Order] = [parse_order(o) for o in orders]
        self.seen: list[Decision] = []
        self.fallback = SteadyCaptain()

    def decide(self, view: BattleView, decision: Decision) -> Order:
        self.seen.append(decision)
        for i, order in enumerate(self.orders):
            if _fits(decision, order):
                return self.orders.pop(i)
        return self.fallback.decide(view, decision)


def _fits(decision: Decision, order: Order) -> bool:
    if isinstance(decision, fo.InitiativeDecision):
        return isinstance(order, fo.InitiativeOrder)
    if isinstance(decision, fo.ActivationDecision):
        return isinstance(order, fo.ActivateOrder) and order.squadron in decision.squadrons
    if isinstance(decision, fo.OrdersDecision):
        return isinstance(order, fo.SquadronOrder) and order.squadron == decision.squadron
    if isinstance(decision, fo.ReactionDecision):
        return isinstance(order, fo.ReactionOrder) and order.squadron == decision.squadron
    if isinstance(decision, fo.RepairDecision):
        return isinstance(order, fo.RepairOrder)
    return False


def fight(battle: Battle, a: Iterable[str] = (), b: Iterable[str] = ()) -> Result:
    """Play `battle` to its turn limit with scripted orders for side A and side B."""
    return run(battle, {"A": Script(a), "B": Script(b)})


class LoadedDice(Dice):
    """Dice that show the listed faces in order, then `then` (a 1: every shot fails)."""

    __slots__ = ("faces", "spare", "then")

    def __init__(self, faces: Iterable[int], then: int = 1) -> None:
        super().__init__(0)
        self.faces: deque[int] = deque(faces)
        self.then = then
        self.spare = 0

    def d(self, sides: int) -> int:
        self.rolls += 1
        if self.faces:
            face = self.faces.popleft()
        else:
            self.spare += 1
            if self.spare > 10_000:
                raise AssertionError("LoadedDice ran dry in a loop (an initiative tie?)")
            face = self.then
        if not 1 <= face <= sides:
            raise AssertionError(f"a d{sides} cannot show {face}")
        return face


def load(battle: Battle, faces: Iterable[int], then: int = 1) -> LoadedDice:
    """Give `battle` loaded dice and return them."""
    dice = LoadedDice(faces, then)
    battle.dice = dice
    return dice


def events_of(battle: Battle, kind: type[E]) -> list[E]:
    """The battle's events of one kind, in order."""
    return [e for e in battle.events() if isinstance(e, kind)]


def activations(battle: Battle) -> list[str]:
    """Squadron ids in the order they were activated."""
    return [e.squadron for e in events_of(battle, ev.SquadronActivated)]


def volleys(battle: Battle) -> list[tuple[str, str, str]]:
    """(firing ship, weapon, target) of every volley, in order."""
    return [(e.ship, e.weapon, e.target) for e in events_of(battle, ev.VolleyFired)]


def moved(battle: Battle, ship: str) -> list[ev.ShipMoved]:
    """The ShipMoved events of one ship."""
    return [e for e in events_of(battle, ev.ShipMoved) if e.ship == ship]
