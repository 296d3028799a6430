"""Points efficiency and fair values: what SP cost would put a combatant on the field's price line.

The price line says how rating grows with cost across the field: rating = a + b * ln(cost),
fitted by least squares. A combatant above the line is stronger than its cost says; its fair
value is the cost at which the line reaches its rating. Each combatant is judged against the
line fitted on the *others* (leave one out), so a mispriced class does not drag the line toward
itself. Uncertainty: ratings are drawn from their fitted distribution (the Bradley-Terry
posterior), the line refitted for each draw, and the fair values' 2.5th and 97.5th percentiles
reported. See docs/assessment.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from kolrami.sim.stats import ELO_PER_LOGIT, Ratings

#: Draws from the ratings' distribution used for the intervals.
DRAWS = 4000
#: Fewer distinct costs than this, or costs spanning less than this ratio, and no line is fitted.
MIN_COSTS = 3
MIN_COST_RATIO = 1.25


@dataclass(frozen=True, slots=True)
class FairValue:
    """One combatant's points efficiency and fair cost (None where the line cannot say)."""

    cost: int
    residual_elo: float | None  # rating minus the price line's rating at its cost
    fair_cost: float | None
    fair_low: float | None
    fair_high: float | None
    p_underpriced: float | None  # share of draws in which the fair cost exceeds the cost
    line_ok: float  # share of draws in which the line rose with cost (b > 0)

    @property
    def change(self) -> float | None:
        """Fair cost minus the cost, in SP: positive when the combatant is underpriced."""
        return None if self.fair_cost is None else self.fair_cost - self.cost

    def verdict(self) -> str:
        """A few words for tables: under- or overpriced (and how sure), or about right."""
        if self.fair_cost is None or self.fair_low is None or self.fair_high is None:
            return "no price line"
        if self.fair_low > self.cost:
            return "underpriced"
        if self.fair_high < self.cost:
            return "overpriced"
        return "about right"


@dataclass(frozen=True, slots=True)
class PriceLine:
    """The price line fitted on every combatant: rating (logits) = intercept + slope * ln(cost)."""

    intercept: float
    slope: float


@dataclass(frozen=True, slots=True)
class FairValues:
    """Fair values of every combatant, and the line over all of them (None: no line)."""

    values: tuple[FairValue, ...]
    line: PriceLine | None
    reason: str  # why there is no line, or ""


def _fit(
    x: NDArray[np.float64], ys: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Least-squares intercepts and slopes of every row of `ys` on `x`."""
    xc = x - x.mean()
    slope = (ys - ys.mean(axis=1, keepdims=True)) @ xc / float(xc @ xc)
    intercept = ys.mean(axis=1) - slope * x.mean()
    return intercept, slope


def _unknown(cost: int) -> FairValue:
    return FairValue(cost, None, None, None, None, None, 0.0)


def fair_values(costs: Sequence[int], ratings: Ratings, seed: int = 0) -> FairValues:
    """Fair values for combatants with `costs` (SP) and fitted `ratings`."""
    k = len(costs)
    log_cost = np.log(np.asarray(costs, dtype=float))
    reason = ""
    if len(set(costs)) < MIN_COSTS or max(costs) < MIN_COST_RATIO * min(costs):
        reason = (
            f"the costs ({min(costs)}-{max(costs)} SP) vary too little to fit a price line: "
            "assess combatants of different costs (e.g. ship classes one against one)"
        )
    elif k < MIN_COSTS + 1:
        reason = "too few combatants to fit a price line on the others"
    if reason:
        return FairValues(tuple(_unknown(c) for c in costs), None, reason)
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = rng.multivariate_normal(ratings.theta, ratings.cov, size=DRAWS, method="eigh")
    point = ratings.theta[None, :]
    values = []
    for i in range(k):
        others = np.arange(k) != i
        if len(set(np.asarray(costs)[others].tolist())) < 2:
            values.append(_unknown(costs[i]))
            continue
        a0, b0 = _fit(log_cost[others], point[:, others])
        a, b = _fit(log_cost[others], draws[:, others])
        ok = b > 0
        residual = float(point[0, i] - (a0[0] + b0[0] * log_cost[i]))
        fair_point = _fair(point[:, i], a0, b0)
        fair = _fair(draws[ok, i], a[ok], b[ok])
        if b0[0] <= 0 or fair.size < DRAWS // 2:
            values.append(
                FairValue(costs[i], residual * ELO_PER_LOGIT, None, None, None, None, ok.mean())
            )
            continue
        values.append(
            FairValue(
                cost=costs[i],
                residual_elo=residual * ELO_PER_LOGIT,
                fair_cost=float(fair_point[0]),
                fair_low=float(np.percentile(fair, 2.5)),
                fair_high=float(np.percentile(fair, 97.5)),
                p_underpriced=float(np.mean(fair > costs[i]) * ok.mean()),
                line_ok=float(ok.mean()),
            )
        )
    a_all, b_all = _fit(log_cost, point)
    line = PriceLine(float(a_all[0]), float(b_all[0])) if b_all[0] > 0 else None
    reason = (
        ""
        if line
        else "ratings do not rise with cost across these combatants; where they all field about "
        "the same budget (--points), read the ratings directly: above 1500 beats the average "
        "force of that budget"
    )
    return FairValues(tuple(values), line, reason)


def _fair(
    theta: NDArray[np.float64], a: NDArray[np.float64], b: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Cost at which the line (a, b) reaches `theta`; capped at e^30 to stay finite."""
    return np.exp(np.minimum((theta - a) / b, 30.0))
