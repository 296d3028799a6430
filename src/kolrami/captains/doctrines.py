"""Built-in captains: `random` (legal but random: the fuzzer), `aggressive` and `kiting`.

The two doctrines score candidate manoeuvres with the same cheap model (captains/scoring.py)
and different weights: the damage their bearing weapons can expect to deal at the middle and end
of the move, the damage the enemy could deal back from where it stands, and the distance to
their focus target. `aggressive` closes to bring its forward arc to bear at the best range and
focuses fire on what it can kill; `kiting` keeps outside the enemy's reach and inside its own
where it can.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar
from typing import Final

from mypy_extensions import mypyc_attr

from kolrami.captains.advanced import ADVANCED_DECISIONS
from kolrami.captains.advanced import AGGRESSIVE
from kolrami.captains.advanced import KITING
from kolrami.captains.advanced import AdvancedDoctrine
from kolrami.captains.advanced import RandomAdvanced
from kolrami.captains.advanced import Temperament
from kolrami.captains.base import BattleView
from kolrami.captains.base import default_repairs
from kolrami.captains.base import default_return
from kolrami.captains.scoring import FOCUS_BONUS
from kolrami.captains.scoring import NEAR_MISS_VALUE
from kolrami.captains.scoring import WITHDRAW_CM
from kolrami.captains.scoring import Arsenal
from kolrami.captains.scoring import Candidates
from kolrami.captains.scoring import Firepower
from kolrami.captains.scoring import Plan
from kolrami.captains.scoring import Situation
from kolrami.captains.scoring import Weights
from kolrami.captains.scoring import best_lock
from kolrami.captains.scoring import best_move
from kolrami.captains.scoring import best_target
from kolrami.captains.scoring import candidates
from kolrami.captains.scoring import enemy
from kolrami.captains.scoring import flank_point
from kolrami.captains.scoring import focus_target
from kolrami.captains.scoring import held_range
from kolrami.captains.scoring import jump_toward
from kolrami.captains.scoring import ranked_moves
from kolrami.catalog.models import Arc
from kolrami.engine.chance import Dice
from kolrami.engine.geometry import ARC_ORDER
from kolrami.engine.geometry import HEADINGS
from kolrami.engine.geometry import arc_index
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
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.fpf.orders import SquadronOrder

#: The forward arc's index (`arc_index`).
FRONT: Final = ARC_ORDER.index(Arc.F)
#: (the enum member as a module constant: compiled code reads a C static, where `Arc.F` is a
#: look-up on the enum class at every read)
_FORE: Final = Arc.F

#: The decisions' classes as module constants, for `ScoredCaptain.decide` (compiled: C statics,
#: where an imported class is looked up in the module's dict at every isinstance)
_ORDERS: Final = OrdersDecision
_ACTIVATION: Final = ActivationDecision
_REACTION: Final = ReactionDecision
_REPAIR: Final = RepairDecision
_INITIATIVE: Final = InitiativeDecision
_RETURN: Final = ReturnDecision

# --- random -----------------------------------------------------------------------------------

#: (module constants: compiled code reads them as C statics, where `math.hypot` is looked up
#: in the math module at every call)
_hypot: Final = math.hypot
_INF: Final = math.inf


class RandomCaptain:
    """Legal orders chosen at random: the engine's fuzzer and the baseline opponent."""

    name = "random"
    #: what `kolrami captains` says of it (a class compiled by mypyc keeps no docstring)
    summary: ClassVar[str] = (
        "Legal orders chosen at random: the engine's fuzzer and the baseline opponent."
    )

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.advanced = RandomAdvanced(dice)  # the advanced game's decisions

    def _pick(self, items: Sequence[str]) -> str:
        return items[self.dice.d(len(items)) - 1]

    def decide(self, view: BattleView, decision: Decision) -> Order:
        d = self.dice
        if isinstance(decision, ADVANCED_DECISIONS):
            return self.advanced.decide(view, decision)
        if isinstance(decision, InitiativeDecision):
            return InitiativeOrder(d.d(2) == 1)
        if isinstance(decision, ActivationDecision):
            squadron = self._pick(decision.squadrons)
            prey = dict(decision.forcible).get(squadron, ())
            force = (self._pick(prey)) if prey and d.d(2) == 1 else None
            return ActivateOrder(squadron, force)
        if isinstance(decision, RepairDecision):
            order = default_repairs(view, decision)
            return order if d.d(4) > 1 else type(order)()
        if isinstance(decision, ReturnDecision):
            spots = view.return_spots(decision.ship)
            x, y = spots[d.d(len(spots)) - 1]
            return ReturnOrder(decision.ship, x, y, d.d(6) - 1)
        if isinstance(decision, ReactionDecision):
            if d.d(10) > 3:
                return ReactionOrder(decision.squadron)
            movers = [s.id for s in view.members(decision.mover)]
            fire = tuple(
                FireTarget(s.id, Arc.F, (self._pick(movers)))
                for s in view.firers(decision.squadron)
                if s.bears(Arc.F)
            )
            return ReactionOrder(decision.squadron, fire or None)
        assert isinstance(decision, OrdersDecision)
        return self._orders(view, decision)

    def _orders(self, view: BattleView, decision: OrdersDecision) -> SquadronOrder:
        d = self.dice
        sq = decision.squadron
        moves: list[tuple[str | None, Maneuver]] = []
        if decision.jump is not None and d.d(6) == 1:  # a micro warp jump (FPF-OPT-04)
            lo, hi = decision.jump
            for mover in view.movers(sq):
                moves.append((mover, Maneuver(lo + d.d(hi - lo + 1) - 1, d.d(3) - 2, 0, jump=True)))
        for mover in view.movers(sq) if not moves else ():
            ship = view.mover_position(mover, sq)
            pivot = ship.last_speed == 0 and d.d(3) == 1
            lo, hi = view.speed_limits(mover, sq, pivot)
            if lo > hi:
                pivot = False
                lo, hi = view.speed_limits(mover, sq, False)
            speed = lo + d.d(hi - lo + 1) - 1
            if pivot:
                m = Maneuver(speed, 0, d.d(3) - 2, d.d(6) - 3)
            elif speed == 0:
                m = Maneuver(0, 0, 0)
            else:
                m = Maneuver(speed, d.d(3) - 2, d.d(3) - 2)
            moves.append((mover, m))
        enemies = [s.id for s in view.enemies()]
        firers = view.firers(sq)
        fire = None
        if enemies and firers and not view.squadron(sq).fired and d.d(10) > 3:
            fire = tuple(
                FireTarget(
                    s.id,
                    s.armed_arcs()[d.d(len(s.armed_arcs())) - 1],
                    enemies[d.d(len(enemies)) - 1],
                )
                for s in firers
            )
        return SquadronOrder(sq, tuple(moves), fire)


