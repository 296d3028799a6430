"""Points efficiency and fair values: what SP cost would put a combatant on the field's price line.

The price line says how rating grows with cost across the field: rating = a + b * ln(cost),
fitted by least squares. A combatant above the line is stronger than its cost says; its fair
value is the cost at which the line reaches its rating. Each combatant is judged against the
line fitted on the *others* (leave one out), so a mispriced class does not drag the line toward
itself. The judgement is a textbook prediction interval: where would a fairly priced class of
this cost sit, given the others' line, the line's own estimation error, the others' scatter
about it (estimated on few degrees of freedom, hence a Student t quantile) and the combatant's
own rating uncertainty. Its fair cost interval is the set of costs at which its rating lies
inside that interval (an inverse prediction). A combatant whose cost lies outside the others'
costs is judged on a line carried beyond its data: it gets no firm verdict. See
docs/assessment.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.stats import t as student_t

from kolrami.sim.stats import ELO_PER_LOGIT
from kolrami.sim.stats import Ratings

#: Fair costs per captain this factor apart (or different firm verdicts): "captains disagree".
DISAGREE_RATIO = 1.5
#: Beyond this many battles a matchup, "more battles" is no advice.
MAX_NEEDED = 100_000
#: Fewer distinct costs than this, or costs spanning less than this ratio, and no line is fitted.
MIN_COSTS = 3
MIN_COST_RATIO = 1.25
#: "About right" needs the whole interval within this factor of the cost (1.25: 80% to 125%).
TIGHT = 1.25
#: An interval whose ends are further apart than this factor says nothing: "can't tell".
VAGUE = 16.0
#: Confidence (from the slope's t statistic) that the line rises with cost, for any verdict.
LINE_SURE = 0.95


@dataclass(frozen=True, slots=True)
class FairValue:
    """One combatant's points efficiency and fair cost (None where the line cannot say)."""

    cost: int
    residual_elo: float | None  # rating minus the price line's rating at its cost
    fair_cost: float | None
    fair_low: float | None
    fair_high: float | None
    p_underpriced: float | None  # predictive chance that a fair class of this cost rates lower
    line_ok: float  # confidence that the others' line rises with cost (b > 0)
    extrapolated: bool = False  # cost or fair cost outside the costs the line was fitted on
    fair_cost_linear: float | None = None  # the fair cost if rating grew linearly with cost
    cost_outside: bool = False  # the cost itself lies outside the others' costs: no verdict
    battles_needed: int | None = None  # battles a matchup that might settle a "can't tell"

    @property
    def change(self) -> float | None:
        """Fair cost minus the cost, in SP: positive when the combatant is underpriced."""
        return None if self.fair_cost is None else self.fair_cost - self.cost

    def verdict(self) -> str:
        """A few words for tables: under- or overpriced, about right, or can't tell.

        Under- or overpriced when the 95% interval lies wholly above or below the cost; about
        right only when the whole interval lies within TIGHT of the cost; can't tell otherwise
        (a wide interval containing the cost is no evidence of a fair price), and also when the
        line itself is unsure or the interval spans more than a factor VAGUE, and always when the
        cost lies outside the costs of the others (a line carried beyond its data)."""
        if self.fair_cost is None:
            return "no price line"
        if self.fair_low is None or self.fair_high is None or self.cost_outside:
            return "can't tell"
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


def disagree(values: Sequence[FairValue]) -> bool:
    """Whether fair values of one combatant (e.g. one per captain) disagree: different firm
    verdicts, or fair costs a factor DISAGREE_RATIO or more apart."""
    firm = {v.verdict() for v in values} & {"underpriced", "overpriced", "about right"}
    if len(firm) > 1:
        return True
    costs = [v.fair_cost for v in values if v.fair_cost is not None and v.fair_cost > 0]
    return len(costs) > 1 and max(costs) >= DISAGREE_RATIO * min(costs)


