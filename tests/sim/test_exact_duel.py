"""The exact static duel (a Markov chain) against odds.py and against the battle engine."""

from __future__ import annotations

import math

import pytest

from kolrami.catalog import Arc
from kolrami.catalog import builtin_pack
from kolrami.engine.geometry import arc_to
from kolrami.engine.geometry import distance
from kolrami.errors import InvalidInputError
from kolrami.sim.duel import Duel
from kolrami.sim.duel import FireOrder
from kolrami.sim.duel import _placement
from kolrami.sim.duel import exact_duel
from kolrami.sim.duel import reference_duel
from kolrami.sim.duel import sample_duel
from kolrami.sim.odds import ship_volley
from kolrami.sim.odds import volley_odds


def duel(a: str, arc_a: str, b: str, arc_b: str, rng: float, turns: int, order: str) -> Duel:
    pack = builtin_pack()
    return Duel(pack.get(a), Arc(arc_a), pack.get(b), Arc(arc_b), rng, turns, FireOrder(order))


@pytest.mark.parametrize(
    ("a", "b", "rng"),
    [("sting", "star-hawk", 12), ("reliant", "star-hawk", 14), ("defender", "bird-of-prey", 16)],
)
@pytest.mark.rule("FPF-FIRE-08", "FPF-FIRE-09", "FPF-DMG-10", "FPF-DMG-11")
def test_one_volley_agrees_with_the_exact_odds(a: str, b: str, rng: float) -> None:
    """A fires first for one turn: A wins exactly when its volley deals B's superstructure."""
    d = duel(a, "F", b, "F", rng, 1, "a-first")
    out = exact_duel(d)
    odds = volley_odds(ship_volley(d.a, Arc.F, d.b, rng), d.b.shields, d.b.hit_locations)
    assert out.a_wins == pytest.approx(float(odds.p_damage_at_least(d.b.superstructure)), abs=1e-12)
    assert out.both_destroyed == 0.0


def test_the_four_ends_sum_to_one() -> None:
    out = exact_duel(duel("bird-of-prey", "A", "star-hawk", "A", 12, 12, "exchange"))
    assert sum(out.as_dict().values()) == pytest.approx(1.0, abs=1e-12)
    assert all(0.0 <= p <= 1.0 for p in out.as_dict().values())


def test_a_ship_out_of_reach_never_wins() -> None:
    # at 20 cm the Star Hawk's phasers (18 cm) and photon (14 cm) stay silent; the Defender's
    # phasers (20 cm) reach
    out = exact_duel(duel("defender", "F", "star-hawk", "F", 20, 3, "exchange"))
    assert out.b_wins == 0.0
    assert out.both_destroyed == 0.0
    assert out.a_wins > 0.0


def test_longer_duels_settle_more() -> None:
    short = exact_duel(duel("bird-of-prey", "A", "star-hawk", "A", 12, 2, "exchange"))
    long = exact_duel(duel("bird-of-prey", "A", "star-hawk", "A", 12, 8, "exchange"))
    assert long.unresolved < short.unresolved
    assert long.a_wins >= short.a_wins
    assert long.b_wins >= short.b_wins


def test_a_duel_with_nothing_in_reach_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="nothing happens"):
        duel("star-hawk", "F", "bird-of-prey", "F", 30, 5, "exchange")
    with pytest.raises(InvalidInputError, match="1 to 200 turns"):
        duel("star-hawk", "F", "bird-of-prey", "F", 10, 0, "exchange")


def test_a_chain_too_big_is_refused_not_run_for_hours() -> None:
    with pytest.raises(InvalidInputError, match="more than 2,000 joint states"):
        exact_duel(duel("reliant", "F", "ktroika", "F", 14, 12, "exchange"), max_states=2000)


@pytest.mark.parametrize("arcs", [("F", "F"), ("P", "A"), ("S", "F"), ("A", "P")])
def test_the_engine_duel_puts_each_ship_in_the_others_arc(arcs: tuple[str, str]) -> None:
    d = duel("reliant", arcs[0], "ktroika", arcs[1], 13, 1, "exchange")
    (ax, ay, ha), (bx, by, hb) = _placement(d)
    assert distance(ax, ay, bx, by) == pytest.approx(13)
    assert arc_to(ax, ay, ha, bx, by) is Arc(arcs[0])
    assert arc_to(bx, by, hb, ax, ay) is Arc(arcs[1])


DUELS = [
    ("bird-of-prey", "A", "star-hawk", "A", 12, 12, "exchange"),  # photons: d6 on every hit
    ("star-hawk", "F", "bird-of-prey", "F", 10, 6, "b-first"),  # phasers, knocked out by hits
    ("defender", "A", "bird-of-prey", "A", 14, 12, "exchange"),  # ranges 16 and 14: two tiers
    ("sting", "P", "bird-of-prey", "P", 15, 6, "a-first"),
]


