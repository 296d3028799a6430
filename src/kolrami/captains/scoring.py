"""The scoring kernel of the scored doctrines (`aggressive`, `kiting`; captains/doctrines.py).

A cheap model of what a manoeuvre and a volley are worth, in expected damage:

- A ship's *weapon groups* (its phasers, its photons) against a shield value: working shots,
  range, expected damage of the full volley (`base.mean_volley`) and the arcs they fire into.
- The *firepower* of some ships against one shield value: for each arc, how much damage the
  groups bearing into it deal at each range; and their reach, the longest range of a group that
  can do damage at all.
- A *move* is scored by the damage our bearing weapons can expect on the focus target from the
  mid-move point or the end (whichever is more), less what the enemies could fire back at the
  end point, less a little for every centimetre still to close; kiting also keeps out of reach,
  everyone keeps off the table edge, and a move into a planet is all but ruled out.
- A *volley* is worth the damage of the weapons that bear on a target and reach it, from the
  mid-move point or the end; a little more on the focus target.

Arcs are indexed as `geometry.arc_index` numbers them (`ARC_ORDER`: front, aft, port, starboard).
The doctrines must choose exactly the orders they always chose (scripts/log_fingerprint.py), so
every sum here adds the same numbers in the same order as before: float addition is not
associative, and a choice between two close moves can turn on the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import cos
from math import inf
from math import radians
from math import sin
from math import sqrt
from typing import Final
from typing import final

from kolrami.catalog.models import Arc
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import WeaponKind
from kolrami.engine.battle import working_shots
from kolrami.engine.geometry import ARC_ORDER
from kolrami.engine.geometry import HEADINGS
from kolrami.engine.geometry import segment_hits_circle
from kolrami.engine.geometry import unit
from kolrami.engine.view import ShipView
from kolrami.rules.fpf.damage import penetrating_faces
from kolrami.rules.fpf.orders import Maneuver

#: How far an enemy is allowed to move before it fires back at our end point, in cm (a float:
#: it is added to distances, and float with float is Python's quick case).
ENEMY_MOVE_CM: Final = 8.0
#: A move that kills the focus target counts its damage this many times (its guns go too).
KILL_BONUS: Final = 1.5
#: How close to the table edge a move may end before it loses score, in cm; and how much it
#: loses for each centimetre closer.
EDGE_MARGIN_CM: Final = 8
EDGE_PENALTY_PER_CM: Final = 0.5
#: What a move whose path crosses a planet loses (the move would stop at the planet's rim).
PLANET_PENALTY: Final = 1000.0
#: The distance a kiting doctrine keeps from its focus target when it cannot hurt it, in cm.
KITING_DISTANCE_CM: Final = 30
#: A volley on the focus target counts this many times its damage.
FOCUS_BONUS: Final = 1.2
#: The value of a lock that cannot hurt its target yet (it may still fire later in the turn):
#: this much, divided by one more than the distance.
NEAR_MISS_VALUE: Final = 0.01
#: How much farther out a kiting ship holds when all of its hull is gone (`Weights.withdraw`).
WITHDRAW_CM: Final = 20.0
#: (an enum member as a module constant: compiled code reads it as a C static)
_PHOTON: Final = WeaponKind.PHOTON
#: math.hypot as a module constant: a C static in compiled code, where an imported name is
#: looked up in the module's dict at every call (and this is the captains' most called one)
hypot: Final = math.hypot
#: (the builtin as a module constant: looked up in builtins at every call otherwise)
_round: Final = round
#: The unit vector of each heading (`geometry.unit`).
UNIT: Final[tuple[tuple[float, float], ...]] = tuple(unit(heading) for heading in range(HEADINGS))
#: The same numbers as module constants, for `_unit` (compiled: C statics holding plain floats,
#: where UNIT's items are tuples of boxed ones)
_U0X: Final = UNIT[0][0]
_U0Y: Final = UNIT[0][1]
_U1X: Final = UNIT[1][0]
_U1Y: Final = UNIT[1][1]
_U2X: Final = UNIT[2][0]
_U2Y: Final = UNIT[2][1]
_U3X: Final = UNIT[3][0]
_U3Y: Final = UNIT[3][1]
_U4X: Final = UNIT[4][0]
_U4Y: Final = UNIT[4][1]
_U5X: Final = UNIT[5][0]
_U5Y: Final = UNIT[5][1]


def _unit(heading: int) -> tuple[float, float]:
    """`UNIT[heading]`: compiled, a pair of plain floats returned by value."""
    if heading == 0:
        return _U0X, _U0Y
    if heading == 1:
        return _U1X, _U1Y
    if heading == 2:
        return _U2X, _U2Y
    if heading == 3:
        return _U3X, _U3Y
    if heading == 4:
        return _U4X, _U4Y
    if heading == 5:
        return _U5X, _U5Y
    return UNIT[heading]  # (as the tuple answers any other index: an error, or from the end)


@dataclass(frozen=True, slots=True)
class Weights:
    """How a doctrine trades damage dealt, damage risked and closing distance."""

    threat: float  # weight of the damage the enemy could deal back
    closing: float  # value of a centimetre closer to the focus target
    keep_out: bool  # when it cannot hurt the focus target, keep KITING_DISTANCE_CM from it
    react: bool  # use reaction fire
    jumps: bool = False  # make a micro warp jump to close a long distance (FPF-OPT-04)
    # The fixes of issue 21, each a switch so that it can be measured against the doctrine
    # without it (scripts/captain_strength.py); all off is the doctrines as they were.
    #: a squadron that fires as a unit fires with those who can: a ship with nothing in arc
    #: locks on anyway instead of holding the whole squadron's fire (FPF-FIRE-13)
    unit_fire: bool = False
    #: a move and a lock are scored along the whole path: from the start point too, and at
    #: the point where the move stops short of another base (FPF-MOV-08); a squadron declares
    #: fire only when some lock can deal damage, keeping its volley for reaction fire otherwise
    full_path: bool = False
    #: choose to move first when the enemy is within reach this turn (else second)
    initiative: bool = False
    #: a damaged ship's value of withdrawing: with `lost` the share of its hull gone, the
    #: threat weight is multiplied by 1 + withdraw x lost, and the value of closing by
    #: 1 - 2 x withdraw x lost (below nothing past half its hull: it then values distance);
    #: kiting instead holds WITHDRAW_CM x withdraw x lost farther out
    withdraw: float = 0.0
    #: keep the distance at which the best arc's longest group reaches (kiting's style) rather
    #: than closing: `closing` is then the price of a centimetre off that distance
    hold_range: bool = False
    #: kiting's flank (issue 21, its own style): hold that distance not anywhere around the
    #: focus target but at this many degrees off its nose, on the side the mover is on, so
    #: it fights from the edge of the target's arcs rather than in front of them; 0 is off
    flank: float = 0.0


# --- weapons and firepower --------------------------------------------------------------------


@final
class WeaponGroup:
    """One weapon row of a ship (its phasers or its photons) against one shield value: its
    working shots (knocked-out mounts counting 0); its range in cm; the expected damage of the
    whole volley against the shields; the arcs it fires into, as indices into ARC_ORDER, and as
    a bit mask (bit i for ARC_ORDER[i]). A decision makes dozens; compiled, a plain class with
    typed fields is a struct whose floats are read unboxed (a tuple's items are boxed objects).
    The range is a float, though a whole number: the kernel compares it with distances."""

    __slots__ = ("arcs", "damage", "mask", "range_cm", "shots")

    def __init__(
        self, shots: int, range_cm: float, damage: float, arcs: tuple[int, ...], mask: int
    ) -> None:
        self.shots = shots
        self.range_cm = range_cm
        self.damage = damage
        self.arcs = arcs
        self.mask = mask

    def __repr__(self) -> str:
        return (
            f"WeaponGroup(shots={self.shots!r}, range_cm={self.range_cm!r}, "
            f"damage={self.damage!r}, arcs={self.arcs!r})"
        )


class _ArcIndices(dict[tuple[Arc, ...], tuple[tuple[int, ...], int]]):
    """A weapon's arcs as indices into ARC_ORDER and as a bit mask, worked out once for each
    set of arcs."""

    def __missing__(self, arcs: tuple[Arc, ...]) -> tuple[tuple[int, ...], int]:
        indices = tuple(i for i, arc in enumerate(ARC_ORDER) if arc in arcs)
        mask = 0
        for i in indices:
            mask |= 1 << i
        self[arcs] = (indices, mask)
        return indices, mask


_ARC_INDICES: Final = _ArcIndices()

#: Each ship class's weapon rows as (kind, arc indices, arc mask), in resolution order, by the
#: class's identity: a class never changes in play, and a catalog model's fields are slow to
#: read. An entry holds its class, so no other object can take its id while it stands.
_ROWS: Final[dict[int, tuple[ShipClass, tuple[tuple[WeaponKind, tuple[int, ...], int], ...]]]] = {}


def _rows(cls: ShipClass) -> tuple[tuple[WeaponKind, tuple[int, ...], int], ...]:
    if len(_ROWS) >= 256:  # (a bound for long sessions of packs made on the fly)
        _ROWS.clear()
    rows = tuple((kind, *_ARC_INDICES[weapon.arcs]) for kind, weapon in cls.weapons())
    _ROWS[id(cls)] = (cls, rows)
    return rows


def weapon_groups(ship: ShipView, target_shields: int) -> list[WeaponGroup]:
    """Each weapon group of `ship` against `target_shields`, in resolution order."""
    known = _ROWS.get(id(ship.cls))
    rows = _rows(ship.cls) if known is None else known[1]
    groups = []
    for kind, arcs, mask in rows:
        shots = working_shots(ship.mounts[kind])
        # `base.mean_volley(shots, strength, target_shields, kind)`, written out (the same
        # sums): a call of its memo from compiled code costs more than working it out
        p = penetrating_faces(target_shields, ship.strength[kind]) / 10
        damage = shots * p * (3.5 if kind is _PHOTON else 1.0)
        groups.append(WeaponGroup(shots, float(ship.ranges.get(kind, 0)), damage, arcs, mask))
    return groups


@final
class Armament:
    """What a ship's weapon groups are worked out from (its class, and copies of its mounts,
    strengths and ranges); its groups against each shield value asked for so far, and the
    firepower of the ship alone against each (`enemy`)."""

    __slots__ = ("alone", "by_shields", "cls", "mounts", "ranges", "strength")

    def __init__(self, ship: ShipView) -> None:
        self.cls = ship.cls
        self.mounts = ship.mounts.copy()
        self.strength = ship.strength.copy()
        self.ranges = ship.ranges.copy()
        self.by_shields: dict[int, list[WeaponGroup]] = {}
        self.alone: dict[int, Firepower] = {}


#: Each ship's armament by its id, kept from one decision to the next: a ship's weapon groups
#: are a function of its class, mounts, strengths and ranges (and the target's shields), which
#: seldom change in a battle, where a view's snapshots are new objects at every decision. An
#: entry serves a ship only while all four are equal to its own (copies: a view's dicts are not
#: ours to trust unchanged), so it is never stale, whatever battle or search asks. (Nothing
#: changes a group or a firepower once made: they are shared.)
_ARMAMENTS: Final[dict[str, Armament]] = {}


def _armament(ship: ShipView) -> Armament:
    """`_ARMAMENTS`' entry for `ship`, when it still holds for the ship, else a new one."""
    known = _ARMAMENTS.get(ship.id)
    if (
        known is not None
        and known.cls is ship.cls
        and known.mounts == ship.mounts
        and known.strength == ship.strength
        and known.ranges == ship.ranges
    ):
        return known
    if len(_ARMAMENTS) >= 256:  # (a bound for long sessions of many fleets)
        _ARMAMENTS.clear()
    known = _ARMAMENTS[ship.id] = Armament(ship)
    return known


