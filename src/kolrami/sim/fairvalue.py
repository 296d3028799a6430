"""Points efficiency and fair values: what SP cost would put a combatant on the field's price line.

The price line says how rating grows with cost across the field: rating = a + b * ln(cost),
fitted by least squares. A combatant above the line is stronger than its cost says; its fair
value is the cost at which the line reaches its rating. Each combatant is judged against the
line fitted on the *others* (leave one out), so a mispriced class does not drag the line toward
itself. Uncertainty: ratings are drawn from their fitted distribution (the Bradley-Terry
posterior, widened by its dispersion), the line refitted for each draw, and each draw also takes
the line's own scatter (how far fairly priced classes sit from it), since no class sits exactly
on it. A fair cost beyond the costs the line was fitted on is flagged as extrapolated, and the
fair cost under a line of another form (rating linear in cost) is given beside it. A verdict is
only given when the interval says it: "can't tell" otherwise. See docs/assessment.md.
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
#: "About right" needs the whole interval within this factor of the cost (1.25: 80% to 125%).
TIGHT = 1.25
#: An interval whose ends are further apart than this factor says nothing: "can't tell".
VAGUE = 16.0
#: Share of draws in which the line must rise with cost for any verdict.
LINE_SURE = 0.95


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
    extrapolated: bool = False  # cost or fair cost outside the costs the line was fitted on
    fair_cost_linear: float | None = None  # the fair cost if rating grew linearly with cost

    @property
    def change(self) -> float | None:
        """Fair cost minus the cost, in SP: positive when the combatant is underpriced."""
        return None if self.fair_cost is None else self.fair_cost - self.cost

    def verdict(self) -> str:
        """A few words for tables: under- or overpriced, about right, or can't tell.

        Under- or overpriced when the 95% interval lies wholly above or below the cost; about
        right only when the whole interval lies within TIGHT of the cost; can't tell otherwise
        (a wide interval containing the cost is no evidence of a fair price), and also when the
        line itself is unsure or the interval spans more than a factor VAGUE."""
        if self.fair_cost is None or self.fair_low is None or self.fair_high is None:
            return "no price line"
        if self.line_ok < LINE_SURE or self.fair_high > VAGUE * self.fair_low:
            return "can't tell"
        if self.fair_low > self.cost:
            return "underpriced"
        if self.fair_high < self.cost:
            return "overpriced"
        if self.fair_low >= self.cost / TIGHT and self.fair_high <= self.cost * TIGHT:
            return "about right"
        return "can't tell"


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
    scatter: float | None = None  # fairly priced classes' spread about the line, logits
    basis: str = ""  # what the verdicts rest on, in a sentence


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
    cost_arr = np.asarray(costs, dtype=float)
    reason = ""
    if len(set(costs)) < MIN_COSTS or max(costs) < MIN_COST_RATIO * min(costs):
        reason = (
            f"the costs ({min(costs)}-{max(costs)} SP) vary too little to fit a price line: "
            "assess combatants of different costs (e.g. ship classes one against one)"
        )
    elif k < MIN_COSTS + 1:
        reason = "too few combatants to fit a price line on the others"
    point = ratings.theta[None, :]
    a_all, b_all = _fit(log_cost, point)
    if not reason and b_all[0] <= 0:
        reason = (
            "ratings do not rise with cost across these combatants, so no cost can be read off "
            "a price line; compare ratings only between combatants of about the same cost"
        )
    if reason:
        # no line over the field: no combatant gets a fair value from a line of the others
        return FairValues(tuple(_unknown(c) for c in costs), None, reason)
    line = PriceLine(float(a_all[0]), float(b_all[0]))
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = rng.multivariate_normal(ratings.theta, ratings.cov, size=DRAWS, method="eigh")
    noise = rng.standard_normal(DRAWS)
    values = []
    for i in range(k):
        others = np.arange(k) != i
        m = int(others.sum())
        if len(set(np.asarray(costs)[others].tolist())) < 2:
            values.append(_unknown(costs[i]))
            continue
        a0, b0 = _fit(log_cost[others], point[:, others])
        a, b = _fit(log_cost[others], draws[:, others])
        # the line's scatter in each draw: how far the others sit from their own line
        resid = draws[:, others] - (a[:, None] + b[:, None] * log_cost[None, others])
        spread = np.sqrt(np.sum(resid * resid, axis=1) / max(1, m - 2)) if m > 2 else 0.0 * a
        ok = b > 0
        residual = float(point[0, i] - (a0[0] + b0[0] * log_cost[i]))
        fair_point = _fair(point[:, i], a0, b0)
        fair = _fair(draws[ok, i] - noise[ok] * spread[ok], a[ok], b[ok])
        lo_c, hi_c = float(cost_arr[others].min()), float(cost_arr[others].max())
        al, bl = _fit(cost_arr[others], point[:, others])
        linear = float((point[0, i] - al[0]) / bl[0]) if bl[0] > 0 else None
        if b0[0] <= 0 or fair.size < DRAWS // 2:
            values.append(
                FairValue(costs[i], residual * ELO_PER_LOGIT, None, None, None, None, ok.mean())
            )
            continue
        fair_cost = float(fair_point[0])
        values.append(
            FairValue(
                cost=costs[i],
                residual_elo=residual * ELO_PER_LOGIT,
                fair_cost=fair_cost,
                fair_low=float(np.percentile(fair, 2.5)),
                fair_high=float(np.percentile(fair, 97.5)),
                p_underpriced=float(np.mean(fair > costs[i])),
                line_ok=float(ok.mean()),
                extrapolated=not (lo_c <= costs[i] <= hi_c and lo_c <= fair_cost <= hi_c),
                fair_cost_linear=None if linear is None or linear <= 0 else linear,
            )
        )
    fitted = a_all[0] + b_all[0] * log_cost
    scatter = float(np.sqrt(np.sum((ratings.theta - fitted) ** 2) / max(1, k - 2)))
    fit = ratings.fit
    basis = (
        f"a price line rating = a + b ln(cost) over {k} combatants costing {min(costs)}-"
        f"{max(costs)} SP, each judged on the line of the others; fairly priced classes scatter "
        f"about {scatter:.2f} logits from it, which the intervals include"
    )
    if fit is not None and fit.df > 0:
        basis += (
            f"; the ratings' fit: deviance {fit.deviance:.1f} on {fit.df} degrees of freedom, "
            f"their variance widened x{fit.dispersion:.2f}"
        )
    return FairValues(tuple(values), line, "", scatter, basis)


def _fair(
    theta: NDArray[np.float64], a: NDArray[np.float64], b: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Cost at which the line (a, b) reaches `theta`; capped at e^30 to stay finite."""
    return np.exp(np.minimum((theta - a) / b, 30.0))
