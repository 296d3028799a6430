"""`kolrami fleet ...`: build, check, print and share fleets."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import CardKind, card_names, get_card
from kolrami.catalog.models import UpgradeType
from kolrami.catalog.names import Names
from kolrami.cli.support import command, console, print_json
from kolrami.errors import InvalidInputError, KolramiError, path_is, quoted
from kolrami.fleet.document import (
    MAX_NAME_CHARS,
    MAX_SHIPS,
    MAX_SP_LIMIT,
    MAX_SQUADRON_NUMBER,
)
from kolrami.fleet.fleetx import (
    as_text,
    data_version_note,
    dumps,
    load_any,
    share_string,
    to_fleetx,
)
from kolrami.fleet.legality import (
    DEFAULT_SP_LIMIT,
    EventSettings,
    FleetReport,
    place,
    validate,
)
from kolrami.fleet.model import Fleet, FleetShip

fleet_app = typer.Typer(help="Build, check, print and share fleets.", no_args_is_help=True)

Limit = Annotated[int, typer.Option("--limit", help="The event's SP limit (OP-13).")]
Surcharge = Annotated[
    int, typer.Option(help="Extra SP per card of another faction (0: off, an event setting).")
]


AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
Source = Annotated[
    str,
    typer.Argument(
        metavar="FLEET", help="FleetX file, share string (KF1-...) or preset (presets:NAME)."
    ),
]


def _report_json(report: FleetReport) -> dict[str, object]:
    """The report as JSON, with the note about other data where there is one."""
    return {**report.to_json(), "note": data_version_note(report.fleet)}


def _check_limit(limit: int) -> int:
    """The --limit every fleet command takes: an SP limit of 1 to MAX_SP_LIMIT (OP-13)."""
    if not 0 < limit <= MAX_SP_LIMIT:
        raise InvalidInputError(
            f"--limit {quoted(limit, 20)}: an SP limit is a whole number from 1 to "
            f"{MAX_SP_LIMIT:,} (OP-13)"
        )
    return limit


def _report(fleet: Fleet, limit: int, surcharge: int) -> FleetReport:
    _check_limit(limit)
    if surcharge < 0:
        raise InvalidInputError(f"--surcharge {surcharge}: use 0 (off) or more")
    return validate(fleet, limit, EventSettings(limit, surcharge))


def _print_report(report: FleetReport) -> None:
    out = console()
    fleet = report.fleet
    table = Table(title=f"{fleet.name}", title_justify="left")
    for col in ("Ship", "Sqdn", "Card", "Type", "Faction", "SP"):
        table.add_column(col, justify="right" if col in ("Sqdn", "SP") else "left")
    for ship in report.ships:
        for n, row in enumerate(ship.lines):
            title = row.title if row.known else f"[red]{row.title} (unknown)[/red]"
            table.add_row(
                f"{ship.index + 1}. {ship.name}" if n == 0 else "",
                str(ship.squadron) if n == 0 else "",
                title,
                row.type,
                row.faction,
                str(row.sp),
            )
        table.add_row("", "", "[bold]Total SP[/bold]", "", "", f"[bold]{ship.total_sp}[/bold]")
        table.add_section()
    if report.resource:
        r = report.resource
        table.add_row("Resource", "", r.title, "Resource", r.faction, str(r.sp))
    limit = report.settings.sp_limit
    table.add_row(
        "",
        "",
        "[bold]Total Build[/bold]",
        "",
        "",
        f"[bold]{report.total_build}[/bold]" + (f" / {limit}" if limit else ""),
    )
    out.print(table)
    note = data_version_note(fleet)
    if note:
        out.print(f"[yellow]Note:[/yellow] {note}")
    if report.valid:
        out.print("[green]Legal[/green]: every squad-building rule is met.")
    else:
        out.print(f"[red]{len(report.errors)} problem(s)[/red]:")
        for e in report.errors:
            rule = "" if f"({e.rule}" in e.message else f", {e.rule}"
            out.print(f"  {place(e.path, report)}: {e.message} [dim]({e.code}{rule})[/dim]")


@command(fleet_app, "validate")
def validate_cmd(
    source: Source,
    limit: Limit = DEFAULT_SP_LIMIT,
    surcharge: Surcharge = 0,
    as_json: AsJson = False,
) -> None:
    """Check a fleet against the squad-building rules; every problem at once.

    Exit code 0 when legal, 1 when not, 2 when the fleet cannot be read at all.
    """
    report = _report(load_any(source), limit, surcharge)
    if as_json:
        print_json(_report_json(report))
    else:
        _print_report(report)
    if not report.valid:
        raise typer.Exit(1)


@command(fleet_app, "show")
def show_cmd(
    source: Source,
    limit: Limit = DEFAULT_SP_LIMIT,
    surcharge: Surcharge = 0,
    as_json: AsJson = False,
) -> None:
    """Show a fleet as the build sheet adds it up: every card, each ship's Total SP, the build."""
    report = _report(load_any(source), limit, surcharge)
    if as_json:
        print_json(_report_json(report))
    else:
        _print_report(report)


