"""The steps every game's turn is made of (kolrami.engine.driver's state machine): a plain
function, a phase's hooks one after another, and one question put to each side or ship in turn.

A game's turn is these and its own steps, pushed onto the battle's agenda as the turn goes; a
module's decision hook returns the steps it needs (often an `Each` of its `Question`), so that
a battle copied mid-phase (`Battle.clone`) carries on exactly where it stood.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar

from mypy_extensions import mypyc_attr

from kolrami.engine.orders import GameDecision
from kolrami.engine.orders import GameOrder
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.step import Step

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.orders import Decision
    from kolrami.engine.orders import Order

__all__ = ["Asked", "Call", "Each", "Hooks", "Question", "expect", "listed_form", "one_each"]

T = TypeVar("T")
D = TypeVar("D", bound=GameDecision)
R = TypeVar("R", bound=GameOrder)

#: What a decision hook returns: the steps its phase needs, run in order.
Steps = Sequence[Step["Battle"]]


def expect(order: Order, kind: type[T], what: str) -> T:
    """`order` as the kind a question asks for; IllegalOrderError saying `what` it expected
    (an order's form, see `listed_form`) when it is another."""
    if not isinstance(order, kind):
        raise IllegalOrderError(f"expected {what}, got '{order}'")
    return order


def listed_form(head: str) -> str:
    """The form an order of listed items takes, as `expect` names it: `LAY ... or LAY NONE`."""
    return f"{head} ... or {head} NONE"


def one_each(ship: str, ships: Sequence[str], seen: set[str], cannot: str, twice: str) -> None:
    """Check that an order gives `ship` something only if its decision lists it (`ships`), and
    once (`seen` collects those given): else IllegalOrderError, the ship's id then `cannot` or
    `twice` (`{ships}` in either: the ships that can)."""
    if ship not in ships or ship in seen:
        why = cannot if ship not in ships else twice
        raise IllegalOrderError(f"{ship} " + why.format(ships=", ".join(ships) or "none"))
    seen.add(ship)


class Call(Step["Battle"]):
    """Call `fn(battle, *args)`: a plain step that asks nothing."""

    __slots__ = ("args", "fn")

    def __init__(self, fn: Callable[..., object], *args: Any) -> None:
        self.fn = fn
        self.args = args

    def run(self, battle: Battle) -> Decision | None:
        self.fn(battle, *self.args)
        return None


class Hooks(Step["Battle"]):
    """A phase's hooks in module order, each called once the steps of the one before it are
    done (`hook(battle, *args)` returns the steps it needs, or none)."""

    __slots__ = ("args", "hooks", "index")

    def __init__(
        self, hooks: Sequence[Callable[..., Steps]], args: tuple[Any, ...] = (), index: int = 0
    ) -> None:
        self.hooks = hooks
        self.args = args
        self.index = index

    def run(self, battle: Battle) -> Decision | None:
        hooks = self.hooks
        i = self.index
        if i < len(hooks):
            if i + 1 < len(hooks):
                battle.agenda.append(Hooks(hooks, self.args, i + 1))
            steps = hooks[i](battle, *self.args)
            if steps:
                battle.then(*steps)
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class Question(Step["Battle"]):
    """One kind of decision put to each of several sides or ships in turn (`Each`): `ask`
    says what that one may decide now (None: nothing, pass it by); `verify` and `answer`
    check and carry out its order."""

    __slots__ = ()

    def ask(self, battle: Battle, item: str) -> Decision | None:
        """The decision for `item` (a side or a ship) now, or None."""
        raise NotImplementedError

    def run(self, battle: Battle) -> Decision | None:  # pragma: no cover - asked through Each
        raise NotImplementedError

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        raise NotImplementedError

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class PhaseQuestion(Question):
    """A question of one phase of the turn (the advanced game's moves, attacks, evasions,
    probes, webs ...): it holds the phase it is asked in."""

    __slots__ = ("phase",)

    def __init__(self, phase: int) -> None:
        self.phase = phase


class Asked(PhaseQuestion, Generic[D, R]):
    """A question declared rather than written out as a class, one whose order lists items or
    says NONE (`head` ... | `head` NONE): `asks(battle, item, phase)` is the decision for `item`
    now (None: pass it by); the order must be a `order`, `check(battle, decision, order)`
    raises IllegalOrderError when it is not legal and `carry_out(battle, decision, order)` does
    it. `at(phase)` is the same question in another phase of the turn (0: of the whole turn)."""

    __slots__ = ("asks", "carry_out", "check", "decision", "head", "order")

    def __init__(
        self,
        decision: type[D],
        order: type[R],
        head: str,
        asks: Callable[[Battle, str, int], D | None],
        check: Callable[[Battle, D, R], None],
        carry_out: Callable[[Battle, D, R], None],
        phase: int = 0,
    ) -> None:
        super().__init__(phase)
        self.decision = decision
        self.order = order
        self.head = head
        self.asks = asks
        self.check = check
        self.carry_out = carry_out

    def at(self, phase: int) -> Asked[D, R]:
        """This question in phase `phase`."""
        return Asked(
            self.decision, self.order, self.head, self.asks, self.check, self.carry_out, phase
        )

    def ask(self, battle: Battle, item: str) -> Decision | None:
        return self.asks(battle, item, self.phase)

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, self.decision)
        self.check(battle, decision, expect(order, self.order, listed_form(self.head)))

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, self.decision)
        assert isinstance(order, self.order)
        self.carry_out(battle, decision, order)


class Each(Step["Battle"]):
    """`question` put to each of `items` in turn, from the `index`-th; each answer is carried
    out before the next is asked."""

    __slots__ = ("index", "items", "question")

    def __init__(self, question: Question, items: Sequence[str], index: int = 0) -> None:
        self.question = question
        self.items = items
        self.index = index

    def run(self, battle: Battle) -> Decision | None:
        items = self.items
        question = self.question
        i = self.index
        n = len(items)
        while i < n:
            decision = question.ask(battle, items[i])
            i += 1
            if decision is not None:
                if i < n:
                    battle.agenda.append(Each(question, items, i))
                battle.asking = question
                return decision
        return None
