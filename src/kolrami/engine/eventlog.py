"""The event log of a battle: compact records, events built on demand.

Recording sits on the hot path of every shot, so the log keeps (event class, field values)
records and builds the event objects only when someone reads them. It is a module of its own so
that it is compiled with the engine (kolrami.COMPILED): the event classes of
kolrami.engine.events are dataclasses with a `kind` class variable, which mypyc cannot build.
"""

from __future__ import annotations

import hashlib
import json
import operator
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import fields
from typing import Any
from typing import Final
from typing import TypeVar

from kolrami.engine.events import Event
from kolrami.engine.events import OrderGiven

E = TypeVar("E", bound=Event)

#: (the class as a module constant: compiled code reads it as a C static)
_ORDER_GIVEN: Final = OrderGiven


def _values_of(cls: type[Event]) -> Callable[[Event], tuple[Any, ...]]:
    """A function giving an event's field values in order, as one tuple (one C call)."""
    names = [f.name for f in fields(cls)]
    if len(names) == 1:
        # (an attrgetter of one name gives the value itself, not a tuple: typed so, as Any,
        # compiled code does not check it for a tuple)
        one = operator.attrgetter(names[0])
        return lambda event: (one(event),)
    return operator.attrgetter(*names)


#: each event class's `_values_of`, made when first needed
_FIELD_VALUES: Final[dict[type[Event], Callable[[Event], tuple[Any, ...]]]] = {}


#: the positions of some fields in an event class's records, by (class, names)
_PLACES: Final[dict[tuple[type[Event], tuple[str, ...]], list[int]]] = {}


def _places(cls: type[Event], names: tuple[str, ...]) -> list[int]:
    """Where each of `names` sits among `cls`'s field values (a record's order)."""
    key = (cls, names)
    places = _PLACES.get(key)
    if places is None:
        order = [f.name for f in fields(cls)]
        places = _PLACES[key] = [order.index(name) for name in names]
    return places


class EventLog:
    """An append-only log of compact records; events are built on demand."""

    __slots__ = ("_records", "changes")

    def __init__(self) -> None:
        self._records: list[tuple[Callable[..., Event], tuple[Any, ...]]] = []
        #: events recorded other than orders: a battle's state changes only with one of them,
        #: so views keep their snapshots while this stands still
        self.changes = 0

    def append(self, cls: Callable[..., Event], values: tuple[Any, ...]) -> None:
        """Append one event as its class and its field values, every field in order, kept
        compact and built when read. Only the battle appends (`Battle.note` a fact,
        `Battle.change` and `Battle.record` a change they have applied)."""
        self._records.append((cls, values))
        if cls is not _ORDER_GIVEN:
            self.changes += 1

    def add(self, event: Event) -> None:
        """Append an event built already (`Battle.record` builds its changes to apply them):
        its field values are kept, as `record` keeps them."""
        cls = type(event)
        values = _FIELD_VALUES.get(cls)
        if values is None:
            values = _FIELD_VALUES[cls] = _values_of(cls)
        self._records.append((cls, values(event)))
        if cls is not _ORDER_GIVEN:
            self.changes += 1

    def reopen(self, cls: Callable[..., Event], values: tuple[Any, ...]) -> None:
        """Put `cls(*values)` in place of the log's first record (its opening: a copy's own
        header, `Battle.reseed`)."""
        self._records[0] = (cls, values)

    def copy(self) -> EventLog:
        """A log with the same records that grows on its own (records are immutable)."""
        other = EventLog()
        other._records = list(self._records)
        other.changes = self.changes
        return other

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[Event]:
        for cls, values in self._records:
            yield cls(*values)

    def events(self) -> list[Event]:
        """All events, built now."""
        return list(self)

    def since(self, start: int, cls: type[E]) -> Iterator[E]:
        """The events of one class from the `start`-th record on, built on demand (a search
        reads what happened in its rollout without building the battle's whole log)."""
        for c, values in self._records[start:]:
            if c is cls:
                yield c(*values)

    def fields_since(self, start: int, cls: type[Event], *names: str) -> Iterator[tuple[Any, ...]]:
        """Some fields of the events of one class from the `start`-th record on, as tuples in
        the order of `names`, without building the events: what a search reads of every
        rollout (the admiral's fire luck reads each volley's target, weapon and rolls)."""
        places = _places(cls, names)
        for c, values in self._records[start:]:
            if c is cls:
                yield tuple([values[i] for i in places])

    def count(self, cls: type[Event]) -> int:
        """How many events of one class, without building them."""
        return sum(1 for c, _ in self._records if c is cls)

    def jsonl(self) -> str:
        """The log as JSON lines, one event per line, keys in field order."""
        return "".join(
            json.dumps(e.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n" for e in self
        )

    def sha256(self) -> str:
        """Fingerprint of the JSONL form: two runs agree exactly when these agree."""
        return hashlib.sha256(self.jsonl().encode()).hexdigest()
