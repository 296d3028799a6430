"""The FPF turn and initiative, clause by clause (FPF-TURN-01..04, FPF-MOV-01..05, -10)."""

from __future__ import annotations

import pytest
from fpf_kit import Script
from fpf_kit import SteadyCaptain
from fpf_kit import activations
from fpf_kit import events_of
from fpf_kit import fight
from fpf_kit import load
from fpf_kit import moved

from kolrami.captains.scripted import ScriptedCaptain
from kolrami.catalog import Arc
from kolrami.catalog.loader import fpf_pack
from kolrami.engine.battle import Battle
from kolrami.engine.driver import run
from kolrami.engine.geometry import distance
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.movement import MAX_SPEED
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox

# --- FPF-TURN ------------------------------------------------------------------------------------


@pytest.mark.rule("FPF-TURN-01", "FPF-FIRE-15")
@pytest.mark.parametrize(("gap", "weapons"), [(24.0, ["phaser"]), (16.0, ["phaser", "photon"])])
def test_ranges_are_measured_spigot_to_spigot(gap: float, weapons: list[str]) -> None:
    """A Reliant's 24 cm phasers reach a target whose centre is exactly 24 cm away; its 16 cm
    photons do not, until the centres are 16 cm apart. No base radius is added."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90, 40 + gap, 3, speed=0)
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1"], ["BS1 SPD 0 T0 T0 HOLD"])
    fired = events_of(battle, ev.VolleyFired)
    assert [v.weapon for v in fired] == weapons
    assert {v.range_cm for v in fired} == {gap}
    assert distance(90, 40, 90, 40 + gap) == gap


@pytest.mark.rule("FPF-TURN-01", "FPF-FIRE-15")
def test_a_target_just_beyond_range_is_not_fired_on() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 40, 0, speed=5)
    place(battle, "B1", 90 + 14.5, 40 + 20, 3, speed=0)  # 24.7 cm away, half a base too far
    fight(battle, ["AS1 SPD 0 T0 T0 FIRE A1:F@B1"], ["BS1 SPD 0 T0 T0 HOLD"])
    assert events_of(battle, ev.VolleyFired) == []


@pytest.mark.rule("FPF-TURN-02", "FPF-REP-02")
def test_a_turn_runs_repairs_then_initiative() -> None:
    """Each turn: damage control for every side first, then squadrons activate."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=2)
    place(battle, "A1", 60, 20, 0, speed=10)
    place(battle, "B1", 120, 100, 3, speed=10)
    apply_damage(battle, battle.ships["A1"], 1, 3, Arc.F, None, "photon")
    apply_damage(battle, battle.ships["B1"], 8, 2, Arc.F, None, "phaser")
    fight(battle)
    kinds = [
        type(e).__name__
        for e in battle.events()
        if isinstance(e, ev.TurnStarted | ev.Repaired | ev.SquadronActivated | ev.TurnEnded)
    ]
    assert kinds == [
        "TurnStarted",
        "Repaired",  # A1's shields
        "Repaired",  # B1's phaser mount
        "SquadronActivated",
        "SquadronActivated",
        "TurnEnded",
        "TurnStarted",  # nothing left to repair
        "SquadronActivated",
        "SquadronActivated",
        "TurnEnded",
    ]


