"""The static duel, exactly: two ships at a fixed range that never move, each firing one arc at
the other every turn until one is destroyed or the turns run out.

`exact_duel` computes the outcome as a Markov chain over the two ships' states (superstructure,
shields, engine power, systems, and the working shots of the weapons that fire), step by step
in the order the engine resolves fire: in an exchange, groups by descending range, equal ranges
on both sides rolled together (FPF-FIRE-14); a ship's phasers before its photons, later groups
facing the shields earlier hits left (FPF-FIRE-08, FPF-FIRE-09, FPF-DMG-10); every hit's location
from the target's d10 table and its effect as FPF-DMG-07, FPF-DMG-08, FPF-DMG-09, FPF-DMG-10,
FPF-DMG-11, FPF-DMG-12, FPF-DMG-13, FPF-DMG-14 say: weapons damaged only by fire from an
arc they cover, control lost at 0 engine power or systems. No repairs: Damage Control is a
captain's choice, and the duel has no captains. Probabilities are floating point sums over every
outcome, no sampling: exact up to rounding (about 1e-12).

The joint distribution is one numpy array over the two ships' reachable states (see _Fast). Its
size is the product of the two counts, and the time grows with that product times the turns:
every pair of the small ships (Bird of Prey, Star Hawk, Sting, Defender) fits, from a tenth of
a second to 20 s of CPU for 12 turns, and minutes for Sting against Sting, the largest
(docs/assessment.md has the table); pairs of
cruisers have tens of millions of joint states and are refused, before any work, with the
count and the limit (`max_states`). `reference_duel` is the same chain over a dictionary of
joint states, slower by one to three orders of magnitude: the fast solver is tested against it,
and it answers the few duels the fast solver does not take (a ship whose photons outrange its
phasers, or two groups of one ship at a range both ships fire at).

`sample_duel` plays the same duel through the battle engine itself (a sandbox battle, the
engine's dice, locks and damage), so that the chain is an oracle for the engine's fire and
damage code, and answers duels too big to compute exactly.
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from math import comb
from math import cos
from math import radians
from math import sin

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from kolrami.catalog import Arc
from kolrami.catalog import Location
from kolrami.catalog import ShipClass
from kolrami.catalog import WeaponKind
from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.rules.fpf.damage import DAMAGE_SIDES
from kolrami.rules.fpf.damage import penetrating_faces
from kolrami.rules.fpf.fire import declare
from kolrami.rules.fpf.fire import resolve_locks
from kolrami.rules.fpf.orders import FireTarget
from kolrami.rules.module import Phase
from kolrami.rules.module import rules_of
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.sim.stats import wilson

#: Systems never fall below this (FPF-DMG-14); only their sign matters in a duel.
SYSTEMS_FLOOR = -10


class FireOrder(StrEnum):
    """Who fires first each turn."""

    EXCHANGE = "exchange"  # both locked at once: longest range first (FPF-FIRE-14)
    A_FIRST = "a-first"  # A's whole volley lands before B replies
    B_FIRST = "b-first"


@dataclass(frozen=True, slots=True)
class Duel:
    """Two ship classes, the arc each fires through, the range and the number of turns."""

    a: ShipClass
    arc_a: Arc
    b: ShipClass
    arc_b: Arc
    range_cm: float
    turns: int = 12
    order: FireOrder = FireOrder.EXCHANGE

    def __post_init__(self) -> None:
        if self.range_cm <= 0:
            raise InvalidInputError(f"range {self.range_cm:g} cm: ships stand at least 1 cm apart")
        if not 1 <= self.turns <= 200:
            raise InvalidInputError(f"{self.turns} turns: a duel lasts 1 to 200 turns")
        if not _groups(self.a, self.arc_a, self.range_cm) and not _groups(
            self.b, self.arc_b, self.range_cm
        ):
            raise InvalidInputError(
                f"at {self.range_cm:g} cm neither {self.a.name} ({self.arc_a.value}) nor "
                f"{self.b.name} ({self.arc_b.value}) has a weapon that reaches: nothing happens"
            )


#: the four ends of a duel, by the names its outcomes and samples give them
ENDS = ("a_wins", "b_wins", "both_destroyed", "unresolved")


@dataclass(frozen=True, slots=True)
class DuelOutcome:
    """Chances of the four ends of a duel (they sum to 1)."""

    a_wins: float  # B destroyed, A not
    b_wins: float
    both_destroyed: float
    unresolved: float  # both afloat when the turns run out

    def as_dict(self) -> dict[str, float]:
        """The four chances by name."""
        return {end: getattr(self, end) for end in ENDS}


# --- ship states ----------------------------------------------------------------------------

#: (superstructure, shields, engine power, systems, phaser shots, photon shots). A ship that can
#: never fire again (out of control, or no working weapon on its arc) keeps only superstructure
#: and shields: (ss, sh, 0, 0, 0, 0). Destroyed is DEAD.
State = tuple[int, int, int, int, int, int]
DEAD: State = (0, 0, 0, 0, 0, 0)


def _groups(ship: ShipClass, arc: Arc, range_cm: float) -> list[tuple[WeaponKind, int, int, int]]:
    """(kind, strength, shots, range) of the weapons that fire through `arc` at `range_cm`."""
    return [
        (k, w.strength, w.shots, w.range_cm)
        for k, w in ship.weapons()
        if w.bears(arc) and range_cm <= w.range_cm
    ]


def _can_fire(s: State) -> bool:
    return s[2] > 0


def _shots(s: State, kind: WeaponKind) -> int:
    return s[4] if kind is WeaponKind.PHASER else s[5]


@dataclass(frozen=True, slots=True)
class _Target:
    """What a hit on a ship does: its location table and which weapon rows the fire can damage
    (FPF-DMG-09: only those that cover the arc the fire comes from, its own firing arc)."""

    faces: tuple[Location, ...]  # location of d10 faces 1..10
    damageable: frozenset[WeaponKind]
    shield_floor: int  # shields at or below this give every incoming shot its best chance


def _target(ship: ShipClass, arc: Arc, incoming: list[tuple[WeaponKind, int, int, int]]) -> _Target:
    faces = tuple(ship.hit_locations.by_face[f] for f in range(1, 11))
    # penetrating_faces reaches its top (9 in 10) at shields <= strength + 2 (FPF-DMG-01,
    # FPF-DMG-02)
    floor = min(st for _, st, _, _ in incoming) + 2 if incoming else ship.shields
    return _Target(faces, frozenset(k for k, w in ship.weapons() if w.bears(arc)), floor)


def _start(ship: ShipClass, arc: Arc, range_cm: float, t: _Target) -> State:
    shots = {k: n for k, _, n, _ in _groups(ship, arc, range_cm)}
    state = (
        ship.superstructure,
        ship.shields,
        ship.engine_power,
        ship.computer,
        shots.get(WeaponKind.PHASER, 0),
        shots.get(WeaponKind.PHOTON, 0),
    )
    return _canonical(state, t)


def _canonical(s: State, t: _Target) -> State:
    """The state with everything that cannot matter any more lumped together (exactly):

    - a ship that can never fire again keeps only superstructure and shields;
    - engine power or systems at or above the superstructure can never cause a loss of control
      (a hit that would take them to 0 destroys the ship first), so they are capped there;
    - shields so low that every incoming group already needs only a 2 stay at that level:
      shields only fall, and every lower value gives the same chances.
    """
    ss, sh, ep, sy, ph, pt = s
    if ss <= 0:
        return DEAD
    sh = max(sh, t.shield_floor)
    if ep <= 0 or sy <= 0 or ph + pt == 0:
        return (ss, sh, 0, 0, 0, 0)
    return (ss, sh, min(ep, ss), min(sy, ss), ph, pt)


def _hit(s: State, loc: Location, amount: int, t: _Target) -> State:
    """One hit of `amount` on location `loc` (FPF-DMG-07, FPF-DMG-08, FPF-DMG-09, FPF-DMG-10,
    FPF-DMG-11, FPF-DMG-12, FPF-DMG-13, FPF-DMG-14), as Battle.apply_damage does."""
    ss, sh, ep, sy, ph, pt = s
    ss -= amount
    if ss <= 0:
        return DEAD
    if loc is Location.SHIELDS:
        sh = max(0, sh - amount)
    elif loc is Location.ENGINE_POWER:
        if _can_fire(s):
            ep = max(0, ep - amount)
    elif loc is Location.COMPUTER:
        if _can_fire(s):
            sy = max(SYSTEMS_FLOOR, sy - amount)
    elif loc is Location.PHASERS:
        if WeaponKind.PHASER in t.damageable:
            ph = max(0, ph - amount)
    elif WeaponKind.PHOTON in t.damageable:
        pt = max(0, pt - amount)
    return _canonical((ss, sh, ep, sy, ph, pt), t)


Dist = dict[State, float]


def _add(into: dict[State, float], key: State, weight: float) -> None:
    into[key] = into.get(key, 0.0) + weight


@cache
def _after_hits(
    s: State, kind: WeaponKind, hits: int, t: _Target
) -> tuple[tuple[State, float], ...]:
    """Distribution of the target's state after `hits` penetrating shots of `kind` land."""
    dist: Dist = {s: 1.0}
    sides = DAMAGE_SIDES[kind]
    for _ in range(hits):
        nxt: Dist = {}
        for state, w in dist.items():
            if state == DEAD:
                _add(nxt, DEAD, w)
                continue
            for loc in t.faces:
                for amount in range(1, sides + 1):
                    _add(nxt, _hit(state, loc, amount, t), w / (10 * sides))
        dist = nxt
    return tuple(dist.items())


