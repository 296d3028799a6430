"""Percentile checks, officer ratings and the casualty penalty (ADV-CHK, ADV-OFF-01/02/04,
ADV-CAS-01/03, ADV-CLOAK-05)."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import table

from kolrami.engine.chance import Dice
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import OFFICER_BASE
from kolrami.rules.advanced.checks import REPLACEMENT_BASE
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.checks import assign_by_strength
from kolrami.rules.advanced.checks import casualty_penalty
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.checks import judge
from kolrami.rules.advanced.checks import rating
from kolrami.rules.advanced.checks import roll_rating
from kolrami.rules.advanced.officers import shake
from kolrami.rules.advanced.state import ROLES
from kolrami.rules.advanced.state import SKILLS


@pytest.mark.rule("ADV-CHK-01")
@pytest.mark.parametrize(
    ("roll", "rating_", "modifier", "outcome"),
    [
        (60, 60, 0, Outcome.SUCCESS),  # at the rating succeeds
        (61, 60, 0, Outcome.FAILURE),
        (1, 60, 0, Outcome.EXCEPTIONAL),
        (5, 60, 0, Outcome.EXCEPTIONAL),  # 05 or less
        (6, 60, 0, Outcome.SUCCESS),
        (3, 60, 3, Outcome.SUCCESS),  # the result 06 is no longer exceptional
        (100, 99, 0, Outcome.FAILURE),  # 00 always fails
        (100, 99, -50, Outcome.FAILURE),
    ],
)
def test_a_check_rolls_at_or_under(
    roll: int, rating_: int, modifier: int, outcome: Outcome
) -> None:
    assert judge(roll, rating_, modifier) is outcome


@pytest.mark.rule("ADV-CHK-01")
def test_00_is_a_critical_failure_where_a_rule_says_so() -> None:
    assert judge(100, 75, critical=True) is Outcome.CRITICAL
    assert judge(99, 75, critical=True) is Outcome.FAILURE
    assert Outcome.EXCEPTIONAL.amount == 2
    assert Outcome.SUCCESS.amount == 1
    assert Outcome.FAILURE.amount == Outcome.CRITICAL.amount == 0


@pytest.mark.rule("ADV-CHK-01")
def test_check_uses_one_d100() -> None:
    result = check(Loaded([42]), 50, 10)
    assert (result.roll, result.result, result.outcome) == (42, 52, Outcome.FAILURE)
    with pytest.raises(ValueError, match="1-100"):
        judge(0, 50)


@pytest.mark.rule("ADV-OFF-01")
def test_the_rating_example() -> None:
    assert rating((3, 9, 5)) == 62  # rolls 3, 9 and 5 give 62


@pytest.mark.rule("ADV-OFF-01", "ADV-OFF-04")
def test_ratings_span_their_ranges() -> None:
    dice = Dice(7)
    normal = {roll_rating(dice) for _ in range(3000)}
    spare = {roll_rating(dice, REPLACEMENT_BASE) for _ in range(3000)}
    assert min(normal) >= 48
    assert max(normal) <= 75
    assert min(spare) >= 43
    assert max(spare) <= 70
    assert (rating((1, 1, 1)), rating((10, 10, 10))) == (48, 75)
    assert (rating((1, 1, 1), REPLACEMENT_BASE), rating((10, 10, 10), REPLACEMENT_BASE)) == (43, 70)
    assert OFFICER_BASE - REPLACEMENT_BASE == 5


@pytest.mark.rule("ADV-OFF-02")
def test_bulk_ratings_go_best_to_strongest() -> None:
    # ships of value 45, 180, 90 (in fleet order); ratings rolled 50, 70, 60
    assert assign_by_strength([50, 70, 60], [(45, 0), (180, 1), (90, 2)]) == [50, 70, 60]
    assert assign_by_strength([70, 50, 60], [(45, 0), (180, 1), (90, 2)]) == [50, 70, 60]
    # equal strength keeps fleet order: the earlier ship gets the better rating
    assert assign_by_strength([51, 52], [(90, 0), (90, 1)]) == [52, 51]


@pytest.mark.rule("ADV-OFF-01", "ADV-OFF-02")
def test_every_ship_gets_six_officers_rated_by_ship_strength() -> None:
    b, state = table(["defender", "enterprise", "charger"], ["ktroika"], seed=11)
    events = [e for e in b.events() if isinstance(e, ae.OfficersAssigned)]
    assert [e.ship for e in events] == ["A1", "A2", "A3", "B1"]
    for adv in state.ships.values():
        assert tuple(adv.officers) == ROLES
        for role, skills in SKILLS.items():
            for skill in skills:
                assert 48 <= adv.officers[role].ratings[skill] <= 75
    a = [state.of(s) for s in ("A1", "A2", "A3")]  # values 45, 180, 70
    for role, skills in SKILLS.items():
        for skill in skills:
            ranks = [x.officers[role].ratings[skill] for x in a]
            assert ranks[1] >= ranks[2] >= ranks[0], (role, skill, ranks)


@pytest.mark.rule("ADV-OFF-04")
def test_the_third_shaking_kills_and_a_replacement_is_rolled() -> None:
    b, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    b.dice = Loaded([1, 1, 1, 10, 10, 10])  # the replacement's two helm ratings
    assert shake(b, adv, "helm") == "helm shaken"
    assert adv.officers["helm"].out == 2
    shake(b, adv, "helm")
    assert shake(b, adv, "helm") == "helm killed, replaced"
    new = adv.officers["helm"]
    assert new.replacement
    assert new.on_duty
    assert new.shaken == 0
    assert new.ratings == {"weapons": 43, "helm_ops": 70}
    last = [e for e in b.events() if isinstance(e, ae.OfficerShaken)][-1]
    assert last.times == 3
    assert last.replacement == {"weapons": 43, "helm_ops": 70}


@pytest.mark.rule("ADV-OFF-04")
def test_a_shaken_officer_checks_at_half_his_rating() -> None:
    _b, state = table(["reliant"], ["ktroika"])
    officer = state.of("A1").officers["science"]
    full = officer.ratings["sensors"]
    officer.out = 1
    assert officer.rating("sensors") == full // 2


@pytest.mark.rule("ADV-CAS-01")
@pytest.mark.parametrize(("taken", "dead"), [(40, 6), (30, 4), (6, 0), (7, 1)])
def test_fatalities_are_15_percent_rounded_down(taken: int, dead: int) -> None:
    _, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    adv.taken = taken
    assert adv.fatalities == dead


@pytest.mark.rule("ADV-CAS-03")
def test_the_casualty_penalty_example() -> None:
    assert casualty_penalty(25, 100) == 2  # 25%: +2 on each check
    assert casualty_penalty(9, 100) == 0
    assert casualty_penalty(10, 100) == 1
    # Warp Tech 60, rolled 59: with +2 the result is 61 and fails
    assert judge(59, 60, casualty_penalty(25, 100)) is Outcome.FAILURE
    assert judge(59, 60) is Outcome.SUCCESS


@pytest.mark.rule("ADV-CLOAK-05")
def test_cloak_tech_ratings_by_species() -> None:
    # rolls 4, 7 and 2: Romulan Cloak Tech 68, Klingon 53 (data for the cloaking rules)
    assert rating((4, 7, 2), 55) == 68
    assert rating((4, 7, 2), 40) == 53
    _, state = table(["reliant"], ["ktroika", "sting"], seed=3)
    for ship in ("B1", "B2"):
        assert 43 <= state.of(ship).officers["engineer"].ratings["cloak_tech"] <= 70
    assert "cloak_tech" not in state.of("A1").officers["engineer"].ratings
