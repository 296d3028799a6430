"""FPF damage control, clause by clause (FPF-REP-01..07)."""

from __future__ import annotations

import pytest
from fpf_kit import Script
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import moved

from kolrami.catalog import Arc
from kolrami.catalog import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.engine.driver import run
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from scene_kit import place_all


def fleet(*classes: str, turns: int = 1) -> Battle:
    """Side A: one squadron of `classes` in column from (60, 20) heading up, last speed 10;
    side B: a K'T'Roika far away, standing still."""
    battle = sandbox([list(classes)], [["ktroika"]], turn_limit=turns)
    place_all(battle, "A1 60,20 h0 v10; B1 170,110 h3 v0")
    return battle


def hit(battle: Battle, ship: str, face: int, amount: int, arc: Arc = Arc.F) -> None:
    apply_damage(battle, battle.ships[ship], face, amount, arc, None, "photon")


def repaired(battle: Battle) -> list[tuple[str, str, int]]:
    return [(e.ship, e.item, e.value) for e in events_of(battle, ev.Repaired)]


# --- FPF-REP-01: one point, one item -------------------------------------------------------------


@pytest.mark.rule("FPF-REP-01")
def test_worked_example_a_launcher_wrecked_by_6_needs_one_point() -> None:
    battle = fleet("reliant")
    hit(battle, "A1", 9, 6)
    a1 = battle.ships["A1"]
    assert a1.mounts[WeaponKind.PHOTON] == (0, 0)
    fight(battle, ["REPAIR A1:photons.0"])
    assert a1.mounts[WeaponKind.PHOTON] == (2, 0)
    assert repaired(battle) == [("A1", "photons.0", 2)]


@pytest.mark.rule("FPF-REP-01")
def test_no_more_points_than_the_damage_control_rating() -> None:
    battle = fleet("reliant")  # Damage Control 2
    hit(battle, "A1", 9, 6)
    hit(battle, "A1", 2, 3)
    with pytest.raises(
        IllegalOrderError, match=r"2 Damage Control point\(s\) .*spends 3 \(FPF-REP-01"
    ):
        fight(battle, ["REPAIR A1:photons.0 A1:photons.1 A1:shields"])


@pytest.mark.rule("FPF-REP-01", "FPF-REP-07")
def test_one_point_restores_an_item_fully_so_a_second_is_refused() -> None:
    battle = fleet("reliant")
    hit(battle, "A1", 2, 5)
    with pytest.raises(IllegalOrderError, match=r"repairs 'shields' twice.*\(FPF-REP-01\)"):
        fight(battle, ["REPAIR A1:shields A1:shields"])


@pytest.mark.rule("FPF-REP-01")
def test_points_are_per_turn() -> None:
    """Four wrecked items, two points a turn: two come back in turn 1, two in turn 2."""
    battle = fleet("reliant", turns=2)
    hit(battle, "A1", 9, 6)
    hit(battle, "A1", 8, 6)
    fight(battle, ["REPAIR A1:phasers.0 A1:phasers.1", "REPAIR A1:photons.0 A1:photons.1"])
    seq = [
        type(e).__name__ if isinstance(e, ev.TurnStarted) else e.item
        for e in battle.events()
        if isinstance(e, ev.TurnStarted | ev.Repaired)
    ]
    assert seq == ["TurnStarted", "phasers.0", "phasers.1", "TurnStarted", "photons.0", "photons.1"]
    assert battle.ships["A1"].mounts == {WeaponKind.PHASER: (3, 3), WeaponKind.PHOTON: (2, 1)}


# --- FPF-REP-02: at the start of the turn, at once -----------------------------------------------


@pytest.mark.rule("FPF-REP-02")
def test_repaired_phasers_fire_in_the_same_turn() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v5; B1 90,60 h3 v0")
    hit(battle, "A1", 8, 6)
    assert battle.ships["A1"].mounts[WeaponKind.PHASER] == (0, 0)
    fight(battle, ["REPAIR A1:phasers.1", "AS1 SPD 0 T0 T0 FIRE A1:F@B1"])
    (volley,) = events_of(battle, ev.VolleyFired)
    assert (volley.weapon, volley.shots) == ("phaser", 3)
    order = [
        type(e).__name__ for e in battle.events() if isinstance(e, ev.Repaired | ev.VolleyFired)
    ]
    assert order == ["Repaired", "VolleyFired"]


@pytest.mark.rule("FPF-REP-02")
def test_only_ships_offered_in_the_repairs_phase_may_repair() -> None:
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 60,20 h0 v10; B1 170,110 h3 v0")
    hit(battle, "A1", 2, 3)
    with pytest.raises(IllegalOrderError, match=r"A2 cannot repair now; ships that can: A1"):
        fight(battle, ["REPAIR A2:shields"])


# --- FPF-REP-03, -04: superstructure stays lost; items come back whole ---------------------------


@pytest.mark.rule("FPF-REP-03")
def test_superstructure_is_not_an_item_damage_control_can_repair() -> None:
    battle = fleet("reliant")
    hit(battle, "A1", 2, 3)
    with pytest.raises(IllegalOrderError, match=r"no damaged 'superstructure'.*\(FPF-REP-07\)"):
        fight(battle, ["REPAIR A1:superstructure"])


