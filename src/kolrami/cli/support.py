"""What every `kolrami` command shares: one-line errors, JSON output, the console."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Annotated
from typing import Any
from typing import ParamSpec
from typing import TypeVar

import typer
from rich.console import Console

from kolrami.captains.registry import captain_factory
from kolrami.captains.registry import captain_names
from kolrami.captains.registry import is_path
from kolrami.catalog.names import Names
from kolrami.engine.chance import SEED_BITS
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.errors import path_is
from kolrami.errors import quoted
from kolrami.rules.registry import describe
from kolrami.rules.registry import refuse_unwritten

# The options every battle-playing command shares, said once (`battle`, `play`, `assess`).
FleetAOption = Annotated[str, typer.Option(help="Side A: a FleetX JSON file or presets:NAME.")]
FleetBOption = Annotated[str, typer.Option(help="Side B: a FleetX JSON file or presets:NAME.")]
#: the tournament database, the same option for `kolrami tournament ...` and `kolrami web`
DbOption = Annotated[
    str | None, typer.Option("--db", help="Database URL or SQLite file (./kolrami.db).")
]
ScenarioOption = Annotated[str, typer.Option(help="A built-in scenario or a TOML file.")]
TurnsOption = Annotated[int | None, typer.Option(help="Turn limit (overrides the scenario).")]
RulesOption = Annotated[
    str | None, typer.Option(help="Extra rule modules, comma separated (see kolrami rules).")
]
SeedOption = Annotated[
    int | None, typer.Option(help="Seed, 0 to 2**63 - 1; a new one is drawn if omitted.")
]
#: --json, on every command that prints results
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str) -> typer.Exit:
    """Print a one-line error; the caller raises the returned Exit (code 2).

    One line whatever the message holds: a driver's text of several lines is joined, without
    SQLAlchemy's "(Background on this error at: ...)" link.
    """
    lines = [
        line.strip()
        for line in message.splitlines()
        if line.strip() and not line.strip().startswith("(Background on this error")
    ]
    typer.echo(f"kolrami: error: {' '.join(lines)}", err=True)
    return typer.Exit(2)


#: The store units of work of the running command (Store.begin_unit): one per store it opens,
#: committed when the command ends well, rolled back when it fails (nothing of it is kept).
COMMAND_UNITS: ContextVar[list[Any] | None] = ContextVar("kolrami_command_units", default=None)


def command_unit(store: Any) -> None:
    """Run the rest of the command's calls on `store` in one unit of work (one transaction)."""
    units = COMMAND_UNITS.get()
    if units is not None:
        units.append(store.begin_unit())


def _end_units(commit: bool) -> None:
    units = COMMAND_UNITS.get() or []
    while units:
        units.pop().end(commit)


