"""The rules fpf-2 fixes, clause by clause: what an independent referee found the engine
breaking under rules fpf-1 (issue 15), each in a position set up by hand."""

from __future__ import annotations

import math

import pytest
from fpf_kit import activations
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import load
from fpf_kit import moved

from kolrami.engine.battle import Battle
from kolrami.engine.geometry import advance
from kolrami.rules import events as ev
from kolrami.rules.fpf.repairs import apply_repair
from kolrami.rules.fpf.repairs import damaged_items
from kolrami.rules.peak import reset_ship
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Planet


def exchange() -> Battle:
    """Enterprise A1 closes on two Reliants (B1, B2) that react at it: A1 fires at B1 and both
    Reliants fire back at the same moment, phasers of 24 cm on both sides."""
    battle = sandbox([["enterprise"]], [["reliant", "reliant"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90, 52, 3, speed=0)
    place(battle, "B2", 96, 52, 3, speed=0)
    return battle


@pytest.mark.rule("FPF-FIRE-09", "FPF-FIRE-14")
def test_a_side_rolls_in_an_exchange_against_the_shields_its_earlier_shots_lowered() -> None:
    battle = exchange()
    a1 = battle.ships["A1"]
    before = a1.shields
    # A1's ten phasers fail; B1's first phaser gets through onto the shields (face 1), the rest
    # fail; then B2 rolls: against the shields B1 knocked down, not the shields of the moment
    load(battle, [1] * 10 + [10, 1, 1, 1, 1, 1] + [1] + [1] * 6)
    fight(battle, ["AS1 SPD 5 T0 T0 FIRE A1:F@B1"], ["REACT BS1 B1:F@A1 B2:F@A1"])
    phasers = {v.ship: v for v in events_of(battle, ev.VolleyFired) if v.weapon == "phaser"}
    assert phasers["B1"].shields == before
    assert phasers["B2"].shields == before - 1
    assert phasers["A1"].shields == battle.ships["B1"].cls.shields


@pytest.mark.rule("FPF-FIRE-11")
def test_reaction_fire_needs_a_moving_target() -> None:
    still = exchange()
    load(still, [1] * 60)
    fight(still, ["AS1 SPD 0 T0 T0 HOLD"], ["REACT BS1 B1:F@A1 B2:F@A1"])
    assert not [v for v in events_of(still, ev.VolleyFired) if v.ship.startswith("B")]
    assert [e.reaction for e in events_of(still, ev.FireDeclared)] == [True, True]

    moving = exchange()
    load(moving, [1] * 60)
    fight(moving, ["AS1 SPD 5 T0 T0 HOLD"], ["REACT BS1 B1:F@A1 B2:F@A1"])
    assert {v.ship for v in events_of(moving, ev.VolleyFired)} == {"B1", "B2"}


@pytest.mark.rule("FPF-MOV-12", "FPF-DMG-13")
def test_a_ship_that_loses_control_as_it_sets_off_never_turns() -> None:
    """A1 orders two turns; B1's reaction fire knocks its Systems to 0 as it sets off, so it
    coasts straight ahead on the heading it had."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 20, 0, speed=20, systems=1, damage_control=0)
    place(battle, "B1", 90, 42, 3, speed=0)
    load(battle, [10, 1, 1, 1, 1, 1] + [10] + [1] * 40)
    fight(battle, ["AS1 SPD 20 T+1 T+1 HOLD"], ["REACT BS1 B1:F@A1"])
    a1 = battle.ships["A1"]
    assert not a1.in_control
    assert a1.heading == 0
    (move,) = moved(battle, "A1")
    assert {x for x, _ in move.path} == {90.0}


@pytest.mark.rule("FPF-MOV-02", "FPF-MOV-01")
def test_a_squadron_wiped_out_earlier_in_the_turn_does_not_activate() -> None:
    battle = sandbox([["enterprise"]], [["reliant"], ["bird-of-prey"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=10)
    place(battle, "B1", 30, 110, 3, speed=0)
    place(battle, "B2", 90, 52, 3, speed=0, superstructure=1)
    load(battle, [10] + [1] * 9 + [5] + [1] * 40)
    fight(battle, ["AS1 SPD 5 T0 T0 FIRE A1:F@B2"])
    assert battle.ships["B2"].destroyed
    assert activations(battle) == ["AS1", "BS1"]


@pytest.mark.rule("PP-12", "FPF-REP-01")
def test_repairs_bring_a_returned_ship_only_to_its_token_reduced_shields() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], rules=("battle-simulation",))
    a1 = battle.ships["A1"]
    reset_ship(battle, a1, battle.ships["B1"])
    assert a1.shields == a1.max_shields - 1
    assert "shields" not in damaged_items(battle, a1)
    a1.shields = 5
    assert "shields" in damaged_items(battle, a1)
    apply_repair(battle, a1, "shields")
    assert a1.shields == a1.max_shields - 1


@pytest.mark.rule("PP-03", "FPF-MOV-08")
def test_a_planet_stops_a_move_on_its_second_leg() -> None:
    """A1 flies 10 cm ahead, turns, and its second 10 cm would end inside a planet: it stops with
    its base at the planet's rim (fpf-1 tested only the first leg)."""
    mx, my = advance(70.0, 40.0, 0, 10.0)
    ex, ey = advance(mx, my, 1, 10.0)
    planet = Planet(kind="planet", x=ex, y=ey, radius_cm=4.0)
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1, terrain=(planet,))
    place(battle, "A1", 70, 40, 0, speed=20)
    place(battle, "B1", 150, 110, 3, speed=0)
    load(battle, [1] * 40)
    fight(battle, ["AS1 SPD 20 T0 T+1 HOLD"])
    a1 = battle.ships["A1"]
    rim = 4.0 + battle.scenario.base_radius_cm
    assert math.hypot(a1.x - ex, a1.y - ey) >= rim - 1e-3
    assert [e.of for e in events_of(battle, ev.StoppedShort) if e.ship == "A1"] == ["planet"]
    assert abs(a1.speed - moved(battle, "A1")[0].distance) <= 0.5  # what it flew (FPF-TURN-03)


@pytest.mark.rule("FPF-TURN-03", "FPF-MOV-08", "FPF-MASK-03")
def test_a_wingman_that_stops_short_records_its_own_distance() -> None:
    """A2 follows A1, but a ship stands where A2 would end: A2 stops short and records what it
    flew, not its leader's speed, so it counts as standing still if it flew nothing."""
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=10)
    a2 = battle.ships["A2"]
    ax, ay = a2.x, a2.y
    bx, by = advance(ax, ay, 0, 10.0)  # where A2 would end: on A1's start
    place(battle, "B1", bx + 1.0, by, 3, speed=0)
    load(battle, [1] * 40)
    fight(battle, ["AS1 SPD 10 T0 T0 HOLD"])
    (move,) = moved(battle, "A2")
    assert move.distance < 10
    assert a2.speed == round(move.distance)
    assert battle.ships["A1"].speed == 10