@pytest.mark.rule("FPF-REP-03", "FPF-REP-04")
def test_repairs_restore_printed_values_but_not_the_hull() -> None:
    battle = fleet("reliant")
    hit(battle, "A1", 2, 4)
    hit(battle, "A1", 6, 6)
    a1 = battle.ships["A1"]
    assert (a1.shields, a1.engine_power, a1.superstructure) == (10, 10, 12)
    fight(battle, ["REPAIR A1:shields A1:engine_power"])
    assert (a1.shields, a1.engine_power, a1.superstructure) == (14, 16, 12)
    assert repaired(battle) == [("A1", "shields", 14), ("A1", "engine_power", 16)]


# --- FPF-REP-05: negative Systems ---------------------------------------------------------------


@pytest.mark.rule("FPF-REP-05", "FPF-DMG-14")
def test_worked_example_systems_minus_2_need_three_points() -> None:
    """Systems 2 hit for 4 is -2; three points give -1, 0, +1 and control returns at +1."""
    battle = fleet("venture")  # Damage Control 3
    place(battle, "A1", 60, 20, 0, speed=10, systems=2)
    hit(battle, "A1", 10, 4)
    a1 = battle.ships["A1"]
    assert (a1.systems, a1.in_control) == (-2, False)
    fight(battle, ["REPAIR A1:computer A1:computer A1:computer", "AS1 A1=SPD 10 T+1 T0 HOLD"])
    assert repaired(battle) == [
        ("A1", "computer", -1),
        ("A1", "computer", 0),
        ("A1", "computer", 1),
    ]
    assert (a1.systems, a1.in_control, a1.heading) == (1, True, 1)


@pytest.mark.rule("FPF-REP-05")
def test_systems_at_zero_still_out_of_control() -> None:
    """Two points take -2 to 0: the ship is still out of action and just drifts."""
    battle = fleet("reliant")  # Damage Control 2
    place(battle, "A1", 60, 20, 0, speed=10, systems=2)
    hit(battle, "A1", 10, 4)
    a = Script(["REPAIR A1:computer A1:computer"])
    run(battle, {"A": a, "B": Script([])})
    a1 = battle.ships["A1"]
    assert (a1.systems, a1.in_control) == (0, False)
    assert not any(isinstance(d, OrdersDecision) for d in a.seen)
    assert [m.path[-1] for m in moved(battle, "A1")] == [[60.0, 30.0]]


@pytest.mark.rule("FPF-REP-05")
def test_systems_recover_one_step_a_point_up_to_the_printed_value() -> None:
    battle = fleet("venture", turns=2)  # Computer 4, Damage Control 3
    hit(battle, "A1", 10, 2)
    fight(battle, ["REPAIR A1:computer", "REPAIR A1:computer"])
    assert repaired(battle) == [("A1", "computer", 3), ("A1", "computer", 4)]


# --- FPF-REP-06, -07: who repairs what -----------------------------------------------------------


@pytest.mark.rule("FPF-REP-06")
def test_ships_without_damage_control_are_never_offered_repairs() -> None:
    battle = sandbox([["bird-of-prey"], ["star-hawk"]], [["ktroika"]], turn_limit=2)
    place_all(battle, "A1 60,20 h0 v10; A2 120,20 h0 v10; B1 170,110 h3 v0")
    hit(battle, "A1", 2, 2)
    hit(battle, "A2", 8, 2)
    a = Script([])
    run(battle, {"A": a, "B": Script([])})
    assert not any(isinstance(d, RepairDecision) for d in a.seen)
    assert repaired(battle) == []
    assert battle.ships["A1"].shields == 10


@pytest.mark.rule("FPF-REP-06", "FPF-REP-02")
def test_a_bird_of_prey_cannot_be_repaired_beside_a_ship_that_can() -> None:
    battle = sandbox([["bird-of-prey"], ["reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 60,20 h0 v10; A2 120,20 h0 v10; B1 170,110 h3 v0")
    hit(battle, "A1", 2, 2)
    hit(battle, "A2", 2, 2)
    a = Script(["REPAIR A1:shields"])
    with pytest.raises(IllegalOrderError, match=r"A1 cannot repair now; ships that can: A2"):
        run(battle, {"A": a, "B": Script([])})
    (decision,) = [d for d in a.seen if isinstance(d, RepairDecision)]
    assert decision.ships == ("A2",)


@pytest.mark.rule("FPF-REP-07")
def test_the_owner_shares_points_among_ships_and_items() -> None:
    battle = fleet("reliant", "venture")
    hit(battle, "A1", 5, 4)  # Reliant engines 16 -> 12
    hit(battle, "A1", 10, 2)  # Reliant Systems 3 -> 1
    hit(battle, "A2", 3, 5)  # Venture shields 16 -> 11
    hit(battle, "A2", 8, 4)  # Venture phasers [2, 2, 2] -> [0, 0, 2]
    fight(battle, ["REPAIR A1:engine_power A1:computer A2:shields A2:phasers.1 A2:phasers.0"])
    a1, a2 = battle.ships["A1"], battle.ships["A2"]
    assert (a1.engine_power, a1.systems) == (16, 2)
    assert (a2.shields, a2.mounts[WeaponKind.PHASER]) == (16, (2, 2, 2))


@pytest.mark.rule("FPF-REP-07")
def test_points_go_only_to_damaged_items() -> None:
    battle = fleet("reliant")
    hit(battle, "A1", 2, 2)
    with pytest.raises(
        IllegalOrderError,
        match=r"no damaged 'engine_power' to repair; damaged: shields \(FPF-REP-07\)",
    ):
        fight(battle, ["REPAIR A1:engine_power"])
