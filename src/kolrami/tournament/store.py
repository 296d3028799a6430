"""The tournament store: SQLite or PostgreSQL through SQLAlchemy 2, migrated by Alembic.

Every operation is one transaction: a crash or a kill leaves the store as it was before the
operation, or with the whole of it (a round is paired, a result recorded, completely or not at
all). The rules themselves are in core.py, the checks of what is entered in scoring.py, the
database (URL, engine, locks, migrations, unusable databases) in database.py; this module reads
and writes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Collection, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    delete,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.exc import DatabaseError, IntegrityError
from sqlalchemy.orm import Session, object_session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm.util import identity_key

from kolrami.catalog.names import Names
from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError, KolramiError
from kolrami.fleet.legality import EventSettings, validate
from kolrami.fleet.model import Fleet, read_fleet
from kolrami.rules.module import Capability
from kolrami.scenarios.models import load_scenario
from kolrami.tournament import core
from kolrami.tournament.database import (
    BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS,
)
from kolrami.tournament.database import (
    DEFAULT_DB as DEFAULT_DB,
)
from kolrami.tournament.database import (
    MIGRATIONS as MIGRATIONS,
)
from kolrami.tournament.database import (
    WRITING,
    cannot_open,
    check_length,
    damaged,
    make_engine,
    refuse_long_texts,
    upgrade,
)
from kolrami.tournament.database import (
    ConflictError as ConflictError,
)
from kolrami.tournament.database import (
    StoreBusyError as StoreBusyError,
)
from kolrami.tournament.database import (
    StoreUnavailableError as StoreUnavailableError,
)
from kolrami.tournament.database import (
    database_url as database_url,
)
from kolrami.tournament.database import (
    store_problem as store_problem,
)
from kolrami.tournament.models import (
    BattleLogRow,
    CorrectionRow,
    EventOrganizerRow,
    EventRow,
    GameRow,
    OrganizerRow,
    PlayerRow,
    ResultReportRow,
    RollOffRow,
    RoundRow,
    SecretRow,
    WebSessionRow,
    now,
)
from kolrami.tournament.names import clean_name, name_key
from kolrami.tournament.scoring import (
    MAX_FLEET_POINTS as MAX_FLEET_POINTS,
)
from kolrami.tournament.scoring import (
    MAX_SEED as MAX_SEED,
)
from kolrami.tournament.scoring import (
    ScoreCheckError as ScoreCheckError,
)
from kolrami.tournament.scoring import (
    capabilities_of,
    result_corrections,
    round_ceilings,
    score_check,
    winner_refusal,
)
from kolrami.tournament.scoring import (
    check_event_settings as check_event_settings,
)
from kolrami.tournament.scoring import (
    check_fleet_points as check_fleet_points,
)

#: The tables whose rows belong to one event, and how a row names it: its event_id, its game's
#: round's event, or its round's event. Tables not named here belong to no event (accounts,
#: secrets). A new table must be added to one or the other (a test checks that).
_BY_EVENT_ID = (EventOrganizerRow, PlayerRow, RoundRow, RollOffRow, CorrectionRow)
_BY_ROUND = (GameRow,)
_BY_GAME = (ResultReportRow, BattleLogRow)
NO_EVENT = (OrganizerRow, SecretRow, WebSessionRow)


def _bump_revisions(session: Session, _context: Any) -> None:
    """After each flush, in its transaction: bump the revision of every event it touched, once
    per transaction (readers never see the transaction's rows before it commits, so one bump
    covers every flush of it)."""
    events: set[int] = set()
    rounds: set[int] = set()
    games: set[int] = set()
    for row in (*session.new, *session.dirty, *session.deleted):
        if isinstance(row, EventRow):
            events.add(row.id)
        elif isinstance(row, _BY_EVENT_ID):
            events.add(row.event_id)
        elif isinstance(row, _BY_ROUND):
            rounds.add(row.round_id)
        elif isinstance(row, _BY_GAME):
            games.add(row.game_id)
        elif not isinstance(row, NO_EVENT):
            raise TypeError(f"{type(row).__name__}: say which event its rows belong to")
    for gid in list(games):  # games and rounds the session holds already name their event
        game = session.identity_map.get(identity_key(GameRow, gid))
        if isinstance(game, GameRow):
            games.discard(gid)
            rounds.add(game.round_id)
    for rid in list(rounds):
        held = session.identity_map.get(identity_key(RoundRow, rid))
        if isinstance(held, RoundRow):
            rounds.discard(rid)
            events.add(held.event_id)
    connection = session.connection()
    if rounds or games:
        by_round = select(RoundRow.event_id).where(RoundRow.id.in_(rounds))
        by_game = (
            select(RoundRow.event_id)
            .join(GameRow, GameRow.round_id == RoundRow.id)
            .where(GameRow.id.in_(games))
        )
        events.update(connection.scalars(by_round.union(by_game)))
    bumped: set[int] = session.info.setdefault(_BUMPED, set())
    events -= bumped
    if events:
        connection.execute(_BUMP, {"ids": sorted(events)})
        bumped |= events


def _transaction_over(session: Session, *_: Any) -> None:
    session.info.pop(_BUMPED, None)


_BUMPED = "kolrami_bumped_events"
_EVENTS = cast(Table, EventRow.__table__)
_BUMP = (
    update(_EVENTS)
    .where(_EVENTS.c.id.in_(bindparam("ids", expanding=True)))
    .values(revision=_EVENTS.c.revision + 1)
)


@dataclass(frozen=True, slots=True)
class EventState:
    """An event as the rules see it: players and their status, rounds as core.Game lists."""

    name: str
    seed: int
    rounds_planned: int
    players: tuple[str, ...]
    active: tuple[str, ...]  # may be paired in the next round
    rounds: tuple[tuple[core.Game, ...], ...]
    roll_offs: tuple[core.RollOff, ...]
    titles: tuple[str, ...]
    dropped: tuple[str, ...] = ()

    def standings(self) -> list[core.Standing]:
        """The standings from the results so far (a pure function of them)."""
        return core.standings(self.players, self.rounds, self.roll_offs, self.titles, self.dropped)

    @property
    def rounds_complete(self) -> int:
        """Rounds with every result in."""
        return core.rounds_complete(self.rounds)

    @property
    def settled(self) -> bool:
        """At least one round is played and every paired round has all its results: ties now
        are ties after a Battle Round (OP-24), to be rolled off."""
        return bool(self.rounds) and self.rounds_complete == len(self.rounds)


def _roll_offs(rows: Iterable[Any], names: Mapping[int, str]) -> tuple[core.RollOff, ...]:
    """Roll-offs from their rows (ORM rows or result rows with batch, after_round,
    battle_points, fleet_points, throws, player_id and source), one per batch in the order
    recorded; rows without a batch (recorded before migration 0004) settle no tie."""
    batches: dict[int, list[Any]] = {}
    for row in rows:
        if row.batch is not None and row.throws is not None:
            batches.setdefault(row.batch, []).append(row)
    out = []
    for _, members in sorted(batches.items()):
        first = members[0]
        out.append(
            core.RollOff(
                int(first.battle_points or 0),
                int(first.fleet_points or 0),
                tuple((names[m.player_id], tuple(json.loads(m.throws or "[]"))) for m in members),
                first.source,
                int(first.after_round or 0),
            )
        )
    return tuple(out)


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


OPEN_REPORTS = ("pending", "disputed", "flagged")


class _TableChange(NamedTuple):
    """What Store.record_game changed of one table, between two revisions of its event."""

    event_id: int
    before: int
    after: int
    round: int
    table: int
    row: dict[str, Any]  # the table's new values, as in Store.games
    logged: bool = False  # a battle log was kept for it


class _Entry(NamedTuple):
    """One table's result as Store.record_game is given it."""

    number: int
    table: int
    winner: str
    fleet_points: dict[str, int]
    who: str
    expected_version: int | None


#: Store.record_game's statements, plain SQL (named parameters, as SQLite and text() take them).
_GAME_AT_SQL = """
SELECT e.id, e.revision, e.scenario, g.id, g."table", g.winner_id, g.fp_a, g.fp_b, g.flag,
       g.version, a.id, a.name, a.fleet_json, b.id, b.name, b.fleet_json, e.max_resets,
       e.round_minutes, g.result_initials_a, g.result_initials_b, g.entered_by
FROM events e
JOIN rounds r ON r.event_id = e.id
JOIN games g ON g.round_id = r.id
JOIN players a ON a.id = g.a_id
JOIN players b ON b.id = g.b_id
WHERE e.name = :name AND r.number = :number AND g."table" = :table
"""
_SET_RESULT_SQL = (
    "UPDATE games SET winner_id = :w, fp_a = :a, fp_b = :b, flag = :flag, version = :v + 1, "
    "entered_by = :who, result_initials_a = '', result_initials_b = '' "
    "WHERE id = :id AND version = :v"
)
_OPEN_REPORTS_SQL = (
    "SELECT id, winner_id, fp_a, fp_b FROM result_reports WHERE game_id = :game "
    "AND status IN ('pending', 'disputed', 'flagged') ORDER BY id"
)
_CLOSE_REPORT_SQL = "UPDATE result_reports SET status = :status, resolved_by = :who WHERE id = :id"
_WHO_LENGTH = cast(int, cast(Table, CorrectionRow.__table__).c.who.type.length)  # type: ignore[attr-defined]
_LOG_SQL = "INSERT INTO corrections (event_id, at, who, what) VALUES (:event, :at, :who, :what)"


