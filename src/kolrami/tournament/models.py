"""The tournament store's tables (SQLAlchemy 2); migrations/ creates and evolves them."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from sqlalchemy import BigInteger
from sqlalchemy import Boolean
from sqlalchemy import ForeignKey
from sqlalchemy import Integer
from sqlalchemy import String
from sqlalchemy import Text
from sqlalchemy import UniqueConstraint
from sqlalchemy import false
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column
from sqlalchemy.orm import relationship


def now() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Base of the store's tables."""


class EventRow(Base):
    """An event: its settings and seed (OP-01, OP-02, OP-13)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    date: Mapped[str] = mapped_column(String(40), default="")
    sp_limit: Mapped[int] = mapped_column(Integer, default=300)
    scenario: Mapped[str] = mapped_column(String(200), default="peak-performance")
    rounds: Mapped[int] = mapped_column(Integer, default=3)
    round_minutes: Mapped[int] = mapped_column(Integer, default=60)
    seed: Mapped[int] = mapped_column(BigInteger)  # 0 to 2**63 - 1
    titles: Mapped[str] = mapped_column(Text, default='["Admiral", "Vice Admiral"]')
    faction_surcharge: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=now)
    #: Changes with every write to the event (migration 0003): what the web app keeps of the
    #: event in memory is used only while this is unchanged. The store bumps it; see store.py.
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: The most resets one ship of a fleet is believed to take in a round (migration 0004): a
    #: score that needs more is implausible (flagged as such); None: the default for the
    #: round's length (score check in store.py).
    max_resets: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    #: Players may ask to join from their phones (migration 0006a); the organizer approves.
    self_registration: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The store or club the event is held at (migration 0006a), for the archive.
    venue: Mapped[str] = mapped_column(String(200), default="", server_default="")

    players: Mapped[list[PlayerRow]] = relationship(back_populates="event", order_by="PlayerRow.id")
    round_rows: Mapped[list[RoundRow]] = relationship(
        back_populates="event", order_by="RoundRow.number"
    )


class PlayerRow(Base):
    """A player: name, email, fleet (locked once round 1 is paired, OP-12), drop and entry."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("event_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    name: Mapped[str] = mapped_column(String(120))
    #: The name as compared (migration 0004): look-alike names have the same key (names.py).
    name_key: Mapped[str] = mapped_column(String(120), default="", server_default="", index=True)
    email: Mapped[str] = mapped_column(String(200), default="")
    fleet_json: Mapped[str] = mapped_column(Text)
    pin_hash: Mapped[str | None] = mapped_column(String(200), nullable=True, default=None)
    joined_round: Mapped[int] = mapped_column(Integer, default=1)
    dropped_after: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    created_at: Mapped[datetime] = mapped_column(default=now)

    event: Mapped[EventRow] = relationship(back_populates="players")


