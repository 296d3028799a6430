"""Peak Performance: battle simulation mode and its scoring, clause by clause (PP-01..23)."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami import rules
from kolrami.captains.registry import make_captain
from kolrami.captains.scripted import ScriptedCaptain
from kolrami.catalog import Arc
from kolrami.engine.battle import Battle
from kolrami.engine.battle import ShipState
from kolrami.engine.chance import Dice
from kolrami.engine.driver import Game
from kolrami.engine.driver import play
from kolrami.engine.driver import run
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.fleet import load_fleet
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.module import Phase
from kolrami.rules.module import rules_of
from kolrami.rules.peak import SPOT_STEP_CM
from kolrami.rules.peak import return_problem
from kolrami.rules.peak import return_spots
from kolrami.rules.peak import return_zone
from kolrami.rules.sandbox import fleet_of
from kolrami.rules.sandbox import place
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Planet
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

PEAK = builtin_scenario("peak-performance")


def peak_sandbox(a: list[list[str]], b: list[list[str]], **kw: Any) -> Battle:
    return sandbox(a, b, rules=("battle-simulation",), **kw)


def destroy(battle: Battle, ship_id: str, by: str) -> None:
    """Deal enough damage to destroy a ship outright (location 5: engines)."""
    target = battle.ships[ship_id]
    apply_damage(battle, target, 5, target.superstructure, Arc.F, battle.ships[by], "photon")


def end_battle(battle: Battle) -> None:
    """Run the end-of-battle phase (the end bonus)."""
    rules_of(battle).run(Phase.END_OF_BATTLE, battle)


def awarded(battle: Battle) -> list[tuple[str, int, str]]:
    return [
        (e.side, e.points, e.reason)
        for e in battle.events()
        if isinstance(e, ev.FleetPointsAwarded)
    ]


@pytest.mark.rule("PP-01", "PP-02", "PP-23")
def test_scenario_puts_one_planet_at_the_exact_centre() -> None:
    planets = [t for t in PEAK.terrain if t.kind == "planet"]
    assert len(planets) == 1
    assert (planets[0].x, planets[0].y) == (PEAK.table_width_cm / 2, PEAK.table_height_cm / 2)
    assert PEAK.title == "Peak Performance"
    assert "battle-simulation" in PEAK.rules
    battle = new_battle(
        PEAK, (load_fleet("federation-cruisers"), load_fleet("klingon-wolfpack")), 1
    )
    # the standard set-up: A along the near edge, B along the far one, clear of the planet
    for ship in battle.ships.values():
        zone_a = ship.y <= PEAK.deployment_depth_cm
        zone_b = ship.y >= PEAK.table_height_cm - PEAK.deployment_depth_cm
        assert zone_a if ship.side == "A" else zone_b


@pytest.mark.rule("PP-03")
def test_the_planet_blocks_fire_and_stops_movement() -> None:
    planet = Planet(kind="planet", x=90, y=60, radius_cm=6)
    battle = peak_sandbox([["reliant"]], [["ktroika"]], terrain=(planet,), turn_limit=1)
    place(battle, "A1", 90, 45, 0, speed=20)  # 30 cm apart with the planet between them
    place(battle, "B1", 90, 75, 3, speed=10)
    captains = {
        "A": ScriptedCaptain(["AS1 SPD 20 T0 T0 FIRE A1:F@B1"]),
        "B": ScriptedCaptain(["BS1 SPD 10 T0 T0 HOLD"]),
    }
    run(battle, captains)
    stops = [e for e in battle.events() if isinstance(e, ev.StoppedShort)]
    assert [(e.ship, e.of) for e in stops] == [("A1", "planet"), ("B1", "planet")]
    a1, b1 = battle.ships["A1"], battle.ships["B1"]
    # stopped at the rim: planet radius plus a base radius from the centre
    assert a1.y == pytest.approx(60 - 6 - 2.5, abs=1e-3)
    assert b1.y == pytest.approx(60 + 6 + 2.5, abs=1e-3)
    # in range (17 cm) and arc all turn, but the planet is in the way: no volley at all
    assert not [e for e in battle.events() if isinstance(e, ev.VolleyFired)]


@pytest.mark.rule("PP-04", "PP-05", "PP-06", "PP-07", "PP-10", "PP-13")
def test_a_would_be_destruction_is_a_reset() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]])
    ship = battle.ships["A1"]
    ship.engine_power, ship.systems, ship.shields = 3, -2, 5
    kind = next(iter(ship.mounts))
    ship.mounts[kind] = (0, *ship.mounts[kind][1:])  # a knocked-out phaser bank
    destroy(battle, "A1", "B1")
    assert not ship.destroyed
    assert ship.out_of_play
    assert not ship.alive
    assert not ship.on_table
    assert ship.tokens == 1
    assert ship.superstructure == ship.cls.superstructure
    assert ship.engine_power == ship.cls.engine_power
    assert ship.systems == ship.cls.computer
    assert all(ship.mounts[k] == w.mounts for k, w in ship.cls.weapons())
    assert not [e for e in battle.events() if isinstance(e, ev.ShipDestroyed)]
    assert [e.ship for e in battle.events() if isinstance(e, ev.ShipReset)] == ["A1"]
    destroy_again = battle.ships["A1"]
    destroy_again.out_of_play = False
    destroy(battle, "A1", "B1")
    assert destroy_again.tokens == 2  # tokens accumulate (PP-10 example)


@pytest.mark.rule("PP-08", "PP-09", "PP-14")
def test_cards_discarded_taken_or_gained_do_not_come_back() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]])
    a1, b1 = battle.ships["A1"], battle.ships["B1"]
    a1.start_cards = ("cpt-one", "tech-two", "weapon-three")
    a1.cards = list(a1.start_cards)
    b1.start_cards = ("crew-four",)
    b1.cards = list(b1.start_cards)
    battle.discard_card(a1, "tech-two")  # discarded: gone for good (PP-08)
    battle.take_card(b1, a1, "weapon-three")  # stolen: stays with the thief (PP-14)
    a1.cards.append("crew-four-copy")  # picked up in play (PP-09)
    destroy(battle, "A1", "B1")
    assert a1.cards == ["cpt-one"]
    assert "weapon-three" in b1.cards
    destroy(battle, "B1", "A1")
    assert b1.cards == ["crew-four"]  # a card it did not start with leaves the game (PP-09)


@pytest.mark.rule("PP-11", "PP-12", "PP-13")
def test_returns_next_turn_in_its_zone_with_weaker_shields() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]], turn_limit=2)
    game = play(battle)
    decision = next(game)
    destroy(battle, "A1", "B1")
    seen: list[object] = []
    order_for_a = ReturnOrder("A1", 40.0, 12.0, 0)
    captain = ScriptedCaptain([order_for_a])
    passive = ScriptedCaptain([])
    from kolrami.captains.base import BattleView

    try:
        while True:
            seen.append(decision)
            if isinstance(decision, ReturnDecision):
                # the decision lists legal spots (a 2 cm grid); any legal point may be chosen
                assert decision.spots
                assert all(rules.can(battle, ReturnOrder("A1", x, y, 0)) for x, y in decision.spots)
            who = captain if decision.side == "A" else passive
            decision = game.send(who.decide(BattleView(battle, decision.side), decision))
    except StopIteration:
        pass
    returns = [d for d in seen if isinstance(d, ReturnDecision)]
    assert [(d.side, d.ship) for d in returns] == [("A", "A1")]
    back = [e for e in battle.events() if isinstance(e, ev.ShipReturned)]
    assert len(back) == 1
    assert (back[0].x, back[0].y, back[0].heading) == (40.0, 12.0, 0)
    assert back[0].shields == 14 - 1  # starting value minus one per token (PP-12)
    a1 = battle.ships["A1"]
    assert a1.alive
    assert a1.superstructure == 22


@pytest.mark.rule("PP-12")
def test_returning_shields_never_go_below_zero() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]])
    battle.ships["A1"].tokens = 20
    destroy(battle, "A1", "B1")
    assert battle.ships["A1"].shields == 0


@pytest.mark.rule("PP-11")
def test_return_spot_must_be_in_zone_and_beyond_range_1() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika", "ktroika"]])
    destroy(battle, "A1", "B1")
    a1 = battle.ships["A1"]
    place(battle, "B2", 50, 10, 3)
    assert return_problem(battle, a1, 50, 60) is not None  # outside the zone
    problem = return_problem(battle, a1, 55, 10)
    assert problem is not None
    assert "Range 1" in problem
    assert return_problem(battle, a1, 61, 10) is None  # just over 10 cm away
    spots = return_spots(battle, a1)
    assert spots
    assert all((x - 50) ** 2 + (y - 10) ** 2 > 100 for x, y in spots)


def next_decision(game: Game, order: Order) -> Decision | None:
    """The decision after `order`, None once the battle is over."""
    try:
        return game.send(order)
    except StopIteration:
        return None


def every_spot_passed(battle: Battle, ship: ShipState) -> list[tuple[float, float]]:
    """The definition of the return spots: each point of the zone's 2 cm grid, a base radius
    in from its edges, that `return_problem` passes for `ship`, in rows from the zone's foot."""
    x0, y0, x1, y1 = return_zone(battle, ship.side)
    r = battle.scenario.base_radius_cm
    spots = []
    y = y0 + r
    while y <= y1 - r + 1e-9:
        x = x0 + r
        while x <= x1 - r + 1e-9:
            if return_problem(battle, ship, x, y) is None:
                spots.append((x, y))
            x += SPOT_STEP_CM
        y += SPOT_STEP_CM
    return spots


