"""The driver loop: plays a battle by its rules' turn driver, one decision at a time.

`play(battle)` is a generator: it yields each Decision the rules need and receives the Order
that answers it, so the same battle can be driven by AI captains (`run`), a human at a prompt,
a web page, or an RL loop one step at a time. Which turns a battle has is its rules' business
(the bound `turns` policy); the engine only logs every order and hands out per-side views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from kolrami.engine import events as ev
from kolrami.engine.battle import Battle, Result
from kolrami.engine.binder import Game
from kolrami.engine.chance import Dice, derive_seed
from kolrami.engine.orders import Decision, Order

__all__ = ["Game", "Player", "captain_dice", "play", "run"]

#: (the event class as a constant: compiled, `ev.OrderGiven` is a look-up in the module each time)
_ORDER_GIVEN: Final = ev.OrderGiven


class Player(Protocol):
    """Anything that answers a battle's decisions for one side, given that side's view."""

    def decide(self, view: Any, decision: Decision) -> Order:
        """The order answering `decision`."""
        ...


def play(battle: Battle) -> Game:
    """Play `battle` to its end, logging every order it receives (OrderGiven)."""
    turns = battle.rules.turns(battle)
    log = battle.log
    try:
        decision = next(turns)
        while True:
            order = yield decision
            log.record(_ORDER_GIVEN, decision.side, order)  # text made on demand
            decision = turns.send(order)
    except StopIteration as stop:
        result: Result = stop.value
        return result


def run(battle: Battle, captains: Mapping[str, Player]) -> Result:
    """Play a battle with one captain per side and return the result. Each decision goes to
    its side's captain with that side's view, built by the battle's rules (GUIDE 3.8)."""
    views = {side: battle.rules.view(battle, side) for side in ("A", "B")}
    game = play(battle)
    try:
        decision = next(game)
        while True:
            side = decision.side  # (read once: a decision's fields are a Python object's)
            order = captains[side].decide(views[side], decision)
            decision = game.send(order)
    except StopIteration as stop:
        result: Result = stop.value
        return result


def captain_dice(seed: int, side: str) -> Dice:
    """Each captain's own generator: derived from the battle seed, never the battle's dice."""
    return Dice(derive_seed(seed, "captain", side))
