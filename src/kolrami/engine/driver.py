"""The driver: a battle's turn as an explicit state machine, one decision at a time.

A battle holds its own continuation: `battle.agenda`, a stack of small `Step` values (what is
left to do, the next one last), `battle.pending`, the decision it waits on, and
`battle.asking`, the step that asked it. `start(battle)` puts the rules' opening steps on the
agenda and runs them to the first decision; `apply(battle, order)` checks an order against the
pending decision (the asking step's own check, `Step.verify`), logs it (OrderGiven), carries it
out (`Step.answer`) and runs on to the next decision. Nothing of a turn lives in a Python frame,
so `battle.clone(dice)` copies a battle mid-turn and `apply` plays the copy forward: the one way
to search, to check an order without touching the battle, or to roll out (OpenSpiel's
`state.clone()` and `apply_action`).

The engine knows no game: which steps a battle has is its rules' business (the bound `opening`
policy); a game's steps ask its own decisions and push its own further steps.
"""

from __future__ import annotations

from collections.abc import Generator
from collections.abc import Mapping
from typing import Any
from typing import Final
from typing import Protocol

from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.battle import Result
from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.step import HALT

__all__ = [
    "Game",
    "Player",
    "advance",
    "apply",
    "can",
    "captain_dice",
    "play",
    "run",
    "start",
    "verify",
]

#: (the event class as a constant: compiled, `ev.OrderGiven` is a look-up in the module each time)
_ORDER_GIVEN: Final = ev.OrderGiven

#: A battle played as a generator (`play`): yields decisions, receives orders, returns the result.
Game = Generator[Decision, Order, "Result | None"]


def start(battle: Battle) -> Decision | None:
    """Begin a battle: its rules' opening steps, run to the first decision (None: over)."""
    if battle.agenda or battle.pending is not None or battle.result is not None:
        raise IllegalOrderError("this battle has begun already: give its pending decision orders")
    battle.then(*battle.rules.opening(battle))
    return advance(battle)


def advance(battle: Battle) -> Decision | None:
    """Run the agenda until a step asks a decision (returned, and kept as `battle.pending`) or
    nothing is left to do (None: the battle is over, or halted at its horizon)."""
    agenda = battle.agenda
    halt = HALT
    while agenda:
        step = agenda.pop()
        battle.asking = step
        decision = step.run(battle)
        if decision is not None:
            if decision is halt:
                agenda.append(step)
                battle.asking = None
                return None
            battle.pending = decision
            return decision
    battle.asking = None
    return None


def verify(battle: Battle, order: Order) -> None:
    """Raise IllegalOrderError unless `order` answers the battle's pending decision (its
    asking step's check, the rules' own); the battle is not changed."""
    decision = battle.pending
    step = battle.asking
    if decision is None or step is None:
        raise IllegalOrderError(
            "the battle asks nothing now: it is over"
            if battle.result is not None
            else "the battle asks nothing now"
        )
    step.verify(battle, decision, order)


def can(battle: Battle, order: Order) -> bool:
    """Whether `order` is a legal answer to the battle's pending decision."""
    try:
        verify(battle, order)
    except IllegalOrderError:
        return False
    return True


def apply(battle: Battle, order: Order) -> Decision | None:
    """Answer the pending decision with `order`: checked first (IllegalOrderError, the battle
    untouched), logged, carried out; returns the next decision (None: over or halted)."""
    decision = battle.pending
    step = battle.asking
    if decision is None or step is None:
        verify(battle, order)  # (raises, saying why)
        return None
    step.verify(battle, decision, order)
    battle.note(_ORDER_GIVEN, decision.side, order)  # text made on demand
    battle.pending = None
    step.answer(battle, decision, order)
    return advance(battle)


class Player(Protocol):
    """Anything that answers a battle's decisions for one side, given that side's view."""

    def decide(self, view: Any, decision: Decision) -> Order:
        """The order answering `decision`."""
        ...


def play(battle: Battle) -> Game:
    """`start` and `apply` as a generator: yields each decision, receives its order, returns
    the result (None if the battle halted at its horizon)."""
    decision = start(battle) if battle.pending is None else battle.pending
    while decision is not None:
        order = yield decision
        decision = apply(battle, order)
    return battle.result


def run(battle: Battle, captains: Mapping[str, Player]) -> Result:
    """Play a battle with one captain per side and return the result. Each decision goes to
    its side's captain with that side's view, built by the battle's rules (the full state is
    for the referee only)."""
    views = {side: battle.rules.view(battle, side) for side in ("A", "B")}
    decision = start(battle)
    while decision is not None:
        order = captains[decision.side].decide(views[decision.side], decision)
        decision = apply(battle, order)
    result = battle.result
    assert result is not None, "a battle run to its end has a result"
    return result


def captain_dice(seed: int, side: str) -> Dice:
    """Each captain's own generator: derived from the battle seed, never the battle's dice."""
    return Dice(derive_seed(seed, "captain", side))
