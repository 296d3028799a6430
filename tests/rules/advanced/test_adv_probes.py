"""Sensor probes (module adv-probes): ADV-PROBE-01, ADV-PROBE-02, ADV-PROBE-03, ADV-PROBE-04,
ADV-PROBE-05, ADV-PROBE-06, and the torpedo stores they draw on (ADV-TORP-01); what a probe's
sensing shows a side's view."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import events_of
from adv_kit import in_phase
from adv_kit import officers_at
from adv_kit import put

from kolrami.captains.base import BattleView
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced.field_events import ProbeLinked
from kolrami.rules.advanced.field_events import probes_of
from kolrami.rules.advanced.field_orders import ProbeDecision
from kolrami.rules.advanced.field_orders import ProbeLaunch
from kolrami.rules.advanced.field_orders import ProbeOrder
from kolrami.rules.advanced.field_orders import ProbeShot
from kolrami.rules.advanced.probes import carry_out
from kolrami.rules.advanced.probes import casings_free
from kolrami.rules.advanced.probes import launch_options
from kolrami.rules.advanced.probes import launch_problem
from kolrami.rules.advanced.probes import shot_options
from kolrami.rules.advanced.probes import sweep
from kolrami.rules.advanced.probes import verify_probes
from kolrami.rules.advanced.state import Surroundings
from kolrami.rules.registry import parse_order

PROBES = ("adv-cloak", "adv-probes")


def _probe_order(b, state, side: str, launches=(), shots=()) -> ProbeOrder:  # type: ignore[no-untyped-def]
    decision = ProbeDecision(
        side,
        state.phase,
        tuple(launch_options(state, side, b.turn)),
        tuple(shot_options(state, side)),
    )
    order = ProbeOrder(tuple(launches), tuple(shots))
    verify_probes(state, decision, order, b.turn)
    return order


def _launch(b, state, ship: str, x: int, y: int) -> None:  # type: ignore[no-untyped-def]
    carry_out(b, state, _probe_order(b, state, ship[0], [ProbeLaunch(ship, x, y)]))


def test_probe_orders_read_back() -> None:
    for text in ("PROBE A1:L45.60 A2:X0>p1", "PROBE NONE"):
        assert str(parse_order(text)) == text


@pytest.mark.rule("ADV-PROBE-01", "ADV-TORP-01")
def test_a_probe_takes_a_photon_casing_one_a_phase_and_no_action() -> None:
    b, state = in_phase(
        ["reliant", "spindle"], ["reliant"], "A1 50,50 h0; B1 50,100 h3", rules=PROBES
    )
    a1 = state.of("A1")
    assert [s for s, _ in launch_options(state, "A", 1)] == ["A1"]  # the Spindle has no photons
    assert "photon launcher" in (launch_problem(state, state.of("A2"), 1) or "")
    stores = a1.stores
    a1.power = [w.power if w.beam else 1 for w in a1.sheet.weapons]
    armed = sum(w.torpedoes for w in a1.sheet.weapons if not w.beam)
    assert casings_free(a1) == stores - armed  # casings armed this turn are not probes
    _launch(b, state, "A1", 50, 80)
    assert a1.stores == stores - 1
    assert combat.can_fire(a1)  # launching is free
    assert "one probe a phase" in (launch_problem(state, a1, 1) or "")
    with pytest.raises(IllegalOrderError, match="ADV-PROBE-01"):
        _probe_order(b, state, "A", [ProbeLaunch("A1", 50, 70)])
    state.phase = 2
    with pytest.raises(IllegalOrderError, match="flies up to 40 cm"):
        _probe_order(b, state, "A", [ProbeLaunch("A1", 50, 95)])
    a1.stores = armed
    assert "no photon casing" in (launch_problem(state, a1, 1) or "")


@pytest.mark.rule("ADV-PROBE-02", "ADV-SENS-02")
def test_a_probe_finds_a_cloaked_ship_that_moved_and_the_side_sees_it() -> None:
    b, state = in_phase(["reliant"], ["bird-of-prey"], "A1 20,20 h0; B1 120,100 h3", rules=PROBES)
    b1 = state.of("B1")
    b1.cloaked, b1.moved_last = True, True
    view = BattleView(b, "A").advanced()
    assert view.unseen() == ["B1"]
    assert not view.contacts()
    _launch(b, state, "A1", 45, 45)
    probe = probes_of(state).probes["p1"]
    probe.x, probe.y = 110.0, 95.0  # it flew on: its ship is far away (ADV-PROBE-02)
    b.dice = Loaded([6])
    sweep(b, state)
    assert not view.sees("B1")  # 6 misses
    b.dice = Loaded([5])
    sweep(b, state)
    assert view.sees("B1")
    assert [c.id for c in view.contacts()] == ["B1"]
    assert "A1" in b1.pinged_by  # the probe's ship may fire at it this phase
    b1.pinged_by.clear()
    b1.moved_last = False  # a ship that did not move is not found
    sweep(b, state)
    assert view.unseen() == ["B1"]


@pytest.mark.rule("ADV-PROBE-03")
def test_a_probe_sees_past_a_sensor_shadow() -> None:
    b, state = in_phase(
        ["reliant"], ["reliant"], "A1 20,20 h0; B1 60,50 h3", rules=("adv-terrain", "adv-probes")
    )
    state.of("B1").around = Surroundings(layer=1)  # inside a gas giant's atmosphere
    view = BattleView(b, "A").advanced()
    assert not view.sees("B1")
    _launch(b, state, "A1", 50, 45)
    assert view.sees("B1")


@pytest.mark.rule("ADV-PROBE-04")
def test_an_enemy_near_the_probe_intercepts_its_data_and_finds_the_cloaked_ship() -> None:
    b, state = in_phase(["reliant"], ["bird-of-prey"], "A1 60,60 h0; B1 150,110 h3", rules=PROBES)
    b1 = state.of("B1")
    _launch(b, state, "B1", 140, 80)
    b1.cloaked = True
    officers_at(state.of("A1"), 50)
    view = BattleView(b, "A").advanced()
    b.dice = Loaded([51])
    sweep(b, state)
    assert not view.sees("B1")  # A1 is 80 cm from the probe and not locked on B1: no roll
    put(b, "A1", 130, 80, 0)
    sweep(b, state)
    assert not view.sees("B1")  # the 51 failed
    b.dice = Loaded([50])
    sweep(b, state)
    assert view.sees("B1")


@pytest.mark.rule("ADV-PROBE-05")
def test_a_beam_shoots_a_probe_down_with_a_hit_and_a_weapons_check() -> None:
    b, state = in_phase(["reliant"], ["reliant"], "A1 50,20 h0; B1 50,60 h3", rules=PROBES)
    _launch(b, state, "A1", 50, 50)
    b1 = state.of("B1")
    b1.power = [w.power if w.beam else 0 for w in b1.sheet.weapons]
    officers_at(b1, 50)
    beams = [i for i, w in enumerate(b1.sheet.weapons) if w.beam]
    assert {(s, w) for s, w, _ in shot_options(state, "B")} == {("B1", i) for i in beams}
    b.dice = Loaded([1, 51])  # a hit, but the Weapons check fails
    carry_out(b, state, _probe_order(b, state, "B", shots=[ProbeShot("B1", beams[0], "p1")]))
    assert probes_of(state).probes["p1"].alive
    assert b1.fired[beams[0]]
    b.dice = Loaded([1, 50])
    carry_out(b, state, _probe_order(b, state, "B", shots=[ProbeShot("B1", beams[1], "p1")]))
    assert not probes_of(state).probes["p1"].alive


@pytest.mark.rule("ADV-PROBE-05")
def test_one_beams_power_is_not_split_among_probes() -> None:
    b, state = in_phase(
        ["reliant", "reliant"], ["reliant"], "A1 50,20 h0; A2 60,20 h0; B1 50,60 h3", rules=PROBES
    )
    _launch(b, state, "A1", 50, 50)
    _launch(b, state, "A2", 55, 50)
    b1 = state.of("B1")
    b1.power = [w.power if w.beam else 0 for w in b1.sheet.weapons]
    beam = next(i for i, w in enumerate(b1.sheet.weapons) if w.beam)
    shots = [ProbeShot("B1", beam, "p1"), ProbeShot("B1", beam, "p2")]
    with pytest.raises(IllegalOrderError, match="not split among probes"):
        _probe_order(b, state, "B", shots=shots)


@pytest.mark.rule("ADV-PROBE-06")
def test_a_replacement_waits_for_the_next_phase_and_the_science_officer_links_it() -> None:
    b, state = in_phase(["reliant"], ["reliant"], "A1 50,20 h0; B1 50,60 h3", rules=PROBES)
    _launch(b, state, "A1", 50, 50)
    state.phase = 2
    b1 = state.of("B1")
    b1.power = [w.power if w.beam else 0 for w in b1.sheet.weapons]
    officers_at(b1, 99)
    beam = next(i for i, w in enumerate(b1.sheet.weapons) if w.beam)
    b.dice = Loaded([1, 1])
    carry_out(b, state, _probe_order(b, state, "B", shots=[ProbeShot("B1", beam, "p1")]))
    assert "next movement phase" in (launch_problem(state, state.of("A1"), 1) or "")
    state.phase = 3
    officers_at(state.of("A1"), 40)
    b.dice = Loaded([41])
    _launch(b, state, "A1", 50, 50)
    p2 = probes_of(state).probes["p2"]
    assert not p2.linked
    b.dice = Loaded([40])
    sweep(b, state)  # it rolls again each phase until the lock holds
    assert p2.linked
    assert [e.linked for e in events_of(b, ProbeLinked)] == [False, True]
