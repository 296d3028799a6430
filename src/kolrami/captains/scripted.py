"""A scripted captain: answers decisions from a list of order texts (tests, replays, tutorials).

Each decision takes the next scripted order whose kind fits it; decisions the script does not
cover (a repair when none was scripted, a reaction chance) go to a fallback captain, by default
one that holds fire, repairs by the default priority and otherwise raises.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from kolrami.captains.advanced import ADVANCED_DECISIONS
from kolrami.captains.advanced import AGGRESSIVE
from kolrami.captains.advanced import AdvancedDoctrine
from kolrami.captains.base import BattleView
from kolrami.captains.base import Captain
from kolrami.captains.base import default_repairs
from kolrami.captains.base import default_return
from kolrami.engine.events import Event
from kolrami.engine.events import OrderGiven
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.errors import KolramiError
from kolrami.rules.advanced.field_orders import FIELD_FITS
from kolrami.rules.advanced.orders import FITS as ADVANCED_FITS
from kolrami.rules.fpf.orders import ActivateOrder
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import InitiativeOrder
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import ReactionOrder
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import RepairOrder
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.fpf.orders import SquadronOrder
from kolrami.rules.registry import parse_order

_FITS: dict[type, type] = {
    InitiativeDecision: InitiativeOrder,
    ActivationDecision: ActivateOrder,
    OrdersDecision: SquadronOrder,
    ReactionDecision: ReactionOrder,
    RepairDecision: RepairOrder,
    ReturnDecision: ReturnOrder,
    **ADVANCED_FITS,
    **FIELD_FITS,
}


class ScriptExhaustedError(KolramiError):
    """The script has no order for a decision and there is no fallback for it."""


class PassiveCaptain:
    """Fallback: first squadron, hold fire, fly straight on, default repairs, move second."""

    name = "passive"

    def decide(self, view: BattleView, decision: Decision) -> Order:
        if isinstance(decision, ADVANCED_DECISIONS):  # the advanced game: the built-in doctrine
            return AdvancedDoctrine(AGGRESSIVE).decide(view, decision)
        if isinstance(decision, InitiativeDecision):
            return InitiativeOrder(False)
        if isinstance(decision, ActivationDecision):
            return ActivateOrder(decision.squadrons[0])
        if isinstance(decision, ReactionDecision):
            return ReactionOrder(decision.squadron)
        if isinstance(decision, RepairDecision):
            return default_repairs(view, decision)
        if isinstance(decision, ReturnDecision):
            return default_return(view, decision)
        if isinstance(decision, OrdersDecision):
            moves = []
            for mover in view.movers(decision.squadron):
                lo, hi = view.speed_limits(mover, decision.squadron, False)
                last = view.mover_position(mover, decision.squadron).last_speed
                moves.append((mover, Maneuver(min(max(last, lo), hi))))
            return SquadronOrder(decision.squadron, tuple(moves), None)
        raise ScriptExhaustedError(f"no scripted order for {decision}")


class ScriptedCaptain:
    """Plays the given orders in sequence, matching each to the next decision of its kind."""

    name = "scripted"

    def __init__(self, orders: Iterable[str | Order], fallback: Captain | None = None) -> None:
        self.queue: deque[Order] = deque(
            parse_order(o) if isinstance(o, str) else o for o in orders
        )
        self.fallback: Captain = fallback or PassiveCaptain()
        self.seen: list[Decision] = []

    def decide(self, view: BattleView, decision: Decision) -> Order:
        self.seen.append(decision)
        if self.queue and isinstance(self.queue[0], _FITS[type(decision)]):
            return self.queue.popleft()
        return self.fallback.decide(view, decision)


def logged_captains(events: Iterable[Event]) -> dict[str, ScriptedCaptain]:
    """A scripted captain for each side that plays that side's logged orders (the log's
    `order_given` events, parsed with `kolrami.engine.orders.parse`) in the order given.

    With the battle rebuilt from the log's header, these captains play it again without asking
    the captains that first played it: `kolrami replay --orders` and the golden tests do this.
    """
    orders: dict[str, list[str]] = {"A": [], "B": []}
    for e in events:
        if isinstance(e, OrderGiven):
            orders[e.side].append(e.order)
    return {side: ScriptedCaptain(texts) for side, texts in orders.items()}