@cache
def _volley(
    s: State, groups: tuple[tuple[WeaponKind, int, int], ...], shields: int, t: _Target
) -> tuple[tuple[State, float], ...]:
    """The target's state after `groups` (kind, strength, shots) roll against `shields` and
    their hits land in order."""
    dist: Dist = {s: 1.0}
    for kind, strength, shots in groups:
        p = penetrating_faces(shields, strength) / 10
        nxt: Dist = {}
        for state, w in dist.items():
            for k in range(shots + 1):
                pk = comb(shots, k) * p**k * (1 - p) ** (shots - k)
                for after, q in _after_hits(state, kind, k, t):
                    _add(nxt, after, w * pk * q)
        dist = nxt
    return tuple(dist.items())


# --- the chain ------------------------------------------------------------------------------

Pair = tuple[State, State]
Joint = dict[Pair, float]
Group = tuple[WeaponKind, int, int, int]  # kind, strength, printed shots, range
Fire = tuple[tuple[WeaponKind, int, int], ...]  # (kind, strength, shots) firing now


def _jadd(into: Joint, key: Pair, weight: float) -> None:
    into[key] = into.get(key, 0.0) + weight


class _Chain:
    """The duel's turn as a sequence of steps, each mapping the whole joint distribution of
    (A, B) to the next; equal states merge after every step, which keeps the chain small."""

    def __init__(self, duel: Duel, max_states: int = 10**9) -> None:
        self.duel = duel
        self.max_states = max_states
        self.groups = {
            "A": _groups(duel.a, duel.arc_a, duel.range_cm),
            "B": _groups(duel.b, duel.arc_b, duel.range_cm),
        }
        self.targets = {
            "A": _target(duel.a, duel.arc_a, self.groups["B"]),
            "B": _target(duel.b, duel.arc_b, self.groups["A"]),
        }
        both = [g[3] for side in ("A", "B") for g in self.groups[side]]
        self.tiers = sorted(set(both), reverse=True)

    def check(self, dist: Sized) -> None:
        """Stop as soon as the chain outgrows its budget, not a whole turn later."""
        if len(dist) > self.max_states:
            d = self.duel
            raise InvalidInputError(
                f"the exact duel {d.a.name} vs {d.b.name} outgrew {self.max_states} joint "
                "states; use fewer turns or smaller ships, or sample it (sample_duel)"
            )

    def live(self, side: str, own: State, other: State, kind: WeaponKind) -> int:
        """Shots `side`'s group of `kind` fires now: 0 unless both ships are afloat and the
        firer is in control with working shots (Battle's _can_still_fire)."""
        if own == DEAD or other == DEAD or not _can_fire(own):
            return 0
        return _shots(own, kind)

    def ready(self, side: str, s: State) -> bool:
        """Whether `side` declares fire at the start of the turn: in control, shots to fire."""
        return s != DEAD and _can_fire(s) and any(_shots(s, g[0]) > 0 for g in self.groups[side])

    def group_step(self, dist: Joint, side: str, group: Group) -> Joint:
        """One group of `side` fires at the other ship, wherever it still can."""
        kind, strength = group[0], group[1]
        t = self.targets["B" if side == "A" else "A"]
        out: Joint = {}
        for (a, b), w in dist.items():
            own, other = (a, b) if side == "A" else (b, a)
            shots = self.live(side, own, other, kind)
            if shots == 0:
                _jadd(out, (a, b), w)
                continue
            for after, q in _volley(other, ((kind, strength, shots),), other[1], t):
                _jadd(out, (a, after) if side == "A" else (after, b), w * q)
        self.check(out)
        return out

    def one_side(self, dist: Joint, side: str) -> Joint:
        """`side` alone resolves its volley: phasers, then photons (FPF-FIRE-08, FPF-FIRE-09)."""
        for group in sorted(self.groups[side], key=lambda g: g[0] is WeaponKind.PHOTON):
            dist = self.group_step(dist, side, group)
        return dist

    def tier_step(self, dist: Joint, rng: int) -> Joint:
        """Every group of range `rng` (FPF-FIRE-14): groups on both sides roll together against
        the ships as they stand, then the hits land; one side alone fires group by group.

        Both sides at once is done in two passes that merge in between: B's fire lands on A
        while A's fire, as it stood, is carried along; then A's carried fire lands on B.
        """
        tier = {side: [g for g in self.groups[side] if g[3] == rng] for side in ("A", "B")}
        out: Joint = {}
        carried: dict[tuple[State, State, Fire], float] = {}
        for (a, b), w in dist.items():
            fire_a = self.fire(tier["A"], a, b)
            fire_b = self.fire(tier["B"], b, a)
            if fire_a and fire_b:
                for x, p in _volley(a, fire_b, a[1], self.targets["A"]):
                    key = (x, b, fire_a)
                    carried[key] = carried.get(key, 0.0) + w * p
                continue
            part: Joint = {(a, b): w}
            for side, fire in (("A", fire_a), ("B", fire_b)):
                if fire:
                    for g in sorted(tier[side], key=lambda g: g[0] is WeaponKind.PHOTON):
                        part = self.group_step(part, side, g)
            for pair, q in part.items():
                _jadd(out, pair, q)
        target_b = self.targets["B"]
        self.check(carried)
        for (x, b, fire_a), w in carried.items():
            for y, q in _volley(b, fire_a, b[1], target_b):
                _jadd(out, (x, y), w * q)
        self.check(out)
        return out

    def fire(self, groups: list[Group], own: State, other: State) -> Fire:
        """(kind, strength, shots) of `groups` that can fire now."""
        if own == DEAD or other == DEAD or not _can_fire(own):
            return ()
        return tuple((g[0], g[1], n) for g in groups if (n := _shots(own, g[0])) > 0)

    def turn(self, dist: Joint) -> Joint:
        """One turn of fire over the whole distribution."""
        order = self.duel.order
        if order is not FireOrder.EXCHANGE:
            first, second = ("A", "B") if order is FireOrder.A_FIRST else ("B", "A")
            dist = self.one_side(dist, first)
            return self.one_side(dist, second)
        # Both declared: fire by range tiers. Only one able to fire: its plain volley.
        both: Joint = {}
        out: Joint = {}
        alone: dict[str, Joint] = {"A": {}, "B": {}}
        for (a, b), w in dist.items():
            ra, rb = self.ready("A", a), self.ready("B", b)
            if ra and rb:
                both[a, b] = w
            elif ra or rb:
                alone["A" if ra else "B"][a, b] = w
            else:
                _jadd(out, (a, b), w)
        for rng in self.tiers:
            both = self.tier_step(both, rng)
        for part in (both, self.one_side(alone["A"], "A"), self.one_side(alone["B"], "B")):
            for pair, w in part.items():
                _jadd(out, pair, w)
        return out