def command(
    target: typer.Typer, *args: Any, **kwargs: Any
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """`target.command`, with every KolramiError reported as one line and exit code 2."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def guarded(*a: P.args, **k: P.kwargs) -> R:
            units = COMMAND_UNITS.set([])
            try:
                try:
                    result = func(*a, **k)
                except BaseException:
                    _end_units(commit=False)
                    raise
                _end_units(commit=True)
                return result
            except KolramiError as exc:
                raise fail(str(exc)) from None
            finally:
                COMMAND_UNITS.reset(units)

        target.command(*args, **kwargs)(guarded)
        return func

    return register


def store_url(url: str, create: bool) -> str:
    """`url` (from --db, as kolrami.tournament.store.database_url made it) checked before the
    store opens it, so that every reason it cannot be opened is one line:

    - a SQLite file in a folder that does not exist;
    - a SQLite file that does not exist, for a command that only uses an event (`create` False:
      standings, pair, result ...): the store would make an empty database there;
    - PostgreSQL without its driver (the `postgres` extra).
    """
    # SQLAlchemy's URL parser (the store loads SQLAlchemy anyway, right after this)
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise InvalidInputError(
            f"--db '{quoted(url)}' is not a database URL: give a SQLite file (event.db) or a "
            "URL such as postgresql://user@host/kolrami"
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        name = parsed.database
        if str(parsed.query.get("uri", "")).lower() == "true":  # sqlite:///file:PATH?mode=ro
            name = name.removeprefix("file:")
        path = Path(name)
        folder = path.parent if str(path.parent) else Path(".")
        if not path_is(folder, "dir"):
            raise InvalidInputError(
                f"--db '{quoted(path)}': folder '{quoted(folder)}' does not exist; make it "
                "first or name a file in a folder that does"
            )
        try:
            path.stat()
        except FileNotFoundError:
            pass
        except OSError as exc:  # a name too long, no permission to look
            raise InvalidInputError(f"--db '{quoted(path)}': {exc.strerror}") from None
        if path_is(path, "dir"):
            raise InvalidInputError(f"--db '{quoted(path)}' is a folder; name the store's file")
        if path_is(path, "file"):
            _check_sqlite_file(path, create)
        elif not create:
            raise InvalidInputError(
                f"--db '{quoted(path)}': no such store (nothing was created); create an event "
                f"there with kolrami tournament new NAME --db {quoted(path)}, or name the "
                "store's file"
            )
    elif backend == "postgresql":
        driver = parsed.get_driver_name()
        try:
            missing = importlib.util.find_spec(driver) is None
        except (ImportError, ValueError):
            missing = True
        if missing:
            raise InvalidInputError(
                f"--db {quoted(parsed.render_as_string(hide_password=True))}: the PostgreSQL "
                f"driver ({driver}) is not installed; install it with pip install "
                "'kolrami[postgres]'"
            )
    return url


def _check_sqlite_file(path: Path, create: bool) -> None:
    """Refuse an empty --db file for a command that only uses a store: SQLite would make it a
    database (and so change a file that is not a store)."""
    try:
        with path.open("rb") as f:
            head = f.read(1)
    except OSError as exc:
        raise InvalidInputError(f"--db '{quoted(path)}': {exc.strerror}") from None
    # another kind of file is the store's to name (kolrami.tournament.store.store_problem)
    if not head and not create:
        raise InvalidInputError(
            f"--db '{quoted(path)}' is an empty file, not a store (nothing was changed); create "
            f"an event there with kolrami tournament new NAME --db {quoted(path)}"
        )


#: Seeds are whole numbers from 0 to 2**63 - 1 in every command (kolrami.engine.chance).
MAX_SEED = 2**SEED_BITS - 1


def check_seed(seed: int | None, option: str = "--seed") -> int | None:
    """`seed` if it is one every command takes (0 to 2**63 - 1, the range the store keeps and
    JSON carries), else one line saying so."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InvalidInputError(
            f"{option} {quoted(seed, 30)}: a seed is a whole number from 0 to 2**63 - 1 "
            f"({MAX_SEED})"
        )
    return seed


def console() -> Console:
    """A console for results; 120 columns when the output is not a terminal."""
    out = Console(highlight=False)
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out.width = 120  # piped or captured output: logs are wider than 80 columns
    return out


def answer(as_json: bool, data: Any, line: str) -> None:
    """A command's answer: `data` as JSON with --json, else `line` on the console."""
    if as_json:
        print_json(data)
    else:
        console().print(line)


def print_json(data: Any) -> None:
    """JSON on stdout, indented, exactly as given."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def captain(text: str) -> str:
    """A captain's name from what was typed, loosely ('Kiting', 'KITING'); a module or file
    path (`mypkg.mycaptain:Brawler`, `brawler.py:Brawler`) is loaded to check it."""
    if is_path(text):
        captain_factory(text)
        return text
    return Names.of("captain", ((n, n, ()) for n in captain_names())).find(text)


def rule_modules(text: str | None) -> tuple[str, ...]:
    """Rule module names from a comma-separated list, each found loosely ('Derelicts')."""
    if not text:
        return ()
    names = Names.of("rule module", ((row[0], row[0], ()) for row in describe()))
    found = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if names.get(part) is None:
            refuse_unwritten(part)  # an idea FPF names without rules gets its own reason
        found.append(names.find(part))
    return tuple(found)
