"""A step of a battle's agenda (kolrami.engine.driver runs them): the unit of the turn as a
state machine, and the halt a rollout's horizon returns.

A step is generic in the battle it runs on (`Step[Battle]` in the rules): this module sits
below the battle, which keeps its agenda as a list of steps, so it cannot name the battle's
class without an import circle; each game's steps name it.
"""

from __future__ import annotations

from typing import Final
from typing import Generic
from typing import TypeVar

from mypy_extensions import mypyc_attr

from kolrami.engine.orders import Decision
from kolrami.engine.orders import GameDecision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order

__all__ = ["HALT", "BattleT", "Step"]

#: The battle a step runs on (contravariant: a step that runs on any battle runs on one).
BattleT = TypeVar("BattleT", contravariant=True)


@mypyc_attr(allow_interpreted_subclasses=True)
class Step(Generic[BattleT]):
    """One step of a battle's agenda: `run` does it, pushing any steps that follow onto
    `battle.agenda` (`Battle.then`), and returns a decision when it needs a captain's answer
    (then `verify` checks that answer and `answer` carries it out), else None.

    A step is a value: it holds ids and numbers, never a ship or other mutable state, so that a
    battle's clone may share its agenda's steps."""

    __slots__ = ()

    def run(self, battle: BattleT) -> Decision | None:
        """Do the step; a decision to ask, or None to go on."""
        raise NotImplementedError

    def verify(self, battle: BattleT, decision: Decision, order: Order) -> None:
        """Raise IllegalOrderError (naming the rule and the fix) unless `order` answers
        `decision`, the one this step asked. Never changes the battle."""
        raise IllegalOrderError(f"nothing answers '{order}' here")

    def answer(self, battle: BattleT, decision: Decision, order: Order) -> None:
        """Carry out `order`, verified, as the answer to `decision`."""
        raise NotImplementedError


class _Halt(GameDecision):
    """The sentinel a step returns to stop the machine where it is, asking nothing (a
    rollout's horizon): the step is back on the agenda, `battle.pending` stays None."""

    __slots__ = ()
    side = ""


#: Returned by a step's `run` to halt the battle at a horizon (`Battle.horizon`).
HALT: Final = _Halt()
