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
from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import card_names
from kolrami.catalog.cards import cards
from kolrami.catalog.cards import get_card
from kolrami.catalog.models import FactionCode
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import UpgradeType
from kolrami.catalog.names import Names
from kolrami.cli.support import AsJson
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.errors import path_is
from kolrami.errors import quoted
from kolrami.fleet.document import MAX_NAME_CHARS
from kolrami.fleet.document import MAX_SHIPS
from kolrami.fleet.document import MAX_SP_LIMIT
from kolrami.fleet.document import MAX_SQUADRON_NUMBER
from kolrami.fleet.fleetx import as_text
from kolrami.fleet.fleetx import data_version_note
from kolrami.fleet.fleetx import dumps
from kolrami.fleet.fleetx import load_any
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.fleetx import to_fleetx
from kolrami.fleet.legality import DEFAULT_SP_LIMIT
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.legality import faction_notes
from kolrami.fleet.legality import place
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.fleet.model import load_fleet
from kolrami.fleet.model import preset_names

fleet_app = typer.Typer(help="Build, check, print and share fleets.", no_args_is_help=True)

Limit = Annotated[int, typer.Option("--limit", help="The event's SP limit (OP-13).")]
Surcharge = Annotated[
    int, typer.Option(help="Extra SP per card of another faction (0: off, an event setting).")
]


Source = Annotated[
    str,
    typer.Argument(
        metavar="FLEET", help="FleetX file, share string (KF1-...) or preset (presets:NAME)."
    ),
]


def _report_json(report: FleetReport) -> dict[str, object]:
    """The report as JSON, with the note about other data where there is one."""
    return {
        **report.to_json(),
        "note": data_version_note(report.fleet),
        "faction_notes": faction_notes(report, CHECK_SURCHARGE),
    }


#: how a player at the CLI sees what an event's surcharge would cost (the notes' last words)
CHECK_SURCHARGE = "check with --surcharge N"


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
    for line in faction_notes(report, CHECK_SURCHARGE):
        out.print(f"[yellow]Note:[/yellow] {line}", highlight=False)
    if report.valid:
        out.print("[green]Legal[/green]: every squad-building rule is met.")
    else:
        out.print(f"[red]{len(report.errors)} problem(s)[/red]:")
        for e in report.errors:
            rule = "" if f"({e.rule}" in e.message else f", {e.rule}"
            out.print(f"  {place(e.path, report)}: {e.message} [dim]({e.code}{rule})[/dim]")


@command(fleet_app, "presets")
def presets_cmd(as_json: AsJson = False) -> None:
    """List the built-in preset fleets: what to give --fleet-a, --fleet-b and the rest."""
    rows = []
    for name in preset_names():
        fleet = load_fleet(f"presets:{name}")
        report = validate(fleet, limit=None)
        squadrons = len({s.squadron for s in fleet.ships})
        rows.append((name, fleet, report.total_build, squadrons))
    if as_json:
        print_json(
            [
                {
                    "preset": f"presets:{name}",
                    "name": fleet.name,
                    "faction": fleet.faction,
                    "ships": [s.id for s in fleet.ships],
                    "squadrons": squadrons,
                    "total_build": total,
                }
                for name, fleet, total, squadrons in rows
            ]
        )
        return
    table = Table(title=f"Preset fleets ({len(rows)})", box=None, padding=(0, 2))
    for column in ("Preset", "Faction", "SP", "Sq", "Ships"):
        table.add_column(column, justify="right" if column in ("SP", "Sq") else "left")
    for name, fleet, total, squadrons in rows:
        ships = ", ".join(s.id for s in fleet.ships)
        table.add_row(
            f"presets:{name}", str(fleet.faction or "-"), str(total), str(squadrons), ships
        )
    out = console()
    out.print(table)
    out.print("SP: the Total Build; Sq: squadrons. Any command that takes a fleet takes these.")


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
    if not _show(source, limit, surcharge, as_json).valid:
        raise typer.Exit(1)


@command(fleet_app, "show")
def show_cmd(
    source: Source,
    limit: Limit = DEFAULT_SP_LIMIT,
    surcharge: Surcharge = 0,
    as_json: AsJson = False,
) -> None:
    """Show a fleet as the build sheet adds it up: every card, each ship's Total SP, the build."""
    _show(source, limit, surcharge, as_json)


