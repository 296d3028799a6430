"""What every `kolrami` command shares: one-line errors, JSON output, the console."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from kolrami.captains.registry import captain_factory, captain_names, is_path
from kolrami.catalog.names import Names
from kolrami.errors import KolramiError
from kolrami.rules.registry import describe

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str) -> typer.Exit:
    """Print a one-line error; the caller raises the returned Exit (code 2)."""
    typer.echo(f"kolrami: error: {message}", err=True)
    return typer.Exit(2)


def command(
    target: typer.Typer, *args: Any, **kwargs: Any
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """`target.command`, with every KolramiError reported as one line and exit code 2."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def guarded(*a: P.args, **k: P.kwargs) -> R:
            try:
                return func(*a, **k)
            except KolramiError as exc:
                raise fail(str(exc)) from None

        target.command(*args, **kwargs)(guarded)
        return func

    return register


def console() -> Console:
    """A console for results; 120 columns when the output is not a terminal."""
    out = Console(highlight=False)
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out.width = 120  # piped or captured output: logs are wider than 80 columns
    return out


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
    return tuple(names.find(part.strip()) for part in text.split(",") if part.strip())