@final
class Arsenal:
    """The weapon groups of ships against shield values, each pair worked out the first time it
    is asked for: `arsenal.groups(ship, shields)` is `weapon_groups(ship, shields)`, kept by the
    ship's id (a view's ship snapshots are values, not identities), then by the shield value
    (two plain look-ups: a (ship id, shields) key would be a tuple made and hashed per look-up).

    One decision asks for the same ship against the same shields several times (to pick the
    focus target, for the firepower of each mover, for each lock); ships do not change while a
    captain decides, so an arsenal serves one decision and is then dropped: the first time it
    is asked for a ship, it checks the ship's armament kept from earlier decisions
    (`_ARMAMENTS`) against the ship, and then trusts it for the rest of the decision.
    (A native class holding a dict: a dict subclass is a Python class, slow to make.)
    """

    __slots__ = ("armaments",)

    def __init__(self) -> None:
        self.armaments: dict[str, Armament] = {}

    def groups(self, ship: ShipView, target_shields: int) -> list[WeaponGroup]:
        """The weapon groups of `ship` against `target_shields`."""
        return _groups(self, ship, target_shields)


def _groups(arsenal: Arsenal, ship: ShipView, target_shields: int) -> list[WeaponGroup]:
    """`arsenal.groups(ship, target_shields)`."""
    armament = arsenal.armaments.get(ship.id)
    if armament is None:
        armament = arsenal.armaments[ship.id] = _armament(ship)
    table = armament.by_shields
    found = table.get(target_shields)
    if found is None:
        found = table[target_shields] = weapon_groups(ship, target_shields)
    return found


@final
class Firepower:
    """What some ships can fire against one shield value: their groups that do any damage at
    all, in order (ship by ship, each in resolution order), and the reach, the longest range
    among them. The groups that fire into an arc are those whose mask holds the arc's bit, in
    that order: the sums over an arc add the same numbers in the same order as one list per
    arc did."""

    __slots__ = ("groups", "reach")

    def __init__(self, ships: Sequence[ShipView], target_shields: int, arsenal: Arsenal) -> None:
        out: list[WeaponGroup] = []
        reach = 0.0
        for ship in ships:
            groups = _groups(arsenal, ship, target_shields)
            for g in groups:
                if g.damage <= 0.0:
                    continue
                if g.range_cm > reach:
                    reach = g.range_cm
                out.append(g)
        self.groups = out
        self.reach = reach

    def arc_total(self, arc: int) -> float:
        """The damage of every group that fires into `arc`, added up in order."""
        bit = 1 << arc
        total = 0.0
        for g in self.groups:
            if g.mask & bit:
                total += g.damage
        return total

    def fullest(self) -> float:
        """The damage of the fullest arc: the most any point can deal (a sum of some of an
        arc's groups, in order, is no more than all of them, in floats too)."""
        most = 0.0
        for arc in range(4):
            total = self.arc_total(arc)
            most = total if total > most else most
        return most

    def damage_on(
        self, x: float, y: float, heading: int, tx: float, ty: float, distance: float
    ) -> float:
        """Expected damage from (x, y), facing `heading` (0..5), on a target at (tx, ty) that
        counts as `distance` away (the distance between them, or more): that of the groups
        bearing into the arc that holds the target whose range reaches that far, added up in
        order."""
        # (tests/captains/test_scoring.py checks the arc against arc_to; with both bounds at
        # `distance`, `_reaching` adds a group exactly when it reaches that far)
        ux, uy = _unit(heading)
        bit = 1 << _arc(tx - x, ty - y, ux, uy)
        return _reaching(self.groups, bit, distance, distance, 0.0, 0.0, 0.0)

    def damage_between(
        self, x: float, y: float, heading: int, tx: float, ty: float, lower: float, upper: float
    ) -> float:
        """`damage_on(x, y, heading, tx, ty, hypot(tx - x, ty - y))`, given bounds `lower` and
        `upper` of that distance: the hypot is worked out only for a group whose range falls
        between them."""
        ux, uy = _unit(heading)
        dx, dy = tx - x, ty - y
        return _reaching(self.groups, 1 << _arc(dx, dy, ux, uy), lower, upper, dx, dy, 0.0)