# --- scored doctrines -------------------------------------------------------------------------


# (compiled with mypyc, kolrami.COMPILED: a doctrine's `weights` and `temperament` are class
# variables, which a subclass of its own, compiled or not, sets; see docs/performance.md)
@mypyc_attr(allow_interpreted_subclasses=True)
class ScoredCaptain:
    """A doctrine that scores candidate manoeuvres and locks with a cheap damage model
    (captains/scoring.py), weighted by its `weights`."""

    name = "scored"
    weights: ClassVar[Weights] = Weights(threat=0.5, closing=0.05, keep_out=False, react=True)
    temperament: ClassVar[Temperament] = AGGRESSIVE  # how it plays the advanced game

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.advanced = AdvancedDoctrine(self.temperament)
        # the table's size and the distance between two touching base centres, as read from
        # the scenario of `_seen` (a battle's view): they do not change in a battle, and
        # reading the scenario works out what the side knows of it (its minefields) each time
        self._seen: object = None
        self._table = (0.0, 0.0)
        self._touch = 0.0

    def decide(self, view: BattleView, decision: Decision) -> Order:
        # the most frequent decisions first (the classes are unrelated: the order is free)
        if isinstance(decision, _ORDERS):
            return self._orders(view, decision.squadron, decision.jump)
        if isinstance(decision, _ACTIVATION):
            return self._activation(view, decision)
        if isinstance(decision, _REACTION):
            return self._reaction(view, decision)
        if isinstance(decision, _REPAIR):
            return default_repairs(view, decision)
        if isinstance(decision, _INITIATIVE):
            return self._initiative(view) if self.weights.initiative else _SECOND
        if isinstance(decision, _RETURN):
            return default_return(view, decision)
        assert isinstance(decision, ADVANCED_DECISIONS)
        return self.advanced.decide(view, decision)

    # --- decisions ----------------------------------------------------------------------------

    def _initiative(self, view: BattleView) -> InitiativeOrder:
        """Move first when our ships can kill an enemy from where they stand (the expected
        damage of their best locks on it, `scoring.best_lock`, is its hull or more): the side
        that moves first fires first (FPF-MOV-03). Otherwise second, which sees where the
        enemy went. (Moving first whenever an enemy is within a move of our reach measured
        weaker: docs/captains.md.)"""
        arsenal = Arsenal()
        own = [s for s in view.own_ships() if s.alive]
        for e in view.enemies():
            damage = 0.0
            for s in own:
                best = best_lock(s, None, (e,), e, arsenal)
                if best is not None and best[0] > NEAR_MISS_VALUE:
                    damage += best[0] / FOCUS_BONUS
            if damage >= e.superstructure:
                return _FIRST
        return _SECOND

    def _activation(self, view: BattleView, decision: ActivationDecision) -> ActivateOrder:
        # the squadron farthest from the enemy moves first: the closest ones wait and see
        squadron = decision.squadrons[0]
        if len(decision.squadrons) > 1:
            enemies = [(e.x, e.y) for e in view.enemies()]
            best: tuple[float, str] | None = None
            for q in decision.squadrons:
                nearest = _INF
                for s in view.members(q):
                    for ex, ey in enemies:
                        d = _hypot(s.x - ex, s.y - ey)
                        if d < nearest:
                            nearest = d
                if nearest == _INF:
                    nearest = 0.0  # nobody to measure: no enemy in sight, or no ship left
                if best is None or (nearest, q) > best:
                    best = (nearest, q)
            assert best is not None
            squadron = best[1]
        prey = dict(decision.forcible).get(squadron, ())
        return _activate(squadron, prey[0] if prey else None)

    def _reaction(self, view: BattleView, decision: ReactionDecision) -> ReactionOrder:
        if not self.weights.react:
            return _hold(decision.squadron)
        return self._react(view, decision, False)

    def reaction_options(self, view: BattleView, decision: ReactionDecision) -> list[ReactionOrder]:
        """This doctrine's reaction, then the other course if there is one (a search's
        candidates, captains/admiral.py): holding, when it fires; when it holds, the fire of
        every forward arc that has a mover within reach, even if a firer has none (it keeps
        the squadron's volley for its own activation otherwise)."""
        own = self._reaction(view, decision)
        other = (
            _hold(decision.squadron) if own.fire is not None else self._react(view, decision, True)
        )
        return [own] if other.fire == own.fire else [own, other]

    def _react(self, view: BattleView, decision: ReactionDecision, eager: bool) -> ReactionOrder:
        """Lock each firer's forward arc on the nearest mover within its reach (and 20 cm: the
        mover comes on); hold if none bears, or (unless `eager`) if some firer has nothing and
        the squadron has its own activation still to come."""
        firers = view.firers(decision.squadron)
        movers: list[ShipView] | None = None  # (read when a firer's forward arc is armed)
        need = []  # the firers whose forward arc is armed
        fire = []
        for ship in firers:
            kinds = ship.bears(_FORE)
            if not kinds:
                continue
            need.append(ship)
            if movers is None:
                movers = view.members(decision.mover)
            reach = 0  # (loops, not generators, in the captains' hot paths: those are calls)
            for k in kinds:
                r = ship.range_of(k)
                reach = r if r > reach else reach
            reach += 20
            far = float(reach)  # (the same comparisons, float with float)
            heading = ship.heading % HEADINGS
            best = None  # the nearest mover in reach and in the forward arc
            for m in movers:
                dx, dy = m.x - ship.x, m.y - ship.y
                if dx > far or -dx > far or dy > far or -dy > far:
                    continue  # out of reach along an axis, so out of reach (hypot is no less)
                d = _hypot(dx, dy)
                if d > far or (best is not None and d >= best[0]):
                    continue
                if arc_index(ship.x, ship.y, heading, m.x, m.y) == FRONT:
                    best = (d, m.id)
            if best is not None:
                fire.append(_lock(ship.id, _FORE, best[1]))
        if not fire:
            return _hold(decision.squadron)
        if not eager and len(fire) < len(firers) and not view.squadron(decision.squadron).activated:
            return _hold(decision.squadron)
        if view.fires_as_unit() and len(fire) < len(need):
            targets = {f.ship for f in fire}
            fallback = fire[0].target
            fire += [_lock(s.id, _FORE, fallback) for s in need if s.id not in targets]
        return ReactionOrder(decision.squadron, tuple(fire))

    def options(
        self, view: BattleView, decision: OrdersDecision, count: int
    ) -> list[SquadronOrder]:
        """Up to `count` different orders this doctrine rates highly, its own choice first: the
        n-th gives every mover its n-th best manoeuvre (`scoring.ranked_moves`) and the locks
        worth most from there (a search's candidates, captains/admiral.py)."""
        out: list[SquadronOrder] = []
        seen: set[str] = set()
        for rank in range(count):
            order = self._orders(view, decision.squadron, decision.jump, rank)
            text = str(order)
            if text not in seen:
                seen.add(text)
                out.append(order)
        return out

    def _orders(
        self, view: BattleView, sq: str, jump: tuple[int, int] | None = None, rank: int = 0
    ) -> SquadronOrder:
        members = view.members(sq)
        enemies = view.enemies()
        if not enemies:
            drift = [
                (
                    m,
                    Maneuver(
                        min(
                            view.speed_limits(m, sq, False)[1],
                            view.mover_position(m, sq).last_speed,
                        )
                    ),
                )
                for m in view.movers(sq)
            ]
            return SquadronOrder(sq, tuple(drift), None)
        arsenal = Arsenal()
        focus = focus_target(members, enemies, arsenal)
        own_shields = members[0].shields
        for s in members:
            own_shields = s.shields if s.shields < own_shields else own_shields
        threats = []
        for e in enemies:
            threats.append(enemy(e, own_shields, arsenal))
        if view is not self._seen:  # (a new battle: its scenario read once)
            scenario = view.scenario
            self._table = (scenario.table_width_cm, scenario.table_height_cm)
            self._touch = 2 * scenario.base_radius_cm
            self._seen = view
        table, touch = self._table, self._touch
        obstacles = view.obstacles()
        weights = self.weights
        bases: list[tuple[float, float]] = []
        if weights.full_path:  # the bases a move may stop short of (FPF-MOV-08)
            for s in view.own_ships() + enemies:
                if s.on_table and s.squadron != sq:
                    bases.append((s.x, s.y))
        moves: list[tuple[str | None, Maneuver]] = []
        plans: dict[str, Plan] = {}
        if jump is not None and self.weights.jumps:
            leap = self._jump(view, sq, focus, jump, table)
            if leap is not None:
                fire = self._fire(view, sq, {}, enemies, focus, arsenal)
                return SquadronOrder(sq, leap, fire)
        for mover in view.movers(sq):
            origin = view.mover_position(mover, sq)
            group = []
            for s in members:
                if (mover is None and not s.detached) or s.id == mover:
                    group.append(s)
            choices = self._candidates(view, mover, sq, origin)
            view.count_candidates(choices.count)
            ours = Firepower(group, focus.shields, arsenal)
            situation = Situation(focus, ours, threats, table, obstacles, bases, touch)
            if weights.hold_range:
                situation.hold = held_range(ours)
            if weights.withdraw:  # a damaged ship weighs return fire more, closing less
                lost = 0.0
                for s in group:
                    share = 1.0 - s.superstructure / s.cls.superstructure
                    lost = share if share > lost else lost
                pull = weights.withdraw * lost
                situation.threat = weights.threat * (1.0 + pull)
                if weights.hold_range:
                    situation.hold += WITHDRAW_CM * pull
                else:
                    situation.closing = weights.closing * (1.0 - 2.0 * pull)
            if weights.flank and weights.hold_range:
                situation.anchor = flank_point(origin, focus, situation.hold, weights.flank)
            if rank:
                ranked = ranked_moves(origin, choices.legs, situation, weights)
                move = ranked[min(rank, len(ranked) - 1)]
            else:
                move = best_move(origin, choices.legs, situation, weights)
            moves.append((mover, move.maneuver))
            for s in group:
                plans[s.id] = move.plan.shifted(origin, s)
        fire = self._fire(view, sq, plans, enemies, focus, arsenal)
        return SquadronOrder(sq, tuple(moves), fire)

    def _jump(
        self,
        view: BattleView,
        sq: str,
        focus: ShipView,
        jump: tuple[int, int],
        table: tuple[float, float],
    ) -> tuple[tuple[str | None, Maneuver], ...] | None:
        """A micro warp jump for every mover (`scoring.jump_toward`), when each has one worth
        making: the enemy is far beyond a normal move and the jump lands much nearer."""
        leaps = []
        for mover in view.movers(sq):
            m = jump_toward(view.mover_position(mover, sq), focus, jump, table)
            if m is None:
                return None
            leaps.append((mover, m))
        return tuple(leaps) or None

    def _candidates(
        self, view: BattleView, mover: str | None, sq: str, origin: ShipView
    ) -> Candidates:
        """The manoeuvres worth scoring (`scoring.candidates`): pivots only from standstill."""
        lo, hi = view.speed_limits(mover, sq, False)
        plo, phi = view.speed_limits(mover, sq, True) if origin.last_speed == 0 else (1, 0)
        return candidates(lo, hi, plo, phi)

    def _fire(
        self,
        view: BattleView,
        sq: str,
        plans: dict[str, Plan],
        enemies: list[ShipView],
        focus: ShipView,
        arsenal: Arsenal,
    ) -> tuple[FireTarget, ...] | None:
        """Each firer's best lock (`scoring.best_target`) from where its planned move takes it;
        a squadron that fires as a unit fires only when every firer has one."""
        firers = view.firers(sq)
        if not firers or view.squadron(sq).fired:
            return None
        weights = self.weights
        full_path = weights.full_path
        # (with full_path only a lock that can deal damage counts: a squadron whose locks can
        # none of them fire keeps its volley for reaction fire, FPF-FIRE-11)
        worth = NEAR_MISS_VALUE if full_path else 0.0
        choices: list[tuple[float, FireTarget]] = []
        for ship in firers:
            # (called by name, not through a variable: compiled, that is a native call)
            plan = plans.get(ship.id)
            if full_path:
                best = best_lock(ship, plan, enemies, focus, arsenal)
            else:
                best = best_target(ship, plan, enemies, focus, arsenal)
            if best is not None:
                value, arc, target = best
                choices.append((value, _lock(ship.id, ARC_ORDER[arc], target.id)))
        chosen = []  # the locks worth something
        every = []
        for v, t in choices:
            every.append(t)
            if v > worth:
                chosen.append(t)
        if not chosen:
            return None
        if not view.fires_as_unit():
            return tuple(chosen)
        if len(choices) < len(firers):
            if not weights.unit_fire:
                return None
            # FPF-FIRE-13: the squadron fires as a unit, so a ship with nothing in arc locks on
            # the focus through an armed arc (it may yet bear) rather than hold everyone's fire
            locked = {t.ship for t in every}
            for ship in firers:
                if ship.id not in locked:
                    every.append(_lock(ship.id, ship.armed_arcs()[0], focus.id))
        return tuple(every)