def _settled(a: State, b: State) -> bool:
    """Nothing can change any more: a ship is destroyed, or neither can fire."""
    return a == DEAD or b == DEAD or (not _can_fire(a) and not _can_fire(b))


def reference_duel(duel: Duel, max_states: int = 400_000) -> DuelOutcome:
    """The duel by the step-by-step chain over a dictionary of joint states: the reference the
    fast solver is tested against, and the way duels it does not take are answered.

    Raises InvalidInputError as soon as the chain outgrows `max_states` joint states.
    """
    chain = _Chain(duel, max_states)
    start = (
        _start(duel.a, duel.arc_a, duel.range_cm, chain.targets["A"]),
        _start(duel.b, duel.arc_b, duel.range_cm, chain.targets["B"]),
    )
    dist: Joint = {start: 1.0}
    for _ in range(duel.turns):
        settled = {pair: w for pair, w in dist.items() if _settled(*pair)}
        dist = chain.turn({pair: w for pair, w in dist.items() if pair not in settled})
        for pair, w in settled.items():
            _jadd(dist, pair, w)
    ends = {"a": 0.0, "b": 0.0, "both": 0.0, "none": 0.0}
    for (a, b), w in dist.items():
        if a == DEAD and b == DEAD:
            ends["both"] += w
        elif b == DEAD:
            ends["a"] += w
        elif a == DEAD:
            ends["b"] += w
        else:
            ends["none"] += w
    return DuelOutcome(ends["a"], ends["b"], ends["both"], ends["none"])