@command(fleet_app, "sheet")
def sheet_cmd(
    source: Source,
    html: Annotated[Path | None, typer.Option(help="Write the sheet as HTML here.")] = None,
    pdf: Annotated[Path | None, typer.Option(help="Write the sheet as PDF here.")] = None,
    player: Annotated[str, typer.Option(help="Player's name (FBS-01).")] = "",
    email: Annotated[str, typer.Option(help="Player's email (FBS-01).")] = "",
    event: Annotated[str, typer.Option(help="Event name (FBS-01).")] = "",
    date: Annotated[str, typer.Option(help="Event date (FBS-01).")] = "",
    page: Annotated[str, typer.Option(help="Paper: a4 or letter.")] = "a4",
    limit: Limit = DEFAULT_SP_LIMIT,
    surcharge: Surcharge = 0,
    as_json: AsJson = False,
) -> None:
    """The event's Fleet Build Sheet, print-ready (FBS-01, FBS-02, FBS-03, FBS-04, FBS-05, FBS-06,
    FBS-07, FBS-08, FBS-09, FBS-10, FBS-11, FBS-12)."""
    # jinja2, about 25 ms
    from kolrami.report.build_sheet import check_paths, render_html, render_pdf, write

    check_paths(html, pdf)
    if page.lower() not in ("a4", "letter"):
        raise InvalidInputError(f"--page {page}: use a4 or letter")
    report = _report(load_any(source), limit, surcharge)
    text = render_html(report, player, email, event, date, page.lower())
    out = console()
    wrote = []
    if html is not None:
        write(html, text)
        wrote.append(str(html))
    if pdf is not None:
        write(pdf, render_pdf(text))
        wrote.append(str(pdf))
    if as_json:
        print_json({"wrote": wrote, **_report_json(report)})
        return
    for path in wrote:
        out.print(f"Wrote {path}")
    if not report.valid:
        out.print(
            f"[yellow]The fleet is not legal ({len(report.errors)} problem(s)); the sheet "
            "lists them. kolrami fleet validate tells how to fix them.[/yellow]"
        )


@command(fleet_app, "export")
def export_cmd(
    source: Source,
    to: Annotated[str, typer.Option("--to", help="share, text or fleetx.")] = "share",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write it to this file instead of stdout.")
    ] = None,
    limit: Limit = DEFAULT_SP_LIMIT,
    as_json: AsJson = False,
) -> None:
    """Print a fleet as a share string, a plain-text list, or FleetX JSON (save it with --out,
    e.g. `kolrami fleet export presets:klingon-strike --to fleetx --out mine.json`)."""
    kind = to.strip().lower()
    if kind not in ("share", "text", "fleetx"):
        raise InvalidInputError(f"--to {quoted(to, 20)}: use share, text or fleetx")
    _check_limit(limit)
    fleet = load_any(source)
    if kind == "share":
        text = share_string(fleet) + "\n"
    elif kind == "text":
        text = as_text(validate(fleet, limit))
    else:
        text = dumps(fleet)
    if out is not None:
        _save(out, text)
    if as_json:
        body: object = to_fleetx(fleet) if kind == "fleetx" else text.rstrip("\n")
        print_json({"format": kind, kind: body, "wrote": str(out) if out else None})
    elif out is not None:
        console().print(f"Saved {out}")
    else:
        typer.echo(text, nl=False)


