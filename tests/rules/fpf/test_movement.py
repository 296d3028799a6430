"""FPF movement, clause by clause (FPF-MOV-06..09, -11..14): manoeuvres, stopping short,
wingmen, engine power, coasting, pivots and the individual-movement variant."""

from __future__ import annotations

import math
from typing import Any

import pytest
from fpf_kit import Script
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import moved

from kolrami.catalog import Arc
from kolrami.engine.battle import Battle
from kolrami.engine.driver import run
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.movement import formation_limits
from kolrami.rules.fpf.movement import movers
from kolrami.rules.fpf.movement import speed_limits
from kolrami.rules.fpf.movement import verify_maneuver
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Movement
from scene_kit import place_all

R3 = math.sqrt(3) / 2


def one_on_one(a: str = "reliant", b: str = "ktroika", **scenario: Any) -> Battle:
    """One ship a side, one turn, the enemy far away in a corner (out of every range)."""
    battle = sandbox([[a]], [[b]], turn_limit=1, **scenario)
    place(battle, "B1", 170, 110, 3, speed=0)
    return battle


# --- FPF-MOV-06: the 40 cm cap -----------------------------------------------------------------


@pytest.mark.rule("FPF-MOV-06")
def test_no_ship_moves_more_than_40_cm() -> None:
    """Even with power to spare, a speed above 40 cm is refused, and 40 itself is allowed."""
    battle = one_on_one("enterprise")
    place(battle, "A1", 90, 20, 0, speed=30)  # Power 20 would allow 50
    assert speed_limits(battle, battle.ships["A1"]) == (10, 40)
    with pytest.raises(IllegalOrderError, match=r"may move 10-40 cm.*not 41 \(FPF-MOV-06"):
        fight(battle, ["AS1 SPD 41 T0 T0 HOLD"])


@pytest.mark.rule("FPF-MOV-06")
def test_a_ship_may_move_exactly_40_cm() -> None:
    battle = one_on_one("enterprise")
    place(battle, "A1", 90, 20, 0, speed=30)
    fight(battle, ["AS1 SPD 40 T0 T0 HOLD"])
    (move,) = moved(battle, "A1")
    assert move.distance == 40
    assert (battle.ships["A1"].x, battle.ships["A1"].y) == (90, 60)


# --- FPF-MOV-07: turn, half, turn, half --------------------------------------------------------


#: A1 at (90, 40) heading up: its speed, its two turns, then its heading, its turn point (half
#: its move along the first leg's heading) and where it ends.
MOVES = [
    # the worked example: 60 degrees to port, 15 cm, 60 more to port, 15 cm: 120 degrees in all
    pytest.param(30, "T+1 T+1", 2, (90 - 15 * R3, 47.5), (90 - 30 * R3, 40.0), id="port twice"),
    # a turn to starboard at the first point and none at the second: heading 5 all the way
    pytest.param(20, "T-1 T0", 5, (90 + 10 * R3, 45.0), (90 + 20 * R3, 50.0), id="starboard"),
    # the second turn bends only the second half
    pytest.param(20, "T0 T-1", 5, (90.0, 50.0), (90 + 10 * R3, 55.0), id="second half"),
]


@pytest.mark.rule("FPF-MOV-07")
@pytest.mark.parametrize(("speed", "turns", "heading", "turn_point", "end"), MOVES)
def test_a_ship_turns_then_moves_half_then_turns_then_moves_half(
    speed: int,
    turns: str,
    heading: int,
    turn_point: tuple[float, float],
    end: tuple[float, float],
) -> None:
    battle = one_on_one()
    place(battle, "A1", 90, 40, 0, speed=speed)
    fight(battle, [f"AS1 SPD {speed} {turns} HOLD"])
    (move,) = moved(battle, "A1")
    ship = battle.ships["A1"]
    assert ship.heading == heading
    assert move.path[1] == pytest.approx(list(turn_point), abs=1e-3)
    assert (ship.x, ship.y) == pytest.approx(end)
    assert move.distance == speed


@pytest.mark.rule("FPF-MOV-07")
@pytest.mark.parametrize("order", ["AS1 SPD 20 T+2 T0 HOLD", "AS1 SPD 20 T0 T-2 HOLD"])
def test_turning_more_than_one_hex_face_is_illegal(order: str) -> None:
    battle = one_on_one()
    place(battle, "A1", 90, 40, 0, speed=20)
    with pytest.raises(IllegalOrderError, match=r"-1, 0 or \+1 hex faces.*\(FPF-MOV-07\)"):
        fight(battle, [order])


