"""Orders and decisions: what the engine asks a captain, and what a captain answers.

Every game's orders and decisions are small immutable values, defined by its rules package,
with a text form that round-trips: `parse(str(order), readers) == order`. The rules
check an order with verify (raises IllegalOrderError, a message a player can read) and can (a
bool for AIs and UIs) before applying it.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import ParamSpec

from kolrami.errors import KolramiError

P = ParamSpec("P")


class GameDecision:
    """Base of every decision: a question the rules put to one side (`side`)."""

    __slots__ = ()
    side: str


class GameOrder:
    """Base of every order: a side's answer to a decision."""

    __slots__ = ()


#: What a captain is asked, and what it answers (each game subclasses these).
Decision = GameDecision
Order = GameOrder

#: Reads one game's order from its tokens: None if the tokens are not one of that game's;
#: ValueError names what does not read.
OrderReader = Callable[[list[str], str], GameOrder | None]


class IllegalOrderError(KolramiError):
    """An order the rules do not allow; the message names the rule and the fix."""


class OrderSyntaxError(KolramiError, ValueError):
    """Order text that does not parse."""


def allowed(verify: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
    """`can_x` from `verify_x`: whether the order passes, for AIs and UIs."""
    try:
        verify(*args, **kwargs)
    except IllegalOrderError:
        return False
    return True


def parse(text: str, readers: Sequence[OrderReader]) -> Order:
    """An order from its text form, read by the first of `readers` that knows it (every built-in
    game's: kolrami.rules.registry.parse_order)."""
    tokens = text.split()
    if not tokens:
        raise OrderSyntaxError("an empty order")
    for read in readers:
        try:
            order = read(tokens, text)
        except ValueError as exc:
            if isinstance(exc, OrderSyntaxError):
                raise
            raise OrderSyntaxError(f"{exc} (in '{text}')") from None
        if order is not None:
            return order
    raise OrderSyntaxError(f"cannot read the order '{text}'")
