"""Percentile checks and officer ratings (ADV-CHK-01, ADV-OFF-01, ADV-OFF-02, ADV-OFF-04,
ADV-CAS-03).

A check rolls d100 and succeeds at or under the officer's rating. Casualties add +1 to the roll
for each full 10% of the crew out of action, and a helmsman's bonus may take 2 off a to-hit roll;
the modified result decides. A result of 05 or less is exceptional (a bonus roll's benefit
doubles); a natural 00 always fails, and is a critical failure where a rule says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kolrami.engine.chance import Dice

#: Normal officers roll 3d10 + 45 (48-75, ADV-OFF-01); replacements 3d10 + 40 (43-70, ADV-OFF-04).
OFFICER_BASE = 45
REPLACEMENT_BASE = 40
EXCEPTIONAL = 5  # a result of 05 or less (ADV-CHK-01)


class Outcome(StrEnum):
    """How a check went."""

    EXCEPTIONAL = "exceptional"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL = "critical"  # a natural 00 where the rule calls it a critical failure

    @property
    def passed(self) -> bool:
        """Success or better."""
        return self in (Outcome.EXCEPTIONAL, Outcome.SUCCESS)

    @property
    def amount(self) -> int:
        """A bonus roll's benefit: 2 when exceptional, 1 on success, 0 on failure."""
        return 2 if self is Outcome.EXCEPTIONAL else 1 if self is Outcome.SUCCESS else 0


@dataclass(frozen=True, slots=True)
class Check:
    """One check: the natural d100, the modifier added to it, the rating and the outcome."""

    roll: int
    modifier: int
    rating: int
    outcome: Outcome

    @property
    def result(self) -> int:
        """The roll with its modifier: what is compared with the rating."""
        return self.roll + self.modifier


def judge(roll: int, rating: int, modifier: int = 0, critical: bool = False) -> Outcome:
    """The outcome of a natural d100 `roll` (1-100, 100 is '00') with `modifier` added."""
    if not 1 <= roll <= 100:
        raise ValueError(f"a d100 roll is 1-100 (100 reads 00), not {roll}")
    if roll == 100:
        return Outcome.CRITICAL if critical else Outcome.FAILURE
    result = roll + modifier
    if result <= EXCEPTIONAL:
        return Outcome.EXCEPTIONAL
    return Outcome.SUCCESS if result <= rating else Outcome.FAILURE


def check(dice: Dice, rating: int, modifier: int = 0, critical: bool = False) -> Check:
    """Roll a percentile check against `rating`."""
    roll = dice.d100()
    return Check(roll, modifier, rating, judge(roll, rating, modifier, critical))


def casualty_penalty(casualties: int, crew: int) -> int:
    """+1 to every roll per full 10% of the crew out of action (ADV-CAS-03)."""
    if crew <= 0 or casualties <= 0:
        return 0
    return casualties * 10 // crew


def rating(rolls: tuple[int, int, int], base: int = OFFICER_BASE) -> int:
    """A rating from three d10 (faces 1-10) and the base: 3d10 + 45, or + 40 for replacements."""
    if len(rolls) != 3 or any(not 1 <= r <= 10 for r in rolls):
        raise ValueError(f"a rating takes three d10 rolls of 1-10, not {rolls}")
    return sum(rolls) + base


def roll_rating(dice: Dice, base: int = OFFICER_BASE) -> int:
    """Roll 3d10 + base."""
    a, b, c = dice.d10(), dice.d10(), dice.d10()
    return rating((a, b, c), base)


def assign_by_strength(ratings: list[int], strengths: list[tuple[int, int]]) -> list[int]:
    """Hand ratings rolled in bulk to ships: the best to the strongest (ADV-OFF-02).

    `strengths` is (strength, order) per ship; returns the rating for each ship in input order.
    Equal strengths keep the ships' order (earlier ships get the better rating).
    """
    if len(ratings) != len(strengths):
        raise ValueError("one rating per ship")
    ranked = sorted(range(len(strengths)), key=lambda i: (-strengths[i][0], strengths[i][1]))
    best = sorted(ratings, reverse=True)
    out = [0] * len(strengths)
    for place, ship in enumerate(ranked):
        out[ship] = best[place]
    return out