# --- the fast solver: the joint distribution as one array -----------------------------------
#
# A ship's fire changes only the other ship's state, and depends on its own state only through
# the shots it fires now (0 once it is destroyed or out of control). So the joint distribution is
# a matrix P[a, b] over the two ships' reachable states, and a group's fire is a linear map on one
# axis whose weights depend on the other axis only through that shot count: columns (or rows)
# with the same count get the same map. A volley of m shots is the binomial mixture of 0..m hits
# (weights from the target's shields before the volley), evaluated by Horner's rule over a
# one-hit map that is a sparse matrix. Everything is exact arithmetic on the same terms as the
# step-by-step chain above, in another order.

FArr = npt.NDArray[np.float64]
IArr = npt.NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class _HitMap:
    """One penetrating shot of one kind landing on a ship, over its reachable states sorted by
    superstructure (DEAD first): a hit always takes superstructure down, so the map is a set of
    small dense blocks from one superstructure level to a lower one, each one matrix product."""

    blocks: tuple[tuple[slice, slice, FArr], ...]  # (destination rows, source rows, weights)

    def restrict(self, keep: IArr) -> _HitMap:
        """The map on the states `keep` (sorted indices of a set no hit leaves), renumbered."""
        where = np.full(max(max(d.stop, r.stop) for d, r, _ in self.blocks), -1, dtype=np.intp)
        where[keep] = np.arange(len(keep))
        blocks = []
        for dst, src, w in self.blocks:
            d = np.flatnonzero(where[dst] >= 0)
            r = np.flatnonzero(where[src] >= 0)
            if len(d) and len(r):
                d0, r0 = int(where[dst.start + d[0]]), int(where[src.start + r[0]])
                sub = w[np.ix_(d, r)]
                blocks.append((slice(d0, d0 + len(d)), slice(r0, r0 + len(r)), sub))
        return _HitMap(tuple(blocks))

    def push(self, y: FArr) -> FArr:
        out = np.zeros_like(y)
        empty = {src.start for _, src, _ in self.blocks if not y[src].any()}
        for dst, src, w in self.blocks:
            if src.start not in empty:  # early on most levels hold no mass yet
                out[dst] += w @ y[src]
        return out