class RoundRow(Base):
    """A paired round, with the seed it was paired with (so it can be derived again)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)  # 0 to 2**63 - 1
    rematches: Mapped[str] = mapped_column(Text, default="[]")
    created_at: Mapped[datetime] = mapped_column(default=now)
    #: The round's timer (migration 0006a), in the database so that it survives a restart:
    #: started (None: not yet), paused at (None: running), the seconds of earlier pauses, and
    #: the minutes the organizer added (services/timer.py reads them).
    timer_started_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    timer_paused_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    timer_paused_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    timer_added_minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    event: Mapped[EventRow] = relationship(back_populates="round_rows")
    games: Mapped[list[GameRow]] = relationship(back_populates="round", order_by="GameRow.table")


class GameRow(Base):
    """A table of a round (b None: a bye), its result and the opponents' initials."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    table: Mapped[int] = mapped_column(Integer)
    a_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    b_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    fp_a: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fp_b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    build_initials_a: Mapped[str] = mapped_column(String(10), default="")
    build_initials_b: Mapped[str] = mapped_column(String(10), default="")
    result_initials_a: Mapped[str] = mapped_column(String(10), default="")
    result_initials_b: Mapped[str] = mapped_column(String(10), default="")
    flag: Mapped[str] = mapped_column(Text, default="")
    version: Mapped[int] = mapped_column(Integer, default=1)
    #: Who entered the result as it stands (migration 0004): "organizer NAME" after the
    #: organizer entered or corrected it, "NAME (PIN)" when the players' PINs confirmed it.
    entered_by: Mapped[str] = mapped_column(String(120), default="", server_default="")

    round: Mapped[RoundRow] = relationship(back_populates="games")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012  (SQLAlchemy's own API)


class RollOffRow(Base):
    """A player's part in a roll-off (OP-24), rolled by Kolrami or entered.

    Migration 0004 added the tie it settles: the rows of one `batch` are one roll-off, for
    players level on `battle_points` and `fleet_points` after `after_round`, and `throws` are
    each throw's hits and criticals (JSON). Rows from before (batch NULL) settle no tie.
    """

    __tablename__ = "roll_offs"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    result: Mapped[int] = mapped_column(BigInteger)  # a sort key past 2**31
    source: Mapped[str] = mapped_column(String(100))
    batch: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    after_round: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    battle_points: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    fleet_points: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    throws: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)


class JoinRequestRow(Base):
    """A player's request to join an event from his phone (migration 0006a): pending until the
    organizer approves it (the player is then registered, with the same checks as the
    organizer's entry) or refuses it. status: pending, approved, refused, superseded (sent
    again)."""

    __tablename__ = "join_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    email: Mapped[str] = mapped_column(String(200), default="")
    fleet_json: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    created_at: Mapped[datetime] = mapped_column(default=now)


class CorrectionRow(Base):
    """The corrections log: every change to a result after it was first entered, and by whom."""

    __tablename__ = "corrections"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    at: Mapped[datetime] = mapped_column(default=now)
    who: Mapped[str] = mapped_column(String(120))
    what: Mapped[str] = mapped_column(Text)


# --- the web app's tables (migration 0002) ----------------------------------------------------


class OrganizerRow(Base):
    """An organizer's account for the web app; the password is stored hashed (argon2)."""

    __tablename__ = "organizers"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=now)


class WebSessionRow(Base):
    """A logged-in browser (migration 0004): the session cookie names it by a random id, kept
    here hashed; logging out deletes it, so a copied cookie stops working at once."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    organizer_id: Mapped[int] = mapped_column(ForeignKey("organizers.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(default=now)


class EventOrganizerRow(Base):
    """Who may run an event in the web app (an event without one was made by the CLI)."""

    __tablename__ = "event_organizers"

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), primary_key=True)
    organizer_id: Mapped[int] = mapped_column(ForeignKey("organizers.id"), primary_key=True)
    #: The one link of an event that owns it (migration 0007): the owner is removed only by
    #: himself or after handing the event over (services/edits.py).
    owner: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ResultReportRow(Base):
    """A result reported by a player, waiting for the opponent's PIN (OP-14, FBS-10).

    status: pending, confirmed, disputed, flagged (confirmed but the score check failed: the
    organizer decides), overridden (the organizer entered the result), superseded.
    """

    __tablename__ = "result_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    winner_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    fp_a: Mapped[int] = mapped_column(Integer)
    fp_b: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    note: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=now)
    resolved_by: Mapped[str] = mapped_column(String(120), default="")


class BattleLogRow(Base):
    """The event log (JSONL) of a game the AI captains played, for its replay page."""

    __tablename__ = "battle_logs"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    captains: Mapped[str] = mapped_column(String(200), default="")
    jsonl: Mapped[str] = mapped_column(Text)


class SecretRow(Base):
    """Secrets the web app keeps across restarts (the session signing key)."""

    __tablename__ = "app_secrets"

    name: Mapped[str] = mapped_column(String(60), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
