"""The round's timer (OP-02: a Battle Round is 60 minutes, or the event's length of round):
started, paused, resumed and given extra minutes by the organizer.

Everything the timer is lives in the round's row (when it was started, when it was paused, the
seconds of earlier pauses, the minutes added), never in a server's memory: a server restarted
mid-round reads the same remaining time back. Times are UTC without a zone, as the DateTime
columns hold them; `now` is passed in by the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from datetime import timedelta
from typing import Protocol

from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import RoundRow
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Rounds
from kolrami.tournament.repositories import naive_utc

#: The most minutes the organizer may add in one go (a round of 60 plus this is a long night).
MAX_ADDED_MINUTES = 120
#: The most minutes a round may be given in all (issue 44: added minutes had no total cap, and
#: a clock that never ends keeps the whole event waiting).
MAX_ROUND_ADDED_MINUTES = 180


@dataclass(frozen=True, slots=True)
class Timer:
    """A round's timer as it stands at `now` (UTC without a zone)."""

    event: str
    round: int
    minutes: int  # the event's length of round (OP-02)
    added_minutes: int
    started_at: datetime | None
    paused_at: datetime | None
    paused_seconds: int
    now: datetime

    @property
    def started(self) -> bool:
        """The organizer has started it."""
        return self.started_at is not None

    @property
    def paused(self) -> bool:
        """Started and paused now."""
        return self.paused_at is not None

    @property
    def running(self) -> bool:
        """Started, not paused, time left."""
        return self.started and not self.paused and self.remaining_seconds > 0

    @property
    def length_seconds(self) -> int:
        """The round's whole length with the minutes added."""
        return (self.minutes + self.added_minutes) * 60

    @property
    def elapsed_seconds(self) -> float:
        """The time the clock has run: since the start, less every pause."""
        if self.started_at is None:
            return 0.0
        until = self.paused_at or self.now
        return max(0.0, (until - self.started_at).total_seconds() - self.paused_seconds)

    @property
    def remaining_seconds(self) -> float:
        """What is left of the round (0 once it is over)."""
        return max(0.0, self.length_seconds - self.elapsed_seconds)

    @property
    def over(self) -> bool:
        """Started and no time left."""
        return self.started and self.remaining_seconds <= 0

    @property
    def ends_at(self) -> datetime | None:
        """When the round ends if nobody pauses it again (UTC); None before the start."""
        if self.started_at is None:
            return None
        return self.now + timedelta(seconds=self.remaining_seconds)

    @property
    def status(self) -> str:
        """not started, running, paused or over."""
        if not self.started:
            return "not started"
        if self.over:
            return "over"
        return "paused" if self.paused else "running"

    def as_dict(self) -> dict[str, object]:
        """For the clock's JSON and the CLI."""
        ends = self.ends_at
        return {
            "event": self.event,
            "round": self.round,
            "status": self.status,
            "minutes": self.minutes,
            "added_minutes": self.added_minutes,
            "remaining_seconds": round(self.remaining_seconds, 1),
            "ends_at": None if ends is None else ends.isoformat() + "Z",
        }


def _timer(e: EventRow, r: RoundRow, now: datetime) -> Timer:
    return Timer(
        e.name,
        r.number,
        e.round_minutes,
        r.timer_added_minutes,
        r.timer_started_at,
        r.timer_paused_at,
        r.timer_paused_seconds,
        now,
    )


def _round(s: Session, event_name: str | None, number: int | None) -> tuple[EventRow, RoundRow]:
    """The event and its round `number` (None: the latest paired)."""
    e = Events(s).named(event_name)
    if not e.round_rows:
        raise InvalidInputError(
            f"{e.name} has no round paired yet: pair round 1 before starting its timer"
        )
    if number is None:
        return e, e.round_rows[-1]
    return e, Rounds.numbered(e, number)


def timer(
    s: Session, event_name: str | None, number: int | None = None, now: datetime | None = None
) -> Timer:
    """The round's timer (the latest round when `number` is None)."""
    e, r = _round(s, event_name, number)
    return _timer(e, r, now or naive_utc())


def _step(
    s: Session,
    event_name: str | None,
    number: int | None,
    who: str,
    now: datetime | None,
    refusal: Callable[[Timer], str | None],
    change: Callable[[RoundRow, Timer], None],
    note: Callable[[Timer], str],
) -> Timer:
    """The one guarded step every timer command takes: the round's timer at `now`, refused as
    "round N's <refusal>" when `refusal` finds a reason, else changed in the round's row and
    logged as "round N: <note>" (read off the timer after the change)."""
    at = now or naive_utc()
    e, r = _round(s, event_name, number)
    before = _timer(e, r, at)
    why = refusal(before)
    if why is not None:
        raise InvalidInputError(f"round {r.number}'s {why}")
    change(r, before)
    after = _timer(e, r, at)
    Audit(s).log(e, who, f"round {r.number}: {note(after)}")
    return after


