"""The store's repositories: how each aggregate is found and kept, over one SQLAlchemy session
(the caller's unit of work; nothing here begins or commits a transaction).

Events (an event and its settings), Players (players and their fleets), Rounds (rounds,
pairings and the games at their tables), Results (players' reports and the AI's battle logs),
Audit (the corrections log) and Accounts (organizers, their web sessions, the store's
secrets). The use cases over them are in services/.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from typing import Any
from typing import cast

from sqlalchemy import Table
from sqlalchemy import bindparam
from sqlalchemy import delete
from sqlalchemy import func
from sqlalchemy import select
from sqlalchemy import update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from kolrami.catalog.names import Names
from kolrami.errors import InvalidInputError
from kolrami.tournament.models import BattleLogRow
from kolrami.tournament.models import CorrectionRow
from kolrami.tournament.models import EventOrganizerRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import GameRow
from kolrami.tournament.models import JoinRequestRow
from kolrami.tournament.models import OrganizerRow
from kolrami.tournament.models import PlayerRow
from kolrami.tournament.models import ResultReportRow
from kolrami.tournament.models import RollOffRow
from kolrami.tournament.models import RoundRow
from kolrami.tournament.models import SecretRow
from kolrami.tournament.models import WebSessionRow
from kolrami.tournament.names import name_key

OPEN_REPORTS = ("pending", "disputed", "flagged")

#: How long a web login lasts from the moment the password was given, however busy the session
#: is: a long event day; a cookie copied from a browser is worth nothing after it.
SESSION_LIFETIME = timedelta(hours=12)

#: The tables whose rows belong to one event, and how a row names it: its event_id, its game's
#: round's event, or its round's event. Tables not named here belong to no event (accounts,
#: secrets). A new table must be added to one or the other (a test checks that).
BY_EVENT_ID = (
    EventOrganizerRow,
    PlayerRow,
    RoundRow,
    RollOffRow,
    CorrectionRow,
    JoinRequestRow,
)
BY_ROUND = (GameRow,)
BY_GAME = (ResultReportRow, BattleLogRow)
NO_EVENT = (OrganizerRow, SecretRow, WebSessionRow)


def bump_revisions(session: Session, _context: Any) -> None:
    """After each flush, in its transaction: bump the revision of every event it touched, once
    per transaction (readers never see the transaction's rows before it commits, so one bump
    covers every flush of it)."""
    events: set[int] = set()
    rounds: set[int] = set()
    games: set[int] = set()
    for row in (*session.new, *session.dirty, *session.deleted):
        if isinstance(row, EventRow):
            events.add(row.id)
        elif isinstance(row, BY_EVENT_ID):
            events.add(row.event_id)
        elif isinstance(row, BY_ROUND):
            rounds.add(row.round_id)
        elif isinstance(row, BY_GAME):
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
    bumped: set[int] = session.info.setdefault(BUMPED, set())
    events -= bumped
    if events:
        connection.execute(_BUMP, {"ids": sorted(events)})
        bumped |= events


def transaction_over(session: Session, *_: Any) -> None:
    session.info.pop(BUMPED, None)


BUMPED = "kolrami_bumped_events"
_EVENTS = cast(Table, EventRow.__table__)
_BUMP = (
    update(_EVENTS)
    .where(_EVENTS.c.id.in_(bindparam("ids", expanding=True)))
    .values(revision=_EVENTS.c.revision + 1)
)


_OPEN_REPORTS_OF = select(ResultReportRow).where(
    ResultReportRow.game_id == bindparam("game"), ResultReportRow.status.in_(OPEN_REPORTS)
)


def columns(row: object, *names: str) -> dict[str, Any]:
    """These columns of a row, by name: what the pages and the export list of it."""
    return {name: getattr(row, name) for name in names}


class Events:
    """Events: found by name (loosely, with a suggestion) or id, and their settings."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def named(self, name: str | None) -> EventRow:
        """The event of this name (the latest when None); 'nov' finds Nov."""
        session = self.session
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

    def by_id(self, event_id: int) -> EventRow:
        """The event with this id."""
        row = self.session.get(EventRow, event_id)
        if row is None:
            raise InvalidInputError(f"no event #{event_id}")
        return row

    def exists(self, name: str) -> bool:
        """An event of exactly this name is stored."""
        query = select(EventRow.id).where(EventRow.name == name)
        return self.session.scalars(query).first() is not None

    def names(self) -> list[str]:
        """Every event's name, newest last."""
        return list(self.session.scalars(select(EventRow.name).order_by(EventRow.id)))

    def all(self) -> list[EventRow]:
        """Every event, oldest first."""
        return list(self.session.scalars(select(EventRow).order_by(EventRow.id)))

    def revision(self, event_id: int) -> int:
        """The event's revision inside the transaction, after its writes (flushed)."""
        query = select(EventRow.revision).where(EventRow.id == event_id)
        return int(self.session.scalars(query).one())

    @staticmethod
    def settings(e: EventRow) -> dict[str, Any]:
        """An event's settings, as the pages and the export show them."""
        return {
            **columns(e, "name", "date", "sp_limit", "scenario", "rounds", "round_minutes"),
            **columns(e, "seed", "faction_surcharge", "max_resets"),
            "titles": json.loads(e.titles),
        }

    def organizers(self, e: EventRow) -> list[int]:
        """Ids of the organizers who run an event in the web app (empty: made by the CLI)."""
        query = select(EventOrganizerRow.organizer_id).where(EventOrganizerRow.event_id == e.id)
        return list(self.session.scalars(query))

    def owner(self, e: EventRow) -> int | None:
        """The id of the organizer who owns an event (None: nobody runs it in the web app)."""
        query = select(EventOrganizerRow.organizer_id).where(
            EventOrganizerRow.event_id == e.id, EventOrganizerRow.owner.is_(True)
        )
        return self.session.scalars(query).first()

    def owners(self) -> dict[int, list[int]]:
        """Every event's organizers, by event id."""
        owners: dict[int, list[int]] = {}
        for link in self.session.scalars(select(EventOrganizerRow)):
            owners.setdefault(link.event_id, []).append(link.organizer_id)
        return owners


