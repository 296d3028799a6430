"""The turn as a state machine (kolrami.engine.driver): a battle copied at any decision of any
game (`Battle.clone`) and played on with `apply` is the battle itself.

A reference battle is played to its end by captains and its orders kept; then, at decisions
spread over the battle, a battle played by those orders to that point is cloned with its own
dice state and the clone is given the rest of the orders: its records must be the reference's,
byte for byte. The horizon halts a clone where the issue's rollouts stop.
"""

from __future__ import annotations

import pytest

from kolrami import rules
from kolrami.captains.registry import make_captain
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.driver import advance
from kolrami.engine.driver import captain_dice
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

GAMES = [
    ("standard", "klingon-fleet", "federation-fleet", ("aggressive", "kiting"), 7),
    ("peak-performance", "klingon-fleet", "federation-fleet", ("kiting", "aggressive"), 4),
    ("advanced", "federation-cruisers", "klingon-wolfpack", ("random", "random"), 17),
    ("nebula-ambush", "federation-cruisers", "klingon-wolfpack", ("aggressive", "kiting"), 2),
    ("boarding-action", "gorn-hunters", "klingon-wolfpack", ("aggressive", "aggressive"), 3),
    ("web-trap", "tholian-weavers", "federation-cruisers", ("random", "random"), 5),
    ("probe-hunt", "federation-cruisers", "klingon-wolfpack", ("random", "random"), 1),
    ("minefield", "federation-cruisers", "klingon-wolfpack", ("random", "random"), 6),
]


def _battle(game: tuple[str, str, str, tuple[str, str], int]) -> Battle:
    scenario, a, b, captains, seed = game
    fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
    return new_battle(builtin_scenario(scenario), fleets, seed, captains)


def _reference(game: tuple[str, str, str, tuple[str, str], int]) -> tuple[Battle, list[Order]]:
    """The battle played to its end by its captains, and the orders they gave."""
    battle = _battle(game)
    seed, names = game[4], game[3]
    captains = {s: make_captain(n, captain_dice(seed, s)) for s, n in zip("AB", names, strict=True)}
    views = {s: battle.rules.view(battle, s) for s in "AB"}
    orders = []
    decision = rules.start(battle)
    while decision is not None:
        order = captains[decision.side].decide(views[decision.side], decision)
        orders.append(order)
        decision = rules.apply(battle, order)
    return battle, orders


def _own_dice(battle: Battle) -> Dice:
    dice = Dice(battle.dice.seed)
    dice.setstate(battle.dice.getstate())
    return dice


@pytest.mark.rule("FPF-TURN-02", "ADV-SEQ-02")
@pytest.mark.parametrize("game", GAMES, ids=[g[0] for g in GAMES])
def test_a_clone_at_any_decision_plays_on_as_the_battle(
    game: tuple[str, str, str, tuple[str, str], int],
) -> None:
    reference, orders = _reference(game)
    want = reference.log.sha256()
    assert reference.result is not None
    kinds = set()
    for at in sorted({0, 1, 2, len(orders) // 3, len(orders) // 2, len(orders) - 1}):
        battle = _battle(game)
        decision = rules.start(battle)
        for order in orders[:at]:
            decision = rules.apply(battle, order)
        assert decision is not None
        assert battle.pending is decision
        kinds.add(type(decision).__name__)
        copy = battle.clone(_own_dice(battle))
        assert copy.pending is decision
        for order in orders[at:]:
            rules.apply(copy, order)
        assert copy.result == reference.result
        assert copy.log.sha256() == want, f"clone at decision {at} ({decision}) differs"
        # the original is untouched by its clone's play, and plays on the same way
        assert battle.pending is decision
        for order in orders[at:]:
            rules.apply(battle, order)
        assert battle.log.sha256() == want
    assert len(kinds) >= 2


@pytest.mark.parametrize("game", GAMES[:3], ids=[g[0] for g in GAMES[:3]])
def test_a_clone_halts_at_its_horizon(game: tuple[str, str, str, tuple[str, str], int]) -> None:
    reference, orders = _reference(game)
    battle = _battle(game)
    rules.start(battle)
    for order in orders[:5]:
        rules.apply(battle, order)
    copy = battle.clone(_own_dice(battle))
    copy.horizon = copy.turn + 1
    turn = copy.turn
    asked = copy.pending
    i = 5
    while asked is not None:
        asked = rules.apply(copy, orders[i])
        i += 1
    assert copy.result is None, "a horizon a turn ahead halts before the battle's end"
    assert copy.turn == turn + 1
    assert isinstance(copy.log.events()[-1], ev.TurnEnded)
    assert copy.pending is None
    # lifted, the horizon lets the copy play on to the battle's own end
    copy.horizon = None
    asked = advance(copy)
    while asked is not None:
        asked = rules.apply(copy, orders[i])
        i += 1
    assert copy.log.sha256() == reference.log.sha256()


def test_a_battle_begins_once() -> None:
    battle = _battle(GAMES[0])
    rules.start(battle)
    with pytest.raises(IllegalOrderError, match="begun already"):
        rules.start(battle)