@pytest.mark.rule("FPF-MOV-07")
def test_a_formation_gets_exactly_one_manoeuvre() -> None:
    """A formation moves by its leader's single manoeuvre: a wingman's own entry is refused."""
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v20; B1 170,110 h3 v0")
    with pytest.raises(IllegalOrderError, match=r"one manoeuvre for each of: formation"):
        fight(battle, ["AS1 SPD 20 T0 T0 A2=SPD 20 T0 T0 HOLD"])


# --- FPF-MOV-08: stop short --------------------------------------------------------------------


@pytest.mark.rule("FPF-MOV-08")
def test_a_ship_stops_short_of_a_ship_at_its_end_point() -> None:
    """A1 would end on B1's spigot; it stops with the two bases just touching (2 x 2.5 cm)."""
    battle = one_on_one()
    place_all(battle, "A1 90,40 h0 v20; B1 90,60 h3 v0")
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["BS1 SPD 0 T0 T0 HOLD"])
    (stop,) = events_of(battle, ev.StoppedShort)
    assert (stop.ship, stop.of) == ("A1", "B1")
    assert stop.lost_cm == pytest.approx(5.0, abs=1e-3)
    a1 = battle.ships["A1"]
    assert a1.y == pytest.approx(55.0, abs=1e-3)
    assert a1.speed == 15  # the distance actually flown is what is recorded


@pytest.mark.rule("FPF-MOV-08")
def test_no_stop_when_the_end_point_is_clear() -> None:
    battle = one_on_one()
    place_all(battle, "A1 90,40 h0 v20; B1 90,66 h3 v0")
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["BS1 SPD 0 T0 T0 HOLD"])
    assert events_of(battle, ev.StoppedShort) == []
    assert battle.ships["A1"].y == 60


# --- FPF-MOV-09: wingmen -------------------------------------------------------------------------


