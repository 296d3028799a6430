"""Movement (FPF-MOV): manoeuvres and their legality checks."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from kolrami.engine.battle import Battle, ShipState, SquadronState
from kolrami.engine.geometry import HEADINGS, advance, entry_distance
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.fire import resolve_locks
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.module import rules_of

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, ShipState


def verify_maneuver(
    battle: Battle, ships: list[ShipState], m: Maneuver, leader_speed: int | None, who: str
) -> None:
    """A manoeuvre every ship in `ships` can fly (FPF-MOV-06, FPF-MOV-07, FPF-MOV-11,
    FPF-MOV-13)."""
    if m.jump:
        rules_of(battle).check_jump(battle, ships, m, who)
        return
    if m.turn1 not in (-1, 0, 1) or m.turn2 not in (-1, 0, 1):
        raise IllegalOrderError(
            f"{who}: turns are -1, 0 or +1 hex faces (60 degrees) at each of "
            "the two turn points (FPF-MOV-07)"
        )
    if m.pivot is not None:
        if m.pivot not in range(-2, 4):
            raise IllegalOrderError(f"{who}: a pivot is -2..+3 hex faces (FPF-MOV-13)")
        stopped = [s.id for s in ships if s.last_speed != 0]
        if stopped:
            raise IllegalOrderError(
                f"{who}: only a ship that stood still last turn may pivot; "
                f"{', '.join(stopped)} moved (FPF-MOV-13)"
            )
    elif m.speed == 0 and (m.turn1 or m.turn2):
        raise IllegalOrderError(
            f"{who}: a ship at speed 0 turns only by pivoting (PIV), which "
            "costs 5 cm of power (FPF-MOV-13)"
        )
    for s in ships:
        lo, hi = speed_limits(battle, s, m.pivot is not None)
        if not lo <= m.speed <= hi:
            extra = " after the 5 cm pivot" if m.pivot is not None else ""
            raise IllegalOrderError(
                f"{who}: {s.id} ({s.cls.name}, Engine Power {s.engine_power}, last speed "
                f"{s.last_speed}) may move {lo}-{hi} cm{extra}, not {m.speed} "
                "(FPF-MOV-06, FPF-MOV-11)"
                if lo <= hi
                else f"{who}: {s.id} has Engine Power {s.engine_power}, too little to pivot "
                "(FPF-MOV-13)"
            )
    if leader_speed is not None and m.speed > leader_speed:
        raise IllegalOrderError(
            f"{who}: a wingman may not move farther than its leader's "
            f"{leader_speed} cm (FPF-MOV-09)"
        )


#: Speeds are whole centimetres, 0 to 40 (FPF-MOV-06): farther than any weapon reaches, as the
#: game's fast-play scale intends (FPF-TURN-04).
MAX_SPEED = 40
PIVOT_COST_CM = 5  # FPF-MOV-13
STEP_CM = 5.0  # locked weapons are checked at least every 5 cm of movement (FPF-FIRE-07)


def speed_limits(battle: Battle, ship: ShipState, pivot: bool = False) -> tuple[int, int]:
    """The speeds `ship` may choose this turn (FPF-MOV-06, FPF-MOV-11, FPF-MOV-13)."""
    budget = ship.engine_power - (PIVOT_COST_CM if pivot else 0)
    if budget < 0:
        return (1, 0)  # empty range: a pivot needs 5 cm of power
    return (max(0, ship.last_speed - budget), min(MAX_SPEED, ship.last_speed + budget))


def formation_limits(
    battle: Battle, squadron: SquadronState, pivot: bool = False
) -> tuple[int, int]:
    """Speeds the whole formation may choose: every member's limits at once."""
    lo, hi = 0, MAX_SPEED
    for sid in squadron.formation:
        a, b = speed_limits(battle, battle.ships[sid], pivot)
        lo, hi = max(lo, a), min(hi, b)
    return lo, hi


def movers(battle: Battle, squadron: SquadronState) -> list[str | None]:
    """Who needs a manoeuvre: None for the formation, plus detached ships in control."""
    ships = battle.ships
    out: list[str | None] = []
    if any(ships[s].in_control for s in squadron.formation):
        out.append(None)
    out += [
        sid for sid in squadron.ships if (s := ships[sid]).alive and s.detached and s.in_control
    ]
    return out


def plan_path(
    battle: Battle, x: float, y: float, heading: int, m: Maneuver, ignore: set[str]
) -> tuple[list[tuple[float, float, int]], float, str | None]:
    """Waypoints (x, y, heading) of a manoeuvre, its length, and what it stopped short of.

    Activate, turn, half the move, turn, the other half (FPF-MOV-07); a pivot from
    standstill turns to any facing first (FPF-MOV-13). The final position must not be on
    another ship or off the table: the ship stops short (FPF-MOV-08).
    """
    h = (heading + (m.pivot if m.pivot is not None else m.turn1)) % HEADINGS
    if m.jump:  # straight ahead after the first turn (FPF-OPT-04)
        jx, jy = advance(x, y, h, m.speed)
        return _stop_short(battle, [(x, y, h), (jx, jy, h)], m.speed, ignore)
    half = m.speed / 2
    mx, my = advance(x, y, h, half)
    h2 = (h + m.turn2) % HEADINGS
    ex, ey = advance(mx, my, h2, half)
    path = [(x, y, h), (mx, my, h), (ex, ey, h2)]
    if m.speed == 0:
        return [(x, y, h)], 0.0, None
    return _stop_short(battle, path, m.speed, ignore)