def fair_values(
    costs: Sequence[int], ratings: Ratings, seed: int = 0, battles: int | None = None
) -> FairValues:
    """Fair values for combatants with `costs` (SP) and fitted `ratings`; `battles` (a
    matchup's battles) lets each "can't tell" say how many battles might settle it. `seed` is
    kept for callers: the intervals are now closed-form and draw nothing."""
    del seed
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
    own_var = np.clip(np.diag(ratings.centred_cov), 0.0, None)
    values = [_judge(i, costs, log_cost, ratings.theta, own_var, battles) for i in range(k)]
    fitted = a_all[0] + b_all[0] * log_cost
    scatter = float(np.sqrt(np.sum((ratings.theta - fitted) ** 2) / max(1, k - 2)))
    fit = ratings.fit
    basis = (
        f"a price line rating = a + b ln(cost) over {k} combatants costing {min(costs)}-"
        f"{max(costs)} SP, each judged on the line of the others by a 95% prediction interval "
        f"(the line's estimation error, the others' scatter about it with a t quantile, and "
        f"its own rating's uncertainty); the whole field scatters {scatter:.2f} logits about "
        "its line"
    )
    if fit is not None and fit.df > 0:
        basis += (
            f"; the ratings' fit: deviance {fit.deviance:.1f} on {fit.df} degrees of freedom, "
            f"their variance widened x{fit.dispersion:.2f}"
        )
    return FairValues(tuple(values), line, "", scatter, basis)


def _judge(
    i: int,
    costs: Sequence[int],
    log_cost: NDArray[np.float64],
    theta: NDArray[np.float64],
    own_var: NDArray[np.float64],
    battles: int | None,
) -> FairValue:
    """Combatant i against the line of the others: a leave-one-out prediction interval."""
    k = len(costs)
    others = np.arange(k) != i
    x, y = log_cost[others], theta[others]
    m = int(others.sum())
    if len(set(np.asarray(costs)[others].tolist())) < 2 or m < 3:
        return _unknown(costs[i])
    xbar, ybar = float(x.mean()), float(y.mean())
    sxx = float(np.sum((x - xbar) ** 2))
    b = float(np.sum((x - xbar) * (y - ybar)) / sxx)
    a = ybar - b * xbar
    df = m - 2
    s2 = float(np.sum((y - a - b * x) ** 2) / df)
    t = float(student_t.ppf(0.975, df))
    xi, yi, vi = float(log_cost[i]), float(theta[i]), float(own_var[i])
    residual = yi - (a + b * xi)
    # the chance that the line rises with cost, from its slope's t statistic
    slope_se = math.sqrt(s2 / sxx) if s2 > 0 else 0.0
    line_ok = 1.0 if slope_se == 0 else float(student_t.cdf(b / slope_se, df))
    lo_c, hi_c = float(min(x)), float(max(x))
    outside = not lo_c - 1e-12 <= xi <= hi_c + 1e-12
    al, bl = _fit(np.exp(x), y[None, :])
    linear = float((yi - al[0]) / bl[0]) if bl[0] > 0 else None
    if b <= 0:
        return FairValue(
            costs[i], residual * ELO_PER_LOGIT, None, None, None, None, line_ok, outside
        )
    fair_cost = float(math.exp(min(xbar + (yi - ybar) / b, 30.0)))
    # the prediction's variance at this cost: scatter (with the line's error) and own rating
    lever = 1.0 + 1.0 / m + (xi - xbar) ** 2 / sxx
    pred_sd = math.sqrt(s2 * lever + vi)
    p_under = float(student_t.cdf(residual / pred_sd, df)) if pred_sd > 0 else float(residual > 0)
    # inverse prediction: every ln(cost) u + xbar with (d - b u)^2 <= t^2 (s2 (1 + 1/m +
    # u^2 / sxx) + vi), d = yi - ybar; bounded only when the slope stands out of its noise
    d = yi - ybar
    qa = b * b - t * t * s2 / sxx
    qc = d * d - t * t * (s2 * (1.0 + 1.0 / m) + vi)
    low = high = None
    if qa > 0:
        disc = 4 * b * b * d * d - 4 * qa * qc
        if disc >= 0:
            root = math.sqrt(disc)
            u1, u2 = (2 * b * d - root) / (2 * qa), (2 * b * d + root) / (2 * qa)
            low = math.exp(min(xbar + u1, 30.0))
            high = math.exp(min(xbar + u2, 30.0))
    extrapolated = outside or not lo_c <= math.log(fair_cost) <= hi_c
    needed = _battles_needed(residual, t, s2, lever, vi, own_var[others], b, battles)
    return FairValue(
        cost=costs[i],
        residual_elo=residual * ELO_PER_LOGIT,
        fair_cost=fair_cost,
        fair_low=low,
        fair_high=high,
        p_underpriced=p_under,
        line_ok=line_ok,
        extrapolated=extrapolated,
        fair_cost_linear=None if linear is None or linear <= 0 else linear,
        cost_outside=outside,
        battles_needed=needed,
    )