@pytest.mark.rule("FPF-MOV-09")
def test_wingmen_end_on_the_leaders_path() -> None:
    """After two port turns the wingmen sit 6 and 12 cm back along the leader's last leg."""
    battle = sandbox([["reliant", "reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v30; B1 170,110 h3 v0")
    assert (battle.ships["A2"].y, battle.ships["A3"].y) == (34, 28)  # column behind
    fight(battle, ["AS1 SPD 30 T+1 T+1 HOLD"])
    leader = battle.ships["A1"]
    for sid, back in (("A2", 6), ("A3", 12)):
        ship = battle.ships[sid]
        assert ship.heading == 2
        # heading 2 points down-left, so "back along it" is up-right
        assert (ship.x, ship.y) == pytest.approx((leader.x + back * R3, leader.y + back / 2))


@pytest.mark.rule("FPF-MOV-09")
def test_no_wingman_moves_farther_than_its_leader() -> None:
    battle = sandbox([["reliant", "reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v30; B1 170,110 h3 v0")
    fight(battle, ["AS1 SPD 30 T-1 T+1 HOLD"])
    lead = moved(battle, "A1")[0]
    for sid in ("A2", "A3"):
        (wing,) = moved(battle, sid)
        (x0, y0), (x1, y1) = wing.path[0], wing.path[-1]
        assert wing.distance <= lead.distance == 30
        assert math.hypot(x1 - x0, y1 - y0) <= lead.distance


@pytest.mark.rule("FPF-MOV-09")
def test_wingman_beyond_its_leader_is_refused() -> None:
    """The legality check names the clause when a wingman is given more than the leader."""
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]])
    wingman = battle.ships["A2"]
    with pytest.raises(IllegalOrderError, match=r"farther than its leader's 20 cm \(FPF-MOV-09\)"):
        verify_maneuver(battle, [wingman], Maneuver(25), 20, "A2")
    verify_maneuver(battle, [wingman], Maneuver(20), 20, "A2")  # equal is fine


@pytest.mark.rule("FPF-MOV-09")
def test_wingman_stops_short_of_a_ship_on_its_place() -> None:
    """A wingman whose place on the trail is taken falls back along the path, moving less."""
    battle = sandbox([["reliant", "reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=20)
    place(battle, "B1", 90, 54, 3, speed=0)  # right where A2 would end (60 - 6)
    fight(battle, ["AS1 SPD 20 T0 T0 HOLD"], ["BS1 SPD 0 T0 T0 HOLD"])
    a2 = battle.ships["A2"]
    assert math.hypot(a2.x - 90, a2.y - 54) >= 5.0
    (wing,) = moved(battle, "A2")
    assert wing.distance < 20


# --- FPF-MOV-11: engine power ------------------------------------------------------------------


@pytest.mark.rule("FPF-MOV-11")
def test_worked_example_charger_power_16_from_20() -> None:
    """Power 16 at 20 cm last turn: any speed from 4 to 36 cm."""
    battle = one_on_one("charger")
    place(battle, "A1", 90, 20, 0, speed=20)
    assert speed_limits(battle, battle.ships["A1"]) == (4, 36)


@pytest.mark.rule("FPF-MOV-11")
@pytest.mark.parametrize("speed", [3, 37])
def test_charger_cannot_change_speed_beyond_its_power(speed: int) -> None:
    battle = one_on_one("charger")
    place(battle, "A1", 90, 20, 0, speed=20)
    with pytest.raises(
        IllegalOrderError, match=rf"may move 4-36 cm.*not {speed} \(FPF-MOV-06, FPF-MOV-11\)"
    ):
        fight(battle, [f"AS1 SPD {speed} T0 T0 HOLD"])


@pytest.mark.rule("FPF-MOV-11")
@pytest.mark.parametrize("speed", [4, 36])
def test_charger_may_use_its_whole_power(speed: int) -> None:
    battle = one_on_one("charger")
    place(battle, "A1", 90, 20, 0, speed=20)
    fight(battle, [f"AS1 SPD {speed} T0 T0 HOLD"])
    assert battle.ships["A1"].y == 20 + speed
    assert battle.ships["A1"].speed == speed


@pytest.mark.rule("FPF-MOV-11")
def test_engine_damage_narrows_the_speed_range() -> None:
    """Engine hits lower Engine Power and with it the speed change a turn allows."""
    battle = one_on_one("charger")
    place(battle, "A1", 90, 20, 0, speed=20)
    apply_damage(battle, battle.ships["A1"], 6, 11, Arc.F, None, "photon")
    assert battle.ships["A1"].engine_power == 5
    assert speed_limits(battle, battle.ships["A1"]) == (15, 25)


@pytest.mark.rule("FPF-MOV-11")
def test_a_formation_is_held_to_its_weakest_engine() -> None:
    battle = sandbox([["charger", "charger"]], [["ktroika"]], turn_limit=1)
    place_all(battle, "A1 90,40 h0 v20; B1 170,110 h3 v0")
    apply_damage(battle, battle.ships["A2"], 5, 10, Arc.F, None, "photon")  # Power 16 -> 6
    assert formation_limits(battle, battle.squadrons["AS1"]) == (14, 26)
    with pytest.raises(IllegalOrderError, match=r"A2 .*may move 14-26 cm"):
        fight(battle, ["REPAIR NONE", "AS1 SPD 30 T0 T0 HOLD"])


# --- FPF-MOV-12: engines at 0 ------------------------------------------------------------------


def engines_out(battle: Battle, ship: str) -> None:
    """Knock the last point of Engine Power out (one point: the hull survives it)."""
    battle.ships[ship].engine_power = 1
    apply_damage(battle, battle.ships[ship], 5, 1, Arc.F, None, "phaser")


@pytest.mark.rule("FPF-MOV-12", "FPF-DMG-13")
def test_a_ship_without_engines_coasts_straight_on_every_turn() -> None:
    """A Bird of Prey (no damage control) with Power 0 drifts 20 cm a turn on its heading; its
    owner is never asked for a manoeuvre."""
    battle = sandbox([["bird-of-prey"]], [["ktroika"]], turn_limit=2)
    place_all(battle, "A1 90,20 h0 v20; B1 170,110 h3 v0")
    engines_out(battle, "A1")
    a1 = battle.ships["A1"]
    assert (a1.engine_power, a1.in_control) == (0, False)
    captain_a = Script(["AS1 SPD 20 T+1 T0 HOLD"])
    run(battle, {"A": captain_a, "B": Script([])})
    assert [(m.path[-1], m.heading, m.distance) for m in moved(battle, "A1")] == [
        ([90.0, 40.0], 0, 20),
        ([90.0, 60.0], 0, 20),
    ]
    assert not any(isinstance(d, OrdersDecision) for d in captain_a.seen)
    assert captain_a.orders  # the scripted manoeuvre was never used


@pytest.mark.rule("FPF-MOV-12", "FPF-REP-02")
def test_repaired_engines_bring_back_control_that_turn() -> None:
    battle = one_on_one("reliant")
    place(battle, "A1", 90, 20, 0, speed=20)
    engines_out(battle, "A1")
    # the ship left its formation when it lost control, so it now moves on its own (A1=...)
    fight(battle, ["REPAIR A1:engine_power", "AS1 A1=SPD 20 T+1 T0 HOLD"])
    a1 = battle.ships["A1"]
    assert (a1.engine_power, a1.in_control, a1.heading) == (16, True, 1)
    changes = [(e.ship, e.in_control) for e in events_of(battle, ev.ControlChanged)]
    assert changes == [("A1", False), ("A1", True)]


# --- FPF-MOV-13: pivot from standstill -----------------------------------------------------------


@pytest.mark.rule("FPF-MOV-13")
def test_worked_example_pivot_180_then_15_cm() -> None:
    """Stationary, Power 20: the about-turn costs 5 cm and leaves 15 cm to move."""
    battle = one_on_one("enterprise")
    place(battle, "A1", 90, 40, 0, speed=0)
    assert speed_limits(battle, battle.ships["A1"], pivot=True) == (0, 15)
    fight(battle, ["AS1 SPD 15 PIV+3 T0 HOLD"], ["BS1 SPD 0 T0 T0 HOLD"])
    a1 = battle.ships["A1"]
    assert a1.heading == 3
    assert (a1.x, a1.y) == pytest.approx((90.0, 25.0))
    assert a1.speed == 15


@pytest.mark.rule("FPF-MOV-13")
def test_pivot_in_place_to_any_facing() -> None:
    battle = one_on_one("enterprise")
    place(battle, "A1", 90, 40, 0, speed=0)
    fight(battle, ["AS1 SPD 0 PIV-2 T0 HOLD"], ["BS1 SPD 0 T0 T0 HOLD"])
    a1 = battle.ships["A1"]
    assert (a1.x, a1.y, a1.heading) == (90, 40, 4)


@pytest.mark.rule("FPF-MOV-13")
@pytest.mark.parametrize(
    ("speed", "power", "orders", "refusal"),
    [
        pytest.param(
            0,
            20,
            ["AS1 SPD 16 PIV+3 T0 HOLD"],
            r"may move 0-15 cm after the 5 cm pivot",
            id="a pivot leaves no more than power minus 5",
        ),
        pytest.param(
            10,
            20,
            ["AS1 SPD 10 PIV+3 T0 HOLD"],
            r"A1 moved \(FPF-MOV-13\)",
            id="only a ship at speed 0 may pivot",
        ),
        pytest.param(
            0,
            20,
            ["AS1 SPD 0 T+1 T0 HOLD"],
            r"turns only by pivoting.*\(FPF-MOV-13\)",
            id="a ship at speed 0 turns only by pivoting",
        ),
        pytest.param(
            0,
            4,
            ["REPAIR NONE", "AS1 SPD 0 PIV+1 T0 HOLD"],
            r"too little to pivot \(FPF-MOV-13\)",
            id="too little power to pivot",
        ),
    ],
)
def test_a_pivot_out_of_the_rules_is_refused(
    speed: int, power: int, orders: list[str], refusal: str
) -> None:
    """An Enterprise (Power 20) at (90, 40), the foe standing still far away."""
    battle = one_on_one("enterprise")
    place(battle, "A1", 90, 40, 0, speed=speed, engine_power=power)
    with pytest.raises(IllegalOrderError, match=refusal):
        fight(battle, orders, ["BS1 SPD 0 T0 T0 HOLD"])


# --- FPF-MOV-14: individual movement -------------------------------------------------------------


def individual() -> Battle:
    battle = sandbox(
        [["reliant", "reliant"]], [["ktroika"]], turn_limit=1, movement=Movement.INDIVIDUAL
    )
    place_all(battle, "A1 60,40 h0 v20; A2 120,40 h0 v20; B1 170,110 h3 v0")
    return battle


@pytest.mark.rule("FPF-MOV-14")
def test_individual_movement_gives_each_ship_its_own_manoeuvre() -> None:
    battle = individual()
    assert movers(battle, battle.squadrons["AS1"]) == ["A1", "A2"]
    fight(battle, ["AS1 A1=SPD 20 T+1 T0 A2=SPD 10 T0 T-1 HOLD"])
    a1, a2 = battle.ships["A1"], battle.ships["A2"]
    assert (a1.x, a1.y, a1.heading) == pytest.approx((60 - 20 * R3, 50.0, 1))
    assert (a2.x, a2.y, a2.heading) == pytest.approx((120 + 5 * R3, 47.5, 5))
    assert (a1.speed, a2.speed) == (20, 10)


@pytest.mark.rule("FPF-MOV-14")
def test_individual_movement_refuses_a_formation_order() -> None:
    battle = individual()
    with pytest.raises(IllegalOrderError, match=r"one manoeuvre for each of: A1, A2"):
        fight(battle, ["AS1 SPD 20 T0 T0 HOLD"])