# Orders are immutable values, and a frozen dataclass is slow to build (several thousand
# instructions): the scored doctrines make the ones they give again and again only once.

_SECOND: Final = InitiativeOrder(False)
_FIRST: Final = InitiativeOrder(True)


# (each kept in a plain dict: a memoised function's call, from compiled code, is a call of a
# Python object that makes and hashes a tuple of its arguments, several times the look-up;
# bounded, for long sessions of many battles)
_LOCKS: Final[dict[tuple[str, Arc, str], FireTarget]] = {}
_ACTIVATIONS: Final[dict[tuple[str, str | None], ActivateOrder]] = {}
_HOLDS: Final[dict[str, ReactionOrder]] = {}
_KEPT: Final = 4096


def _lock(ship: str, arc: Arc, target: str) -> FireTarget:
    """The order of one lock: a ship, the arc it fires through and its target."""
    key = (ship, arc, target)
    order = _LOCKS.get(key)
    if order is None:
        if len(_LOCKS) >= _KEPT:
            _LOCKS.clear()
        order = _LOCKS[key] = FireTarget(ship, arc, target)
    return order


def _activate(squadron: str, force: str | None) -> ActivateOrder:
    """The order to activate a squadron (forcing `force` first, when given)."""
    key = (squadron, force)
    order = _ACTIVATIONS.get(key)
    if order is None:
        if len(_ACTIVATIONS) >= _KEPT:
            _ACTIVATIONS.clear()
        order = _ACTIVATIONS[key] = ActivateOrder(squadron, force)
    return order