def _show(source: str, limit: int, surcharge: int, as_json: bool) -> FleetReport:
    """Read a fleet, print its report (or the report as JSON), and give the report."""
    report = _report(load_any(source), limit, surcharge)
    if as_json:
        print_json(_report_json(report))
    else:
        _print_report(report)
    return report


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
    from kolrami.report.build_sheet import check_paths
    from kolrami.report.build_sheet import render_html
    from kolrami.report.build_sheet import write_sheets

    check_paths(html, pdf)
    if page.lower() not in ("a4", "letter"):
        raise InvalidInputError(f"--page {page}: use a4 or letter")
    report = _report(load_any(source), limit, surcharge)
    text = render_html(report, player, email, event, date, page.lower())
    out = console()
    wrote = write_sheets(text, html, pdf)
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


def _check_new_file(out: Path, force: bool) -> None:
    """Refuse an --out that cannot be written: a folder, a file there already (unless
    --force), a file in a folder that does not exist."""
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


# the options of new_cmd, named
ForceOption = Annotated[
    bool, typer.Option("--force", help="Replace the --out file if it is there already.")
]
SheetJsonOption = Annotated[
    bool,
    typer.Option("--json", help="Print the saved fleet's sheet as JSON (prompts go to stderr)."),
]


@command(fleet_app, "new")
def new_cmd(
    out: Annotated[Path, typer.Option("--out", help="Where to save the fleet.")] = Path(
        "fleet.json"
    ),
    limit: Limit = DEFAULT_SP_LIMIT,
    surcharge: Surcharge = 0,
    force: ForceOption = False,
    as_json: SheetJsonOption = False,
) -> None:
    """Build a fleet at the prompt: ship classes and cards by id or name, loosely, with Tab
    completion and a running SP total.

    Each choice is checked as it is made (the slot, the card's faction, the SP left) and ? at
    any prompt lists only what fits there. Every ship takes the same five answers: class,
    squadron, captain, admiral, and its upgrades on one line. At the ship class prompt, list
    shows the fleet so far and remove N takes ship N out. Everything is checked before the
    first question: the --limit, and that --out can be written (an existing file is replaced
    only with --force). An illegal fleet is saved with exit code 1.
    """
    pack = builtin_pack()
    _check_limit(limit)
    if surcharge < 0:
        raise InvalidInputError(f"--surcharge {surcharge}: use 0 (off) or more")
    _check_new_file(out, force)
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
    build = _Build(name, limit, EventSettings(limit, surcharge))
    con.print(
        f"Ship classes: {', '.join(pack.names.labels)} (? lists those that fit; list, remove N)"
    )
    while True:
        if len(build.ships) == MAX_SHIPS:
            con.print(f"That is {MAX_SHIPS} ships, the most a fleet holds.")
            break
        typed = ask(
            f"Ship class ({build.left()} SP left; blank to finish)", default="", show_default=False
        ).strip()
        if not typed:
            if build.ships:
                break
            con.print("A fleet needs at least one ship.")
            continue
        word, _, rest = typed.partition(" ")
        if typed == "?":
            fitting = [c for c in pack.ships if not build.problem([*build.ships, _ship(c)])]
            con.print(
                "Fits: " + ", ".join(f"{c.name} ({c.value} SP)" for c in fitting)
                if fitting
                else f"[yellow]No ship class fits the {build.left()} SP left.[/yellow]"
            )
            continue
        if word.lower() == "list":
            build.show(con)
            continue
        if word.lower() == "remove":
            build.remove(con, rest.strip())
            continue
        try:
            cls = pack.get(typed)
        except KolramiError as exc:
            con.print(f"[red]{exc}[/red]")
            continue
        problem = build.problem([*build.ships, _ship(cls)])
        if problem:
            con.print(f"[red]{cls.name} ({cls.value} SP): {problem}[/red]")
            continue
        con.print(f"  {cls.name}: {cls.value} SP")
        squadron = _ask_squadron(con, ask, build, cls)
        ship = _ship(cls, squadron)
        for kind in (CardKind.CAPTAIN, CardKind.ADMIRAL):
            card = _ask_card(con, err, build, ship, kind)
            if card is not None:
                ship = ship.model_copy(update={kind.value: card})
        ship = _ask_upgrades(con, err, build, ship, cls)
        build.ships.append(ship)
        con.print(f"  [bold]Total Build {build.total()} / {limit} SP[/bold]")
    resource = _ask_card(con, err, build, None, CardKind.RESOURCE)
    fleet = Fleet(name=name, ships=tuple(build.ships), resource=resource, points_limit=limit)
    report = validate(fleet, limit, build.settings)
    _save(out, dumps(fleet))
    if as_json:
        print_json({**_report_json(report), "wrote": str(out)})
    else:
        _print_report(report)
        con.print(f"Saved {out}" + ("" if report.valid else " (not legal: see above)"))
    if not report.valid:
        raise typer.Exit(1)


