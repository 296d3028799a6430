"""`kolrami play`: take side A, B or both (hot-seat) of a battle at the terminal.

Each decision shows what that side may see (a table map, the ships' sheets, what is in arc and
range), lists the legal choices and takes an order in the log's text form, with completion of
its words; an illegal order is refused with the rules' one-line reason and clause id, and the
battle goes on untouched. The events are told as `kolrami battle` tells them, with what each AI
seat answered. `save` writes the log so far, `--resume LOG` goes on from one, `undo` takes back
the last order given here (kolrami.sim.session says when that is noted in the log).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from kolrami.catalog import Arc
from kolrami.catalog import builtin_pack
from kolrami.cli.support import FleetAOption
from kolrami.cli.support import FleetBOption
from kolrami.cli.support import RulesOption
from kolrami.cli.support import ScenarioOption
from kolrami.cli.support import SeedOption
from kolrami.cli.support import TurnsOption
from kolrami.cli.support import captain
from kolrami.cli.support import check_seed
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import rule_modules
from kolrami.engine.events import Event
from kolrami.engine.events import OrderGiven
from kolrami.engine.orders import Decision
from kolrami.engine.view import ShipView
from kolrami.errors import InvalidInputError
from kolrami.errors import read_text
from kolrami.fleet.model import load_fleet
from kolrami.report.narrate import SIDE_STYLE
from kolrami.report.narrate import Narrator
from kolrami.report.narrate import status_table
from kolrami.report.sideview import LiveView
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.scenarios.models import load_scenario
from kolrami.sim.session import HUMAN
from kolrami.sim.session import SIDES
from kolrami.sim.session import UNDO_POLICIES
from kolrami.sim.session import UNDO_RECORD
from kolrami.sim.session import UNDO_UNSEEN
from kolrami.sim.session import PlaySession
from kolrami.sim.session import choices
from kolrami.sim.session import percent
from kolrami.sim.session import rule_reading

try:  # readline is a platform module, absent on Windows: completion is a nicety there
    import readline
except ImportError:  # pragma: no cover - Windows
    readline = None  # type: ignore[assignment]

#: The most bytes of a log `--resume` reads (as `kolrami replay` does).
MAX_LOG_BYTES = 64 * 1024 * 1024
#: Heading h points 60*h degrees to port of up the table (kolrami.engine.geometry).
ARROWS = ("↑", "↖", "↙", "↓", "↘", "↗")
COMMANDS = ("help", "?", "map", "ships", "reach", "odds", "undo", "save", "rule", "quit")
RULES_DOC = "docs/rules.md"

HELP = """[bold]Commands[/bold] (anything else is read as an order in the log's text form):
  ?            the legal choices again          map / ships / reach   the board, sheets, targets
  odds A1 F B2 exact odds of A1's volley through its F arc at B2 (no arguments: every target)
  undo         take back the last order given here (and the AI's answers after it); if its
               dice were rolled already, the log notes the undo (--undo unseen forbids it)
  save [LOG]   write the event log so far      rule FPF-MOV-07   where a clause is explained
  3 / 2 5      pick numbered choices (of different ships: one order with both)
  quit         stop (save first to resume with --resume LOG)
Tab completes the words of an order."""


def _arrow(heading: int) -> str:
    return ARROWS[heading % 6]


def board(session: PlaySession, side: str) -> Table:
    """The table as `side` sees it: a grid of 10 cm squares (15 cm on a big table), each
    ship by its id and a heading arrow; far edge (high y) on top."""
    sc = session.scenario
    w, h = sc.table_width_cm, sc.table_height_cm
    cell = 10.0 if max(w, h) <= 200 else 15.0
    cols, rows = math.ceil(w / cell), math.ceil(h / cell)
    grid: list[list[list[str]]] = [[[] for _ in range(cols)] for _ in range(rows)]
    view = session.view(side)
    for rock in view.obstacles():
        x, y, _ = rock
        c, r = min(cols - 1, int(x // cell)), min(rows - 1, int(y // cell))
        grid[r][c].append("[magenta]()[/]")
    for s in [*view.own_ships(), *view.enemies()]:
        if not s.on_table:
            continue
        c = min(cols - 1, max(0, int(s.x // cell)))
        r = min(rows - 1, max(0, int(s.y // cell)))
        grid[r][c].append(f"[{SIDE_STYLE[s.side]}]{s.id}{_arrow(s.heading)}[/]")
    table = Table(
        title=f"Table {w:g} x {h:g} cm, {cell:g} cm squares (↑ is heading 0, up the table)",
        title_justify="left",
        box=box.SQUARE,
        padding=0,
        show_lines=False,
    )
    table.add_column("y", justify="right", style="dim")
    for c in range(cols):
        table.add_column(f"{c * cell:g}"[:4], justify="center", min_width=4, no_wrap=False)
    for r in reversed(range(rows)):
        table.add_row(f"{r * cell:g}", *[" ".join(cellv) or "·" for cellv in grid[r]])
    return table


def _weapons(s: ShipView) -> str:
    parts = []
    for kind, weapon in s.cls.weapons():
        parts.append(
            f"{kind.value}s {s.shots(kind)}/{weapon.shots} str {s.strength[kind]} "
            f"{s.ranges[kind]} cm {weapon.arcs_label}"
        )
    return "; ".join(parts)


def sheets(session: PlaySession, side: str) -> Table:
    """The ship sheets `side` may see: its own ships, then the enemies in sight."""
    view = session.view(side)
    table = Table(title=f"Ships as side {side} sees them", title_justify="left", box=box.SIMPLE)
    for col in (
        "Ship",
        "Class",
        "Sq",
        "At (x, y)",
        "Hd",
        "Last spd",
        "SS",
        "Shd",
        "Eng",
        "Sys",
    ):
        table.add_column(col, justify="left" if col in ("Ship", "Class", "At (x, y)") else "right")
    table.add_column("Weapons (working/sheet shots, strength, range, arcs)")
    for s in [*view.own_ships(), *view.enemies()]:
        where = f"{s.x:.0f}, {s.y:.0f}" if s.on_table else "off table"
        table.add_row(
            f"[{SIDE_STYLE[s.side]}]{s.id}[/]",
            s.cls.name,
            s.squadron,
            where,
            _arrow(s.heading),
            str(s.last_speed),
            f"{max(0, s.superstructure)}/{s.cls.superstructure}",
            f"{s.shields}/{s.max_shields}",
            f"{s.engine_power}/{s.max_engine}",
            # systems as the damage lines say them: below 0 too, to -10 (FPF-DMG-14)
            f"{s.systems}/{s.max_systems}" + ("" if s.in_control else " [yellow]out[/]"),
            _weapons(s),
        )
    return table


def reach(session: PlaySession, side: str) -> Table:
    """What `side`'s ships have in arc and range now (fire is declared before the move)."""
    table = Table(title="In arc and range now", title_justify="left", box=box.SIMPLE)
    for col in ("Firer", "Arc", "Target", "Range", "Weapons", "P(damage)", "Mean"):
        table.add_column(col)
    for r in session.in_reach(side):
        o = session.odds(side, r.firer, r.arc, r.target)
        table.add_row(
            r.firer,
            r.arc.value,
            r.target,
            f"{r.range_cm:.0f} cm",
            " ".join(k.value for k in r.kinds),
            percent(o.p_any_penetration),
            f"{float(o.expected_damage):.2f}",
        )
    if not table.rows:
        table.add_row("-", "-", "nothing in arc and range", "", "", "", "")
    return table


def vocabulary(session: PlaySession, decision: Decision) -> list[str]:
    """The words an order for `decision` may use (and the commands), for completion."""
    d = decision
    words = set(COMMANDS)
    view = session.view(d.side)
    ships = [*view.own_ships(), *view.enemies()]
    mine = [s for s in ships if s.side == d.side]
    theirs = [s for s in ships if s.side != d.side]
    if isinstance(d, InitiativeDecision):
        words |= {"FIRST", "SECOND"}
    elif isinstance(d, ActivationDecision):
        words |= {"ACT", "FORCE", *d.squadrons, *(p for _, prey in d.forcible for p in prey)}
    elif isinstance(d, OrdersDecision):
        words |= {d.squadron, "SPD", "JMP", "HOLD", "FIRE", "T-1", "T0", "T+1"}
        words |= {f"PIV{n:+d}" if n else "PIV0" for n in range(-2, 4)}
        words |= {f"{m}=SPD" for m in d.movers if m is not None}
        for s in mine:
            for arc in s.armed_arcs():
                words |= {f"{s.id}:{arc.value}@{t}" for t in d.targets}
    elif isinstance(d, ReactionDecision):
        words |= {"REACT", d.squadron, "HOLD"}
        words |= {f"{s}:F@{t}" for s in d.firers for t in d.targets}
    elif isinstance(d, RepairDecision):
        words |= {"REPAIR", "NONE"}
        for sid, items in zip(d.ships, d.items, strict=True):
            words |= {f"{sid}:{i}" for i in (*items, "computer")}
    elif isinstance(d, ReturnDecision):
        words |= {"RETURN", d.ship, *(f"H{h}" for h in range(6))}
    else:  # another game's decision: its ships' ids at least
        words |= {s.id for s in mine} | {s.id for s in theirs}
    m = session.menu() if d == session.decision else None
    if m is not None:  # every word of its legal choices (the advanced game's, returns)
        words |= {w for c in m.choices for w in c.order.split()}
    return sorted(words)


def completer(words: Callable[[], list[str]]) -> Callable[[str, int], str | None]:
    """A readline completer over the current decision's words."""
    found: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            found[:] = [w + " " for w in words() if w.startswith(text)]
        return found[state] if state < len(found) else None

    return complete


class Terminal:
    """The play loop at one terminal."""

    def __init__(self, session: PlaySession, out: Console, save: Path | None) -> None:
        self.session = session
        self.out = out
        self.save_to = save
        self.narrator = Narrator(out, builtin_pack())
        # one player against an AI in a battle that can hide things: the narration is that
        # player's side's view (docs/rules.md, Side views); hot-seat shares the screen
        humans = [s for s, seat in zip(SIDES, session.seats, strict=True) if seat == HUMAN]
        hides = session.hides_anything() and len(humans) == 1
        self.live = LiveView(humans[0]) if hides else None
        self.told = 0
        self.last_side: str | None = None
        self.shown = -1  # the battle's change count when the board was last shown

    def tell(self) -> None:
        """Narrate what happened since the last time, with each order an AI seat gave."""
        events = self.session.events_since(self.told)
        self.told += len(events)
        seats = dict(zip(SIDES, self.session.seats, strict=True))
        run: list[Event] = []
        for e in events:
            if self.live is not None and not self.live.keep(e):
                continue
            if isinstance(e, OrderGiven) and seats[e.side] != HUMAN:
                self.narrator.tell(run)
                run = []
                self.out.print(
                    f"[{SIDE_STYLE[e.side]}]{e.side} ({seats[e.side]}) answered:[/] {e.order}",
                    highlight=False,
                )
            else:
                run.append(e)
        self.narrator.tell(run)

    def show(self, side: str) -> None:
        """Board, sheets and targets for `side`."""
        self.out.print(board(self.session, side))
        self.out.print(sheets(self.session, side))
        self.out.print(reach(self.session, side))

    def save(self, path: Path | None, quiet: bool = False) -> None:
        """Write the log so far to `path` (or the --save file)."""
        target = path or self.save_to
        if target is None:
            self.out.print("[yellow]save where?[/] save LOG (or start with --save LOG)")
            return
        try:
            target.write_text(self.session.log_text(), encoding="utf-8")
        except OSError as exc:  # the game goes on: say so and let the player pick another file
            self.out.print(f"[red]cannot write {target}: {exc.strerror or exc}[/]; save ANOTHER")
            return
        if not quiet:
            self.out.print(f"Saved the log to {target}; go on with kolrami play --resume {target}")

    def odds(self, side: str, args: list[str]) -> None:
        """Exact odds of one volley, or of every one in arc and range."""
        if not args:
            self.out.print(reach(self.session, side))
            return
        if len(args) != 3 or args[1].upper() not in ("F", "P", "S", "A"):
            self.out.print("[yellow]odds FIRER ARC TARGET[/], e.g. odds A1 F B2")
            return
        firer, arc, target = args[0].upper(), Arc(args[1].upper()), args[2].upper()
        try:
            o = self.session.odds(side, firer, arc, target)
        except InvalidInputError as exc:
            try:  # out of range now: the odds should its weapons reach during the move
                o = self.session.odds(side, firer, arc, target, anywhere=True)
            except InvalidInputError:
                self.out.print(f"[red]{exc}[/]")
                return
            self.out.print(f"[yellow]{exc}[/]; the odds if every weapon on that arc reaches:")
        t = self.session.view(side).ship(target)
        table = Table(
            title=f"{firer} through {arc.value} at {target} (shields {o.shields}, "
            f"superstructure {max(0, t.superstructure)})",
            title_justify="left",
            box=box.SIMPLE,
        )
        table.add_column("Damage", justify="right")
        table.add_column("Chance", justify="right")
        table.add_column("At least", justify="right")
        for dmg in sorted(o.damage):
            table.add_row(str(dmg), percent(o.damage[dmg]), percent(o.p_damage_at_least(dmg)))
        self.out.print(table)
        self.out.print(
            f"P(any penetration) {percent(o.p_any_penetration)}, mean damage "
            f"{float(o.expected_damage):.2f} (exact, as kolrami odds computes it)"
        )

    def refuse(self, message: str, rules: tuple[str, ...]) -> None:
        """One line: why the order was refused, and where its rule is explained."""
        self.out.print(f"[red]refused:[/] {message}", highlight=False)
        for rid in rules:
            found = rule_reading(rid)
            where = f"{RULES_DOC}, section '{found[0]}'" if found else "the rules catalogue"
            self.out.print(f"  [dim]{rid}: read in {where}; type rule {rid}[/]", highlight=False)

    def rule(self, args: list[str]) -> None:
        """Where a clause id is read and explained."""
        if not args:
            self.out.print("[yellow]rule ID[/], e.g. rule FPF-MOV-07")
        for rid in args:
            found = rule_reading(rid.upper())
            if found is None:
                self.out.print(
                    f"{rid.upper()}: no reading in {RULES_DOC} (docs/clauses.md lists it)"
                )
            else:
                self.out.print(f"[bold]{found[0]}[/bold] ({RULES_DOC})")
                self.out.print(found[1], highlight=False, markup=False)

    def pass_device(self, side: str) -> None:
        """Hot-seat with hidden information: clear the screen and wait for the next player."""
        self.out.clear()
        self.out.rule(f"Pass the device to side {side}")
        self.out.input(f"Side {side}: press Enter when the other player cannot see the screen ")
        self.out.clear()

    def loop(self) -> None:
        """Play until the battle ends or the player quits."""
        s = self.session
        while True:
            self.tell()
            if s.over:
                self.out.print(status_table(s.battle))
                r = s.result
                self.out.print(f"[bold]Result:[/bold] {r.winner or 'draw'} ({r.reason})")
                if self.save_to is not None:
                    self.save(None)
                return
            d = s.decision
            assert d is not None
            side = d.side
            hot_seat = all(seat == HUMAN for seat in s.seats)
            if hot_seat and s.hides_anything() and self.last_side not in (None, side):
                self.pass_device(side)
            if self.last_side != side or s.battle.log.changes != self.shown:
                self.show(side)
                self.shown = s.battle.log.changes
            self.last_side = side
            for line in choices(s, d):
                self.out.print(line, highlight=False, soft_wrap=True)
            while True:
                try:
                    text = self.out.input(f"[bold {SIDE_STYLE[side]}]{side}>[/] ").strip()
                except EOFError:
                    text = "quit"
                if not text:
                    continue
                word, *args = text.split()
                cmd = word.lower()
                if cmd in ("help",):
                    self.out.print(HELP)
                elif cmd == "?":
                    for line in choices(s, d):
                        self.out.print(line, highlight=False, soft_wrap=True)
                elif cmd == "map":
                    self.out.print(board(s, side))
                elif cmd == "ships":
                    self.out.print(sheets(s, side))
                elif cmd == "reach":
                    self.out.print(reach(s, side))
                elif cmd == "odds":
                    self.odds(side, args)
                elif cmd == "rule":
                    self.rule(args)
                elif cmd == "save":
                    self.save(Path(args[0]) if args else None)
                elif cmd == "quit":
                    if self.save_to is not None:
                        self.save(None)
                    self.out.print("Stopped.")
                    return
                elif cmd == "undo":
                    last = s.last_undoable()
                    noted = len(s.undone)
                    try:
                        taken = s.undo()
                    except InvalidInputError as exc:
                        self.out.print(f"[yellow]{exc}[/]", highlight=False)
                        continue
                    assert last is not None
                    answers = "; ".join(f"{who}: {t}" for who, t in last[3])
                    self.out.print(
                        f"Took back: {taken} (side {last[1]})"
                        + (f", and the answers after it ({answers})" if answers else ""),
                        highlight=False,
                    )
                    if len(s.undone) > noted:
                        seen = s.undone[-1]["dice_seen"]
                        self.out.print(
                            f"[yellow]Noted in the log:[/] {seen} "
                            f"{'die' if seen == 1 else 'dice'} had rolled since that order; "
                            "the same dice come again",
                            highlight=False,
                        )
                    if self.save_to is not None:
                        self.save(None, quiet=True)
                    # the log up to here is what was told already: nothing to tell again
                    self.told = len(s.battle.log)
                    if self.live is not None:  # the side's view of the log as it is now
                        self.live = LiveView(self.live.side)
                        for e in s.battle.log.events():
                            self.live.keep(e)
                    self.last_side, self.shown = None, -1
                    break
                else:
                    try:  # numbers pick from the decision's numbered choices
                        picked = s.pick(text)
                    except InvalidInputError as exc:
                        self.out.print(f"[yellow]{exc}[/]", highlight=False)
                        continue
                    if picked is not None:
                        self.out.print(f"[dim]= {picked}[/]", highlight=False)
                        text = picked
                    refusal = s.submit(text)
                    if refusal is not None:
                        self.refuse(refusal.message, refusal.rules)
                        continue
                    self.out.print(f"[dim]order given: {text}[/]")
                    if self.save_to is not None:
                        self.save(None, quiet=True)  # kept after every order
                    break


def play_cmd(
    fleet_a: FleetAOption = "presets:federation-cruisers",
    fleet_b: FleetBOption = "presets:klingon-wolfpack",
    side: Annotated[
        str | None,
        typer.Option(
            help="The side you play: A, B or both (hot-seat on one terminal); default A, or "
            "with --resume the log's own seats."
        ),
    ] = None,
    opponent: Annotated[str, typer.Option(help="The captain of the other side.")] = "aggressive",
    scenario: ScenarioOption = "standard",
    turns: TurnsOption = None,
    rules: RulesOption = None,
    seed: SeedOption = None,
    save: Annotated[
        Path | None, typer.Option(help="Keep the event log here, written after every order.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Go on with a battle from its saved log.")
    ] = None,
    width: Annotated[
        int | None,
        typer.Option(
            min=40, max=1000, help="Terminal width in columns, 40 to 1000 (default: detected)."
        ),
    ] = None,
    undo: Annotated[
        str | None,
        typer.Option(
            help="What undo may take back: record (any order given here; one whose dice were "
            "rolled already is noted in the log) or unseen (only an order no die has followed: "
            "a tournament or ladder game). Default record, or with --resume the log's own.",
        ),
    ] = None,
) -> None:
    """Play a battle yourself: side A, B or both against a built-in captain (or hot-seat)."""
    pick = (side or "A").upper()
    if pick not in ("A", "B", "BOTH"):
        raise InvalidInputError(f"--side {side}: choose A, B or both")
    other = captain(opponent)
    seats = (
        HUMAN if pick in ("A", "BOTH") else other,
        HUMAN if pick in ("B", "BOTH") else other,
    )
    policy = (undo or UNDO_RECORD).strip().lower()
    if policy not in UNDO_POLICIES:
        raise InvalidInputError(f"--undo {undo}: choose record or unseen")
    if resume is not None:
        text = read_text(resume, "log", MAX_LOG_BYTES)
        # the log's own seats unless --side says who plays from now on
        session = PlaySession.resume(text, seats if side is not None else None)
        if policy == UNDO_UNSEEN:  # a game may be made stricter on resuming, never looser
            session.undo_policy = UNDO_UNSEEN
            session.battle.header["undo"] = UNDO_UNSEEN
        elif undo is not None and session.undo_policy != policy:
            raise InvalidInputError(
                f"--undo {policy}: {resume} is a game whose undo is '{session.undo_policy}'; a "
                "game's undo is made stricter on resuming, never looser"
            )
        save = save or resume
    else:
        pack = builtin_pack()
        sc = load_scenario(scenario)
        if turns is not None:
            if not 1 <= turns <= 200:
                raise InvalidInputError(f"--turns {turns}: a battle lasts 1 to 200 turns")
            sc = sc.model_copy(update={"turn_limit": turns})
        if seed is None:
            seed = secrets.randbelow(10**6)
        check_seed(seed)
        fleets = (load_fleet(fleet_a, pack), load_fleet(fleet_b, pack))
        session = PlaySession(sc, fleets, seed, seats, rule_modules(rules), undo=policy)
    out = console() if width is None else Console(width=width)
    _readline(session)
    out.print(
        f"[bold]{session.fleets[0].name}[/bold] (A: {session.seats[0]}) vs "
        f"[bold]{session.fleets[1].name}[/bold] (B: {session.seats[1]}), scenario "
        f"{session.scenario.name}, seed {session.seed}. Type help for commands."
    )
    terminal = Terminal(session, out, save)
    try:
        terminal.loop()
    except KeyboardInterrupt:
        out.print()
        if save is not None:
            terminal.save(None, quiet=True)
            out.print(
                f"Stopped (Ctrl-C). The game is saved in {save}: go on with kolrami play "
                f"--resume {save}",
                highlight=False,
            )
        else:
            out.print(
                "Stopped (Ctrl-C); the game was not saved (start with --save LOG to keep it, or "
                "type save LOG before quitting)",
                highlight=False,
            )
        raise typer.Exit(130) from None


def _readline(session: PlaySession) -> None:
    """Tab completion of an order's words, where the platform has readline."""
    if readline is None:  # pragma: no cover - Windows
        return

    def words() -> list[str]:
        d = session.decision
        return vocabulary(session, d) if d is not None else []

    readline.set_completer_delims(" ")
    readline.set_completer(completer(words))
    readline.parse_and_bind("tab: complete")


def register(app: typer.Typer) -> None:
    """Add `kolrami play`."""
    command(app, "play")(play_cmd)
