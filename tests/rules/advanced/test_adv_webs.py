"""Tholian webs (module adv-webs): ADV-WEB-01, ADV-WEB-02, ADV-WEB-03, ADV-WEB-04, ADV-WEB-05,
ADV-WEB-06, ADV-WEB-07."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import events_of
from adv_kit import officers_at
from adv_kit import put
from adv_kit import table

from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced.field_events import CounterTractor
from kolrami.rules.advanced.field_events import WebSqueezed
from kolrami.rules.advanced.field_events import webs_of
from kolrami.rules.advanced.field_orders import WebDecision
from kolrami.rules.advanced.field_orders import WebOrder
from kolrami.rules.advanced.state import allowance
from kolrami.rules.advanced.webs import TholianWebs
from kolrami.rules.advanced.webs import carry_out
from kolrami.rules.advanced.webs import constriction_loss
from kolrami.rules.advanced.webs import may_constrict
from kolrami.rules.advanced.webs import tow_cap
from kolrami.rules.advanced.webs import tow_top
from kolrami.rules.advanced.webs import verify_web
from kolrami.rules.advanced.webs import weave_phases
from kolrami.rules.advanced.webs import web_on
from kolrami.rules.advanced.webs import web_options
from kolrami.rules.advanced.webs import web_phases
from kolrami.rules.advanced.webs import web_power
from kolrami.rules.registry import parse_order
from scene_kit import place_all

WEBS = ("adv-webs",)


def _order(state, side: str, *actions: tuple[str, str, str]) -> WebOrder:  # type: ignore[no-untyped-def]
    decision = WebDecision(side, state.phase, tuple(web_options(state, side)))
    order = WebOrder(tuple(actions))
    verify_web(decision, order)
    return order


def _end(b, state) -> None:  # type: ignore[no-untyped-def]
    """End the phase (webs age, web work is done), then the next begins."""
    TholianWebs().adv_phase_end(b, state, state.phase)
    state.phase += 1


def test_web_orders_read_back() -> None:
    for text in ("WEB A1:T>B2 A2:P>B2 A3:K>B1 A4:W>B1 B2:F>B1", "WEB NONE"):
        assert str(parse_order(text)) == text


@pytest.mark.rule("ADV-WEB-01")
def test_a_temporary_web_holds_an_adjacent_ship_for_the_control_panels_phases() -> None:
    b, state = table(["spindle"], ["reliant"], rules=WEBS)
    place_all(b, "A1 50,50 h0; B1 54,50 h3")
    b1 = state.of("B1")
    b1.moves = 10
    b1.power = [1] * len(b1.sheet.weapons)
    assert ("A1", "T", "B1") in web_options(state, "A")
    carry_out(b, state, _order(state, "A", ("A1", "T", "B1")))
    assert b1.held
    assert allowance(b1, 2) == 0
    assert not combat.can_fire(b1)
    assert state.of("A1").busy  # it used the phase's fire on the web
    assert web_phases(state.of("A1")) == 3
    module = TholianWebs()
    for phase in (1, 2):
        module.adv_phase_end(b, state, phase)
        assert b1.held
    module.adv_phase_end(b, state, 3)
    assert not b1.held
    assert allowance(b1, 4) == 2


@pytest.mark.rule("ADV-WEB-01")
def test_a_web_needs_a_tholian_next_to_its_target() -> None:
    b, state = table(["spindle", "reliant"], ["reliant"], rules=WEBS)
    place_all(b, "A1 50,50 h0; A2 50,54 h0")
    put(b, "B1", 62, 50, 3)  # 3 hexes off
    assert not any(a == "T" for _, a, _ in web_options(state, "A"))
    put(b, "B1", 54, 50, 3)
    assert [s for s, a, _ in web_options(state, "A") if a == "T"] == ["A1"]  # not the Reliant
    with pytest.raises(IllegalOrderError, match="ADV-WEB"):
        _order(state, "A", ("A2", "T", "B1"))


@pytest.mark.rule("ADV-WEB-02")
def test_the_tholian_fires_again_from_the_next_phase_and_may_tow_instead() -> None:
    b, state = table(["lattice"], ["spindle"], rules=WEBS)
    place_all(b, "A1 50,50 h0; B1 54,50 h3")
    a1 = state.of("A1")
    a1.power = [1] * len(a1.sheet.weapons)
    carry_out(b, state, _order(state, "A", ("A1", "T", "B1")))
    assert not combat.can_fire(a1)
    TholianWebs().adv_phase_end(b, state, 1)
    assert combat.can_fire(a1)  # it fires through its own web
    state.phase = 2
    carry_out(b, state, _order(state, "A", ("A1", "W", "B1")))
    assert a1.tow_cap == 1
    assert not combat.can_fire(a1)
    put(b, "A1", 70, 50, 0)
    TholianWebs()._follow(b, state)
    b1 = b.ships["B1"]
    assert (b1.x, b1.y) == (70.0, 46.0)  # a hex behind its tower (heading 0 is +y)


@pytest.mark.rule("ADV-WEB-02")
def test_a_lone_tholian_reaches_warp_only_with_a_captive_of_half_its_mass() -> None:
    assert tow_top(100, 51) == 1
    assert tow_top(100, 50) == 3
    assert tow_cap(5, 100, 51) == 1


@pytest.mark.rule("ADV-WEB-03")
def test_permanent_webs_take_three_two_or_one_phases_by_the_number_of_tholians() -> None:
    assert [weave_phases(n) for n in (1, 2, 3, 4, 5)] == [0, 3, 2, 1, 1]
    b, state = table(["spindle", "spindle"], ["reliant"], rules=WEBS)
    place_all(b, "A1 50,50 h0; A2 50,58 h0; B1 58,54 h3")
    module = TholianWebs()
    for phase in (1, 2, 3):
        state.phase = phase
        assert not state.of("B1").held
        carry_out(b, state, _order(state, "A", ("A1", "P", "B1"), ("A2", "P", "B1")))
        module.adv_phase_end(b, state, phase)
    web = web_on(state, "B1")
    assert web is not None
    assert web.permanent
    assert state.of("B1").held


@pytest.mark.rule("ADV-WEB-03")
def test_the_target_flies_out_of_a_web_being_woven() -> None:
    b, state = table(["spindle", "spindle"], ["reliant"], rules=WEBS)
    place_all(b, "A1 50,50 h0; A2 50,58 h0; B1 58,54 h3")
    carry_out(b, state, _order(state, "A", ("A1", "P", "B1"), ("A2", "P", "B1")))
    assert webs_of(state).weaving["B1"].work == 2
    put(b, "B1", 64, 54, 3)  # 1.5 hexes from where weaving began
    TholianWebs()._follow(b, state)
    assert "B1" not in webs_of(state).weaving


@pytest.mark.rule("ADV-WEB-04")
def test_a_webs_power_is_its_strongest_makers_and_a_weaker_rescuer_cannot_break_it() -> None:
    b, state = table(["spindle", "lattice"], ["charger", "reliant"], rules=WEBS)
    makers = [state.of("A1"), state.of("A2")]
    assert web_power(makers) == max(a.sheet.total_power for a in makers) == 34
    place_all(b, "A1 50,50 h0; A2 50,58 h0; B1 58,54 h3; B2 62,54 h3")
    for _ in (1, 2, 3):
        carry_out(b, state, _order(state, "A", ("A1", "P", "B1"), ("A2", "P", "B1")))
        _end(b, state)
    web = web_on(state, "B1")
    assert web is not None
    assert web.power == 34
    assert ("B2", "F", "B1") in web_options(state, "B")  # a Reliant's 38 overpowers it
    web.power = 40
    assert ("B2", "F", "B1") not in web_options(state, "B")


@pytest.mark.rule("ADV-WEB-05")
def test_constriction_strips_shields_and_a_third_then_crushes_the_worked_example() -> None:
    assert constriction_loss(30) == 10
    assert may_constrict(80, [40, 80])
    assert not may_constrict(81, [40, 80])
    b, state = table(["lattice", "lattice"], ["spindle"], rules=WEBS)
    place_all(b, "A1 50,50 h0; A2 50,58 h0; B1 58,54 h3")
    b.ships["B1"].superstructure = 30
    for _ in (1, 2, 3):
        carry_out(b, state, _order(state, "A", ("A1", "P", "B1"), ("A2", "P", "B1")))
        _end(b, state)
    web = web_on(state, "B1")
    assert web is not None
    assert web.permanent
    carry_out(b, state, _order(state, "A", ("A1", "K", "B1"), ("A2", "K", "B1")))
    assert web.constrict == web.phases == 4
    module = TholianWebs()
    module.adv_turn_end(b, state)
    module.adv_turn_end(b, state)
    assert b.ships["B1"].superstructure == 30
    module.adv_turn_end(b, state)  # the second-to-last turn
    assert b.ships["B1"].superstructure == 20
    assert state.of("B1").base == [0] * 6
    module.adv_turn_end(b, state)
    assert not b.ships["B1"].alive
    assert [e.superstructure for e in events_of(b, WebSqueezed)] == [20, 0]


@pytest.mark.rule("ADV-WEB-05")
def test_constriction_needs_two_tholians() -> None:
    b, state = table(["lattice", "lattice"], ["spindle"], rules=WEBS)
    place_all(b, "A1 50,50 h0; A2 50,58 h0; B1 58,54 h3")
    for _ in (1, 2, 3):
        carry_out(b, state, _order(state, "A", ("A1", "P", "B1"), ("A2", "P", "B1")))
        _end(b, state)
    assert ("A1", "K", "B1") in web_options(state, "A")
    with pytest.raises(IllegalOrderError, match="two Tholians or more"):
        _order(state, "A", ("A1", "K", "B1"))


@pytest.mark.rule("ADV-WEB-06")
def test_a_counter_tractor_from_outside_frees_the_captive_and_costs_the_rescuers_lock() -> None:
    b, state = table(["spindle"], ["reliant", "reliant"], rules=WEBS)
    place_all(b, "A1 50,50 h0; B1 54,50 h3; B2 58,50 h3")
    carry_out(b, state, _order(state, "A", ("A1", "T", "B1")))
    options = web_options(state, "B")
    assert ("B2", "F", "B1") in options
    assert ("B1", "F", "B1") not in options
    b2 = state.of("B2")
    b2.lock = "A1"
    officers_at(b2, 60)
    b.dice = Loaded([61])  # fails: the web holds
    carry_out(b, state, _order(state, "B", ("B2", "F", "B1")))
    assert state.of("B1").held
    assert b2.lock is None
    assert b2.busy
    b2.busy = False
    b.dice = Loaded([60])
    carry_out(b, state, _order(state, "B", ("B2", "F", "B1")))
    assert not state.of("B1").held
    assert [e.passed for e in events_of(b, CounterTractor)] == [False, True]
    _end(b, state)
    b2.sensor_damage = 1
    carry_out(b, state, _order(state, "A", ("A1", "T", "B1")))
    assert ("B2", "F", "B1") not in web_options(state, "B")  # sensors out


@pytest.mark.rule("ADV-WEB-07")
def test_dragging_a_captive_away_shapes_the_warp_fields_then_speeds_up_a_step_a_turn() -> None:
    assert [tow_cap(t, 100, 10) for t in (0, 1, 2, 3)] == [1, 2, 3, 3]
    b, state = table(["lattice"], ["spindle"], rules=WEBS)
    place_all(b, "A1 50,50 h0; B1 54,50 h3")
    carry_out(b, state, _order(state, "A", ("A1", "T", "B1")))
    web = web_on(state, "B1")
    assert web is not None
    web.permanent = True  # held for the test's length
    _end(b, state)
    carry_out(b, state, _order(state, "A", ("A1", "W", "B1")))
    a1 = state.of("A1")
    a1.moves = 15
    assert allowance(a1, 1) == 1  # the first turn at sublight
    TholianWebs().adv_turn_end(b, state)
    assert a1.tow_cap == 2
    assert allowance(a1, 1) == 2
    TholianWebs().adv_turn_end(b, state)
    assert a1.tow_cap == 3
