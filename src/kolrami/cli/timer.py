"""`kolrami tournament timer start|pause|resume|add|show`: the round's timer at the counter
(OP-02: 60 minutes unless the event says otherwise), the same one the web app's wall clock and
the players' phones show: it is kept in the store, not in any process."""

from __future__ import annotations

from typing import Annotated
from typing import Any

import typer

from kolrami.cli.support import AsJson
from kolrami.cli.support import DbOption
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.cli.tournament import EventName
from kolrami.cli.tournament import RoundOpt
from kolrami.cli.tournament import _store
from kolrami.cli.tournament import tournament_app
from kolrami.errors import InvalidInputError

timer_app = typer.Typer(
    help="The round's timer: start, pause, resume, add minutes, show.", no_args_is_help=True
)


def _shown(t: Any, as_json: bool) -> None:
    """The timer as the clock shows it (or its JSON)."""
    if as_json:
        print_json(t.as_dict())
        return
    whole = int(t.remaining_seconds + 0.999)
    left = f"{whole // 60}:{whole % 60:02d}"
    ends = t.ends_at
    when = ""
    if ends is not None and t.status == "running":
        when = f", ends at {ends.strftime('%H:%M')} UTC"
    console().print(
        f"{t.event}, round {t.round}: {t.status}, {left} left of "
        f"{t.minutes + t.added_minutes} minutes{when}"
    )


@command(timer_app, "start")
def start_cmd(
    number: RoundOpt = None, event: EventName = None, db: DbOption = None, as_json: AsJson = False
) -> None:
    """Start the round's clock: the event's minutes per round from now."""
    _shown(_store(db).start_timer(event, number, "organizer (CLI)"), as_json)


@command(timer_app, "pause")
def pause_cmd(
    number: RoundOpt = None, event: EventName = None, db: DbOption = None, as_json: AsJson = False
) -> None:
    """Stop the clock where it is."""
    _shown(_store(db).pause_timer(event, number, "organizer (CLI)"), as_json)


@command(timer_app, "resume")
def resume_cmd(
    number: RoundOpt = None, event: EventName = None, db: DbOption = None, as_json: AsJson = False
) -> None:
    """Let a paused clock run on."""
    _shown(_store(db).resume_timer(event, number, "organizer (CLI)"), as_json)


# a negative number is an argument here (refused below, in words), not an unknown option
@command(timer_app, "add", context_settings={"ignore_unknown_options": True})
def add_cmd(
    minutes: Annotated[str, typer.Argument(help="Minutes to add, 1 to 120.")],
    number: RoundOpt = None,
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Give the round extra minutes."""
    text = minutes.strip()
    if not (text.isascii() and text.isdigit()):
        raise InvalidInputError(
            f"minutes to add '{minutes[:20]}': a whole number from 1 to 120 (time is only "
            "ever added)"
        )
    _shown(_store(db).add_time(event, int(text), number, "organizer (CLI)"), as_json)


@command(timer_app, "show")
def show_cmd(
    number: RoundOpt = None, event: EventName = None, db: DbOption = None, as_json: AsJson = False
) -> None:
    """What is left of the round."""
    _shown(_store(db).timer(event, number), as_json)


def register() -> None:
    """Add `kolrami tournament timer ...` to the tournament commands."""
    tournament_app.add_typer(timer_app, name="timer")