def _save(path: Path, text: str) -> None:
    """Write a file, or say in one line why not (stored files untouched on failure)."""
    if path_is(path, "dir"):
        raise InvalidInputError(f"cannot write '{quoted(path)}': it is a folder; name a file in it")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write '{quoted(path)}': {exc.strerror}") from None


@command(fleet_app, "import")
def import_cmd(
    source: Annotated[
        str, typer.Argument(metavar="FLEET", help="A share string (KF1-...) or a FleetX file.")
    ],
    out: Annotated[Path | None, typer.Option("--out", help="Save it as FleetX JSON here.")] = None,
    limit: Limit = DEFAULT_SP_LIMIT,
    as_json: AsJson = False,
) -> None:
    """Read a fleet someone shared, check it, and save it as FleetX (unknown ids are kept)."""
    _check_limit(limit)
    fleet = load_any(source)
    report = validate(fleet, limit)
    if out is not None:
        _save(out, dumps(fleet))
    if as_json:
        print_json({**_report_json(report), "wrote": str(out) if out else None})
        return
    _print_report(report)
    if out is not None:
        console().print(f"Saved {out}")


@command(fleet_app, "new")
def new_cmd(
    out: Annotated[Path, typer.Option("--out", help="Where to save the fleet.")] = Path(
        "fleet.json"
    ),
    limit: Limit = DEFAULT_SP_LIMIT,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the --out file if it is there already.")
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the saved fleet's sheet as JSON (prompts go to stderr)."
        ),
    ] = False,
) -> None:
    """Build a fleet at the prompt: ship classes and cards by id or name, loosely, with Tab
    completion and a running SP total.

    Everything is checked before the first question: the --limit, and that --out can be written
    (an existing file is replaced only with --force).
    """
    pack = builtin_pack()
    _check_limit(limit)
    if path_is(out, "dir"):
        raise InvalidInputError(f"--out '{quoted(out)}' is a folder; name a file in it (mine.json)")
    if path_is(out, "file") and not force:
        raise InvalidInputError(
            f"--out '{quoted(out)}' is there already: name another file, or add --force to "
            "replace it"
        )
    folder = out.parent if str(out.parent) else Path(".")
    if not path_is(folder, "dir"):
        raise InvalidInputError(
            f"--out '{quoted(out)}': folder '{quoted(folder)}' does not exist; make it first"
        )
    _completion(pack.names.labels + card_names().labels)
    con = Console(stderr=True) if as_json else console()
    err = as_json  # with --json, stdout is kept for the JSON

    def ask(text: str, **kw: object) -> str:
        return str(typer.prompt(text, err=err, **kw))  # type: ignore[arg-type]

    while True:
        name = ask("Fleet name", default="My fleet").strip()
        if 0 < len(name) <= MAX_NAME_CHARS:
            break
        con.print(f"[red]A fleet's name is 1 to {MAX_NAME_CHARS} characters.[/red]")
    ships: list[FleetShip] = []
    con.print(f"Ship classes: {', '.join(pack.names.labels)}")
    while len(ships) < MAX_SHIPS:
        typed = ask("Ship class (blank to finish)", default="", show_default=False).strip()
        if not typed:
            if ships:
                break
            con.print("A fleet needs at least one ship.")
            continue
        try:
            cls = pack.get(typed)
        except KolramiError as exc:
            con.print(f"[red]{exc}[/red]")
            continue
        con.print(f"  {cls.name}: {cls.value} SP")
        squadron = _ask_squadron(con, ask)
        captain = _ask_card(con, err, "  Captain (blank: none)", CardKind.CAPTAIN, None)
        admiral = _ask_card(con, err, "  Admiral (blank: none)", CardKind.ADMIRAL, None)
        upgrades: dict[str, list[str]] = {}
        for kind in UpgradeType:
            for slot in range(cls.slots.of(kind)):
                got = _ask_card(
                    con,
                    err,
                    f"  {kind.value} upgrade {slot + 1} of {cls.slots.of(kind)} (blank: none)",
                    CardKind.UPGRADE,
                    kind,
                )
                if not got:
                    break
                upgrades.setdefault(kind.value, []).append(got)
        ships.append(
            FleetShip(
                id=cls.id, squadron=squadron, captain=captain, admiral=admiral, upgrades=upgrades
            )
        )
        report = validate(Fleet(name=name, ships=tuple(ships)), limit)
        con.print(f"  [bold]Total Build {report.total_build} / {limit} SP[/bold]")
    resource = _ask_card(con, err, "Resource (blank: none)", CardKind.RESOURCE, None)
    if len(ships) == MAX_SHIPS:
        con.print(f"That is {MAX_SHIPS} ships, the most a fleet holds.")
    fleet = Fleet(name=name, ships=tuple(ships), resource=resource, points_limit=limit)
    report = validate(fleet, limit)
    _save(out, dumps(fleet))
    if as_json:
        print_json({**_report_json(report), "wrote": str(out)})
        return
    _print_report(report)
    con.print(f"Saved {out}")


