"""Table geometry: centimetres on a plane, headings in 60-degree steps, four arcs.

Heading h (0..5) points 60*h degrees counter-clockwise from "up the table" (+y): heading 0 is
toward the far edge, 3 toward the near one. A turn of +1 is to port (left), -1 to starboard.
Unit vectors for the six headings are precomputed, and arcs are found by projection, so neither
movement nor fire calls trigonometry.
"""

from __future__ import annotations

import math
from typing import Final

from kolrami.catalog.models import Arc

HEADINGS: Final = 6
#: math.hypot as a module constant: a C static in compiled code, where `math.hypot` is a
#: look-up in the module at every call
_hypot: Final = math.hypot
#: (module constants: compiled code reads them as C statics, not from the math module)
_atan2: Final = math.atan2
_degrees: Final = math.degrees
_R3: Final = math.sqrt(3) / 2
# x and y of the unit vector at 90 + 60*h degrees, written out so that 0 and 3 are exact.
_COS: Final[tuple[float, ...]] = (0.0, -_R3, -_R3, 0.0, _R3, _R3)
_SIN: Final[tuple[float, ...]] = (1.0, 0.5, -0.5, -1.0, -0.5, 0.5)

Point = tuple[float, float]


def unit(heading: int) -> Point:
    """The unit vector of a heading."""
    h = heading % HEADINGS
    return _COS[h], _SIN[h]


def advance(x: float, y: float, heading: int, distance: float) -> Point:
    """The point `distance` cm ahead of (x, y) along `heading`."""
    h = heading % HEADINGS
    return x + _COS[h] * distance, y + _SIN[h] * distance


def distance(ax: float, ay: float, bx: float, by: float) -> float:
    """Centre-to-centre ('spigot to spigot') distance."""
    return _hypot(bx - ax, by - ay)


def relative_bearing(x: float, y: float, heading: int, tx: float, ty: float) -> float:
    """Bearing of (tx, ty) from a ship at (x, y), in degrees relative to its heading, in [0, 360).

    0 is dead ahead, 90 to port, 180 astern, 270 to starboard.
    """
    absolute = _degrees(_atan2(ty - y, tx - x))
    return (absolute - 90.0 - 60 * heading) % 360.0


# The arcs as constants of this module: compiled code reads them as C statics, where `Arc.F`
# is a look-up in the enum's class each time.
_FORE: Final = Arc.F
_AFT: Final = Arc.A
_PORT: Final = Arc.P
_STARBOARD: Final = Arc.S


def arc_of_bearing(bearing: float) -> Arc:
    """The 90-degree arc a relative bearing falls in; boundaries go to front or aft."""
    if bearing <= 45.0 or bearing >= 315.0:
        return _FORE
    if 135.0 <= bearing <= 225.0:
        return _AFT
    return _PORT if bearing < 180.0 else _STARBOARD


def arc_to(x: float, y: float, heading: int, tx: float, ty: float) -> Arc:
    """The arc of a ship at (x, y, heading) that contains the point (tx, ty).

    Same answer as arc_of_bearing(relative_bearing(...)) without trigonometry: the offset is
    split into its ahead and to-port parts; front wins when ahead >= |port|.
    """
    h = heading % HEADINGS
    ux, uy = _COS[h], _SIN[h]
    dx, dy = tx - x, ty - y
    ahead = dx * ux + dy * uy
    port = dy * ux - dx * uy
    side = port if port >= 0.0 else -port
    if ahead >= side:
        return _FORE
    if -ahead >= side:
        return _AFT
    return _PORT if port > 0.0 else _STARBOARD


#: The arcs in the order of `arc_index`.
ARC_ORDER: Final[tuple[Arc, ...]] = (_FORE, _AFT, _PORT, _STARBOARD)


def arc_index(x: float, y: float, heading: int, tx: float, ty: float) -> int:
    """`arc_to` as an index into `ARC_ORDER`, for callers that index tables by arc (the
    captains' scoring); the same test, the same answer (a test checks them against each other).
    `heading` must already be 0..5."""
    ux, uy = _COS[heading], _SIN[heading]
    dx, dy = tx - x, ty - y
    ahead = dx * ux + dy * uy
    port = dy * ux - dx * uy
    side = port if port >= 0.0 else -port
    return 0 if ahead >= side else 1 if -ahead >= side else 2 if port > 0.0 else 3


