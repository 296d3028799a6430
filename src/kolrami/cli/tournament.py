"""`kolrami tournament ...`: run a store event at the counter, or simulate a whole one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Annotated
from typing import Any

import typer
from rich.table import Table

from kolrami.captains.registry import split_captains
from kolrami.catalog.names import Names
from kolrami.cli.support import AsJson
from kolrami.cli.support import DbOption
from kolrami.cli.support import answer
from kolrami.cli.support import captain
from kolrami.cli.support import check_seed
from kolrami.cli.support import command
from kolrami.cli.support import command_unit
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.cli.support import store_url
from kolrami.errors import InvalidInputError
from kolrami.errors import file_kind
from kolrami.errors import loads_json
from kolrami.errors import quoted
from kolrami.errors import read_text
from kolrami.fleet.fleetx import load_any
from kolrami.fleet.model import preset_names
from kolrami.scenarios.models import load_scenario

if TYPE_CHECKING:
    from kolrami.tournament import core

tournament_app = typer.Typer(
    help="Run a tournament: players, pairings, results, standings.", no_args_is_help=True
)
player_app = typer.Typer(help="Register and drop players.", no_args_is_help=True)
tournament_app.add_typer(player_app, name="player")

# The arguments every tournament command shares, declared once so that each command takes the
# event, the round and the player the same way: the event is --event NAME (default: the latest),
# the round --round N (default: the latest paired), the player the first argument.
EventName = Annotated[str | None, typer.Option("--event", help="Event name (default: the latest).")]
RoundOpt = Annotated[
    int | None, typer.Option("--round", help="Round number (default: the latest paired).")
]
PlayerArg = Annotated[str, typer.Argument(metavar="PLAYER", help="The player's name.")]
FleetOpt = Annotated[str, typer.Option(help="FleetX file, share string or presets:NAME.")]
EventScenario = Annotated[str, typer.Option(help="Scenario of every battle.")]
WhoOpt = Annotated[str, typer.Option("--who", help="Who makes the change (logged).")]
# The forms of earlier versions, still taken (hidden from --help): `result 1 Mara` and
# `verify 1 Mara` with the round first; `pairings NAME` and `slips NAME` with the event first.
LegacyPlayer = Annotated[str | None, typer.Argument(hidden=True, metavar="PLAYER")]
LegacyEvent = Annotated[str | None, typer.Argument(hidden=True, metavar="EVENT")]


def _store(db: str | None, create: bool = False) -> Any:
    """The store --db names. Only `create` (tournament new and import) makes a new database: any
    other command refuses a SQLite file that is not there (see support.store_url)."""
    from kolrami.tournament.store import Store  # SQLAlchemy, Alembic: 400 ms
    from kolrami.tournament.store import database_url  # SQLAlchemy, Alembic: 400 ms

    store = Store(store_url(database_url(db), create))
    command_unit(store)  # one transaction for the whole command
    return store


#: The most bytes of an event export or results file read: a simulated 8-player event's export
#: is 19 KB (about 2.3 KB a player), so this is far above any event.
MAX_EVENT_BYTES = 512 * 1024 * 1024


def _json_file(path: Path, what: str) -> Any:
    """The JSON of a file the organizer named; every reason it cannot be read is one line,
    a file of another kind (a battle log for an export, a PDF) named as what it is."""
    text = read_text(path, what, MAX_EVENT_BYTES)
    kind = file_kind(text)
    if kind is not None and what not in kind:
        raise InvalidInputError(f"{quoted(path)} is {kind}, not an {what}; is it the right file?")
    return loads_json(text, quoted(path))


def _player_name(store: Any, event: str | None, typed: str) -> str:
    """The registered name of the player `typed` found (lookups are loose: 'dev' is Dev)."""
    names = [p["name"] for p in store.players(event)]
    return Names.of("player", ((n, n, ()) for n in names)).get(typed) or typed


def _round_of(store: Any, event: str | None, number: int | None) -> int:
    """`number`, or the event's latest paired round when it is None."""
    if number is not None:
        return number
    state = store.state(event)
    if not state.rounds:
        raise InvalidInputError(
            f"{state.name} has no round paired yet: pair one (kolrami tournament pair)"
        )
    return len(state.rounds)