@dataclass(frozen=True, slots=True)
class _Side:
    """One ship's reachable states as the target of the other's fire, and what it fires."""

    states: tuple[State, ...]
    shields: IArr
    shots: dict[WeaponKind, IArr]  # shots its group of that kind fires now (0 out of control)
    hits: dict[WeaponKind, _HitMap]  # one incoming hit of that kind
    dead: int

    def restrict(self, keep: IArr) -> _Side:
        """The side on the states `keep` (sorted indices of a set no hit leaves)."""
        return _Side(
            tuple(self.states[i] for i in keep),
            self.shields[keep],
            {k: v[keep] for k, v in self.shots.items()},
            {k: h.restrict(keep) for k, h in self.hits.items()},
            0,
        )


class _Reach:
    """The states a ship can reach with at most `hits` hits of `kinds` (DEAD included), found one
    state at a time, so that two ships' counts can be weighed against the limit as they grow."""

    def __init__(self, start: State, kinds: set[WeaponKind], t: _Target, hits: int) -> None:
        self.kinds, self.t = kinds, t
        self.seen = {start, DEAD}
        self.layer: list[State] = [start]
        self.next: list[State] = []
        self.left = hits  # layers still to expand
        self.done = hits == 0

    def step(self) -> None:
        s = self.layer.pop()
        if s != DEAD:
            for kind in self.kinds:
                for loc in set(self.t.faces):
                    for amount in range(1, DAMAGE_SIDES[kind] + 1):
                        n = _hit(s, loc, amount, self.t)
                        if n not in self.seen:
                            self.seen.add(n)
                            self.next.append(n)
        if not self.layer:
            self.left -= 1
            self.layer, self.next = self.next, []
            self.done = self.left == 0 or not self.layer

    def states(self) -> list[State]:
        return sorted(self.seen)


