"""Brawler: a complete captain of one's own, the example of docs/captains.md.

It closes on the nearest enemy flat out and fires at it with everything that bears. Play it:

    kolrami battle --captain-a docs/examples/brawler.py:Brawler --captain-b kiting
    kolrami assess --classes reliant,sting,ktroika --captains docs/examples/brawler.py:Brawler
"""

from __future__ import annotations

import math

from kolrami.captains.base import BattleView
from kolrami.captains.base import default_repairs
from kolrami.captains.base import default_return
from kolrami.catalog.models import Arc
from kolrami.engine.chance import Dice
from kolrami.engine.geometry import advance
from kolrami.engine.geometry import arc_to
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.engine.view import ShipView
from kolrami.rules.fpf.orders import ActivateOrder
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.fpf.orders import FireTarget
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import InitiativeOrder
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import ReactionOrder
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import SquadronOrder


class Brawler:
    """Closes on the nearest enemy flat out and fires at it with everything that bears."""

    name = "brawler"
    #: the code version an assessment keys its stored results by (else a digest of this file)
    version = "1"

    def __init__(self, dice: Dice) -> None:
        self.dice = dice  # a captain's own dice: never the battle's

    def decide(self, view: BattleView, decision: Decision) -> Order:
        match decision:
            case InitiativeDecision():
                return InitiativeOrder(first=False)  # move second: see where they went
            case ActivationDecision():
                return ActivateOrder(decision.squadrons[0], None)
            case RepairDecision():
                return default_repairs(view, decision)
            case ReturnDecision():
                return default_return(view, decision)
            case ReactionDecision():
                fire = self._fire(view, decision.firers, decision.targets, forward_only=True)
                return ReactionOrder(decision.squadron, fire)
            case OrdersDecision():
                return self._orders(view, decision)
        raise ValueError(f"the brawler has no answer to {type(decision).__name__}")

    def _orders(self, view: BattleView, decision: OrdersDecision) -> SquadronOrder:
        sq = decision.squadron
        moves = []
        for mover in decision.movers:  # None: the formation's leader; else a ship on its own
            ship = view.mover_position(mover, sq)
            _, fastest = view.speed_limits(mover, sq, False)
            target = self._nearest(ship, view.enemies())
            moves.append((mover, self._close_on(ship, target, fastest)))
        fire = self._fire(view, decision.firers, decision.targets, forward_only=False)
        return SquadronOrder(sq, tuple(moves), fire)

    def _close_on(self, ship: ShipView, target: ShipView | None, speed: int) -> Maneuver:
        """The two turns (each -1, 0 or +1: 60 degrees) that end nearest the target."""
        if target is None or speed == 0:
            return Maneuver(speed)
        best = None
        for t1 in (-1, 0, 1):
            for t2 in (-1, 0, 1):
                mx, my = advance(ship.x, ship.y, ship.heading + t1, speed / 2)
                ex, ey = advance(mx, my, ship.heading + t1 + t2, speed / 2)
                gap = math.hypot(target.x - ex, target.y - ey)
                if best is None or gap < best[0]:
                    best = (gap, t1, t2)
        assert best is not None
        return Maneuver(speed, best[1], best[2])

    def _fire(
        self,
        view: BattleView,
        firers: tuple[str, ...],
        targets: tuple[str, ...],
        forward_only: bool,
    ) -> tuple[FireTarget, ...] | None:
        """Each firer locks on the nearest target through the arc it lies in, if a weapon bears
        there; None (hold fire) when none can."""
        candidates = [view.ship(t) for t in targets]
        fire = []
        for sid in firers:
            ship = view.ship(sid)
            target = self._nearest(ship, candidates)
            if target is None:
                continue
            arc = Arc.F
            if not forward_only:
                arc = arc_to(ship.x, ship.y, ship.heading, target.x, target.y)
            if ship.bears(arc):
                fire.append(FireTarget(sid, arc, target.id))
        # a squadron that fires as a unit fires only when every firer has a lock
        if not fire or (view.fires_as_unit() and len(fire) < len(firers)):
            return None
        return tuple(fire)

    @staticmethod
    def _nearest(ship: ShipView, others: list[ShipView]) -> ShipView | None:
        live = [o for o in others if o.alive]
        return min(live, key=lambda o: math.hypot(o.x - ship.x, o.y - ship.y), default=None)
