"""The advanced game's arcs and shield facings (ADV-ARC-01, ADV-ARC-02, ADV-ARC-03, ADV-ARC-04), on
FPF's table.

Bearings are relative to the ship's heading in degrees: 0 dead ahead, 90 to port, 180 astern,
270 to starboard (kolrami.engine.geometry.relative_bearing). The six facings are 60-degree
sectors numbered 1 forward-port, 2 forward, 3 forward-starboard, 4 aft-starboard, 5 aft,
6 aft-port (ADV-ARC-04): facing 2 is centred on the bow.

Arcs: forward and aft are FPF's own 90-degree arcs, unchanged (ADV-ARC-01). A side arc lies
between the straight lines drawn outward through the middles of its two hexsides (port: facings
6 and 1, bearings 60-120; starboard: facings 3 and 4, bearings 240-300), narrower than FPF's
90-degree side arcs (ADV-ARC-02). A weapon rated forward, port and starboard is a rotating mount
that fires into everything but the aft arc, and one rated into all four fires all round
(ADV-ARC-03).
"""

from __future__ import annotations

import math
from typing import Final

from kolrami.catalog.models import Arc
from kolrami.engine.geometry import relative_bearing

#: Facing number -> (name, centre bearing).
FACING_NAMES = {
    1: "forward-port",
    2: "forward",
    3: "forward-starboard",
    4: "aft-starboard",
    5: "aft",
    6: "aft-port",
}
_CENTRES = {2: 0.0, 1: 60.0, 6: 120.0, 5: 180.0, 4: 240.0, 3: 300.0}
SIDE_HALF_WIDTH = 30.0  # a side arc spans 60 degrees, centred on the beam


def facing_of_bearing(bearing: float) -> int:
    """The shield facing (1-6) a relative bearing falls in. Facings are half-open sectors
    [start, start + 60) with bearings growing toward port, so a boundary belongs to the facing
    that starts there (30 degrees is forward-port, 330 forward)."""
    b = bearing % 360.0
    sector = math.floor((b + 30.0) / 60.0) % 6  # 0: forward, 1: fwd-port, ... counter-clockwise
    return (2, 1, 6, 5, 4, 3)[sector]


def bearing_to(x: float, y: float, heading: int, tx: float, ty: float) -> float:
    """Relative bearing from a ship at (x, y, heading) to the point (tx, ty)."""
    return relative_bearing(x, y, heading, tx, ty)


def facing_toward(x: float, y: float, heading: int, tx: float, ty: float) -> int:
    """The facing of a ship at (x, y, heading) that faces the point (tx, ty)."""
    return facing_of_bearing(bearing_to(x, y, heading, tx, ty))


def in_arc(arc: Arc, bearing: float) -> bool:
    """Whether a relative bearing lies in one advanced arc."""
    b = bearing % 360.0
    if arc is Arc.F:
        return b <= 45.0 or b >= 315.0
    if arc is Arc.A:
        return 135.0 <= b <= 225.0
    centre = 90.0 if arc is Arc.P else 270.0
    return abs(b - centre) <= SIDE_HALF_WIDTH


def rotating(arcs: tuple[Arc, ...]) -> bool:
    """A rotating mount: rated forward, port and starboard (ADV-ARC-03)."""
    return Arc.F in arcs and Arc.P in arcs and Arc.S in arcs


def weapon_bears(arcs: tuple[Arc, ...], bearing: float) -> bool:
    """Whether a weapon rated into `arcs` fires at a relative bearing."""
    if rotating(arcs):
        return Arc.A in arcs or not in_arc(Arc.A, bearing)
    return any(in_arc(a, bearing) for a in arcs)


# --- the same test for the captains' hot loops: a mount's code and a bearing's bits, worked out
# once each, so that `bears(mount, bits)` is `weapon_bears(arcs, bearing)` without re-reading the
# arcs (tests/rules/advanced/test_adv_combat.py checks the two agree, boundaries included)

#: bits of `arc_bits`: which advanced arcs a bearing lies in
F_BIT: Final = 1
P_BIT: Final = 2
S_BIT: Final = 4
A_BIT: Final = 8
_ARC_BITS: Final = {Arc.F: F_BIT, Arc.P: P_BIT, Arc.S: S_BIT, Arc.A: A_BIT}
#: `mount_code`s of the rotating mounts: all round, and everything but the aft arc (ADV-ARC-03)
ALL_ROUND: Final = -1
NOT_AFT: Final = -2


def arc_bits(bearing: float) -> int:
    """The arcs (as `in_arc` tells them) a relative bearing lies in, as bits."""
    b = bearing % 360.0
    bits = 0
    if b <= 45.0 or b >= 315.0:
        bits |= F_BIT
    if 135.0 <= b <= 225.0:
        bits |= A_BIT
    if abs(b - 90.0) <= SIDE_HALF_WIDTH:
        bits |= P_BIT
    if abs(b - 270.0) <= SIDE_HALF_WIDTH:
        bits |= S_BIT
    return bits


def mount_code(arcs: tuple[Arc, ...]) -> int:
    """A weapon's arcs for `bears`: ALL_ROUND, NOT_AFT, or the bits of the arcs it fires into."""
    if rotating(arcs):
        return ALL_ROUND if Arc.A in arcs else NOT_AFT
    code = 0
    for a in arcs:
        code |= _ARC_BITS[a]
    return code


def bears(mount: int, bits: int) -> bool:
    """`weapon_bears` of a `mount_code` at a bearing's `arc_bits`."""
    if mount >= 0:
        return bits & mount != 0
    return mount == ALL_ROUND or not bits & A_BIT