def _hit_map(states: list[State], kind: WeaponKind, t: _Target) -> _HitMap:
    """`states` sorted (so by superstructure, DEAD first)."""
    sides = DAMAGE_SIDES[kind]
    index = {s: i for i, s in enumerate(states)}
    level = [s[0] for s in states]
    bounds: dict[int, slice] = {}
    for i, ss in enumerate(level):
        lo = bounds[ss].start if ss in bounds else i
        bounds[ss] = slice(lo, i + 1)
    weights: dict[tuple[int, int], FArr] = {(0, 0): np.ones((1, 1))}  # DEAD stays DEAD
    for i, s in enumerate(states):
        if s == DEAD:
            continue
        for loc in t.faces:
            for amount in range(1, sides + 1):
                j = index.get(_hit(s, loc, amount, t), -1)
                if j < 0:  # more hits than the duel's turns can land: no mass ever goes there
                    continue
                key = (level[j], level[i])
                if key not in weights:
                    dst, src = bounds[key[0]], bounds[key[1]]
                    weights[key] = np.zeros((dst.stop - dst.start, src.stop - src.start))
                weights[key][j - bounds[key[0]].start, i - bounds[key[1]].start] += 1.0 / (
                    10 * sides
                )
    return _HitMap(tuple((bounds[d], bounds[r], w) for (d, r), w in sorted(weights.items())))


def _side(states: list[State], own: list[Group], incoming: set[WeaponKind], t: _Target) -> _Side:
    shots = {
        g[0]: np.array([_shots(s, g[0]) if _can_fire(s) else 0 for s in states], dtype=np.intp)
        for g in own
    }
    return _Side(
        tuple(states),
        np.array([s[1] for s in states], dtype=np.intp),
        shots,
        {k: _hit_map(states, k, t) for k in incoming},
        states.index(DEAD),
    )


def _binomial(m: int, k: int, p: FArr) -> FArr:
    return float(comb(m, k)) * p**k * (1.0 - p) ** (m - k)


def _fire_on(target: _Side, y: FArr, kind: WeaponKind, strength: int, shots: IArr) -> FArr:
    """`y[target state, firer state]` after the firer's group (kind, strength) fires `shots[j]`
    shots from firer state j at the target (FPF-DMG-01, FPF-DMG-02: every shot of the group
    rolls against the shields the target has before the group fires)."""
    p = np.array([penetrating_faces(int(s), strength) / 10 for s in target.shields])[:, None]
    hit = target.hits[kind]
    held = y.any(axis=0)
    for m in sorted(set(shots.tolist()) - {0}):
        cols = np.flatnonzero((shots == m) & held)
        if not len(cols):
            continue
        sub = y[:, cols]
        acc = sub * _binomial(m, m, p)
        for k in range(m - 1, -1, -1):
            acc = hit.push(acc) + sub * _binomial(m, k, p)
        y[:, cols] = acc
    return y


class _Fast:
    """The duel's turns as maps on P[a, b] (see the comment above)."""

    def __init__(self, duel: Duel, chain: _Chain, sides: tuple[_Side, _Side]) -> None:
        self.duel = duel
        self.chain = chain
        self.a, self.b = sides
        self._below: dict[tuple[WeaponKind, int], tuple[IArr, _Side]] = {}

    def on_b(self, p: FArr, g: Group, shots: IArr | None = None) -> FArr:
        """A's group `g` fires at B (rows: A's states, whose shots it fires unless given)."""
        n = self.a.shots[g[0]] if shots is None else shots
        return np.ascontiguousarray(_fire_on(self.b, np.ascontiguousarray(p.T), g[0], g[1], n).T)

    def on_a(self, p: FArr, g: Group) -> FArr:
        """B's group `g` fires at A."""
        return _fire_on(self.a, p, g[0], g[1], self.b.shots[g[0]])

    def one_side(self, p: FArr, side: str) -> FArr:
        """`side` fires all its groups, phasers then photons (FPF-FIRE-08, FPF-FIRE-09)."""
        for g in sorted(self.chain.groups[side], key=lambda g: g[0] is WeaponKind.PHOTON):
            p = self.on_b(p, g) if side == "A" else self.on_a(p, g)
        return p

    def tier(self, p: FArr, rng: int) -> FArr:
        """The groups of range `rng` (FPF-FIRE-14). When both ships fire in it, they roll
        against each other as they stand: A's fire on B is taken apart by the shots A fires, so
        that B's fire on A can land first without changing what A fires."""
        ga = [g for g in self.chain.groups["A"] if g[3] == rng]
        gb = [g for g in self.chain.groups["B"] if g[3] == rng]
        if not gb:
            for g in sorted(ga, key=lambda g: g[0] is WeaponKind.PHOTON):
                p = self.on_b(p, g)
            return p
        if not ga:
            for g in sorted(gb, key=lambda g: g[0] is WeaponKind.PHOTON):
                p = self.on_a(p, g)
            return p
        (g_a,), (g_b,) = ga, gb  # _supported: one group a side in a shared tier
        shots = self.a.shots[g_a[0]]
        out = np.zeros_like(p)
        held = p.any(axis=1)
        for m in sorted(set(shots[held].tolist())):
            # A's states with at most m shots of the kind: B's hits never lead out of them
            keep, side = self.below(g_a[0], m)
            part = np.where((side.shots[g_a[0]] == m)[:, None], p[keep], 0.0)
            part = _fire_on(side, part, g_b[0], g_b[1], self.b.shots[g_b[0]])
            if m:
                part = self.on_b(part, g_a, np.full(len(keep), m, dtype=np.intp))
            out[keep] += part
        return out

    def below(self, kind: WeaponKind, m: int) -> tuple[IArr, _Side]:
        """A's states whose group of `kind` fires at most `m` shots, and A on them."""
        if (kind, m) not in self._below:
            keep = np.flatnonzero(self.a.shots[kind] <= m)
            self._below[kind, m] = (keep, self.a.restrict(keep))
        return self._below[kind, m]

    def turn(self, p: FArr) -> FArr:
        order = self.duel.order
        if order is not FireOrder.EXCHANGE:
            first, second = ("A", "B") if order is FireOrder.A_FIRST else ("B", "A")
            return self.one_side(self.one_side(p, first), second)
        for rng in self.chain.tiers:
            p = self.tier(p, rng)
        return p