@pytest.mark.rule("FPF-TURN-03", "FPF-MOV-05")
def test_this_turns_speed_is_next_turns_initiative() -> None:
    """A speeds up from 20 to 30, B slows from 25 to 10: B leads turn 1, A leads turn 2."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=2)
    place(battle, "A1", 60, 10, 0, speed=20)
    place(battle, "B1", 120, 110, 3, speed=25)
    fight(battle, ["AS1 SPD 30 T0 T0 HOLD"], ["BS1 SPD 10 T0 T0 HOLD"])
    assert activations(battle) == ["BS1", "AS1", "AS1", "BS1"]
    a1, b1 = battle.ships["A1"], battle.ships["B1"]
    assert (a1.last_speed, b1.last_speed) == (30, 10)
    # the fallback captain holds the new speed in turn 2
    assert [m.distance for m in moved(battle, "A1")] == [30, 30]
    assert (a1.y, b1.y) == (70, 90)


@pytest.mark.rule("FPF-TURN-04")
def test_ships_move_farther_than_they_shoot() -> None:
    """Design scale of the sheets: every weapon reaches 12-24 cm, every ship may move 40."""
    ranges = set()
    for cls in fpf_pack().ships:  # the seeds' sheets (the house bases do not move)
        for _, weapon in cls.weapons():
            ranges.add(weapon.range_cm)
        assert cls.max_speed_cm == MAX_SPEED == 40
    assert min(ranges) == 12
    assert max(ranges) == 24 < MAX_SPEED


# --- FPF-MOV-01, -02, -04: activation order ------------------------------------------------------


def line_up(battle: Battle, speeds: dict[str, int]) -> None:
    """Leaders of A along y=20 heading up, of B along y=100 heading down, 30 cm apart."""
    for i, (ship, speed) in enumerate(speeds.items()):
        if ship.startswith("A"):
            place(battle, ship, 30 + 30 * i, 20, 0, speed=speed)
        else:
            place(battle, ship, 30 + 30 * i, 100, 3, speed=speed)


@pytest.mark.rule("FPF-MOV-01")
def test_ships_move_only_in_their_squadrons_activation() -> None:
    battle = sandbox([["reliant"] * 3, ["charger"]], [["ktroika"] * 2], turn_limit=1)
    line_up(battle, {"A1": 20, "A4": 15, "B1": 10})
    fight(battle)
    owner = {s.id: s.squadron for s in battle.ships.values()}
    active = None
    seen: dict[str, list[str]] = {}
    for e in battle.events():
        if isinstance(e, ev.SquadronActivated):
            active = e.squadron
        elif isinstance(e, ev.ShipMoved):
            assert owner[e.ship] == active, f"{e.ship} moved while {active} was active"
            seen.setdefault(owner[e.ship], []).append(e.ship)
    assert seen == {"AS1": ["A1", "A2", "A3"], "AS2": ["A4"], "BS1": ["B1", "B2"]}


@pytest.mark.rule("FPF-MOV-02")
def test_squadrons_activate_fastest_first_by_last_turns_speed() -> None:
    battle = sandbox([["reliant"], ["reliant"]], [["ktroika"]], turn_limit=1)
    line_up(battle, {"A1": 10, "A2": 30, "B1": 20})
    fight(battle, ["AS2 SPD 25 T0 T0 HOLD"])
    assert activations(battle) == ["AS2", "BS1", "AS1"]
    assert events_of(battle, ev.InitiativeRolled) == []


@pytest.mark.rule("FPF-MOV-02")
def test_a_squadron_moves_exactly_its_speed() -> None:
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    line_up(battle, {"A1": 30, "B1": 20})
    fight(battle, ["AS1 SPD 25 T0 T0 HOLD"], ["BS1 SPD 17 T0 T0 HOLD"])
    assert [(m.ship, m.distance) for m in events_of(battle, ev.ShipMoved)] == [
        ("A1", 25),
        ("B1", 17),
    ]
    assert (battle.ships["A1"].y, battle.ships["B1"].y) == (45, 83)


@pytest.mark.rule("FPF-MOV-02")
def test_only_a_squadron_at_the_current_speed_may_activate() -> None:
    battle = sandbox([["reliant"], ["reliant"]], [["ktroika"]], turn_limit=1)
    line_up(battle, {"A1": 10, "A2": 30, "B1": 20})
    eager = ScriptedCaptain(["ACT AS1"], SteadyCaptain())  # answers the first decision it gets
    with pytest.raises(IllegalOrderError, match=r"A must activate one of AS2 \(FPF-MOV-02\)"):
        run(battle, {"A": eager, "B": Script([])})


@pytest.mark.rule("FPF-MOV-04")
def test_a_side_faster_throughout_moves_all_its_squadrons_first() -> None:
    battle = sandbox([["reliant"], ["reliant"]], [["ktroika"], ["ktroika"]], turn_limit=1)
    line_up(battle, {"A1": 25, "A2": 30, "B1": 20, "B2": 15})
    fight(battle)
    assert activations(battle) == ["AS2", "AS1", "BS1", "BS2"]
    assert events_of(battle, ev.InitiativeRolled) == []
    assert battle.dice.rolls == 0  # no roll-off was needed


# --- FPF-MOV-03: equal speeds --------------------------------------------------------------------


def example_fleets() -> Battle:
    """The catalogue's example: Federation squadrons at 30, 30, 20; Klingons at 30, 10."""
    battle = sandbox(
        [["reliant"], ["reliant"], ["reliant"]], [["ktroika"], ["ktroika"]], turn_limit=1
    )
    line_up(battle, {"A1": 30, "A2": 30, "A3": 20, "B1": 30, "B2": 10})
    return battle


