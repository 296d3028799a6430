"""The round's timer (issue 17): kept in the round's row, so a new Store on the same database
(a restarted server) reads the same remaining time; pauses, resumes and added minutes; bad
input refused in one line with the store unchanged."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from datetime import timedelta

import pytest

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store

FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack", "presets:federation-venture")
T0 = datetime(2026, 11, 30, 19, 0, 0)


def paired(db: str) -> Store:
    store = Store(db)
    store.create_event("Nov", "2026-11-30", seed=3)
    for i, fleet in enumerate(FLEETS):
        store.add_player("Nov", f"P{i}", load_fleet(fleet))
    store.pair_next_round("Nov")
    return store


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@pytest.mark.rule("OP-02")
def test_a_round_runs_sixty_minutes_and_survives_a_new_store(db: str) -> None:
    store = paired(db)
    assert store.timer("Nov", now=at(0)).status == "not started"
    started = store.start_timer("Nov", now=at(0))
    assert started.remaining_seconds == 3600
    assert started.ends_at == at(60)
    # a restarted server: a new Store on the same database, 20 minutes on
    again = Store(db).timer("Nov", now=at(20))
    assert again.status == "running"
    assert again.remaining_seconds == 40 * 60
    assert again.ends_at == at(60)
    over = Store(db).timer("Nov", now=at(75))
    assert (over.status, over.remaining_seconds) == ("over", 0)


@pytest.mark.rule("OP-02")
def test_pause_resume_and_added_minutes(db: str) -> None:
    store = paired(db)
    store.start_timer("Nov", now=at(0))
    paused = store.pause_timer("Nov", now=at(10))
    assert (paused.status, paused.remaining_seconds) == ("paused", 50 * 60)
    # paused, the clock stands still, across a restart too
    assert Store(db).timer("Nov", now=at(30)).remaining_seconds == 50 * 60
    resumed = store.resume_timer("Nov", now=at(30))
    assert resumed.remaining_seconds == 50 * 60
    assert resumed.ends_at == at(80)
    added = store.add_time("Nov", 5, now=at(40))
    assert added.remaining_seconds == 45 * 60
    assert added.ends_at == at(85)
    # added after the time was up: the minutes run from now, not from the end
    late = store.add_time("Nov", 3, now=at(90))
    assert late.remaining_seconds == 3 * 60
    assert late.ends_at == at(93)
    assert "timer started" in " ".join(c["what"] for c in store.corrections("Nov"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.add_time("Nov", -5, now=at(1)), "a whole number from 1 to 120"),
        (lambda s: s.add_time("Nov", 0, now=at(1)), "a whole number from 1 to 120"),
        (lambda s: s.add_time("Nov", 121, now=at(1)), "a whole number from 1 to 120"),
        (lambda s: s.add_time("Nov", True, now=at(1)), "a whole number from 1 to 120"),
        (lambda s: s.start_timer("Nov", now=at(1)), "was started already"),
        (lambda s: s.resume_timer("Nov", now=at(1)), "is not paused"),
        (lambda s: s.timer("Nov", 2, now=at(1)), "has no round 2"),
    ],
)
def test_bad_timer_input_is_one_line_and_changes_nothing(
    db: str, call: Callable[[Store], object], message: str
) -> None:
    store = paired(db)
    store.start_timer("Nov", now=at(0))
    before = (store.timer("Nov", now=at(1)).as_dict(), len(store.corrections("Nov")))
    with pytest.raises(InvalidInputError, match=message) as caught:
        call(store)
    assert "\n" not in str(caught.value)
    after = (store.timer("Nov", now=at(1)).as_dict(), len(store.corrections("Nov")))
    assert after == before


def test_added_minutes_are_capped_per_round(db: str) -> None:
    """Issue 44: the organizer's added minutes have a total per round, not only per go."""
    store = paired(db)
    store.start_timer("Nov", now=at(0))
    store.add_time("Nov", 120, now=at(1))
    with pytest.raises(
        InvalidInputError,
        match="has 120 minutes added already and a round takes at most 180 in all: add at most 60",
    ):
        store.add_time("Nov", 61, now=at(1))
    store.add_time("Nov", 60, now=at(1))
    assert store.timer("Nov", now=at(1)).added_minutes == 180
    with pytest.raises(InvalidInputError, match="enter its results to end it"):
        store.add_time("Nov", 1, now=at(2))
    assert store.timer("Nov", now=at(2)).added_minutes == 180


def test_no_timer_before_round_one_and_no_pause_before_the_start(db: str) -> None:
    store = Store(db)
    store.create_event("Nov")
    with pytest.raises(InvalidInputError, match="no round paired yet: pair round 1"):
        store.start_timer("Nov")
    for i, fleet in enumerate(FLEETS):
        store.add_player("Nov", f"P{i}", load_fleet(fleet))
    store.pair_next_round("Nov")
    for call in (store.pause_timer, store.resume_timer):
        with pytest.raises(InvalidInputError, match="start it first"):
            call("Nov")
    with pytest.raises(InvalidInputError, match="has not started: start it first"):
        store.add_time("Nov", 5)
    assert store.timer("Nov").status == "not started"