def _battles_needed(
    residual: float,
    t: float,
    s2: float,
    lever: float,
    vi: float,
    others_var: NDArray[np.float64],
    slope: float,
    battles: int | None,
) -> int | None:
    """Battles a matchup after which the interval might exclude the cost (or fit within
    TIGHT of it), if the ratings kept their places; None: no number would, or unknown.

    More battles shrink the ratings' own variance as 1/n, never the classes' true scatter:
    the scatter's part that is measurement noise (the others' mean rating variance) shrinks,
    the rest stays."""
    if battles is None or battles <= 0:
        return None
    noise = min(s2, float(np.mean(others_var)) if others_var.size else 0.0)
    fixed = t * t * (s2 - noise) * lever  # what no number of battles removes
    shrinking = t * t * (noise * lever + vi)  # what shrinks as 1/battles
    # a firm direction needs residual^2 > fixed + shrinking / f; "about right" needs the
    # half-width (in logits) below slope ln(TIGHT) - |residual|
    targets = [residual * residual, (slope * math.log(TIGHT) - abs(residual)) ** 2]
    if abs(residual) >= slope * math.log(TIGHT):
        targets.pop()
    best = None
    for goal in targets:
        if goal > fixed:
            f = shrinking / (goal - fixed)
            best = f if best is None else min(best, f)
    if best is None or best * battles > MAX_NEEDED:
        return None
    return max(battles + 1, math.ceil(best * battles / 20.0) * 20)


def flags(value: FairValue, captains_disagree: bool = False) -> list[str]:
    """The marks a table prints beside a verdict; each is explained by MARKS."""
    out = []
    if value.cost_outside:
        out.append("extrapolated")
    elif value.extrapolated:
        out.append("fair cost beyond the field")
    if captains_disagree:
        out.append("captains disagree")
    return out


def settle_text(value: FairValue) -> str:
    """For a "can't tell": what more battles could do (empty for any other verdict)."""
    if value.verdict() != "can't tell":
        return ""
    if value.cost_outside:
        return "no number of battles: its cost lies outside the others' costs"
    if value.battles_needed is None:
        return (
            "no number of battles: fairly priced classes scatter about the line more than "
            "this one sits from it"
        )
    n = value.battles_needed
    return f"about {n:,} battles a matchup might settle it (--battles {n} --precision 0.05)"


#: What every mark in the fair-value tables means, printed under them.
MARKS = (
    "'(extrapolated)': its cost lies outside the costs of the other combatants, so the line it "
    "is judged on is carried beyond its data: no firm verdict. "
    "'(fair cost beyond the field)': the verdict stands, but the fair cost lies outside the "
    "others' costs and its amount rests on the line's form. "
    "'(captains disagree)': judged on each captain's battles alone, the verdicts differ or the "
    f"fair costs lie a factor {DISAGREE_RATIO:g} or more apart. "
    "'-': no value, e.g. no interval because the others' line does not rise clearly enough to "
    "bound one, or no fair cost because the line does not rise at all."
)