def _ship(cls: ShipClass, squadron: int = 1) -> FleetShip:
    return FleetShip(id=cls.id, squadron=squadron)


class _Build:
    """A fleet being built at the prompt: its ships so far, and each choice checked against
    the squad-building rules as it is made."""

    def __init__(self, name: str, limit: int, settings: EventSettings) -> None:
        self.name = name
        self.limit = limit
        self.settings = settings
        self.ships: list[FleetShip] = []

    def report(self, ships: list[FleetShip], resource: str | None = None) -> FleetReport:
        fleet = Fleet(name=self.name, ships=tuple(ships), resource=resource)
        return validate(fleet, self.limit, self.settings)

    def total(self) -> int:
        return self.report(self.ships).total_build if self.ships else 0

    def left(self) -> int:
        return self.limit - self.total()

    def problem(self, ships: list[FleetShip], resource: str | None = None) -> str:
        """What the choice that makes `ships` (and `resource`) breaks, in one line, or ''."""
        before = {(e.code, e.path) for e in self.report(self.ships).errors} if self.ships else set()
        for e in self.report(ships, resource).errors:
            if (e.code, e.path) not in before:
                rule = "" if e.rule in e.message or e.message.endswith(")") else f" ({e.rule})"
                return e.message + rule
        return ""

    def show(self, con: Console) -> None:
        if not self.ships:
            con.print("No ship yet.")
            return
        report = self.report(self.ships)
        for ship in report.ships:
            cards = ", ".join(line.title for line in ship.lines[1:]) or "no cards"
            con.print(
                f"  {ship.index + 1}. {ship.name}, squadron {ship.squadron}: {cards} "
                f"({ship.total_sp} SP)"
            )
        con.print(f"  Total Build {report.total_build} / {self.limit} SP")

    def remove(self, con: Console, which: str) -> None:
        n = len(self.ships)
        if not (which.isascii() and which.isdigit() and 1 <= int(which) <= n):
            con.print(
                f"[red]remove N: N is a ship's number, 1 to {n} (list shows them)[/red]"
                if n
                else "[red]No ship to remove yet.[/red]"
            )
            return
        gone = self.ships.pop(int(which) - 1)
        con.print(f"Removed ship {which} ({gone.id}); Total Build {self.total()} / {self.limit} SP")


def _ask_squadron(con: Console, ask: Callable[..., str], build: _Build, cls: ShipClass) -> int:
    """Ask for a squadron number until it is a whole number from 1 to MAX_SQUADRON_NUMBER
    that the ship may join (a squadron's size, a base alone)."""
    while True:
        typed = ask("  Squadron number", default="1").strip()
        if not (typed.isascii() and typed.isdigit() and 1 <= int(typed) <= MAX_SQUADRON_NUMBER):
            con.print(
                f"[red]'{quoted(typed, 20)}': a squadron is a whole number from 1 to "
                f"{MAX_SQUADRON_NUMBER}[/red]"
            )
            continue
        problem = build.problem([*build.ships, _ship(cls, int(typed))])
        if problem:
            con.print(f"[red]{problem}[/red]")
            continue
        return int(typed)


def _fitting(
    build: _Build, ship: FleetShip | None, kind: CardKind, upgrade: UpgradeType | None = None
) -> list[Card]:
    """The cards of `kind` (of `upgrade`'s type) that may go on `ship` now (or be the
    resource): the slot, the card's own restrictions, uniqueness and the SP left."""
    out = []
    for card in cards().values():
        if card.kind is not kind or (upgrade is not None and card.type is not upgrade):
            continue
        if not _with(build, ship, card)[1]:
            out.append(card)
    return out


def _with(build: _Build, ship: FleetShip | None, card: Card) -> tuple[FleetShip | None, str]:
    """`ship` with `card` added (None for a resource), and what that breaks ('' if nothing)."""
    if ship is None:
        return None, build.problem(build.ships, card.id)
    if card.kind in (CardKind.CAPTAIN, CardKind.ADMIRAL):
        field = card.kind.value
        update: dict[str, object] = {field: [*getattr(ship, f"{field}s")(), card.id]}
    else:
        assert card.type is not None  # an upgrade
        slots = dict(ship.upgrades)
        slots[card.type.value] = [*slots.get(card.type.value, []), card.id]
        update = {"upgrades": slots}
    grown = ship.model_copy(update=update)
    flat = grown.model_copy(
        update={k: (v[0] if isinstance(v, list) and len(v) == 1 else v) for k, v in update.items()}
    )
    return flat, build.problem([*build.ships, flat])


