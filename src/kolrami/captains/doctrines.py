"""Built-in captains: `random` (legal but random: the fuzzer), `aggressive` and `kiting`.

The two doctrines score candidate manoeuvres with the same cheap model and different weights:
the damage their bearing weapons can expect to deal at the middle and end of the move, the
damage the enemy could deal back from where it stands, and the distance to their focus target.
`aggressive` closes to bring its forward arc to bear at the best range and focuses fire on what
it can kill; `kiting` keeps outside the enemy's reach and inside its own where it can.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kolrami.captains.advanced import (
    ADVANCED_DECISIONS,
    AGGRESSIVE,
    KITING,
    AdvancedDoctrine,
    RandomAdvanced,
    Temperament,
)
from kolrami.captains.base import (
    BattleView,
    default_repairs,
    default_return,
    mean_volley,
    register_captain,
)
from kolrami.catalog.models import Arc
from kolrami.engine.chance import Dice
from kolrami.engine.geometry import _COS, _SIN, ARC_ORDER, HEADINGS, arc_index, segment_hits_circle
from kolrami.engine.orders import Decision, Order
from kolrami.engine.view import ShipView
from kolrami.rules.fpf.orders import (
    ActivateOrder,
    ActivationDecision,
    FireTarget,
    InitiativeDecision,
    InitiativeOrder,
    Maneuver,
    OrdersDecision,
    ReactionDecision,
    ReactionOrder,
    RepairDecision,
    ReturnDecision,
    ReturnOrder,
    SquadronOrder,
)

# --- random -----------------------------------------------------------------------------------


class RandomCaptain:
    """Legal orders chosen at random: the engine's fuzzer and the baseline opponent."""

    name = "random"

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
        return self._orders(view, decision.squadron)

    def _orders(self, view: BattleView, sq: str) -> SquadronOrder:
        d = self.dice
        moves: list[tuple[str | None, Maneuver]] = []
        for mover in view.movers(sq):
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


@dataclass(frozen=True, slots=True)
class Weights:
    """How a doctrine trades damage dealt, damage risked and closing distance."""

    threat: float  # weight of the damage the enemy could deal back
    closing: float  # value of a centimetre closer to the focus target, when out of reach
    keep_out: bool  # prefer staying outside the enemy's weapon ranges
    react: bool  # use reaction fire


#: (range_cm, expected damage) of the weapon groups that bear into one arc.
ArcGroups = list[tuple[int, float]]
#: One weapon group as the scoring sees it: working shots, range, expected damage, and for
#: each arc (indexed like `arc_index`) whether it bears into it.
Volley = tuple[int, int, float, tuple[bool, ...]]
#: Volleys already worked out during one decision, by (ship id, target shields).
Memo = dict[tuple[str, int], list[Volley]]


class _Into(dict[tuple[Arc, ...], tuple[bool, ...]]):
    """A weapon's arcs as four flags in `ARC_ORDER`, worked out once per set of arcs."""

    def __missing__(self, arcs: tuple[Arc, ...]) -> tuple[bool, ...]:
        flags = self[arcs] = tuple(a in arcs for a in ARC_ORDER)
        return flags


_INTO = _Into()
#: The arc indices a set of flags from `_INTO` marks.
_ARC_INDICES = {
    flags: tuple(k for k in range(4) if flags[k])
    for flags in (tuple(bool(n >> k & 1) for k in range(4)) for n in range(16))
}


def _volleys(ship: ShipView, target_shields: int, memo: Memo) -> list[Volley]:
    """Each weapon group of `ship` against `target_shields`, in resolution order (the numbers
    of `expected_volley`, for all groups at once), worked out once per decision."""
    key = (ship.id, target_shields)
    found = memo.get(key)
    if found is None:
        mounts, strength, ranges = ship.mounts, ship.strength, ship.ranges
        found = memo[key] = []
        for kind, weapon in ship.cls.weapons():
            shots = sum(mounts[kind])
            dmg = mean_volley(shots, strength[kind], target_shields, kind)
            found.append((shots, ranges.get(kind, 0), dmg, _INTO[weapon.arcs]))
    return found