def _stop_short(
    battle: Battle, path: list[tuple[float, float, int]], length: float, ignore: set[str]
) -> tuple[list[tuple[float, float, int]], float, str | None]:
    """Cut a path so that it ends clear of other bases and on the table (FPF-MOV-08)."""
    sc = battle.scenario
    reach = 2 * sc.base_radius_cm
    cut_at: float | None = None
    blocker: str | None = None
    # the table edge: the centre may not leave the table at any point of the path
    along = 0.0
    for (x0, y0, _), (x1, y1, _) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        t = _edge_exit(x0, y0, x1, y1, sc.table_width_cm, sc.table_height_cm)
        if t is not None:
            cut_at, blocker = along + t * seg, "edge"
            break
        along += seg
    # a planet: no ship flies through it; the base stops at its rim
    for rock in battle.blockers:
        along = 0.0
        rim = rock.radius_cm + sc.base_radius_cm
        for (x0, y0, h), (x1, y1, _) in pairwise(path):
            seg = math.hypot(x1 - x0, y1 - y0)
            entry = entry_distance(x0, y0, h, seg, rock.x, rock.y, rim)
            if entry is not None and (cut_at is None or along + entry < cut_at):
                cut_at, blocker = max(0.0, along + entry - 1e-6), rock.kind
                break
            along += seg
    end = length if cut_at is None else cut_at
    # another ship's base at the end: back off along the path until clear
    for _ in range(8):
        ex, ey, _ = _point_on(path, end)
        hit = None
        for s in battle.ships.values():
            if s.id in ignore or not s.on_table:
                continue
            if (s.x - ex) ** 2 + (s.y - ey) ** 2 < reach * reach:
                hit = s
                break
        if hit is None:
            break
        end = _back_off(path, end, hit.x, hit.y, reach)
        blocker = hit.id
    cut = _cut(path, end) if end < length else path
    return cut, end, blocker


def move_formation(battle: Battle, squadron: SquadronState, m: Maneuver) -> None:
    """Fly the formation: the leader's manoeuvre, wingmen on its trail (FPF-MOV-07,
    FPF-MOV-09)."""
    if not squadron.formation:
        return
    leader = battle.ships[squadron.formation[0]]
    own = set(squadron.formation)
    path, dist, blocker = plan_path(battle, leader.x, leader.y, leader.heading, m, own)
    if blocker and m.speed > 0:
        battle.log.record(ev.StoppedShort, leader.id, blocker, round(m.speed - dist, 3))
    trail = squadron.trail
    for x, y, h in path:
        trail.extend(x, y, h)
    ex, ey, eh = path[-1]
    if trail.headings[0] != eh:
        # the leader turned without moving on (a pivot, or stopped short at once): a
        # zero-length segment keeps its new facing at the head of the trail
        trail.points.insert(0, (ex, ey))
        trail.headings.insert(0, eh)
    # Wingmen move as far as the leader did, never more (FPF-MOV-09). A wingman whose place
    # is taken stops short along the trail, 1 cm at a time, but never behind where it
    # started and never onto a ship of its own squadron (FPF-MOV-08).
    reach2 = (2 * battle.scenario.base_radius_cm) ** 2
    others = [s for s in battle.ships.values() if s.on_table and s.id not in own]
    placed: list[tuple[float, float]] = []
    width, height = battle.scenario.table_width_cm, battle.scenario.table_height_cm

    def taken(x: float, y: float) -> bool:
        if not (0.0 <= x <= width and 0.0 <= y <= height):
            return True  # the trail may run off the table behind a new column
        if any((o.x - x) ** 2 + (o.y - y) ** 2 < reach2 for o in others):
            return True
        return any((qx - x) ** 2 + (qy - y) ** 2 < reach2 for qx, qy in placed)

    moves: list[_Move] = []
    for sid in squadron.formation:
        ship = battle.ships[sid]
        if sid == leader.id:
            px, py, ph, moved = ex, ey, eh, dist
        else:
            off = squadron.offsets[sid]
            start = off + dist
            px, py, ph = trail.point_at(off)
            moved = dist
            while taken(px, py):
                if off >= start:
                    px, py, ph, moved, off = ship.x, ship.y, ship.heading, 0.0, start
                    break
                off = min(start, off + 1.0)
                moved = start - off
                px, py, ph = trail.point_at(off)
            if moved < dist:
                battle.log.record(ev.StoppedShort, sid, "formation", round(dist - moved, 3))
            squadron.offsets[sid] = off
        placed.append((px, py))
        mid = path[1][2] if len(path) > 1 else ph
        moves.append(
            _Move(
                ship,
                ship.x,
                ship.y,
                ship.heading,
                mid,
                px,
                py,
                ph,
                max(0.0, moved),
                path if sid == leader.id else None,
                round(dist),
            )
        )
    trail.trim(max(squadron.offsets.values()) + battle.scenario.formation_spacing_cm * 2)
    _execute(battle, moves)


