"""The advanced turn (ADV-SEQ-01..05) and how a scenario chooses its turn driver."""

from __future__ import annotations

import pytest
from adv_kit import battle
from adv_kit import drive
from adv_kit import events_of
from adv_kit import table

from kolrami.captains.base import BattleView
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.binder import Module
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import orders as ao
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import allowance
from kolrami.rules.advanced.state import state_of
from kolrami.rules.sandbox import sandbox
from kolrami.scenarios.models import Scenario
from kolrami.scenarios.models import builtin_scenario
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate


def _short(b: Battle, turns: int = 1) -> Battle:
    b.scenario = b.scenario.model_copy(update={"turn_limit": turns})
    return b


@pytest.mark.rule("ADV-SEQ-01", "ADV-SEQ-02")
def test_a_game_turn_runs_its_steps_in_order_then_five_phases() -> None:
    b = _short(battle(["reliant", "charger"], ["ktroika", "sting"], seed=4))
    asked = drive(b)
    kinds = [type(d) for d in asked]
    first_phase = kinds.index(ao.MoveDecision)
    assert set(kinds[:first_phase]) == {ao.BonusDecision, ao.LockDecision, ao.PowerDecision}
    order: list[type[Decision]] = [ao.BonusDecision, ao.LockDecision, ao.PowerDecision]
    assert [k for k in kinds[:first_phase] if k in order] == sorted(
        kinds[:first_phase], key=order.index
    )
    phases = [e for e in b.events() if isinstance(e, ae.PhaseStarted)]
    assert [(e.turn, e.phase) for e in phases] == [(1, p) for p in range(1, PHASES + 1)]
    names = [type(e).__name__ for e in b.events()]
    assert names.index("TacticalAdvantage") < names.index("BonusRolled")
    assert names.index("BonusRolled") < names.index("SensorLock") < names.index("PowerAllocated")
    assert names.index("PowerAllocated") < names.index("PhaseStarted")
    # in each phase: movement, then fire, then redistribution
    for p in range(1, PHASES + 1):
        block = [d for d in asked if getattr(d, "phase", 0) == p]
        seen = [type(d) for d in block]
        if ao.AttackDecision in seen and ao.MoveDecision in seen:
            assert max(i for i, k in enumerate(seen) if k is ao.MoveDecision) < seen.index(
                ao.AttackDecision
            )
        if ao.ShieldDecision in seen and ao.AttackDecision in seen:
            assert seen.index(ao.ShieldDecision) > seen.index(ao.AttackDecision)


@pytest.mark.rule("ADV-SEQ-01", "ADV-SEQ-04")
def test_the_side_without_tactical_advantage_answers_first() -> None:
    b = _short(battle(["reliant"], ["ktroika"], seed=8))
    asked = drive(b)
    tac = events_of(b, ae.TacticalAdvantage)[0].winner
    for kind in (ao.BonusDecision, ao.LockDecision, ao.PowerDecision):
        sides = [d.side for d in asked if isinstance(d, kind)]
        assert sides[-1] == tac
        assert sides[0] != tac


@pytest.mark.rule("ADV-SEQ-03")
def test_fewest_movement_points_move_first_and_tactical_advantage_last_on_ties() -> None:
    b = _short(battle(["reliant", "reliant"], ["ktroika", "ktroika"], seed=2))
    moves = {"A1": 5, "A2": 10, "B1": 5, "B2": 3}

    def answer(view: BattleView, d: ao.AdvancedDecision) -> Order | None:
        if isinstance(d, ao.PowerDecision):
            return ao.PowerOrder(
                tuple(ao.PowerPlan(s, moves[s], True, (0, 0, 0, 0)) for s in d.ships)
            )
        if isinstance(d, ao.MoveDecision):
            return ao.MoveOrder(d.ship, 0)
        return None

    asked = drive(b, answer)
    tac = events_of(b, ae.TacticalAdvantage)[0].winner
    first = [d.ship for d in asked if isinstance(d, ao.MoveDecision) and d.phase == PHASES]
    ties = ["A1", "B1"] if tac == "B" else ["B1", "A1"]
    assert first == ["B2", *ties, "A2"]