@pytest.mark.rule("PP-11")
def test_the_return_spots_are_the_grid_spots_return_problem_passes() -> None:
    # ships in both zones, on a row's line, at Range 1 exactly from a grid spot, just beyond
    # the zone's edge, and a planet reaching into a zone: the same spots, the same floats
    planet = Planet(kind="planet", x=150, y=8, radius_cm=5)
    battle = peak_sandbox(
        [["reliant", "reliant", "reliant"]],
        [["ktroika", "ktroika", "ktroika"]],
        terrain=(planet,),
    )
    for ship_id, x, y in (
        ("A2", 40.0, 12.5),  # on a grid row of A's zone
        ("A3", 100.0, 30.0),  # beyond A's zone, Range 1 reaching into it
        ("B1", 20.5, 2.5),  # in A's zone: a grid spot exactly 10 cm away (30.5, 2.5)
        ("B2", 60.0, 110.0),
        ("B3", 171.0, 95.0),
    ):
        place(battle, ship_id, x, y, 0)
    for ship_id in ("A1", "B1"):  # each side's spots for a ship in play: itself left out
        ship = battle.ships[ship_id]
        expected = every_spot_passed(battle, ship)
        assert return_spots(battle, ship) == expected
        assert 0 < len(expected) < 700
    # and through a whole battle: every return's spots as the definition has them
    battle = new_battle(PEAK, (load_fleet("presets:klingon-wolfpack"),) * 2, 4)
    checked = 0
    game = play(battle)
    captain = make_captain("aggressive", Dice(0))
    views = {side: battle.rules.view(battle, side) for side in "AB"}
    decision: Decision | None = next(game)
    while decision is not None:
        if isinstance(decision, ReturnDecision):
            ship = battle.ships[decision.ship]
            assert list(decision.spots) == every_spot_passed(battle, ship)
            checked += 1
        decision = next_decision(game, captain.decide(views[decision.side], decision))
    assert checked >= 3