def _round_and_player(
    command: str, first: str, second: str | None, number: int | None
) -> tuple[int | None, str]:
    """The round and player of `result` and `verify`: PLAYER [--round N], or the earlier form
    ROUND PLAYER (still taken)."""
    if second is None:
        return number, first
    if not _ascii_digits(first.strip()):
        raise InvalidInputError(
            f"tournament {command} {quoted(first, 30)} {quoted(second, 30)}: name one player; "
            f"the round is --round N (tournament {command} PLAYER --round N)"
        )
    legacy = int(first.strip())
    if number is not None and number != legacy:
        raise InvalidInputError(
            f"tournament {command}: round {legacy} and --round {number} disagree; give the round "
            "once, as --round N"
        )
    return legacy, second


def _event_of(store: Any, command: str, legacy: str | None, event: str | None) -> str | None:
    """The event of `pairings` and `slips`: --event NAME, or the earlier form with the name as
    the first argument (still taken). A number there is read as what it most likely meant."""
    if legacy is None:
        return event
    if event is not None and legacy != event:
        raise InvalidInputError(
            f"tournament {command}: event {quoted(legacy, 40)} and --event {quoted(event, 40)}: "
            "name the event once, as --event NAME"
        )
    try:
        store.state(legacy)
    except InvalidInputError as exc:
        if _ascii_digits(legacy.strip()):
            raise InvalidInputError(
                f"tournament {command} {legacy.strip()}: no event named '{legacy.strip()}'; a "
                f"round is --round {legacy.strip()} (the event is --event NAME)"
            ) from None
        raise exc from None
    return legacy


BaseOpt = Annotated[
    str,
    typer.Option(
        "--base",
        envvar="KOLRAMI_PUBLIC_URL",
        help="The web app's address on the store's network (default: this machine's, port 8000).",
    ),
]


def _check_base(base: str) -> None:
    """Refuse a --base that is not a web address (an empty one is this machine's)."""
    if base:
        # the web app's package (FastAPI), about 300 ms: only with --base
        from kolrami.web.network import check_public_url

        check_public_url(base, "--base")


def _links(store: Any, event: str | None, base: str) -> dict[str, str]:
    """The public standings page and the standings CSV of `event` at the web app's address."""
    # the web app's address helpers (segno, FastAPI's Request type): only once a write is done
    from kolrami.web.network import check_public_url
    from kolrami.web.network import lan_address
    from kolrami.web.printing import SERVE_PORT

    site = check_public_url(base, "--base") if base else ""
    if not site:
        site = f"http://{lan_address() or '127.0.0.1'}:{SERVE_PORT}"
    eid = store.event_id(store.state(event).name)
    return {
        "standings_url": f"{site}/events/{eid}/standings",
        "standings_csv_url": f"{site}/events/{eid}/export/standings.csv",
    }


def _print_links(links: dict[str, str]) -> None:
    out = console()
    out.print(f"Standings for everyone: {links['standings_url']}", soft_wrap=True)
    out.print(
        f"Standings as CSV: {links['standings_csv_url']} (organizer login; while kolrami serve "
        "runs)",
        soft_wrap=True,
    )


