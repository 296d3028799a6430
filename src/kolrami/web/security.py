"""What keeps the web app's doors shut: hashed passwords and PINs, CSRF tokens, attempt limits.

Passwords and PINs are hashed with argon2 (argon2-cffi); the session cookie is signed by
Starlette's SessionMiddleware (HttpOnly, SameSite=Lax); every form carries a CSRF token bound to
the session; wrong PINs and passwords slow the device that gives them down, more after each one,
without ever locking out the owner of the right one (Throttle).
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError
from argon2.exceptions import VerificationError

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
class _Count:
    """Wrong answers of one key: how many, the last one's time, and until when it waits."""

    failures: int = 0
    last: float = 0.0
    until: float = 0.0


@dataclass(slots=True)
class Throttle:
    """Growing delays after wrong passwords or PINs, per account and per device; never a lock.

    A device (a client address) that gives wrong answers waits longer after each one past its
    free tries: 1 s, 2 s, 4 s ... up to `cap_seconds`, and while it waits it is answered 429
    with Retry-After, its answer not even checked. Wrong answers to one account (a user name, a
    player's PIN) are counted as well, from every device: a device that gives a wrong one to an
    account under attack waits at least the account's delay, so many devices together gain
    little. No wait ever falls on a device that has not itself given a wrong answer: the owner,
    with the right password on another device, always gets in. Counts are forgotten after
    `forget_seconds` without a wrong answer, and live in memory (a restart forgets them, which
    only gives an attacker his free tries again).
    """

    account_free: int = 3
    device_free: int = 5
    base_seconds: float = 1.0
    cap_seconds: float = 900.0
    forget_seconds: float = 3600.0
    clock: Callable[[], float] = time.monotonic
    _accounts: dict[str, _Count] = field(default_factory=dict)
    _devices: dict[str, _Count] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def delay(self, failures: int, free: int) -> float:
        """The wait after `failures` wrong answers, the first `free` of them without one."""
        if failures <= free:
            return 0.0
        return float(min(self.cap_seconds, self.base_seconds * 2.0 ** min(failures - free - 1, 60)))

    def _count(self, table: dict[str, _Count], key: str, now: float) -> _Count:
        found = table.get(key)
        if found is not None and now - found.last >= self.forget_seconds:
            found = None
        if found is None:
            if len(table) >= THROTTLE_KEYS:  # many addresses or names: drop the forgotten ones
                for old in [k for k, c in table.items() if now - c.last >= self.forget_seconds]:
                    del table[old]
            found = table[key] = _Count()
        return found

    def wait_seconds(self, device: str) -> int:
        """Whole seconds until `device` may answer again (0: now)."""
        now = self.clock()
        with self._lock:
            found = self._devices.get(device)
            left = 0.0 if found is None else found.until - now
        return math.ceil(left) if left > 0 else 0

    def failed(self, account: str, device: str) -> int:
        """Count a wrong answer to `account` from `device`; returns the device's wait."""
        now = self.clock()
        with self._lock:
            acc = self._count(self._accounts, account, now)
            dev = self._count(self._devices, device, now)
            acc.failures += 1
            dev.failures += 1
            acc.last = dev.last = now
            wait = max(
                self.delay(dev.failures, self.device_free),
                self.delay(acc.failures, self.account_free),
            )
            dev.until = max(dev.until, now + wait)
        return math.ceil(wait)

    def succeeded(self, device: str) -> None:
        """A right answer from `device`: its own count is cleared. The account's is not (an
        attacker's count on it stays until it is forgotten)."""
        with self._lock:
            self._devices.pop(device, None)

    def forgive(self, account: str) -> None:
        """Forget an account's count (a new PIN: the guesses were at the old one)."""
        with self._lock:
            self._accounts.pop(account, None)


#: How many keys a throttle keeps before it drops the forgotten ones.
THROTTLE_KEYS = 10_000


def wait_text(seconds: int) -> str:
    """A wait as people say it: '8 seconds', '4 minutes'."""
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{(seconds + 59) // 60} minutes"


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


@dataclass(slots=True)
class RateLimit:
    """At most `burst` requests at once and `per_minute` a minute on average, per key (a
    client's address, a device): a token bucket. `take` answers 0 (go on) or the whole seconds
    to wait. Keys live in memory, at most THROTTLE_KEYS of them (the fullest are forgotten
    first: a full bucket is what a new key would get anyway)."""

    per_minute: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, key: str) -> int:
        """Count one request of `key`; 0 when it may go on, else the seconds until it may."""
        now = self.clock()
        rate = self.per_minute / 60.0
        with self._lock:
            b = self._buckets.get(key)
            if b is None:
                if len(self._buckets) >= THROTTLE_KEYS:
                    full = [
                        k for k, x in self._buckets.items() if self._level(x, now) >= self.burst
                    ]
                    for k in full or list(self._buckets)[: THROTTLE_KEYS // 10]:
                        del self._buckets[k]
                b = self._buckets[key] = _Bucket(float(self.burst), now)
            b.tokens, b.at = self._level(b, now), now
            if b.tokens >= 1.0:
                b.tokens -= 1.0
                return 0
            return max(1, math.ceil((1.0 - b.tokens) / rate)) if rate > 0 else 3600

    def _level(self, b: _Bucket, now: float) -> float:
        return min(float(self.burst), b.tokens + (now - b.at) * self.per_minute / 60.0)