def move_single(battle: Battle, ship: ShipState, m: Maneuver | None) -> None:
    """Fly one ship on its own: detached from its formation, or every ship when the scenario
    moves ships one at a time (FPF-MOV-14); None drifts it straight ahead (FPF-MOV-12,
    FPF-DMG-13)."""
    if m is None:
        m = Maneuver(ship.last_speed, 0, 0)
    path, dist, blocker = plan_path(battle, ship.x, ship.y, ship.heading, m, {ship.id})
    if blocker and m.speed > 0:
        battle.log.record(ev.StoppedShort, ship.id, blocker, round(m.speed - dist, 3))
    x, y, h = path[-1]
    mid = path[1][2] if len(path) > 1 else h
    _execute(battle, [_Move(ship, ship.x, ship.y, ship.heading, mid, x, y, h, dist, path)])


def _execute(battle: Battle, moves: list[_Move]) -> None:
    """Step the movers from start to end, letting locked weapons fire on the way, then log.

    Ships advance in straight lines from start to end in steps of at most STEP_CM, keeping
    their first-leg heading for the first half and their final heading after; exact for
    straight moves and close for a 60-degree turn. Locks are checked before the first step
    and after each one (FPF-FIRE-03, FPF-FIRE-07).
    """
    longest = max((mv.dist for mv in moves), default=0.0)
    for mv in moves:  # this turn's speed holds from the start of the move (FPF-MASK-03)
        mv.ship.speed = min(MAX_SPEED, round(mv.dist) if mv.speed is None else mv.speed)
    steps = max(1, math.ceil(longest / STEP_CM)) if battle.locked else 0
    resolve_locks(battle)
    for k in range(1, steps + 1):
        t = k / steps
        for mv in moves:
            ship = mv.ship
            if not ship.on_table:
                continue
            ship.x = mv.x0 + (mv.x1 - mv.x0) * t
            ship.y = mv.y0 + (mv.y1 - mv.y0) * t
            ship.heading = mv.mid if t <= 0.5 else mv.h1
        resolve_locks(battle)
    for mv in moves:
        ship = mv.ship
        if not ship.on_table:
            continue
        # never a hair off the table through rounding
        x1 = min(max(mv.x1, 0.0), battle.scenario.table_width_cm)
        y1 = min(max(mv.y1, 0.0), battle.scenario.table_height_cm)
        ship.x, ship.y, ship.heading = x1, y1, mv.h1
        # a jump records flat out; a formation records its leader's speed
        ship.speed = min(MAX_SPEED, round(mv.dist) if mv.speed is None else mv.speed)
        ship.moved = True
        if mv.path is None:
            points: tuple[tuple[float, float], ...] = ((mv.x0, mv.y0), (x1, y1))
        else:
            inner = tuple((px, py) for px, py, _ in mv.path[1:-1])
            points = ((mv.x0, mv.y0), *inner, (x1, y1))
        # exact values: the event rounds them when it is built (ShipMoved)
        battle.log.record(ev.ShipMoved, ship.id, points, mv.h1, ship.speed, mv.dist)


@dataclass(slots=True)
class _Move:
    """One ship's planned move: start, first-leg heading, end, distance and path."""

    ship: ShipState
    x0: float
    y0: float
    h0: int
    mid: int
    x1: float
    y1: float
    h1: int
    dist: float
    path: list[tuple[float, float, int]] | None
    #: the speed to record; a formation records its leader's for every ship, so the squadron
    #: keeps one speed (FPF-MOV-05) even when a wingman had to stop short
    speed: int | None = None


def _edge_exit(x0: float, y0: float, x1: float, y1: float, w: float, h: float) -> float | None:
    """Fraction of the segment at which the centre leaves the table, or None."""
    if 0.0 <= x1 <= w and 0.0 <= y1 <= h:
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


def _point_on(path: list[tuple[float, float, int]], at: float) -> tuple[float, float, int]:
    along = 0.0
    for (x0, y0, _), (x1, y1, h1) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if at <= along + seg or (x1, y1) == path[-1][:2]:
            t = 0.0 if seg == 0 else min(1.0, (at - along) / seg)
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1
        along += seg
    return path[-1]


def _cut(path: list[tuple[float, float, int]], at: float) -> list[tuple[float, float, int]]:
    out = [path[0]]
    along = 0.0
    for (x0, y0, _), (x1, y1, h1) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if along + seg >= at:
            t = 0.0 if seg == 0 else (at - along) / seg
            out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1))
            return out
        out.append((x1, y1, h1))
        along += seg
    return out


def _back_off(
    path: list[tuple[float, float, int]], end: float, cx: float, cy: float, reach: float
) -> float:
    """The largest distance <= end along the path whose point is clear of (cx, cy) by reach."""
    along = 0.0
    segs = []
    for (x0, y0, _), (x1, y1, h1) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        segs.append((along, x0, y0, h1, seg))
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
