"""Engines: impulse, warp and nacelles (ADV-IMP-01, ADV-IMP-02, ADV-WARP-01, ADV-WARP-02,
ADV-WARP-03, ADV-NAC-01); and self-destruct (ADV-SD-01, ADV-SD-02, ADV-SD-03).

Functions over a ship's engine numbers that a driver step, a captain and a test can all call;
readings are in docs/rules.md under each id.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kolrami.engine.orders import IllegalOrderError

#: A natural 00 on the d100 (read as 100).
NATURAL_00 = 100


def can_evade(impulse: int) -> bool:
    """Missile evasion needs impulse power: thrusters are too slow (ADV-IMP-01)."""
    return impulse > 0


def can_manoeuvre(impulse: int) -> bool:
    """With no impulse a ship only changes heading on thrusters; it moves again once its
    engineer has repaired a point of impulse (ADV-IMP-01)."""
    return impulse > 0


def warp_problem(impulse: int, warp: int, turns: bool, path_clear: bool) -> str | None:
    """Why a warp move may not be made, or None (ADV-IMP-02): without impulse a ship warps only
    straight ahead, with at least 1 warp point, along a path free of asteroids."""
    if warp <= 0:
        return "no warp power left: it cannot go to warp (ADV-IMP-02)"
    if impulse > 0:
        return None
    if turns:
        return "without impulse a warp move is straight ahead on the current heading (ADV-IMP-02)"
    if not path_clear:
        return "without impulse the navigational deflectors cannot clear asteroids (ADV-IMP-02)"
    return None


def verify_warp(impulse: int, warp: int, turns: bool, path_clear: bool) -> None:
    """Raise IllegalOrderError when the warp move may not be made."""
    problem = warp_problem(impulse, warp, turns, path_clear)
    if problem is not None:
        raise IllegalOrderError(problem)


def damage_percent(power_left: int, power_rated: int) -> int:
    """Engine damage as a whole percentage of the rated warp power."""
    if power_rated <= 0:
        return 0
    return (power_rated - power_left) * 100 // power_rated


def max_warp(safe_warp: int, damage_pct: int) -> int:
    """Top warp speed with damaged engines: the safe maximum less the damage share, rounded
    down (ADV-WARP-01)."""
    return safe_warp * (100 - damage_pct) // 100


def containment_held(roll: int, warp_tech: int, damage_pct: int) -> bool:
    """One Warp Technology saving roll for a warp level above the safe maximum (ADV-WARP-02,
    ADV-WARP-03): undamaged engines fail only on a natural 00; damaged ones add the damage
    percentage to the roll, which must stay at or under the rating. False: containment lost."""
    if roll == NATURAL_00:
        return False
    if damage_pct <= 0:
        return True
    return roll + damage_pct <= warp_tech


@dataclass(frozen=True, slots=True)
class NacelleHit:
    """A hit on a warp nacelle (ADV-NAC-01): the nacelle's power left, whether it is blown off
    for good, and the excess that goes to the superstructure (never to the other nacelle)."""

    left: int
    blown_off: bool
    to_hull: int


def hit_nacelle(power_left: int, damage: int) -> NacelleHit:
    """Damage past what a nacelle can absorb blows it off and goes to the hull (ADV-NAC-01)."""
    if damage <= power_left:
        return NacelleHit(power_left - damage, False, 0)
    return NacelleHit(0, True, damage - power_left)


class Destruct(StrEnum):
    """The three ways to self-destruct (ADV-SD-01, ADV-SD-02, ADV-SD-03)."""

    WARP_BREACH = "warp-breach"
    IMPULSE_OVERLOAD = "impulse-overload"
    SCUTTLE = "scuttle"


def destruct_problem(kind: Destruct, warp: int, impulse: int) -> str | None:
    """Why this way of self-destruct is not open, or None. A breach needs at least 1 warp point
    (engines at 0 cannot breach, ADV-SD-01); an impulse overload needs the warp engines at 0 and
    at least 1 impulse point (ADV-SD-02); scuttling charges always work (ADV-SD-03)."""
    if kind is Destruct.WARP_BREACH and warp <= 0:
        return "warp engines at 0 cannot breach containment (ADV-SD-01)"
    if kind is Destruct.IMPULSE_OVERLOAD:
        if warp > 0:
            return "the warp engines still have power: breach them instead (ADV-SD-02)"
        if impulse <= 0:
            return "no impulse power left to overload (ADV-SD-02)"
    return None


def can_destruct(kind: Destruct, warp: int, impulse: int) -> bool:
    """Whether this way of self-destruct is open."""
    return destruct_problem(kind, warp, impulse) is None


def verify_destruct(kind: Destruct, warp: int, impulse: int) -> None:
    """Raise IllegalOrderError when this way of self-destruct is not open."""
    problem = destruct_problem(kind, warp, impulse)
    if problem is not None:
        raise IllegalOrderError(problem)


#: The breach table is not in the seed (ADV-SD-01); our reading: full damage to every ship
#: within this many hexes, half (rounded down) one hex further out.
BLAST_HEXES = 1


def blast_damage(kind: Destruct, warp: int, impulse: int, hexes: float) -> int:
    """Damage the explosion does to a ship `hexes` away: a breach the warp points left, an
    overload the undamaged impulse points (ADV-SD-02), scuttling charges none (ADV-SD-03)."""
    if kind is Destruct.SCUTTLE:
        return 0
    power = warp if kind is Destruct.WARP_BREACH else impulse
    if hexes <= BLAST_HEXES:
        return power
    if hexes <= BLAST_HEXES + 1:
        return power // 2
    return 0
