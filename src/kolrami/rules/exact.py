"""Exact distributions of the rules' dice, built on icepool: odds are computed, not sampled.

The same rule functions (kolrami.rules.fpf.damage) decide a rolled shot in battle and the exact
die of one here, so simulation and calculation cannot drift apart.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import icepool

from kolrami.catalog.models import WeaponKind
from kolrami.rules.fpf.damage import DAMAGE_SIDES
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.rolloff import ATTACK_DIE_FACES
from kolrami.rules.rolloff import ROLL_OFF_RESULTS
from kolrami.rules.rolloff import AttackFace

Die = Any  # icepool ships without type information


def die(sides: int) -> Die:
    """The exact distribution of a die with `sides` faces."""
    return icepool.d(sides)


@cache
def attack_die() -> Die:
    """The exact distribution of one attack die's faces."""
    return icepool.Die([f.value for f in ATTACK_DIE_FACES])


@cache
def roll_off_die(count: int = 5) -> Die:
    """Exact distribution of the results (hits + criticals) in a roll-off of `count` attack dice."""
    one = attack_die().map(lambda face: int(AttackFace(face) in ROLL_OFF_RESULTS))
    return count @ one


@cache
def penetration_die(shields: int, strength: int) -> Die:
    """1 if one shot penetrates, else 0 (FPF-DMG-01, FPF-DMG-02)."""
    return icepool.d10.map(lambda roll: int(penetrates(roll, shields, strength)))


@cache
def shot_damage_die(kind: WeaponKind, shields: int, strength: int) -> Die:
    """Damage of one shot: 0 if it fails, else 1 (phaser) or d6 (photon) (FPF-DMG-04,
    FPF-DMG-05)."""
    dmg = icepool.d(DAMAGE_SIDES[kind]) if DAMAGE_SIDES[kind] > 1 else 1
    return icepool.d10.map(lambda roll: dmg if penetrates(roll, shields, strength) else 0)
