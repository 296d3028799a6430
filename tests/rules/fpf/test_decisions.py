"""verify / can / apply (GUIDE 3.3): every FPF decision lists what may answer it, every order kind
has a verify_x that says why not and a can_x for AIs and UIs, and the captains' answers pass."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami.captains.registry import make_captain
from kolrami.engine.driver import captain_dice, play
from kolrami.engine.orders import Decision, IllegalOrderError, Order
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.fpf import initiative, repairs
from kolrami.rules.fpf.orders import (
    ActivateOrder,
    ActivationDecision,
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
from kolrami.rules.peak import can_return, verify_return
from kolrami.scenarios.models import builtin_scenario


def played(scenario: str, seed: int) -> list[tuple[Any, Decision, Order]]:
    """(battle, decision, the captain's order) for every decision of one battle."""
    fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
    battle = new_battle(builtin_scenario(scenario), fleets, seed, ("aggressive", "kiting"))
    captains = {
        s: make_captain(n, captain_dice(seed, s)) for s, n in (("A", "aggressive"), ("B", "kiting"))
    }
    views = {s: battle.rules.view(battle, s) for s in "AB"}
    game = play(battle)
    out = []
    try:
        decision = next(game)
        while True:
            order = captains[decision.side].decide(views[decision.side], decision)
            ok = answer_ok(battle, decision, order)
            out.append((battle, decision, order))
            assert ok, f"{decision} answered with {order}"
            decision = game.send(order)
    except StopIteration:
        pass
    return out


def answer_ok(battle: Any, decision: Decision, order: Order) -> bool:
    match decision:
        case InitiativeDecision():
            return initiative.can_choose(order)
        case ActivationDecision():
            return initiative.can_activate(decision, order)
        case ReactionDecision():
            return initiative.can_react(battle, decision, order)
        case OrdersDecision():
            return initiative.can_order(battle, decision, order)
        case RepairDecision():
            return repairs.can_repair(battle, decision, order)
        case ReturnDecision():
            return can_return(battle, decision, order)
    raise AssertionError(f"an FPF battle asked {decision}")


@pytest.mark.parametrize(("scenario", "seed"), [("standard", 3), ("peak-performance", 4)])
def test_every_answer_the_captains_give_passes_its_can(scenario: str, seed: int) -> None:
    kinds = {type(d) for _, d, _ in played(scenario, seed)}
    assert {ActivationDecision, OrdersDecision, ReactionDecision} <= kinds


@pytest.mark.rule("FPF-REP-02", "FPF-REP-07")
def test_a_repair_decision_lists_each_ship_s_items_and_points() -> None:
    seen = [(b, d, o) for b, d, o in played("standard", 3) if isinstance(d, RepairDecision)]
    assert seen
    for _battle, decision, order in seen:
        assert len(decision.ships) == len(decision.items) == len(decision.points)
        assert all(decision.items)
        assert all(p > 0 for p in decision.points)
        assert isinstance(order, RepairOrder)
        listed = dict(zip(decision.ships, decision.items, strict=True))
        assert all(item in listed[ship] for ship, item in order.repairs)


@pytest.mark.rule("FPF-MOV-02", "FPF-FIRE-11")
def test_wrong_answers_fail_can_and_verify_says_why() -> None:
    for battle, decision, _ in played("standard", 3):
        match decision:
            case ActivationDecision():
                bad: Order = ActivateOrder("XS9")
                assert not initiative.can_activate(decision, bad)
                with pytest.raises(IllegalOrderError, match="FPF-MOV-02"):
                    initiative.verify_activation(decision, bad)
            case ReactionDecision():
                assert not initiative.can_react(battle, decision, RepairOrder())
                assert initiative.can_react(battle, decision, ReactionOrder(decision.squadron))
            case OrdersDecision():
                assert not initiative.can_order(battle, decision, SquadronOrder("XS9", ()))
            case InitiativeDecision():
                assert not initiative.can_choose(ActivateOrder("AS1"))
                assert initiative.can_choose(InitiativeOrder(first=True))


@pytest.mark.rule("PP-11")
def test_a_return_decision_lists_legal_spots() -> None:
    seen = [(b, d) for b, d, _ in played("peak-performance", 4) if isinstance(d, ReturnDecision)]
    assert seen
    battle, decision = seen[0]
    assert decision.spots
    with pytest.raises(IllegalOrderError, match="PP-11"):
        verify_return(battle, decision, ReturnOrder(decision.ship, -50.0, -50.0, 0))
