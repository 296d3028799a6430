"""Exact volley odds: worked examples, invariants, and agreement with rolled dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kolrami.catalog import Arc
from kolrami.catalog import Location
from kolrami.catalog import WeaponKind
from kolrami.catalog import builtin_pack
from kolrami.catalog.models import STANDARD_HIT_LOCATIONS
from kolrami.engine.chance import Dice
from kolrami.errors import InvalidInputError
from kolrami.rules.fpf.damage import hit_location
from kolrami.rules.fpf.damage import penetrates
from kolrami.sim.odds import Model
from kolrami.sim.odds import WeaponGroup
from kolrami.sim.odds import ship_volley
from kolrami.sim.odds import volley_odds

PHASER, PHOTON = WeaponKind.PHASER, WeaponKind.PHOTON


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-02")
@pytest.mark.parametrize(
    ("strength", "shields", "p"),
    [(5, 12, Fraction(4, 10)), (5, 20, Fraction(1, 10)), (10, 10, Fraction(9, 10))],
)
def test_single_shot_worked_examples(strength: int, shields: int, p: Fraction) -> None:
    odds = volley_odds([WeaponGroup(PHASER, strength, 1)], shields)
    assert odds.groups[0].per_shot_penetration == p
    assert odds.p_any_penetration == p
    assert odds.damage == {0: 1 - p, 1: p}


@pytest.mark.rule("FPF-DMG-03", "FPF-DMG-04")
def test_phaser_volley_is_binomial() -> None:
    odds = volley_odds([WeaponGroup(PHASER, 5, 6)], 12)
    p = Fraction(4, 10)
    assert odds.damage == {k: comb(6, k) * p**k * (1 - p) ** (6 - k) for k in range(7)}
    assert odds.expected_damage == 6 * p
    assert odds.p_any_penetration == 1 - (1 - p) ** 6


@pytest.mark.rule("FPF-DMG-05")
def test_photon_damage_is_d6_per_penetration() -> None:
    odds = volley_odds([WeaponGroup(PHOTON, 7, 2)], 14)  # needs 7+: 4 faces of 10
    p = Fraction(4, 10)
    assert odds.damage[0] == (1 - p) ** 2
    assert odds.damage[12] == (p / 6) ** 2
    assert odds.expected_damage == 2 * p * Fraction(7, 2)


@pytest.mark.rule("FPF-DMG-06")
def test_location_is_the_chance_of_being_struck_at_least_once() -> None:
    odds = volley_odds([WeaponGroup(PHASER, 5, 3)], 12)
    p = Fraction(4, 10)
    for loc, faces in ((Location.SHIELDS, 4), (Location.ENGINE_POWER, 3), (Location.COMPUTER, 1)):
        assert odds.location[loc] == 1 - (1 - p * Fraction(faces, 10)) ** 3


@pytest.mark.rule("FPF-FIRE-09", "FPF-DMG-10")
def test_worked_example_lowered_shields_help_the_next_group() -> None:
    # Shields 14 lowered to 12 by earlier hits: strength-4 phasers need 8+ (3 faces) not 10+ (1).
    assert volley_odds([WeaponGroup(PHASER, 4, 1)], 14).damage[1] == Fraction(1, 10)
    assert volley_odds([WeaponGroup(PHASER, 4, 1)], 12).damage[1] == Fraction(3, 10)
    # In one volley: a single strength-4 beam, then a second group of one beam.
    odds = volley_odds([WeaponGroup(PHASER, 4, 1), WeaponGroup(PHASER, 4, 1)], 14)
    eroded = Fraction(1, 10) * Fraction(4, 10)  # penetrates and strikes locations 1-4
    assert odds.groups[1].shields_faced == {14: 1 - eroded, 13: eroded}
    assert odds.groups[1].per_shot_penetration == (1 - eroded) * Fraction(
        1, 10
    ) + eroded * Fraction(2, 10)


@pytest.mark.rule("FPF-FIRE-09", "FPF-DMG-10")
def test_independent_model_ignores_erosion() -> None:
    groups = [WeaponGroup(PHASER, 4, 6), WeaponGroup(PHOTON, 7, 3)]
    seq = volley_odds(groups, 14, model=Model.SEQUENTIAL)
    ind = volley_odds(groups, 14, model=Model.INDEPENDENT)
    assert ind.groups[1].per_shot_penetration == Fraction(4, 10)
    assert seq.groups[1].per_shot_penetration > Fraction(4, 10)
    assert seq.expected_damage > ind.expected_damage
    assert seq.p_any_penetration == ind.p_any_penetration


@pytest.mark.rule("FPF-DMG-10")
def test_shields_never_drop_below_zero() -> None:
    odds = volley_odds([WeaponGroup(PHOTON, 1, 4), WeaponGroup(PHASER, 0, 1)], 2)
    assert min(odds.groups[1].shields_faced) == 0


@pytest.mark.rule("FPF-FIRE-08", "FPF-ARC-04")
def test_ship_volley_fires_what_bears_phasers_first() -> None:
    pack = builtin_pack()
    charger, target = pack.get("Charger"), pack.get("Reliant")
    port = ship_volley(charger, Arc.P, target)
    assert [(g.kind, g.shots, g.strength) for g in port] == [(PHASER, 6, 4), (PHOTON, 2, 6)]
    rear = ship_volley(charger, Arc.A, target)
    assert [g.kind for g in rear] == [PHASER]
    with pytest.raises(InvalidInputError, match="no weapon bearing on its starboard arc"):
        ship_volley(charger, Arc.S, target)


@pytest.mark.rule("FPF-FIRE-15")
def test_range_silences_short_weapons() -> None:
    pack = builtin_pack()
    reliant, target = pack.get("Reliant"), pack.get("K'T'Roika")
    assert [g.kind for g in ship_volley(reliant, Arc.F, target, 20)] == [PHASER]
    assert len(ship_volley(reliant, Arc.F, target, 16)) == 2
    with pytest.raises(InvalidInputError, match="no weapon of Reliant reaches"):
        ship_volley(reliant, Arc.F, target, 30)


@pytest.mark.parametrize(("strength", "shots", "shields"), [(-1, 1, 10), (3, 0, 10), (3, 1, -2)])
def test_impossible_numbers_are_refused(strength: int, shots: int, shields: int) -> None:
    with pytest.raises(InvalidInputError):
        volley_odds([WeaponGroup(PHASER, strength, shots)], shields)


groups_strategy = st.lists(
    st.builds(
        WeaponGroup,
        kind=st.sampled_from(list(WeaponKind)),
        strength=st.integers(0, 12),
        shots=st.integers(1, 5),
    ),
    min_size=1,
    max_size=3,
)


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-10")
@settings(max_examples=60, deadline=None)
@given(groups_strategy, st.integers(0, 20), st.sampled_from(list(Model)))
def test_distributions_are_exact_and_consistent(
    groups: list[WeaponGroup], shields: int, model: Model
) -> None:
    odds = volley_odds(groups, shields, model=model)
    assert sum(odds.damage.values()) == 1
    assert all(p >= 0 for p in odds.damage.values())
    # every penetration deals at least 1 damage, so 'nothing through' is 'no damage'
    assert odds.p_any_penetration == 1 - odds.damage.get(0, Fraction(0))
    assert odds.expected_damage == sum(g.expected_damage for g in odds.groups)
    for g in odds.groups:
        assert sum(g.damage.values()) == 1
        assert sum(g.shields_faced.values()) == 1
    assert all(0 <= p <= 1 for p in odds.location.values())


def roll_volley(dice: Dice, groups: list[WeaponGroup], shields: int) -> tuple[int, set[Location]]:
    """The rules played with dice: each group rolls together, then its damage lands at once."""
    total, struck = 0, set()
    for g in groups:
        shield_damage = 0
        for _ in range(g.shots):
            if penetrates(dice.d10(), shields, g.strength):
                loc = hit_location(dice.d10(), STANDARD_HIT_LOCATIONS)
                dmg = dice.d6() if g.kind is PHOTON else 1
                total += dmg
                struck.add(loc)
                if loc is Location.SHIELDS:
                    shield_damage += dmg
        shields = max(0, shields - shield_damage)
    return total, struck


@pytest.mark.slow
@pytest.mark.rule("FPF-FIRE-08", "FPF-FIRE-09", "FPF-DMG-05", "FPF-DMG-10")
@pytest.mark.parametrize(("firer", "target"), [("Reliant", "K'T'Roika"), ("Enterprise", "Sting")])
def test_exact_odds_agree_with_rolled_dice(firer: str, target: str, sample: int) -> None:
    pack = builtin_pack()
    ship_a, ship_b = pack.get(firer), pack.get(target)
    groups = ship_volley(ship_a, Arc.F, ship_b)
    exact = volley_odds(groups, ship_b.shields)
    n = 20_000 * sample
    dice = Dice(2026)
    damage: Counter[int] = Counter()
    struck: Counter[Location] = Counter()
    for _ in range(n):
        total, locs = roll_volley(dice, groups, ship_b.shields)
        damage[total] += 1
        struck.update(locs)
    # total variation distance between the exact and the rolled distribution
    tvd = sum(abs(float(exact.damage.get(d, 0)) - damage[d] / n) for d in
              set(exact.damage) | set(damage)) / 2  # fmt: skip
    assert tvd < 0.03
    mean = sum(d * c for d, c in damage.items()) / n
    mu = float(exact.expected_damage)
    sd = sum(float(p) * (d - mu) ** 2 for d, p in exact.damage.items()) ** 0.5
    assert abs(mean - mu) < 4 * sd / n**0.5  # seeded, so this never flakes
    for loc in Location:
        assert abs(struck[loc] / n - float(exact.location[loc])) < 0.015