@pytest.mark.slow
@pytest.mark.parametrize("spec", DUELS)
@pytest.mark.rule("FPF-DMG-06", "FPF-DMG-09", "FPF-DMG-13", "FPF-FIRE-14")
def test_the_engine_agrees_with_the_exact_duel(
    spec: tuple[str, str, str, str, float, int, str], sample: int
) -> None:
    """Monte Carlo through the engine (its dice, locks, fire and damage code) against the chain.

    Each end's exact chance must lie in the sample's Wilson interval. The level is 99%, not
    95%: four ends of several duels are compared, and at 95% a correct engine would miss one
    interval in five runs of this test.
    """
    d = duel(*spec)
    exact = exact_duel(d)
    mc = sample_duel(d, 1500 * sample, seed=11)
    for end, p in exact.as_dict().items():
        lo, hi = mc.interval(end, 0.99)
        assert lo <= p <= hi, f"{end}: exact {p:.4f}, engine {getattr(mc, end) / mc.n:.4f}"
    assert math.isclose(sum(mc.as_dict().values()), mc.n)


# The four ends of three small duels as the step-by-step chain computed them before the fast
# solver (commit 620a40c, `exact_duel` then), to the last digit: the fast solver must give them
# again. Simultaneous phasers at 18 cm (FPF-FIRE-14), two range tiers, and one ship firing first.
BEFORE = [
    (
        ("bird-of-prey", "F", "star-hawk", "F", 12, 12, "exchange"),
        (0.007074202006830798, 0.7101139010692992, 0.0009323919902542202, 0.2818795049336211),
    ),
    (
        ("defender", "A", "bird-of-prey", "A", 14, 12, "exchange"),
        (0.7941607492427846, 0.18752463094174177, 0.0, 0.01831461981547375),
    ),
    (
        ("star-hawk", "F", "bird-of-prey", "F", 10, 6, "b-first"),
        (0.19970900373548645, 1.0067750527671795e-06, 0.0, 0.8002899894894585),
    ),
]


@pytest.mark.parametrize(("spec", "ends"), BEFORE)
@pytest.mark.rule("FPF-FIRE-14", "FPF-DMG-09", "FPF-DMG-13")
def test_the_fast_solver_gives_the_values_of_before(
    spec: tuple[str, str, str, str, float, int, str], ends: tuple[float, float, float, float]
) -> None:
    out = exact_duel(duel(*spec))
    for got, want in zip(out.as_dict().values(), ends, strict=True):
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


AGREE = [
    ("bird-of-prey", "F", "star-hawk", "F", 12, 4, "exchange"),  # one shared tier (18 cm)
    ("star-hawk", "A", "bird-of-prey", "A", 13, 6, "exchange"),  # photons both, 14 cm
    ("defender", "F", "star-hawk", "A", 12, 2, "exchange"),  # three tiers, d6 torpedoes
    ("sting", "F", "bird-of-prey", "F", 11, 3, "a-first"),
    ("bird-of-prey", "P", "defender", "S", 15, 4, "b-first"),
    ("star-hawk", "F", "star-hawk", "F", 12, 2, "exchange"),  # 0 to 4 shots on each side
]


@pytest.mark.parametrize("spec", AGREE)
@pytest.mark.rule("FPF-FIRE-08", "FPF-FIRE-09", "FPF-FIRE-14", "FPF-DMG-10")
def test_the_fast_solver_agrees_with_the_reference_chain(
    spec: tuple[str, str, str, str, float, int, str],
) -> None:
    d = duel(*spec)
    fast, ref = exact_duel(d), reference_duel(d)
    for end, p in ref.as_dict().items():
        assert getattr(fast, end) == pytest.approx(p, rel=1e-11, abs=1e-14), end
    assert sum(fast.as_dict().values()) == pytest.approx(1.0, abs=1e-12)


def test_a_duel_over_the_limit_is_refused_before_the_work() -> None:
    # Enterprise against Drakonath has far more than a million joint states; the refusal comes
    # from counting the first ship's states up to the limit, not from running the chain
    d = duel("enterprise", "F", "drakonath", "F", 12, 12, "exchange")
    with pytest.raises(InvalidInputError) as err:
        exact_duel(d, max_states=50_000)
    message = str(err.value)
    assert "\n" not in message
    assert "Enterprise vs Drakonath" in message
    assert "50,000 joint states" in message
    assert "sample_duel" in message


def test_short_duels_of_big_ships_fit_in_the_limit() -> None:
    # two turns: the Enterprise takes at most four phaser hits, so few of its states are
    # reachable; over twelve turns the same pair is over a limit of 10,000
    out = exact_duel(duel("enterprise", "F", "bird-of-prey", "F", 12, 2, "exchange"), 10_000)
    assert sum(out.as_dict().values()) == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(InvalidInputError, match="Enterprise vs Bird of Prey over 12 turns"):
        exact_duel(duel("enterprise", "F", "bird-of-prey", "F", 12, 12, "exchange"), 10_000)
