"""`rules.resume`: a clone played on from an orders decision, a reaction to an activation, a
side's repairs or a reset ship's return (Peak Performance), is the battle's own turn.

With the battle's own dice state (a test may copy it; a search never does) and the same
captains, the clone's events after the decision must be the battle's, through the rest of the
turn and the next one; and the horizon stops it there.
"""

from __future__ import annotations

import pytest

from kolrami.captains.doctrines import AggressiveCaptain, KitingCaptain
from kolrami.engine import events as ev
from kolrami.engine.chance import Dice
from kolrami.engine.driver import play
from kolrami.engine.eventlog import EventLog
from kolrami.engine.orders import Decision
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle, resume
from kolrami.rules.fpf.orders import (
    InitiativeDecision,
    InitiativeOrder,
    OrdersDecision,
    ReactionDecision,
    ReactionOrder,
    RepairDecision,
    RepairOrder,
    ReturnDecision,
    ReturnOrder,
    SquadronOrder,
)
from kolrami.scenarios.models import builtin_scenario


def _records(log: EventLog) -> list[str]:
    return [e.to_json().__repr__() for e in log if not isinstance(e, ev.OrderGiven)]


@pytest.mark.rule("FPF-TURN-02", "FPF-MOV-02")
@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
@pytest.mark.parametrize("nth", [2, 5, 9])
def test_a_clone_resumed_from_an_orders_decision_plays_the_battles_own_turn(
    scenario: str, nth: int
) -> None:
    _resumed_as_played(scenario, OrdersDecision, nth)


@pytest.mark.rule("PP-11")
@pytest.mark.parametrize("nth", [1, 4, 6])  # 1: another ship returns after; 4, 6: repairs follow
def test_a_clone_resumed_from_a_ships_return_plays_the_battles_own_turn(nth: int) -> None:
    _resumed_as_played("peak-performance", ReturnDecision, nth)


@pytest.mark.rule("FPF-FIRE-11")
@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
@pytest.mark.parametrize("nth", [1, 10, 23])  # 1: holds, another squadron reacts; 10, 23: fire
def test_a_clone_resumed_from_a_reaction_plays_the_battles_own_turn(
    scenario: str, nth: int
) -> None:
    _resumed_as_played(scenario, ReactionDecision, nth)


@pytest.mark.rule("FPF-MOV-03")
@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
@pytest.mark.parametrize("nth", [1, 2, 3])
def test_a_clone_resumed_from_a_roll_off_winners_choice_plays_the_battles_own_turn(
    scenario: str, nth: int
) -> None:
    _resumed_as_played(scenario, InitiativeDecision, nth)


@pytest.mark.rule("FPF-REP-02", "FPF-DMG-13")
@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
@pytest.mark.parametrize("nth", [1, 2, 3])
def test_a_clone_resumed_from_a_sides_repairs_plays_the_battles_own_turn(
    scenario: str, nth: int
) -> None:
    # 1: side B's, in the turn the Klingon fleet's reserve team works (a card's repairs, after
    # the sides' own); in both scenarios one of 2, 3 is side A's, side B's repairs after it
    _resumed_as_played(scenario, RepairDecision, nth)


Resumable = (
    type[InitiativeDecision]
    | type[OrdersDecision]
    | type[ReactionDecision]
    | type[RepairDecision]
    | type[ReturnDecision]
)


def _resumed_as_played(scenario: str, kind: Resumable, nth: int) -> None:
    """The battle played to its `nth` decision of `kind`, a clone resumed from there with the
    battle's own dice state and captains, and the battle played on: the same decisions asked,
    the same records."""
    fleets = (load_fleet("presets:klingon-fleet"), load_fleet("presets:federation-fleet"))
    battle = new_battle(builtin_scenario(scenario), fleets, 7)
    captains = {"A": AggressiveCaptain(Dice(1)), "B": KitingCaptain(Dice(2))}
    views = {side: battle.rules.view(battle, side) for side in "AB"}
    game = play(battle)
    decision: Decision = next(game)
    seen = 0
    while not (isinstance(decision, kind) and (seen := seen + 1) == nth):
        decision = game.send(captains[decision.side].decide(views[decision.side], decision))
    assert isinstance(
        decision,
        InitiativeDecision | OrdersDecision | ReactionDecision | RepairDecision | ReturnDecision,
    )
    order = captains[decision.side].decide(views[decision.side], decision)
    assert isinstance(
        order, InitiativeOrder | SquadronOrder | ReactionOrder | RepairOrder | ReturnOrder
    )
    dice = Dice(battle.dice.seed)
    dice.setstate(battle.dice.getstate())
    copy = battle.clone(dice)
    start, turn = len(_records(battle.log)), battle.turn
    rollout = resume(copy, decision, order, turns=1)
    copy_views = {side: copy.rules.view(copy, side) for side in "AB"}
    asked_copy: list[Decision] = []
    try:
        asked = next(rollout)
        while True:
            asked_copy.append(asked)
            asked = rollout.send(captains[asked.side].decide(copy_views[asked.side], asked))
    except StopIteration as stop:
        ended = stop.value
    # the real battle, played on with the same captains
    asked_real: list[Decision] = []
    try:
        decision = game.send(order)
        while True:
            asked_real.append(decision)
            decision = game.send(captains[decision.side].decide(views[decision.side], decision))
    except StopIteration:
        pass
    assert asked_copy == asked_real[: len(asked_copy)]
    mine = _records(copy.log)[start:]
    real = _records(battle.log)[start : start + len(mine)]
    assert mine == real
    assert mine, "the rollout played nothing"
    if ended is None:  # the horizon: the rest of this turn and one more
        assert copy.turn == turn + 1
        assert isinstance(copy.log.events()[-1], ev.TurnEnded)
    else:
        assert ended == battle.result