class _Plain:
    """Plain SQL in a Store transaction: on SQLite straight to the driver's connection (the
    session's own, so the same transaction and write lock), elsewhere through text()."""

    def __init__(self, session: Session, sqlite: bool) -> None:
        self._connection = session.connection()
        self._driver: Any = self._connection.connection.driver_connection if sqlite else None
        at = cast(Table, CorrectionRow.__table__).c.at.type
        # the dialect's own type: the generic DateTime has no bind processor (None), which
        # handed the driver a datetime to store in its own form
        dialect = self._connection.dialect
        self._at = at.dialect_impl(dialect).bind_processor(dialect)

    def all(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of a query."""
        if self._driver is not None:
            return list(self._driver.execute(sql, params).fetchall())
        return [tuple(r) for r in self._connection.execute(text(sql), params)]

    def first(self, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of a query, or None."""
        if self._driver is not None:
            found = self._driver.execute(sql, params).fetchone()
            return None if found is None else tuple(found)
        row = self._connection.execute(text(sql), params).first()
        return None if row is None else tuple(row)

    def run(self, sql: str, params: dict[str, Any]) -> int:
        """A write; returns how many rows it changed."""
        if self._driver is not None:
            return int(self._driver.execute(sql, params).rowcount)
        return int(self._connection.execute(text(sql), params).rowcount)

    def timestamp(self, when: datetime) -> Any:
        """A time as the ORM would store it in a DateTime column (on SQLite, its text form)."""
        return when if self._at is None else self._at(when)


_OPEN_REPORTS_OF = select(ResultReportRow).where(
    ResultReportRow.game_id == bindparam("game"), ResultReportRow.status.in_(OPEN_REPORTS)
)


class Store:
    """One database of events."""

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
        event.listen(self._sessions, "after_flush", _bump_revisions)
        event.listen(self._sessions, "after_commit", _transaction_over)
        event.listen(self._sessions, "after_soft_rollback", _transaction_over)
        # Writers of this process queue here rather than poll SQLite's lock (busy_timeout
        # sleeps); other processes still meet them at SQLite's lock.
        self._write_lock = threading.RLock()
        self._snapshots: dict[int, EventSnapshot] = {}
        self._snapshot_lock = threading.Lock()

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[Session]:
        """One unit of work: committed whole, or rolled back whole.

        `write=False` promises only to read: it does not wait for writers and sees one
        consistent snapshot (a write in it may fail when another connection writes first).
        """
        mode = WRITING.set(write)
        try:
            if write:
                with self._write_lock, self._sessions.begin() as session:
                    yield session
                    pause = os.environ.get("KOLRAMI_TEST_PAUSE_IN_TRANSACTION")
                    if pause:  # lets the crash-safety test kill the process mid-transaction
                        session.flush()
                        time.sleep(float(pause))
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
    def _reading(self) -> Iterator[Connection]:
        """A connection for a query or two that only read (no session, no write lock)."""
        mode = WRITING.set(False)
        try:
            with self.engine.connect() as connection:
                yield connection
        finally:
            WRITING.reset(mode)

    # --- reading -------------------------------------------------------------------------------

    def _event(self, session: Session, name: str | None) -> EventRow:
        if name is None:
            row = session.scalars(select(EventRow).order_by(EventRow.id.desc())).first()
            if row is None:
                raise InvalidInputError("no event yet: create one with kolrami tournament new NAME")
            return row
        row = session.scalars(select(EventRow).where(EventRow.name == name)).first()
        if row is not None:
            return row
        rows = list(session.scalars(select(EventRow)))
        events = Names.of("event", ((r, r.name, ()) for r in rows))
        found = events.get(name)  # loosely: case and punctuation do not count
        if found is not None:
            return found
        hint = events.suggest(name)
        raise InvalidInputError(
            f"no event '{name}'"
            + (
                f"; did you mean {' or '.join(repr(h) for h in hint)}?"
                if hint
                else (f"; events: {', '.join(events.labels)}" if rows else "")
            )
        )

    def _player(self, session: Session, event_row: EventRow, name: str) -> PlayerRow:
        found = session.scalars(
            select(PlayerRow).where(PlayerRow.event_id == event_row.id, PlayerRow.name == name)
        ).first()
        if found is not None:
            return found
        if name.strip():  # 'ann' for 'Ann', or the name typed with other accents or spaces
            by_key = list(
                session.scalars(
                    select(PlayerRow).where(
                        PlayerRow.event_id == event_row.id, PlayerRow.name_key == name_key(name)
                    )
                )
            )
            if len(by_key) == 1:
                return by_key[0]
        players = Names.of("player", ((p, p.name, ()) for p in event_row.players))
        loose = players.get(name)  # loosely: 'mara' finds Mara, a prefix finds its one player
        if loose is not None:
            return loose
        close = players.suggest(name)
        listed = ", ".join(players.labels[:10]) + (
            f" and {len(players.labels) - 10} more" if len(players.labels) > 10 else ""
        )
        hint = (
            f"; did you mean {' or '.join(repr(c) for c in close)}?"
            if close
            else f"; players: {listed}"
        )
        raise InvalidInputError(f"no player '{name}' in {event_row.name}{hint}")

    def state(self, name: str | None = None) -> EventState:
        """The event as core.py sees it."""
        with self.transaction(write=False) as s:
            return self._state(s, self._event(s, name))

    def _state(self, session: Session, e: EventRow) -> EventState:
        names = {p.id: p.name for p in e.players}
        rounds = []
        for r in e.round_rows:
            games = []
            for g in r.games:
                fp: list[tuple[str, int]] = []
                if g.fp_a is not None:
                    fp.append((names[g.a_id], g.fp_a))
                if g.b_id is not None and g.fp_b is not None:
                    fp.append((names[g.b_id], g.fp_b))
                games.append(
                    core.Game(
                        r.number,
                        names[g.a_id],
                        names[g.b_id] if g.b_id else None,
                        names[g.winner_id] if g.winner_id else None,
                        tuple(fp),
                    )
                )
            rounds.append(tuple(games))
        next_round = len(rounds) + 1
        active = tuple(
            p.name
            for p in e.players
            if p.joined_round <= next_round
            and (p.dropped_after is None or p.dropped_after >= next_round)
        )
        rolls = _roll_offs(
            session.scalars(
                select(RollOffRow).where(RollOffRow.event_id == e.id).order_by(RollOffRow.id)
            ),
            names,
        )
        return EventState(
            e.name,
            e.seed,
            e.rounds,
            tuple(p.name for p in e.players),
            active,
            tuple(rounds),
            rolls,
            tuple(json.loads(e.titles)),
            tuple(p.name for p in e.players if p.dropped_after is not None),
        )

    def event_revision(self, event_id: int) -> tuple[str, int] | None:
        """(name, revision) of an event, or None: one small query, no transaction."""
        row = self._one("SELECT name, revision FROM events WHERE id = :id", id=event_id)
        return None if row is None else (str(row[0]), int(row[1]))

    def _one(self, sql: str, **params: Any) -> tuple[Any, ...] | None:
        """The first row of a small read (named :params), or None. Asked on every page (the
        revision check, who is logged in), so on SQLite it goes to the driver directly: a
        tenth of the cost through SQLAlchemy's layers."""
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
        head = self.event_revision(event_id)
        if head is None:
            raise InvalidInputError(f"no event #{event_id}")
        kept = self._snapshots.get(event_id)
        if kept is not None and (kept.name, kept.revision) == head:
            return kept
        fresh = self._read_snapshot(event_id)
        self._snapshots[event_id] = fresh
        return fresh

    def _revision(self, session: Session, event_id: int) -> int:
        """The event's revision inside a transaction, after its writes (flushed)."""
        return int(session.scalars(select(EventRow.revision).where(EventRow.id == event_id)).one())

    def _follow(self, change: _TableChange) -> None:
        """After a table's result was written here: when the kept snapshot of the event is the
        one the write started from (so the write is the only change between the two
        revisions), keep the snapshot of the new revision, made from it and the change,
        instead of reading the event again at the next page."""
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
        ev, pl, rd, gm = (t.__table__ for t in (EventRow, PlayerRow, RoundRow, GameRow))
        ro, rr, bl, eo = (
            t.__table__ for t in (RollOffRow, ResultReportRow, BattleLogRow, EventOrganizerRow)
        )
        with self.transaction(write=False) as s:
            c = s.connection()
            e = c.execute(select(ev).where(ev.c.id == event_id)).mappings().first()
            if e is None:
                raise InvalidInputError(f"no event #{event_id}")
            players = [
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
            rolls = _roll_offs(
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
        next_round = len(numbers) + 1
        titles = tuple(json.loads(e["titles"]))
        state = EventState(
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
        settings = {
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

    def events(self) -> list[str]:
        """Every event's name, newest last."""
        with self.transaction(write=False) as s:
            return list(s.scalars(select(EventRow.name).order_by(EventRow.id)))

    def fleets(
        self, name: str | None = None, only: Collection[str] | None = None
    ) -> dict[str, Fleet]:
        """Each player's registered fleet (only those of the players named in `only`: reading
        a fleet is most of the cost, a tenth of a millisecond each)."""
        with self.transaction(write=False) as s:
            e = self._event(s, name)
            return {
                p.name: read_fleet(json.loads(p.fleet_json), p.name)
                for p in e.players
                if only is None or p.name in only
            }

    def settings(self, name: str | None = None) -> dict[str, Any]:
        """The event's settings."""
        with self.transaction(write=False) as s:
            e = self._event(s, name)
            return {
                "name": e.name,
                "date": e.date,
                "sp_limit": e.sp_limit,
                "scenario": e.scenario,
                "rounds": e.rounds,
                "round_minutes": e.round_minutes,
                "seed": e.seed,
                "titles": json.loads(e.titles),
                "faction_surcharge": e.faction_surcharge,
                "max_resets": e.max_resets,
            }

    def games(self, name: str | None, round_number: int) -> list[dict[str, Any]]:
        """One round's tables with everything recorded on them."""
        with self.transaction(write=False) as s:
            e = self._event(s, name)
            r = self._round(e, round_number)
            names = {p.id: p.name for p in e.players}
            return [
                {
                    "table": g.table,
                    "a": names[g.a_id],
                    "b": names[g.b_id] if g.b_id else None,
                    "winner": names[g.winner_id] if g.winner_id else None,
                    "fp_a": g.fp_a,
                    "fp_b": g.fp_b,
                    "build_initials_a": g.build_initials_a,
                    "build_initials_b": g.build_initials_b,
                    "result_initials_a": g.result_initials_a,
                    "result_initials_b": g.result_initials_b,
                    "flag": g.flag,
                    "version": g.version,
                    "entered_by": g.entered_by,
                }
                for g in r.games
            ]

    def corrections(self, name: str | None = None) -> list[dict[str, str]]:
        """The corrections log, oldest first."""
        with self.transaction(write=False) as s:
            e = self._event(s, name)
            rows = s.scalars(
                select(CorrectionRow)
                .where(CorrectionRow.event_id == e.id)
                .order_by(CorrectionRow.id)
            )
            return [{"at": r.at.isoformat(), "who": r.who, "what": r.what} for r in rows]

    # --- writing ---------------------------------------------------------------------------------

    def create_event(
        self,
        name: str,
        date: str = "",
        sp_limit: int = 300,
        scenario: str = "peak-performance",
        rounds: int = 3,
        round_minutes: int = 60,
        seed: int | None = None,
        titles: tuple[str, ...] = core.DEFAULT_TITLES,
        faction_surcharge: int = 0,
        owner: int | None = None,
        max_resets: int | None = None,
    ) -> None:
        """A new event (OP-01: three rounds unless the organizer says otherwise); `owner` is
        the web app organizer who runs it; `max_resets` the most resets of one ship in a round
        that a score may need before it is called implausible (None: the default for the
        round's length)."""
        name = clean_name(name, "an event")
        check_event_settings(date, sp_limit, rounds, round_minutes, seed, max_resets)
        load_scenario(scenario)  # a clear error now rather than at the first battle
        if seed is None:
            seed = secrets.randbelow(2**31)
        with self.transaction() as s:
            if s.scalars(select(EventRow).where(EventRow.name == name)).first():
                raise InvalidInputError(
                    f"an event '{name}' exists already; pick another name", field="name"
                )
            row = EventRow(
                name=name,
                date=date,
                sp_limit=sp_limit,
                scenario=scenario,
                rounds=rounds,
                round_minutes=round_minutes,
                seed=seed,
                titles=json.dumps(list(titles)),
                faction_surcharge=faction_surcharge,
                max_resets=max_resets,
            )
            s.add(row)
            if owner is not None:
                s.flush()
                s.add(EventOrganizerRow(event_id=row.id, organizer_id=owner))

    def add_player(
        self,
        event_name: str | None,
        name: str,
        fleet: Fleet,
        email: str = "",
        allow_illegal: bool = False,
        pin_hash: str | None = None,
    ) -> list[str]:
        """Register a player and his fleet (OP-11); a late entry joins at the next round.

        The name is kept cleaned (names.py) and refused when it looks like a registered one.
        The fleet must be legal for the event (FBS-12) unless `allow_illegal`; returns the
        problems found (empty when legal). The cost does not grow with the event: the name is
        looked up by its key, the rounds counted, nothing else of the event is read.
        """
        name = clean_name(name)
        key = name_key(name)
        if len(email) > 200:
            raise InvalidInputError("an email address is at most 200 characters", field="email")
        with self.transaction() as s:
            e = self._event(s, event_name)
            # two lookups, each by its own index: SQLite answers "name_key = ? OR name = ?"
            # by walking every player of the event (16 ms a player at 10,000 players)
            same = (
                s.scalars(
                    select(PlayerRow.name).where(PlayerRow.event_id == e.id, PlayerRow.name == name)
                ).first()
                or s.scalars(
                    select(PlayerRow.name).where(
                        PlayerRow.event_id == e.id, PlayerRow.name_key == key
                    )
                ).first()
            )
            if same == name:
                raise InvalidInputError(f"'{name}' is registered already in {e.name}", field="name")
            if same is not None:
                raise InvalidInputError(
                    f"'{name}' looks like '{same}', registered already in {e.name}: names must "
                    "differ by more than case, accents, invisible characters or look-alike "
                    "letters; add an initial or a surname",
                    field="name",
                )
            report = validate(fleet, e.sp_limit, EventSettings(e.sp_limit, e.faction_surcharge))
            problems = [f"{err.path}: {err.message}" for err in report.errors]
            if problems and not allow_illegal:
                raise InvalidInputError(
                    f"{name}'s fleet is not legal for {e.name}: "
                    f"{problems[0]}"
                    + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                    field="fleet",
                )
            paired = s.scalars(
                select(func.count(RoundRow.id)).where(RoundRow.event_id == e.id)
            ).one()
            joined = int(paired) + 1
            if joined > e.rounds:
                raise InvalidInputError(f"{e.name} has played all its {e.rounds} rounds")
            s.add(
                PlayerRow(
                    event_id=e.id,
                    name=name,
                    name_key=key,
                    email=email,
                    fleet_json=fleet.model_dump_json(),
                    joined_round=joined,
                    pin_hash=pin_hash,
                )
            )
            return problems

    def drop_player(self, event_name: str | None, name: str, who: str = "organizer") -> None:
        """A player leaves: he is not paired from the next round on; his results stay."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, name)
            if p.dropped_after is not None:
                raise InvalidInputError(
                    f"{name} has dropped already (after round {p.dropped_after})"
                )
            p.dropped_after = len(e.round_rows)
            s.add(
                CorrectionRow(
                    event_id=e.id, who=who, what=f"{name} dropped after round {p.dropped_after}"
                )
            )

    def pair_next_round(self, event_name: str | None = None) -> core.Pairing:
        """Pair the next round (OP-02, OP-03, OP-04, OP-05, OP-06, OP-07, OP-08, OP-09), all tables
        or none."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            state = self._state(s, e)
            number = len(state.rounds) + 1
            if number > e.rounds:
                raise InvalidInputError(f"{e.name} has {e.rounds} rounds and all are paired")
            if state.rounds and not all(g.complete for g in state.rounds[-1]):
                missing = [g for g in state.rounds[-1] if not g.complete]
                gone = [p for g in missing for p in g.players if p in state.dropped]
                advice = (
                    f"; {', '.join(gone)} dropped during the round: enter the table's result "
                    "as it was played, or as a win for the opponent if it was not (e.g. "
                    f"kolrami tournament result {number - 1} OPPONENT --win --fp N)"
                    if gone
                    else ""
                )
                raise InvalidInputError(
                    f"round {number - 1} is not finished: results missing for "
                    + ", ".join(f"{g.a} v {g.b}" for g in missing)
                    + advice
                )
            pairing = core.pair_round(number, state.active, state.rounds, e.seed)
            ids = {p.name: p.id for p in e.players}
            r = RoundRow(
                event_id=e.id,
                number=number,
                seed=e.seed,
                rematches=json.dumps([list(x) for x in pairing.rematches]),
            )
            s.add(r)
            s.flush()
            for table, g in enumerate(pairing.games, start=1):
                s.add(
                    GameRow(
                        round_id=r.id, table=table, a_id=ids[g.a], b_id=ids[g.b] if g.b else None
                    )
                )
            return pairing

    def _round(self, e: EventRow, number: int) -> RoundRow:
        for r in e.round_rows:
            if r.number == number:
                return r
        raise InvalidInputError(f"{e.name} has no round {number} yet ({len(e.round_rows)} paired)")

    def _game_of(self, e: EventRow, number: int, player: PlayerRow) -> GameRow:
        for g in self._round(e, number).games:
            if player.id in (g.a_id, g.b_id):
                return g
        raise InvalidInputError(f"{player.name} is not paired in round {number}")

    def record_result(
        self,
        event_name: str | None,
        number: int,
        player: str,
        won: bool,
        fleet_points: int,
        who: str = "organizer",
        expected_version: int | None = None,
        correct: bool = False,
        why: str = "",
    ) -> str:
        """A player's result and Fleet Points for a round; the opponent's result follows.

        Returns a warning when the Fleet Points cannot (or can hardly) be scored against the
        opponent's fleet (the Peak Performance score check), else ''. A result that disagrees
        with the one recorded (another winner, other Fleet Points for this player) or changes
        one the opponent initialled is refused unless it is an explicit correction (`correct`,
        with `why`), which is logged with who and why and clears the opponent's initials. With
        `expected_version` a stale edit is refused (ConflictError).
        """
        check_fleet_points(fleet_points)
        why = " ".join(why.split())[:300]
        if correct and not why:
            raise InvalidInputError(
                "a correction says why: add --why 'what was wrong'", field="why"
            )
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, player)
            g = self._game_of(e, number, p)
            if g.b_id is None:
                raise InvalidInputError(
                    f"{p.name} has the bye in round {number}: nothing to "
                    "report; its Fleet Points are the round's average"
                )
            if expected_version is not None and g.version != expected_version:
                raise ConflictError(
                    f"round {number}, table {g.table} was changed by someone else "
                    "a moment ago; reload it and enter the result again"
                )
            opponent_id = g.b_id if p.id == g.a_id else g.a_id
            winner = p.id if won else opponent_id
            old_fp = g.fp_a if p.id == g.a_id else g.fp_b
            if (g.winner_id, old_fp) == (winner, fleet_points):
                return g.flag  # the same again: nothing to change
            initialled = bool(g.result_initials_a or g.result_initials_b)
            contradicts = (g.winner_id is not None and g.winner_id != winner) or (
                old_fp is not None and old_fp != fleet_points
            )
            if (contradicts or initialled) and not correct:
                recorded = self._result_text(s, g)
                reason = "the opponent initialled it" if initialled else "this report disagrees"
                raise InvalidInputError(
                    f"round {number} table {g.table} has a result already ({recorded}) and "
                    f"{reason}: to change it, run the command again with --correct --why "
                    "'what was wrong'"
                )
            self._check_winner(s, e, g, winner, p.id, fleet_points)
            label = f"{who}: {why}" if correct else who
            warning = self._apply_result(s, e, number, g, p, won, fleet_points, label)
            if correct:
                g.result_initials_a = g.result_initials_b = ""
                g.entered_by = who
            elif not g.entered_by:
                g.entered_by = who
            return warning

    def _result_text(self, s: Session, g: GameRow) -> str:
        names = {
            pid: row.name
            for pid in (g.a_id, g.b_id)
            if pid is not None and (row := s.get(PlayerRow, pid)) is not None
        }
        won = f"{names[g.winner_id]} won" if g.winner_id else "no winner yet"
        fps = ", ".join(
            f"{names[pid]} {fp}"
            for pid, fp in ((g.a_id, g.fp_a), (g.b_id, g.fp_b))
            if pid is not None and fp is not None
        )
        return f"{won}, Fleet Points {fps}" if fps else won

    def _check_winner(
        self, s: Session, e: EventRow, g: GameRow, winner: int, pid: int, points: int
    ) -> None:
        """PP-22: in a scenario that scores Fleet Points the winner has at least as many as
        the loser (equal totals go to the roll-off, so either may have won)."""
        if Capability.SCORES_FLEET_POINTS not in capabilities_of(e.scenario):
            return
        fp = {g.a_id: g.fp_a, g.b_id: g.fp_b}
        fp[pid] = points
        loser = g.b_id if winner == g.a_id else g.a_id
        w, lo = fp.get(winner), fp.get(loser)
        if w is None or lo is None or w >= lo:
            return
        names = {x: row.name for x in (winner, loser) if (row := s.get(PlayerRow, x)) is not None}
        raise InvalidInputError(
            winner_refusal(names[winner], w, names[loser or 0], lo), field="winner"
        )

    def _apply_result(
        self,
        s: Session,
        e: EventRow,
        number: int,
        g: GameRow,
        p: PlayerRow,
        won: bool,
        fleet_points: int,
        who: str,
    ) -> str:
        """One player's result and Fleet Points on a game, inside the caller's transaction."""
        assert g.b_id is not None  # callers refuse byes
        opponent_id = g.b_id if p.id == g.a_id else g.a_id
        winner = p.id if won else opponent_id
        before = (g.winner_id, g.fp_a, g.fp_b)
        old_fp = g.fp_a if p.id == g.a_id else g.fp_b
        for what in result_corrections(
            number, g.table, p.name, won, g.winner_id, winner, old_fp, fleet_points
        ):
            s.add(CorrectionRow(event_id=e.id, who=who, what=what))
        g.winner_id = winner
        if p.id == g.a_id:
            g.fp_a = fleet_points
        else:
            g.fp_b = fleet_points
        warning = self.score_warning(e, opponent_id, fleet_points)
        g.flag = warning
        if before == (g.winner_id, g.fp_a, g.fp_b):
            g.version = g.version  # nothing changed; keep the version
        return warning

    def score_warning(self, e: EventRow, opponent_id: int, points: int) -> str:
        if Capability.SCORES_FLEET_POINTS not in capabilities_of(e.scenario):
            return ""
        s = object_session(e)
        assert s is not None
        opponent = s.get(PlayerRow, opponent_id)
        assert opponent is not None  # a game's player
        return score_check(
            e.scenario,
            opponent.fleet_json,
            opponent.name,
            points,
            round_ceilings(e.max_resets, e.round_minutes),
        )

    def verify(
        self, event_name: str | None, number: int, player: str, initials: str, stage: str
    ) -> None:
        """The opponent initials a player's build before the round or his result after it
        (OP-14, FBS-09, FBS-10). `player` is the one whose sheet is initialled."""
        if stage not in ("build", "result"):
            raise InvalidInputError(f"stage '{stage}': use build or result", field="stage")
        initials = initials.strip()
        if not initials or len(initials) > 10:
            raise InvalidInputError("initials are 1 to 10 characters", field="initials")
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, player)
            g = self._game_of(e, number, p)
            if g.b_id is None:
                raise InvalidInputError(
                    f"{player} has the bye in round {number}: no opponent to initial"
                )
            if stage == "result" and g.winner_id is None:
                raise InvalidInputError(f"round {number}: no result for {player} yet to confirm")
            side = "a" if p.id == g.a_id else "b"
            setattr(g, f"{stage}_initials_{side}", initials)

    def record_roll_off(
        self,
        event_name: str | None,
        throws: dict[str, tuple[int, ...]],
        source: str,
        who: str = "organizer",
    ) -> core.RollOff:
        """A roll-off for one tie (OP-24): every player of a group who share a rank after a
        complete round, with each throw's hits and criticals. Refused before any round is
        played, while a round's results are missing, for players who are not level, and for
        throws that cannot be (more than five results) or leave players level. Logged."""
        core.check_throws(throws)
        with self.transaction() as s:
            e = self._event(s, event_name)
            state = self._state(s, e)
            if not state.settled:
                if not state.rounds or state.rounds_complete == 0:
                    raise InvalidInputError(
                        "no round has been played yet: a roll-off settles a tie after a Battle "
                        "Round (OP-24)"
                    )
                raise InvalidInputError(
                    f"round {len(state.rounds)} has results missing: roll off once every "
                    "table is in, when the tie is final (OP-24)"
                )
            rows = {self._player(s, e, n).name: n for n in throws}
            given = {rows_name: throws[n] for rows_name, n in rows.items()}
            table = state.standings()
            groups = core.tied_groups(table)
            group = next((g for g in groups if set(g) == set(given)), None)
            if group is None:
                level = "; ".join(", ".join(g) for g in groups) or "nobody"
                raise InvalidInputError(
                    f"{', '.join(sorted(given))} are not one tie of the standings: level now "
                    f"(and to roll off together): {level} (OP-24)"
                )
            by = {x.player: x for x in table}
            first = by[group[0]]
            batch = (
                s.scalars(
                    select(func.max(RollOffRow.batch)).where(RollOffRow.event_id == e.id)
                ).one()
                or 0
            ) + 1
            roll = core.RollOff(
                first.battle_points,
                first.fleet_points,
                tuple(sorted(given.items())),
                source[:100],
                state.rounds_complete,
            )
            for pname, t in given.items():
                s.add(
                    RollOffRow(
                        event_id=e.id,
                        player_id=self._player(s, e, pname).id,
                        result=roll.value(pname),
                        source=source[:100],
                        batch=batch,
                        after_round=state.rounds_complete,
                        battle_points=first.battle_points,
                        fleet_points=first.fleet_points,
                        throws=json.dumps(list(t)),
                    )
                )
            s.add(
                CorrectionRow(
                    event_id=e.id,
                    who=who,
                    what=f"roll-off after round {state.rounds_complete} for the tie on "
                    f"{first.battle_points} BP and {first.fleet_points} FP ({source}): "
                    f"{roll.describe()}",
                )
            )
            return roll

    def roll_off_ties(
        self, event_name: str | None = None, who: str = "Kolrami"
    ) -> list[core.RollOff]:
        """Roll off every group that shares a rank after a complete round, seeded and
        recorded (OP-24); nothing when no round is complete or nobody is level."""
        state = self.state(event_name)
        if not state.settled:
            return []
        groups = core.tied_groups(state.standings())
        done = []
        for n, group in enumerate(groups):
            seed = derive_seed(state.seed, "roll-off", len(state.rounds), n, *group)
            done.append(
                self.record_roll_off(
                    state.name,
                    core.roll_off(group, seed),
                    f"rolled by Kolrami after round {len(state.rounds)}",
                    who,
                )
            )
        return done

    # --- one document for the whole event ---------------------------------------------------

    def export(self, event_name: str | None = None) -> dict[str, Any]:
        """The whole event as one JSON document (for the regional organizer, or a backup)."""
        settings = self.settings(event_name)
        state = self.state(event_name)
        fleets = self.fleets(event_name)
        rounds = [self.games(state.name, n) for n in range(1, len(state.rounds) + 1)]
        with self.transaction(write=False) as s:
            e = self._event(s, event_name)
            players = [
                {
                    "name": p.name,
                    "email": p.email,
                    "joined_round": p.joined_round,
                    "dropped_after": p.dropped_after,
                    "fleet": fleets[p.name].model_dump(mode="json", exclude_none=True),
                }
                for p in e.players
            ]
        return {
            "kolrami": "event/1",
            "event": settings,
            "players": players,
            "rounds": rounds,
            "roll_offs": [
                {
                    "after_round": r.after_round,
                    "battle_points": r.battle_points,
                    "fleet_points": r.fleet_points,
                    "throws": {p: list(t) for p, t in r.throws},
                    "source": r.source,
                }
                for r in state.roll_offs
            ],
            "corrections": self.corrections(event_name),
            "standings": [core.standing_json(x) for x in state.standings()],
        }

    def import_event(self, doc: dict[str, Any]) -> str:
        """Recreate an exported event, in one transaction; returns its name."""
        try:
            ev = doc["event"]
            name = ev["name"]
            with self.transaction() as s:
                if s.scalars(select(EventRow).where(EventRow.name == name)).first():
                    raise InvalidInputError(f"an event '{name}' exists already in this store")
                e = EventRow(
                    name=name,
                    date=ev.get("date", ""),
                    sp_limit=ev["sp_limit"],
                    scenario=ev["scenario"],
                    rounds=ev["rounds"],
                    round_minutes=ev.get("round_minutes", 60),
                    seed=ev["seed"],
                    titles=json.dumps(ev.get("titles", list(core.DEFAULT_TITLES))),
                    faction_surcharge=ev.get("faction_surcharge", 0),
                    max_resets=ev.get("max_resets"),
                )
                s.add(e)
                s.flush()
                ids = {}
                for p in doc["players"]:
                    row = PlayerRow(
                        event_id=e.id,
                        name=p["name"],
                        name_key=name_key(p["name"]),
                        email=p.get("email", ""),
                        fleet_json=json.dumps(p["fleet"]),
                        joined_round=p.get("joined_round", 1),
                        dropped_after=p.get("dropped_after"),
                    )
                    s.add(row)
                    s.flush()
                    ids[p["name"]] = row.id
                for number, games in enumerate(doc["rounds"], start=1):
                    r = RoundRow(event_id=e.id, number=number, seed=ev["seed"])
                    s.add(r)
                    s.flush()
                    for g in games:
                        s.add(
                            GameRow(
                                round_id=r.id,
                                table=g["table"],
                                a_id=ids[g["a"]],
                                b_id=ids[g["b"]] if g.get("b") else None,
                                winner_id=ids[g["winner"]] if g.get("winner") else None,
                                fp_a=g.get("fp_a"),
                                fp_b=g.get("fp_b"),
                                build_initials_a=g.get("build_initials_a", ""),
                                build_initials_b=g.get("build_initials_b", ""),
                                result_initials_a=g.get("result_initials_a", ""),
                                result_initials_b=g.get("result_initials_b", ""),
                                flag=g.get("flag", ""),
                                entered_by=g.get("entered_by", ""),
                            )
                        )
                rolls = doc.get("roll_offs", [])
                if isinstance(rolls, dict):  # an export from before roll-offs named their tie
                    for pname, result in rolls.items():
                        s.add(
                            RollOffRow(
                                event_id=e.id,
                                player_id=ids[pname],
                                result=int(result),
                                source="imported",
                            )
                        )
                else:
                    for batch, r in enumerate(rolls, start=1):
                        roll = core.RollOff(
                            int(r["battle_points"]),
                            int(r["fleet_points"]),
                            tuple((pn, tuple(int(n) for n in t)) for pn, t in r["throws"].items()),
                        )
                        core.check_throws(dict(roll.throws))
                        for pname, t in roll.throws:
                            s.add(
                                RollOffRow(
                                    event_id=e.id,
                                    player_id=ids[pname],
                                    result=roll.value(pname),
                                    source=str(r.get("source", "imported"))[:100],
                                    batch=batch,
                                    after_round=int(r.get("after_round", 0)),
                                    battle_points=roll.battle_points,
                                    fleet_points=roll.fleet_points,
                                    throws=json.dumps(list(t)),
                                )
                            )
                for c in doc.get("corrections", []):
                    at = c.get("at")
                    s.add(
                        CorrectionRow(
                            event_id=e.id,
                            who=c["who"],
                            what=c["what"],
                            # the time it was made, not the time of the import
                            at=datetime.fromisoformat(at) if isinstance(at, str) else now(),
                        )
                    )
            return str(name)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInputError(f"not a Kolrami event export: missing or bad {exc}") from None

    # --- the web app: organizers, ownership, PINs, players' reports, AI battle logs ---------------

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

    def create_organizer(self, username: str, password_hash: str) -> int:
        """A web app organizer account (the password arrives hashed); returns its id."""
        username = username.strip()
        if not re.fullmatch(r"[A-Za-z0-9_.@-]{2,80}", username):
            raise InvalidInputError(
                "a user name is 2 to 80 letters, digits or . _ @ - (no spaces)", field="username"
            )
        with self.transaction() as s:
            taken = s.scalars(select(OrganizerRow).where(OrganizerRow.username == username))
            if taken.first() is not None:
                raise InvalidInputError(
                    f"the user name '{username}' is taken; pick another", field="username"
                )
            row = OrganizerRow(username=username, password_hash=password_hash)
            s.add(row)
            s.flush()
            return row.id

    def create_first_organizer(self, username: str, password_hash: str) -> int | None:
        """The store's first organizer account, only while it has none, checked and made in one
        write transaction (simultaneous set-ups make one account); None when one exists."""
        username = username.strip()
        if not re.fullmatch(r"[A-Za-z0-9_.@-]{2,80}", username):
            raise InvalidInputError(
                "a user name is 2 to 80 letters, digits or . _ @ - (no spaces)", field="username"
            )
        with self.transaction() as s:
            if s.scalars(select(OrganizerRow.id)).first() is not None:
                return None
            row = OrganizerRow(username=username, password_hash=password_hash)
            s.add(row)
            s.flush()
            return row.id

    def organizer(self, username: str) -> tuple[int, str] | None:
        """(id, password hash) of an organizer account, or None."""
        with self.transaction(write=False) as s:
            row = s.scalars(
                select(OrganizerRow).where(OrganizerRow.username == username.strip())
            ).first()
            return None if row is None else (row.id, row.password_hash)

    def organizer_name(self, organizer_id: int) -> str | None:
        """An organizer's user name, or None when the account does not exist."""
        row = self._one("SELECT username FROM organizers WHERE id = :id", id=organizer_id)
        return None if row is None else str(row[0])

    def organizer_count(self) -> int:
        """How many organizer accounts exist."""
        with self.transaction(write=False) as s:
            return len(list(s.scalars(select(OrganizerRow.id))))

    # --- web sessions and accounts ----------------------------------------------------------------

    def start_web_session(self, organizer_id: int) -> str:
        """A new logged-in session of an organizer: returns its random token (for the cookie);
        only a hash of it is kept, so the database does not hold working cookies. Sessions past
        their lifetime are cleared on the way."""
        token = secrets.token_urlsafe(32)
        with self.transaction() as s:
            s.execute(
                delete(WebSessionRow).where(
                    WebSessionRow.created_at < _naive_utc(-SESSION_LIFETIME)
                )
            )
            s.add(WebSessionRow(id=_session_key(token), organizer_id=organizer_id))
        return token

    def web_session(self, token: str) -> tuple[int, str] | None:
        """(organizer id, user name) of a live session, or None: ended, unknown, or older than
        SESSION_LIFETIME from its login (the lifetime is absolute: using it does not renew it)."""
        row = self._one(
            "SELECT o.id, o.username, w.created_at FROM web_sessions w "
            "JOIN organizers o ON o.id = w.organizer_id WHERE w.id = :id",
            id=_session_key(token),
        )
        if row is None:
            return None
        made = row[2] if isinstance(row[2], datetime) else datetime.fromisoformat(str(row[2]))
        if made.replace(tzinfo=None) < _naive_utc(-SESSION_LIFETIME):
            return None
        return int(row[0]), str(row[1])

    def end_web_session(self, token: str) -> None:
        """Log a session out: its cookie no longer works, wherever a copy of it is."""
        with self.transaction() as s:
            s.execute(delete(WebSessionRow).where(WebSessionRow.id == _session_key(token)))

    def end_web_sessions(self, organizer_id: int) -> int:
        """Log an organizer out everywhere; returns how many sessions ended."""
        with self.transaction() as s:
            ended = s.execute(
                delete(WebSessionRow).where(WebSessionRow.organizer_id == organizer_id)
            )
            return int(getattr(ended, "rowcount", 0) or 0)

    def web_sessions(self, organizer_id: int) -> int:
        """How many live sessions an organizer has."""
        with self.transaction(write=False) as s:
            return len(
                list(
                    s.scalars(
                        select(WebSessionRow.id).where(
                            WebSessionRow.organizer_id == organizer_id,
                            WebSessionRow.created_at >= _naive_utc(-SESSION_LIFETIME),
                        )
                    )
                )
            )

    def set_password_hash(self, organizer_id: int, password_hash: str) -> None:
        """A new password for an account (hashed already); every session of it ends, so
        whoever knew the old password and logged in with it is out."""
        with self.transaction() as s:
            row = s.get(OrganizerRow, organizer_id)
            if row is None:
                raise InvalidInputError("this account was removed; log in with another one")
            row.password_hash = password_hash
            s.execute(delete(WebSessionRow).where(WebSessionRow.organizer_id == organizer_id))

    def remove_organizer(self, organizer_id: int) -> list[str]:
        """Remove an organizer account with its sessions; never the last one (the store would
        have nobody to log in). The events it ran alone are run by nobody in the web app until
        another organizer takes them over; returns their names."""
        with self.transaction() as s:
            row = s.get(OrganizerRow, organizer_id)
            if row is None:
                raise InvalidInputError("this account was removed already")
            if (
                s.scalars(select(OrganizerRow.id).where(OrganizerRow.id != organizer_id)).first()
                is None
            ):
                raise InvalidInputError(
                    f"'{row.username}' is the only organizer account: add another one "
                    "(Add another organizer account) before removing this one"
                )
            left: list[str] = []
            for link in list(
                s.scalars(
                    select(EventOrganizerRow).where(EventOrganizerRow.organizer_id == organizer_id)
                )
            ):
                e = s.get(EventRow, link.event_id)
                others = s.scalars(
                    select(EventOrganizerRow).where(
                        EventOrganizerRow.event_id == link.event_id,
                        EventOrganizerRow.organizer_id != organizer_id,
                    )
                ).first()
                if e is not None and others is None:
                    left.append(e.name)
                    s.add(
                        CorrectionRow(
                            event_id=e.id,
                            who=f"organizer {row.username}",
                            what=f"organizer {row.username}'s account was removed; "
                            "another organizer can take the event over",
                        )
                    )
                s.delete(link)
            s.execute(delete(WebSessionRow).where(WebSessionRow.organizer_id == organizer_id))
            s.delete(row)
            return left

    def event_list(self) -> list[dict[str, Any]]:
        """Every event: id, name, date, rounds planned and paired, players, organizer ids."""
        with self.transaction(write=False) as s:
            owners: dict[int, list[int]] = {}
            for link in s.scalars(select(EventOrganizerRow)):
                owners.setdefault(link.event_id, []).append(link.organizer_id)
            return [
                {
                    "id": e.id,
                    "name": e.name,
                    "date": e.date,
                    "scenario": e.scenario,
                    "rounds": e.rounds,
                    "paired": len(e.round_rows),
                    "players": len(e.players),
                    "organizers": owners.get(e.id, []),
                }
                for e in s.scalars(select(EventRow).order_by(EventRow.id))
            ]

    def event_name(self, event_id: int) -> str:
        """The name of the event with this id."""
        with self.transaction(write=False) as s:
            row = s.get(EventRow, event_id)
            if row is None:
                raise InvalidInputError(f"no event #{event_id}")
            return row.name

    def event_id(self, event_name: str | None) -> int:
        """The id of an event (the latest when None)."""
        with self.transaction(write=False) as s:
            return self._event(s, event_name).id

    def organizers_of(self, event_name: str | None) -> list[int]:
        """Ids of the organizers who run an event in the web app (empty: made by the CLI)."""
        with self.transaction(write=False) as s:
            e = self._event(s, event_name)
            return list(
                s.scalars(
                    select(EventOrganizerRow.organizer_id).where(EventOrganizerRow.event_id == e.id)
                )
            )

    def adopt_event(self, event_name: str | None, organizer_id: int, who: str) -> None:
        """An organizer takes over an event nobody runs in the web app (one made by the CLI)."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            links = s.scalars(select(EventOrganizerRow).where(EventOrganizerRow.event_id == e.id))
            if links.first() is not None:
                raise InvalidInputError(f"{e.name} is run by another organizer already")
            s.add(EventOrganizerRow(event_id=e.id, organizer_id=organizer_id))
            s.add(CorrectionRow(event_id=e.id, who=who, what=f"{who} runs {e.name} from now on"))

    def players(self, event_name: str | None = None) -> list[dict[str, Any]]:
        """The registered players: id, name, email, joined and dropped rounds, has a PIN."""
        with self.transaction(write=False) as s:
            e = self._event(s, event_name)
            return [
                {
                    "id": p.id,
                    "name": p.name,
                    "email": p.email,
                    "joined_round": p.joined_round,
                    "dropped_after": p.dropped_after,
                    "has_pin": p.pin_hash is not None,
                }
                for p in e.players
            ]

    def pin_hash(self, event_name: str | None, player: str) -> str | None:
        """The stored hash of a player's PIN (None: he has none)."""
        with self.transaction(write=False) as s:
            return self._player(s, self._event(s, event_name), player).pin_hash

    def set_pin_hash(self, event_name: str | None, player: str, pin_hash: str, who: str) -> None:
        """Give a player a new PIN (arriving hashed), logged."""
        with self.transaction() as s:
            e = self._event(s, event_name)
            self._player(s, e, player).pin_hash = pin_hash
            s.add(CorrectionRow(event_id=e.id, who=who, what=f"new PIN for {player}"))

    def _table(self, e: EventRow, number: int, table: int) -> GameRow:
        s = object_session(e)
        assert s is not None
        found = s.scalars(
            select(GameRow)
            .join(RoundRow, GameRow.round_id == RoundRow.id)
            .where(RoundRow.event_id == e.id, RoundRow.number == number, GameRow.table == table)
        ).first()
        if found is not None:
            return found
        self._round(e, number)  # says when the round is not paired yet
        raise InvalidInputError(f"round {number} of {e.name} has no table {table}")

    def _at_table(self, e: EventRow, g: GameRow) -> tuple[PlayerRow, PlayerRow]:
        if g.b_id is None:
            raise InvalidInputError(f"table {g.table} is a bye: nothing to report")
        s = object_session(e)
        assert s is not None
        a, b = s.get(PlayerRow, g.a_id), s.get(PlayerRow, g.b_id)
        assert a is not None  # the game's players
        assert b is not None
        return a, b

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
        if len(who) > _WHO_LENGTH:  # the plain SQL below passes no flush check
            raise InvalidInputError(check_length("who", who, _WHO_LENGTH), field="who")
        with self._checked() as s:
            entry = _Entry(number, table, winner, dict(fleet_points), who, expected_version)
            if self.fast_path:
                flag, change = self._record_game_plain(
                    s, event_name, entry, battle_log, unless_warned
                )
            else:
                flag, change = self._record_game_orm(
                    s, event_name, entry, battle_log, unless_warned
                )
        self._follow(change)
        return flag

    def _record_game_plain(
        self,
        s: Session,
        event_name: str | None,
        entry: _Entry,
        battle_log: tuple[str, str] | None,
        unless_warned: bool,
    ) -> tuple[str, _TableChange]:
        """record_game in plain SQL statements (the fast path), in the caller's transaction."""
        number, table, winner, fleet_points, who, expected_version = entry
        sql = _Plain(s, self._sqlite)
        if event_name is None:
            event_name = self._event(s, None).name
        keys = {"name": event_name, "number": number, "table": table}
        found = sql.first(_GAME_AT_SQL, keys)  # under the write lock
        if found is None:  # the errors of the general lookups: no event, round, table; a bye
            e = self._event(s, event_name)
            self._at_table(e, self._table(e, number, table))
            # the event named loosely ('nov' for Nov), as every other write takes it
            found = sql.first(_GAME_AT_SQL, {**keys, "name": e.name})
            if found is None:
                raise InvalidInputError(f"round {number} of {e.name} has no table {table}")
        (eid, revision, scenario, gid, _, old_winner, old_a, old_b, old_flag, version) = found[:10]
        a_id, a_name, a_fleet, b_id, b_name, b_fleet = found[10:16]
        max_resets, minutes, initials_a, initials_b, entered_by = found[16:]
        ceiling = round_ceilings(max_resets, minutes)
        if winner not in (a_name, b_name):
            raise InvalidInputError(
                f"{winner} does not play at table {table} in round {number}", field="winner"
            )
        if set(fleet_points) != {a_name, b_name}:
            raise InvalidInputError(f"give the Fleet Points of both {a_name} and {b_name}")
        fp_a, fp_b = fleet_points[a_name], fleet_points[b_name]
        if expected_version is not None and version != expected_version:
            raise ConflictError(  # a stale page is told first: what it sends may be old
                f"round {number}, table {table} was changed by someone else "
                "a moment ago; reload it and enter the result again"
            )
        if Capability.SCORES_FLEET_POINTS in capabilities_of(scenario):
            won, lost = (fp_a, fp_b) if winner == a_name else (fp_b, fp_a)
            if won < lost:
                loser = b_name if winner == a_name else a_name
                raise InvalidInputError(winner_refusal(winner, won, loser, lost), field="winner")
        # each side's points are checked against the opponent's fleet
        warnings = [
            w
            for w in (
                score_check(scenario, b_fleet, b_name, fp_a, ceiling),
                score_check(scenario, a_fleet, a_name, fp_b, ceiling),
            )
            if w
        ]
        flag = "; ".join(warnings)
        if unless_warned and flag:
            raise ScoreCheckError(flag)
        if expected_version is not None and version != expected_version:
            raise ConflictError(
                f"round {number}, table {table} was changed by someone else "
                "a moment ago; reload it and enter the result again"
            )
        winner_id = a_id if winner == a_name else b_id
        lines = [
            *result_corrections(
                number, table, a_name, winner == a_name, old_winner, winner_id, old_a, fp_a
            ),
            # after a's line the winner is the new one: a change is logged once
            *result_corrections(
                number, table, b_name, winner == b_name, winner_id, winner_id, old_b, fp_b
            ),
        ]
        loser = b_name if winner == a_name else a_name
        lines.append(
            f"round {number} table {table}: {winner} beat {loser}, Fleet Points "
            f"{a_name} {fp_a}, {b_name} {fp_b}"
            + (" (entered again)" if old_winner is not None else "")
        )
        if initials_a or initials_b or entered_by.endswith("(PIN)"):
            # the players' confirmation was for the result they saw: it goes, and the
            # entry is the organizer's from now on
            lines.append(
                f"round {number} table {table}: entered by {who}; the players' "
                "confirmation of the earlier result no longer applies"
            )
        if (old_winner, old_a, old_b, old_flag, entered_by, initials_a, initials_b) != (
            winner_id,
            fp_a,
            fp_b,
            flag,
            who,
            "",
            "",
        ):
            changed = sql.run(
                _SET_RESULT_SQL,
                {
                    "w": winner_id,
                    "a": fp_a,
                    "b": fp_b,
                    "flag": flag,
                    "id": gid,
                    "v": version,
                    "who": who,
                },
            )
            if changed != 1:  # another connection changed the table since it was read
                raise ConflictError(
                    "this table was changed by someone else a moment ago; reload it and "
                    "enter the result again"
                )
            version += 1
        for report_id, r_winner, r_a, r_b in sql.all(_OPEN_REPORTS_SQL, {"game": gid}):
            same = (r_winner, r_a, r_b) == (winner_id, fp_a, fp_b)
            status = "accepted" if same else "overridden"
            sql.run(_CLOSE_REPORT_SQL, {"status": status, "who": who, "id": report_id})
        if battle_log is not None:
            sql.run("DELETE FROM battle_logs WHERE game_id = :game", {"game": gid})
            sql.run(
                "INSERT INTO battle_logs (game_id, captains, jsonl) "
                "VALUES (:game, :captains, :jsonl)",
                {"game": gid, "captains": battle_log[0], "jsonl": battle_log[1]},
            )
        at = sql.timestamp(now())
        for what in lines:
            sql.run(_LOG_SQL, {"event": eid, "at": at, "who": who, "what": what})
        after = self._bump(s, sql, eid, revision)
        row = {
            "winner": winner,
            "fp_a": fp_a,
            "fp_b": fp_b,
            "flag": flag,
            "version": version,
            "entered_by": who,
            "result_initials_a": "",
            "result_initials_b": "",
        }
        change = _TableChange(eid, revision, after, number, table, row, battle_log is not None)
        return flag, change

    def _record_game_orm(
        self,
        s: Session,
        event_name: str | None,
        entry: _Entry,
        battle_log: tuple[str, str] | None,
        unless_warned: bool,
    ) -> tuple[str, _TableChange]:
        """record_game through the ORM: the reference of the plain SQL path (the same checks
        in the same order, the same rows; the flush hook bumps the revision and the game's
        version_id_col refuses a lost update). Slower, so the web uses the fast path; a parity
        test plays the same entries through both and compares every row."""
        number, table, winner, fleet_points, who, expected_version = entry
        e = self._event(s, event_name)
        g = self._table(e, number, table)
        a, b = self._at_table(e, g)
        revision = e.revision
        if winner not in (a.name, b.name):
            raise InvalidInputError(
                f"{winner} does not play at table {table} in round {number}", field="winner"
            )
        if set(fleet_points) != {a.name, b.name}:
            raise InvalidInputError(f"give the Fleet Points of both {a.name} and {b.name}")
        fp_a, fp_b = fleet_points[a.name], fleet_points[b.name]
        if expected_version is not None and g.version != expected_version:
            raise ConflictError(
                f"round {number}, table {table} was changed by someone else "
                "a moment ago; reload it and enter the result again"
            )
        if Capability.SCORES_FLEET_POINTS in capabilities_of(e.scenario):
            won, lost = (fp_a, fp_b) if winner == a.name else (fp_b, fp_a)
            if won < lost:
                loser = b.name if winner == a.name else a.name
                raise InvalidInputError(winner_refusal(winner, won, loser, lost), field="winner")
        ceiling = round_ceilings(e.max_resets, e.round_minutes)
        flag = "; ".join(
            w
            for w in (
                score_check(e.scenario, b.fleet_json, b.name, fp_a, ceiling),
                score_check(e.scenario, a.fleet_json, a.name, fp_b, ceiling),
            )
            if w
        )
        if unless_warned and flag:
            raise ScoreCheckError(flag)
        winner_id = a.id if winner == a.name else b.id
        old_winner = g.winner_id
        lines = [
            *result_corrections(
                number, table, a.name, winner == a.name, old_winner, winner_id, g.fp_a, fp_a
            ),
            *result_corrections(
                number, table, b.name, winner == b.name, winner_id, winner_id, g.fp_b, fp_b
            ),
        ]
        loser = b.name if winner == a.name else a.name
        lines.append(
            f"round {number} table {table}: {winner} beat {loser}, Fleet Points "
            f"{a.name} {fp_a}, {b.name} {fp_b}"
            + (" (entered again)" if old_winner is not None else "")
        )
        if g.result_initials_a or g.result_initials_b or g.entered_by.endswith("(PIN)"):
            lines.append(
                f"round {number} table {table}: entered by {who}; the players' "
                "confirmation of the earlier result no longer applies"
            )
        # an unchanged value is no change: the ORM writes (and versions) only what differs
        g.winner_id, g.fp_a, g.fp_b, g.flag = winner_id, fp_a, fp_b, flag
        g.entered_by, g.result_initials_a, g.result_initials_b = who, "", ""
        for r in self._open_reports(s, g):
            same = (r.winner_id, r.fp_a, r.fp_b) == (winner_id, fp_a, fp_b)
            r.status = "accepted" if same else "overridden"
            r.resolved_by = who
        if battle_log is not None:
            s.execute(delete(BattleLogRow).where(BattleLogRow.game_id == g.id))
            s.add(BattleLogRow(game_id=g.id, captains=battle_log[0], jsonl=battle_log[1]))
        at = now()
        s.add_all(CorrectionRow(event_id=e.id, at=at, who=who, what=what) for what in lines)
        s.flush()
        row = {
            "winner": winner,
            "fp_a": fp_a,
            "fp_b": fp_b,
            "flag": flag,
            "version": g.version,
            "entered_by": who,
            "result_initials_a": "",
            "result_initials_b": "",
        }
        after = self._revision(s, e.id)
        return flag, _TableChange(e.id, revision, after, number, table, row, battle_log is not None)

    def _bump(self, s: Session, sql: _Plain, event_id: int, revision: int) -> int:
        """Bump an event's revision for plain SQL writes, once per transaction as the flush
        hook does (it will not bump it again); returns the revision after it."""
        bumped: set[int] = s.info.setdefault(_BUMPED, set())
        if event_id not in bumped:
            sql.run("UPDATE events SET revision = revision + 1 WHERE id = :id", {"id": event_id})
            bumped.add(event_id)
        if self._sqlite:  # the revision read in this transaction, bumped once: nobody else
            return revision + 1  # writes in between (BEGIN IMMEDIATE)
        return self._revision(s, event_id)

    def _open_reports(self, s: Session, g: GameRow) -> list[ResultReportRow]:
        return list(s.scalars(_OPEN_REPORTS_OF, {"game": g.id}))

    def report_result(
        self,
        event_name: str | None,
        number: int,
        reporter: str,
        winner: str,
        fleet_points: dict[str, int],
    ) -> int:
        """A player reports his table's result; it waits for the opponent's PIN (OP-14).

        A new report by the same player replaces his earlier one; while one player's report
        waits, the other confirms or disputes it rather than reporting. Returns the report id.
        """
        for v in fleet_points.values():
            check_fleet_points(v)
        with self.transaction() as s:
            e = self._event(s, event_name)
            p = self._player(s, e, reporter)
            g = self._game_of(e, number, p)
            a, b = self._at_table(e, g)
            if winner not in (a.name, b.name):
                raise InvalidInputError(
                    f"{winner} does not play at table {g.table}", field="winner"
                )
            if set(fleet_points) != {a.name, b.name}:
                raise InvalidInputError(f"give the Fleet Points of both {a.name} and {b.name}")
            if g.winner_id is not None and g.fp_a is not None and g.fp_b is not None:
                raise InvalidInputError(
                    f"table {g.table}'s result is recorded already; ask the organizer to correct it"
                )
            if Capability.SCORES_FLEET_POINTS in capabilities_of(e.scenario):
                loser = b.name if winner == a.name else a.name
                if fleet_points[winner] < fleet_points[loser]:
                    raise InvalidInputError(
                        winner_refusal(winner, fleet_points[winner], loser, fleet_points[loser]),
                        field="winner",
                    )
            for r in self._open_reports(s, g):
                if r.reporter_id != p.id:
                    other = a.name if r.reporter_id == a.id else b.name
                    raise InvalidInputError(
                        f"{other} has reported table {g.table} already: confirm that report "
                        "with your PIN, or dispute it"
                    )
                if r.status != "pending":  # disputed or flagged: the organizer settles it
                    raise InvalidInputError(
                        f"your report of table {g.table} is {r.status}: the organizer settles "
                        "it with you both; it cannot be reported again"
                    )
                r.status = "superseded"
            row = ResultReportRow(
                game_id=g.id,
                reporter_id=p.id,
                winner_id=a.id if winner == a.name else b.id,
                fp_a=fleet_points[a.name],
                fp_b=fleet_points[b.name],
                status="pending",
            )
            s.add(row)
            opponent = b.name if p.id == a.id else a.name
            s.add(
                CorrectionRow(
                    event_id=e.id,
                    who=f"{reporter} (PIN)",
                    what=f"round {number} table {g.table}: {reporter} reports {winner} won, "
                    f"Fleet Points {a.name} {fleet_points[a.name]}, {b.name} "
                    f"{fleet_points[b.name]}; waiting for {opponent}'s PIN",
                )
            )
            s.flush()
            return row.id

    def _opponents_turn(
        self, s: Session, e: EventRow, report_id: int, name: str, verb: str
    ) -> tuple[ResultReportRow, GameRow, PlayerRow, PlayerRow]:
        """A pending report that `name`, the reporter's opponent, may now confirm or dispute."""
        r, g = self._report(s, e, report_id)
        a, b = self._at_table(e, g)
        me = self._player(s, e, name)
        if r.status != "pending":
            raise InvalidInputError(f"this report is {r.status} already")
        if me.id == r.reporter_id or me.id not in (a.id, b.id):
            raise InvalidInputError(
                f"only the opponent of the player who reported {verb} table {g.table}"
            )
        return r, g, a, b

    def _report(self, s: Session, e: EventRow, report_id: int) -> tuple[ResultReportRow, GameRow]:
        r = s.get(ResultReportRow, report_id)
        g = None if r is None else s.get(GameRow, r.game_id)
        if r is None or g is None or g.round.event_id != e.id:
            raise InvalidInputError(f"no report #{report_id} in {e.name}")
        return r, g

    def confirm_report(self, event_name: str | None, report_id: int, confirmer: str) -> str:
        """The opponent confirms a report with his PIN: the result is recorded and each sheet
        initialled by the other player (FBS-10). When the score check fails the report waits
        for the organizer instead (status flagged) and the warning is returned."""
        with self._checked() as s:
            e = self._event(s, event_name)
            r, g, a, b = self._opponents_turn(s, e, report_id, confirmer, "confirms")
            who = f"{confirmer} (PIN)"
            number = g.round.number
            warning = "; ".join(
                w
                for w in (
                    self.score_warning(e, b.id, r.fp_a),
                    self.score_warning(e, a.id, r.fp_b),
                )
                if w
            )
            if warning:
                r.status = "flagged"
                r.note = warning
                r.resolved_by = who
                s.add(
                    CorrectionRow(
                        event_id=e.id,
                        who=who,
                        what=f"round {number} table {g.table}: {confirmer} confirms, but the score "
                        f"check fails ({warning}); the organizer decides",
                    )
                )
                return warning
            self._apply_result(s, e, number, g, a, r.winner_id == a.id, r.fp_a, who)
            self._apply_result(s, e, number, g, b, r.winner_id == b.id, r.fp_b, who)
            g.flag = ""
            g.result_initials_a = _initials(b.name)
            g.result_initials_b = _initials(a.name)
            g.entered_by = who
            r.status = "confirmed"
            r.resolved_by = who
            winner = a.name if r.winner_id == a.id else b.name
            s.add(
                CorrectionRow(
                    event_id=e.id,
                    who=who,
                    what=f"round {number} table {g.table}: {confirmer} confirms {winner} won, "
                    f"Fleet Points {a.name} {r.fp_a}, {b.name} {r.fp_b}",
                )
            )
            return ""

    def dispute_report(
        self, event_name: str | None, report_id: int, disputer: str, note: str = ""
    ) -> None:
        """The opponent says a report is wrong: it goes to the organizer."""
        note = note.strip()[:500]
        with self.transaction() as s:
            e = self._event(s, event_name)
            r, g, _, _ = self._opponents_turn(s, e, report_id, disputer, "disputes")
            r.status = "disputed"
            r.note = note
            r.resolved_by = f"{disputer} (PIN)"
            s.add(
                CorrectionRow(
                    event_id=e.id,
                    who=f"{disputer} (PIN)",
                    what=f"round {g.round.number} table {g.table}: {disputer} disputes the "
                    "report; the organizer decides" + (f" ({note})" if note else ""),
                )
            )

    def reports(self, event_name: str | None, number: int | None = None) -> list[dict[str, Any]]:
        """Players' reports, oldest first (of one round when `number` is given)."""
        with self.transaction(write=False) as s:
            e = self._event(s, event_name)
            names = {p.id: p.name for p in e.players}
            out = []
            for r in e.round_rows:
                if number is not None and r.number != number:
                    continue
                games = {g.id: g for g in r.games}
                rows = s.scalars(
                    select(ResultReportRow)
                    .where(ResultReportRow.game_id.in_(list(games)))
                    .order_by(ResultReportRow.id)
                )
                for row in rows:
                    g = games[row.game_id]
                    a, b = names[g.a_id], names[g.b_id] if g.b_id else ""
                    out.append(
                        {
                            "id": row.id,
                            "round": r.number,
                            "table": g.table,
                            "reporter": names[row.reporter_id],
                            "confirmer": b if row.reporter_id == g.a_id else a,
                            "winner": names[row.winner_id],
                            "fp": {a: row.fp_a, b: row.fp_b},
                            "status": row.status,
                            "note": row.note,
                            "resolved_by": row.resolved_by,
                        }
                    )
            return out

    def battle_log(self, event_name: str | None, number: int, table: int) -> str | None:
        """The JSONL log of a game the AI played, or None."""
        with self.transaction(write=False) as s:
            g = self._table(self._event(s, event_name), number, table)
            row = s.scalars(select(BattleLogRow).where(BattleLogRow.game_id == g.id)).first()
            return None if row is None else row.jsonl

    def battle_log_tables(self, event_name: str | None) -> set[tuple[int, int]]:
        """(round, table) of every game with a battle log."""
        with self.transaction(write=False) as s:
            e = self._event(s, event_name)
            out = set()
            for r in e.round_rows:
                ids = {g.id: g.table for g in r.games}
                logged = s.scalars(
                    select(BattleLogRow.game_id).where(BattleLogRow.game_id.in_(list(ids)))
                )
                out |= {(r.number, ids[game_id]) for game_id in logged}
            return out


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


def _initials(name: str) -> str:
    """A player's initials for the sheet's initials box (at most 4 letters)."""
    words = [w for w in name.replace("-", " ").split() if w]
    return "".join(w[0].upper() for w in words)[:4] or name[:4]


#: How long a web login lasts from the moment the password was given, however busy the session
#: is: a long event day; a cookie copied from a browser is worth nothing after it.
SESSION_LIFETIME = timedelta(hours=12)


def _session_key(token: str) -> str:
    """How a session's token is kept in web_sessions: its SHA-256 (the token is 256 random bits,
    so a fast hash is enough; a copy of the database gives no working cookie)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _naive_utc(offset: timedelta = timedelta(0)) -> datetime:
    """Now plus `offset`, in UTC without a zone: how the DateTime columns hold times."""
    return (datetime.now(UTC) + offset).replace(tzinfo=None)