class TimerCommand(Protocol):
    """A timer command: the guarded step of one kind on the round `number` (the latest when
    None) of an event, at `now` (the clock's when None)."""

    def __call__(
        self,
        s: Session,
        event_name: str | None,
        number: int | None = None,
        who: str = "organizer",
        now: datetime | None = None,
    ) -> Timer: ...


def _command(
    name: str,
    doc: str,
    refusal: Callable[[Timer], str | None],
    change: Callable[[RoundRow, Timer], None],
    note: Callable[[Timer], str],
) -> TimerCommand:
    """A timer command taking the one guarded step with these parts."""

    def command(
        s: Session,
        event_name: str | None,
        number: int | None = None,
        who: str = "organizer",
        now: datetime | None = None,
    ) -> Timer:
        return _step(s, event_name, number, who, now, refusal, change, note)

    command.__name__ = command.__qualname__ = name
    command.__doc__ = doc
    return command


def _not_started(t: Timer) -> str | None:
    return None if t.started else "timer has not started: start it first"


def _start_refusal(t: Timer) -> str | None:
    return "timer was started already; pause, resume or add time instead" if t.started else None


def _start(r: RoundRow, t: Timer) -> None:
    r.timer_started_at = t.now


start_timer = _command(
    "start_timer",
    "Start the round's clock: the event's length of round from now (OP-02).",
    _start_refusal,
    _start,
    lambda t: f"timer started ({t.minutes} minutes)",
)


def _pause_refusal(t: Timer) -> str | None:
    if not t.started:
        return _not_started(t)
    if t.paused:
        return "timer is paused already; resume it instead"
    return "time is up: add time to go on" if t.over else None


def _pause(r: RoundRow, t: Timer) -> None:
    r.timer_paused_at = t.now


pause_timer = _command(
    "pause_timer",
    "Stop the clock where it is (a judge's call, a fire alarm).",
    _pause_refusal,
    _pause,
    lambda t: f"timer paused with {_mmss(t.remaining_seconds)} left",
)


def _resume_refusal(t: Timer) -> str | None:
    return None if t.paused else "timer is not paused" + ("" if t.started else ": start it first")


def _resume(r: RoundRow, t: Timer) -> None:
    assert r.timer_paused_at is not None  # _resume_refusal refused it otherwise
    r.timer_paused_seconds += max(0, round((t.now - r.timer_paused_at).total_seconds()))
    r.timer_paused_at = None


resume_timer = _command(
    "resume_timer",
    "Let a paused clock run again from where it stopped.",
    _resume_refusal,
    _resume,
    lambda t: f"timer resumed with {_mmss(t.remaining_seconds)} left",
)


def add_time(
    s: Session,
    event_name: str | None,
    minutes: int,
    number: int | None = None,
    who: str = "organizer",
    now: datetime | None = None,
) -> Timer:
    """Give the round extra minutes (1 to MAX_ADDED_MINUTES at a time, at most
    MAX_ROUND_ADDED_MINUTES in all)."""
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not (1 <= minutes <= MAX_ADDED_MINUTES)
    ):
        raise InvalidInputError(
            f"minutes to add '{minutes}': a whole number from 1 to {MAX_ADDED_MINUTES} (time "
            "is only ever added; to end a round early, enter its results)",
            field="minutes",
        )

    def refusal(t: Timer) -> str | None:
        if not t.started:
            return _not_started(t)
        room = MAX_ROUND_ADDED_MINUTES - t.added_minutes
        if minutes <= room:
            return None
        return (
            f"timer has {t.added_minutes} minutes added already and a round takes at most "
            f"{MAX_ROUND_ADDED_MINUTES} in all: "
            + (f"add at most {room}" if room else "enter its results to end it")
        )

    def add(r: RoundRow, t: Timer) -> None:
        if t.over:  # the clock stopped at 0: the added minutes run from now, not from the end
            r.timer_paused_seconds += max(0, round(t.elapsed_seconds - t.length_seconds))
        r.timer_added_minutes += minutes

    return _step(
        s,
        event_name,
        number,
        who,
        now,
        refusal,
        add,
        lambda t: f"{minutes} minutes added to the timer",
    )


def _mmss(seconds: float) -> str:
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"
