"""Module adv-tactics in play (rules/advanced/tactics.py): the options each ship is offered, what
each action changes (through Change events), and the turn's steps that tow, fight, repair and
check the warp engines."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import battle
from adv_kit import drive
from adv_kit import events_of
from adv_kit import put
from adv_kit import table

from kolrami.captains.advanced import AGGRESSIVE
from kolrami.captains.advanced import AdvancedDoctrine
from kolrami.captains.base import BattleView
from kolrami.engine.battle import Battle
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.rules.advanced import bases
from kolrami.rules.advanced import combat
from kolrami.rules.advanced import officers
from kolrami.rules.advanced import tactics as tx
from kolrami.rules.advanced import tactics_events as te
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import AttackDecision
from kolrami.rules.advanced.orders import AttackOrder
from kolrami.rules.advanced.orders import MoveDecision
from kolrami.rules.advanced.orders import MoveOrder
from kolrami.rules.advanced.orders import PowerDecision
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.advanced.orders import TacticsDecision
from kolrami.rules.advanced.orders import TacticsOrder
from kolrami.rules.advanced.orders import parse_advanced
from kolrami.rules.advanced.power import verify_plan
from kolrami.rules.advanced.state import AdvancedState
from scene_kit import place_all

RULES = ("adv-tactics",)


def tactical(
    side_a: list[str], side_b: list[str], seed: int = 1
) -> tuple[Battle, AdvancedState, te.TacticsState]:
    b, state = table(side_a, side_b, seed, RULES)
    tx.Tactics().adv_turn_start(b, state)
    return b, state, te.tactics_of(b)


def alongside(
    a: str = "enterprise", e: str = "bird-of-prey", weapons: int = 6
) -> tuple[Battle, AdvancedState, te.TacticsState]:
    """A1 (its `weapons` unpowered) at (50, 50) and B1 6 cm (1.5 hexes) ahead, both heading 0."""
    b, state, t = tactical([a], [e])
    arm(b, state, "A1", weapons=(0,) * weapons)
    place_all(b, "A1 50,50 h0; B1 56,50 h0")
    return b, state, t


def verbs(state: AdvancedState, t: te.TacticsState, ship: str) -> list[str]:
    return tx.options(state, t, state.of(ship))


@contextmanager
def withdrawn(state: AdvancedState, t: te.TacticsState, action: str) -> Iterator[None]:
    """`action` ("B1:escape") is offered to its ship before the block and not after it."""
    ship = action.split(":")[0]
    assert action in verbs(state, t, ship)
    yield
    assert action not in verbs(state, t, ship)


def facing_down(state: AdvancedState, ship: str) -> None:
    state.of(ship).shields_up = False


# --- tractor beams -------------------------------------------------------------------------------


@pytest.mark.rule("ADV-TRAC-01")
def test_a_tractor_is_offered_at_one_or_two_hexes_only() -> None:
    b, state, t = alongside()  # B1 at 1.5 hexes
    assert "A1:tractor>B1=half" in verbs(state, t, "A1")
    put(b, "B1", 70, 50, 0)  # 5 hexes
    assert not [o for o in verbs(state, t, "A1") if "tractor" in o]


@pytest.mark.rule("ADV-TRAC-02")
def test_the_beam_s_power_joins_the_turn_s_costs_at_the_level_the_mass_needs() -> None:
    b, state, t = alongside("enterprise", "ktroika")
    holder = state.of("A1")
    before = holder.cost
    assert "A1:tractor>B1=full" in verbs(state, t, "A1")  # 110000 t is over half of 160000
    tx.act(b, state, t, "A1:tractor>B1=full")
    assert holder.cost == before + 6  # 10% of 52, rounded up
    assert t.beams["A1"].target == "B1"
    assert events_of(b, te.TractorEngaged)[0].cost == holder.cost


@pytest.mark.rule("ADV-TRAC-03")
def test_a_held_ship_is_towed_back_to_its_place_but_keeps_its_heading() -> None:
    b, state, t = alongside()
    tx.act(b, state, t, "A1:tractor>B1=half")
    put(b, "A1", 60, 50, 0)  # the holder moved 10 cm
    put(b, "B1", 80, 70, 3)  # the held ship tried to run and turned
    tx.tow(b, state, t)
    held = b.ships["B1"]
    assert (held.x, held.y, held.heading) == (66, 50, 3)
    assert events_of(b, te.Towed)[-1].x == 66


@pytest.mark.rule("ADV-TRAC-05")
def test_no_impulse_no_escape() -> None:
    b, state, t = alongside()
    tx.act(b, state, t, "A1:tractor>B1=half")
    with withdrawn(state, t, "B1:escape"):
        state.of("B1").impulse = 0


@pytest.mark.rule("ADV-TRAC-04")
def test_a_lighter_ship_straining_burns_crystals_on_1_to_7_and_the_holder_on_a_0() -> None:
    b, state, t = alongside()
    tx.act(b, state, t, "A1:tractor>B1=half")
    b.dice = Loaded([3, 10])
    tx.act(b, state, t, "B1:escape")
    assert (t.crystals["B1"], t.crystals["A1"]) == (1, 4)
    assert "A1" in t.beams  # the beam holds while the holder has crystals


@pytest.mark.rule("ADV-TRAC-06")
def test_a_heavier_held_ship_breaks_the_beam_at_once() -> None:
    b, state, t = alongside("bird-of-prey", "enterprise", weapons=3)
    b.record(te.TractorEngaged("A1", "B1", "full", 6, 0, 0))  # a beam it could not have locked
    tx.act(b, state, t, "B1:escape")
    assert "A1" not in t.beams
    assert events_of(b, te.TractorReleased)[-1].why.startswith("heavier")


@pytest.mark.rule("ADV-TRAC-07")
def test_a_holder_that_burns_its_last_crystal_breaches() -> None:
    b, state, t = alongside()
    tx.act(b, state, t, "A1:tractor>B1=half")
    t.crystals["A1"] = 1
    b.dice = Loaded([9, 10])
    tx.act(b, state, t, "B1:escape")
    blast = events_of(b, te.SelfDestructed)
    assert blast
    assert blast[0].ship == "A1"
    assert not b.ships["A1"].alive
    assert events_of(b, te.CrystalsBurned)[-1].warp_port == 0  # its power went to 0


@pytest.mark.rule("ADV-TRAC-08")
def test_keeping_a_beam_on_costs_a_crystal_on_a_0_once_a_turn() -> None:
    b, state, t = alongside()
    tx.act(b, state, t, "A1:tractor>B1=half")
    b.dice = Loaded([10])
    tx.Tactics().adv_turn_end(b, state)
    assert t.crystals["A1"] == 4
    b.dice = Loaded([4])
    tx.Tactics().adv_turn_end(b, state)
    assert t.crystals["A1"] == 4


# --- transporters and boarding -------------------------------------------------------------------


def boarding_table(
    a: str = "varn", e: str = "ktroika"
) -> tuple[Battle, AdvancedState, te.TacticsState]:
    b, state, t = tactical([a], [e])
    arm(b, state, "A1", weapons=(0,) * len(state.of("A1").sheet.weapons))
    arm(b, state, "B1", weapons=(0,) * len(state.of("B1").sheet.weapons))
    place_all(b, "A1 50,50 h0; B1 56,50 h0")
    return b, state, t


@pytest.mark.rule("ADV-TRANS-01")
def test_boarders_need_the_target_s_facing_down_and_the_ship_lowers_its_own() -> None:
    b, state, t = boarding_table()
    assert "A1:board>B1" not in verbs(state, t, "A1")  # B1's shields are up
    facing_down(state, "B1")
    assert "A1:board>B1" in verbs(state, t, "A1")
    tx.act(b, state, t, "A1:board>B1")
    lowered = events_of(b, te.FacingSet)
    assert lowered
    assert lowered[0].ship == "A1"
    assert lowered[0].lowered
    facing = lowered[0].facing
    assert state.of("A1").facing(facing) == (0, 0)
    tx.Tactics().adv_phase_end(b, state, 1)
    assert state.of("A1").facing(facing)[0] > 0  # back up after the phase
    t.barred.clear()
    t.sent.clear()
    tx.act(b, state, t, "A1:board>B1")
    state.of("A1").generator_ok[facing - 1] = False  # its generator hit while it was down
    tx.Tactics().adv_phase_end(b, state, 2)
    assert state.of("A1").facing(facing) == (0, 0)


@pytest.mark.rule("ADV-TRANS-02")
def test_a_ship_that_transports_does_not_fire_that_phase() -> None:
    b, state, t = boarding_table()
    facing_down(state, "B1")
    assert not state.rules.fire_barred(state, state.of("A1"))
    tx.act(b, state, t, "A1:board>B1")
    assert state.rules.fire_barred(state, state.of("A1"))


@pytest.mark.rule("ADV-TRANS-03")
def test_transporters_reach_two_hexes() -> None:
    b, state, t = boarding_table()
    facing_down(state, "B1")
    put(b, "B1", 62, 50, 0)  # 3 hexes
    assert "A1:board>B1" not in verbs(state, t, "A1")


@pytest.mark.rule("ADV-TRANS-04")
def test_transporters_need_working_sensors_but_no_lock() -> None:
    _b, state, t = boarding_table()
    facing_down(state, "B1")
    assert state.of("A1").lock is None
    with withdrawn(state, t, "A1:board>B1"):
        state.of("A1").sensor_damage = 1


@pytest.mark.rule("ADV-BRD-01")
def test_twenty_boarders_a_phase_and_no_more_than_the_complement() -> None:
    b, state, t = boarding_table()
    facing_down(state, "B1")
    tx.act(b, state, t, "A1:board>B1")
    assert events_of(b, te.Beamed)[0].people == 20
    t.sent["A1"] = state.of("A1").sheet.crew // 6  # the whole complement has gone across
    t.barred.clear()
    assert "A1:board>B1" not in verbs(state, t, "A1")


@pytest.mark.rule("ADV-BRD-05")
@pytest.mark.rule("ADV-BRD-04")
def test_boarders_arrive_in_the_section_facing_them_and_fight_for_it_at_the_phase_end() -> None:
    b, state, t = boarding_table()
    facing_down(state, "B1")
    tx.act(b, state, t, "A1:board>B1")
    party = t.parties["B1"]
    assert party.section == str(tx._facing(state.of("B1"), state.of("A1")))
    tx.fight(b, state, t)
    fought = events_of(b, te.SectionFought)[0]
    defenders = state.of("B1").sheet.crew // 6
    assert fought.defenders == defenders
    assert fought.kills == -(-defenders // 6)  # a sixth of them, rounded up
    assert fought.taken
    assert fought.next_section == "2"  # then the bridge
    assert state.of("B1").casualties == fought.kills


@pytest.mark.rule("ADV-BRD-06")
def test_a_ship_is_captured_once_the_sections_and_engineering_are_held() -> None:
    b, state, t = boarding_table()
    b.record(te.Beamed("A1", "B1", 20, "engineering", 20, "gorn", 20))
    t.held["B1"] = {"2", "3", "5", "4"}
    tx.fight(b, state, t)
    assert events_of(b, te.ShipCaptured)[0].side == "A"
    assert not b.ships["B1"].alive
    assert b.ships["B1"].derelict


@pytest.mark.rule("ADV-BRD-07")
def test_tholians_neither_board_nor_are_boarded() -> None:
    _b, state, t = boarding_table("varn", "lattice")
    facing_down(state, "B1")
    facing_down(state, "A1")
    assert "A1:board>B1" not in verbs(state, t, "A1")
    assert "B1:board>A1" not in verbs(state, t, "B1")


@pytest.mark.rule("ADV-BRD-09")
def test_a_base_is_boarded_at_its_command_centre_and_falls_at_half_its_people() -> None:
    b, state, t = alongside("varn", "outpost", weapons=4)
    facing_down(state, "B1")
    tx.act(b, state, t, "A1:board>B1")
    assert t.parties["B1"].section == tx.COMMAND
    tx.fight(b, state, t)
    fought = events_of(b, te.SectionFought)[0]
    assert not fought.taken  # 20 predators are far too few for 500 people
    b.record(te.Beamed("A1", "B1", 20, tx.COMMAND, 2000, "gorn", 20))
    tx.fight(b, state, t)
    assert events_of(b, te.ShipCaptured)


# --- bases ---------------------------------------------------------------------------------------


def base_table() -> tuple[Battle, AdvancedState, te.TacticsState]:
    b, state, t = tactical(["starbase", "reliant"], ["ktroika"])
    for ship in ("A1", "A2", "B1"):
        arm(b, state, ship, weapons=(0,) * len(state.of(ship).sheet.weapons))
    place_all(b, "A1 60,60 h0; A2 65,60 h0; B1 120,60 h3")
    return b, state, t


@pytest.mark.rule("ADV-BASE-01")
def test_a_ship_docks_with_its_own_base_from_the_next_hex_and_stays_until_it_casts_off() -> None:
    b, state, t = base_table()
    with withdrawn(state, t, "A2:dock>A1"):
        put(b, "A2", 80, 60, 0)
    put(b, "A2", 65, 60, 0)
    tx.act(b, state, t, "A2:dock>A1")
    assert t.docked == {"A2": "A1"}
    put(b, "A2", 70, 60, 0)
    state.of("A2").moved_last = True
    tx.tow(b, state, t)  # the base holds it until it casts off
    assert t.docked == {"A2": "A1"}
    assert (b.ships["A2"].x, b.ships["A2"].y) == (60, 60)
    tx.act(b, state, t, "A2:undock")
    assert t.docked == {}
    assert events_of(b, te.Undocked)[0].why == "cast off"


@pytest.mark.rule("ADV-BASE-02")
@pytest.mark.rule("ADV-BASE-06")
def test_each_officer_on_duty_repairs_a_point_a_phase_shared_by_the_ships_docked() -> None:
    b, state, t = base_table()
    a2 = state.of("A2")
    b.ships["A2"].superstructure = 10
    a2.casualties = a2.taken = 100
    tx.act(b, state, t, "A2:dock>A1")
    tx.repair(b, state, t)
    done = events_of(b, te.DockRepaired)[0]
    assert done.points == 6  # six officers, one ship docked
    assert done.back == 2  # 2% of 100
    assert b.ships["A2"].superstructure == 16
    a2.officers["helm"].out = 2
    t.docked["A3"] = "A1"  # a second ship in the berths halves the rate
    assert bases.dock_repair(5, 2) == 2
    assert bases.capacity(80) == 1


@pytest.mark.rule("ADV-BASE-03")
def test_a_docked_ship_fires_again_after_the_phase_it_docked_in() -> None:
    b, state, t = base_table()
    tx.act(b, state, t, "A2:dock>A1")
    assert state.rules.fire_barred(state, state.of("A2"))  # arriving (ADV-BASE-04)
    t.barred.clear()  # the next phase (the after-move step clears it)
    assert not state.rules.fire_barred(state, state.of("A2"))
    assert t.docked == {"A2": "A1"}


@pytest.mark.rule("ADV-BASE-04")
def test_the_base_lowers_the_facing_a_ship_docks_through_and_holds_fire_there() -> None:
    b, state, t = base_table()
    put(b, "B1", 90, 60, 3)  # the enemy beyond the docking ship
    tx.act(b, state, t, "A2:dock>A1")
    facing = tx._facing(state.of("A1"), state.of("A2"))
    assert state.of("A1").facing(facing) == (0, 0)
    why = state.rules.fire_refusal(state, state.of("A1"), state.of("B1"))
    assert why is not None
    assert "ADV-BASE-04" in why


@pytest.mark.rule("ADV-BASE-05")
def test_a_docked_ship_stands_behind_the_base_s_shields() -> None:
    b, state, t = base_table()
    tx.act(b, state, t, "A2:dock>A1")
    tx.Tactics().adv_phase_end(b, state, 1)
    a2 = state.of("A2")
    assert a2.base == [a2.facing_cap(f) for f in range(1, 7)]  # the base's 24, up to its 14
    assert a2.base[0] == a2.sheet.shield_points
    state.of("A1").base[0] = 3
    tx.repair(b, state, t)
    assert a2.base[0] == 3  # the base's facing is what protects it


@pytest.mark.rule("ADV-BASE-07")
def test_a_docked_ship_swaps_casualties_and_shaken_officers_for_station_crew() -> None:
    b, state, t = base_table()
    a2 = state.of("A2")
    a2.casualties = a2.taken = 60
    a2.officers["science"].out = 2
    tx.act(b, state, t, "A2:dock>A1")
    assert "A2:crew" in verbs(state, t, "A2")
    tx.act(b, state, t, "A2:crew")
    swap = events_of(b, te.CrewExchanged)[0]
    assert a2.casualties == a2.fatalities
    assert state.of("A1").casualties == 60 - a2.fatalities
    assert list(swap.officers) == ["science"]
    assert a2.officers["science"].on_duty
    assert a2.officers["science"].replacement


@pytest.mark.rule("ADV-SB-01")
def test_a_base_engages_any_number_of_targets_a_beam_and_a_missile_at_one() -> None:
    b, state, _t = tactical(["starbase"], ["bird-of-prey", "bird-of-prey", "bird-of-prey"])
    base = arm(b, state, "A1")
    assert combat.targets_allowed(base, state) == len(base.sheet.weapons)
    put(b, "A1", 60, 60, 0)
    for i, ship in enumerate(("B1", "B2", "B3")):
        put(b, ship, 70, 50 + 10 * i, 3)
    beams = [i for i, w in enumerate(base.sheet.weapons) if w.beam]
    tubes = [i for i, w in enumerate(base.sheet.weapons) if not w.beam]
    order = AttackOrder(
        (
            Attack("A1", (beams[0],), "B1"),
            Attack("A1", (tubes[0],), "B1"),
            Attack("A1", (beams[1],), "B2"),
            Attack("A1", (beams[2],), "B3"),
        )
    )
    combat.verify_attacks(state, AttackDecision("A", 1, ("A1",)), order)
    two_beams = AttackOrder((Attack("A1", (beams[0],), "B1"), Attack("A1", (beams[1],), "B1")))
    with pytest.raises(IllegalOrderError, match="ADV-FIRE-01"):
        combat.verify_attacks(state, AttackDecision("A", 1, ("A1",)), two_beams)


# --- engines and self-destruct -------------------------------------------------------------------


@pytest.mark.rule("ADV-IMP-02")
@pytest.mark.rule("ADV-IMP-01")
def test_without_impulse_a_ship_warps_straight_ahead_only() -> None:
    _b, state, _t = tactical(["enterprise"], ["ktroika"])
    a = state.of("A1")
    a.impulse = 0
    plan = PowerPlan("A1", 4, False, (0,) * 6)
    verify_plan(state, a, plan)  # movement on warp alone, with the module
    assert state.rules.straight_only(state, a)
    a.warp_port = a.warp_starboard = 0
    with pytest.raises(IllegalOrderError, match="ADV-IMP-01"):
        verify_plan(state, a, plan)
    _plain, plain_state = table(["enterprise"], ["ktroika"])
    plain_state.of("A1").impulse = 0
    with pytest.raises(IllegalOrderError, match="ADV-IMP-01"):
        verify_plan(plain_state, plain_state.of("A1"), plan)


@pytest.mark.rule("ADV-IMP-02")
def test_the_driver_asks_a_ship_without_impulse_for_a_straight_move_and_refuses_a_turn() -> None:
    b = battle(["enterprise"], ["ktroika"], rules=RULES)
    asked: list[MoveDecision] = []

    def answer(view: BattleView, decision: object) -> Order | None:
        if view.side == "A" and isinstance(decision, PowerDecision):
            view.advanced().ship("A1").impulse = 0  # knocked out before the plans
        if isinstance(decision, MoveDecision) and decision.ship == "A1" and decision.hexes:
            asked.append(decision)
            return MoveOrder("A1", 1, 1, 0)
        return None

    with pytest.raises(IllegalOrderError, match="ADV-IMP-02"):
        drive(b, answer)
    assert asked
    assert asked[0].straight


@pytest.mark.rule("ADV-WARP-01")
@pytest.mark.rule("ADV-WARP-02")
def test_damaged_engines_roll_for_each_level_over_their_reduced_safe_speed() -> None:
    b, state, _t = tactical(["enterprise"], ["ktroika"])
    a = state.of("A1")
    a.warp_port = a.warp_port // 2  # a quarter of the warp power gone
    a.moves = 10
    a.officers["engineer"].ratings["warp_tech"] = 65
    b.dice = Loaded([30, 50])  # level 1: 30+25 <= 65 holds; level 2: 50+25 > 65 lost
    tx.Tactics().adv_after_power(b, state)
    rolls = events_of(b, te.WarpStrained)
    assert [r.damage_pct for r in rolls] == [25, 25]
    assert [r.held for r in rolls] == [True, False]
    assert not b.ships["A1"].alive


@pytest.mark.rule("ADV-WARP-03")
def test_emergency_warp_on_sound_engines_fails_only_on_00() -> None:
    b, state, _t = tactical(["enterprise"], ["ktroika"])
    a = state.of("A1")
    assert state.rules.max_moves(state, a) == a.sheet.max_moves + 4
    a.moves = a.sheet.max_moves + 4
    b.dice = Loaded([99, 100])
    tx.Tactics().adv_after_power(b, state)
    assert [r.held for r in events_of(b, te.WarpStrained)] == [True, False]


@pytest.mark.rule("ADV-NAC-01")
def test_a_nacelle_hit_past_its_power_blows_it_off_for_good() -> None:
    b, state, _t = tactical(["enterprise"], ["ktroika"])
    a = state.of("A1")
    a.warp_port = 0
    state.rules.nacelle_hit(b, state, a, "warp_port", 8, 11)
    assert events_of(b, te.NacelleLost)[0].nacelle == "warp_port"
    assert "warp_port" in a.blown_off
    assert officers._most_damaged_engine(a) != "warp_port"
    state.rules.nacelle_hit(b, state, a, "warp_starboard", 8, 5)  # absorbed: still there
    assert "warp_starboard" not in a.blown_off


@pytest.mark.rule("ADV-SD-01")
@pytest.mark.rule("ADV-SD-02")
@pytest.mark.rule("ADV-SD-03")
def test_self_destruct_options_and_their_blasts() -> None:
    b, state, t = tactical(["enterprise"], ["ktroika"])
    place_all(b, "A1 50,50 h0; B1 53,50 h0")
    assert "A1:destruct=warp-breach" in verbs(state, t, "A1")
    assert "A1:destruct=impulse-overload" not in verbs(state, t, "A1")
    a = state.of("A1")
    warp = a.warp_port + a.warp_starboard
    tx.act(b, state, t, "A1:destruct=warp-breach")
    assert not b.ships["A1"].alive
    hit = events_of(b, te.BlastDamage)[0]
    assert (hit.ship, hit.damage) == ("B1", warp)
    b2, state2, t2 = tactical(["enterprise"], ["ktroika"])
    place_all(b2, "A1 50,50 h0; B1 53,50 h0")
    state2.of("A1").warp_port = state2.of("A1").warp_starboard = 0
    assert "A1:destruct=impulse-overload" in verbs(state2, t2, "A1")
    tx.act(b2, state2, t2, "A1:destruct=scuttle")
    assert not b2.ships["A1"].alive
    assert not events_of(b2, te.BlastDamage)


# --- the decision and the captains ---------------------------------------------------------------


def test_the_tactics_order_reads_back_and_names_what_is_open() -> None:
    order = TacticsOrder(("A1:tractor>B2=full", "A2:destruct=scuttle"))
    assert parse_advanced(str(order).split(), str(order)) == order
    decision = TacticsDecision("A", 1, ("A1",), ("A1:release",))
    with pytest.raises(IllegalOrderError, match="A1's options: A1:release"):
        tx.verify_tactics(decision, TacticsOrder(("A1:escape",)))
    with pytest.raises(ValueError, match="not an action"):
        TacticsOrder(("tractor",))


@pytest.mark.rule("ADV-BRD-06")
def test_the_doctrine_boards_a_crippled_ship_and_blows_itself_up_rather_than_be_taken() -> None:
    b, state, t = boarding_table()
    view = BattleView(b, "A")
    doctrine = AdvancedDoctrine(AGGRESSIVE)
    facing_down(state, "B1")
    b.ships["B1"].superstructure = 5
    decision = TacticsDecision("A", 1, ("A1",), tuple(verbs(state, t, "A1")))
    assert doctrine.tactics(view, decision).actions == ("A1:board>B1",)
    b.record(te.Beamed("B1", "A1", 20, "2", 20, "klingon", 20))
    t.held["A1"] = {"1", "2", "3"}
    decision = TacticsDecision("A", 1, ("A1",), tuple(verbs(state, t, "A1")))
    assert doctrine.tactics(view, decision).actions == ("A1:destruct=warp-breach",)


# --- the last boarding rules (ADV-BRD-03, ADV-BRD-05, ADV-BRD-08) ---------------------------------


@pytest.mark.rule("ADV-BRD-03")
def test_the_borg_s_first_three_drones_scout_and_are_lost() -> None:
    b, state, t = boarding_table("borg-cube", "ktroika")
    facing_down(state, "B1")
    complement = tx.complement(t, state.of("A1"))
    tx.act(b, state, t, "A1:board>B1")
    scouts = events_of(b, te.ScoutsLost)
    assert [(s.lost, s.scouts) for s in scouts] == [(3, 3)]
    beamed = events_of(b, te.Beamed)[0]
    assert beamed.people == complement - 3 == t.parties["B1"].count
    assert beamed.sent == complement  # the scouts came out of the complement
    t.barred.clear()
    t.sent["A1"] = 0
    tx.act(b, state, t, "A1:board>B1")  # the collective has adapted: no more scouts lost
    assert len(events_of(b, te.ScoutsLost)) == 1
    assert events_of(b, te.Beamed)[1].people == complement


@pytest.mark.rule("ADV-BRD-03")
def test_other_species_lose_no_scouts() -> None:
    b, state, t = boarding_table()
    facing_down(state, "B1")
    tx.act(b, state, t, "A1:board>B1")
    assert not events_of(b, te.ScoutsLost)


def tholian_base() -> tuple[Battle, AdvancedState, te.TacticsState]:
    """A Gorn Varn alongside an outpost crewed by Tholians (the data has no Tholian base class:
    the outpost's species is swapped)."""
    b, state, t = alongside("varn", "outpost", weapons=4)
    state.of("B1").species = state.pack.species["tholian"]
    facing_down(state, "B1")
    return b, state, t


@pytest.mark.rule("ADV-BRD-08", "ADV-BRD-07")
def test_a_tholian_base_may_be_boarded_and_only_its_slaves_resist() -> None:
    b, state, t = tholian_base()
    assert "A1:board>B1" in verbs(state, t, "A1")
    tx.act(b, state, t, "A1:board>B1")
    tx.fight(b, state, t)
    fought = events_of(b, te.SectionFought)[0]
    fit = state.of("B1").sheet.crew
    assert fought.taken
    assert fought.lost == 0
    assert fought.kills == -(-fit // 2)  # half of them, no marines
    assert events_of(b, te.ShipCaptured)[0].ship == "B1"


@pytest.mark.rule("ADV-BRD-08")
def test_an_ordinary_base_s_garrison_still_holds() -> None:
    b, state, t = alongside("varn", "outpost", weapons=4)
    facing_down(state, "B1")
    tx.act(b, state, t, "A1:board>B1")
    tx.fight(b, state, t)
    assert not events_of(b, te.SectionFought)[0].taken
    assert not events_of(b, te.ShipCaptured)


def held_by_boarders(
    section: str, held: set[str] | None = None
) -> tuple[Battle, AdvancedState, te.TacticsState]:
    """A boarding party of 20 Gorn fighting for `section` of B1, `held` already theirs."""
    b, state, t = boarding_table()
    b.record(te.Beamed("A1", "B1", 20, section, 20, "gorn", 20))
    t.held["B1"] = set(held or ())
    tx.fight(b, state, t)
    assert events_of(b, te.SectionFought)[0].taken
    return b, state, t


@pytest.mark.rule("ADV-BRD-05")
def test_holding_the_sensors_section_keeps_the_sensors_out() -> None:
    b, state, _t = held_by_boarders("1")
    assert not state.of("B1").sensors_ok
    assert events_of(b, te.SectionHeld)[0].sections == ["1"]


@pytest.mark.rule("ADV-BRD-05")
def test_holding_a_warp_section_switches_that_side_s_warp_off() -> None:
    _b, state, _t = held_by_boarders("4")
    b1 = state.of("B1")
    assert b1.warp_starboard == 0
    assert b1.warp_port == b1.sheet.warp_port
    _b, state, _t = held_by_boarders("6")
    b1 = state.of("B1")
    assert b1.warp_port == 0
    assert b1.warp_starboard == b1.sheet.warp_starboard


@pytest.mark.rule("ADV-BRD-05")
def test_the_bridge_is_the_boarders_for_the_rest_of_the_turn() -> None:
    b, state, t = held_by_boarders("2")
    b1 = state.of("B1")
    assert "B1" in t.seized
    assert tx.options(state, t, b1) == []
    assert tx.Tactics().fire_barred(state, b1)
    tx.Tactics().adv_turn_end(b, state)  # the crew lock them out from the auxiliary bridge
    assert events_of(b, te.BridgeLockedOut)[0].ship == "B1"
    assert "B1" not in t.seized
    assert not tx.Tactics().fire_barred(state, b1)
    tx.fight(b, state, t)  # the bridge is still held, but no longer run
    assert "B1" not in t.seized


@pytest.mark.rule("ADV-BRD-05")
def test_the_auxiliary_bridge_cuts_the_power_and_keeps_the_bridge() -> None:
    b, state, t = held_by_boarders("5", {"2", "3"})
    b1 = state.of("B1")
    assert b1.warp_port == b1.warp_starboard == b1.impulse == 0  # engineering is the crew's
    assert "B1" in t.seized
    tx.Tactics().adv_turn_end(b, state)
    assert not events_of(b, te.BridgeLockedOut)
    assert "B1" in t.seized