def segment_hits_circle(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, radius: float
) -> bool:
    """Whether the segment a-b passes within `radius` of c (a base crossing the line of fire)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return (cx - ax) ** 2 + (cy - ay) ** 2 < radius * radius
    t = ((cx - ax) * dx + (cy - ay) * dy) / length2
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    px, py = ax + t * dx - cx, ay + t * dy - cy
    return px * px + py * py < radius * radius


def entry_distance(
    ax: float, ay: float, heading: int, length: float, cx: float, cy: float, radius: float
) -> float | None:
    """How far along a straight move from a the path first comes within `radius` of c.

    None when the move of `length` cm never comes that close. Used to stop short of a ship
    and at the table edge.
    """
    ux, uy = unit(heading)
    ox, oy = cx - ax, cy - ay
    b = ox * ux + oy * uy
    c = ox * ox + oy * oy - radius * radius
    if c <= 0.0:
        return 0.0  # it starts that close
    if b <= 0.0:
        return None  # it starts outside and moves away
    disc = b * b - c
    if disc < 0.0:
        return None
    t = b - math.sqrt(disc)
    if t > length:
        return None
    return max(t, 0.0)


class Trail:
    """The path a squadron leader has flown, newest point first, so wingmen can follow it.

    Wingmen sit at fixed distances behind the leader measured along this path;
    `point_at(d)` gives the position and heading `d` cm back from the leader. Each segment's
    length is kept beside it (`lengths[i]`: from points[i + 1] to points[i]), worked out once
    when the segment changes rather than at every walk along the trail.
    """

    __slots__ = ("headings", "lengths", "points")

    def __init__(
        self, x: float, y: float, heading: int, length: float, copy_of: Trail | None = None
    ) -> None:
        if copy_of is not None:  # `copy`: the same points, in lists of its own
            self.points: list[Point] = list(copy_of.points)
            self.headings: list[int] = list(copy_of.headings)
            self.lengths: list[float] = list(copy_of.lengths)
            return
        # A straight trail behind a ship just deployed.
        bx, by = advance(x, y, heading, -length)
        self.points = [(x, y), (bx, by)]
        self.headings = [heading % HEADINGS]  # headings[i]: from points[i+1] to [i]
        self.lengths = [_hypot(x - bx, y - by)]

    def extend(self, x: float, y: float, heading: int) -> None:
        """The leader moved in a straight line to (x, y) on `heading`."""
        lx, ly = self.points[0]
        dx, dy = x - lx, y - ly
        # (a step of 1e-5 or more along x or y is no standstill, whatever its squares round
        # to: only a shorter one is squared)
        if -1e-5 < dx < 1e-5 and -1e-5 < dy < 1e-5 and dx**2 + dy**2 < 1e-12:
            return
        if self.headings[0] == heading % HEADINGS:
            self.points[0] = (x, y)  # same straight line: move the head
            bx, by = self.points[1]
            self.lengths[0] = _hypot(x - bx, y - by)
        else:
            self.points.insert(0, (x, y))
            self.headings.insert(0, heading % HEADINGS)
            self.lengths.insert(0, _hypot(x - lx, y - ly))

    def face(self, x: float, y: float, heading: int) -> None:
        """The leader turned to `heading` without moving on (a pivot, or stopped short at once):
        a segment of no length (or next to none) at (x, y) keeps its new facing at the head."""
        lx, ly = self.points[0]
        self.points.insert(0, (x, y))
        self.headings.insert(0, heading % HEADINGS)
        self.lengths.insert(0, _hypot(x - lx, y - ly))

    def point_at(self, back: float) -> tuple[float, float, int]:
        """Position and heading `back` cm behind the head, along the trail."""
        remaining = back
        lengths = self.lengths
        last = len(lengths) - 1
        for i in range(last + 1):
            seg = lengths[i]
            if remaining <= seg or i == last:
                x0, y0 = self.points[i]
                h = self.headings[i]  # (kept 0..5): `advance(x0, y0, h, -remaining)`
                distance = -remaining
                return x0 + _COS[h] * distance, y0 + _SIN[h] * distance, h
            remaining -= seg
        raise AssertionError("unreachable: the loop returns on its last segment")

    def section(self, near: float, far: float) -> list[tuple[float, float, int]]:
        """The trail from `far` cm behind the head forward to `near` cm behind it, as a path
        in travel order: (x, y, heading) waypoints, each with the heading it is reached on."""
        x, y, h = self.point_at(far)
        out = [(x, y, h)]
        vertices = []
        along = 0.0
        points, lengths = self.points, self.lengths
        for i in range(len(lengths) - 1):
            along += lengths[i]
            if along >= far:
                break
            if along > near:  # points[i + 1], reached on the heading of the segment into it
                x1, y1 = points[i + 1]
                vertices.append((x1, y1, self.headings[i + 1]))
        out += reversed(vertices)
        ex, ey, _ = self.point_at(near)
        # reached on the stretch just behind `near` (at a corner `point_at` gives the next one)
        eh = self.point_at(near + 1e-6)[2] if far > near else self.point_at(near)[2]
        out.append((ex, ey, eh))
        return out

    def trim(self, keep: float) -> None:
        """Forget the trail more than `keep` cm behind the head (it is never needed)."""
        total = 0.0
        for i, seg in enumerate(self.lengths):
            total += seg
            if total >= keep:
                del self.points[i + 2 :]
                del self.headings[i + 1 :]
                del self.lengths[i + 1 :]
                return

    def drop_front(self, back: float) -> None:
        """Make the point `back` cm behind the head the new head (its leader was destroyed)."""
        x, y, _ = self.point_at(back)
        remaining = back
        while self.headings:
            seg = self.lengths[0]
            if remaining < seg or len(self.headings) == 1:
                break
            remaining -= seg
            del self.points[0]
            del self.headings[0]
            del self.lengths[0]
        # the head moves back along the first remaining segment, whose heading stays the same
        # (at a vertex point_at reports the newer segment's heading, which is gone now)
        self.points[0] = (x, y)
        bx, by = self.points[1]
        self.lengths[0] = _hypot(x - bx, y - by)

    def copy(self) -> Trail:
        """An independent copy (for a captain's look-ahead)."""
        # (through the constructor: compiled classes have no bare __new__)
        return Trail(0.0, 0.0, 0, 0.0, copy_of=self)