@pytest.mark.rule("PP-11")
def test_no_legal_spot_postpones_the_return() -> None:
    battle = peak_sandbox(
        [["reliant"]],
        [["ktroika"]],
        table_width_cm=20,
        table_height_cm=60,
        deployment_depth_cm=12,
        turn_limit=2,
        start_speed_cm=0,
    )
    place(battle, "B1", 10, 6, 3, speed=0)  # squats in the middle of A's small zone
    destroy(battle, "A1", "B1")
    assert return_spots(battle, battle.ships["A1"]) == []
    run(battle, {"A": ScriptedCaptain([]), "B": ScriptedCaptain(["BS1 SPD 0 T0 T0 HOLD"] * 2)})
    postponed = [e.ship for e in battle.events() if isinstance(e, ev.ReturnPostponed)]
    assert postponed == ["A1", "A1"]
    assert battle.ships["A1"].out_of_play


@pytest.mark.rule("PP-11")
def test_an_illegal_return_is_refused() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]], turn_limit=2)
    destroy(battle, "A1", "B1")
    captains = {"A": ScriptedCaptain(["RETURN A1 90.0 60.0 H0"]), "B": ScriptedCaptain([])}
    with pytest.raises(IllegalOrderError, match=r"A1 cannot return there: .* outside .*\(PP-11\)"):
        run(battle, captains)


@pytest.mark.rule("PP-15", "PP-16")
def test_worked_example_a_47_point_ship() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]])
    battle.ships["A1"].points = 47  # ship card plus captain, admiral, upgrades, resources
    destroy(battle, "A1", "B1")
    assert awarded(battle) == [("B", 47, "kill")]
    assert battle.fleet_points == {"A": 0, "B": 47}


