"""Statistics for assessments: Wilson intervals and a Bradley-Terry rating fit with uncertainty.

The choices, and why, are in docs/assessment.md. In short: a draw counts half a win; intervals
are 95% Wilson score intervals; ratings are the posterior mode of a Bradley-Terry model under a
weak normal prior (so that a combatant that wins every battle still gets a finite rating), with
the Laplace approximation (inverse Hessian at the mode) as its covariance. The model rarely fits
battle results exactly (one class may beat another more often than their overall strengths say):
its goodness of fit is measured (deviance and Pearson's statistic per degree of freedom), and the
covariance is widened by the dispersion (quasi-likelihood) so the intervals stay honest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

#: Rating points per logit on the familiar Elo scale (400 points = odds of 10 to 1).
ELO_PER_LOGIT = 400.0 / math.log(10.0)
#: The field's mean rating on the Elo scale (an arbitrary origin, as in chess).
ELO_ORIGIN = 1500.0
#: Standard deviation of the normal prior on each rating, in logits (about 1400 Elo points):
#: weak enough to leave real evidence alone, strong enough to keep a perfect record finite.
PRIOR_SD = 8.0


def z_value(level: float = 0.95) -> float:
    """The two-sided standard normal quantile for a confidence `level` (1.96 for 95%)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"a confidence level lies strictly between 0 and 1, not {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def wilson(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion `successes / n` (successes may be a half-count)."""
    if n <= 0:
        return 0.0, 1.0
    z = z_value(level)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4 * n * n)) / denom
    # none (or all) of n: the end is exactly 0 (or 1), not a rounding error away from it
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def mean_and_se(values: Sequence[float]) -> tuple[float, float]:
    """Sample mean and its standard error (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


@dataclass(frozen=True, slots=True)
class Fit:
    """Goodness of fit of a Bradley-Terry model to a results table.

    `deviance` and `pearson` compare each pairing's score with the model's expectation; each is
    about `df` when the model holds (df: pairings played less the ratings fitted). `dispersion`
    is Pearson's statistic per degree of freedom, at least 1: the factor by which the ratings'
    variance is widened (a quasi-likelihood scale)."""

    deviance: float
    pearson: float
    df: int
    dispersion: float

    @property
    def deviance_per_df(self) -> float | None:
        return self.deviance / self.df if self.df > 0 else None

    def verdict(self) -> str:
        """A few words: does the model fit?"""
        if self.df <= 0:
            return "no degrees of freedom left to test the fit"
        ratio = self.pearson / self.df
        if ratio < 1.5:
            return "fits"
        if ratio < 3.0:
            return "fits loosely: intervals widened"
        return "does not fit well: some pairings go unlike the ratings say; intervals widened"


def goodness_of_fit(
    theta: NDArray[np.float64], scores: NDArray[np.float64], games: NDArray[np.float64]
) -> Fit:
    """Deviance and Pearson's statistic of ratings `theta` against a results table."""
    k = theta.size
    upper = np.triu(np.ones((k, k), dtype=bool), 1) & (games > 0)
    n, s = games[upper], scores[upper]
    p = (1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :]))))[upper]
    mu = n * p
    var = n * p * (1.0 - p)
    pearson = float(np.sum((s - mu) ** 2 / np.maximum(var, 1e-12)))
    # binomial deviance of (half-counted) scores; 0 log 0 = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(s > 0, s * np.log(s / mu), 0.0)
        b = np.where(n - s > 0, (n - s) * np.log((n - s) / (n - mu)), 0.0)
    deviance = float(2.0 * np.sum(a + b))
    df = int(upper.sum()) - (k - 1)
    dispersion = max(1.0, pearson / df) if df > 0 else 1.0
    return Fit(deviance, pearson, df, dispersion)