def _hold(squadron: str) -> ReactionOrder:
    """A squadron's order to hold its reaction fire."""
    order = _HOLDS.get(squadron)
    if order is None:
        if len(_HOLDS) >= _KEPT:
            _HOLDS.clear()
        order = _HOLDS[squadron] = ReactionOrder(squadron)
    return order


@mypyc_attr(allow_interpreted_subclasses=True)
class AggressiveCaptain(ScoredCaptain):
    """Close in, bring the forward arc to bear at the best range, focus fire on a kill."""

    name = "aggressive"
    summary: ClassVar[str] = (
        "Close in, bring the forward arc to bear at the best range, focus fire on a kill."
    )
    weights = Weights(
        threat=0.3,
        closing=0.08,
        keep_out=False,
        react=True,
        jumps=True,
        unit_fire=True,
        full_path=True,
        initiative=True,
        withdraw=1.0,
    )


@mypyc_attr(allow_interpreted_subclasses=True)
class KitingCaptain(ScoredCaptain):
    """Hold the best arc's range on the target's flank, 110 degrees off its nose (outside its
    forward arc, where its heaviest weapons bear), weighing the damage it risks more than
    `aggressive` does; a damaged ship falls back farther. Trade at a distance, from the edge
    of the enemy's arcs (measured against `aggressive`: docs/captains.md)."""

    name = "kiting"
    summary: ClassVar[str] = (
        "Hold the best arc's range on the target's flank, 110 degrees off its nose, weighing "
        "the damage it risks more than `aggressive` does: trade at a distance."
    )
    weights = Weights(
        threat=0.5,
        closing=0.1,
        keep_out=False,
        react=True,
        unit_fire=True,
        full_path=True,
        initiative=True,
        withdraw=1.0,
        hold_range=True,
        flank=110.0,
    )
    temperament = KITING