def _faction_note(con: Console, build: _Build, ship: FleetShip | None, card: Card) -> None:
    """Say so when a card serves a ship of another faction: legal, at the event's surcharge."""
    if ship is None or card.faction is FactionCode.IND:
        return
    cls = builtin_pack().get(ship.id)
    if card.faction is cls.faction.code:
        return
    extra = build.settings.faction_surcharge
    con.print(
        f"  [yellow]note:[/yellow] a {card.faction.value} card on a {cls.faction.code.value} "
        + (
            f"ship: +{extra} SP (the --surcharge)"
            if extra
            else "ship is legal here; an event with a faction surcharge charges extra SP for it "
            "(kolrami fleet validate --surcharge N)"
        ),
        highlight=False,
    )


def _ask_card(
    con: Console, err: bool, build: _Build, ship: FleetShip | None, kind: CardKind
) -> str | None:
    """Ask for a card of one kind (id or name, loosely) until the answer is blank or fits
    (`ship` None: the fleet's resource); ? lists the cards that fit."""
    label = {CardKind.RESOURCE: "Resource"}.get(kind, f"  {kind.value.title()}")
    while True:
        answer = str(
            typer.prompt(
                f"{label} ({build.left()} SP left; ? lists what fits; blank: none)",
                default="",
                show_default=False,
                err=err,
            )
        ).strip()
        if not answer:
            return None
        if answer == "?":
            _list_fitting(con, _fitting(build, ship, kind), f"{kind.value} card", build)
            continue
        card = _card_of(con, answer, kind, None)
        if card is None:
            continue
        _, problem = _with(build, ship, card)
        if problem:
            con.print(f"[red]{card.name} ({card.cost} SP): {problem}[/red]")
            continue
        _faction_note(con, build, ship, card)
        con.print(f"  {card.name}: {card.cost} SP")
        return card.id


def _list_fitting(con: Console, found: list[Card], what: str, build: _Build) -> None:
    if found:
        con.print("  Fits: " + ", ".join(f"{c.name} ({c.cost} SP)" for c in found))
    else:
        con.print(f"  [yellow]No {what} fits here with {build.left()} SP left.[/yellow]")


def _card_of(con: Console, answer: str, kind: CardKind, upgrade: UpgradeType | None) -> Card | None:
    """The card `answer` names among the cards of `kind` (suggestions only of that kind)."""
    want = [c for c in cards().values() if c.kind is kind]
    names = Names.of(f"{kind.value} card", ((c, c.name, (c.id,)) for c in want))
    try:
        return names.find(answer)
    except KolramiError as exc:
        unknown = exc
    try:  # a card of another kind: say what it is, not "no such card"
        other = get_card(answer)
    except KolramiError:
        con.print(f"[red]{unknown}[/red]")  # suggestions of this kind only
        return None
    what = f"{other.type.value} upgrade" if other.type else other.kind.value
    article = "an" if kind.value[0] in "aeiou" else "a"
    con.print(f"[red]{other.name} is a {what}, not {article} {kind.value}[/red]")
    return None


def _ask_upgrades(
    con: Console, err: bool, build: _Build, ship: FleetShip, cls: ShipClass
) -> FleetShip:
    """The ship's upgrades on one line, comma separated, each checked as if added in turn."""
    slots = [f"{k.value} {cls.slots.of(k)}" for k in UpgradeType if cls.slots.of(k)]
    if not slots:
        con.print(f"  {cls.name} has no upgrade slots.")
        return ship
    while True:
        answer = str(
            typer.prompt(
                f"  Upgrades, comma separated (slots: {', '.join(slots)}; {build.left()} SP "
                "left; ? lists what fits; blank: none)",
                default="",
                show_default=False,
                err=err,
            )
        ).strip()
        if not answer:
            return ship
        if answer == "?":
            for kind in UpgradeType:
                if cls.slots.of(kind):
                    found = _fitting(build, ship, CardKind.UPGRADE, kind)
                    con.print(
                        f"  {kind.value}: "
                        + (", ".join(f"{c.name} ({c.cost} SP)" for c in found) or "nothing fits")
                    )
            continue
        grown: FleetShip | None = ship
        for part in (p.strip() for p in answer.split(",")):
            if not part:
                continue
            card = _card_of(con, part, CardKind.UPGRADE, None)
            if card is None:
                grown = None
                break
            assert grown is not None
            step, problem = _with(build, grown, card)
            if problem:
                con.print(f"[red]{card.name} ({card.cost} SP): {problem}[/red]")
                grown = None
                break
            _faction_note(con, build, grown, card)
            grown = step
        if grown is not None:
            return grown
        con.print("  (none of that line was kept: type the upgrades again)")


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
