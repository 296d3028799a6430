"""One loose lookup for every named thing a user types: ship classes, cards, preset fleets,
scenarios, captains, rule modules, players.

A name matches loosely: case, spaces, punctuation, accents and full-width forms do not count
("ktroika", "K'T'Roika", "k t roika" and the same in full-width letters are one name). An
entry answers to each of its aliases (id, name, designation ...), to the last words of its
name ("Torga" for "Admiral Torga") when only one entry does, and then to any run of its whole
words ("Tavish" for "Commander Tavish Orrin", "Forward Repair" for "Forward Repair Tender",
"Ana" for "Ana Lima") when only one entry has it. A name that matches nothing gets
suggestions: entries whose name starts with what was typed first ("Ent" suggests
"Enterprise": part of a word is not a match), then names spelled alike.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from typing import Generic
from typing import TypeVar

from kolrami.errors import UnknownNameError

T = TypeVar("T")


@lru_cache(maxsize=4096)
def name_key(text: str) -> str:
    """Loose form of a name for lookups: letters and digits only, case folded, compatibility
    forms folded (a full-width R is 'r') and accents dropped ('é' is 'e'); memoised: every
    battle looks its ships up by name."""
    if text.isascii():  # the common case, fast
        return re.sub(r"[^a-z0-9]", "", text.lower())
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in folded if c.isalnum())


def _words(text: str) -> list[str]:
    """The loose keys of a name's words ("Admiral Torga" -> ["admiral", "torga"])."""
    return [w for w in (name_key(p) for p in re.split(r"[\s_:/-]+", text)) if w]


@dataclass(frozen=True, slots=True)
class _Entry(Generic[T]):
    value: T
    label: str  # what a suggestion shows
    keys: tuple[str, ...]  # loose keys of every alias
    tails: tuple[str, ...]  # loose keys of the name's last words, longest first
    runs: tuple[str, ...]  # loose keys of every run of the name's whole words


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
        runs: list[str] = []
        for name in names:
            words = _words(name)
            tails += ["".join(words[i:]) for i in range(1, len(words))]
            runs += [
                "".join(words[i:j])
                for i in range(len(words))
                for j in range(i + 1, len(words) + 1)
                if (i, j) != (0, len(words))
            ]
        entry = _Entry(value, label, keys, tuple(dict.fromkeys(tails)), tuple(dict.fromkeys(runs)))
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
        if by_tail:
            return by_tail[0].value if len(by_tail) == 1 else None
        if len(key) < 3 or key.isdigit():  # 'a', '2' of 'D-2-a': too little to name a thing
            return None
        by_run = [e for e in self._entries if key in e.runs]
        return by_run[0].value if len(by_run) == 1 else None

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