@pytest.mark.rule("ADV-SEQ-02")
def test_a_turn_s_movement_is_spread_over_the_five_phases() -> None:
    _, state = table(["reliant"], ["ktroika"])
    adv = state.of("A1")
    adv.moves = 7
    shares = []
    for phase in range(1, PHASES + 1):
        shares.append(allowance(adv, phase))
        adv.moved += shares[-1]
    assert shares == [1, 1, 2, 1, 2]
    assert sum(shares) == 7


def test_a_move_beyond_the_phase_s_allowance_is_refused() -> None:
    b = _short(battle(["reliant"], ["ktroika"], seed=3))

    def answer(view: BattleView, d: ao.AdvancedDecision) -> Order | None:
        if isinstance(d, ao.MoveDecision):
            return ao.MoveOrder(d.ship, d.hexes + 1)
        return None

    with pytest.raises(IllegalOrderError, match="may move"):
        drive(b, answer)


@pytest.mark.rule("ADV-SEQ-05")
def test_redistribution_is_offered_after_every_firing_phase() -> None:
    b = _short(battle(["reliant"], ["ktroika"], seed=5))
    asked = drive(b)
    offered = {d.phase for d in asked if isinstance(d, ao.ShieldDecision)}
    assert offered == set(range(1, PHASES + 1))


# --- choosing the driver ------------------------------------------------------------------------


def driver_module(b: Battle) -> str:
    """The module that plays the battle's turns (its turn driver)."""
    owner = b.rules.provider(Module.opening)
    assert owner is not None
    return owner.name


def test_the_scenario_chooses_the_driver_and_fpf_is_the_default() -> None:
    assert builtin_scenario("standard").driver == "fpf"
    assert builtin_scenario("advanced").driver == "advanced"
    fpf = sandbox([["reliant"]], [["ktroika"]])
    assert driver_module(fpf) == "fpf-turn"
    assert driver_module(battle(["reliant"], ["ktroika"])) == "advanced"


def test_an_advanced_module_brings_its_driver_to_any_scenario() -> None:
    b = sandbox([["reliant"]], [["ktroika"]], rules=("advanced",))
    assert driver_module(b) == "advanced"
    b2 = sandbox([["reliant"]], [["ktroika"]], rules=("adv-shield-reinforcement",))
    assert driver_module(b2) == "advanced"


def test_an_unknown_driver_is_named() -> None:
    sc = builtin_scenario("standard").model_copy(update={"driver": "advnced"})
    fleets = (load_fleet("presets:klingon-strike"), load_fleet("presets:klingon-strike"))
    with pytest.raises(UnknownNameError, match="did you mean 'advanced'"):
        new_battle(sc, fleets, 1)


def test_fpf_scenarios_dump_as_before_and_advanced_fields_round_trip() -> None:
    standard = builtin_scenario("standard").model_dump(mode="json")
    assert "driver" not in standard
    assert "hex_cm" not in standard
    advanced = builtin_scenario("advanced")
    dumped = advanced.model_dump(mode="json")
    assert dumped["driver"] == "advanced"
    assert Scenario.model_validate(dumped) == advanced
    with pytest.raises(ValueError, match="hex_cm"):
        Scenario.model_validate({"name": "x", "hex_cm": 0})
    assert load_scenario("advanced") is advanced


def test_an_advanced_battle_plays_to_its_end_with_every_captain() -> None:
    sc = builtin_scenario("advanced").model_copy(update={"turn_limit": 3})
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    for captains in (("random", "random"), ("aggressive", "kiting"), ("kiting", "random")):
        b = simulate(sc, fleets, captains, 12)
        assert b.result is not None
        assert b.result.turns <= 3
        assert isinstance(list(b.events())[-1], ev.BattleEnded)
        assert state_of(b).ships.keys() == b.ships.keys()


@pytest.mark.parametrize("module", ["micro-warp-jump", "battle-simulation", "nebula-fire"])
def test_fpf_options_the_advanced_game_would_ignore_are_refused(module: str) -> None:
    b = battle(["reliant"], ["ktroika"], rules=(module,))
    with pytest.raises(InvalidInputError, match=f"'{module}' belongs to FPF's turn"):
        drive(b)


def test_derelicts_still_apply_in_the_advanced_game() -> None:
    sc = builtin_scenario("advanced")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    b = simulate(sc, fleets, ("aggressive", "random"), 1, extra_rules=("derelicts",))
    gone = [e for e in b.events() if isinstance(e, ev.ShipDestroyed)]
    assert gone
    assert all(e.derelict for e in gone)
