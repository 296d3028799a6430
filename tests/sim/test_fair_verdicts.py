"""Verdicts a designer can trust (issue 47, item 17): a null field, extrapolation, captains."""

from __future__ import annotations

import math

import numpy as np

from kolrami.sim.fairvalue import MARKS
from kolrami.sim.fairvalue import FairValue
from kolrami.sim.fairvalue import disagree
from kolrami.sim.fairvalue import fair_values
from kolrami.sim.fairvalue import flags
from kolrami.sim.fairvalue import settle_text
from kolrami.sim.nullfield import null_field_rate
from kolrami.sim.stats import Ratings


def _ratings(theta: list[float], se: float) -> Ratings:
    k = len(theta)
    return Ratings(np.asarray(theta), np.eye(k) * se * se, 1, 8.0)


def test_a_field_of_fairly_priced_classes_gets_at_most_5_percent_firm_verdicts() -> None:
    # 120 simulated ten-class fields, every class priced fairly (the line plus a fair
    # scatter): each firm verdict is false. The method before issue 47 gave 11-12% here.
    r = null_field_rate(120, seed=47, battles=200, scatter=0.7)
    assert r.classes == 1200
    assert r.rate <= 0.05


def test_the_null_field_check_can_fail() -> None:
    # the same fields judged by a naive interval (normal quantile, no estimation error of the
    # line, no own-rating uncertainty) call far more than 5% of fair classes mispriced
    from scipy.stats import norm

    def naive(costs: list[int] | tuple[int, ...], ratings: Ratings) -> object:
        x = np.log(np.asarray(costs, dtype=float))
        out = []
        for i in range(len(costs)):
            o = np.arange(len(costs)) != i
            b, a = np.polyfit(x[o], ratings.theta[o], 1)
            s = float(np.std(ratings.theta[o] - a - b * x[o], ddof=2))
            z = (ratings.theta[i] - a - b * x[i]) / s
            verdict = "underpriced" if z > norm.ppf(0.975) else "overpriced" if z < -1.96 else ""
            out.append(type("V", (), {"verdict": lambda self, v=verdict: v})())
        return type("F", (), {"values": out})()

    r = null_field_rate(120, seed=47, battles=200, scatter=0.7, judge=naive)  # type: ignore[arg-type]
    assert r.rate > 0.05


def test_an_extrapolated_class_gets_no_firm_verdict() -> None:
    costs = [20, 40, 80, 160, 400]
    # the 400 SP class plays like a 2,000 SP one: far above the line, but beyond its data
    theta = [2 * math.log(c) for c in costs[:4]] + [2 * math.log(2000)]
    v = fair_values(costs, _ratings(theta, 0.05)).values[4]
    assert v.cost_outside
    assert v.extrapolated
    assert v.verdict() == "can't tell"
    assert flags(v) == ["extrapolated"]
    assert "outside the others' costs" in settle_text(v)


def test_a_bargain_inside_the_field_keeps_its_verdict_and_says_the_fair_cost_is_beyond() -> None:
    costs = [20, 40, 80, 160, 60, 30]
    theta = [2 * math.log(c) for c in costs]
    theta[4] = 2 * math.log(400)  # the 60 SP class plays like a 400 SP one
    v = fair_values(costs, _ratings(theta, 0.05)).values[4]
    assert v.verdict() == "underpriced"
    assert flags(v) == ["fair cost beyond the field"]


def test_every_mark_printed_is_explained() -> None:
    for mark in ("(extrapolated)", "(fair cost beyond the field)", "(captains disagree)", "'-'"):
        assert mark in MARKS


def _value(fair: float) -> FairValue:
    return FairValue(100, 0.0, fair, fair * 0.5, fair * 2.5, 0.5, 1.0)


def test_captains_two_times_apart_disagree() -> None:
    # issue 47: the Enterprise, fair 120 SP with kiting, 237 SP with aggressive
    assert disagree([_value(120), _value(237)])
    assert not disagree([_value(120), _value(130)])


def test_a_can_t_tell_says_how_many_battles_might_settle_it() -> None:
    costs = [20, 40, 80, 160, 60, 30, 120]
    theta = [2 * math.log(c) for c in costs]
    theta[4] = 2 * math.log(80)  # a modest bargain, drowned by rating noise at 40 battles
    v = fair_values(costs, _ratings(theta, 0.35), battles=40).values[4]
    assert v.verdict() == "can't tell"
    assert v.battles_needed is not None
    assert v.battles_needed > 40
    assert f"--battles {v.battles_needed}" in settle_text(v)
    # with that many battles the rating noise shrinks by 40 / needed, and the verdict is firm
    se = 0.35 * math.sqrt(40 / v.battles_needed)
    assert fair_values(costs, _ratings(theta, se)).values[4].verdict() != "can't tell"