@pytest.mark.rule("FPF-MOV-03")
def test_worked_example_fed_wins_the_roll_off_and_goes_first() -> None:
    battle = example_fleets()
    load(battle, [7, 3])  # Federation (A) rolls 7, Klingons 3
    fight(battle, ["FIRST"])
    assert activations(battle) == ["AS1", "BS1", "AS2", "AS3", "BS2"]
    (roll,) = events_of(battle, ev.InitiativeRolled)
    assert (roll.speed, roll.rolls, roll.winner, roll.first) == (30, [[7, 3]], "A", "A")


@pytest.mark.rule("FPF-MOV-03")
def test_the_roll_off_winner_may_choose_to_go_second() -> None:
    battle = example_fleets()
    load(battle, [2, 9])  # the Klingons win and let the Federation move first
    fight(battle, [], ["SECOND"])
    assert activations(battle) == ["AS1", "BS1", "AS2", "AS3", "BS2"]
    (roll,) = events_of(battle, ev.InitiativeRolled)
    assert (roll.winner, roll.first) == ("B", "A")


@pytest.mark.rule("FPF-MOV-03")
def test_roll_off_winner_going_first_alternates_from_its_side() -> None:
    battle = example_fleets()
    load(battle, [2, 9])
    fight(battle, ["ACT AS2"], ["FIRST"])
    assert activations(battle) == ["BS1", "AS2", "AS1", "AS3", "BS2"]


@pytest.mark.rule("FPF-MOV-03")
def test_tied_roll_offs_are_rolled_again() -> None:
    battle = example_fleets()
    load(battle, [4, 4, 6, 6, 8, 5])
    fight(battle, ["FIRST"])
    (roll,) = events_of(battle, ev.InitiativeRolled)
    assert (roll.rolls, roll.winner) == ([[4, 4], [6, 6], [8, 5]], "A")


@pytest.mark.rule("FPF-MOV-03")
def test_only_the_winner_is_asked_first_or_second() -> None:
    battle = example_fleets()
    load(battle, [7, 3])
    a, b = Script(["SECOND"]), Script([])
    run(battle, {"A": a, "B": b})
    assert activations(battle) == ["BS1", "AS1", "AS2", "AS3", "BS2"]
    assert [type(d).__name__ for d in b.seen].count("InitiativeDecision") == 0


# --- FPF-MOV-10: forced activation ---------------------------------------------------------------


def pursuit(prey_heading: int, pursuer_heading: int = 0) -> Battle:
    """A1 (faster) sits 20 cm behind B1; both squadrons alone on the table."""
    battle = sandbox([["reliant"]], [["ktroika"]], turn_limit=1)
    place(battle, "A1", 90, 40, pursuer_heading, speed=30)
    place(battle, "B1", 90, 60, prey_heading, speed=20)
    return battle


@pytest.mark.rule("FPF-MOV-10")
def test_pursuer_forces_the_prey_to_move_first() -> None:
    battle = pursuit(prey_heading=0)
    a = Script(["ACT AS1 FORCE BS1", "AS1 SPD 30 T0 T0 HOLD"])
    run(battle, {"A": a, "B": Script(["BS1 SPD 20 T+1 T0 HOLD"])})
    first = next(d for d in a.seen if isinstance(d, ActivationDecision))
    assert first.forcible == (("AS1", ("BS1",)),)
    assert activations(battle) == ["BS1", "AS1"]
    forced = events_of(battle, ev.SquadronActivated)[0]
    assert (forced.squadron, forced.forced_by) == ("BS1", "AS1")
    # the prey's move is already on the table when the pursuer moves
    order = [e.ship for e in events_of(battle, ev.ShipMoved)]
    assert order == ["B1", "A1"]


@pytest.mark.rule("FPF-MOV-10")
def test_without_forcing_the_faster_pursuer_moves_first() -> None:
    battle = pursuit(prey_heading=0)
    fight(battle)
    assert activations(battle) == ["AS1", "BS1"]


@pytest.mark.rule("FPF-MOV-10")
@pytest.mark.parametrize(
    ("prey_heading", "pursuer_heading"),
    [(3, 0), (0, 3)],
    ids=["head-on: pursuer not in the prey's rear arc", "pursuer facing away from the prey"],
)
def test_no_forcing_without_a_pursuit(prey_heading: int, pursuer_heading: int) -> None:
    battle = pursuit(prey_heading, pursuer_heading)
    with pytest.raises(IllegalOrderError, match=r"cannot force BS1 .*\(FPF-MOV-10\)"):
        fight(battle, ["ACT AS1 FORCE BS1"])