def _ask_squadron(con: Console, ask: Callable[..., str]) -> int:
    """Ask for a squadron number until it is a whole number from 1 to MAX_SQUADRON_NUMBER."""
    while True:
        typed = ask("  Squadron number", default="1").strip()
        if typed.isascii() and typed.isdigit() and 1 <= int(typed) <= MAX_SQUADRON_NUMBER:
            return int(typed)
        con.print(
            f"[red]'{quoted(typed, 20)}': a squadron is a whole number from 1 to "
            f"{MAX_SQUADRON_NUMBER}[/red]"
        )


def _ask_card(
    con: Console, err: bool, prompt: str, kind: CardKind, upgrade: UpgradeType | None
) -> str | None:
    """Ask for a card of one kind (id or name, loosely) until the answer is blank or fits."""
    while True:
        answer = str(typer.prompt(prompt, default="", show_default=False, err=err)).strip()
        if not answer:
            return None
        try:
            card = get_card(answer)
        except KolramiError as exc:
            con.print(f"[red]{exc}[/red]")
            continue
        if card.kind is not kind or (upgrade is not None and card.type is not upgrade):
            want = upgrade.value + " upgrade" if upgrade else kind.value
            con.print(f"[red]{card.name} is not a {want}[/red]")
            continue
        con.print(f"  {card.name}: {card.cost} SP")
        return card.id


def _completion(words: list[str]) -> None:
    """Tab completion of names at an interactive prompt (where readline exists)."""
    if not sys.stdin.isatty():
        return
    try:
        # not on every platform (hence the guard), and only wanted at an interactive prompt
        import readline
    except ImportError:  # pragma: no cover - not on every platform
        return
    readline.set_completer(completer(words))
    readline.set_completer_delims("")  # names hold spaces and quotes: complete the whole line
    readline.parse_and_bind("tab: complete")


def completer(words: list[str]) -> Callable[[str, int], str | None]:
    """A readline completer over `words`, loose as every lookup is ('ent' gives 'Enterprise',
    "k't" gives "K'T'Roika")."""
    names = Names.of("name", ((w, w, ()) for w in words))

    def complete(text: str, state: int) -> str | None:
        matches = names.complete(text)
        return matches[state] if state < len(matches) else None

    return complete


def register(app: typer.Typer) -> None:
    """Add `kolrami fleet ...` to the main app."""
    app.add_typer(fleet_app, name="fleet")
