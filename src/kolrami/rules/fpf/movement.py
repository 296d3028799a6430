"""Movement (FPF-MOV): manoeuvres and their legality checks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING
from typing import Final

from kolrami.engine.battle import Battle
from kolrami.engine.battle import ShipState
from kolrami.engine.battle import SquadronState
from kolrami.engine.geometry import HEADINGS
from kolrami.engine.geometry import Trail
from kolrami.engine.geometry import advance
from kolrami.engine.geometry import entry_distance
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import rules_in
from kolrami.rules.fpf.fire import resolve_locks
from kolrami.rules.fpf.orders import Maneuver

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState


def verify_maneuver(
    battle: Battle, ships: list[ShipState], m: Maneuver, leader_speed: int | None, who: str
) -> None:
    """A manoeuvre every ship in `ships` can fly (FPF-MOV-06, FPF-MOV-07, FPF-MOV-11,
    FPF-MOV-13)."""
    # (each field read once: a manoeuvre's fields are a Python object's, slow to read)
    jump, speed, pivot, turn1, turn2 = m.jump, m.speed, m.pivot, m.turn1, m.turn2
    fixed = [s.id for s in ships if s.class_facts().stationary]
    if fixed and (jump or speed or pivot is not None or turn1 or turn2):
        raise IllegalOrderError(
            f"{who}: {', '.join(fixed)} is a fixed base: it holds its place and heading (speed 0, "
            "no turns, pivots or jumps; docs/rules.md, Bases in FPF, FPF-MOV-06)"
        )
    if jump:
        rules_in(battle).check_jump(battle, ships, m, who)
        return
    if turn1 not in (-1, 0, 1) or turn2 not in (-1, 0, 1):
        raise IllegalOrderError(
            f"{who}: turns are -1, 0 or +1 hex faces (60 degrees) at each of "
            "the two turn points (FPF-MOV-07)"
        )
    if pivot is not None:
        if pivot not in range(-2, 4):
            raise IllegalOrderError(f"{who}: a pivot is -2..+3 hex faces (FPF-MOV-13)")
        stopped = [s.id for s in ships if s.last_speed != 0]
        if stopped:
            raise IllegalOrderError(
                f"{who}: only a ship that stood still last turn may pivot; "
                f"{', '.join(stopped)} moved (FPF-MOV-13)"
            )
    elif speed == 0 and (turn1 or turn2):
        raise IllegalOrderError(
            f"{who}: a ship at speed 0 turns only by pivoting (PIV), which "
            "costs 5 cm of power (FPF-MOV-13)"
        )
    for s in ships:
        lo, hi = speed_limits(battle, s, pivot is not None)
        if not lo <= speed <= hi:
            extra = " after the 5 cm pivot" if pivot is not None else ""
            raise IllegalOrderError(
                f"{who}: {s.id} ({s.cls.name}, Engine Power {s.engine_power}, last speed "
                f"{s.last_speed}) may move {lo}-{hi} cm{extra}, not {speed} "
                "(FPF-MOV-06, FPF-MOV-11)"
                if lo <= hi
                else f"{who}: {s.id} has Engine Power {s.engine_power}, too little to pivot "
                "(FPF-MOV-13)"
            )
    if leader_speed is not None and speed > leader_speed:
        raise IllegalOrderError(
            f"{who}: a wingman may not move farther than its leader's "
            f"{leader_speed} cm (FPF-MOV-09)"
        )


#: Speeds are whole centimetres, 0 to 40 (FPF-MOV-06): farther than any weapon reaches, as the
#: game's fast-play scale intends (FPF-TURN-04).
MAX_SPEED: Final = 40
#: math.hypot as a module constant: a C static in compiled code, where `math.hypot` is a
#: look-up in the module at every call
_hypot: Final = math.hypot
# (the event class as a constant: compiled, `ev.ShipMoved` is a look-up in the module each time)
_SHIP_MOVED: Final = ev.ShipMoved
PIVOT_COST_CM: Final = 5  # FPF-MOV-13
STEP_CM: Final = 5.0  # locked weapons are checked at least every 5 cm of movement (FPF-FIRE-07)
#: less than this (half a millimetre, the log's rounding) is no movement: a ship stopped short
#: right where it stood is not moving, for reaction fire (FPF-FIRE-11)
STILL_CM: Final = 0.05
#: A distance flown: the ordered speed (an int) when nothing cut the move, else a float. The log
#: shows the two apart (40 and 40.0), so the compiled build must keep the int an int: a plain
#: `float` there would turn it into 40.0 (docs/performance.md, "The compiled build").
Cm = int | float


def flown_speed(distance: float) -> int:
    """The speed a move of `distance` cm records: whole centimetres, at most MAX_SPEED.

    `round(distance)` written out (compiled, the builtin is a Python call): to the nearest
    whole cm, a half to the even one. (`distance - floor` is exact: a distance's fraction.)"""
    speed = math.floor(distance)
    rest = distance - speed
    if rest > 0.5 or (rest == 0.5 and speed % 2 == 1):
        speed += 1
    return speed if speed < MAX_SPEED else MAX_SPEED


def speed_limits(battle: Battle, ship: ShipState, pivot: bool = False) -> tuple[int, int]:
    """The speeds `ship` may choose this turn (FPF-MOV-06, FPF-MOV-11, FPF-MOV-13); a fixed base
    only 0, and no pivot."""
    if ship.class_facts().stationary:
        return (1, 0) if pivot else (0, 0)
    budget = ship.engine_power - (PIVOT_COST_CM if pivot else 0)
    if budget < 0:
        return (1, 0)  # empty range: a pivot needs 5 cm of power
    # (written out: min() and max() are slow calls for two numbers, and this is a hot one)
    lo, hi = ship.last_speed - budget, ship.last_speed + budget
    return (lo if lo > 0 else 0, hi if hi < MAX_SPEED else MAX_SPEED)


def formation_limits(
    battle: Battle, squadron: SquadronState, pivot: bool = False
) -> tuple[int, int]:
    """Speeds the whole formation may choose: every member's limits at once. A pivot only when
    every member stood still last turn (FPF-MOV-13)."""
    if pivot and any(battle.ships[s].last_speed != 0 for s in squadron.formation):
        return (1, 0)
    lo, hi = 0, MAX_SPEED
    for sid in squadron.formation:
        a, b = speed_limits(battle, battle.ships[sid], pivot)
        lo, hi = a if a > lo else lo, b if b < hi else hi
    return lo, hi


def keep_pace(battle: Battle, squadron: SquadronState) -> None:
    """Wingmen that cannot fly any speed their leader can leave the formation (FPF-MOV-11).

    Every ship records the distance it flew (FPF-MOV-02), so a wingman that had to stop short
    may start the turn far slower than its leader; when no speed is within both their Engine
    Power limits, it flies on its own from now on (docs/rules.md, FPF-MOV-11)."""
    if len(squadron.formation) < 2:
        return
    lo, hi = speed_limits(battle, battle.ships[squadron.formation[0]])
    for sid in list(squadron.formation[1:]):
        a, b = speed_limits(battle, battle.ships[sid])
        # (max() and min() written out: slow calls for two numbers)
        both_lo = a if a > lo else lo
        both_hi = b if b < hi else hi
        if both_lo > both_hi:
            battle.leave_formation(battle.ships[sid])
        else:
            lo, hi = both_lo, both_hi


def movers(battle: Battle, squadron: SquadronState) -> list[str | None]:
    """Who needs a manoeuvre: None for the formation, plus detached ships in control."""
    ships = battle.ships
    out: list[str | None] = []
    for sid in squadron.formation:
        if ships[sid].in_control:
            out.append(None)
            break
    for sid in squadron.ships:
        s = ships[sid]
        if s.alive and s.detached and s.in_control:
            out.append(sid)
    return out


def plan_path(
    battle: Battle, x: float, y: float, heading: int, m: Maneuver, ignore: set[str]
) -> tuple[list[tuple[float, float, int]], Cm, str | None]:
    """Waypoints (x, y, heading) of a manoeuvre, its length, and what it stopped short of.

    Activate, turn, half the move, turn, the other half (FPF-MOV-07); a pivot from
    standstill turns to any facing first (FPF-MOV-13). The final position must not be on
    another ship or off the table: the ship stops short (FPF-MOV-08).
    """
    path, dist, blocker, _ = _plan(battle, x, y, heading, m, ignore)
    return path, dist, blocker


#: a path, its length flown, what it stopped short of, and its leg lengths (`_legs`) when they
#: were worked out on the way (None when not): the move along it measures them no second time
_Planned = tuple[list[tuple[float, float, int]], Cm, str | None, list[float] | None]


def _plan(
    battle: Battle,
    x: float,
    y: float,
    heading: int,
    m: Maneuver,
    ignore: set[str],
    ships: bool = True,
) -> _Planned:
    """`plan_path`, with the path's leg lengths when known; `ships`: False for the path cut by
    the table edge and planets alone (where a stop-short is decided again, FPF-MOV-08)."""
    # (each field read once: a manoeuvre's fields are a Python object's, slow to read)
    pivot, speed = m.pivot, m.speed
    h = (heading + (pivot if pivot is not None else m.turn1)) % HEADINGS
    if m.jump:  # straight ahead after the first turn (FPF-OPT-04)
        jx, jy = advance(x, y, h, speed)
        return _stop_short(battle, [(x, y, h), (jx, jy, h)], speed, ignore, ships=ships)
    half = speed / 2
    mx, my = advance(x, y, h, half)
    h2 = (h + m.turn2) % HEADINGS
    ex, ey = advance(mx, my, h2, half)
    path = [(x, y, h), (mx, my, h), (ex, ey, h2)]
    if speed == 0:
        return [(x, y, h)], 0.0, None, None
    return _stop_short(battle, path, speed, ignore, ships=ships)


def _stop_short(
    battle: Battle,
    path: list[tuple[float, float, int]],
    length: Cm,
    ignore: set[str],
    ends: list[tuple[str, float, float]] | None = None,
    legs: list[float] | None = None,
    ships: bool = True,
) -> _Planned:
    """Cut a path so that it ends clear of other bases and on the table (FPF-MOV-08); `ends`:
    where ships moving at the same time (and so in `ignore`) will stand, as (id, x, y); `legs`:
    the path's leg lengths (`_legs`), when the caller has them. Returns the path's leg lengths
    too when it was not cut."""
    if legs is None:
        legs = _legs(path)
    reach = 2 * battle.base_radius_cm
    touch = reach * reach - 1e-9  # bases just touching are not on top (as `_place_wingmen`)
    # a base this far off along x or y alone is clear, whatever its squares round to (a quick
    # test before the exact one: the margin is far above their rounding)
    far = reach * 1.000001
    cut_at: float | None = None
    blocker: str | None = None
    # the table edge: the centre may not leave the table at any point of the path
    width, height = battle.table_width_cm, battle.table_height_cm
    # (a leg that ends on the table stays on it: `_edge_exit`'s own first test; when every
    # point is on the table, as nearly always, the legs need not be measured)
    wide, high = width + 1e-9, height + 1e-9
    on_table = True
    for px, py, _ in path:
        if not (-1e-9 <= px <= wide and -1e-9 <= py <= high):
            on_table = False
            break
    if not on_table:
        along = 0.0
        for i in range(len(legs)):
            x0, y0, _ = path[i]
            x1, y1, _ = path[i + 1]
            seg = legs[i]
            if not (-1e-9 <= x1 <= wide and -1e-9 <= y1 <= high):
                t = _edge_exit(x0, y0, x1, y1, width, height)
                if t is not None:
                    cut_at, blocker = along + t * seg, "edge"
                    break
            along += seg
    # a planet: no ship flies through it; the base stops at its rim
    for rock in battle.blockers:
        along = 0.0
        rim = rock.radius_cm + battle.base_radius_cm
        for i in range(len(legs)):
            x0, y0, _ = path[i]
            h = path[i + 1][2]  # the heading of this leg
            seg = legs[i]
            entry = entry_distance(x0, y0, h, seg, rock.x, rock.y, rim)
            if entry is not None and (cut_at is None or along + entry < cut_at):
                cut_at, blocker = max(0.0, along + entry - 1e-6), rock.kind
                break
            along += seg
    end: Cm = length if cut_at is None else cut_at
    # another ship's base at the end: back off along the path until clear
    for _ in range(8 if ships else 0):
        ex, ey, _ = _point_at(path, legs, end)
        hit = None
        for s in battle.all_ships:
            # (the distance first: it rules out nearly every ship, and costs the least)
            dx, dy = s.x - ex, s.y - ey
            if (
                -far < dx < far
                and -far < dy < far
                and s.on_table
                and s.id not in ignore
                and _within(dx, dy, touch)
            ):
                hit = (s.id, s.x, s.y)
                break
        if ends is not None:
            for sid, ox, oy in ends:
                dx, dy = ox - ex, oy - ey
                if hit is None and -far < dx < far and -far < dy < far and _within(dx, dy, touch):
                    hit = (sid, ox, oy)
        if hit is None:
            break
        end = _back_off(path, legs, end, hit[1], hit[2], reach)
        blocker = hit[0]
    if end < length:
        return _cut_legs(path, legs, end), end, blocker, None
    return path, end, blocker, legs


def move_formation(battle: Battle, squadron: SquadronState, m: Maneuver) -> None:
    """Fly the formation: the leader's manoeuvre, wingmen on its trail (FPF-MOV-07,
    FPF-MOV-09)."""
    if not squadron.formation:
        return
    leader = battle.ships[squadron.formation[0]]
    own = set(squadron.formation)
    path, dist, blocker, legs = _plan(battle, leader.x, leader.y, leader.heading, m, own)
    before = squadron.trail
    while True:
        trail = before.copy()
        _extend(trail, path)
        placed = _place_wingmen(battle, squadron, trail, dist, own)
        if placed is not None or dist <= 0.0:
            break
        # FPF-MOV-08: a wingman could find no spot clear of its squadron mates between where it
        # stood and where it was going; the leader stops a centimetre shorter, and all try again
        # (its new end clear of every other ship too)
        dist = max(0.0, dist - 1.0)
        blocker = "formation"
        if dist > 0.0:
            path, dist, other, legs = _stop_short(battle, _cut(path, dist), dist, own)
            blocker = other or blocker
        else:
            path, legs = path[:1], None
    if placed is None:  # the leader did not move at all: nobody does
        placed = {sid: (squadron.offsets[sid], 0.0) for sid in squadron.formation[1:]}
    lead = _Move(leader, path, dist, legs)
    if blocker in battle.ships and m.speed > 0:
        _stop_for_a_ship_at_the_end(battle, lead, m, own, blocker)
    elif blocker and m.speed > 0:
        battle.note(ev.StoppedShort, leader.id, blocker, round(m.speed - dist, 3))
    squadron.trail = trail
    uncut = _uncut_trail(trail, lead)
    moves = [lead]
    for sid in squadron.formation[1:]:
        off, moved = placed[sid]
        if moved < dist:
            battle.note(ev.StoppedShort, sid, "formation", round(dist - moved, 3))
        squadron.offsets[sid] = off
        ship = battle.ships[sid]
        # (a wingman that does not move stays exactly where it is)
        route = trail.section(off, off + moved) if moved > 0.0 else [(ship.x, ship.y, ship.heading)]
        wing = _Move(ship, route, moved)
        wing.follows = True
        if uncut is not None:
            # its move had no ship cut its leader's: for a drift that abandons the squadron's
            # manoeuvre, or a leader that does not keep the cut (FPF-MOV-08)
            ext, gap = uncut
            far = moved + gap
            wing.uncut = (ext.section(off, off + far), far, far)
            wing.cut_for = lead.cut_for
        moves.append(wing)
    _execute(battle, moves)
    # (after the move: a wingman that stopped short on the way sits farther back on the trail)
    if squadron.offsets:
        trail.trim(_farthest(squadron.offsets) + battle.formation_spacing_cm * 2)


def _uncut_trail(trail: Trail, lead: _Move) -> tuple[Trail, float] | None:
    """The trail as it would run had no ship cut the leader's move, and how much farther its
    head would be; None when no ship cut it. A wingman's place on it is as far behind the head
    as on `trail`: its move uncut by that ship is that much longer (docs/rules.md FPF-MOV-08)."""
    if lead.uncut is None:
        return None
    full, length, _ = lead.uncut
    gap = length - lead.dist
    if gap <= 1e-9:
        return None
    ext = trail.copy()
    _extend(ext, _onward(full, lead.dist, length))
    return ext, gap


def _onward(
    route: list[tuple[float, float, int]], start: float, end: float
) -> list[tuple[float, float, int]]:
    """The stretch of `route` from `start` to `end` cm along it, in travel order."""
    flown = _cut(route, end)
    legs = _legs(flown)
    section = [_point_at(flown, legs, start)]
    along = 0.0
    for i, seg in enumerate(legs):
        along += seg
        if along > start + 1e-9:
            section.append(flown[i + 1])
    return section


def _farthest(offsets: dict[str, float]) -> float:
    """`max(offsets.values())`, as a native loop (compiled, the builtin is a Python call)."""
    first = True
    out = 0.0
    for off in offsets.values():
        if first or off > out:
            out = off
            first = False
    return out


def _extend(trail: Trail, path: list[tuple[float, float, int]]) -> None:
    """The leader's path added to the head of its squadron's trail."""
    for x, y, h in path:
        trail.extend(x, y, h)
    ex, ey, eh = path[-1]
    if trail.headings[0] != eh:
        trail.face(ex, ey, eh)  # the leader turned without moving on


def _clear(x: float, y: float, of: list[tuple[float, float]], reach2: float, far: float) -> bool:
    """Whether (x, y) is at least sqrt(reach2) from each point of `of` (a module function, not
    a closure: compiled, a closure is called as a Python object). A point `far` or more off
    along x or y alone is clear (`far` well above sqrt(reach2): whatever the squares round to)
    and is not squared."""
    # (a loop: all() of a generator costs three times more)
    for ox, oy in of:
        dx, dy = ox - x, oy - y
        if -far < dx < far and -far < dy < far and _within(dx, dy, reach2):
            return False
    return True


def _within(dx: float, dy: float, reach2: float) -> bool:
    """`dx**2 + dy**2 < reach2`, exactly as written (`**` is glibc's pow, which may differ from
    `dx * dx` in the last bit), with the native products as a quick test first: they differ
    from the powers by a few units in the last place, far inside the margins, so only a
    distance within a millionth of the limit is worked out with the powers."""
    near = dx * dx + dy * dy
    if near < reach2 * 0.999999:
        return True
    if near > reach2 * 1.000001:
        return False
    return dx**2 + dy**2 < reach2


def _place_wingmen(
    battle: Battle, squadron: SquadronState, trail: Trail, dist: float, own: set[str]
) -> dict[str, tuple[float, float]] | None:
    """Each wingman's new offset behind the leader and the distance it moves; None when one
    can find no spot clear of its squadron mates.

    Wingmen move as far as the leader did, never more (FPF-MOV-09). A wingman whose place is
    taken stops short along the trail, 1 cm at a time, but never behind where it started and
    never onto another ship, of its own squadron included (FPF-MOV-08). `own`: the ids of the
    formation, as a set.
    """
    reach2 = (2 * battle.base_radius_cm) ** 2
    far = 2 * battle.base_radius_cm * 1.000001  # (`_clear`'s quick test)
    others = []
    for s in battle.all_ships:
        if s.on_table and s.id not in own:
            others.append((s.x, s.y))
    width, height = battle.table_width_cm, battle.table_height_cm
    hx, hy, _ = trail.point_at(0.0)
    mates = [(hx, hy)]  # where the squadron's ships placed so far end

    out: dict[str, tuple[float, float]] = {}
    for sid in squadron.formation[1:]:
        off = squadron.offsets[sid]
        start = off + dist
        while True:
            px, py, _ = trail.point_at(off)
            on_table = 0.0 <= px <= width and 0.0 <= py <= height
            if (
                on_table
                and _clear(px, py, others, reach2, far)
                and _clear(px, py, mates, reach2, far)
            ):
                break
            if off >= start:
                # no clear spot ahead: it stays where it was, which must be clear of its mates
                px, py, _ = trail.point_at(start)
                if not _clear(px, py, mates, reach2, far):
                    return None
                off = start
                break
            off += 1.0
            off = off if off < start else start
        mates.append((px, py))
        moved = start - off
        out[sid] = (off, moved if moved > 0.0 else 0.0)
    return out


def move_single(battle: Battle, ship: ShipState, m: Maneuver | None) -> None:
    """Fly one ship on its own: detached from its formation, or every ship when the scenario
    moves ships one at a time (FPF-MOV-14); None drifts it straight ahead (FPF-MOV-12,
    FPF-DMG-13)."""
    if m is None:
        m = Maneuver(ship.last_speed, 0, 0)
    path, dist, blocker, legs = _plan(battle, ship.x, ship.y, ship.heading, m, {ship.id})
    mv = _Move(ship, path, dist, legs)
    if blocker in battle.ships and m.speed > 0:
        _stop_for_a_ship_at_the_end(battle, mv, m, {ship.id}, blocker)
    elif blocker and m.speed > 0:
        battle.note(ev.StoppedShort, ship.id, blocker, round(m.speed - dist, 3))
    _execute(battle, [mv])


def _stop_for_a_ship_at_the_end(
    battle: Battle, mv: _Move, m: Maneuver, ignore: set[str], blocker: str
) -> None:
    """A move cut short of a ship as it was planned: the cut holds only if a ship still stands
    there when the move ends (FPF-MOV-08, `_stop_short_at_the_end`). The move keeps the planned
    cut as its pace; the path it may fly on is the manoeuvre cut by the table edge and planets
    alone."""
    ship = mv.ship
    full, length, terrain, _ = _plan(battle, ship.x, ship.y, ship.heading, m, ignore, ships=False)
    mv.uncut = (full, length, float(m.speed))
    mv.cut_for = blocker
    mv.terrain = terrain


class _Move:
    """One ship's move along its route: (x, y, heading) waypoints in travel order, each with the
    heading it is reached on, and how far along the route it goes."""

    __slots__ = (
        "at",
        "coasting",
        "cum",
        "cut_for",
        "dist",
        "follows",
        "legs",
        "planned",
        "route",
        "seen",
        "ship",
        "terrain",
        "to",
        "uncut",
    )

    def __init__(
        self,
        ship: ShipState,
        route: list[tuple[float, float, int]],
        dist: Cm,
        legs: list[float] | None = None,
    ) -> None:
        self.ship = ship
        #: the pace it is stepped at: all of it in the move's last step (a float: only
        #: multiplied and compared, which gives the same for 40 and 40.0)
        self.planned: float = dist
        self.at = 0.0  # how far along it has come
        #: how far along it was when fire last went off during the move: the move cannot end
        #: behind a place a volley was fired from or at
        self.seen = 0.0
        #: a wingman: the first move of the list is its leader's (move_formation)
        self.follows = False
        self.coasting = not ship.in_control  # a drift is straight already (move_single)
        #: the ship it was cut short of, and its route uncut by ships, the route's length and
        #: the distance it was set to fly: the stop-short is decided again where the move
        #: ends (FPF-MOV-08, `_stop_short_at_the_end`); None when no ship cut it
        self.cut_for: str | None = None
        #: (the length a Cm: an uncut move's is the ordered speed, an int, and the compiled
        #: build would make a `float` of it, which the log shows apart: 40.0, not 40)
        self.uncut: tuple[list[tuple[float, float, int]], Cm, float] | None = None
        #: what cut that route, the table edge or a planet ("edge", the planet's kind), or
        #: None: the stop-short logged when the ship it was cut for is gone at the end and it
        #: flies on to the edge (FPF-MOV-02, FPF-MOV-08)
        self.terrain: str | None = None
        self.route: list[tuple[float, float, int]] = []
        self.cum: list[float] = []  # how far along the route each waypoint is
        self.legs: list[float] = []  # the length of each leg (`_legs`)
        self.dist: Cm = 0.0
        #: `dist` as a float, for the step loop's comparisons and sums (the same results:
        #: an int distance is a whole number of cm, exact as a float); `stop_at` sets both
        self.to: float = 0.0
        self._follow(route, dist, legs)

    def _follow(
        self, route: list[tuple[float, float, int]], dist: Cm, legs: list[float] | None = None
    ) -> None:
        """Go `dist` cm along `route`, whose leg lengths are `legs` (`_legs`) when known."""
        if legs is None:
            legs = _legs(route)
        cum = [0.0]
        along = 0.0
        for seg in legs:
            along = along + seg
            cum.append(along)
        self.route, self.cum, self.legs = route, cum, legs
        self.stop_at(dist)

    def stop_at(self, dist: Cm) -> None:
        """It now goes `dist` cm along its route."""
        self.dist = dist
        self.to = dist

    def point(self, s: float) -> tuple[float, float, int]:
        """The position and heading `s` cm along the route."""
        route, cum = self.route, self.cum
        last = len(route) - 1
        for i in range(1, last + 1):
            if s <= cum[i] or i == last:
                x0, y0, _ = route[i - 1]
                x1, y1, h1 = route[i]
                seg = cum[i] - cum[i - 1]
                t = 0.0
                if seg > 0.0:  # the fraction of the leg, kept within 0..1
                    t = (s - cum[i - 1]) / seg
                    t = 1.0 if t >= 1.0 else t if t > 0.0 else 0.0
                return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1
        return route[-1]

    def flown(self) -> list[tuple[float, float, int]]:
        """The route up to where the ship ends."""
        if self.to >= self.cum[-1]:
            return self.route
        return _cut_legs(self.route, self.legs, self.to)

    def flown_legs(self) -> tuple[list[tuple[float, float, int]], list[float]]:
        """`flown` and its leg lengths (`_legs`)."""
        if self.to >= self.cum[-1]:
            return self.route, self.legs
        path = _cut_legs(self.route, self.legs, self.to)
        # the legs before the cut are the route's; the last one ends where the ship does
        n = len(path) - 1
        legs = self.legs[: n - 1]
        x0, y0, _ = path[n - 1]
        x1, y1, _ = path[n]
        legs.append(_hypot(x1 - x0, y1 - y0))
        return path, legs

    def coast(self, battle: Battle, moves: list[_Move]) -> None:
        """It lost control on the way: the rest of its move goes straight ahead on the heading
        it has now (FPF-MOV-12, FPF-DMG-13), stopping short like any move (FPF-MOV-08), of where
        the ships moving with it will end too."""
        ship = self.ship
        movers = {mv.ship.id for mv in moves}
        ends = [(mv.ship.id, *mv.point(mv.dist)[:2]) for mv in moves if mv is not self]
        self.coasting = True
        # a cut for a ship made for the manoeuvre it abandons does not bind the drift: it
        # drifts the rest of the distance it was set to fly before any ship cut it
        rest = (self.uncut[1] if self.uncut is not None else self.dist) - self.at
        self.cut_for = self.uncut = self.terrain = None
        if rest <= 0.0:
            return
        ax, ay = advance(ship.x, ship.y, ship.heading, rest)
        full = [(ship.x, ship.y, ship.heading), (ax, ay, ship.heading)]
        ahead, length, blocker, _ = _stop_short(battle, full, rest, movers, ends)
        flown = _cut(self.route, self.at) if self.at > 0.0 else self.route[:1]
        if len(flown) > 1 and flown[-1][2] == ship.heading:
            flown = flown[:-1]  # straight on: one leg, not two
        if blocker in battle.ships:  # decided again where the move ends (FPF-MOV-08)
            uncut, _, terrain, _ = _stop_short(battle, full, rest, movers, ships=False)
            self.cut_for = blocker
            self.terrain = terrain
            self.uncut = (flown + uncut[1:], self.at + _length(uncut), self.at + rest)
        elif blocker:
            battle.note(ev.StoppedShort, ship.id, blocker, round(rest - length, 3))
        self._follow(flown + ahead[1:], self.at + length)
        _flying_at(ship, flown_speed(self.dist))  # its speed is what it flies (FPF-MASK-03)


def _execute(battle: Battle, moves: list[_Move]) -> None:
    """Step the movers along their routes, letting locked weapons fire on the way, then log.

    Every mover goes along its own route (the leader's turn, half move, turn, half move; a
    wingman's stretch of the trail: FPF-MOV-07, FPF-MOV-09), all at once, in steps of at most
    STEP_CM. Locks are checked as the ships set off and after each step (FPF-FIRE-03,
    FPF-FIRE-07); reaction fire needs its target to be moving: setting off on a move of some
    length, or one of the ships that moved in that step (FPF-FIRE-11). A ship destroyed or reset
    on the way leaves play where it is; one that loses control, or is left derelict
    (FPF-OPT-01), coasts straight on (FPF-MOV-12, FPF-DMG-13).
    """
    longest = 0.0
    for mv in moves:  # this turn's speed holds from the start of the move (FPF-MASK-03)
        _flying_at(mv.ship, flown_speed(mv.dist))
        if mv.planned > longest:
            longest = mv.planned
    steps = max(1, math.ceil(longest / STEP_CM)) if battle.locked and longest > 0.0 else 0
    # setting off: a ship with a move to make is moving from its first point on
    resolve_locks(battle, [mv.ship.id for mv in moves if mv.dist > STILL_CM])
    lead = moves[0]
    for k in range(1, steps + 1):
        t = k / steps
        moving = []
        for mv in moves:
            if mv.at >= mv.to:
                continue
            ship = mv.ship
            if not ship.on_table:  # destroyed or reset on the way: gone from where it was
                mv.stop_at(mv.at)
                continue
            if (not ship.in_control or not ship.alive) and not mv.coasting:
                # it lost control, or was left derelict (FPF-OPT-01), where it is: dead in
                # space, it drifts straight on
                mv.seen = mv.at
                mv.coast(battle, moves)
            if mv.follows and not mv.coasting and lead.ship.alive and mv.to > lead.to + 1e-9:
                # its leader lost control on the way and coasts to a stop short of its place:
                # no wingman goes farther than the leader did (FPF-MOV-09); a leader destroyed
                # or left derelict is out of play, and they fly on without it; a wingman
                # drifting is a wingman no more (FPF-MOV-12)
                _hold_back(battle, mv, mv.dist - max(mv.at, lead.dist))
            s = mv.planned * t
            s = s if s < mv.to else mv.to  # (min() is a slow call for two numbers)
            if s > mv.at:
                if s - mv.at > STILL_CM:
                    moving.append(ship.id)
                mv.at = s
                _fly(ship, mv.point(s))
        fired = resolve_locks(battle, moving)
        if fired:
            for mv in moves:
                if mv.ship.id in fired:
                    mv.seen = mv.at
    _stop_short_at_the_end(battle, moves)
    _settle_ends(battle, moves)
    width, height = battle.table_width_cm, battle.table_height_cm
    for mv in moves:
        ship = mv.ship
        if not ship.on_table:
            continue
        route = mv.flown()
        x1, y1, h1 = route[-1]
        # never a hair off the table through rounding
        x1 = 0.0 if x1 < 0.0 else width if x1 > width else x1
        y1 = 0.0 if y1 < 0.0 else height if y1 > height else y1
        ship.moved = True
        points = [(route[0][0], route[0][1])]
        for px, py, _ in route[1:-1]:
            points.append((px, py))
        points.append((x1, y1))
        # where it ends, facing h1; the speed it records is the distance it actually flew
        # (FPF-MOV-02, FPF-MASK-03; a jump records flat out). Exact values: the event rounds
        # them when it is built (ShipMoved)
        battle.change(_SHIP_MOVED, ship.id, points, h1, flown_speed(mv.dist), mv.dist)


def _fly(ship: ShipState, point: tuple[float, float, int]) -> None:
    """Where a ship is during its move, step by step, for the locked weapons that fire on the
    way: the in-flight place, which the ShipMoved change settles when the move ends (the
    only writes of a place outside a Change: tests/conformance/test_one_door.py)."""
    ship.x, ship.y, ship.heading = point


def _flying_at(ship: ShipState, speed: int) -> None:
    """The speed a ship flies at during its move (FPF-MASK-03), settled by ShipMoved too."""
    ship.speed = speed


def _stop_short_at_the_end(battle: Battle, moves: list[_Move]) -> None:
    """FPF-MOV-08 decided where the move ends: a move cut short of a ship as it was planned
    (or as a drift began) is cut only if a ship stands there now. Against the ships on the
    table now and where the others moving with it end (not those destroyed, reset or never
    arrived), it stops short of what is there; if that is farther on, it flies on to there,
    a leader's wingmen with it, their locks still checked every STEP_CM (FPF-FIRE-07)
    (docs/rules.md FPF-MOV-08). A wingman's move shortened by the cut its leader's was planned
    with is looked at again the same way when the leader did not keep that cut (it drifted, or
    left play, on the way): the wingman flies on along the trail its leader's move uncut would
    have left."""
    movers = {mv.ship.id for mv in moves}
    lead = moves[0]
    lead_gone = lead.coasting or not lead.ship.on_table
    gained: dict[str, tuple[_Move, float]] = {}  # wingmen that flew on: from how far along
    for mv in moves:
        cut_for, uncut = mv.cut_for, mv.uncut
        if cut_for is None or uncut is None:
            continue
        terrain = mv.terrain
        mv.cut_for = mv.uncut = mv.terrain = None
        ship = mv.ship
        if not ship.on_table:
            continue  # it left play on the way
        if mv.follows and not mv.coasting and not lead_gone:
            continue  # its leader kept the cut, or flew on with it (`_wingmen_fly_on`)
        route, length, ordered = uncut
        others = [_end(m) for m in moves if m is not mv and m.ship.on_table]
        _, end, blocker, _ = _stop_short(battle, route, length, movers, others)
        # (a drift flies on too: out of control, or derelict, it was set to drift there)
        flying = mv.coasting or (ship.alive and ship.in_control)
        if end > mv.dist + 1e-9 and flying and mv.at >= mv.to - 1e-9:
            start = mv.at
            mv._follow(route, end)
            on = [(mv, start)]
            if mv is moves[0]:
                on += _wingmen_fly_on(battle, moves, route, start, end)
            else:
                gained[ship.id] = (mv, start)
            _fly_on(battle, on)
            # nothing stands at its new end: what cut it there is the table edge or a planet
            blocker = blocker or terrain
        else:
            blocker = blocker or cut_for
        if blocker and mv.dist < ordered - 1e-9:
            battle.note(ev.StoppedShort, ship.id, blocker, round(ordered - mv.dist, 3))
    if gained:
        _column_flew_on(battle, lead.ship.squadron, gained)


def _column_flew_on(
    battle: Battle, squadron_id: str, gained: dict[str, tuple[_Move, float]]
) -> None:
    """Wingmen of a leader that dropped out flew on (`_stop_short_at_the_end`): the trail's head
    goes on with the ship that leads now, and each place behind it moves on as far as its ship
    did (FPF-MOV-09)."""
    squadron = battle.squadrons[squadron_id]
    form = squadron.formation
    if not form:
        return
    head = gained.get(form[0])
    ahead = 0.0
    if head is not None:
        mv, start = head
        ahead = mv.dist - start
        if ahead > 1e-9:
            _extend(squadron.trail, _onward(mv.route, start, mv.dist))
    for sid in form[1:]:
        if sid in squadron.offsets:
            own = gained.get(sid)
            squadron.offsets[sid] += ahead - (own[0].dist - own[1] if own is not None else 0.0)


def _wingmen_fly_on(
    battle: Battle,
    moves: list[_Move],
    route: list[tuple[float, float, int]],
    start: float,
    end: float,
) -> list[tuple[_Move, float]]:
    """A leader flies on from `start` to `end` cm along `route`: the trail's head moves on with
    it, and each wingman flies on along the trail to keep its place behind it, stopping short
    1 cm at a time of a place taken, never behind where it stands (FPF-MOV-08, FPF-MOV-09).
    Returns the wingmen's moves that go on, each with where it stands."""
    leader = moves[0].ship
    squadron = battle.squadrons[leader.squadron]
    if not squadron.formation or squadron.formation[0] != leader.id:
        return []
    gained = end - start
    trail = squadron.trail
    _extend(trail, _onward(route, start, end))  # from where it stood, on to its new end
    own = set(squadron.formation)
    reach2 = (2 * battle.base_radius_cm) ** 2
    far = 2 * battle.base_radius_cm * 1.000001  # (`_clear`'s quick test)
    others = [(s.x, s.y) for s in battle.all_ships if s.on_table and s.id not in own]
    hx, hy, _ = trail.point_at(0.0)
    mates = [(hx, hy)]
    out = []
    for mv in moves[1:]:
        sid = mv.ship.id
        if sid not in squadron.offsets:
            continue
        here = squadron.offsets[sid] + gained  # where it stands, from the new head
        off = here
        if mv.follows and mv.ship.alive and mv.ship.in_control and mv.at >= mv.to - 1e-9:
            off = here - gained
            while off < here:
                px, py, _ = trail.point_at(off)
                if _clear(px, py, others, reach2, far) and _clear(px, py, mates, reach2, far):
                    break
                off = min(here, off + 1.0)
            if off > here - gained + 1e-9:  # its place is taken: it stops short of it
                battle.note(ev.StoppedShort, sid, "formation", round(off - here + gained, 3))
        if off < here - 1e-9:
            back = here + mv.dist  # where it began this move
            at = mv.at
            mv._follow(trail.section(off, back), back - off)
            out.append((mv, at))
        squadron.offsets[sid] = off
        px, py, _ = trail.point_at(off)
        mates.append((px, py))
    return out


def _fly_on(battle: Battle, on: list[tuple[_Move, float]]) -> None:
    """Ships whose move no ship stops any more fly on from where they stand (each with its
    distance along its route) to their moves' new ends, together, their locks checked as they
    go (FPF-FIRE-03, FPF-FIRE-07)."""
    longest = max(mv.dist - at for mv, at in on)
    steps = max(1, math.ceil(longest / STEP_CM)) if battle.locked else 1
    for k in range(1, steps + 1):
        moving = []
        for mv, at in on:
            ship = mv.ship
            if mv.at >= mv.to or not ship.on_table:
                continue
            if (not ship.alive or not ship.in_control) and not mv.coasting:
                mv.stop_at(mv.at)  # stopped by fire on the way: it ends where it was hit
                continue
            mv.at = at + (mv.dist - at) * k / steps
            _fly(ship, mv.point(mv.at))
            moving.append(ship.id)
        fired = resolve_locks(battle, moving)
        for mv, _ in on:
            if mv.ship.id in fired:
                mv.seen = mv.at
    for mv, _ in on:
        _flying_at(mv.ship, flown_speed(mv.dist))


def _length(path: list[tuple[float, float, int]]) -> float:
    """How long a path is."""
    total = 0.0
    for seg in _legs(path):
        total += seg
    return total


def _settle_ends(battle: Battle, moves: list[_Move]) -> None:
    """FPF-MOV-08 once more, when the movers have reached their ends: one may have stopped where
    another meant to end (it lost control, or fire stopped it, on the way), so each in turn
    stops short of the places the others end in. (A volley fired in the last step was fired
    from where the ship was then.)"""
    movers = set()
    ends = []  # where each ends: (id, x, y), kept up to date as ends move back
    seen_there: list[int] = []
    others_first: list[int] = []
    for i, mv in enumerate(moves):
        movers.add(mv.ship.id)
        ends.append(_end(mv))
        # a ship seen at its end (fire went off there, or it lost control there) keeps it:
        # the others stop short of it, never it of them
        (others_first if mv.seen < mv.dist - 1e-9 else seen_there).append(i)
    for i in seen_there + others_first:
        mv = moves[i]
        ship = mv.ship
        if not ship.alive or mv.dist <= STILL_CM:
            continue
        others = []
        for j, m in enumerate(moves):
            if j != i and m.ship.on_table:
                others.append(ends[j])
        path, legs = mv.flown_legs()
        _, length, blocker, _ = _stop_short(battle, path, mv.dist, movers, others, legs)
        length = mv.seen if mv.seen > length else length
        if blocker is not None and length < mv.dist - 1e-9:
            battle.note(ev.StoppedShort, ship.id, blocker, round(mv.dist - length, 3))
            _fall_back(battle, ship, mv.dist - length)
            mv.stop_at(length)
            ends[i] = _end(mv)
            if mv is moves[0]:
                # its wingmen move no farther than it now does (FPF-MOV-09)
                for j, m in enumerate(moves):
                    if m.follows and not m.coasting and m.dist > length:
                        _hold_back(battle, m, m.dist - length)
                        ends[j] = _end(m)


def _end(mv: _Move) -> tuple[str, float, float]:
    """Where a move ends now, as (id, x, y)."""
    x, y, _ = mv.point(mv.dist)
    return mv.ship.id, x, y


def _hold_back(battle: Battle, mv: _Move, lost: float) -> None:
    """A wingman ends `lost` cm shorter, to stay no farther than its leader (FPF-MOV-09)."""
    battle.note(ev.StoppedShort, mv.ship.id, "formation", round(lost, 3))
    _fall_back(battle, mv.ship, lost)  # (it may lead the formation now: its old leader left)
    mv.stop_at(mv.dist - lost)
    _flying_at(mv.ship, flown_speed(mv.dist))


def _fall_back(battle: Battle, ship: ShipState, lost: float) -> None:
    """A ship of a formation ends `lost` cm short of its place on the trail: its place moves
    back (a leader's: the trail's head, and every place behind it with it)."""
    squadron = battle.squadrons[ship.squadron]
    if ship.id not in squadron.offsets:
        return  # flying on its own: no place on the trail
    if squadron.formation and squadron.formation[0] == ship.id:
        squadron.trail.drop_front(lost)
        # (a wingman's place may sit ahead of the new head for a moment: it is held back
        # next, FPF-MOV-09)
        for sid in squadron.formation[1:]:
            squadron.offsets[sid] -= lost
    else:
        squadron.offsets[ship.id] += lost


def _edge_exit(x0: float, y0: float, x1: float, y1: float, w: float, h: float) -> float | None:
    """Fraction of the segment at which the centre leaves the table, or None."""
    # an end a rounding error outside (a path that ran along the edge) is on the table
    if -1e-9 <= x1 <= w + 1e-9 and -1e-9 <= y1 <= h + 1e-9:
        return None
    t = 1.0
    dx, dy = x1 - x0, y1 - y0
    for edge, d, origin in ((0.0, dx, x0), (w, dx, x0), (0.0, dy, y0), (h, dy, y0)):
        if d != 0.0:
            te = (edge - origin) / d
            # a start on the edge may sit a rounding error outside: that is a crossing at 0
            if -1e-9 <= te < t:
                t = max(0.0, te)
    return t


def _legs(path: list[tuple[float, float, int]]) -> list[float]:
    """The length of each leg of a path, in order (each a `math.hypot`, as every walk along the
    path measures it: a path's walks share them)."""
    out = []
    for i in range(1, len(path)):
        x0, y0, _ = path[i - 1]
        x1, y1, _ = path[i]
        out.append(_hypot(x1 - x0, y1 - y0))
    return out


def _point_at(
    path: list[tuple[float, float, int]], legs: list[float], at: float
) -> tuple[float, float, int]:
    """The point `at` cm along a path whose leg lengths are `legs`."""
    n = len(legs)
    if n == 0:
        return path[-1]
    lx, ly, _ = path[n]
    along = 0.0
    for i in range(n):
        seg = legs[i]
        x1, y1, h1 = path[i + 1]
        # (the last leg takes any length left over; a point equal to the last one too)
        if at <= along + seg or (x1 == lx and y1 == ly):
            x0, y0, _ = path[i]
            t = 0.0 if seg == 0.0 else (at - along) / seg
            t = t if t < 1.0 else 1.0
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1
        along += seg
    return path[-1]


def _cut(path: list[tuple[float, float, int]], at: float) -> list[tuple[float, float, int]]:
    """The path up to `at` cm along it."""
    return _cut_legs(path, _legs(path), at)


def _cut_legs(
    path: list[tuple[float, float, int]], legs: list[float], at: float
) -> list[tuple[float, float, int]]:
    """`_cut` of a path whose leg lengths are `legs`."""
    out = [path[0]]
    along = 0.0
    for i in range(len(legs)):
        seg = legs[i]
        x1, y1, h1 = path[i + 1]
        if along + seg >= at:
            x0, y0, _ = path[i]
            t = 0.0 if seg == 0.0 else (at - along) / seg
            out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1))
            return out
        out.append((x1, y1, h1))
        along += seg
    return out


def _back_off(
    path: list[tuple[float, float, int]],
    legs: list[float],
    end: float,
    cx: float,
    cy: float,
    reach: float,
) -> float:
    """The largest distance <= end along the path whose point is clear of (cx, cy) by reach."""
    along = 0.0
    segs = []
    for i in range(len(legs)):
        x0, y0, _ = path[i]
        seg = legs[i]
        segs.append((along, x0, y0, path[i + 1][2], seg))
        along += seg
    for start, x0, y0, h, seg in reversed(segs):
        if start >= end:
            continue
        length = min(seg, end - start)
        t = entry_distance(x0, y0, h, length, cx, cy, reach)
        if t is not None:
            return start + max(0.0, t - 1e-6)
        return start + length
    return 0.0
