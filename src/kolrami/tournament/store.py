"""The tournament store: SQLite or PostgreSQL through SQLAlchemy 2, migrated by Alembic.

Every operation is one transaction: a crash or a kill leaves the store as it was before the
operation, or with the whole of it (a round is paired, a result recorded, completely or not at
all). Store is the facade the CLI and the web call: each of its use cases is a function of
services/ run in one transaction (Store.transaction, a unit of work), over the repositories of
repositories.py. The rules themselves are in core.py, the checks of what is entered in
scoring.py, the database (URL, engine, locks, migrations, unusable databases) in database.py.
Here: the transaction, the pages' snapshots of an event, and the few reads asked on every page.
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from contextvars import Token
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime
from typing import Any
from typing import Concatenate
from typing import ParamSpec
from typing import TypeVar

from sqlalchemy import Connection
from sqlalchemy import event
from sqlalchemy import select
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm import sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.tournament import core
from kolrami.tournament.database import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from kolrami.tournament.database import DEFAULT_DB as DEFAULT_DB
from kolrami.tournament.database import MIGRATIONS as MIGRATIONS
from kolrami.tournament.database import WRITING
from kolrami.tournament.database import ConflictError as ConflictError
from kolrami.tournament.database import StoreBusyError as StoreBusyError
from kolrami.tournament.database import StoreUnavailableError as StoreUnavailableError
from kolrami.tournament.database import cannot_open
from kolrami.tournament.database import check_length
from kolrami.tournament.database import damaged
from kolrami.tournament.database import database_url as database_url
from kolrami.tournament.database import make_engine
from kolrami.tournament.database import refuse_long_texts
from kolrami.tournament.database import store_problem as store_problem
from kolrami.tournament.database import upgrade
from kolrami.tournament.models import BattleLogRow
from kolrami.tournament.models import EventOrganizerRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import GameRow
from kolrami.tournament.models import PlayerRow
from kolrami.tournament.models import ResultReportRow
from kolrami.tournament.models import RollOffRow
from kolrami.tournament.models import RoundRow
from kolrami.tournament.models import SecretRow
from kolrami.tournament.repositories import NO_EVENT as NO_EVENT
from kolrami.tournament.repositories import OPEN_REPORTS as OPEN_REPORTS
from kolrami.tournament.repositories import SESSION_LIFETIME as SESSION_LIFETIME
from kolrami.tournament.repositories import bump_revisions
from kolrami.tournament.repositories import naive_utc as naive_utc
from kolrami.tournament.repositories import session_key
from kolrami.tournament.repositories import transaction_over
from kolrami.tournament.scoring import MAX_FLEET_POINTS as MAX_FLEET_POINTS
from kolrami.tournament.scoring import MAX_SEED as MAX_SEED
from kolrami.tournament.scoring import ScoreCheckError as ScoreCheckError
from kolrami.tournament.scoring import check_event_settings as check_event_settings
from kolrami.tournament.scoring import check_fleet_points
from kolrami.tournament.services import accounts
from kolrami.tournament.services import drops
from kolrami.tournament.services import edits
from kolrami.tournament.services import joining
from kolrami.tournament.services import pairing
from kolrami.tournament.services import registration
from kolrami.tournament.services import results
from kolrami.tournament.services import standings
from kolrami.tournament.services import timer as timer_service
from kolrami.tournament.services import transfer
from kolrami.tournament.services.results import Entry
from kolrami.tournament.services.results import TableChange
from kolrami.tournament.services.standings import EventState as EventState
from kolrami.tournament.services.standings import roll_offs

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _use_case(
    service: Callable[Concatenate[Session, _P], _R], write: bool = True, checked: bool = False
) -> Callable[Concatenate[Store, _P], _R]:
    """A Store method that runs a service function in one transaction of its own (`write`:
    a write transaction; `checked`: a lost race on a game's version is a ConflictError)."""

    def method(self: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        unit = self._checked() if checked else self.transaction(write)
        with unit as s:
            return service(s, *args, **kwargs)

    method.__doc__ = service.__doc__
    method.__name__ = service.__name__
    return method


def _snapshot_players(c: Connection, event_id: int) -> list[dict[str, Any]]:
    """An event's players as Store.players gives them, for its snapshot."""
    pl = PlayerRow.__table__
    return [
        {
            "id": p.id,
            "name": p.name,
            "email": p.email,
            "joined_round": p.joined_round,
            "dropped_after": p.dropped_after,
            "has_pin": p.has_pin,
        }
        for p in c.execute(
            select(
                pl.c.id,
                pl.c.name,
                pl.c.email,
                pl.c.joined_round,
                pl.c.dropped_after,
                pl.c.pin_hash.is_not(None).label("has_pin"),
            )
            .where(pl.c.event_id == event_id)
            .order_by(pl.c.id)
        )
    ]


def _snapshot_reports(
    c: Connection,
    event_id: int,
    names: dict[int, str],
    game_at: dict[int, tuple[int, int, int, int | None]],
) -> list[dict[str, Any]]:
    """An event's open reports as Store.reports gives them, for its snapshot."""
    rr, gm, rd = (t.__table__ for t in (ResultReportRow, GameRow, RoundRow))
    reports = []
    for r in c.execute(
        select(rr)
        .join(gm, rr.c.game_id == gm.c.id)
        .join(rd, gm.c.round_id == rd.c.id)
        .where(rd.c.event_id == event_id, rr.c.status.in_(OPEN_REPORTS))
        .order_by(rr.c.id)
    ).mappings():
        number, table, a_id, b_id = game_at[r["game_id"]]
        a, b = names[a_id], names[b_id] if b_id else ""
        reports.append(
            {
                "id": r["id"],
                "round": number,
                "table": table,
                "reporter": names[r["reporter_id"]],
                "confirmer": b if r["reporter_id"] == a_id else a,
                "winner": names[r["winner_id"]],
                "fp": {a: r["fp_a"], b: r["fp_b"]},
                "status": r["status"],
                "note": r["note"],
                "resolved_by": r["resolved_by"],
            }
        )
    return reports


def _snapshot_state(
    e: Any,
    players: list[dict[str, Any]],
    core_rounds: tuple[tuple[core.Game, ...], ...],
    rolls: tuple[core.RollOff, ...],
    titles: tuple[str, ...],
) -> EventState:
    """The event's state (standings, pairings) from its snapshot's rows."""
    next_round = len(core_rounds) + 1
    return EventState(
        e["name"],
        e["seed"],
        e["rounds"],
        tuple(p["name"] for p in players),
        tuple(
            p["name"]
            for p in players
            if p["joined_round"] <= next_round
            and (p["dropped_after"] is None or p["dropped_after"] >= next_round)
        ),
        core_rounds,
        rolls,
        titles,
        tuple(p["name"] for p in players if p["dropped_after"] is not None),
    )


def _snapshot_settings(e: Any, titles: tuple[str, ...]) -> dict[str, Any]:
    """An event's settings as Store.settings gives them, for its snapshot."""
    return {
        "name": e["name"],
        "date": e["date"],
        "sp_limit": e["sp_limit"],
        "scenario": e["scenario"],
        "rounds": e["rounds"],
        "round_minutes": e["round_minutes"],
        "seed": e["seed"],
        "titles": list(titles),
        "faction_surcharge": e["faction_surcharge"],
        "max_resets": e["max_resets"],
    }


@dataclass(frozen=True, slots=True)
class EventSnapshot:
    """Everything the event's pages show, read in one transaction at one revision.

    The store keeps the latest snapshot of each event it was asked for and hands it out again
    while the event's revision in the database is unchanged. Treat it as read-only; `memo`
    holds what callers derive from it (page models, rendered fragments), so they live exactly
    as long as the snapshot they came from.
    """

    id: int
    revision: int
    settings: dict[str, Any]  # as Store.settings
    state: EventState
    players: tuple[dict[str, Any], ...]  # as Store.players
    rounds: tuple[tuple[dict[str, Any], ...], ...]  # each round's tables, as Store.games
    open_reports: tuple[dict[str, Any], ...]  # as Store.reports, status pending/disputed/flagged
    logged: frozenset[tuple[int, int]]  # as Store.battle_log_tables
    organizers: tuple[int, ...]  # as Store.organizers_of
    memo: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The event's name."""
        return str(self.settings["name"])


class _WriteLock:
    """The process's write lock: held by a thread's transaction, or by a unit of work, whose
    steps (a web request's dependencies, its route, its commit) may run in several threads one
    after another, so it is not a thread's own lock. Its holder may take it again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: object | None = None
        self._depth = 0

    def acquire(self, owner: object) -> None:
        if self._owner is owner:  # only the holder itself can find itself here
            self._depth += 1
            return
        self._lock.acquire()
        self._owner, self._depth = owner, 1

    def release(self, owner: object) -> None:
        assert self._owner is owner, "released by one that does not hold it"
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()


class Unit:
    """One session over many store calls: a web request's or a CLI command's (Store.unit).

    Its reads share one transaction (one snapshot) until its first write; from the first write
    on it is one write transaction, taken then (the write lock, BEGIN IMMEDIATE on SQLite), so a
    request that reads and waits (a password hash, an AI battle) holds no lock meanwhile, and
    committed once, by `finish`, before the answer goes out. Each store call inside it is a
    savepoint: a call that is refused leaves the unit's earlier work as it was. Its steps may
    run in different threads, one at a time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.done = False
        self.writing = False
        self._session: Session | None = None
        self._guard = threading.RLock()
        self._token: Token[Unit | None] | None = None

    def session(self, write: bool) -> Session:
        """The unit's session, in a write transaction when `write` (from now on)."""
        with self._guard:
            s = self._session
            if s is not None and (self.writing or not write):
                return s
            if s is not None:  # it has only read so far: the write transaction starts now
                s.commit()
                s.expire_all()
            else:
                s = self._session = self.store._sessions()
            if write:
                self.store._writers.acquire(self)
                self.writing = True
            mode = WRITING.set(write)
            try:
                s.begin()
                s.connection()  # BEGIN (IMMEDIATE) now, under this mode
            finally:
                WRITING.reset(mode)
            return s

    def finish(self, commit: bool) -> None:
        """Commit the unit (`commit`) or roll it back, once; a commit that fails is rolled back
        and raises the store's typed error."""
        with self._guard:
            if self.done:
                return
            self.done = True
            s, self._session = self._session, None
            if s is None:
                return
            try:
                if commit:
                    pause = os.environ.get("KOLRAMI_TEST_PAUSE_IN_TRANSACTION")
                    if pause and self.writing:  # the crash-safety test kills the process here
                        s.flush()
                        time.sleep(float(pause))
                    s.commit()
                else:
                    s.rollback()
            except (DatabaseError, sqlite3.DatabaseError) as exc:
                s.rollback()
                problem = store_problem(self.store.url, exc)
                if problem is None:
                    raise
                raise problem from None
            finally:
                s.close()
                if self.writing:
                    self.writing = False
                    self.store._writers.release(self)

    def end(self, commit: bool) -> None:
        """Finish a unit begun with Store.begin_unit, and stop joining it."""
        try:
            self.finish(commit)
        finally:
            if self._token is not None:
                self.deactivate(self._token)
                self._token = None

    def activate(self) -> Token[Unit | None]:
        """Make this the unit the store calls of the current context join."""
        return _UNIT.set(self)

    @staticmethod
    def deactivate(token: Token[Unit | None]) -> None:
        """Undo `activate`."""
        _UNIT.reset(token)


#: The unit of work the current request or command runs in, if any.
_UNIT: ContextVar[Unit | None] = ContextVar("kolrami_store_unit", default=None)


class Store:
    """One database of events: the facade the CLI and the web call. Each use case runs in one
    transaction of its own, made of the services' functions."""

    def __init__(self, url: str | None = None, *, fast_path: bool = True) -> None:
        """`fast_path`: record_game in plain SQL statements (False: through the ORM, the
        reference the fast path is tested against; both store the same rows)."""
        self.url = database_url(url)
        self.fast_path = fast_path
        try:
            self.engine = make_engine(self.url)
            upgrade(self.engine)
        except KolramiError:
            raise
        except Exception as exc:
            problem = store_problem(self.url, exc)
            if problem is not None:
                raise problem from None
            raise InvalidInputError(cannot_open(self.url, exc)) from None
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        event.listen(self._sessions, "before_flush", refuse_long_texts)
        event.listen(self._sessions, "after_flush", bump_revisions)
        event.listen(self._sessions, "after_commit", transaction_over)
        event.listen(self._sessions, "after_soft_rollback", transaction_over)
        # Writers of this process queue here rather than poll SQLite's lock (busy_timeout
        # sleeps); other processes still meet them at SQLite's lock.
        self._writers = _WriteLock()
        self._snapshots: dict[int, EventSnapshot] = {}
        self._snapshot_lock = threading.Lock()

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[Session]:
        """One unit of work: committed whole, or rolled back whole.

        `write=False` promises only to read: it does not wait for writers and sees one
        consistent snapshot (a write in it may fail when another connection writes first).
        """
        unit = _UNIT.get()
        if unit is not None and unit.store is self and not unit.done:
            try:
                session = unit.session(write)
                with session.begin_nested():  # a savepoint: a refused call undoes only itself
                    yield session
                # what earlier calls loaded (an event's players, its rounds) is read again:
                # rows this call added by their keys are not in those collections yet
                session.expire_all()
            except (DatabaseError, sqlite3.DatabaseError) as exc:
                problem = store_problem(self.url, exc)
                if problem is None:
                    raise
                raise problem from None
            return
        mode = WRITING.set(write)
        thread = threading.current_thread()
        try:
            if write:
                self._writers.acquire(thread)
                try:
                    session_cm = self._sessions.begin()
                    with session_cm as session:
                        yield session
                        pause = os.environ.get("KOLRAMI_TEST_PAUSE_IN_TRANSACTION")
                        if pause:  # lets the crash-safety test kill the process mid-transaction
                            session.flush()
                            time.sleep(float(pause))
                finally:
                    self._writers.release(thread)
            else:
                with self._sessions.begin() as session:
                    yield session
        except (DatabaseError, sqlite3.DatabaseError) as exc:
            # rolled back already; a database that cannot be used says so in one line
            problem = store_problem(self.url, exc)
            if problem is None:
                raise
            raise problem from None
        finally:
            WRITING.reset(mode)

    @contextmanager
    def unit(self) -> Iterator[Unit]:
        """One unit of work over every store call made in it (a CLI command): committed
        whole when it ends, rolled back whole when it raises."""
        u = Unit(self)
        token = u.activate()
        try:
            yield u
        except BaseException:
            u.finish(False)
            raise
        else:
            u.finish(True)
        finally:
            u.deactivate(token)

    def begin_unit(self) -> Unit:
        """A unit of work that the store calls of the current context join from now on, until
        its `end` (a CLI command's: the command runs, then its unit is committed or not)."""
        u = Unit(self)
        u._token = u.activate()
        return u

    def _in_unit(self) -> Unit | None:
        unit = _UNIT.get()
        return unit if unit is not None and unit.store is self and not unit.done else None

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection for a query or two that only read (no session, no write lock)."""
        mode = WRITING.set(False)
        try:
            with self.engine.connect() as connection:
                yield connection
        finally:
            WRITING.reset(mode)

    # --- the use cases (services/), each in one transaction --------------------------------------

    # registration
    create_event = _use_case(registration.create_event)
    add_player = _use_case(registration.add_player)
    set_pin_hash = _use_case(registration.set_pin_hash)
    events = _use_case(registration.events, write=False)
    settings = _use_case(registration.settings, write=False)
    event_list = _use_case(registration.event_list, write=False)
    event_name = _use_case(registration.event_name, write=False)
    event_id = _use_case(registration.event_id, write=False)
    organizers_of = _use_case(registration.organizers_of, write=False)
    players = _use_case(registration.players, write=False)
    fleets = _use_case(registration.fleets, write=False)
    pin_hash = _use_case(registration.pin_hash, write=False)
    # pairing a round; drops
    pair_next_round = _use_case(pairing.pair_next_round)
    games = _use_case(pairing.games, write=False)
    drop_player = _use_case(drops.drop_player)
    # edits before and during the event; co-organizers
    rename_player = _use_case(edits.rename_player)
    remove_player = _use_case(edits.remove_player)
    change_fleet = _use_case(edits.change_fleet)
    undo_drop = _use_case(edits.undo_drop)
    cancel_round = _use_case(edits.cancel_round)
    repair_round = _use_case(edits.repair_round)
    swap_players = _use_case(edits.swap_players)
    co_organizers = _use_case(edits.co_organizers, write=False)
    share_event = _use_case(edits.share_event)
    unshare_event = _use_case(edits.unshare_event)
    hand_over = _use_case(edits.hand_over)
    # results: recording, verifying, correcting; the players' reports
    record_result = _use_case(results.record_result)
    verify = _use_case(results.verify)
    report_result = _use_case(results.report_result)
    confirm_report = _use_case(results.confirm_report, checked=True)
    dispute_report = _use_case(results.dispute_report)
    reports = _use_case(results.reports, write=False)
    battle_log = _use_case(results.battle_log, write=False)
    battle_log_tables = _use_case(results.battle_log_tables, write=False)
    # standings and roll-offs
    state = _use_case(standings.state, write=False)
    corrections = _use_case(standings.corrections, write=False)
    record_roll_off = _use_case(standings.record_roll_off)
    roll_off_ties = _use_case(standings.roll_off_ties)
    # the whole event as one document
    export = _use_case(transfer.export, write=False)
    standings_csv = _use_case(transfer.standings_csv, write=False)
    import_event = _use_case(transfer.import_event)
    # the round's timer (OP-02)
    timer = _use_case(timer_service.timer, write=False)
    start_timer = _use_case(timer_service.start_timer)
    pause_timer = _use_case(timer_service.pause_timer)
    resume_timer = _use_case(timer_service.resume_timer)
    add_time = _use_case(timer_service.add_time)
    # players joining from their phones; the venue and the archive
    public_settings = _use_case(joining.public_settings, write=False)
    set_public_settings = _use_case(joining.set_public_settings)
    request_join = _use_case(joining.request_join)
    join_requests = _use_case(joining.join_requests, write=False)
    approve_join = _use_case(joining.approve_join)
    refuse_join = _use_case(joining.refuse_join)
    refuse_all_joins = _use_case(joining.refuse_all_joins)
    archive = _use_case(joining.archive, write=False)
    # accounts
    create_organizer = _use_case(accounts.create_organizer)
    create_first_organizer = _use_case(accounts.create_first_organizer)
    organizer = _use_case(accounts.organizer, write=False)
    organizer_count = _use_case(accounts.organizer_count, write=False)
    start_web_session = _use_case(accounts.start_web_session)
    end_web_session = _use_case(accounts.end_web_session)
    end_web_sessions = _use_case(accounts.end_web_sessions)
    web_sessions = _use_case(accounts.web_sessions, write=False)
    set_password_hash = _use_case(accounts.set_password_hash)
    remove_organizer = _use_case(accounts.remove_organizer)
    adopt_event = _use_case(accounts.adopt_event)

    def record_game(
        self,
        event_name: str | None,
        number: int,
        table: int,
        winner: str,
        fleet_points: dict[str, int],
        who: str,
        expected_version: int | None = None,
        battle_log: tuple[str, str] | None = None,
        unless_warned: bool = False,
    ) -> str:
        """A whole table's result in one transaction: the winner and both players' Fleet Points.

        For the organizer's entry or override and for battles the AI played (`battle_log`:
        captains and the JSONL log, kept for the replay). Every entry is logged with `who`;
        players' open reports of the table are closed. With `expected_version` a stale entry
        is refused (ConflictError). Returns the score-check warnings, '' when there are none;
        with `unless_warned` a score the check rejects is not recorded but refused
        (ScoreCheckError), so that the organizer can look again and accept it.

        The busiest write of the web app (every result at the counter), so it is made of plain
        SQL statements in the store's write transaction rather than ORM objects (a fifth of the
        time); the corrections log's lines and the score check are the ones the other result
        paths use, and the revision is bumped here as the flush hook would.
        """
        for v in fleet_points.values():
            check_fleet_points(v)
        if len(who) > results.WHO_LENGTH:  # the plain SQL below passes no flush check
            raise InvalidInputError(check_length("who", who, results.WHO_LENGTH), field="who")
        with self._checked() as s:
            entry = Entry(number, table, winner, dict(fleet_points), who, expected_version)
            if self.fast_path:
                flag, change = results.record_game_plain(
                    s, event_name, entry, battle_log, unless_warned
                )
            else:
                flag, change = results.record_game_orm(
                    s, event_name, entry, battle_log, unless_warned
                )
        self._follow(change)
        return flag

    # --- reads on every page, and the pages' snapshots -----------------------------------------

    def event_revision(self, event_id: int) -> tuple[str, int] | None:
        """(name, revision) of an event, or None: one small query, no transaction."""
        row = self._one("SELECT name, revision FROM events WHERE id = :id", id=event_id)
        return None if row is None else (str(row[0]), int(row[1]))

    def _one(self, sql: str, **params: Any) -> tuple[Any, ...] | None:
        """The first row of a small read (named :params), or None. Asked on every page (the
        revision check, who is logged in), so on SQLite it goes to the driver directly: a
        tenth of the cost through SQLAlchemy's layers."""
        unit = self._in_unit()
        if unit is not None:  # inside a request's unit: its session, on SQLite its driver's
            with self.transaction(write=False) as s:
                if self._sqlite:
                    driver = s.connection().connection.driver_connection
                    assert driver is not None
                    got = driver.execute(sql, params).fetchone()
                    return None if got is None else tuple(got)
                row = s.execute(text(sql), params).first()
                return None if row is None else tuple(row)
        try:
            if not self._sqlite:
                with self._reading() as c:
                    row = c.execute(text(sql), params).first()
                return None if row is None else tuple(row)
            connection = self.engine.raw_connection()
            try:
                cursor = connection.cursor()
                try:
                    cursor.execute(sql, params)  # no BEGIN (see make_engine): one read, autocommit
                    found = cursor.fetchone()
                finally:
                    cursor.close()
            finally:
                connection.close()
        except (DatabaseError, sqlite3.DatabaseError) as exc:
            problem = store_problem(self.url, exc)
            if problem is None:
                raise
            raise problem from None
        return None if found is None else tuple(found)

    def snapshot(self, event_id: int) -> EventSnapshot:
        """The event as its pages show it: the kept snapshot while the event's revision in the
        database is the one it was read at, else a fresh one (one read transaction)."""
        unit = self._in_unit()
        if unit is not None and unit.writing:  # its writes are not committed: kept by nobody
            return self._read_snapshot(event_id)
        head = self.event_revision(event_id)
        if head is None:
            raise InvalidInputError(f"no event #{event_id}")
        kept = self._snapshots.get(event_id)
        if kept is not None and (kept.name, kept.revision) == head:
            return kept
        fresh = self._read_snapshot(event_id)
        self._snapshots[event_id] = fresh
        return fresh

    def _follow(self, change: TableChange) -> None:
        """After a table's result was written here: when the kept snapshot of the event is the
        one the write started from (so the write is the only change between the two
        revisions), keep the snapshot of the new revision, made from it and the change,
        instead of reading the event again at the next page."""
        if self._in_unit() is not None:  # not committed yet, and more may follow in the unit
            return
        kept = self._snapshots.get(change.event_id)
        if kept is None or kept.revision != change.before or change.after != change.before + 1:
            return
        tables = kept.rounds[change.round - 1]
        at = next((i for i, t in enumerate(tables) if t["table"] == change.table), None)
        if at is None:
            return
        row = {**tables[at], **change.row}
        rows = (*tables[:at], row, *tables[at + 1 :])
        rounds = (*kept.rounds[: change.round - 1], rows, *kept.rounds[change.round :])
        games = kept.state.rounds[change.round - 1]  # only the changed table's game is new
        games = (*games[:at], *_core_round(change.round, (row,)), *games[at + 1 :])
        state = dataclasses.replace(
            kept.state,
            rounds=(
                *kept.state.rounds[: change.round - 1],
                games,
                *kept.state.rounds[change.round :],
            ),
        )
        fresh = dataclasses.replace(
            kept,
            revision=change.after,
            state=state,
            rounds=rounds,
            # the table's open reports were all closed (accepted or overridden)
            open_reports=tuple(
                r
                for r in kept.open_reports
                if (r["round"], r["table"]) != (change.round, change.table)
            ),
            logged=kept.logged | {(change.round, change.table)} if change.logged else kept.logged,
            memo={},
        )
        with self._snapshot_lock:  # only over the snapshot it was made from
            if self._snapshots.get(change.event_id) is kept:
                self._snapshots[change.event_id] = fresh

    def _read_snapshot(self, event_id: int) -> EventSnapshot:
        """One snapshot, all in one read transaction: the revision is read first, so the rest
        is never older than the revision it is kept under."""
        ev, rd, gm = (t.__table__ for t in (EventRow, RoundRow, GameRow))
        ro, bl, eo = (t.__table__ for t in (RollOffRow, BattleLogRow, EventOrganizerRow))
        with self.transaction(write=False) as s:
            c = s.connection()
            e = c.execute(select(ev).where(ev.c.id == event_id)).mappings().first()
            if e is None:
                raise InvalidInputError(f"no event #{event_id}")
            players = _snapshot_players(c, event_id)
            names = {p["id"]: p["name"] for p in players}
            of_event = select(rd.c.number).where(rd.c.event_id == event_id)
            numbers = list(c.scalars(of_event.order_by(rd.c.number)))
            games: dict[int, list[dict[str, Any]]] = {n: [] for n in numbers}
            game_at: dict[int, tuple[int, int, int, int | None]] = {}
            for g in c.execute(
                select(gm, rd.c.number)
                .join(rd, gm.c.round_id == rd.c.id)
                .where(rd.c.event_id == event_id)
                .order_by(rd.c.number, gm.c.table)
            ).mappings():
                game_at[g["id"]] = (g["number"], g["table"], g["a_id"], g["b_id"])
                games[g["number"]].append(
                    {
                        "table": g["table"],
                        "a": names[g["a_id"]],
                        "b": names[g["b_id"]] if g["b_id"] else None,
                        "winner": names[g["winner_id"]] if g["winner_id"] else None,
                        "fp_a": g["fp_a"],
                        "fp_b": g["fp_b"],
                        "build_initials_a": g["build_initials_a"],
                        "build_initials_b": g["build_initials_b"],
                        "result_initials_a": g["result_initials_a"],
                        "result_initials_b": g["result_initials_b"],
                        "flag": g["flag"],
                        "version": g["version"],
                        "entered_by": g["entered_by"],
                    }
                )
            rolls = roll_offs(
                c.execute(
                    select(
                        ro.c.batch,
                        ro.c.after_round,
                        ro.c.battle_points,
                        ro.c.fleet_points,
                        ro.c.throws,
                        ro.c.player_id,
                        ro.c.source,
                    )
                    .where(ro.c.event_id == event_id)
                    .order_by(ro.c.id)
                ),
                names,
            )
            reports = _snapshot_reports(c, event_id, names, game_at)
            logged = frozenset(
                game_at[gid][:2]
                for gid in c.scalars(
                    select(bl.c.game_id)
                    .join(gm, bl.c.game_id == gm.c.id)
                    .join(rd, gm.c.round_id == rd.c.id)
                    .where(rd.c.event_id == event_id)
                )
            )
            organizers = tuple(
                c.scalars(select(eo.c.organizer_id).where(eo.c.event_id == event_id))
            )
        rounds = tuple(tuple(games[n]) for n in numbers)
        core_rounds = tuple(
            _core_round(number, tables) for number, tables in zip(numbers, rounds, strict=True)
        )
        titles = tuple(json.loads(e["titles"]))
        state = _snapshot_state(e, players, core_rounds, rolls, titles)
        settings = _snapshot_settings(e, titles)
        return EventSnapshot(
            event_id,
            e["revision"],
            settings,
            state,
            tuple(players),
            rounds,
            tuple(reports),
            logged,
            organizers,
        )

    # --- the database itself --------------------------------------------------------------------

    @contextmanager
    def _checked(self) -> Iterator[Session]:
        """A transaction in which losing a race on a game's version is a ConflictError."""
        try:
            with self.transaction() as s:
                yield s
        except StaleDataError:
            raise ConflictError(
                "this table was changed by someone else a moment ago; reload it and enter the "
                "result again"
            ) from None

    def check_health(self) -> None:
        """Read the whole SQLite file once (PRAGMA quick_check): a damaged database is refused
        before a server starts on it, not found on some later page. Other databases check
        themselves."""
        if not self._sqlite:
            return
        try:
            with self._reading() as c:
                found = [str(r[0]) for r in c.exec_driver_sql("PRAGMA quick_check").fetchall()]
        except (DatabaseError, sqlite3.DatabaseError) as exc:
            problem = store_problem(self.url, exc)
            if problem is None:
                raise
            raise problem from None
        if found != ["ok"]:
            raise StoreUnavailableError(damaged(self.url, found[0] if found else "no answer"))

    def secret(self, name: str) -> str:
        """A random secret kept in the store (made on first use), e.g. the session key."""
        for _ in range(2):
            try:
                with self.transaction() as s:
                    row = s.get(SecretRow, name)
                    if row is None:
                        row = SecretRow(name=name, value=secrets.token_urlsafe(48))
                        s.add(row)
                    return row.value
            except IntegrityError:  # another process made it first: read theirs
                continue
        raise KolramiError(f"cannot keep the secret '{name}' in {self.url}")

    def web_session(self, token: str) -> tuple[int, str] | None:
        """(organizer id, user name) of a live session, or None: ended, unknown, or older than
        SESSION_LIFETIME from its login (the lifetime is absolute: using it does not renew it)."""
        row = self._one(
            "SELECT o.id, o.username, w.created_at FROM web_sessions w "
            "JOIN organizers o ON o.id = w.organizer_id WHERE w.id = :id",
            id=session_key(token),
        )
        if row is None:
            return None
        made = row[2] if isinstance(row[2], datetime) else datetime.fromisoformat(str(row[2]))
        if made.replace(tzinfo=None) < naive_utc(-SESSION_LIFETIME):
            return None
        return int(row[0]), str(row[1])


def _core_round(number: int, tables: tuple[dict[str, Any], ...]) -> tuple[core.Game, ...]:
    """A round of a snapshot (its tables, as Store.games) as core.py sees it."""
    return tuple(
        core.Game(
            number,
            g["a"],
            g["b"],
            g["winner"],
            tuple(
                (who, fp)
                for who, fp in ((g["a"], g["fp_a"]), (g["b"], g["fp_b"]))
                if who is not None and fp is not None
            ),
        )
        for g in tables
    )