@dataclass(frozen=True, slots=True)
class Ratings:
    """A Bradley-Terry fit: log-strengths (logits), their covariance, and how it was reached."""

    theta: NDArray[np.float64]
    cov: NDArray[np.float64]  # widened by `dispersion` when the model fits worse than chance
    iterations: int
    prior_sd: float
    fit: Fit | None = None

    @property
    def dispersion(self) -> float:
        """How far the results scatter beyond what the model expects (1: as expected)."""
        return 1.0 if self.fit is None else self.fit.dispersion

    @property
    def centred_cov(self) -> NDArray[np.float64]:
        """Covariance of the ratings measured from the field's mean: only differences between
        combatants carry information, so the uncertain common level is taken out."""
        k = self.theta.size
        centre = np.eye(k) - np.full((k, k), 1.0 / k)
        out: NDArray[np.float64] = centre @ self.cov @ centre
        return out

    @property
    def se(self) -> NDArray[np.float64]:
        """Standard error of each rating relative to the field's mean, in logits."""
        return np.sqrt(np.clip(np.diag(self.centred_cov), 0.0, None))

    def elo(self) -> NDArray[np.float64]:
        """Ratings on the Elo scale, the field's mean at ELO_ORIGIN."""
        out: NDArray[np.float64] = ELO_ORIGIN + ELO_PER_LOGIT * (self.theta - self.theta.mean())
        return out

    def elo_interval(self, level: float = 0.95) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Lower and upper ends of each rating's interval, on the Elo scale."""
        half = z_value(level) * ELO_PER_LOGIT * self.se
        return self.elo() - half, self.elo() + half

    def p_beats(self, i: int, j: int) -> float:
        """The fitted chance that combatant i beats combatant j."""
        return float(1.0 / (1.0 + math.exp(-(self.theta[i] - self.theta[j]))))


def bradley_terry(
    scores: NDArray[np.float64],
    games: NDArray[np.float64],
    prior_sd: float = PRIOR_SD,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> Ratings:
    """Fit Bradley-Terry log-strengths to a results table by Newton's method.

    `scores[i, j]` is what i scored against j (wins plus half the draws), `games[i, j]` how
    many battles they played (symmetric). The model: P(i beats j) = 1 / (1 + exp(theta_j -
    theta_i)). Returns the posterior mode under independent normal priors N(0, prior_sd^2) and
    the inverse of the negative Hessian there as covariance.
    """
    k = scores.shape[0]
    if scores.shape != (k, k) or games.shape != (k, k):
        raise ValueError("scores and games must be square tables of the same size")
    if not np.allclose(games, games.T):
        raise ValueError("games must be symmetric")
    precision = 1.0 / (prior_sd * prior_sd)
    theta = np.zeros(k)
    iterations = 0
    for iterations in range(1, max_iter + 1):  # noqa: B007 - the count is reported
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (scores - games * p).sum(axis=1) - precision * theta
        hess = _neg_hessian(games * p * (1.0 - p), precision)
        step = np.linalg.solve(hess, grad)
        theta = theta + _damped(step)
        if float(np.max(np.abs(step))) < tol:
            break
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    cov = np.linalg.inv(_neg_hessian(games * p * (1.0 - p), precision))
    fit = goodness_of_fit(theta, scores, games)
    cov = (cov + cov.T) / 2.0 * fit.dispersion
    return Ratings(theta=theta, cov=cov, iterations=iterations, prior_sd=prior_sd, fit=fit)


def _neg_hessian(w: NDArray[np.float64], precision: float) -> NDArray[np.float64]:
    """Negative Hessian of the log-posterior: -w off the diagonal, row sums plus the prior's
    precision on it (the diagonal of `w` is a combatant against itself: never played)."""
    hess = -w
    np.fill_diagonal(hess, w.sum(axis=1) - np.diag(w) + precision)
    return hess


def _damped(step: NDArray[np.float64], limit: float = 2.0) -> NDArray[np.float64]:
    """Newton steps longer than `limit` logits are shortened: the log-posterior is concave, so
    this only slows the first iterations of a badly separated table and never stops them."""
    longest = float(np.max(np.abs(step))) if step.size else 0.0
    return step * (limit / longest) if longest > limit else step
