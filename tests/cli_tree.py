"""The CLI's command tree, for the tests that go through every command (tests/cli and the
bad-input suite in tests/e2e): a new command is in them without being listed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

from kolrami.cli import app


def leaf_commands() -> Iterator[tuple[str, Any]]:
    """Every command of the CLI by its full name ('tournament player add'), with its click
    command."""

    def walk(command: Any, path: list[str]) -> Iterator[tuple[str, Any]]:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])
        else:
            yield " ".join(path), command

    yield from walk(typer.main.get_command(app), [])