class Profile:
    """The firepower of some ships against one shield value: for each arc (indexed like
    `arc_index`), the (range, expected damage) of every group bearing into it; and their reach."""

    __slots__ = ("arcs", "reach")

    def __init__(self, ships: list[ShipView], target_shields: int, memo: Memo) -> None:
        self.arcs: tuple[ArcGroups, ...] = ([], [], [], [])
        reach = 0
        for ship in ships:
            for _, rng, dmg, into in _volleys(ship, target_shields, memo):
                if dmg <= 0:
                    continue
                if rng > reach:
                    reach = rng
                group = (rng, dmg)
                for k in _ARC_INDICES[into]:
                    self.arcs[k].append(group)
        self.reach = reach


def _damage_at(groups: ArcGroups, dist: float) -> float:
    """Expected damage of the groups (of one arc) that reach `dist`."""
    total = 0.0
    for rng, dmg in groups:
        if dist <= rng:
            total += dmg
    return total


#: The moves through one mid-move point: (first facing change, half move, and for each move its
#: second turn, its place in the candidate list and the manoeuvre).
_Group = tuple[int, float, tuple[tuple[int, int, Maneuver], ...]]


@dataclass(frozen=True, slots=True)
class _Candidates:
    """Manoeuvres to score, grouped by their mid-move point: the moves that differ only in
    their second turn share it, and it is worked out once for them all."""

    size: int
    groups: tuple[_Group, ...]

    @classmethod
    def of(cls, maneuvers: list[Maneuver]) -> _Candidates:
        groups: dict[tuple[int, float], list[tuple[int, int, Maneuver]]] = {}
        for i, m in enumerate(maneuvers):
            turn = m.pivot if m.pivot is not None else m.turn1
            groups.setdefault((turn, m.speed / 2), []).append((m.turn2, i, m))
        return cls(
            len(maneuvers),
            tuple((turn, half, tuple(ends)) for (turn, half), ends in groups.items()),
        )


#: Candidate sets by (lowest, highest speed, lowest, highest pivot speed).
_CANDIDATES: dict[tuple[int, int, int, int], _Candidates] = {}


class _Threat:
    """An enemy as the scoring sees it: where it is, which way it faces, what it can fire."""

    __slots__ = ("arcs", "reach", "ux", "uy", "x", "y")

    def __init__(self, ship: ShipView, profile: Profile) -> None:
        self.x, self.y = ship.x, ship.y
        self.ux, self.uy = _COS[ship.heading % HEADINGS], _SIN[ship.heading % HEADINGS]
        self.arcs = profile.arcs
        self.reach = profile.reach


