"""Power and shields: allocation within the engines' output (ADV-POW-01), the base charge, bonus
points, redistribution and reinforcement of the six facings (ADV-SHLD-01..07, ADV-SEQ-05)."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import officers_at
from adv_kit import put
from adv_kit import table

from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.combat import deal
from kolrami.rules.advanced.orders import PowerDecision
from kolrami.rules.advanced.orders import PowerOrder
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.advanced.power import absorb
from kolrami.rules.advanced.power import apply_plan
from kolrami.rules.advanced.power import cut_power
from kolrami.rules.advanced.power import plan_cost
from kolrami.rules.advanced.power import redistribute
from kolrami.rules.advanced.power import verify_plan
from kolrami.rules.advanced.power import verify_power
from kolrami.rules.advanced.power import verify_redistribution

REINFORCE = ("adv-shield-reinforcement",)


def _plan(ship: str, move: int, shields: bool, weapons: tuple[int, ...], **kw: object) -> PowerPlan:
    return PowerPlan(ship, move, shields, weapons, **kw)  # type: ignore[arg-type]


@pytest.mark.rule("ADV-SHLD-01")
def test_the_enterprise_example_one_facing_s_power_charges_all_six() -> None:
    b, state = table(["enterprise"], ["ktroika"])
    adv = state.of("A1")
    plan = _plan("A1", 0, True, (0,) * 6)
    assert plan_cost(adv, plan) == 4  # 16 points at 4 a power point
    apply_plan(b, state, adv, plan)
    assert adv.shields_up
    assert adv.base == [16] * 6


@pytest.mark.rule("ADV-POW-01")
def test_a_plan_costs_movement_shields_weapons() -> None:
    _, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")  # move 2 a hex; shields 5; w0/w1 beams up to 6; w2 arms 2, w3 arms 1
    plan = _plan("A1", 4, True, (6, 3, 1, 0))
    assert plan_cost(adv, plan) == 4 * 2 + 5 + 6 + 3 + 2
    verify_plan(state, adv, plan)
    too_much = _plan("A1", 10, True, (6, 6, 1, 1))  # 20 + 5 + 12 + 3 = 40 > 38
    with pytest.raises(IllegalOrderError, match=r"needs 40 power and the engines give 38"):
        verify_plan(state, adv, too_much)


@pytest.mark.rule("ADV-POW-01")
def test_allocation_never_exceeds_damaged_engines() -> None:
    _, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    adv.warp_port -= 10
    with pytest.raises(IllegalOrderError, match="ADV-POW-01"):
        verify_plan(state, adv, _plan("A1", 9, True, (6, 6, 1, 1)))


@pytest.mark.rule("ADV-POW-01")
def test_the_power_down_example() -> None:
    # TPA 30 fully allocated; the engines lose 6: only 24 may stay allocated
    b, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    adv.warp_port, adv.warp_starboard, adv.impulse = 10, 10, 10
    plan = _plan("A1", 5, True, (6, 6, 1, 1))  # 10 + 5 + 12 + 3 = 30
    assert plan_cost(adv, plan) == 30
    apply_plan(b, state, adv, plan)
    adv.impulse -= 6
    cut_power(b, adv)
    assert adv.cost <= adv.available == 24
    assert adv.moves == 2  # 3 unused hexes (6 power) went first
    event = [e for e in b.events() if isinstance(e, ae.PowerCut)][-1]
    assert event.cut == ["3 hexes of movement"]


@pytest.mark.rule("ADV-POW-01")
def test_power_cuts_take_weapons_then_the_shields_last() -> None:
    b, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    apply_plan(b, state, adv, _plan("A1", 0, True, (6, 6, 1, 1)))  # 5 + 12 + 3 = 20
    adv.moved = 0
    adv.warp_port = adv.warp_starboard = 0
    adv.impulse = 4
    cut_power(b, adv)
    assert adv.power == [0, 0, 0, 0]
    assert not adv.shields_up
    assert adv.cost == 0


@pytest.mark.rule("ADV-SHLD-06")
def test_unpaid_shields_are_down_and_power_does_not_renew_them() -> None:
    b, state = table(["enterprise"], ["ktroika"])
    adv = state.of("A1")
    apply_plan(b, state, adv, _plan("A1", 0, False, (0,) * 6))
    assert not adv.shields_up
    assert absorb(adv, 2, 10) == (0, 10)  # down: nothing absorbed
    assert adv.base == [16] * 6  # but the points stay for a turn that pays
    adv.base[1] = 3
    with pytest.raises(IllegalOrderError, match="only the engineer's bonus power"):
        verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, extra=3))
    with pytest.raises(IllegalOrderError, match="points are moved, never made"):
        verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, dist=(16,) * 6))


@pytest.mark.rule("ADV-SHLD-06", "ADV-SHLD-05")
def test_the_enterprise_pays_its_charge_before_any_reinforcement() -> None:
    _b, state = table(["enterprise"], ["ktroika"], rules=REINFORCE)
    adv = state.of("A1")
    with pytest.raises(IllegalOrderError, match="once the base charge is paid"):
        verify_plan(state, adv, _plan("A1", 0, False, (0,) * 6, reinforce=(0, 8, 0, 0, 0, 0)))
    plan = _plan("A1", 0, True, (0,) * 6, reinforce=(0, 8, 0, 0, 0, 0))
    verify_plan(state, adv, plan)
    assert plan_cost(adv, plan) == 4 + 2  # the 4 every turn, then 8 points at 4 a power


@pytest.mark.rule("ADV-SHLD-05")
def test_reinforcement_is_an_option_and_stops_at_200_percent() -> None:
    _, plain = table(["enterprise"], ["ktroika"])
    with pytest.raises(IllegalOrderError, match="adv-shield-reinforcement"):
        verify_plan(
            plain, plain.of("A1"), _plan("A1", 0, True, (0,) * 6, reinforce=(0, 4, 0, 0, 0, 0))
        )
    b, state = table(["enterprise"], ["ktroika"], rules=REINFORCE)
    adv = state.of("A1")
    verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, reinforce=(0, 16, 0, 0, 0, 0)))
    with pytest.raises(IllegalOrderError, match="at most 16 reinforcement"):
        verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, reinforce=(0, 20, 0, 0, 0, 0)))
    apply_plan(b, state, adv, _plan("A1", 0, True, (0,) * 6, reinforce=(0, 16, 0, 0, 0, 0)))
    assert adv.facing(2) == (16, 16)
    with pytest.raises(IllegalOrderError, match="at most 16 reinforcement"):
        verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, reinforce=(0, 4, 0, 0, 0, 0)))


@pytest.mark.rule("ADV-SHLD-07")
def test_the_reinforcement_example_loses_reinforcement_first() -> None:
    b, state = table(["enterprise"], ["ktroika"], rules=REINFORCE)
    adv = state.of("A1")
    apply_plan(b, state, adv, _plan("A1", 0, True, (0,) * 6, reinforce=(0, 16, 0, 0, 0, 0)))
    assert absorb(adv, 2, 20) == (20, 0)
    assert adv.facing(2) == (12, 0)  # reinforcement 16 -> 0, base 16 -> 12


@pytest.mark.rule("ADV-SHLD-07")
def test_a_hit_on_a_facing_goes_through_what_is_left() -> None:
    b, state = table(["reliant"], ["ktroika"])
    put(b, "A1", 50, 40, 0)
    put(b, "B1", 50, 60, 3)  # facing A1 with its bow: A1 strikes facing 2
    target = arm(b, state, "B1")
    b.dice = Loaded([10])
    deal(b, state, state.of("A1"), target, 20, True, None, False, 0)
    assert target.facing(2) == (0, 0)
    assert target.ship.superstructure == 22 - 6
    hit = [e for e in b.events() if isinstance(e, ae.DamageDealt)][-1]
    assert (hit.facing, hit.damage, hit.absorbed, hit.through) == (2, 20, 14, 6)


@pytest.mark.rule("ADV-SHLD-02", "ADV-SHLD-03")
def test_the_enterprise_bonus_example_and_redistribution_at_allocation() -> None:
    b, state = table(["enterprise"], ["ktroika"])
    adv = state.of("A1")
    adv.base = [16, 4, 16, 16, 16, 16]
    adv.shield_bonus = 4  # the science officer's point at 1/4
    adv.bonus_power = 1  # the engineer's point, put into shields below
    plan = _plan("A1", 0, True, (0,) * 6, extra=1)
    verify_plan(state, adv, plan)
    apply_plan(b, state, adv, plan)
    assert sum(adv.base) == 5 * 16 + 4 + 8  # 2 x 4 = 8 bonus points went to the weak facing
    assert adv.base[1] == 12
    # a chosen redistribution moves points, plus the bonus, and no more
    adv.base = [16, 4, 16, 16, 16, 16]
    spread = (12, 12, 12, 12, 12, 12)
    verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, extra=1, dist=spread))


@pytest.mark.rule("ADV-SHLD-04")
def test_only_the_science_officer_takes_a_facing_past_its_maximum() -> None:
    _, state = table(["enterprise"], ["ktroika"])
    adv = state.of("A1")
    adv.bonus_power = 1
    with pytest.raises(IllegalOrderError, match="only the science officer's bonus"):
        verify_plan(
            state, adv, _plan("A1", 0, True, (0,) * 6, extra=1, dist=(20, 16, 16, 16, 16, 16))
        )
    adv.bonus_power = 0
    adv.shield_bonus = 8  # an exceptional Shield Tech roll
    verify_plan(state, adv, _plan("A1", 0, True, (0,) * 6, dist=(24, 16, 16, 16, 16, 16)))


@pytest.mark.rule("ADV-SHLD-04")
def test_science_points_overflow_the_weakest_facing_when_all_are_full() -> None:
    b, state = table(["enterprise"], ["ktroika"])
    adv = state.of("A1")
    adv.shield_bonus = 4
    apply_plan(b, state, adv, _plan("A1", 0, True, (0,) * 6))
    assert adv.base == [17, 17, 17, 17, 16, 16]
    assert adv.overflow() == 4


@pytest.mark.rule("ADV-SEQ-05")
def test_end_of_phase_redistribution_needs_a_shield_tech_check() -> None:
    b, state = table(["reliant"], ["ktroika"])
    adv = arm(b, state, "A1")
    officers_at(adv, 60)
    adv.base = [14, 2, 14, 14, 14, 14]
    new = (10, 10, 10, 10, 12, 10)  # 72 points, as before
    verify_redistribution(adv, new)
    b.dice = Loaded([61, 60])
    assert not redistribute(b, adv, new)
    assert adv.base == [14, 2, 14, 14, 14, 14]
    assert redistribute(b, adv, new)
    assert adv.base == list(new)
    with pytest.raises(IllegalOrderError, match="never made"):
        verify_redistribution(adv, (14, 14, 14, 14, 14, 14))
    adv.shields_up = False
    with pytest.raises(IllegalOrderError, match="shields are down"):
        verify_redistribution(adv, new)


@pytest.mark.rule("ADV-TORP-01", "ADV-DIS-02")
def test_plans_respect_stores_damage_and_minimum_power() -> None:
    _, state = table(["reliant", "drakonath"], ["ktroika"])
    adv = state.of("A1")
    adv.stores = 2
    with pytest.raises(IllegalOrderError, match="ADV-TORP-01"):
        verify_plan(state, adv, _plan("A1", 0, True, (0, 0, 1, 1)))
    adv.weapon_ok[0] = False
    with pytest.raises(IllegalOrderError, match="w0 is damaged"):
        verify_plan(state, adv, _plan("A1", 0, True, (1, 0, 0, 0)))
    heavy = state.of("A2")
    with pytest.raises(IllegalOrderError, match="arms with 4 power or more"):
        verify_plan(state, heavy, _plan("A2", 0, True, (3, 3, 0, 0)))
    with pytest.raises(IllegalOrderError, match="takes at most 6"):
        verify_plan(state, heavy, _plan("A2", 0, True, (7, 7, 0, 0)))
    with pytest.raises(IllegalOrderError, match="launcher"):
        verify_plan(state, heavy, _plan("A2", 0, True, (4, 4, 2, 0)))
    with pytest.raises(IllegalOrderError, match="W lists power for each of the 4"):
        verify_plan(state, heavy, _plan("A2", 0, True, (4, 4)))


def test_power_orders_name_each_ship_once() -> None:
    _, state = table(["reliant"], ["ktroika"])
    decision = PowerDecision("A", ("A1",))
    idle = _plan("A1", 0, False, (0, 0, 0, 0))
    with pytest.raises(IllegalOrderError, match="two power plans"):
        verify_power(state, decision, PowerOrder((idle, idle)))
    with pytest.raises(IllegalOrderError, match="cannot allocate power now"):
        verify_power(state, decision, PowerOrder((_plan("B1", 0, False, (0, 0, 0, 0)),)))