@command(tournament_app, "new")
def new_cmd(
    name: Annotated[str, typer.Argument(help="The event's name.")],
    date: Annotated[str, typer.Option(help="The event's date.")] = "",
    limit: Annotated[int, typer.Option("--limit", help="SP limit (OP-13).")] = 300,
    scenario: EventScenario = "peak-performance",
    rounds: Annotated[int, typer.Option(help="Battle Rounds (OP-01).")] = 3,
    minutes: Annotated[int, typer.Option(help="Minutes per round (OP-02).")] = 60,
    seed: Annotated[
        int | None, typer.Option(help="Seed for pairings and byes, 0 to 2**63 - 1.")
    ] = None,
    titles: Annotated[
        str, typer.Option(help="Rank titles, comma separated, best first (OP-22).")
    ] = "Admiral,Vice Admiral",
    max_resets: Annotated[
        int | None,
        typer.Option(
            "--max-resets",
            help="Most resets of one ship in a round before a score is called implausible "
            "(default: 8 an hour, from simulated battles).",
        ),
    ] = None,
    surcharge: Annotated[
        int,
        typer.Option(
            "--surcharge",
            help="SP more for each captain, admiral or upgrade of neither the ship's faction "
            "nor Independent (0: off, the default; see docs/rules.md).",
        ),
    ] = 0,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Create an event."""
    from kolrami.tournament.store import check_event_settings  # with the store: see _store

    check_seed(seed)
    # before any file is made
    check_event_settings(date, limit, rounds, minutes, seed, max_resets, surcharge)
    store = _store(db, create=True)
    store.create_event(
        name,
        date,
        limit,
        scenario,
        rounds,
        minutes,
        seed,
        tuple(t.strip() for t in titles.split(",") if t.strip()),
        max_resets=max_resets,
        faction_surcharge=surcharge,
    )
    if as_json:
        print_json({"event": name, **store.settings(name), "store": store.url})
        return
    extra = f", faction surcharge {surcharge} SP" if surcharge else ""
    console().print(
        f"Created [bold]{name}[/bold]: {rounds} rounds of {scenario}, {limit} SP{extra} "
        f"({store.url})"
    )


@command(player_app, "add")
def player_add_cmd(
    name: PlayerArg,
    fleet: FleetOpt,
    email: Annotated[str, typer.Option(help="Email (FBS-01).")] = "",
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Register a player with his fleet (OP-11); after round 1 he joins as a late entry."""
    store = _store(db)
    chosen = load_any(fleet)
    store.add_player(event, name, chosen, email, who=who)
    if as_json:  # the event's name read only for the JSON
        print_json({"event": store.state(event).name, "player": name.strip(), "fleet": chosen.name})
        return
    console().print(f"Registered {name.strip()} with {chosen.name}.")


@command(player_app, "drop")
def player_drop_cmd(
    name: PlayerArg,
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Drop a player: not paired from the next round; his results stay."""
    store = _store(db)
    name = _player_name(store, event, name)
    store.drop_player(event, name)
    answer(as_json, {"player": name, "dropped": True}, f"{name} has dropped.")


@command(tournament_app, "pair")
def pair_cmd(
    who: WhoOpt = "organizer",
    event: EventName = None,
    base: BaseOpt = "",
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Pair the next round (round 1 at random; then Swiss by Battle and Fleet Points)."""
    _check_base(base)  # before anything is written
    store = _store(db)
    pairing = store.pair_next_round(event, who)
    links = _links(store, event, base)
    if as_json:
        print_json({**_pairing_json(pairing), **links})
        return
    _print_pairing(pairing)
    _print_links(links)


def _pairing_json(pairing: core.Pairing) -> dict[str, Any]:
    return {
        "round": pairing.round,
        "tables": [{"table": i, "a": g.a, "b": g.b} for i, g in enumerate(pairing.games, start=1)],
        "rematches": [list(r) for r in pairing.rematches],
    }


def _print_pairing(pairing: core.Pairing) -> None:
    table = Table(title=f"Round {pairing.round}", title_justify="left")
    table.add_column("Table", justify="right")
    table.add_column("Player")
    table.add_column("Opponent")
    for i, g in enumerate(pairing.games, start=1):
        table.add_row(str(i), g.a, g.b or "[dim]bye: 2 BP and the round's average FP[/dim]")
    out = console()
    out.print(table)
    if pairing.rematches:
        pairs = ", ".join(f"{a} v {b}" for a, b in pairing.rematches)
        out.print(f"[yellow]Rematch unavoidable:[/yellow] {pairs}")


@command(tournament_app, "pairings")
def pairings_cmd(
    legacy_event: LegacyEvent = None,
    event: EventName = None,
    round_number: RoundOpt = None,
    by_name: Annotated[
        bool, typer.Option("--by-name", help="One row a player, by name (players find theirs).")
    ] = False,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Show a round's pairings (the latest paired): by table, or by player name."""
    # the pages' view of the event, with jinja2 for the slips: loaded with the store
    from kolrami.web.printing import current_round

    store = _store(db)
    event = _event_of(store, "pairings", legacy_event, event)
    r = current_round(store, event, round_number)
    if as_json:
        print_json(
            {
                "round": r.number,
                "tables": [
                    {
                        "table": t.table,
                        "a": t.a,
                        "b": t.b,
                        "build_check_waiting": t.build_waiting,
                    }
                    for t in r.tables
                ],
                "by_name": [{"player": p, "table": n, "opponent": o} for p, n, o in r.by_name],
            }
        )
        return
    title = f"{store.state(event).name}: round {r.number}"
    if by_name:
        table = Table(title=title + ", by player name", title_justify="left")
        table.add_column("Player")
        table.add_column("Table", justify="right")
        table.add_column("Opponent")
        for p, n, o in r.by_name:
            table.add_row(p, str(n) if n is not None else "bye", o or "")
    else:
        table = Table(title=title, title_justify="left")
        table.add_column("Table", justify="right")
        table.add_column("Player")
        table.add_column("Opponent")
        table.add_column("Result")
        table.add_column("Build check (OP-14)")
        for t in r.tables:
            if t.b is None:
                table.add_row("", t.a, "[dim]bye[/dim]", "", "")
                continue
            result = f"{t.winner} won {t.fp_a}-{t.fp_b}" if t.done else ""
            waiting = ", ".join(t.build_waiting)
            table.add_row(
                str(t.table), t.a, t.b, result, f"waiting for {waiting}" if waiting else "done"
            )
    console().print(table)


@command(tournament_app, "slips")
def slips_cmd(
    legacy_event: LegacyEvent = None,
    out: Annotated[
        Path, typer.Option("--out", help="Write the slips here (an .html file).")
    ] = Path("slips.html"),
    event: EventName = None,
    round_number: RoundOpt = None,
    base: Annotated[
        str,
        typer.Option(help="The web app's address, printed for reporting by phone."),
    ] = "",
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Print a round's result slips (one per table) to an HTML file, to cut out."""
    # jinja2 and the pages' view of the event: loaded when slips are written
    from kolrami.report.build_sheet import write
    from kolrami.web.printing import round_sheet

    if out.is_dir():
        raise InvalidInputError(
            f"--out '{quoted(out)}' is a folder; name a file in it (slips.html)"
        )
    if out.suffix.lower() not in (".html", ".htm"):
        raise InvalidInputError(f"--out '{quoted(out)}': the slips are HTML; name an .html file")
    store = _store(db)
    event = _event_of(store, "slips", legacy_event, event)
    text = round_sheet(store, event, "print_slips.html.j2", round_number, base)
    write(out, text)
    answer(as_json, {"wrote": str(out)}, f"Wrote {out}")


@command(player_app, "rename")
def player_rename_cmd(
    name: PlayerArg,
    new_name: Annotated[str, typer.Argument(help="The new name.")],
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Rename a player, before round 1 (OP-12)."""
    store = _store(db)
    old = _player_name(store, event, name)
    kept = store.rename_player(event, old, new_name, who)
    answer(as_json, {"player": old, "renamed": kept}, f"Renamed {old} {kept}.")


@command(player_app, "remove")
def player_remove_cmd(
    name: PlayerArg,
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Remove a player registered by mistake, before round 1 (OP-12); after it, drop him."""
    store = _store(db)
    name = _player_name(store, event, name)
    store.remove_player(event, name, who)
    answer(as_json, {"removed": name}, f"Removed {name}.")


@command(player_app, "fleet")
def player_fleet_cmd(
    name: PlayerArg,
    fleet: FleetOpt,
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Change a player's fleet, before round 1 (OP-12)."""
    store = _store(db)
    chosen = load_any(fleet)
    name = _player_name(store, event, name)
    total = store.change_fleet(event, name, chosen, who)
    answer(
        as_json,
        {"player": name, "fleet": chosen.name, "total_build": total},
        f"{name} now plays {chosen.name} ({total} SP).",
    )


@command(player_app, "undrop")
def player_undrop_cmd(
    name: PlayerArg,
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Undo a drop made by mistake (before the next round is paired)."""
    store = _store(db)
    name = _player_name(store, event, name)
    store.undo_drop(event, name, who)
    answer(as_json, {"player": name, "dropped": False}, f"{name} plays again.")


@command(tournament_app, "cancel-round")
def cancel_round_cmd(
    repair: Annotated[
        bool, typer.Option("--repair", help="Pair the round again at once, as players are now.")
    ] = False,
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Cancel the latest round before any result is in (--repair: and pair it again)."""
    store = _store(db)
    if repair:
        pairing = store.repair_round(event, who)
        if as_json:
            print_json({"cancelled": pairing.round, **_pairing_json(pairing)})
            return
        _print_pairing(pairing)
        return
    number = store.cancel_round(event, who)
    answer(as_json, {"cancelled": number}, f"Round {number} cancelled.")


@command(tournament_app, "swap")
def swap_cmd(
    first: Annotated[str, typer.Argument(help="A player of the latest round.")],
    second: Annotated[str, typer.Argument(help="The player to swap him with.")],
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Swap two players' pairings in the latest round (a rematch or a bye against the bye
    rules is warned about, not refused)."""
    store = _store(db)
    pair = [_player_name(store, event, first), _player_name(store, event, second)]
    warnings = store.swap_players(event, pair[0], pair[1], who)
    if as_json:
        print_json({"swapped": pair, "warnings": warnings})
        return
    out = console()
    out.print(f"Swapped {pair[0]} and {pair[1]}.")
    for w in warnings:
        out.print(f"[yellow]Warning:[/yellow] {w}")


AsOrganizer = Annotated[
    str, typer.Option("--as", help="The organizer account making the change (logged).")
]


def _account(store: Any, username: str) -> int:
    """The id of the organizer account `username` (the one making a change)."""
    found = store.organizer(username)
    if found is None:
        raise InvalidInputError(
            f"--as {quoted(username, 80)}: no organizer account of that name; name yours"
        )
    return int(found[0])


@command(tournament_app, "organizer")
def organizer_cmd(
    username: Annotated[str, typer.Argument(help="The co-organizer's account.")],
    acting: AsOrganizer,
    remove: Annotated[bool, typer.Option("--remove", help="Remove them from the event.")] = False,
    hand_over: Annotated[
        bool, typer.Option("--hand-over", help="Hand the event over to them (its owner only).")
    ] = False,
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Remove a co-organizer from the event, or hand the event over to them. The owner
    is removed only by themselves, or once they have handed the event over."""
    if remove == hand_over:
        raise InvalidInputError("tournament organizer: say --remove or --hand-over (one of them)")
    store = _store(db)
    by, who, name = _account(store, acting), f"organizer {acting.strip()}", username.strip()
    if remove:
        store.unshare_event(event, name, who, by)
        answer(as_json, {"removed": name}, f"Removed organizer {name}.")
    else:
        owner = store.hand_over(event, name, who, by)
        answer(as_json, {"owner": owner}, f"{owner} owns the event now.")


@command(tournament_app, "result")
def result_cmd(
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player reporting.")],
    legacy_player: LegacyPlayer = None,
    fp: Annotated[
        int | None, typer.Option("--fp", help="The player's Fleet Points this round.")
    ] = None,
    win: Annotated[bool, typer.Option("--win/--loss", help="Won or lost.")] = True,
    round_number: RoundOpt = None,
    anyway: Annotated[
        bool,
        typer.Option(
            "--anyway",
            help="Record Fleet Points the score check finds impossible or implausible against "
            "the opponent's fleet (checked at the table).",
        ),
    ] = False,
    base: BaseOpt = "",
    correct: Annotated[
        bool,
        typer.Option(
            "--correct", help="Change a result recorded already (or initialled): a correction."
        ),
    ] = False,
    why: Annotated[str, typer.Option("--why", help="Why the correction (logged).")] = "",
    who: WhoOpt = "organizer",
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Record a player's result and Fleet Points (the opponent's result follows).

    A result that disagrees with the one recorded, or one the opponent initialled, is refused
    unless it is a correction: --correct --why 'what was wrong'. Fleet Points the opponent's
    fleet cannot give (the Peak Performance score check) are refused unless --anyway.
    """
    number, player = _round_and_player("result", player, legacy_player, round_number)
    if fp is None:
        raise InvalidInputError(
            f"tournament result {quoted(player, 40)}: give the player's Fleet Points, --fp N"
        )
    _check_base(base)  # before anything is written
    store = _store(db)
    number = _round_of(store, event, number)
    player = _player_name(store, event, player)
    warning = store.record_result(event, number, player, win, fp, who=who, correct=correct, why=why)
    if warning and not anyway:
        # the command's one transaction is rolled back with this refusal: nothing is recorded
        raise InvalidInputError(
            f"round {number}, {player}: {warning}; nothing recorded: check the score sheet, or "
            "record it as the table agreed with --anyway"
        )
    stale = _stale_pairing(store, event, number)
    links = _links(store, event, base)
    if as_json:
        print_json(
            {
                "round": number,
                "player": player,
                "won": win,
                "fleet_points": fp,
                "corrected": correct,
                "warning": warning or None,
                "later_rounds": stale or None,
                **links,
            }
        )
        return
    out = console()
    verb = "corrected:" if correct else ""
    out.print(
        f"Round {number}: {verb + ' ' if verb else ''}{player} "
        f"{'won' if win else 'lost'} with {fp} Fleet Points."
    )
    if warning:
        out.print(f"[yellow]Recorded anyway:[/yellow] {warning}")
    if stale:
        out.print(f"[yellow]Note:[/yellow] {stale}", highlight=False)
    _print_links(links)


def _stale_pairing(store: Any, event: str | None, number: int) -> str:
    """The word on a result changed after the next round was paired: that round's bye and
    pairings rested on the old result (issue 47 item 19); '' when no later round is paired."""
    from kolrami.tournament import core  # networkx, about 100 ms: with the store's commands

    state = store.state(event)
    note: str = core.stale_pairing_note(number, state.rounds, state.seed)
    return note


@command(tournament_app, "verify")
def verify_cmd(
    player: Annotated[
        str, typer.Argument(metavar="PLAYER", help="Whose sheet the opponent initials.")
    ],
    legacy_player: LegacyPlayer = None,
    initials: Annotated[str, typer.Option(help="The opponent's initials.")] = "",
    stage: Annotated[
        str, typer.Option(help="build (before the round) or result (after).")
    ] = "build",
    round_number: RoundOpt = None,
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """The opponent initials a player's build or result (OP-14, FBS-09, FBS-10)."""
    number, player = _round_and_player("verify", player, legacy_player, round_number)
    if not initials.strip():
        raise InvalidInputError(
            f"tournament verify {quoted(player, 40)}: give the opponent's initials, --initials XY"
        )
    store = _store(db)
    number = _round_of(store, event, number)
    player = _player_name(store, event, player)
    store.verify(event, number, player, initials, stage)
    answer(
        as_json,
        {"round": number, "player": player, "stage": stage, "initials": initials},
        f"Round {number}: {player}'s {stage} initialled {initials}.",
    )


@command(tournament_app, "rolloff")
def rolloff_cmd(
    enter: Annotated[
        list[str] | None,
        typer.Option(
            "--enter",
            help="PLAYER=N: hits and criticals of five attack dice rolled at the table; "
            "PLAYER=N,M when level and rolled again.",
        ),
    ] = None,
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Settle players who share a rank after a round: roll for them, or enter the dice (OP-24)."""
    store = _store(db)
    out = console()
    if enter:
        throws: dict[str, tuple[int, ...]] = {}
        for item in enter:
            name, sep, value = item.partition("=")
            parts = [v.strip() for v in value.split(",")]
            if not sep or not name.strip() or not all(_ascii_digits(v) for v in parts):
                raise InvalidInputError(
                    f"--enter {item[:60]}: write PLAYER=N (0 to 5 hits and criticals), e.g. "
                    "Ann=3, or Ann=3,2 when she rolled again"
                )
            throws[name.strip()] = tuple(int(v) for v in parts)
        roll = store.record_roll_off(event, throws, "entered at the table")
        if as_json:
            print_json({"source": "entered", "roll_offs": [_roll_json(roll)]})
            return
        out.print(f"Recorded the roll-off (OP-24): {roll.describe()}.")
        return
    rolled = store.roll_off_ties(event)
    if as_json:
        print_json({"source": "rolled", "roll_offs": [_roll_json(r) for r in rolled]})
        return
    if not rolled:
        state = store.state(event)
        if not state.settled:
            out.print(
                "No roll-off now: ties are rolled off after a complete round (OP-24)."
                if not state.rounds_complete
                else f"No roll-off now: round {len(state.rounds)} has results missing."
            )
        else:
            out.print("Nobody is level on Battle and Fleet Points: no roll-off needed.")
    for roll in rolled:
        out.print(
            f"Roll-off for the tie on {roll.battle_points} BP and {roll.fleet_points} FP, "
            f"hits and criticals of five attack dice: {roll.describe()}"
        )


def _roll_json(roll: core.RollOff) -> dict[str, object]:
    """A roll-off as JSON: the tie it settles and each player's throws."""
    return {
        "battle_points": roll.battle_points,
        "fleet_points": roll.fleet_points,
        "throws": {player: list(t) for player, t in roll.throws},
        "source": roll.source,
    }


def _ascii_digits(text: str) -> bool:
    """Digits 0-9 only (str.isdigit also takes '²' and other digits int() refuses)."""
    return bool(text) and text.isascii() and text.isdigit()


@command(tournament_app, "standings")
def standings_cmd(
    from_file: Annotated[
        Path | None, typer.Option("--from", help="Compute from a results file instead.")
    ] = None,
    as_json: AsJson = False,
    event: EventName = None,
    db: DbOption = None,
) -> None:
    """Standings with ranks and titles (OP-18, OP-19, OP-20, OP-21, OP-22, OP-23, OP-24)."""
    # the standings and pairings module brings networkx (about 100 ms): not at start-up
    from kolrami.tournament import core
    from kolrami.tournament.results_file import standings_json

    if from_file is not None:
        doc = _json_file(from_file, "results file")
        data = standings_json(doc)
        if as_json:
            print_json({"standings": data["standings"], "warnings": data["warnings"]})
        else:
            _print_standings(data["standings"], data["ties"])
        for line in data["warnings"]:  # counted as the file says, and said (issue 47 item 19)
            typer.echo(f"Warning: {line}", err=True)
        return
    state = _store(db).state(event)
    table = state.standings()
    rows = [core.standing_json(s) for s in table]
    ties = core.tied_groups(table) if state.settled else []
    if as_json:
        print_json(
            {
                "event": state.name,
                "rounds_paired": len(state.rounds),
                "rounds_played": state.rounds_complete,
                "standings": rows,
                "ties": core.tie_json(table) if state.settled else [],
                "settled_by": sorted({s.settled_by for s in table if s.settled_by}),
            }
        )
        return
    played, paired = state.rounds_complete, len(state.rounds)
    if not paired:
        title = "Standings: no round played yet"
    elif not played:  # not "after 0 rounds" while round 1 is reported (issue 47, item 16)
        title = f"Standings: round {paired} in progress, no round complete yet"
    else:
        title = f"Standings after {played} round{'' if played == 1 else 's'}" + (
            f" (round {paired} in progress)" if paired > played else ""
        )
    _print_standings(rows, ties, title)
    for line in sorted({s.settled_by for s in table if s.settled_by}):
        console().print(f"Ordered by the {line}")


def _print_standings(
    rows: list[dict[str, Any]], ties: list[list[str]], title: str = "Standings"
) -> None:
    table = Table(title=title, title_justify="left")
    for col in ("Rank", "Title", "Player", "BP", "FP", "By round", "Byes"):
        table.add_column(col, justify="right" if col in ("Rank", "BP", "FP", "Byes") else "left")
    for r in rows:
        table.add_row(
            f"={r['rank']}" if r.get("tied") else str(r["rank"]),
            r["title"],
            r["player"] + (" (dropped)" if r.get("dropped") else ""),
            str(r["battle_points"]),
            str(r["fleet_points"]),
            " / ".join(map(str, r["fp_by_round"])),
            str(r["byes"]),
        )
    out = console()
    out.print(table)
    for group in ties:
        out.print(
            f"[yellow]Level:[/yellow] {', '.join(group)} share a rank: roll off "
            "(kolrami tournament rolloff, OP-24)"
        )


@command(tournament_app, "sheet")
def sheet_cmd(
    html: Annotated[Path | None, typer.Option(help="Write the sheets as HTML here.")] = None,
    pdf: Annotated[Path | None, typer.Option(help="Write the sheets as PDF here.")] = None,
    event: EventName = None,
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """The organizer's score sheet and every player's Fleet Build Sheet with the round log."""
    # jinja2, about 25 ms: loaded when sheets are written
    from kolrami.report.build_sheet import check_paths
    from kolrami.report.build_sheet import write_sheets
    from kolrami.report.tournament_sheets import event_sheets_html

    check_paths(html, pdf)
    text = event_sheets_html(_store(db), event)
    wrote = write_sheets(text, html, pdf)
    if as_json:
        print_json({"wrote": wrote})
        return
    for path in wrote:
        console().print(f"Wrote {path}")


@command(tournament_app, "export")
def export_cmd(
    out: Annotated[Path | None, typer.Option("--out", help="Write here instead of stdout.")] = None,
    event: EventName = None,
    db: DbOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --out, say what was written as JSON.")
    ] = False,
) -> None:
    """The whole event as one JSON document (on stdout, or in a file with --out)."""
    doc = _store(db).export(event)
    text = json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    if out.is_dir():
        raise InvalidInputError(f"--out '{out}' is a folder; name a file in it (event.json)")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write '{quoted(out)}': {exc.strerror}") from None
    answer(as_json, {"wrote": str(out)}, f"Wrote {out}")


@command(tournament_app, "import")
def import_cmd(
    source: Annotated[Path, typer.Argument(help="A JSON file from kolrami tournament export.")],
    db: DbOption = None,
    as_json: AsJson = False,
) -> None:
    """Load an exported event into this store."""
    doc = _json_file(source, "event export")
    if not isinstance(doc, dict):
        raise InvalidInputError(f"{source}: not an event export (kolrami tournament export)")
    name = _store(db, create=True).import_event(doc, source=str(source))
    answer(as_json, {"imported": name}, f"Imported {name}.")


@command(tournament_app, "simulate")
def simulate_cmd(
    players: Annotated[int, typer.Option(help="How many players.")] = 8,
    fleets: Annotated[
        str, typer.Option(help="Comma-separated presets or fleet files (default: all presets).")
    ] = "presets:*",
    seed: Annotated[int, typer.Option(help="Seed of the whole event, 0 to 2**63 - 1.")] = 1,
    scenario: EventScenario = "peak-performance",
    rounds: Annotated[int, typer.Option(help="Battle Rounds.")] = 3,
    captains: Annotated[
        str,
        typer.Option(
            help="Captains the players take in turn: names (kolrami captains), module paths "
            "(mypkg.mycaptain:Brawler) or files (brawler.py:Brawler), comma-separated."
        ),
    ] = "aggressive,kiting",
    report: Annotated[Path | None, typer.Option(help="Write an HTML report here.")] = None,
    db: DbOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final standings as JSON.")
    ] = False,
) -> None:
    """A whole event played by AI captains: pairings, battles, byes and final ranks."""
    # the store, networkx and the battles: about 350 ms
    from kolrami.tournament import core
    from kolrami.tournament.simulate import PlayedGame
    from kolrami.tournament.simulate import check_event
    from kolrami.tournament.simulate import run_event
    from kolrami.tournament.store import database_url

    check_seed(seed)
    url = None if db is None else store_url(database_url(db), create=True)
    refs = [f.strip() for f in fleets.split(",") if f.strip()]
    if refs == ["presets:*"]:
        refs = [f"presets:{p}" for p in preset_names()]
    chosen = [(ref.removeprefix("presets:"), load_any(ref)) for ref in refs]
    check_event(players, rounds, chosen)  # every argument checked before the banner
    names = tuple(captain(c) for c in split_captains(captains))
    if not names:
        raise InvalidInputError("--captains: name at least one captain")
    sc = load_scenario(scenario)
    if report is not None:  # its name and folder, before the event is played
        from kolrami.report.replay import check_output  # the report writers: only with --report

        check_output(report, (".html", ".htm"), "--report")
    out = console()
    quiet = as_json

    def tell(kind: str, data: object) -> None:
        if quiet:
            return
        if kind == "player" and isinstance(data, tuple):
            name, label, captain = data
            out.print(f"  {name}: {label} ({captain})")
        elif kind == "pairing" and isinstance(data, core.Pairing):
            _print_pairing(data)
        elif kind == "game" and isinstance(data, PlayedGame):
            winner = data.winner or data.a
            loser = data.b if winner == data.a else data.a
            out.print(
                f"  table {data.table}: [bold]{winner}[/bold] beats {loser}, Fleet Points "
                f"{data.fp[winner]} : {data.fp[loser or '']}"
            )
        elif kind == "final" and isinstance(data, list):
            _print_standings([core.standing_json(s) for s in data], [])

    if not quiet:
        out.rule(f"Simulated event: {players} players, {rounds} rounds of {sc.name}, seed {seed}")
    event = run_event(chosen, players, seed, scenario, rounds, url, tell, names)
    if report is not None:
        from kolrami.report.tournament_report import write_report  # matplotlib: about 300 ms

        files = write_report(event, report)
        if not quiet:
            out.print(f"Wrote {report} and {len(files) - 1} battle replays.")
    if as_json:
        print_json(
            {
                "event": event.name,
                "standings": [core.standing_json(s) for s in event.standings],
            }
        )


def register(app: typer.Typer) -> None:
    """Add the tournament commands to the main app."""
    app.add_typer(tournament_app, name="tournament")
