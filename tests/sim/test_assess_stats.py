"""Wilson intervals, the Bradley-Terry fit and fair values, on numbers worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kolrami.sim.fairvalue import fair_values
from kolrami.sim.stats import ELO_ORIGIN
from kolrami.sim.stats import ELO_PER_LOGIT
from kolrami.sim.stats import Ratings
from kolrami.sim.stats import bradley_terry
from kolrami.sim.stats import mean_and_se
from kolrami.sim.stats import wilson
from kolrami.sim.stats import z_value


def test_z_for_95_percent() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError, match="between 0 and 1"):
        z_value(1.0)


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.277532),  # a perfect record still leaves room above
        (5, 10, 0.236590, 0.763410),
        (10, 10, 0.722468, 1.0),
        (1, 1, 0.206543, 1.0),  # one win: 1 / (1 + z^2) below
    ],
)
def test_wilson_interval(successes: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(successes, n)
    assert lo == pytest.approx(low, abs=1e-5)
    assert hi == pytest.approx(high, abs=1e-5)


def test_wilson_takes_half_counts_and_empty_samples() -> None:
    lo, hi = wilson(2.5, 5)  # two wins and a draw in five
    assert lo < 0.5 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_and_standard_error() -> None:
    assert mean_and_se([]) == (0.0, 0.0)
    assert mean_and_se([3.0]) == (3.0, 0.0)
    mean, se = mean_and_se([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert se == pytest.approx(math.sqrt((1.25 * 4 / 3) / 4))


def _expected_table(theta: list[float], games: int) -> tuple[np.ndarray, np.ndarray]:
    k = len(theta)
    t = np.array(theta)
    p = 1 / (1 + np.exp(-(t[:, None] - t[None, :])))
    g = np.full((k, k), float(games))
    np.fill_diagonal(g, 0.0)
    return g * p, g


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = [0.0, 0.5, 1.5, -1.0]
    scores, games = _expected_table(truth, 10_000)
    fit = bradley_terry(scores, games, prior_sd=1e6)
    centred = fit.theta - fit.theta.mean()
    assert centred == pytest.approx(np.array(truth) - np.mean(truth), abs=1e-6)
    assert fit.p_beats(2, 3) == pytest.approx(1 / (1 + math.exp(-2.5)), abs=1e-6)
    # Elo scale: the field mean sits at the origin, 400 points are odds of 10 to 1
    assert fit.elo().mean() == pytest.approx(ELO_ORIGIN)
    assert fit.elo()[2] - fit.elo()[3] == pytest.approx(2.5 * ELO_PER_LOGIT, abs=1e-3)


def test_more_battles_narrow_the_ratings() -> None:
    few = bradley_terry(*_expected_table([0.0, 1.0, 2.0], 50))
    many = bradley_terry(*_expected_table([0.0, 1.0, 2.0], 5000))
    assert np.all(many.se < few.se)
    assert many.se == pytest.approx(few.se / 10, rel=0.05)  # 100 times the battles


def test_a_perfect_record_gets_a_finite_rating() -> None:
    scores = np.array([[0.0, 100.0], [0.0, 0.0]])
    games = np.array([[0.0, 100.0], [100.0, 0.0]])
    fit = bradley_terry(scores, games)
    assert np.all(np.isfinite(fit.theta))
    assert fit.theta[0] > fit.theta[1] + 3
    assert np.all(np.isfinite(fit.se))


def test_bradley_terry_rejects_a_lopsided_table() -> None:
    with pytest.raises(ValueError, match="symmetric"):
        bradley_terry(np.zeros((2, 2)), np.array([[0.0, 1.0], [2.0, 0.0]]))


def _ratings(theta: list[float], se: float) -> Ratings:
    k = len(theta)
    return Ratings(np.array(theta), np.eye(k) * se * se, 1, 8.0)


def test_fair_values_find_the_bargain() -> None:
    costs = [20, 40, 80, 160, 60]
    # on the line rating = 2 ln(cost), except the 60 SP one, which plays like a 90 SP one
    theta = [2 * math.log(c) for c in costs[:4]] + [2 * math.log(90)]
    fv = fair_values(costs, _ratings(theta, 0.05), seed=3)
    assert fv.line is not None
    bargain = fv.values[4]
    assert bargain.fair_cost == pytest.approx(90, rel=1e-9)
    assert bargain.change == pytest.approx(30, rel=1e-6)
    assert bargain.verdict() == "underpriced"
    assert bargain.p_underpriced is not None
    assert bargain.p_underpriced > 0.99
    assert bargain.fair_low is not None
    assert bargain.fair_high is not None
    assert bargain.fair_low < 90 < bargain.fair_high
    # the others are judged against lines that include the bargain: close to their cost
    for v in fv.values[:4]:
        assert v.fair_cost is not None
        assert v.fair_cost == pytest.approx(v.cost, rel=0.25)


def test_fair_values_are_reproducible() -> None:
    r = _ratings([0.0, 1.0, 2.5, 3.0], 0.3)
    first = fair_values([10, 20, 40, 80], r, seed=1)
    assert first == fair_values([10, 20, 40, 80], r, seed=1)


def test_no_price_line_without_a_spread_of_costs() -> None:
    fv = fair_values([100, 100, 105, 100], _ratings([0.0, 1.0, 2.0, 0.5], 0.1))
    assert fv.line is None
    assert "vary too little" in fv.reason
    assert all(v.fair_cost is None and v.verdict() == "no price line" for v in fv.values)


def test_no_price_line_when_ratings_fall_with_cost() -> None:
    fv = fair_values([10, 20, 40, 80], _ratings([3.0, 2.0, 1.0, 0.0], 0.01))
    assert fv.line is None
    assert all(v.fair_cost is None for v in fv.values)


def test_a_table_the_model_explains_fits_and_keeps_its_intervals() -> None:
    fit = bradley_terry(*_expected_table([0.0, 0.5, 1.5, -1.0], 400), prior_sd=1e6)
    assert fit.fit is not None
    assert fit.fit.df == 6 - 3
    assert fit.fit.pearson == pytest.approx(0.0, abs=1e-6)
    assert fit.fit.dispersion == 1.0
    assert fit.fit.verdict() == "fits"


def test_a_cycle_the_model_cannot_explain_widens_the_intervals() -> None:
    # A beats B, B beats C, C beats A, 90 of 100 each time: no ratings can say that
    scores = np.array([[0.0, 90.0, 10.0], [10.0, 0.0, 90.0], [90.0, 10.0, 0.0]])
    games = np.full((3, 3), 100.0)
    np.fill_diagonal(games, 0.0)
    fit = bradley_terry(scores, games)
    assert fit.fit is not None
    assert fit.fit.df == 1
    assert fit.fit.dispersion > 50  # the results scatter far beyond what the model expects
    assert "does not fit" in fit.fit.verdict()
    raw = np.sqrt(np.diag(fit.centred_cov) / fit.dispersion)
    assert fit.se == pytest.approx(raw * math.sqrt(fit.dispersion))


def test_the_line_s_own_scatter_widens_fair_values() -> None:
    costs = [20, 40, 80, 160, 60]
    on_line = [2 * math.log(c) for c in costs]
    scattered = [t + d for t, d in zip(on_line, [0.6, -0.6, 0.6, -0.6, 0.0], strict=True)]
    tight = fair_values(costs, _ratings(on_line, 0.05), seed=3).values[4]
    loose = fair_values(costs, _ratings(scattered, 0.05), seed=3).values[4]
    assert tight.fair_low is not None
    assert tight.fair_high is not None
    # on two degrees of freedom (t = 4.3) that scatter leaves the interval unbounded
    assert loose.fair_low is None or (
        loose.fair_high is not None
        and loose.fair_high / loose.fair_low > 2 * (tight.fair_high / tight.fair_low)
    )
    # the 60 SP class sits on the line, and the scatter leaves it no firm verdict either way
    assert tight.verdict() == "about right"
    assert loose.verdict() == "can't tell"


def test_a_wide_interval_around_the_cost_is_no_verdict() -> None:
    costs = [20, 40, 80, 160, 60]
    theta = [2 * math.log(c) for c in costs]
    wide = fair_values(costs, _ratings(theta, 0.6), seed=3).values[4]
    assert wide.fair_low is not None
    assert wide.fair_high is not None
    assert wide.fair_low < 60 < wide.fair_high
    assert wide.verdict() == "can't tell"


def test_a_cost_beyond_the_others_is_flagged_as_extrapolated() -> None:
    costs = [20, 40, 80, 160, 400]
    theta = [2 * math.log(c) for c in costs]
    fv = fair_values(costs, _ratings(theta, 0.05), seed=3)
    assert fv.values[4].extrapolated
    assert not fv.values[1].extrapolated
    assert fv.values[0].extrapolated  # the cheapest is beyond the others' range too
    assert fv.values[1].fair_cost_linear is not None  # the fair cost under a linear line


def test_no_line_over_the_field_means_no_fair_value_for_anyone() -> None:
    # over all five the ratings fall with cost, though the four cheapest alone rise: no
    # combatant may get a fair value from a line of the others (the JSON once did)
    costs = [10, 20, 40, 80, 1000]
    theta = [0.0, 0.5, 1.0, 1.5, -30.0]
    fv = fair_values(costs, _ratings(theta, 0.05), seed=3)
    assert fv.line is None
    assert all(v.fair_cost is None and v.verdict() == "no price line" for v in fv.values)
