"""Legality on the decision: every FPF decision lists what may answer it, the battle's pending
decision checks an order with the rules' own check (`rules.verify`, `rules.can`), a refusal
says why with its clause and changes nothing, and the captains' answers pass."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kolrami import rules
from kolrami.captains.registry import make_captain
from kolrami.engine.battle import Battle
from kolrami.engine.driver import captain_dice
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.fpf import orders as fo
from kolrami.scenarios.models import builtin_scenario

Check = Callable[[Battle, Decision, Order], None]


def played(scenario: str, seed: int, check: Check | None = None) -> list[tuple[Decision, Order]]:
    """(decision, the captain's order) for every decision of one battle; `check` is called at
    each decision, before its order is applied, with the battle waiting on it."""
    fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
    battle = new_battle(builtin_scenario(scenario), fleets, seed, ("aggressive", "kiting"))
    captains = {
        s: make_captain(n, captain_dice(seed, s)) for s, n in (("A", "aggressive"), ("B", "kiting"))
    }
    views = {s: battle.rules.view(battle, s) for s in "AB"}
    out = []
    decision = rules.start(battle)
    while decision is not None:
        order = captains[decision.side].decide(views[decision.side], decision)
        assert rules.can(battle, order), f"{decision} answered with {order}"
        if check is not None:
            check(battle, decision, order)
        out.append((decision, order))
        decision = rules.apply(battle, order)
    return out


@pytest.mark.parametrize(("scenario", "seed"), [("standard", 3), ("peak-performance", 4)])
def test_every_answer_the_captains_give_passes_its_can(scenario: str, seed: int) -> None:
    kinds = {type(d) for d, _ in played(scenario, seed)}
    assert {fo.ActivationDecision, fo.OrdersDecision, fo.ReactionDecision} <= kinds


@pytest.mark.rule("FPF-REP-02", "FPF-REP-07")
def test_a_repair_decision_lists_each_ship_s_items_and_points() -> None:
    seen = [(d, o) for d, o in played("standard", 3) if isinstance(d, fo.RepairDecision)]
    assert seen
    for decision, order in seen:
        assert len(decision.ships) == len(decision.items) == len(decision.points)
        assert all(decision.items)
        assert all(p > 0 for p in decision.points)
        assert isinstance(order, fo.RepairOrder)
        listed = dict(zip(decision.ships, decision.items, strict=True))
        assert all(item in listed[ship] for ship, item in order.repairs)


def _wrong_answers(battle: Battle, decision: Decision, order: Order) -> None:
    """Wrong answers to the pending decision fail `can`, `verify` says why with the clause,
    and neither touches the battle (its log keeps its length)."""
    before = len(battle.log)
    match decision:
        case fo.ActivationDecision():
            bad: Order = fo.ActivateOrder("XS9")
            assert not rules.can(battle, bad)
            with pytest.raises(IllegalOrderError, match="FPF-MOV-02"):
                rules.verify(battle, bad)
            with pytest.raises(IllegalOrderError, match="FPF-MOV-02"):
                rules.apply(battle, bad)
        case fo.ReactionDecision():
            assert not rules.can(battle, fo.RepairOrder())
            assert rules.can(battle, fo.ReactionOrder(decision.squadron))
        case fo.OrdersDecision():
            assert not rules.can(battle, fo.SquadronOrder("XS9", ()))
        case fo.InitiativeDecision():
            assert not rules.can(battle, fo.ActivateOrder("AS1"))
            assert rules.can(battle, fo.InitiativeOrder(first=True))
    assert len(battle.log) == before
    assert battle.pending is decision


@pytest.mark.rule("FPF-MOV-02", "FPF-FIRE-11")
def test_wrong_answers_fail_can_and_verify_says_why() -> None:
    kinds = {type(d) for d, _ in played("standard", 3, _wrong_answers)}
    assert {fo.ActivationDecision, fo.OrdersDecision, fo.ReactionDecision} <= kinds


def _bad_return(battle: Battle, decision: Decision, order: Order) -> None:
    if isinstance(decision, fo.ReturnDecision):
        assert decision.spots
        with pytest.raises(IllegalOrderError, match="PP-11"):
            rules.verify(battle, fo.ReturnOrder(decision.ship, -50.0, -50.0, 0))


@pytest.mark.rule("PP-11")
def test_a_return_decision_lists_legal_spots() -> None:
    seen = [d for d, _ in played("peak-performance", 4, _bad_return)]
    assert any(isinstance(d, fo.ReturnDecision) for d in seen)


def test_an_order_when_nothing_is_asked_is_refused() -> None:
    fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
    battle = new_battle(builtin_scenario("standard"), fleets, 1)
    with pytest.raises(IllegalOrderError, match="asks nothing"):
        rules.apply(battle, fo.InitiativeOrder(first=True))


def test_a_captain_asks_its_view_whether_an_order_is_legal() -> None:
    fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
    battle = new_battle(builtin_scenario("standard"), fleets, 3)
    decision = rules.start(battle)
    while not isinstance(decision, fo.ActivationDecision):
        assert decision is not None
        decision = rules.apply(battle, fo.InitiativeOrder(first=True))
    mine = battle.rules.view(battle, decision.side)
    theirs = battle.rules.view(battle, "B" if decision.side == "A" else "A")
    good = fo.ActivateOrder(decision.squadrons[0])
    assert mine.can(good)
    assert not mine.can(fo.ActivateOrder("XS9"))
    assert not theirs.can(good)  # not the side asked
    with pytest.raises(IllegalOrderError, match="FPF-MOV-02"):
        mine.verify(fo.ActivateOrder("XS9"))