@final
class Spot:
    """A point on the table (a base's centre), as two plain floats when compiled."""

    __slots__ = ("x", "y")

    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y


@final
class Enemy:
    """An enemy ship as the move scoring sees it: where it stands, its heading (0..5) and its
    firepower against our shields."""

    __slots__ = ("firepower", "heading", "x", "y")

    def __init__(self, x: float, y: float, heading: int, firepower: Firepower) -> None:
        self.x = x
        self.y = y
        self.heading = heading
        self.firepower = firepower


def enemy(ship: ShipView, our_shields: int, arsenal: Arsenal) -> Enemy:
    """An enemy ship and its firepower against `our_shields` (its armament's, made once)."""
    armament = arsenal.armaments.get(ship.id)
    if armament is None:
        armament = arsenal.armaments[ship.id] = _armament(ship)
    firepower = armament.alone.get(our_shields)
    if firepower is None:
        firepower = armament.alone[our_shields] = Firepower([ship], our_shields, arsenal)
    return Enemy(ship.x, ship.y, ship.heading % HEADINGS, firepower)


def threat_at(enemies: list[Enemy], x: float, y: float) -> float:
    """The damage the enemies could expect to deal on a ship at (x, y), each allowed
    ENEMY_MOVE_CM of its own movement (added to the distance; they do not turn)."""
    threat = 0.0
    for e in enemies:
        firepower = e.firepower
        reach = firepower.reach
        dx, dy = x - e.x, y - e.y
        # an enemy out of reach along either axis is out of reach: hypot(dx, dy) is no less
        # than |dx| or |dy| (it is faithfully rounded), and adding ENEMY_MOVE_CM keeps the
        # order (rounding is monotone), so the hypot call is saved and the sum is the same
        if (dx if dx >= 0.0 else -dx) + ENEMY_MOVE_CM > reach:
            continue
        if (dy if dy >= 0.0 else -dy) + ENEMY_MOVE_CM > reach:
            continue
        # the distance is hypot(dx, dy) + ENEMY_MOVE_CM, only ever compared with ranges: it
        # lies between `far` and `near` (adding keeps the order), and is worked out (-1.0 until
        # then) only for a group whose range falls between the two
        lower, upper = hypot_bounds(dx, dy)
        far = lower + ENEMY_MOVE_CM
        if far > reach:
            continue  # no group reaches (where one did, the total added was 0.0: no change)
        ux, uy = _unit(e.heading)
        bit = 1 << _arc(dx, dy, ux, uy)
        threat += _reaching(
            firepower.groups, bit, far, upper + ENEMY_MOVE_CM, dx, dy, ENEMY_MOVE_CM
        )
    return threat


#: The relative margin of `hypot_bounds` (2**-40, some 4000 times the error it covers) ...
_SNUG_BELOW: Final = 1.0 - 2.0**-40
_SNUG_ABOVE: Final = 1.0 + 2.0**-40
#: ... its absolute margin, for squares that fall below the normal floats (their error is then
#: absolute, and no more than about 1e-161 on the root) ...
_SNUG_TINY: Final = 1e-150
#: ... and the largest root it trusts (the squares of a larger one may overflow)
_SNUG_MOST: Final = 1e150


def hypot_bounds(dx: float, dy: float) -> tuple[float, float]:
    """Two floats, the first no greater and the second no less than `hypot(dx, dy)`, about a
    trillionth of the length apart: from `sqrt(dx * dx + dy * dy)`, a native call when compiled
    where hypot is a call of a Python object (boxing its arguments and its result), and some
    ten times its cost.

    Why they hold: hypot is within one unit in the last place of the exact length L (Python's
    documented bound since 3.10), 2**-52 of L at most. With no square below the normal floats,
    the two roundings of the squares, the one of their sum and the one of the root leave the
    root within 2.5 x 2**-53 of L; so the two are within 5 x 2**-53 of L of each other, far
    below the margin of 2**-40 (and the rounding of the products with the margin moves each
    bound by 2**-53 more, toward L at worst). A square below the normal floats is off by 2**-1074
    at most, the root by about 1e-161, which the absolute margin covers. Beyond _SNUG_MOST (and
    for a NaN) both are hypot itself (never on a table)."""
    root = sqrt(dx * dx + dy * dy)
    if root < _SNUG_MOST:
        return root * _SNUG_BELOW - _SNUG_TINY, root * _SNUG_ABOVE + _SNUG_TINY
    length = hypot(dx, dy)
    return length, length


def _arc(dx: float, dy: float, ux: float, uy: float) -> int:
    """The arc (0 fore, 1 aft, 2 port, 3 starboard) holding a point (dx, dy) away from a ship
    facing the unit vector (ux, uy): `geometry.arc_index`, in the numbers the scoring has at
    hand. A group fires into the arc when its mask holds `1 << arc`."""
    ahead = dx * ux + dy * uy
    port = dy * ux - dx * uy
    side = port if port >= 0.0 else -port
    return 0 if ahead >= side else 1 if -ahead >= side else 2 if port > 0.0 else 3


def _reaching(
    groups: list[WeaponGroup],
    bit: int,
    lower: float,
    upper: float,
    dx: float,
    dy: float,
    extra: float,
) -> float:
    """The damage of the groups whose mask holds `bit` and whose range reaches a target
    `hypot(dx, dy) + extra` away, added up in order, given bounds `lower` and `upper` of that
    distance: a group reaching `upper` is in, one short of `lower` out, and the distance is
    worked out (once) only for a group whose range falls between them. The kernel of every
    damage and threat sum of the move scoring."""
    total = 0.0
    distance = -1.0  # (-1.0 until worked out)
    for g in groups:
        if g.mask & bit:
            range_cm = g.range_cm
            if upper <= range_cm:
                total += g.damage
            elif lower <= range_cm:
                if distance < 0.0:
                    distance = hypot(dx, dy) + extra
                if distance <= range_cm:
                    total += g.damage
    return total


