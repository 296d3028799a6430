"""The tournament store's database: which one a --db names, the engine and how it takes turns
(SQLite's locks, or PostgreSQL's advisory lock and snapshots), the migrations, the length of
texts, and the one-line errors for a database that cannot be used as it is."""

from __future__ import annotations

import os
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from typing import cast

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.script.revision import ResolutionError
from sqlalchemy import Engine
from sqlalchemy import Table
from sqlalchemy import create_engine
from sqlalchemy import event
from sqlalchemy import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError

DEFAULT_DB = "sqlite:///kolrami.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class ConflictError(KolramiError):
    """Someone else changed the same result first (two tablets at once)."""


class StoreUnavailableError(KolramiError):
    """The database cannot be used as it is: read-only here, damaged, or written by a newer
    Kolrami. Nothing was saved; the message names the database and the fix (the web app
    answers 503, the CLI exits 2)."""


class StoreBusyError(StoreUnavailableError):
    """Another process held the database's write lock for longer than BUSY_TIMEOUT_MS (SQLite's
    busy timeout, PostgreSQL's lock_timeout): the transaction rolled back and nothing was saved;
    sending it again in a moment works (the web app answers 503, the CLI exits 2)."""


BUSY_MESSAGE = (
    "the event's records are busy (another tablet or the command line is saving right now): "
    "nothing was saved; send it again in a moment"
)


def database_url(url_or_path: str | None) -> str:
    """A URL from --db: a URL as given, a bare path as a SQLite file, nothing as ./kolrami.db
    (or $KOLRAMI_DB). PostgreSQL's `postgresql://` and `postgres://` take psycopg 3, the driver
    of `pip install 'kolrami[postgres]'` (SQLAlchemy 2.0 would look for psycopg2 there)."""
    url = url_or_path or os.environ.get("KOLRAMI_DB", DEFAULT_DB)
    if "://" not in url:
        return f"sqlite:///{url}"
    scheme, _, rest = url.partition("://")
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return url


#: How long a transaction waits for another process's write (the CLI's, say) before giving up;
#: the web app then answers 503 and nothing is saved.
BUSY_TIMEOUT_MS = 5000


#: The PostgreSQL advisory lock a writing transaction holds (any number; "kolrami" in ASCII).
WRITE_LOCK_KEY = 0x6B6F6C72616D69


#: True while the current thread is in a Store transaction that may write (see `make_engine`).
WRITING: ContextVar[bool] = ContextVar("kolrami_store_writing", default=True)


def make_engine(url: str) -> Engine:
    engine = create_engine(url)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            # The driver would open transactions itself, and only at the first write: reads
            # before it would see no snapshot. `_begin` below opens them instead.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_MS)}")
            # Write-ahead log: readers never wait for a writer nor a writer for readers, so the
            # web app's pages and result entries do not queue behind each other.
            cursor.execute("PRAGMA journal_mode=WAL")
            # With the log, NORMAL syncs at checkpoints rather than at every commit: a killed
            # process loses nothing committed and the file is never damaged; a power cut may
            # lose the last commits before it (SQLite's documented trade for WAL).
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Any) -> None:
            # A transaction that may write takes the write lock at once: taking it later, after
            # reading, could fail when another connection wrote in between. A read-only one
            # reads one consistent snapshot.
            connection.exec_driver_sql("BEGIN IMMEDIATE" if WRITING.get() else "BEGIN")

    elif engine.dialect.name == "postgresql":

        @event.listens_for(engine, "connect")
        def _timeouts(dbapi_connection: Any, _record: Any) -> None:
            # a write waits for another process's at most this long, as on SQLite (then 503)
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET lock_timeout = {int(BUSY_TIMEOUT_MS)}")
            dbapi_connection.commit()

        @event.listens_for(engine, "begin")
        def _begin_pg(connection: Any) -> None:
            # What SQLite's BEGIN IMMEDIATE and BEGIN give, which the store relies on: writers
            # one at a time across processes (a lock held to the transaction's end), so that a
            # read-then-write in one transaction never meets another's write in between; and
            # readers one consistent snapshot, as PostgreSQL's default isolation (a new
            # snapshot each statement) does not.
            if WRITING.get():
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")
            else:
                connection.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

    return engine


