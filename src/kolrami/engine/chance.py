"""Chance: seeded dice for play. Never the global `random`.

Every battle owns one `Dice`, built from a seed; a search AI gets its own through `Dice.spawn`,
so it can never see the battle's future rolls. The exact distributions of the
same dice, for odds, are the rules' (kolrami.rules.exact): the engine knows no game's dice maths.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

#: Seeds live in [0, 2**63): fits SQLite integers and JSON numbers without loss.
SEED_BITS = 63


def derive_seed(*parts: object) -> int:
    """A seed that depends only on `parts` (master seed, matchup, index ...), stable everywhere.

    Uses a cryptographic hash of the parts' text, not Python's `hash`, so every process, machine
    and backend derives the same seed.
    """
    text = "\x1f".join(repr(p) for p in parts).encode()
    digest = hashlib.blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def _bit_length(n: int) -> int:
    """`n.bit_length()`, as a native loop (compiled, the method is a Python call)."""
    n = n if n >= 0 else -n
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


# (compiled, loaded test dice still subclass it in plain Python and override `d`)
@mypyc_attr(allow_interpreted_subclasses=True)
class Dice:
    """A seeded source of dice rolls that counts what it rolls."""

    __slots__ = ("_bits", "_rng", "rolls", "seed")

    # (`seed` typed object: compiled, an int argument would be checked by mypyc first, with
    # its own TypeError, before this ValueError)
    def __init__(self, seed: object) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"a seed is a non-negative integer, not {seed!r}")
        self.seed = seed
        # the generator is seeded at the first roll: a captain that never rolls (the scored
        # doctrines) never pays for seeding one
        self._rng: random.Random | None = None
        self._bits: Callable[[int], int] = self._first_bits
        self.rolls = 0

    def _generator(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(self.seed)
            self._bits = self._rng.getrandbits
        return self._rng

    def _first_bits(self, k: int) -> int:
        return self._generator().getrandbits(k)

    # A die is drawn by rejection from the Mersenne Twister's bits: the fewest bits that can
    # hold every face, drawn again while the value is out of range. That is the algorithm of
    # CPython's randint, written out with the public getrandbits so that logs stay the same
    # whatever the Python version does to randint, and so a die costs one call, not four.
    # `d` is the one primitive: every other die goes through it, so a loaded test die overrides it.

    def d(self, sides: int) -> int:
        """One die with `sides` faces numbered 1..sides."""
        self.rolls += 1
        bits = self._bits
        k = _bit_length(sides)
        r = bits(k)
        while r >= sides:
            r = bits(k)
        return r + 1

    def d6(self) -> int:
        """A six-sided die."""
        return self.d(6)

    def d10(self) -> int:
        """A ten-sided die, 1..10 (a face printed 0 reads as 10)."""
        return self.d(10)

    def d100(self) -> int:
        """Percentile dice, 1..100 ('00' reads as 100)."""
        return self.d(100)

    def many(self, count: int, sides: int) -> list[int]:
        """`count` dice with `sides` faces (the same faces as `count` calls of `d`)."""
        # loaded dice: every die goes through their `d` (a plain Dice's is Dice.d: not asked)
        if type(self) is not Dice and type(self).d is not Dice.d:
            return [self.d(sides) for _ in range(count)]
        self.rolls += count
        bits, k = self._bits, _bit_length(sides)
        out = []
        for _ in range(count):
            r = bits(k)
            while r >= sides:
                r = bits(k)
            out.append(r + 1)
        return out

    def spawn(self, *label: object) -> Dice:
        """An independent generator for `label` (an AI's private copy, a sub-battle ...)."""
        return Dice(derive_seed(self.seed, "spawn", *label))

    def getstate(self) -> tuple[Any, ...]:
        """The generator's state, for snapshots of a battle."""
        return (self._generator().getstate(), self.rolls)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Restore a state from `getstate`."""
        rng_state, self.rolls = state
        self._generator().setstate(rng_state)
