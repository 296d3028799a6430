"""Officers at work: bonus rolls (ADV-OFF-03..11), casualties (ADV-CAS-02..04), Tactical
Advantage (ADV-SEQ-04) and sensor locks (ADV-SENS-01, -03, -04)."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import officers_at
from adv_kit import table

from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.battle import Battle
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.combat import deal
from kolrami.rules.advanced.officers import bonus_options
from kolrami.rules.advanced.officers import casualties_from
from kolrami.rules.advanced.officers import recover
from kolrami.rules.advanced.officers import roll_tactical_advantage
from kolrami.rules.advanced.officers import take_bonus
from kolrami.rules.advanced.officers import take_casualties
from kolrami.rules.advanced.officers import try_lock
from kolrami.rules.advanced.officers import verify_bonus
from kolrami.rules.advanced.officers import verify_locks
from kolrami.rules.advanced.orders import BonusDecision
from kolrami.rules.advanced.orders import BonusOrder
from kolrami.rules.advanced.orders import LockDecision
from kolrami.rules.advanced.orders import LockOrder
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from scene_kit import place_all


def _bonus(ship: str, role: str, choice: str) -> BonusOrder:
    return BonusOrder(((ship, role, choice),))


def able_reliant() -> tuple[Battle, AdvancedState, AdvShip]:
    """A Reliant (A1) against a K'T'Roika, every officer of A1 rated 60 in every skill."""
    b, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    officers_at(adv, 60)
    return b, state, adv


@pytest.mark.rule("ADV-OFF-03")
def test_one_bonus_roll_per_officer_and_none_for_the_captain() -> None:
    _, state = table(["reliant"], ["ktroika"])
    decision = BonusDecision("A", ("A1",))
    verify_bonus(state, decision, _bonus("A1", "science", "shields"))
    with pytest.raises(IllegalOrderError, match="Captain has no bonus roll"):
        verify_bonus(state, decision, _bonus("A1", "captain", "shields"))
    twice = BonusOrder((("A1", "helm", "aim"), ("A1", "helm", "targets")))
    with pytest.raises(IllegalOrderError, match="one bonus roll a turn"):
        verify_bonus(state, decision, twice)
    with pytest.raises(IllegalOrderError, match="one of aim, targets"):
        verify_bonus(state, decision, _bonus("A1", "helm", "power"))
    with pytest.raises(IllegalOrderError, match="makes no bonus rolls now"):
        verify_bonus(state, decision, _bonus("B1", "helm", "aim"))
    assert set(bonus_options(state, state.of("A1"))) == {"science", "helm", "engineer", "medical"}


@pytest.mark.rule("ADV-OFF-03", "ADV-OFF-04")
def test_a_shaken_officer_makes_no_bonus_roll() -> None:
    _, state = table(["reliant"], ["ktroika"])
    state.of("A1").officers["medical"].out = 1
    assert "medical" not in bonus_options(state, state.of("A1"))
    with pytest.raises(IllegalOrderError, match="shaken"):
        verify_bonus(state, BonusDecision("A", ("A1",)), _bonus("A1", "medical", "revive"))


@pytest.mark.rule("ADV-OFF-05", "ADV-SHLD-03", "ADV-SHLD-04")
def test_science_bonus_shields_hull_sensors() -> None:
    b, state = table(["enterprise"], ["ktroika"])
    adv = state.of("A1")
    officers_at(adv, 60)
    b.dice = Loaded([30, 4, 30, 30])
    take_bonus(b, state, adv, "science", "shields")
    assert adv.shield_bonus == 4  # one bonus power point at the 1/4 ratio
    take_bonus(b, state, adv, "science", "shields")  # 04: exceptional, two points
    assert adv.shield_bonus == 4 + 8
    adv.ship.superstructure = 30
    take_bonus(b, state, adv, "science", "hull")
    assert adv.ship.superstructure == 31
    adv.sensor_damage = 3
    take_bonus(b, state, adv, "science", "sensors")
    assert adv.sensor_damage == 2
    rolled = [e for e in b.events() if isinstance(e, ae.BonusRolled)]
    assert [e.outcome for e in rolled] == ["success", "exceptional", "success", "success"]


@pytest.mark.rule("ADV-OFF-05", "ADV-OFF-08")
def test_hull_repairs_never_pass_the_sheet() -> None:
    b, state, adv = able_reliant()
    b.dice = Loaded([2])
    adv.ship.superstructure = 21  # of 22
    take_bonus(b, state, adv, "engineer", "hull")  # exceptional: 2, but only 1 is missing
    assert adv.ship.superstructure == 22


@pytest.mark.rule("ADV-OFF-06")
def test_helm_bonus_aim_and_targets() -> None:
    b, state, adv = able_reliant()
    b.dice = Loaded([50, 3, 70])
    take_bonus(b, state, adv, "helm", "aim")
    assert adv.aim_bonus == 1
    take_bonus(b, state, adv, "helm", "targets")
    assert adv.extra_targets == 2  # a fourth target in one phase, or a third in two
    take_bonus(b, state, adv, "helm", "aim")  # failed: no change
    assert adv.aim_bonus == 1


@pytest.mark.rule("ADV-OFF-08")
def test_engineer_power_only_with_undamaged_engines() -> None:
    b, state, adv = able_reliant()
    assert "power" in bonus_options(state, adv)["engineer"]
    b.dice = Loaded([20])
    take_bonus(b, state, adv, "engineer", "power")
    assert adv.bonus_power == 1
    assert adv.available == adv.sheet.total_power + 1
    adv.impulse -= 1
    assert "power" not in bonus_options(state, adv)["engineer"]
    with pytest.raises(IllegalOrderError, match="undamaged engines"):
        verify_bonus(state, BonusDecision("A", ("A1",)), _bonus("A1", "engineer", "power"))


@pytest.mark.rule("ADV-OFF-08")
def test_engineer_repairs_engines_weapons_shields_sensors() -> None:
    b, state, adv = able_reliant()
    adv.impulse = 0
    adv.warp_port -= 3
    adv.weapon_ok[1] = adv.weapon_ok[2] = False
    adv.generator_ok[4] = False
    adv.base[4] = 0
    adv.base[1] = 5
    adv.sensor_damage = 2
    b.dice = Loaded([3, 30, 30, 3, 30])
    take_bonus(b, state, adv, "engineer", "engines")  # exceptional: 2 points, impulse first
    assert adv.impulse == 2
    take_bonus(b, state, adv, "engineer", "weapons")
    assert adv.weapon_ok == [True, True, False, True]
    take_bonus(b, state, adv, "engineer", "shields")  # the damaged generator first
    assert adv.generator_ok[4]
    assert adv.base[4] == 14
    take_bonus(b, state, adv, "engineer", "shields")  # exceptional: then the weakest facing
    assert adv.base[1] == 14
    take_bonus(b, state, adv, "engineer", "sensors")
    assert adv.sensor_damage == 1


@pytest.mark.rule("ADV-OFF-11", "ADV-CAS-02")
def test_casualty_recovery_example() -> None:
    b, state, adv = able_reliant()
    adv.sheet = adv.sheet.model_copy(update={"crew": 100})
    adv.casualties, adv.taken = 20, 20  # 20% (fatalities 3%)
    b.dice = Loaded([40])
    take_bonus(b, state, adv, "medical", "casualties")
    recover(b, adv)
    assert adv.casualties == 17  # a Medical success: 3 back instead of 1
    adv.recovery = 5
    for _ in range(10):
        recover(b, adv)
    assert adv.casualties == adv.fatalities == 3  # never below the fatalities


@pytest.mark.rule("ADV-CAS-02")
def test_without_a_medical_bonus_one_percent_recovers() -> None:
    b, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    adv.sheet = adv.sheet.model_copy(update={"crew": 200})
    adv.casualties, adv.taken = 30, 30
    recover(b, adv)
    assert adv.casualties == 28


@pytest.mark.rule("ADV-OFF-11")
def test_medical_revive_brings_a_shaken_officer_back_sooner() -> None:
    b, state, adv = able_reliant()
    adv.officers["helm"].out = 2
    b.dice = Loaded([50])
    take_bonus(b, state, adv, "medical", "revive")
    assert adv.officers["helm"].out == 1


@pytest.mark.rule("ADV-CAS-04")
def test_gorn_and_borg_take_half_the_casualties() -> None:
    _, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    human = casualties_from(adv, 5, crew_hit=False)
    assert human == 5 * (adv.sheet.crew // (2 * 22))
    adv.species = advanced_pack().species["gorn"]
    assert casualties_from(adv, 5, crew_hit=False) == human // 2
    adv.species = advanced_pack().species["borg"]
    assert casualties_from(adv, 5, crew_hit=True) == human
    assert casualties_from(adv, 1, crew_hit=False) == (adv.sheet.crew // 44) // 2


@pytest.mark.rule("ADV-CAS-01", "ADV-CAS-03")
def test_hits_through_the_shields_cost_crew_and_crew_costs_checks() -> None:
    b, state = table(["reliant"], ["ktroika"])
    adv = state.of("B1")
    place_all(b, "A1 50,40 h0; B1 50,60 h3")
    arm(b, state, "B1", shields=False)
    b.dice = Loaded([10])  # hull
    deal(b, state, state.of("A1"), adv, 20, True, None, False, 0)
    assert adv.casualties == 20 * (264 // 44)
    assert adv.fatalities == adv.taken * 15 // 100
    assert adv.penalty == adv.casualties * 10 // adv.sheet.crew
    taken = [e for e in b.events() if isinstance(e, ae.CasualtiesTaken)][-1]
    assert (taken.amount, taken.casualties, taken.fatalities) == (120, 120, 18)
    take_casualties(b, adv, 10_000)
    assert adv.casualties == adv.sheet.crew


@pytest.mark.rule("ADV-SEQ-04")
def test_tactical_advantage_goes_to_the_larger_margin_and_ties_reroll() -> None:
    b, state = table(["reliant"], ["ktroika"])
    officers_at(state.of("A1"), 60)
    officers_at(state.of("B1"), 70)
    b.dice = Loaded([50, 60, 30, 20])  # margins 10 : 10 tie; then 30 : 50
    roll_tactical_advantage(b, state)
    assert state.tac == "B"
    event = [e for e in b.events() if isinstance(e, ae.TacticalAdvantage)][-1]
    assert event.rolls == [{"A": 50, "B": 60}, {"A": 30, "B": 20}]
    assert event.ratings == {"A": 60, "B": 70}


@pytest.mark.rule("ADV-SENS-01", "ADV-SENS-04")
def test_locks_roll_sensors_and_stand_until_changed() -> None:
    b, state = table(["reliant"], ["ktroika", "sting"])
    adv = state.of("A1")
    officers_at(adv, 60)
    decision = LockDecision("A", ("A1",))
    verify_locks(state, decision, LockOrder((("A1", "B1"),)))
    with pytest.raises(IllegalOrderError, match="not an enemy"):
        verify_locks(state, decision, LockOrder((("A1", "A1"),)))
    b.dice = Loaded([61, 20])
    try_lock(b, state, adv, "B1")
    assert adv.lock is None  # 61 > 60
    try_lock(b, state, adv, "B1")
    assert adv.lock == "B1"
    try_lock(b, state, adv, "B1")  # kept, no roll (the dice are empty)
    assert adv.lock == "B1"
    b.dice = Loaded([90])
    try_lock(b, state, adv, "B2")  # another target: the old lock goes, the new one fails
    assert adv.lock is None
    lost = [e for e in b.events() if isinstance(e, ae.LockLost)]
    assert [(e.target, e.reason) for e in lost] == [("B1", "another target chosen")]


@pytest.mark.rule("ADV-SENS-04")
def test_a_sensor_hit_breaks_the_lock_and_blinds() -> None:
    b, state = table(["reliant"], ["ktroika"])
    place_all(b, "A1 50,40 h0; B1 50,60 h3")
    target = arm(b, state, "B1", shields=False)
    target.lock = "A1"
    b.dice = Loaded([1])  # the sensors row
    deal(b, state, state.of("A1"), target, 7, True, None, False, 0)
    assert target.lock is None
    assert target.sensor_damage == 2
    decision_ships = [a.id for a in state.side("B") if a.sensors_ok]
    assert decision_ships == []


@pytest.mark.rule("ADV-SENS-03")
def test_an_enemy_is_an_open_book_only_under_lock() -> None:
    b, state = table(["reliant"], ["ktroika"])
    view = BattleView(b, "A").advanced()
    assert view.known("B1") is None
    with pytest.raises(KeyError):
        view.ship("B1")
    assert view.sheet("B1").shield_points == 14  # the printed sheet is public
    state.of("B1").base[1] = 3
    assert view.facing_points("B1", 2) == 14  # what A believes without a lock
    state.of("A1").lock = "B1"
    assert view.ship("B1") is state.of("B1")
    assert view.facing_points("B1", 2) == 3
    assert view.contact("B1").known is state.of("B1")
    state.of("A1").sensor_damage = 1  # blind sensors hold no lock
    assert view.known("B1") is None
