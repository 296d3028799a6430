"""One loose lookup for every named thing a user types: ship classes, cards, preset fleets,
scenarios, captains, rule modules, players.

A name matches loosely: case, spaces and punctuation do not count ("ktroika", "K'T'Roika" and
"k t roika" are one name). An entry answers to each of its aliases (id, name, designation ...)
and to the last words of its name ("Torga" for "Admiral Torga") when only one entry does. A name
that matches nothing gets suggestions: entries whose name starts with what was typed first ("Ent"
suggests "Enterprise"), then names spelled alike.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, TypeVar

from kolrami.errors import UnknownNameError

T = TypeVar("T")


@lru_cache(maxsize=4096)
def name_key(text: str) -> str:
    """Loose form of a name for lookups: lower case, letters and digits only (memoised: every
    battle looks its ships up by name)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _words(text: str) -> list[str]:
    """The loose keys of a name's words ("Admiral Torga" -> ["admiral", "torga"])."""
    return [w for w in (name_key(p) for p in re.split(r"[\s_:/-]+", text)) if w]


@dataclass(frozen=True, slots=True)
class _Entry(Generic[T]):
    value: T
    label: str  # what a suggestion shows
    keys: tuple[str, ...]  # loose keys of every alias
    tails: tuple[str, ...]  # loose keys of the name's last words, longest first


@dataclass(slots=True)
class Names(Generic[T]):
    """The named things of one kind, found loosely. Build once, look up many times."""

    kind: str  # "ship class", "card", "preset fleet" ... as error messages name it
    _entries: list[_Entry[T]] = field(default_factory=list)
    _exact: dict[str, T] = field(default_factory=dict)

    def add(self, value: T, label: str, *aliases: str | None) -> None:
        """Add an entry shown as `label`, found by `label` and each alias."""
        names = [a for a in (label, *aliases) if a]
        keys = tuple(dict.fromkeys(k for k in (name_key(a) for a in names) if k))
        tails: list[str] = []
        for name in names:
            words = _words(name)
            tails += ["".join(words[i:]) for i in range(1, len(words))]
        entry = _Entry(value, label, keys, tuple(dict.fromkeys(tails)))
        self._entries.append(entry)
        for key in keys:
            self._exact.setdefault(key, value)

    @classmethod
    def of(cls, kind: str, items: Iterable[tuple[T, str, tuple[str | None, ...]]]) -> Names[T]:
        """A lookup from (value, label, aliases) triples."""
        names: Names[T] = cls(kind)
        for value, label, aliases in items:
            names.add(value, label, *aliases)
        return names

    @property
    def labels(self) -> list[str]:
        """Every entry's label, in the order added."""
        return [e.label for e in self._entries]

    def get(self, text: str) -> T | None:
        """The entry `text` names, or None (ambiguous or unknown)."""
        key = name_key(text)
        found = self._exact.get(key)
        if found is not None or not key:
            return found
        by_tail = [e for e in self._entries if key in e.tails]
        return by_tail[0].value if len(by_tail) == 1 else None

    def find(self, text: str) -> T:
        """The entry `text` names; UnknownNameError with suggestions when there is none."""
        found = self.get(text)
        if found is not None:
            return found
        raise UnknownNameError(self.kind, text, self.suggest(text), self.labels)

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """Labels `text` may have meant: up to `n` entries whose name (or one of its words)
        starts with it; failing those, the one name spelled most alike."""
        key = name_key(text)
        if not key:
            return []
        starts = [
            e.label
            for e in self._entries
            if any(k.startswith(key) for k in e.keys) or any(t.startswith(key) for t in e.tails)
        ]
        if starts:
            return starts[:n]
        by_key: dict[str, str] = {}
        for e in self._entries:
            for k in e.keys:
                by_key.setdefault(k, e.label)
        close = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.6)
        return [by_key[c] for c in close]  # the closest spelling only: the next are noise

    def complete(self, text: str) -> list[str]:
        """Labels that complete what was typed so far (Tab at a prompt), loosely: 'ent' gives
        'Enterprise', "k't" gives "K'T'Roika"."""
        key = name_key(text)
        return [
            e.label
            for e in self._entries
            if not key
            or any(k.startswith(key) for k in e.keys)
            or any(t.startswith(key) for t in e.tails)
        ]
