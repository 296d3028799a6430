"""What the games' order text forms share: a signed turn, a dotted list of numbers, an order that
lists its items or says NONE (`LAY A1 A2` | `LAY NONE`), and reading such an order's items,
each token against one pattern (`Listed`). FPF's, the advanced game's and its fields' orders
(rules.fpf.orders, rules.advanced.orders, rules.advanced.field_orders) write and read through
these, so a form is spelled one way in every game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic
from typing import TypeVar

OrderT = TypeVar("OrderT")


def signed(n: int) -> str:
    """A turn or a shift with its sign: +1, 0, -1."""
    return f"+{n}" if n > 0 else str(n)


def dotted(values: Iterable[int]) -> str:
    """Numbers joined by dots: 10.5.0."""
    return ".".join(str(v) for v in values)


def listed(head: str, items: Iterable[object]) -> str:
    """An order's text: its head, then its items, or NONE when it has none."""
    text = " ".join(str(i) for i in items)
    return f"{head} {text or 'NONE'}"


def matches(
    tokens: Iterable[str],
    pattern: re.Pattern[str],
    what: str,
    text: str | None = None,
    error: type[ValueError] = ValueError,
) -> list[re.Match[str]]:
    """Each token matched by `pattern`; `error` names the first that is not (`what` says what
    it should be, `text` the order it stands in)."""
    out = []
    for tok in tokens:
        m = pattern.match(tok)
        if not m:
            where = f" in '{text}'" if text is not None else ""
            raise error(f"'{tok}'{where} is not {what}")
        out.append(m)
    return out


def groups(m: re.Match[str]) -> tuple[str, ...]:
    """A matched item as the text of its pattern's groups, in order (an item of `Listed`)."""
    return tuple(m.groups())


def whole(m: re.Match[str]) -> str:
    """A matched item as the whole token (an item of `Listed`)."""
    return m.group(0)


@dataclass(frozen=True, slots=True)
class Listed(Generic[OrderT]):
    """An order that lists items of one form: built from the tuple of what `item` reads from
    each token (matched by `pattern`, `what` naming its form in an error), or with none for
    `NONE`."""

    order: Callable[..., OrderT]
    pattern: re.Pattern[str]
    what: str
    item: Callable[[re.Match[str]], object]

    def read(self, rest: list[str]) -> OrderT:
        """The order from the tokens after its head."""
        if rest == ["NONE"]:
            return self.order()
        return self.order(tuple(self.item(m) for m in matches(rest, self.pattern, self.what)))
