"""The tournament roll-off's dice (OP-24): the 8-sided attack die and what counts in a throw.

Peak Performance settles a tied battle with the same throw (PP-22); the exact distribution of a
throw is in kolrami.rules.exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from kolrami.engine.chance import Dice


class AttackFace(StrEnum):
    """Faces of the 8-sided attack die used by the tournament roll-off (OP-24)."""

    HIT = "hit"
    CRITICAL = "critical"
    BATTLE_STATIONS = "battle_stations"
    BLANK = "blank"


#: The attack die: 3 hit, 1 critical, 2 battle stations, 2 blank faces.
ATTACK_DIE_FACES: tuple[AttackFace, ...] = (
    (AttackFace.HIT,) * 3
    + (AttackFace.CRITICAL,)
    + (AttackFace.BATTLE_STATIONS,) * 2
    + (AttackFace.BLANK,) * 2
)

#: Faces that count as a result in a roll-off (OP-24, as catalogued: hits and criticals).
ROLL_OFF_RESULTS = frozenset({AttackFace.HIT, AttackFace.CRITICAL})


def attack_dice(dice: Dice, count: int) -> list[AttackFace]:
    """`count` attack dice rolled with `dice`, e.g. the five of a roll-off (OP-24)."""
    return [ATTACK_DIE_FACES[dice.d(8) - 1] for _ in range(count)]


def count_roll_off(faces: Sequence[AttackFace]) -> int:
    """Results in a roll-off throw: hits and criticals (OP-24)."""
    return sum(f in ROLL_OFF_RESULTS for f in faces)