def focus_target(
    ships: Sequence[ShipView], enemies: Sequence[ShipView], arsenal: Arsenal
) -> ShipView:
    """The enemy to concentrate on: the one our whole volley takes the largest share of the
    remaining hull from (a share of 1 at most: any kill is as good), then the one nearest our
    ships' centre; the first of equals."""
    # (sums of plain loops, added in the same order as sum() did: 0 first, then each x; the
    # float 0.0 gives the same sums as sum()'s int 0, and compiled code needs a float)
    sx = 0.0
    sy = 0.0
    for s in ships:
        sx += s.x
        sy += s.y
    cx, cy = sx / len(ships), sy / len(ships)
    # The enemy with the best (share, -distance) so far, compared as that tuple would be, the
    # share rounded to 9 decimals (sums of the same volleys in another order must tie, not
    # differ in the last bit; then the nearest wins, as the rule says). Rounding moves a share
    # by half of 1e-9 at most and keeps the order, so two shares more than 2e-9 apart compare
    # as their rounded values do: only close shares are rounded (`round` with digits is a slow
    # call), and the distances are worked out only for shares that tie.
    chosen = enemies[0]
    best_raw = best_share = best_near = 0.0
    first = True
    share_known = near_known = False  # (best_share and best_near worked out for `chosen`)
    for e in enemies:
        volley = 0.0
        for ship in ships:
            for g in _groups(arsenal, ship, e.shields):
                volley += g.damage
        raw = volley / (e.superstructure if e.superstructure > 1 else 1)
        raw = raw if raw < 1.0 else 1.0
        if first or raw > best_raw + 2e-9:  # its rounded share is the higher
            first = share_known = near_known = False
            chosen, best_raw = e, raw
            continue
        if raw + 2e-9 < best_raw:
            continue  # its rounded share is the lower
        if not share_known:
            best_share = _round(best_raw, 9)
            share_known = True
        share = _round(raw, 9)
        if share > best_share:
            near_known = False
            chosen, best_raw, best_share = e, raw, share
        elif share == best_share:
            if not near_known:
                best_near = -hypot(chosen.x - cx, chosen.y - cy)
                near_known = True
            near = -hypot(e.x - cx, e.y - cy)
            if near > best_near:
                chosen, best_raw, best_near = e, raw, near
    return chosen


# --- manoeuvres -------------------------------------------------------------------------------


@final
class Leg:
    """The first half of some candidate manoeuvres: its facing change `turn` (the first turn,
    or the pivot) and its length `half` (half the speed); and the manoeuvres that go on from it,
    which differ only in their second turn, `turns2`, in order.

    A leg holds the manoeuvres' numbers, not the manoeuvres: a manoeuvre (a frozen dataclass)
    is slow to build, and a new speed brings new legs all through a battle's first turns, where
    `best_move` needs only the one it chooses (`maneuver`, made once for each)."""

    __slots__ = ("half", "pivot", "speed", "turn", "turn1", "turns2")

    def __init__(self, speed: int, turn1: int, pivot: int | None, turns2: tuple[int, ...]) -> None:
        self.speed = speed
        self.turn1 = turn1
        self.pivot = pivot
        self.turns2 = turns2
        self.turn = turn1 if pivot is None else pivot
        self.half = speed / 2

    def maneuver(self, i: int) -> Maneuver:
        """The manoeuvre of the `i`-th second turn."""
        return _maneuver(self.speed, self.turn1, self.turns2[i], self.pivot)

    @property
    def maneuvers(self) -> tuple[Maneuver, ...]:
        """The manoeuvres that go on from this leg, in order."""
        return tuple(self.maneuver(i) for i in range(len(self.turns2)))


@cache
def _maneuver(speed: int, turn1: int, turn2: int, pivot: int | None) -> Maneuver:
    """A manoeuvre, made once for each set of numbers (an order is an immutable value)."""
    return Maneuver(speed, turn1, turn2, pivot)


@final
class Candidates:
    """The manoeuvres worth scoring for one mover, by first leg; and how many there are."""

    __slots__ = ("count", "legs")

    def __init__(self, legs: tuple[Leg, ...], count: int) -> None:
        self.legs = legs
        self.count = count


#: `candidates` by its limits: a plain dict, where a memoised function's call hashes a tuple of
#: its arguments made at every call; keyed by one int when the limits are small (as a speed
#: always is: no tuple made either), by the tuple of them otherwise
_CANDIDATES: Final[dict[object, Candidates]] = {}


def candidates(lo: int, hi: int, pivot_lo: int, pivot_hi: int) -> Candidates:
    """The manoeuvres worth scoring for a mover that may fly `lo`..`hi` cm (and pivot at
    `pivot_lo`..`pivot_hi` cm; an empty range when it may not pivot), by first leg: low, middle
    and top speed with every pair of turns, then every pivot at top pivot speed with every
    second turn. Read leg by leg, the manoeuvres come in that order.
    (Memoised: the same limits come up all battle, and the legs are the same; so are the legs
    of different limits, made once each by `_leg`.)"""
    key: object
    if 0 <= lo < 256 and 0 <= hi < 256 and 0 <= pivot_lo < 256 and 0 <= pivot_hi < 256:
        key = ((lo * 256 + hi) * 256 + pivot_lo) * 256 + pivot_hi
    else:
        key = (lo, hi, pivot_lo, pivot_hi)
    found = _CANDIDATES.get(key)
    if found is None:
        if len(_CANDIDATES) >= 4096:  # (a bound: there are only so many speed limits)
            _CANDIDATES.clear()
        found = _CANDIDATES[key] = _candidates(lo, hi, pivot_lo, pivot_hi)
    return found


