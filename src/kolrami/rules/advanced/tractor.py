"""Tractor beams (ADV-TRAC-01, ADV-TRAC-02, ADV-TRAC-03, ADV-TRAC-04, ADV-TRAC-05, ADV-TRAC-06,
ADV-TRAC-07, ADV-TRAC-08): range, power by mass, breaking free, and dilithium burn-out.

Functions a driver step, a captain and a test can all call; readings in docs/rules.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from kolrami.engine.chance import Dice
from kolrami.engine.orders import IllegalOrderError

#: A tractor engages a target 1 or 2 hexes away (ADV-TRAC-01).
TRACTOR_HEXES = (1, 2)
#: Half power costs 5% of the initial total power, full power 10%, rounded up (ADV-TRAC-02).
HALF_SHARE, FULL_SHARE = 5, 10
#: On a d10 (10 is the face printed 0): the escaper loses a crystal on 1-7 (ADV-TRAC-04); a
#: holder loses one on a 0, also in its check every game turn (ADV-TRAC-08).
ESCAPER_BURNS = 7
HOLDER_BURNS = 10


class Level(StrEnum):
    """Tractor power levels (ADV-TRAC-02)."""

    HALF = "half"
    FULL = "full"


def cost(level: Level, initial_tpa: int) -> int:
    """Power a tractor level takes: 5% or 10% of the initial TPA, rounded up (ADV-TRAC-02)."""
    share = HALF_SHARE if level is Level.HALF else FULL_SHARE
    return math.ceil(initial_tpa * share / 100)


def level_needed(holder_mass: int, target_mass: int) -> Level | None:
    """The least level that holds the target: half up to half the holder's mass, full up to its
    own mass; None for a heavier target, which cannot be held (ADV-TRAC-02, ADV-TRAC-06)."""
    if 2 * target_mass <= holder_mass:
        return Level.HALF
    if target_mass <= holder_mass:
        return Level.FULL
    return None


def tractor_problem(
    hexes: float, holder_mass: int, target_mass: int, level: Level, power_free: int, tpa: int
) -> str | None:
    """Why the beam may not be engaged, or None."""
    if not TRACTOR_HEXES[0] <= math.ceil(hexes) <= TRACTOR_HEXES[-1]:
        return f"a tractor engages a target 1 or 2 hexes away, not {hexes:g} (ADV-TRAC-01)"
    needed = level_needed(holder_mass, target_mass)
    if needed is None:
        return "the target is heavier: it breaks any beam by spending 1 move (ADV-TRAC-06)"
    if needed is Level.FULL and level is Level.HALF:
        return "half power holds only up to half the tractoring ship's mass (ADV-TRAC-02)"
    if cost(level, tpa) > power_free:
        return f"{level} power takes {cost(level, tpa)} power, {power_free} free (ADV-TRAC-02)"
    return None


def verify_tractor(
    hexes: float, holder_mass: int, target_mass: int, level: Level, power_free: int, tpa: int
) -> None:
    """Raise IllegalOrderError when the beam may not be engaged."""
    problem = tractor_problem(hexes, holder_mass, target_mass, level, power_free, tpa)
    if problem is not None:
        raise IllegalOrderError(problem)


def may_turn_when_held() -> bool:
    """A held ship still turns freely (ADV-TRAC-03)."""
    return True


@dataclass(frozen=True, slots=True)
class Escape:
    """One attempt to break a beam: crystals each ship lost, whether the beam broke, and whether
    the holder, out of crystals, suffers a warp-core breach (ADV-TRAC-04, ADV-TRAC-07)."""

    escaper_burned: int
    holder_burned: int
    broke: bool
    holder_breach: bool


def escape_problem(escaper_impulse: int) -> str | None:
    """A ship with no impulse movement cannot try to break a beam (ADV-TRAC-05)."""
    if escaper_impulse <= 0:
        return "no impulse movement left: it cannot burn crystals to break free (ADV-TRAC-05)"
    return None


def try_escape(
    dice: Dice, escaper_mass: int, holder_mass: int, escaper_crystals: int, holder_crystals: int
) -> Escape:
    """One attempt by the held ship (ADV-TRAC-04, ADV-TRAC-06, ADV-TRAC-07). A heavier ship
    breaks free by spending a move; otherwise the escaper rolls a d10 (1-7: it burns a crystal)
    and the holder a d10 (0: it burns one; on equal mass both are saving rolls of this kind).
    The beam breaks when the holder has no crystals left, and the holder breaches."""
    if escaper_mass > holder_mass:
        return Escape(0, 0, True, False)
    mine = 1 if escaper_crystals > 0 and dice.d(10) <= ESCAPER_BURNS else 0
    theirs = 1 if holder_crystals > 0 and dice.d(10) == HOLDER_BURNS else 0
    out = holder_crystals - theirs <= 0
    return Escape(mine, theirs, out, out)


def upkeep_burns(dice: Dice) -> bool:
    """The holder's check once a game turn (every 5 phases): a 0 burns a crystal
    (ADV-TRAC-08)."""
    return dice.d(10) == HOLDER_BURNS


def exhausted(crystals: int) -> bool:
    """A ship with no dilithium left overheats: its power drops to 0 and it suffers a warp-core
    breach (ADV-TRAC-07; the breach as ADV-SD-01)."""
    return crystals <= 0
