"""Null fields: simulated assessments in which every class is priced fairly.

A null field draws each class's true strength from the price line at its cost plus a fair
scatter (no class sits exactly on any line), plays `battles` Bradley-Terry battles a pair, fits
the ratings and the fair values as an assessment does, and counts the classes that get a firm
verdict (under- or overpriced). Every such verdict is false: a method a designer can trust
gives them to at most 5% of classes. See docs/assessment.md.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kolrami.sim.fairvalue import FairValues
from kolrami.sim.fairvalue import fair_values
from kolrami.sim.stats import Ratings
from kolrami.sim.stats import bradley_terry

#: The ten FPF classes' costs, one ship each: the field the default assessment plays.
FPF_COSTS = (15, 30, 45, 70, 75, 80, 90, 100, 110, 180)
FIRM = ("underpriced", "overpriced")


@dataclass(frozen=True, slots=True)
class NullFieldRate:
    """How often fairly priced classes were called mispriced."""

    fields: int
    classes: int
    firm: int  # classes with a (false) firm verdict
    fields_with_firm: int  # fields with at least one

    @property
    def rate(self) -> float:
        return self.firm / self.classes if self.classes else 0.0

    @property
    def field_rate(self) -> float:
        return self.fields_with_firm / self.fields if self.fields else 0.0


def null_field_rate(
    fields: int,
    seed: int = 0,
    costs: Sequence[int] = FPF_COSTS,
    battles: int = 200,
    slope: float = 1.6,
    scatter: float = 0.7,
    judge: Callable[[Sequence[int], Ratings], FairValues] | None = None,
) -> NullFieldRate:
    """Play `fields` null fields and count false firm verdicts. `slope` (logits per unit of
    ln cost) and `scatter` (logits) are of the order the default sweep shows; `judge` is the
    fair-value method under test (default: `fair_values`)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    x = np.log(np.asarray(costs, dtype=float))
    k = len(costs)
    firm = with_firm = 0
    for _ in range(fields):
        theta = slope * (x - x.mean()) + scatter * rng.standard_normal(k)
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        scores = np.zeros((k, k))
        games = np.zeros((k, k))
        for i in range(k):
            for j in range(i + 1, k):
                won = float(rng.binomial(battles, p[i, j]))
                scores[i, j], scores[j, i] = won, battles - won
                games[i, j] = games[j, i] = battles
        ratings = bradley_terry(scores, games)
        fv = judge(costs, ratings) if judge else fair_values(costs, ratings, battles=battles)
        n = sum(v.verdict() in FIRM for v in fv.values)
        firm += n
        with_firm += n > 0
    return NullFieldRate(fields, fields * k, firm, with_firm)