def _candidates(lo: int, hi: int, pivot_lo: int, pivot_hi: int) -> Candidates:
    """`candidates`, worked out."""
    legs: list[Leg] = []
    for speed in sorted({lo, hi, (lo + hi) // 2}):
        if speed == 0:
            legs.append(_leg(0, 0, None))
            continue
        for turn1 in (-1, 0, 1):
            legs.append(_leg(speed, turn1, None))
    if pivot_lo <= pivot_hi:
        for pivot in (-2, -1, 1, 2, 3):
            legs.append(_leg(pivot_hi, 0, pivot))
    count = 0
    for leg in legs:
        count += len(leg.turns2)
    return Candidates(tuple(legs), count)


@cache
def _leg(speed: int, turn1: int, pivot: int | None) -> Leg:
    """The leg of a first turn (or a pivot) at `speed`, with its three second turns; speed 0
    without a pivot is standing still. (Memoised: every set of candidates shares legs with
    others.)"""
    if speed == 0 and pivot is None:
        return Leg(0, 0, None, (0,))
    return Leg(speed, turn1, pivot, (-1, 0, 1))


class Plan:
    """Where a manoeuvre takes a ship: its mid-move point and its end point, with the heading
    at each (0..5)."""

    # (a plain class, not a dataclass: the captains build hundreds a battle, and a compiled
    # dataclass is built through the generated __init__ of plain Python)
    __slots__ = ("end_heading", "end_x", "end_y", "mid_heading", "mid_x", "mid_y")

    def __init__(
        self,
        mid_x: float,
        mid_y: float,
        mid_heading: int,
        end_x: float,
        end_y: float,
        end_heading: int,
    ) -> None:
        self.mid_x = mid_x
        self.mid_y = mid_y
        self.mid_heading = mid_heading
        self.end_x = end_x
        self.end_y = end_y
        self.end_heading = end_heading

    def _values(self) -> tuple[float, float, int, float, float, int]:
        return (self.mid_x, self.mid_y, self.mid_heading, self.end_x, self.end_y, self.end_heading)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # (compared by value, changed in place)

    def __repr__(self) -> str:
        return (
            "Plan(mid_x={!r}, mid_y={!r}, mid_heading={!r}, end_x={!r}, end_y={!r}, "
            "end_heading={!r})".format(*self._values())
        )

    def shifted(self, leader: ShipView, ship: ShipView) -> Plan:
        """The plan of a formation leader moved over to `ship`: the same offsets from where
        `ship` stands (how the scoring places the wingmen)."""
        return Plan(
            ship.x + (self.mid_x - leader.x),
            ship.y + (self.mid_y - leader.y),
            self.mid_heading,
            ship.x + (self.end_x - leader.x),
            ship.y + (self.end_y - leader.y),
            self.end_heading,
        )


class Situation:
    """What a move is scored against: the focus target, our firepower against it, the enemies
    (with their firepower against us), the table's size and the planets (x, y, radius); with
    `Weights.full_path`, the bases a move stops short of (x, y) and the distance between two
    base centres that touch; the threat's weight and the closing weight (`Weights.threat` and
    `Weights.closing`, changed for a damaged ship by `Weights.withdraw`: None is the weights')
    and the distance kiting holds (`Weights.hold_range`)."""

    # (a plain class, not a dataclass: see Plan)
    __slots__ = (
        "anchor",
        "bases",
        "closing",
        "enemies",
        "focus",
        "hold",
        "obstacles",
        "ours",
        "table",
        "threat",
        "touch",
    )

    def __init__(
        self,
        focus: ShipView,
        ours: Firepower,
        enemies: list[Enemy],
        table: tuple[float, float],
        obstacles: list[tuple[float, float, float]],
        bases: list[tuple[float, float]] | None = None,
        touch: float = 5.0,
        threat: float | None = None,
        hold: float = 0.0,
        closing: float | None = None,
        anchor: tuple[float, float] | None = None,
    ) -> None:
        self.focus = focus
        self.ours = ours
        self.enemies = enemies
        self.table = table
        self.obstacles = obstacles
        self.bases = [] if bases is None else bases
        self.touch = touch
        self.threat = threat
        self.hold = hold
        self.closing = closing
        #: with `Weights.flank`, the point held (x, y): closing is then the distance to it
        self.anchor = anchor


class Move:
    """A scored manoeuvre: the manoeuvre, where it takes the mover, and its score."""

    __slots__ = ("maneuver", "plan", "score")  # (a plain class, not a dataclass: see Plan)

    def __init__(self, maneuver: Maneuver, plan: Plan, score: float) -> None:
        self.maneuver = maneuver
        self.plan = plan
        self.score = score

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.maneuver, self.plan, self.score) == (other.maneuver, other.plan, other.score)

    __hash__ = None  # type: ignore[assignment]  # (compared by value)

    def __repr__(self) -> str:
        return f"Move(maneuver={self.maneuver!r}, plan={self.plan!r}, score={self.score!r})"


def best_move(
    origin: ShipView, legs: Sequence[Leg], situation: Situation, weights: Weights
) -> Move:
    """The best-scoring candidate manoeuvre from where `origin` stands, the first of equals in
    the legs' order; the hot path of the captains. A move's score is

    - the damage dealt: what our weapons can expect to deal on the focus target from the
      mid-move point or from the end, whichever is more (`Firepower.damage_on`); KILL_BONUS
      times that when it is a kill;
    - less `weights.threat` times the damage the enemies could deal back at the end point
      (`threat_at`);
    - less `weights.closing` for each centimetre between the end point and the focus target;
    - with `weights.keep_out`, when it deals nothing, less `weights.closing` for each
      centimetre that distance is away from KITING_DISTANCE_CM;
    - less EDGE_PENALTY_PER_CM for each centimetre the end point is closer than
      EDGE_MARGIN_CM to a table edge;
    - less PLANET_PENALTY for each planet its path crosses.

    The mid-move point, and the damage from it, are worked out once per leg. Every term after
    the first and the closing term only lowers the score (in floats too: rounding is monotone),
    so a move whose damage less its closing term is no better than the best score so far
    cannot win, and the rest of its score is not worked out. The distances are first taken
    between bounds (`hypot_bounds`): a move is ruled out on them, on its damage less the least
    closing term and then on its damage less its threat and edge terms and that least closing
    term, before any hypot call; the exact distance is worked out only for the moves left.
    """
    sc = _Scoring(situation, weights)
    ours, fx, fy, hull = situation.ours, sc.fx, sc.fy, sc.hull
    x, y, heading = origin.x, origin.y, origin.heading
    # the best move so far, as plain locals (a tuple of them would box its floats at every
    # improvement, and most moves scored in full improve)
    best_mid_x = best_mid_y = best_end_x = best_end_y = 0.0
    best_mid_heading = best_end_heading = 0
    best_score = -inf
    most = ours.fullest()  # the most an end point can deal
    full_path, touch = weights.full_path, situation.touch
    near_bases = _near_bases(situation.bases, legs, x, y, touch) if full_path else []
    at_start = 0.0
    # (bounds of the distance from the start, the same for every leg)
    from_low, from_high = hypot_bounds(fx - x, fy - y) if full_path else (0.0, 0.0)
    # the damage from the start by first heading (the same for legs that turn alike; -1.0
    # until worked out: a damage is never negative)
    starts = [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0]
    best_leg: Leg | None = None
    best_i = 0
    for leg in legs:
        half, turns2 = leg.half, leg.turns2
        mid_heading = (heading + leg.turn) % HEADINGS
        ux, uy = _unit(mid_heading)
        if full_path:  # the ship fires from where it stands too, once turned (FPF-MOV-07)
            at_start = starts[mid_heading]
            if at_start < 0.0:
                at_start = starts[mid_heading] = ours.damage_between(
                    x, y, mid_heading, fx, fy, from_low, from_high
                )
        mid_x, mid_y = x + ux * half, y + uy * half
        at_mid = sc.damage(mid_x, mid_y, ux, uy)
        if at_start > at_mid:
            at_mid = at_start  # (the better of the start and the mid-move point)
        bound = at_mid if at_mid > most else most  # no move of this leg deals more
        if bound >= hull:
            bound *= KILL_BONUS
        for i in range(len(turns2)):
            end_heading = (mid_heading + turns2[i]) % HEADINGS
            ux, uy = _unit(end_heading)
            end_x, end_y = mid_x + ux * half, mid_y + uy * half
            # FPF-MOV-08: it stops short of a base at its end (nearly every end is clear)
            if full_path and half > 0.0 and _touched(near_bases, end_x, end_y, touch) is not None:
                end_x, end_y = _stop_short(x, y, mid_x, mid_y, end_x, end_y, near_bases, touch)
            score = _end_score(
                sc, x, y, mid_x, mid_y, end_x, end_y, ux, uy, at_mid, bound, best_score
            )
            if score > best_score:
                best_score = score
                best_leg, best_i = leg, i
                best_mid_x, best_mid_y, best_mid_heading = mid_x, mid_y, mid_heading
                best_end_x, best_end_y, best_end_heading = end_x, end_y, end_heading
    assert best_leg is not None, "no candidate manoeuvres"
    plan = Plan(best_mid_x, best_mid_y, best_mid_heading, best_end_x, best_end_y, best_end_heading)
    return Move(best_leg.maneuver(best_i), plan, best_score)


@final
class _Scoring:
    """What `best_move` scores each end point against, made once a call (compiled: plain
    fields, read about as cheaply as locals): the focus target's position and hull (a float:
    compared with floats, as every number here), our groups and their reach, the weights as
    the situation changes them, the table, the point held and the planets."""

    __slots__ = (
        "anchor",
        "closing",
        "enemies",
        "fx",
        "fy",
        "groups",
        "height",
        "hold",
        "hold_range",
        "hull",
        "keep_out",
        "keep_out_weight",
        "obstacles",
        "reach",
        "threat",
        "width",
    )

    def __init__(self, situation: Situation, weights: Weights) -> None:
        focus = situation.focus
        self.fx, self.fy, self.hull = focus.x, focus.y, float(focus.superstructure)
        self.groups, self.reach = situation.ours.groups, situation.ours.reach
        self.closing = weights.closing if situation.closing is None else situation.closing
        self.threat = weights.threat if situation.threat is None else situation.threat
        self.hold_range, self.hold, self.anchor = (
            weights.hold_range,
            situation.hold,
            situation.anchor,
        )
        self.keep_out, self.keep_out_weight = weights.keep_out, weights.closing
        self.width, self.height = situation.table
        self.enemies, self.obstacles = situation.enemies, situation.obstacles

    def damage(self, x: float, y: float, ux: float, uy: float) -> float:
        """What our groups can expect to deal on the focus target from (x, y), facing the
        unit vector (ux, uy): `Firepower.damage_on` from the bounds of the distance."""
        dx, dy = self.fx - x, self.fy - y
        lower, upper = hypot_bounds(dx, dy)
        if lower > self.reach:
            return 0.0  # (no group reaches: nothing to add up)
        return _reaching(self.groups, 1 << _arc(dx, dy, ux, uy), lower, upper, dx, dy, 0.0)


def _end_score(
    sc: _Scoring,
    x: float,
    y: float,
    mid_x: float,
    mid_y: float,
    end_x: float,
    end_y: float,
    ux: float,
    uy: float,
    at_mid: float,
    bound: float,
    best: float,
) -> float:
    """The score of a move from (x, y) through the mid-move point to (end_x, end_y), facing
    (ux, uy) at its end (`best_move`'s terms), or -inf when it cannot beat `best`: `at_mid` is
    what its leg deals from the mid-move point (or the start), `bound` the most any move of its
    leg can deal, kill bonus included.

    First the move is ruled out, where it can be, on bounds of the distances (to the focus
    target, and to the point held with `anchor`): `least`, no more than its closing term, and
    the damage it deals, worked out from the bounds. Both tests imply the exact ones after, so
    the moves they rule out are moves those rule out too."""
    dx, dy = sc.fx - end_x, sc.fy - end_y
    lower, upper = hypot_bounds(dx, dy)
    closing_weight, anchor, hold_range, hold = sc.closing, sc.anchor, sc.hold_range, sc.hold
    least = _least_closing(closing_weight, anchor, end_x, end_y, lower, upper, hold_range, hold)
    if bound - least <= best:
        return -inf  # even the leg's bound cannot beat the best so far
    at_end = 0.0
    if lower <= sc.reach:
        at_end = _reaching(sc.groups, 1 << _arc(dx, dy, ux, uy), lower, upper, dx, dy, 0.0)
    dealt = at_end if at_end > at_mid else at_mid
    if dealt >= sc.hull:
        dealt *= KILL_BONUS
    if dealt - least <= best:
        return -inf  # it cannot beat the best so far (and the earlier of equals wins)
    # the threat and the edge, then the score with the least closing term: a bound, as every
    # later term only lowers the score (the same sums, in the same order, as the score itself
    # adds), so a move it rules out needs no exact distance
    base = dealt - sc.threat * threat_at(sc.enemies, end_x, end_y)
    edge = _edge_penalty(end_x, end_y, sc.width, sc.height)
    if base - least - edge <= best:
        return -inf
    # the exact distances and closing term, and the same two tests on them
    to_end = hypot(dx, dy)
    if anchor is not None:
        closing = closing_weight * hypot(end_x - anchor[0], end_y - anchor[1])
    else:
        closing = closing_weight * (abs(to_end - hold) if hold_range else to_end)
    if bound - closing <= best or dealt - closing <= best:
        return -inf
    score = base - closing
    if sc.keep_out and dealt == 0.0:
        score -= sc.keep_out_weight * abs(to_end - KITING_DISTANCE_CM)
    score -= edge  # (0.0 away from the edges: the same score)
    for _ in range(_crossings(sc.obstacles, x, y, mid_x, mid_y, end_x, end_y)):
        score -= PLANET_PENALTY
    return score


def _near_bases(
    bases: list[tuple[float, float]], legs: Sequence[Leg], x: float, y: float, touch: float
) -> list[Spot]:
    """The bases an end point of a move from (x, y) along `legs` could touch: an end is at most
    two half legs from the start along each axis (and float rounding is far below the
    centimetre allowed), so a base farther than that and `touch` along either axis is never
    within `touch` of an end."""
    longest = 0.0
    for leg in legs:
        longest = leg.half if leg.half > longest else longest
    room = touch + 2.0 * longest + 1.0
    near: list[Spot] = []
    for bx, by in bases:
        dx, dy = bx - x, by - y
        if -room < dx < room and -room < dy < room:
            near.append(Spot(bx, by))
    return near


def _touched(bases: list[Spot], x: float, y: float, touch: float) -> Spot | None:
    """The first of `bases` whose centre is nearer than `touch` to (x, y), if any."""
    touch2 = touch * touch
    for spot in bases:
        dx, dy = spot.x - x, spot.y - y
        if -touch < dx < touch and -touch < dy < touch and dx * dx + dy * dy < touch2:
            return spot
    return None


def _least_closing(
    weight: float,
    anchor: tuple[float, float] | None,
    end_x: float,
    end_y: float,
    lower: float,
    upper: float,
    hold_range: bool,
    hold: float,
) -> float:
    """No more than a move's closing term (`weight` times the distance to the point held with
    `anchor`, or to the focus target, or its distance from `hold` with `hold_range`), from the
    bounds `lower` and `upper` of the distance to the focus target (and those of the anchor's)."""
    if anchor is not None:
        a_lower, a_upper = hypot_bounds(end_x - anchor[0], end_y - anchor[1])
        return weight * (a_lower if weight >= 0.0 else a_upper)
    if not hold_range:
        return weight * (lower if weight >= 0.0 else upper)
    if weight >= 0.0:  # the least of |distance - hold| between the bounds
        gap = lower - hold if lower > hold else hold - upper if upper < hold else 0.0
        return weight * gap
    return -inf  # (a negative weight on |distance - hold|: not bounded here)


def _edge_penalty(x: float, y: float, width: float, height: float) -> float:
    """EDGE_PENALTY_PER_CM for each centimetre (x, y) is closer than EDGE_MARGIN_CM to a
    table edge (0.0 farther in)."""
    inside_x = EDGE_MARGIN_CM <= x <= width - EDGE_MARGIN_CM
    if inside_x and EDGE_MARGIN_CM <= y <= height - EDGE_MARGIN_CM:
        return 0.0
    nearest = min(x, y, width - x, height - y)
    return (EDGE_MARGIN_CM - nearest) * EDGE_PENALTY_PER_CM


def _crossings(
    obstacles: list[tuple[float, float, float]],
    x: float,
    y: float,
    mid_x: float,
    mid_y: float,
    end_x: float,
    end_y: float,
) -> int:
    """How many of the planets (x, y, radius) a move's path from (x, y) through the mid-move
    point to its end crosses."""
    count = 0
    for cx, cy, radius in obstacles:
        if segment_hits_circle(x, y, mid_x, mid_y, cx, cy, radius) or (
            segment_hits_circle(mid_x, mid_y, end_x, end_y, cx, cy, radius)
        ):
            count += 1
    return count


def stop_short(
    x: float,
    y: float,
    mid_x: float,
    mid_y: float,
    end_x: float,
    end_y: float,
    bases: list[tuple[float, float]],
    touch: float,
) -> tuple[float, float]:
    """Where a move from (x, y) through the mid-move point to (end_x, end_y) ends when it must
    stop short of the bases at `bases` (FPF-MOV-08): backed off along its path until no base
    centre is nearer than `touch` (two bases' radii), never behind the start. The end point
    itself when it is clear."""
    spots = []
    for bx, by in bases:
        spots.append(Spot(bx, by))
    return _stop_short(x, y, mid_x, mid_y, end_x, end_y, spots, touch)


def _stop_short(
    x: float,
    y: float,
    mid_x: float,
    mid_y: float,
    end_x: float,
    end_y: float,
    bases: list[Spot],
    touch: float,
) -> tuple[float, float]:
    """`stop_short`, the bases as spots (in their order: the first one touched is backed off
    from). `best_move` gives it only the bases near enough to touch a point of the path, which
    are the only ones it can find: the end only ever moves back along the path."""
    for _ in range(4):  # (backing off one base can put the end on another: a few tries)
        spot = _touched(bases, end_x, end_y, touch)
        if spot is None:
            return end_x, end_y
        bx, by = spot.x, spot.y
        # on the second leg: the point mid + t (end - mid) at `touch` from the base, t < 1;
        # when that is behind the mid-move point, the same on the first leg
        backed = False
        for k in range(2):
            if k == 0:
                ax, ay = mid_x, mid_y
            else:
                ax, ay = x, y
            lx, ly = end_x - ax, end_y - ay
            length = hypot(lx, ly)
            if length <= 0.0:
                continue
            ux, uy = lx / length, ly / length
            along = (bx - ax) * ux + (by - ay) * uy
            across = (bx - ax) * uy - (by - ay) * ux
            room = touch * touch - across * across
            t = along - (room**0.5 if room > 0.0 else 0.0) - 1e-6
            if t >= 0.0:
                end_x, end_y = ax + ux * t, ay + uy * t
                backed = True
                break
            end_x, end_y = ax, ay  # back at this leg's start: try the leg before it
        if not backed:
            return x, y
    return end_x, end_y


def ranked_moves(
    origin: ShipView, legs: Sequence[Leg], situation: Situation, weights: Weights
) -> list[Move]:
    """Every candidate manoeuvre scored in full as `best_move` scores it, best first (the
    earlier of equals first): a search's candidates."""
    moves = []
    for leg in legs:
        for turn2 in leg.turns2:
            alone = Leg(leg.speed, leg.turn1, leg.pivot, (turn2,))
            moves.append(best_move(origin, (alone,), situation, weights))
    moves.sort(key=lambda m: -m.score)
    return moves


#: A jump is worth it when it lands this much nearer the focus target than a full normal move
#: (40 cm) could bring it, and no nearer than this to it (the jump passes over ships, FPF-MASK-05)
JUMP_GAIN_CM: Final = 15.0
JUMP_LANDING_CM: Final = 10.0
#: ... and ends this far inside the table edges (the edge stops a jump short)
JUMP_EDGE_CM: Final = 5.0


def jump_toward(
    origin: ShipView, focus: ShipView, jump: tuple[int, int], table: tuple[float, float]
) -> Maneuver | None:
    """The micro warp jump (FPF-OPT-04) that lands nearest the focus target: straight ahead
    after a first turn of -1, 0 or +1, at the shortest, middle or longest distance allowed,
    landing inside the table; None unless it ends JUMP_GAIN_CM nearer than a full 40 cm move
    could (and at least JUMP_LANDING_CM from the target). The first of equals wins."""
    lo, hi = jump
    width, height = table
    now = hypot(focus.x - origin.x, focus.y - origin.y)
    best: tuple[float, Maneuver] | None = None
    for turn in (-1, 0, 1):
        ux, uy = UNIT[(origin.heading + turn) % HEADINGS]
        for dist in sorted({lo, (lo + hi) // 2, hi}):
            x, y = origin.x + ux * dist, origin.y + uy * dist
            inside = JUMP_EDGE_CM <= x <= width - JUMP_EDGE_CM
            if not (inside and JUMP_EDGE_CM <= y <= height - JUMP_EDGE_CM):
                continue
            gap = hypot(focus.x - x, focus.y - y)
            if gap < JUMP_LANDING_CM or gap > now - 40.0 - JUMP_GAIN_CM:
                continue
            if best is None or gap < best[0]:
                best = (gap, Maneuver(dist, turn, 0, jump=True))
    return None if best is None else best[1]


# --- fire -------------------------------------------------------------------------------------


def best_target(
    ship: ShipView,
    plan: Plan | None,
    enemies: Sequence[ShipView],
    focus: ShipView,
    arsenal: Arsenal,
) -> tuple[float, int, ShipView] | None:
    """The lock worth most for `ship`, fired from its mid-move point or its end (where it stands
    when it has no plan): (value, arc index, target); None when nothing bears on any enemy.

    A lock is worth the expected damage of the working groups that bear into the arc holding
    the target and reach it, FOCUS_BONUS times that on the focus target; a lock that bears but
    cannot reach is worth NEAR_MISS_VALUE / (1 + distance); no working group bearing into that
    arc, no lock. The first of equals wins: enemies in order, the mid-move point before the end.
    """
    if plan is None:
        points: tuple[tuple[float, float, int], ...] = ((ship.x, ship.y, ship.heading),)
    else:
        points = (
            (plan.mid_x, plan.mid_y, plan.mid_heading),
            (plan.end_x, plan.end_y, plan.end_heading),
        )
    best: tuple[float, int, ShipView] | None = None
    for e in enemies:
        bonus = FOCUS_BONUS if e is focus else 1.0
        groups = _groups(arsenal, ship, e.shields)
        for x, y, heading in points:
            ux, uy = _unit(heading)
            dx, dy = e.x - x, e.y - y
            arc = _arc(dx, dy, ux, uy)
            distance = hypot(dx, dy)
            bears = False
            damage = 0.0
            for g in groups:
                if g.shots > 0 and (g.mask >> arc) & 1:
                    bears = True
                    if distance <= g.range_cm:
                        damage += g.damage
            if not bears:
                continue
            value = damage * bonus
            if value == 0.0:
                value = NEAR_MISS_VALUE / (1 + distance)
            if best is None or value > best[0]:
                best = (value, arc, e)
    return best


def best_lock(
    ship: ShipView,
    plan: Plan | None,
    enemies: Sequence[ShipView],
    focus: ShipView,
    arsenal: Arsenal,
) -> tuple[float, int, ShipView] | None:
    """`best_target` along the whole path (`Weights.full_path`): the lock worth most for
    `ship`, fired as it moves from where it stands (turned to its first leg's heading) through
    its mid-move point to its end, looked at every quarter of the move; where it stands when it
    has no plan. A weapon group fires the first moment its target is in its arc and in range
    (FPF-FIRE-07), so a lock through one arc is worth the damage of each working group bearing
    into that arc that has the target in range at any of those points, FOCUS_BONUS times that
    on the focus target; a lock that bears but never reaches is worth NEAR_MISS_VALUE / (1 +
    the nearest distance). (value, arc index, target), the first of equals winning; None when
    nothing bears on any enemy at any point."""
    path = _Path(ship, plan)
    found = False
    best_value = 0.0
    best_arc = 0
    best_target = focus
    for e in enemies:
        groups = _groups(arsenal, ship, e.shields)
        working = 0  # the arcs some working group bears into
        for g in groups:
            if g.shots > 0:
                working |= g.mask
        if working == 0:
            continue  # nothing bears into any arc: no lock on it from anywhere
        bonus = FOCUS_BONUS if e is focus else 1.0
        tx, ty = e.x, e.y
        low0, low1, low2, low3, up0, up1, up2, up3 = _arc_bounds(path, tx, ty, working)
        for arc in range(4):
            if arc == 0:
                lowest, highest = low0, up0
            elif arc == 1:
                lowest, highest = low1, up1
            elif arc == 2:
                lowest, highest = low2, up2
            else:
                lowest, highest = low3, up3
            if highest == inf:
                continue  # (never in this arc, or nothing bears into it)
            damage, distance = _lock_damage(groups, arc, lowest, highest, path, tx, ty)
            value = damage * bonus
            if value == 0.0:
                if found and NEAR_MISS_VALUE / (1 + lowest) <= best_value:
                    continue  # (a near miss no nearer than `lowest` is worth no more than that)
                if distance < 0.0:
                    distance = _nearest_in_arc(path, tx, ty, arc, highest)
                value = NEAR_MISS_VALUE / (1 + distance)
            if not found or value > best_value:
                found = True
                best_value, best_arc, best_target = value, arc, e
    return (best_value, best_arc, best_target) if found else None


@final
class _Path:
    """`best_lock`'s points of a move, as numbers (no tuple of boxed floats): where the ship
    stands, turned to its first leg; halfway to the mid-move point; the mid-move point; halfway
    on; the end; with the unit vector of the heading at each (the first leg's up to the
    mid-move point). Only the first (`count` 1) when it has no plan."""

    __slots__ = (
        "count",
        "ex",
        "ey",
        "h1",
        "h2",
        "mx",
        "my",
        "qx",
        "qy",
        "rx",
        "ry",
        "sx",
        "sy",
        "u1x",
        "u1y",
        "u2x",
        "u2y",
    )

    def __init__(self, ship: ShipView, plan: Plan | None) -> None:
        sx, sy = ship.x, ship.y
        self.sx, self.sy = sx, sy
        if plan is None:
            self.count = 1
            self.h1 = self.h2 = ship.heading
            self.qx, self.qy, self.mx, self.my = sx, sy, sx, sy
            self.rx, self.ry, self.ex, self.ey = sx, sy, sx, sy
        else:
            self.count = 5
            self.h1, self.h2 = plan.mid_heading, plan.end_heading
            mx, my, ex, ey = plan.mid_x, plan.mid_y, plan.end_x, plan.end_y
            self.mx, self.my, self.ex, self.ey = mx, my, ex, ey
            self.qx, self.qy = (sx + mx) / 2, (sy + my) / 2
            self.rx, self.ry = (mx + ex) / 2, (my + ey) / 2
        self.u1x, self.u1y = _unit(self.h1)
        self.u2x, self.u2y = _unit(self.h2)

    def point(self, k: int) -> tuple[float, float, float, float]:
        """The `k`-th point (0 to count - 1) and the unit vector of its heading."""
        if k == 0:
            return self.sx, self.sy, self.u1x, self.u1y
        if k == 1:
            return self.qx, self.qy, self.u1x, self.u1y
        if k == 2:
            return self.mx, self.my, self.u1x, self.u1y
        if k == 3:
            return self.rx, self.ry, self.u2x, self.u2y
        return self.ex, self.ey, self.u2x, self.u2y


def _arc_bounds(
    path: _Path, tx: float, ty: float, working: int
) -> tuple[float, float, float, float, float, float, float, float]:
    """By arc (0 to 3), bounds on the nearest the target at (tx, ty) comes in that arc among
    the path's points (inf: never in it, or nothing bears into it: `working` holds the arcs
    some working group bears into): the least of the points' lower bounds, then the least of
    their upper bounds (the nearest is no less than the one and no more than the other);
    `_nearest_in_arc` works the nearest out exactly, only where the bounds cannot tell."""
    low0 = low1 = low2 = low3 = inf
    up0 = up1 = up2 = up3 = inf
    for k in range(path.count):
        x, y, ux, uy = path.point(k)
        dx, dy = tx - x, ty - y
        arc = _arc(dx, dy, ux, uy)
        if not (working >> arc) & 1:
            continue  # (an arc nothing bears into is never a lock: its distance is unused)
        lower, upper = hypot_bounds(dx, dy)
        if arc == 0:
            low0 = lower if lower < low0 else low0
            up0 = upper if upper < up0 else up0
        elif arc == 1:
            low1 = lower if lower < low1 else low1
            up1 = upper if upper < up1 else up1
        elif arc == 2:
            low2 = lower if lower < low2 else low2
            up2 = upper if upper < up2 else up2
        else:
            low3 = lower if lower < low3 else low3
            up3 = upper if upper < up3 else up3
    return low0, low1, low2, low3, up0, up1, up2, up3


def _lock_damage(
    groups: list[WeaponGroup],
    arc: int,
    lowest: float,
    highest: float,
    path: _Path,
    tx: float,
    ty: float,
) -> tuple[float, float]:
    """The damage of the working groups bearing into `arc` that reach the target at (tx, ty)
    at the nearest it comes in that arc along the path (between `lowest` and `highest`), added
    up in order, and that nearest distance where it had to be worked out (-1.0 where not)."""
    distance = -1.0  # the nearest, exactly (-1.0 until worked out)
    damage = 0.0
    for g in groups:
        if g.shots > 0 and (g.mask >> arc) & 1:
            range_cm = g.range_cm
            if highest <= range_cm:
                damage += g.damage
            elif lowest <= range_cm:
                if distance < 0.0:
                    distance = _nearest_in_arc(path, tx, ty, arc, highest)
                if distance <= range_cm:
                    damage += g.damage
    return damage, distance


def _nearest_in_arc(path: _Path, tx: float, ty: float, want: int, highest: float) -> float:
    """The nearest the target at (tx, ty) comes in arc `want` among the path's points,
    exactly: the least hypot of those in that arc (inf when none is), the arcs found as
    `best_lock` finds them. `highest` is no less than that least (`best_lock`'s upper bound): a
    point whose distance's lower bound is above it is not the nearest, and its hypot is not
    worked out."""
    nearest = inf
    for k in range(path.count):
        x, y, ux, uy = path.point(k)
        dx, dy = tx - x, ty - y
        if _arc(dx, dy, ux, uy) == want and hypot_bounds(dx, dy)[0] <= highest:
            distance = hypot(dx, dy)
            nearest = distance if distance < nearest else nearest
    return nearest


def held_range(ours: Firepower) -> float:
    """The distance kiting keeps from its focus target (`Weights.hold_range`): its best arc's
    (the one with the most damage) best range, the shortest range of the groups bearing into
    it, where all of them reach, less a centimetre; KITING_DISTANCE_CM when nothing of ours can
    hurt it. (Holding at the arc's longest range instead measured weaker: docs/captains.md.)"""
    best = 0.0
    hold = float(KITING_DISTANCE_CM)
    for arc in range(4):
        bit = 1 << arc
        total = 0.0
        shortest = inf
        for g in ours.groups:
            if g.mask & bit:
                total += g.damage
                shortest = g.range_cm if g.range_cm < shortest else shortest
        if total > best:
            best, hold = total, shortest - 1.0
    return hold


def flank_point(
    mover: ShipView, focus: ShipView, hold: float, degrees: float
) -> tuple[float, float]:
    """The point `hold` cm from `focus`, `degrees` off its nose on the side `mover` is on
    (`Weights.flank`)."""
    ux, uy = UNIT[focus.heading % HEADINGS]
    port = (mover.y - focus.y) * ux - (mover.x - focus.x) * uy
    px, py = (-uy, ux) if port >= 0.0 else (uy, -ux)  # the unit vector to that side
    c, s = cos(radians(degrees)), sin(radians(degrees))
    return focus.x + hold * (c * ux + s * px), focus.y + hold * (c * uy + s * py)