@pytest.mark.rule("PP-17", "PP-21")
def test_worked_example_three_resets_and_the_bonus() -> None:
    battle = peak_sandbox([["reliant"]], [["ktroika"]])
    battle.ships["A1"].points = 47
    for _ in range(3):
        battle.ships["A1"].out_of_play = False
        destroy(battle, "A1", "B1")
    assert battle.fleet_points["B"] == 141
    end_battle(battle)
    assert battle.fleet_points["B"] == 156


@pytest.mark.rule("PP-18", "PP-19")
def test_worked_example_the_reinforcements_sideboard() -> None:
    fleets = (fleet_of([["reliant", "reliant", "charger"]]), fleet_of([["ktroika"]]))
    a = fleets[0].model_copy(update={"resource": "reinforcements-sideboard"})
    battle = new_battle(
        builtin_scenario("standard").model_copy(update={"rules": ("battle-simulation",)}),
        (a, fleets[1]),
        1,
    )
    battle.ships["A1"].tokens = battle.ships["A2"].tokens = 1
    destroy(battle, "A3", "B1")
    assert awarded(battle) == [("B", 70, "kill"), ("B", 10, "resource")]
    battle.ships["A3"].out_of_play = False
    destroy(battle, "A3", "B1")  # once per battle by default (PP-19)
    assert awarded(battle)[-1] == ("B", 70, "kill")
    assert battle.resource_scored["A"] is True


@pytest.mark.rule("PP-19")
def test_resource_repeat_option() -> None:
    fleets = (
        fleet_of([["reliant"]]).model_copy(update={"resource": "reinforcements-sideboard"}),
        fleet_of([["ktroika"]]),
    )
    sc = builtin_scenario("standard").model_copy(
        update={"rules": ("battle-simulation",), "resource_repeat": True}
    )
    battle = new_battle(sc, fleets, 1)
    for _ in range(2):
        battle.ships["A1"].out_of_play = False
        destroy(battle, "A1", "B1")
    assert [r for _, _, r in awarded(battle)] == ["kill", "resource", "kill", "resource"]


@pytest.mark.rule("PP-20")
def test_only_the_turn_limit_ends_the_battle() -> None:
    battle = peak_sandbox([["bird-of-prey"]], [["enterprise"]], turn_limit=3)
    destroy(battle, "A1", "B1")  # side A has nothing in play
    assert not battle.over()
    played = simulate(
        PEAK,
        (fleet_of([["bird-of-prey"]]), fleet_of([["enterprise"]])),
        ("aggressive", "aggressive"),
        5,
    )
    assert played.result is not None
    assert played.result.turns == PEAK.turn_limit


@pytest.mark.rule("PP-21")
def test_worked_example_end_bonus_counts_opponent_tokens() -> None:
    battle = peak_sandbox([["ktroika"]], [["reliant", "reliant", "charger"]])
    for sid, tokens in (("B1", 2), ("B2", 1), ("B3", 0)):
        battle.ships[sid].tokens = tokens
    end_battle(battle)
    assert battle.fleet_points["A"] == 15
    assert battle.fleet_points["B"] == 0


@pytest.mark.rule("PP-22")
def test_worked_example_the_bonus_counts_before_the_winner() -> None:
    battle = peak_sandbox([["ktroika"]], [["reliant"]])
    battle.fleet_points.update({"A": 94, "B": 90})
    battle.ships["B1"].tokens = 2  # A's bonus: 10
    battle.ships["A1"].tokens = 3  # B's bonus: 15
    end_battle(battle)
    assert battle.fleet_points == {"A": 104, "B": 105}
    assert battle.rules.result(battle)[0] == "B"


@pytest.mark.rule("PP-22", "OP-24")
def test_a_tie_goes_to_the_roll_off() -> None:
    battle = peak_sandbox([["ktroika"]], [["reliant"]], seed=8)
    battle.fleet_points.update({"A": 50, "B": 50})
    winner, reason = battle.rules.result(battle)
    rolloffs = [e for e in battle.events() if isinstance(e, ev.RollOff)]
    assert len(rolloffs) == 1
    assert rolloffs[0].winner == winner
    assert "roll-off" in reason
    for throw in rolloffs[0].rolls:
        assert all(len(faces) == 5 for faces in throw.values())