class ScoredCaptain:
    """A doctrine that scores candidate manoeuvres with a cheap damage model."""

    name = "scored"
    weights = Weights(threat=0.5, closing=0.05, keep_out=False, react=True)
    temperament: Temperament = AGGRESSIVE  # how it plays the advanced game

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.advanced = AdvancedDoctrine(self.temperament)

    def decide(self, view: BattleView, decision: Decision) -> Order:
        # the most frequent decisions first (the classes are unrelated: the order is free)
        if isinstance(decision, OrdersDecision):
            return self._orders(view, decision.squadron)
        if isinstance(decision, ActivationDecision):
            return self._activation(view, decision)
        if isinstance(decision, ReactionDecision):
            return self._reaction(view, decision)
        if isinstance(decision, RepairDecision):
            return default_repairs(view, decision)
        if isinstance(decision, InitiativeDecision):
            return InitiativeOrder(False)  # moving second sees where the enemy went
        if isinstance(decision, ReturnDecision):
            return default_return(view, decision)
        assert isinstance(decision, ADVANCED_DECISIONS)
        return self.advanced.decide(view, decision)

    # --- decisions ----------------------------------------------------------------------------

    def _activation(self, view: BattleView, decision: ActivationDecision) -> ActivateOrder:
        # the squadron farthest from the enemy moves first: the closest ones wait and see
        squadron = decision.squadrons[0]
        if len(decision.squadrons) > 1:
            enemies = [(e.x, e.y) for e in view.enemies()]
            best: tuple[float, str] | None = None
            for q in decision.squadrons:
                nearest = math.inf
                for s in view.members(q):
                    for ex, ey in enemies:
                        d = math.hypot(s.x - ex, s.y - ey)
                        if d < nearest:
                            nearest = d
                if nearest == math.inf:
                    nearest = 0.0  # nobody to measure: no enemy in sight, or no ship left
                if best is None or (nearest, q) > best:
                    best = (nearest, q)
            assert best is not None
            squadron = best[1]
        prey = dict(decision.forcible).get(squadron, ())
        return ActivateOrder(squadron, prey[0] if prey else None)

    def _reaction(self, view: BattleView, decision: ReactionDecision) -> ReactionOrder:
        if not self.weights.react:
            return ReactionOrder(decision.squadron)
        own = view.squadron(decision.squadron)
        movers = view.members(decision.mover)
        firers = view.firers(decision.squadron)
        need = []  # the firers whose forward arc is armed
        fire = []
        for ship in firers:
            kinds = ship.bears(Arc.F)
            if not kinds:
                continue
            need.append(ship)
            reach = max(ship.range_of(k) for k in kinds) + 20
            x, y, ux, uy = (
                ship.x,
                ship.y,
                _COS[ship.heading % HEADINGS],
                _SIN[ship.heading % HEADINGS],
            )
            best = None
            for m in movers:
                dx, dy = m.x - x, m.y - y
                d = math.hypot(dx, dy)
                if d > reach or (best is not None and d >= best[0]):
                    continue
                ahead = dx * ux + dy * uy  # in the forward arc, as arc_to decides it
                port = dy * ux - dx * uy
                if ahead >= (port if port >= 0.0 else -port):
                    best = (d, m.id)
            if best is not None:
                fire.append(FireTarget(ship.id, Arc.F, best[1]))
        if not fire or (not own.activated and len(fire) < len(firers)):
            return ReactionOrder(decision.squadron)
        if view.fires_as_unit() and len(fire) < len(need):
            targets = {f.ship for f in fire}
            fallback = fire[0].target
            fire += [FireTarget(s.id, Arc.F, fallback) for s in need if s.id not in targets]
        return ReactionOrder(decision.squadron, tuple(fire))

    def _focus(self, ships: list[ShipView], enemies: list[ShipView], memo: Memo) -> ShipView:
        """The enemy to concentrate on: most of its remaining hull per volley, then nearest."""
        cx = sum(s.x for s in ships) / len(ships)
        cy = sum(s.y for s in ships) / len(ships)

        best: tuple[float, float] | None = None
        chosen = enemies[0]
        volleys: dict[int, float] = {}  # our expected volley by target shields
        for e in enemies:
            volley = volleys.get(e.shields)
            if volley is None:
                volley = 0.0
                for s in ships:
                    for v in _volleys(s, e.shields, memo):
                        volley += v[2]
                volleys[e.shields] = volley
            key = (min(1.0, volley / max(1, e.superstructure)), -math.hypot(e.x - cx, e.y - cy))
            if best is None or key > best:  # the first of equals, as max() picks
                best, chosen = key, e
        return chosen

    def _orders(self, view: BattleView, sq: str) -> SquadronOrder:
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
        memo: Memo = {}
        focus = self._focus(members, enemies, memo)
        own_shields = min(s.shields for s in members)
        threats = [_Threat(e, Profile([e], own_shields, memo)) for e in enemies]
        moves: list[tuple[str | None, Maneuver]] = []
        ends: dict[str, tuple[float, float, int, float, float, int]] = {}
        width, height = view.scenario.table_width_cm, view.scenario.table_height_cm
        obstacles = view.obstacles()
        for mover in view.movers(sq):
            origin = view.mover_position(mover, sq)
            group = [s for s in members if (mover is None and not s.detached) or s.id == mover]
            candidates = self._candidates(view, mover, sq, origin)
            view.count_candidates(candidates.size)
            profile = Profile(group, focus.shields, memo)
            best = self._best(
                candidates, origin, profile, focus, threats, obstacles, (width, height)
            )
            moves.append((mover, best[1]))
            mx, my, h1, ex, ey, h2 = best[2]
            for s in group:
                dx, dy = ex - origin.x, ey - origin.y
                ends[s.id] = (
                    s.x + (mx - origin.x),
                    s.y + (my - origin.y),
                    h1,
                    s.x + dx,
                    s.y + dy,
                    h2,
                )
        fire = self._fire(view, sq, ends, enemies, focus, memo)
        return SquadronOrder(sq, tuple(moves), fire)

    def _candidates(
        self, view: BattleView, mover: str | None, sq: str, origin: ShipView
    ) -> _Candidates:
        """The manoeuvres worth scoring: low, middle and top speed with every pair of turns,
        and from standstill every pivot at top pivot speed (cached by the speed limits)."""
        lo, hi = view.speed_limits(mover, sq, False)
        plo, phi = view.speed_limits(mover, sq, True) if origin.last_speed == 0 else (1, 0)
        key = (lo, hi, plo, phi)
        found = _CANDIDATES.get(key)
        if found is None:
            out: list[Maneuver] = []
            for speed in sorted({lo, hi, (lo + hi) // 2}):
                if speed == 0:
                    out.append(Maneuver(0, 0, 0))
                    continue
                for t1 in (-1, 0, 1):
                    for t2 in (-1, 0, 1):
                        out.append(Maneuver(speed, t1, t2))
            if plo <= phi:
                for pivot in (-2, -1, 1, 2, 3):
                    for t2 in (-1, 0, 1):
                        out.append(Maneuver(phi, 0, t2, pivot))
            found = _CANDIDATES[key] = _Candidates.of(out)
        return found

    def _best(
        self,
        candidates: _Candidates,
        origin: ShipView,
        profile: Profile,
        focus: ShipView,
        threats: list[_Threat],
        obstacles: list[tuple[float, float, float]],
        table: tuple[float, float],
    ) -> tuple[float, Maneuver, tuple[float, float, int, float, float, int]]:
        """The best-scoring candidate (the first of equals); the hot path of the captains.

        A move is worth the damage our bearing weapons can expect on the focus target, mid-move
        or at the end, less what the enemy could fire back where we end up (allowing 8 cm of
        its own movement), less a little for every centimetre still to close; kiting also keeps
        out of reach, everyone keeps off the table edge, and a move into a planet (which would
        stop at its rim) loses 1000. Positions mid-move are shared by the candidates that
        differ only in their second turn, so each is worked out once.
        """
        w = self.weights
        w_threat, w_closing, keep_out = w.threat, w.closing, w.keep_out
        width, height = table
        reach, ours = profile.reach, profile.arcs
        fx, fy, hull = focus.x, focus.y, focus.superstructure
        ox, oy, oh = origin.x, origin.y, origin.heading
        foes = [(t.x, t.y, t.ux, t.uy, t.arcs, t.reach) for t in threats]
        hypot, cos, sin, faces = math.hypot, _COS, _SIN, HEADINGS  # locals: read fastest
        # The best is the highest score, the earliest candidate among equals (as a plain scan
        # in candidate order finds it): `top` and `first` hold its score and place.
        best: tuple[float, Maneuver, tuple[float, float, int, float, float, int]] | None = None
        top = -math.inf
        first = -1
        for turn, half, ends in candidates.groups:
            # the mid-move point, and what our weapons deal on the focus target from there
            h1 = (oh + turn) % faces
            mx, my = ox + cos[h1] * half, oy + sin[h1] * half
            at_mid = 0.0
            dm = hypot(fx - mx, fy - my)
            if dm <= reach:
                at_mid = _damage_at(ours[arc_index(mx, my, h1, fx, fy)], dm)
            for turn2, i, m in ends:
                dealt = at_mid
                h2 = (h1 + turn2) % faces
                ux, uy = cos[h2], sin[h2]
                ex, ey = mx + ux * half, my + uy * half
                dx, dy = fx - ex, fy - ey
                de = hypot(dx, dy)
                if de <= reach:
                    # the arc at the end that holds the focus target (`arc_index`, written out)
                    ahead = dx * ux + dy * uy
                    port = dy * ux - dx * uy
                    side = port if port >= 0.0 else -port
                    k = 0 if ahead >= side else 1 if -ahead >= side else 2 if port > 0.0 else 3
                    at_end = 0.0
                    for rng, dmg in ours[k]:  # `_damage_at`, written out
                        if de <= rng:
                            at_end += dmg
                    if at_end > dealt:
                        dealt = at_end
                if dealt >= hull:
                    dealt *= 1.5  # a kill removes its guns from the fight
                closing = w_closing * de
                bound = dealt - closing
                if bound < top or (bound == top and i > first):
                    # Every other term only lowers the score (rounding is monotone, so in floats
                    # too): this move cannot beat the best so far, and the answer is unchanged.
                    continue
                threat = 0.0
                for tx, ty, ux, uy, arcs, treach in foes:
                    d = hypot(tx - ex, ty - ey) + 8
                    if d <= treach:
                        # the arc of the enemy at (tx, ty) that holds our end point (as arc_to)
                        dx, dy = ex - tx, ey - ty
                        ahead = dx * ux + dy * uy
                        port = dy * ux - dx * uy
                        side = port if port >= 0.0 else -port
                        k = 0 if ahead >= side else 1 if -ahead >= side else 2 if port > 0.0 else 3
                        hit = 0.0
                        for rng, dmg in arcs[k]:  # `_damage_at`, written out
                            if d <= rng:
                                hit += dmg
                        threat += hit
                score = dealt - w_threat * threat - closing
                if keep_out and dealt == 0:
                    score -= w_closing * abs(de - 30)
                if ex < 8 or ey < 8 or ex > width - 8 or ey > height - 8:
                    score -= (8 - min(ex, ey, width - ex, height - ey)) * 0.5
                for cx, cy, cr in obstacles:
                    if segment_hits_circle(ox, oy, mx, my, cx, cy, cr) or segment_hits_circle(
                        mx, my, ex, ey, cx, cy, cr
                    ):
                        score -= 1000.0
                if score > top or (score == top and i < first):
                    top, first = score, i
                    best = (score, m, (mx, my, h1, ex, ey, h2))
        assert best is not None
        return best

    def _fire(
        self,
        view: BattleView,
        sq: str,
        ends: dict[str, tuple[float, float, int, float, float, int]],
        enemies: list[ShipView],
        focus: ShipView,
        memo: Memo,
    ) -> tuple[FireTarget, ...] | None:
        firers = view.firers(sq)
        if not firers or view.squadron(sq).fired:
            return None
        choices: list[tuple[float, FireTarget]] = []
        for ship in firers:
            mx, my, h1, ex, ey, h2 = ends.get(ship.id, (ship.x, ship.y, ship.heading) * 2)
            best: tuple[float, int, ShipView] | None = None
            for e in enemies:
                bonus = 1.2 if e is focus else 1.0
                volleys = _volleys(ship, e.shields, memo)
                for px, py, ph in ((mx, my, h1), (ex, ey, h2)):
                    k = arc_index(px, py, ph, e.x, e.y)
                    d = -1.0
                    value = 0.0
                    for shots, rng, dmg, into in volleys:
                        if shots > 0 and into[k]:  # a working weapon bears
                            if d < 0:
                                d = math.hypot(e.x - px, e.y - py)
                            if d <= rng:
                                value += dmg
                    if d < 0:
                        continue  # nothing bears into that arc
                    value *= bonus
                    # a lock may still fire later in the turn: value near misses a little
                    if value == 0:
                        value = 0.01 / (1 + d)
                    if best is None or value > best[0]:
                        best = (value, k, e)
            if best is not None:
                choices.append((best[0], FireTarget(ship.id, ARC_ORDER[best[1]], best[2].id)))
        if not choices or max(v for v, _ in choices) <= 0:
            return None
        if not view.fires_as_unit():
            chosen = [t for v, t in choices if v > 0]
            return tuple(chosen) or None
        if len(choices) < len(firers):
            return None
        return tuple(t for _, t in choices)


class AggressiveCaptain(ScoredCaptain):
    """Close in, bring the forward arc to bear at the best range, focus fire on a kill."""

    name = "aggressive"
    weights = Weights(threat=0.3, closing=0.08, keep_out=False, react=True)


class KitingCaptain(ScoredCaptain):
    """Stay outside the enemy's best range and inside its own; trade at a distance."""

    name = "kiting"
    weights = Weights(threat=1.0, closing=0.03, keep_out=True, react=True)
    temperament = KITING


def _register() -> None:
    register_captain("random", RandomCaptain)
    register_captain("aggressive", AggressiveCaptain)
    register_captain("kiting", KitingCaptain)


_register()