def _alembic() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic migrations, run in the package)."""
    config = _alembic()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def refuse_long_texts(session: Session, _context: Any, _instances: Any) -> None:
    """Before each flush: refuse a text longer than its column holds. SQLite keeps any length,
    PostgreSQL refuses it mid-transaction; either way the store is left as it was."""
    for row in (*session.new, *session.dirty):
        for column in cast(Table, type(row).__table__).columns:
            length = getattr(column.type, "length", None)
            value = row.__dict__.get(column.key)  # what is loaded or set: no query mid-flush
            if length is not None and isinstance(value, str) and len(value) > length:
                raise InvalidInputError(check_length(column.name, value, length), field=column.name)


def check_length(what: str, value: str, length: int) -> str:
    """The message for a text over its column's length (names, who entered a result)."""
    return f"{what} '{value[:40]}...' has {len(value)} characters: shorten it to {length} or fewer"


def _shown(url: str) -> str:
    """The database as a person finds it: a SQLite file's full path, else the URL without its
    password."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///").partition("?")[0].removeprefix("file:")
        return str(Path(path).resolve()) if path and path != ":memory:" else url
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:  # not a URL SQLAlchemy reads: shown as given
        return url


def damaged(url: str, detail: str) -> str:
    where = _shown(url)
    return (
        f"the database {where} is damaged (SQLite: {detail[:120]}); nothing was saved: stop "
        "Kolrami, keep a copy of the file, and restore the last backup or export (kolrami "
        f"tournament import), or let SQLite save what it can (sqlite3 {where} .recover | "
        "sqlite3 recovered.db)"
    )


def cannot_open(url: str, exc: BaseException) -> str:
    """One line for a store that does not open: the database, the driver's first line, the fix."""
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines() or [type(orig).__name__]
    detail = lines[0].strip()[:200]
    if url.startswith("postgresql") and isinstance(orig, ModuleNotFoundError):
        return (
            f"cannot open the PostgreSQL store {_shown(url)}: its driver is not installed; "
            "pip install 'kolrami[postgres]'"
        )
    if url.startswith("postgresql"):
        return (
            f"cannot open the PostgreSQL store {_shown(url)}: {detail}; check that the server "
            "runs, that the user may log in and that the database exists (createdb NAME)"
        )
    return f"cannot open the store {_shown(url)}: {detail}"


def store_problem(url: str, exc: BaseException) -> StoreUnavailableError | None:
    """The one-line error for a database that cannot be used as it is (read-only here, damaged,
    not a database, made by a newer Kolrami), or None for any other fault."""
    where = _shown(url)
    for link in (exc, exc.__cause__, exc.__context__):
        if isinstance(link, ResolutionError):  # alembic_version names a revision we lack
            head = ScriptDirectory.from_config(_alembic()).get_current_head()
            return StoreUnavailableError(
                f"the database {where} was made by a newer Kolrami (its schema is revision "
                f"'{link.argument}'; this Kolrami knows revisions up to '{head}'): upgrade "
                "Kolrami (pip install --upgrade kolrami) to use it, or give --db another database"
            )
    orig = getattr(exc, "orig", None) or exc
    name = str(getattr(orig, "sqlite_errorname", "") or "")
    # SQLite's busy timeout, or PostgreSQL's lock_timeout (lock_not_available)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or (
        getattr(orig, "sqlstate", None) == "55P03"
    ):
        return StoreBusyError(BUSY_MESSAGE)
    if name.startswith("SQLITE_READONLY") or getattr(orig, "sqlstate", None) == "25006":
        return StoreUnavailableError(
            f"the database {where} is read-only here, so nothing was saved: give the user who "
            "runs Kolrami write access to the file and its folder, or copy it somewhere "
            "writable and point --db at the copy"
        )
    if name.startswith("SQLITE_NOTADB"):
        return StoreUnavailableError(
            f"{where} is not a SQLite database (another kind of file, or its first page is "
            "damaged): check that --db names the event's database; to start again from an "
            "export, kolrami tournament import FILE.json --db NEW.db"
        )
    if name.startswith("SQLITE_CORRUPT"):
        return StoreUnavailableError(damaged(url, str(orig)))
    return None