class Players:
    """Players and their fleets: found by name (exactly, by key, or loosely)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def named(self, e: EventRow, name: str) -> PlayerRow:
        """The player of this name in the event, with a suggestion when there is none."""
        session = self.session
        found = session.scalars(
            select(PlayerRow).where(PlayerRow.event_id == e.id, PlayerRow.name == name)
        ).first()
        if found is not None:
            return found
        if name.strip():  # 'ann' for 'Ann', or the name typed with other accents or spaces
            by_key = list(
                session.scalars(
                    select(PlayerRow).where(
                        PlayerRow.event_id == e.id, PlayerRow.name_key == name_key(name)
                    )
                )
            )
            if len(by_key) == 1:
                return by_key[0]
        players = Names.of("player", ((p, p.name, ()) for p in e.players))
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
        raise InvalidInputError(f"no player '{name}' in {e.name}{hint}")

    def same_name(self, e: EventRow, name: str, key: str) -> str | None:
        """The registered name that is `name` or looks like it (the same key), or None.

        Two lookups, each by its own index: SQLite answers "name_key = ? OR name = ?" by
        walking every player of the event (16 ms a player at 10,000 players)."""
        s = self.session
        return (
            s.scalars(
                select(PlayerRow.name).where(PlayerRow.event_id == e.id, PlayerRow.name == name)
            ).first()
            or s.scalars(
                select(PlayerRow.name).where(PlayerRow.event_id == e.id, PlayerRow.name_key == key)
            ).first()
        )

    def get(self, player_id: int) -> PlayerRow:
        """A player by id (one of a game's players)."""
        row = self.session.get(PlayerRow, player_id)
        assert row is not None  # ids come from the event's own rows
        return row

    @staticmethod
    def row(p: PlayerRow) -> dict[str, Any]:
        """A player as the pages list him."""
        return {
            **columns(p, "id", "name", "email", "joined_round", "dropped_after"),
            "has_pin": p.pin_hash is not None,
        }


class Rounds:
    """Rounds, their pairings and the games at their tables."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def paired(self, e: EventRow) -> int:
        """How many rounds are paired (one count, no rows read)."""
        query = select(func.count(RoundRow.id)).where(RoundRow.event_id == e.id)
        return int(self.session.scalars(query).one())

    @staticmethod
    def numbered(e: EventRow, number: int) -> RoundRow:
        """The event's round `number`."""
        for r in e.round_rows:
            if r.number == number:
                return r
        raise InvalidInputError(f"{e.name} has no round {number} yet ({len(e.round_rows)} paired)")

    def game_of(self, e: EventRow, number: int, player: PlayerRow) -> GameRow:
        """The game a player plays in a round."""
        for g in self.numbered(e, number).games:
            if player.id in (g.a_id, g.b_id):
                return g
        raise InvalidInputError(f"{player.name} is not paired in round {number}")

    def table(self, e: EventRow, number: int, table: int) -> GameRow:
        """The game at a round's table."""
        found = self.session.scalars(
            select(GameRow)
            .join(RoundRow, GameRow.round_id == RoundRow.id)
            .where(RoundRow.event_id == e.id, RoundRow.number == number, GameRow.table == table)
        ).first()
        if found is not None:
            return found
        self.numbered(e, number)  # says when the round is not paired yet
        raise InvalidInputError(f"round {number} of {e.name} has no table {table}")

    def players_at(self, g: GameRow) -> tuple[PlayerRow, PlayerRow]:
        """The two players of a game; a bye has none to report."""
        if g.b_id is None:
            raise InvalidInputError(f"table {g.table} is a bye: nothing to report")
        players = Players(self.session)
        return players.get(g.a_id), players.get(g.b_id)

    @staticmethod
    def game_row(g: GameRow, names: dict[int, str]) -> dict[str, Any]:
        """A table with everything recorded on it, as the pages show it."""
        return {
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


class Results:
    """What players report of their games, and the logs of the games the AI played."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def open_reports(self, g: GameRow) -> list[ResultReportRow]:
        """A game's reports that wait for the opponent or the organizer, oldest first."""
        return list(self.session.scalars(_OPEN_REPORTS_OF, {"game": g.id}))

    def report(self, e: EventRow, report_id: int) -> tuple[ResultReportRow, GameRow]:
        """A report of the event, with its game."""
        r = self.session.get(ResultReportRow, report_id)
        g = None if r is None else self.session.get(GameRow, r.game_id)
        if r is None or g is None or g.round.event_id != e.id:
            raise InvalidInputError(f"no report #{report_id} in {e.name}")
        return r, g

    def battle_log(self, g: GameRow) -> str | None:
        """The JSONL log of a game the AI played, or None."""
        query = select(BattleLogRow).where(BattleLogRow.game_id == g.id)
        row = self.session.scalars(query).first()
        return None if row is None else row.jsonl

    def logged(self, game_ids: list[int]) -> list[int]:
        """Which of these games have a battle log."""
        query = select(BattleLogRow.game_id).where(BattleLogRow.game_id.in_(game_ids))
        return list(self.session.scalars(query))


class Audit:
    """The corrections log: who changed what of an event, and when."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def log(self, e: EventRow | int, who: str, what: str, at: datetime | None = None) -> None:
        """One line of the log (stamped now unless `at` is given)."""
        event_id = e if isinstance(e, int) else e.id
        row = CorrectionRow(event_id=event_id, who=who, what=what)
        if at is not None:
            row.at = at
        self.session.add(row)

    def lines(self, e: EventRow) -> list[dict[str, str]]:
        """The event's log, oldest first."""
        rows = self.session.scalars(
            select(CorrectionRow).where(CorrectionRow.event_id == e.id).order_by(CorrectionRow.id)
        )
        return [{"at": r.at.isoformat(), "who": r.who, "what": r.what} for r in rows]


class Accounts:
    """Organizer accounts and their logged-in web sessions."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def by_name(self, username: str) -> OrganizerRow | None:
        """The account of this user name, or None."""
        query = select(OrganizerRow).where(OrganizerRow.username == username)
        return self.session.scalars(query).first()

    def get(self, organizer_id: int) -> OrganizerRow | None:
        """The account with this id, or None when it was removed."""
        return self.session.get(OrganizerRow, organizer_id)

    def ids(self) -> list[int]:
        """Every account's id."""
        return list(self.session.scalars(select(OrganizerRow.id)))

    def add(self, username: str, password_hash: str) -> int:
        """A new account; returns its id."""
        row = OrganizerRow(username=username, password_hash=password_hash)
        self.session.add(row)
        self.session.flush()
        return row.id

    def start_session(self, organizer_id: int, token: str) -> None:
        """A logged-in session under a hash of its token; expired ones are cleared."""
        self.session.execute(
            delete(WebSessionRow).where(WebSessionRow.created_at < naive_utc(-SESSION_LIFETIME))
        )
        self.session.add(WebSessionRow(id=session_key(token), organizer_id=organizer_id))

    def end_sessions(self, organizer_id: int) -> int:
        """End every session of an account; returns how many ended."""
        ended = self.session.execute(
            delete(WebSessionRow).where(WebSessionRow.organizer_id == organizer_id)
        )
        return int(getattr(ended, "rowcount", 0) or 0)

    def end_session(self, token: str) -> None:
        """End one session, by its token."""
        self.session.execute(delete(WebSessionRow).where(WebSessionRow.id == session_key(token)))

    def live_sessions(self, organizer_id: int) -> int:
        """How many sessions of an account are live."""
        query = select(WebSessionRow.id).where(
            WebSessionRow.organizer_id == organizer_id,
            WebSessionRow.created_at >= naive_utc(-SESSION_LIFETIME),
        )
        return len(list(self.session.scalars(query)))


def session_key(token: str) -> str:
    """How a session's token is kept in web_sessions: its SHA-256 (the token is 256 random bits,
    so a fast hash is enough; a copy of the database gives no working cookie)."""
    return hashlib.sha256(token.encode()).hexdigest()


def naive_utc(offset: timedelta = timedelta(0)) -> datetime:
    """Now plus `offset`, in UTC without a zone: how the DateTime columns hold times."""
    return (datetime.now(UTC) + offset).replace(tzinfo=None)