def _supported(chain: _Chain) -> bool:
    """Whether the fast solver resolves this duel's fire in the chain's order: a ship that fires
    alone resolves its groups by range (the fast path) and by kind (the chain) alike only when
    its phasers reach at least as far as its photons, and a range both ships fire at holds one
    group of each."""
    if chain.duel.order is not FireOrder.EXCHANGE:
        return True
    for side in ("A", "B"):
        rng = {g[0]: g[3] for g in chain.groups[side]}
        if len(rng) == 2 and rng[WeaponKind.PHASER] < rng[WeaponKind.PHOTON]:
            return False
    for r in chain.tiers:
        counts = [sum(g[3] == r for g in chain.groups[s]) for s in ("A", "B")]
        if min(counts) >= 1 and max(counts) >= 2:
            return False
    return True


#: Joint states (the product of the two ships' reachable states) the fast solver takes on; its
#: time grows with them times the turns, its memory with them (8 bytes each, a few copies).
MAX_STATES = 6_000_000


def exact_duel(duel: Duel, max_states: int = MAX_STATES) -> DuelOutcome:
    """The exact chances of the duel's four ends (see the module docstring).

    Refuses with InvalidInputError, before any of the chain's work, when the two ships' reachable
    states (those the duel's turns can reach) multiply to more than `max_states` joint states.
    The default, 6 million, takes every pair of small ships over 12 turns. Memory is 8 bytes a
    joint state times a few copies, time grows with the joint states times the turns: Sting
    against Sting (5.5 million) peaks near 500 MB and takes minutes of CPU.
    """
    chain = _Chain(duel)
    start_a = _start(duel.a, duel.arc_a, duel.range_cm, chain.targets["A"])
    start_b = _start(duel.b, duel.arc_b, duel.range_cm, chain.targets["B"])
    kinds = {side: {g[0] for g in chain.groups[side]} for side in ("A", "B")}
    # a ship takes at most the other's printed shots in hits a turn
    hits = {side: duel.turns * sum(g[2] for g in chain.groups[side]) for side in ("A", "B")}
    ra = _Reach(start_a, kinds["B"], chain.targets["A"], hits["B"])
    rb = _Reach(start_b, kinds["A"], chain.targets["B"], hits["A"])
    while not (ra.done and rb.done):
        # grow the smaller count: the product of the two is a lower bound of the joint states
        (rb if ra.done or (not rb.done and len(rb.seen) < len(ra.seen)) else ra).step()
        if len(ra.seen) * len(rb.seen) > max_states:
            raise InvalidInputError(
                f"the exact duel {duel.a.name} vs {duel.b.name} over {duel.turns} turns has "
                f"more than {max_states:,} joint states (the limit): sample it in the engine "
                "(sample_duel) or give it fewer turns; kolrami assess measures ships in whole "
                "battles"
            )
    states_a, states_b = ra.states(), rb.states()
    if not _supported(chain):
        return reference_duel(duel)
    sides = (
        _side(states_a, chain.groups["A"], kinds["B"], chain.targets["A"]),
        _side(states_b, chain.groups["B"], kinds["A"], chain.targets["B"]),
    )
    fast = _Fast(duel, chain, sides)
    p = np.zeros((len(states_a), len(states_b)))
    p[states_a.index(start_a), states_b.index(start_b)] = 1.0
    # one BLAS thread: the products are small, and a second thread that waits for work costs
    # CPU time (many times over on a busy machine) without saving any
    with threadpool_limits(limits=1, user_api="blas"):
        for _ in range(duel.turns):
            p = fast.turn(p)
    da, db = sides[0].dead, sides[1].dead
    both = float(p[da, db])
    a_wins = float(p[:, db].sum()) - both
    b_wins = float(p[da, :].sum()) - both
    # DEAD sorts first on each side; the rest is both afloat
    return DuelOutcome(a_wins, b_wins, both, float(p[1:, 1:].sum()))


