"""Communications (module adv-comms): ADV-COMM-03, ADV-COMM-04, ADV-COMM-05."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import in_phase
from adv_kit import officers_at
from adv_kit import table

from kolrami.captains.base import BattleView
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced.comms import Communications
from kolrami.rules.advanced.comms import carry_out
from kolrami.rules.advanced.comms import jam_options
from kolrami.rules.advanced.comms import open_reason
from kolrami.rules.advanced.comms import verify_jams
from kolrami.rules.advanced.field_events import comms_of
from kolrami.rules.advanced.field_events import probes_of
from kolrami.rules.advanced.field_orders import JamDecision
from kolrami.rules.advanced.field_orders import JamOrder
from kolrami.rules.advanced.field_orders import ProbeLaunch
from kolrami.rules.advanced.field_orders import ProbeOrder
from kolrami.rules.advanced.officers import bonus_options
from kolrami.rules.advanced.probes import carry_out as probe_carry_out
from kolrami.rules.advanced.probes import probe_sees
from kolrami.rules.advanced.probes import working
from kolrami.rules.advanced.webs import web_options
from kolrami.rules.registry import parse_order
from scene_kit import place_all

COMMS = ("adv-comms", "adv-webs", "adv-probes")


def _jam(b, state, side: str, *jams: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    decision = JamDecision(side, b.turn, tuple(jam_options(state, side)))
    order = JamOrder(tuple(jams))
    verify_jams(decision, order)
    carry_out(b, state, order)


def test_jam_orders_read_back() -> None:
    for text in ("JAM A1>B2 A2>p1 A3>-", "JAM NONE"):
        assert str(parse_order(text)) == text


@pytest.mark.rule("ADV-COMM-03")
def test_tholians_may_try_to_break_any_code() -> None:
    _, state = table(["spindle"], ["ktroika", "ktroika"])
    assert "decode" in bonus_options(state, state.of("A1"))["comms"]
    _, plain = table(["reliant"], ["ktroika", "ktroika"])
    assert "comms" not in bonus_options(plain, plain.of("A1"))


@pytest.mark.rule("ADV-COMM-03")
def test_tholian_traffic_to_other_species_and_cross_bloc_traffic_is_heard_by_all() -> None:
    assert open_reason({"tholian", "human"})
    assert not open_reason({"tholian"})
    assert open_reason({"human", "klingon"})
    assert not open_reason({"human", "gorn"})
    b, state = table(["spindle", "reliant"], ["ktroika"], rules=COMMS)
    for ship in ("A1", "A2", "B1"):
        arm(b, state, ship, move=2)
    view = BattleView(b, "B").advanced()
    assert view.decoded() == {}
    Communications().adv_after_power(b, state)
    assert set(view.decoded()) == {"A1", "A2"}
    assert BattleView(b, "A").advanced().decoded() == {}  # one Klingon speaks its own code


@pytest.mark.rule("ADV-COMM-04")
def test_a_jammed_tholian_cannot_weave_and_cannot_clear_the_channel_itself() -> None:
    b, state = table(["spindle", "spindle"], ["reliant"], rules=COMMS)
    b.turn = 1
    place_all(b, "A1 50,50 h0; A2 50,58 h0; B1 58,54 h3")
    assert ("A1", "P", "B1") in web_options(state, "A")
    officers_at(state.of("B1"), 60)
    b.dice = Loaded([61])
    _jam(b, state, "B", ("B1", "A1"))
    assert comms_of(state).jams == {}  # the check failed
    b.dice = Loaded([60])
    _jam(b, state, "B", ("B1", "A1"))
    assert comms_of(state).jams == {"B1": "A1"}
    assert not any(a == "P" for _, a, _ in web_options(state, "A"))  # one weaver left
    assert not any(s == "A1" and t == "-" for s, t in jam_options(state, "A"))
    b1 = state.of("B1")
    b1.power = [w.power if w.beam else 0 for w in b1.sheet.weapons]
    assert combat.can_fire(b1)  # jamming took no action
    _jam(b, state, "B", ("B1", "-"))
    assert comms_of(state).jams == {}
    b.dice = Loaded([60])
    _jam(b, state, "B", ("B1", "A1"))
    b.ships["B1"].alive = False  # the jammer destroyed ends it
    list(Communications().adv_after_move(b, state, 2, ("A", "B")))
    assert comms_of(state).jams == {}


@pytest.mark.rule("ADV-COMM-05")
def test_jamming_a_probes_link_silences_it() -> None:
    b, state = in_phase(["reliant"], ["reliant"], "A1 50,20 h0; B1 50,70 h3", rules=COMMS)
    probe_carry_out(b, state, ProbeOrder((ProbeLaunch("A1", 50, 50),)))
    probe = probes_of(state).probes["p1"]
    assert working(state, probe)
    assert probe_sees(state, "A", state.of("B1"))
    assert ("B1", "p1") in jam_options(state, "B")
    officers_at(state.of("B1"), 60)
    b.dice = Loaded([60])
    _jam(b, state, "B", ("B1", "p1"))
    assert not working(state, probe)
    assert not probe_sees(state, "A", state.of("B1"))


@pytest.mark.rule("ADV-COMM-04")
def test_a_jam_names_a_ship_or_probe_open_now() -> None:
    _b, state = table(["reliant"], ["reliant"], rules=COMMS)
    with pytest.raises(IllegalOrderError, match="ADV-COMM-04"):
        verify_jams(JamDecision("B", 1, tuple(jam_options(state, "B"))), JamOrder((("B1", "p9"),)))
