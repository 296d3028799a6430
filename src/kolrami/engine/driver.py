"""The FPF turn driver and the battle runner.

`play(battle)` is a generator: it yields each Decision the rules need and receives the Order
that answers it, so the same battle can be driven by AI captains (`run`), a human at a prompt,
a web page, or an RL loop one step at a time.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import TYPE_CHECKING

from kolrami.engine import events as ev
from kolrami.engine.battle import Battle, Result
from kolrami.engine.orders import Decision, Order
from kolrami.rules.registry import Phase

if TYPE_CHECKING:
    from kolrami.captains.base import Captain

Game = Generator[Decision, Order, Result]


def play(battle: Battle) -> Game:
    """Play `battle` to its end: start, then turns of repairs and initiative (FPF-TURN-02)."""
    rules = battle.rules
    yield from rules.run(Phase.START_OF_BATTLE, battle)
    while battle.turn < battle.scenario.turn_limit and not battle.over():
        battle.turn += 1
        battle.log.record(ev.TurnStarted, battle.turn)
        yield from rules.run(Phase.START_OF_TURN, battle)
        yield from rules.run(Phase.REPAIRS, battle)
        yield from rules.run(Phase.INITIATIVE, battle)
        yield from rules.run(Phase.END_OF_TURN, battle)
        battle.log.record(ev.TurnEnded, battle.turn)
    yield from rules.run(Phase.END_OF_BATTLE, battle)
    return battle.finish()


def run(battle: Battle, captains: Mapping[str, Captain]) -> Result:
    """Play a battle with one captain per side and return the result."""
    from kolrami.captains.base import BattleView

    views = {side: BattleView(battle, side) for side in ("A", "B")}
    game = play(battle)
    try:
        decision = next(game)
        while True:
            order = captains[decision.side].decide(views[decision.side], decision)
            decision = game.send(order)
    except StopIteration as stop:
        result: Result = stop.value
        return result