# --- the same duel in the engine ------------------------------------------------------------

#: Centre bearing of each arc, degrees counter-clockwise from dead ahead (geometry.py's convention).
_ARC_CENTRE = {Arc.F: 0.0, Arc.P: 90.0, Arc.A: 180.0, Arc.S: 270.0}


def _placement(duel: Duel) -> tuple[tuple[float, float, int], tuple[float, float, int]]:
    """Positions and headings that put each ship in the middle of the other's chosen arc."""
    ax, ay = 90.0, 60.0
    angle = 90.0 + _ARC_CENTRE[duel.arc_a]  # A faces heading 0, i.e. 90 degrees (up the table)
    bx = ax + duel.range_cm * cos(radians(angle))
    by = ay + duel.range_cm * sin(radians(angle))
    back = (angle + 180.0) % 360.0  # direction from B to A

    def off_centre(h: int) -> float:
        rel = (back - 90.0 - 60.0 * h) % 360.0
        d = abs(rel - _ARC_CENTRE[duel.arc_b]) % 360.0
        return min(d, 360.0 - d)

    hb = min(range(6), key=off_centre)
    return (ax, ay, 0), (bx, by, hb)


@dataclass(frozen=True, slots=True)
class DuelSample:
    """Counts of the four ends over `n` engine duels, and their Wilson intervals."""

    n: int
    a_wins: int
    b_wins: int
    both_destroyed: int
    unresolved: int

    def interval(self, end: str, level: float = 0.95) -> tuple[float, float]:
        """Wilson interval of one end's chance ('a_wins', 'b_wins', ...)."""
        count: int = getattr(self, end)
        return wilson(count, self.n, level)

    def as_dict(self) -> dict[str, int]:
        """The four counts by name."""
        return {end: getattr(self, end) for end in ENDS}


def sample_duel(duel: Duel, n: int, seed: int = 1) -> DuelSample:
    """Play the duel `n` times in the battle engine (its dice, locks, fire and damage code)."""
    (ax, ay, ha), (bx, by, hb) = _placement(duel)
    counts = {"a": 0, "b": 0, "both": 0, "none": 0}
    for i in range(n):
        battle = sandbox([[duel.a.id]], [[duel.b.id]], seed=derive_seed(seed, "duel", i))
        place(battle, "A1", ax, ay, ha)
        place(battle, "B1", bx, by, hb)
        a, b = battle.ships["A1"], battle.ships["B1"]
        for _ in range(duel.turns):
            if not a.alive or not b.alive:
                break
            a_fires = FireTarget("A1", duel.arc_a, "B1")
            b_fires = FireTarget("B1", duel.arc_b, "A1")
            if duel.order is FireOrder.EXCHANGE:
                steps = [[a_fires, b_fires]]
            elif duel.order is FireOrder.A_FIRST:
                steps = [[a_fires], [b_fires]]
            else:
                steps = [[b_fires], [a_fires]]
            for step in steps:
                ready = tuple(
                    t
                    for t in step
                    if battle.ships[t.ship].alive and battle.ships[t.ship].in_control
                )
                if ready and a.alive and b.alive:
                    declare(battle, ready, None)
                    resolve_locks(battle)
            # the rules' own end of the turn: locks last one turn (FPF-FIRE-07)
            rules_of(battle).run(Phase.END_OF_TURN, battle)
        end = (
            "both"
            if not a.alive and not b.alive
            else "a"
            if not b.alive
            else "b"
            if not a.alive
            else "none"
        )
        counts[end] += 1
    return DuelSample(n, counts["a"], counts["b"], counts["both"], counts["none"])
