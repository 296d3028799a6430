"""What keeps the web app's doors shut: hashed passwords and PINs, CSRF tokens, attempt limits.

Passwords and PINs are hashed with argon2 (argon2-cffi); the session cookie is signed by
Starlette's SessionMiddleware (HttpOnly, SameSite=Lax); every form carries a CSRF token bound to
the session; wrong PINs and passwords are counted and, past a limit, refused for a while.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PIN_DIGITS = 4
MIN_PASSWORD = 8

_hasher = PasswordHasher()
#: PINs are four digits: any hash of them falls to an offline search of 10,000 tries, so what
#: guards them is the attempt limit, not the hash's cost. A lighter argon2 keeps registering and
#: reporting quick on a laptop; the hash still keeps the PIN out of sight in the store.
_pin_hasher = PasswordHasher(time_cost=2, memory_cost=16 * 1024, parallelism=1)


def hash_secret(secret: str) -> str:
    """An argon2 hash of a password (argon2-cffi's default, RFC 9106 low-memory profile)."""
    return _hasher.hash(secret)


def hash_pin(pin: str) -> str:
    """An argon2 hash of a PIN."""
    return _pin_hasher.hash(pin)


def verify_secret(stored: str | None, given: str) -> bool:
    """True when `given` matches the stored argon2 hash of a password or PIN (its parameters
    are in the hash); False for a missing or damaged hash."""
    if not stored:
        return False
    try:
        return _hasher.verify(stored, given)
    except (VerificationError, InvalidHashError):
        return False


def new_pin() -> str:
    """A fresh PIN: four digits, drawn from the system's secure generator."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def new_token() -> str:
    """A fresh CSRF token."""
    return secrets.token_urlsafe(32)


def same_token(expected: str | None, given: str | None) -> bool:
    """Constant-time comparison of a CSRF token with the session's."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


@dataclass(slots=True)
class AttemptLimiter:
    """Counts failures per key in a sliding window; past `limit` the key must wait.

    One limiter guards PINs (keyed by event and player, and by client address), another
    passwords. Counts live in memory: a restart of the server forgets them, which only ever
    lets an attacker try again after the organizer restarts it.
    """

    limit: int = 5
    window_seconds: float = 600.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        while times and now - times[0] >= self.window_seconds:
            times.popleft()
        return times

    def wait_seconds(self, *keys: str) -> int:
        """Seconds until any of `keys` may try again (0: it may try now)."""
        now = self.clock()
        with self._lock:
            waits = [
                self.window_seconds - (now - times[0])
                for key in keys
                if len(times := self._recent(key, now)) >= self.limit
            ]
        return int(max(waits)) + 1 if waits else 0

    def failed(self, *keys: str) -> None:
        """Count one failure against each key."""
        now = self.clock()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)

    def succeeded(self, key: str) -> None:
        """A right answer clears the key's count."""
        with self._lock:
            self._failures.pop(key, None)
