"""The `kolrami` command: one Typer app, one module per noun.

Each noun module (ships, cards, odds, battle, peak, fleet, assess, tournament, web) declares its
commands and a `register(app)` that adds them here; support.py holds what they share. Every user
error is a KolramiError; `support.command` turns it into one line on stderr and exit code 2, and
`main` does the same for usage errors, so no user ever sees a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from kolrami import __version__
from kolrami import engine_build
from kolrami.catalog import builtin_pack
from kolrami.cli import assess
from kolrami.cli import battle
from kolrami.cli import cards
from kolrami.cli import fleet
from kolrami.cli import odds
from kolrami.cli import peak
from kolrami.cli import play
from kolrami.cli import ships
from kolrami.cli import timer
from kolrami.cli import tournament
from kolrami.cli import web
from kolrami.cli.support import fail
from kolrami.cli.support import print_json
from kolrami.errors import quoted
from kolrami.rules import RULES_VERSION

app = typer.Typer(
    name="kolrami",
    help="Kolrami: Star Trek fleet battles (FPF) on the tabletop and in simulation.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def versions() -> dict[str, str]:
    """The program's version and the rules and data versions every result is stored with."""
    # the advanced game's data and rules (about 50 ms): loaded only to say their versions
    from kolrami.catalog.advanced import advanced_pack
    from kolrami.rules.advanced.driver import ADVANCED_RULES_VERSION

    pack = builtin_pack()
    adv = advanced_pack()
    return {
        "kolrami": __version__,
        "rules_version": RULES_VERSION,
        "data": pack.pack.id,
        "data_version": pack.data_version,
        "advanced_rules_version": ADVANCED_RULES_VERSION,
        "advanced_data": adv.info.id,
        "advanced_data_version": adv.data_version,
        # which build of the hot modules runs: compiled (mypyc) or pure Python, and why
        "engine": engine_build(),
    }


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", help="Show the program, rules and data versions.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="With --version: as JSON.")] = False,
) -> None:
    """Kolrami: Star Trek fleet battles (FPF) on the tabletop and in simulation."""
    if version:
        v = versions()
        if as_json:
            print_json(v)
        else:
            typer.echo(
                f"kolrami {v['kolrami']} (rules {v['rules_version']}, data {v['data']} "
                f"{v['data_version']}; advanced rules {v['advanced_rules_version']}, data "
                f"{v['advanced_data']} {v['advanced_data_version']})\nengine: {v['engine']}"
            )
        raise typer.Exit()
    if as_json and ctx.invoked_subcommand is not None:
        raise fail(f"put --json after the command: kolrami {ctx.invoked_subcommand} ... --json")
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit()


# The order of registration is the order of `kolrami --help` (commands first, then groups).
ships.register(app)  # ships, ship, schema
odds.register(app)  # odds
battle.register(app)  # battle, replay, captains, rules
play.register(app)  # play
cards.register(app)  # cards, card
assess.register(app)  # assess
web.register(app)  # serve
peak.register(app)  # peak check
fleet.register(app)  # fleet validate, show, sheet, export, import, new
timer.register()  # tournament timer start, pause, resume, add, show
tournament.register(app)  # tournament new, player, pair, result, ... simulate


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; usage errors become one line and exit code 2 (never a traceback)."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="kolrami", standalone_mode=False)
    except typer.TyperException as exc:  # usage errors: unknown option, bad choice ...
        typer.echo(f"kolrami: error: {exc.format_message()}", err=True)
        return 2
    except typer.Abort:
        typer.echo("kolrami: aborted", err=True)
        return 130
    except OSError as exc:  # a file named on the line: too long a name, no room, no permission
        where = f"{quoted(Path(exc.filename))}: " if exc.filename else ""
        typer.echo(f"kolrami: error: {where}{exc.strerror or exc}", err=True)
        return 2
    except Exception as exc:  # a bug, not bad input: say so in one line unless debugging
        if os.environ.get("KOLRAMI_DEBUG"):
            raise
        typer.echo(
            f"kolrami: internal error: {type(exc).__name__}: {exc}. This is a bug; run again "
            "with KOLRAMI_DEBUG=1 for the traceback and report it.",
            err=True,
        )
        return 1
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
