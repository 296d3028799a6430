"""A battle's events told turn by turn for the terminal (`kolrami battle`, `kolrami replay`)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table

from kolrami.catalog import ShipPack
from kolrami.engine.battle import Battle, ShipState
from kolrami.report.adv_sheet import advanced_status_table
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import penetrates, penetration_target

SIDE_STYLE = {"A": "cyan", "B": "red"}


class Narrator:
    """Turns events into lines; remembers ship names as ShipPlaced events arrive."""

    def __init__(self, console: Console, pack: ShipPack, verbose: bool = False) -> None:
        self.out = console
        self.pack = pack
        self.verbose = verbose
        self.names: dict[str, str] = {}
        self.turn = 0
        self.sides: dict[str, str] = {}

    def ship(self, ship_id: str) -> str:
        """'A1 Reliant', coloured by side."""
        if ship_id not in self.names:
            return ship_id or "?"
        return f"[{SIDE_STYLE[self.sides[ship_id]]}]{ship_id} {self.names[ship_id]}[/]"

    def tell(self, events: Iterable[ev.Event]) -> None:
        """Print every event worth a line."""
        for e in events:
            self.one(e)

    def one(self, e: ev.Event) -> None:
        """Print one event, if it is worth a line."""
        out = self.out
        if isinstance(e, ev.ShipPlaced):
            self.names[e.ship] = self.pack.get(e.cls).name
            self.sides[e.ship] = e.side
        elif isinstance(e, ev.TurnStarted):
            self.turn = e.turn
            out.rule(f"Turn {e.turn}")
        elif isinstance(e, ev.CardUsed):
            lasting = self.turn == 0
            if self.verbose or not lasting:
                out.print(f"  card {e.card} ({self.ship(e.ship)}): {self.ship(e.on)} {e.detail}")
        elif isinstance(e, ev.Repaired):
            out.print(f"  repair  {self.ship(e.ship)}: {e.item} back to {e.value}")
        elif isinstance(e, ev.InitiativeRolled):
            rolls = ", ".join(f"A {a} : B {b}" for a, b in e.rolls)
            out.print(
                f"  initiative at {e.speed} cm: d10 {rolls}; {e.winner} wins, {e.first} moves first"
            )
        elif isinstance(e, ev.SquadronActivated):
            forced = f" [yellow](forced by {e.forced_by})[/]" if e.forced_by else ""
            out.print(f"[bold]▶ {e.squadron}[/bold] activates{forced}")
        elif isinstance(e, ev.OrderGiven):
            routine = (
                e.order.split()[0] in ("ACT", "FIRST", "SECOND", "REPAIR")
                or (e.order.startswith("REACT") and e.order.endswith(" HOLD"))
                # the advanced game's routine orders: their effects are told by their events
                or e.order.split()[0] in ("BONUS", "LOCK", "POWER", "MOVE", "SHIELDS")
                or e.order.endswith(" NONE")
            )
            if self.verbose or not routine:
                out.print(f"  [dim]{e.side} orders: {e.order}[/dim]")
        elif isinstance(e, ev.FireDeclared):
            if e.reaction:
                out.print(f"  reaction: {self.ship(e.ship)} locks on {self.ship(e.target)} (F)")
        elif isinstance(e, ev.ShipMoved):
            if self.verbose:
                x, y = e.path[-1]
                out.print(
                    f"  [dim]{e.ship} moves {e.distance:g} cm to ({x:.1f}, {y:.1f}) "
                    f"heading {e.heading}[/dim]"
                )
        elif isinstance(e, ev.StoppedShort):
            what = (
                self.ship(e.of)
                if e.of in self.names
                else f"the {e.of.replace('edge', 'table edge')}"
            )
            out.print(f"  {self.ship(e.ship)} stops short of {what} ({e.lost_cm:.1f} cm short)")
        elif isinstance(e, ev.VolleyFired):
            through = sum(penetrates(r, e.shields, e.strength) for r in e.rolls)
            target = penetration_target(e.shields, e.strength)
            needs = "10" if target >= 10 else "2+" if target <= 2 else f"{target}+"
            rolls = " ".join(str(r) for r in e.rolls)
            out.print(
                f"  {self.ship(e.ship)} → {self.ship(e.target)}: {e.shots} {e.weapon}"
                f"{'s' * (e.shots != 1)} str {e.strength} at {e.range_cm:.1f} cm vs shields "
                f"{e.shields} (needs {needs}): {rolls} → [bold]{through} through[/bold]"
            )
        elif isinstance(e, ev.HitScored):
            face = 0 if e.location_roll == 10 else e.location_roll
            where = e.applied_to.replace("_", " ")
            out.print(
                f"      hit ({face}) {e.location.replace('_', ' ')}: {e.damage} damage → "
                f"{where} {e.value}, superstructure {e.superstructure}"
            )
        elif isinstance(e, ev.ControlChanged):
            state = "regains control" if e.in_control else "[yellow]is out of control[/] (drifts)"
            out.print(f"  {self.ship(e.ship)} {state}")
        elif isinstance(e, ev.ShipDestroyed):
            how = "left derelict" if e.derelict else "[bold red]destroyed[/]"
            by = f" by {self.ship(e.by)}" if e.by else ""
            out.print(f"  ✖ {self.ship(e.ship)} {how}{by}")
        elif isinstance(e, ev.BattleEnded):
            out.rule("Result")
            who = f"Side {e.winner} wins" if e.winner else "A draw"
            out.print(f"[bold]{who}[/bold]: {e.reason} (after {e.turns} turns)")
        else:  # events of other games tell themselves (kolrami.rules.advanced.events)
            tell = getattr(e, "story", None)
            line = tell(self.ship, self.verbose) if callable(tell) else None
            if line:
                out.print(line)


def status_table(battle: Battle) -> Table:
    """Every ship's state at the end."""
    if "advanced" in battle.extensions:  # the advanced game keeps its own ship state
        return advanced_status_table(battle)
    table = Table(title="Ships", title_justify="left")
    for col in ("Ship", "Class", "Side", "SS", "Shields", "Engine", "Systems", "Weapons", "State"):
        table.add_column(
            col, justify="right" if col in ("SS", "Shields", "Engine", "Systems") else "left"
        )
    for s in battle.ships.values():
        state = {
            "destroyed": "[red]destroyed[/]",
            "ballistic": "[yellow]ballistic[/]",
        }.get(ship_state(s), ship_state(s))
        weapons = " ".join(f"{k.value}s {sum(v)}" for k, v in s.mounts.items() if v)
        table.add_row(
            s.id,
            s.cls.name,
            f"[{SIDE_STYLE[s.side]}]{s.side}[/]",
            f"{max(0, s.superstructure)}/{s.cls.superstructure}",
            f"{s.shields}/{s.max_shields}",
            f"{s.engine_power}/{s.max_engine}",
            f"{max(0, s.systems)}/{s.max_systems}",
            weapons,
            state,
        )
    return table


def ship_state(ship: ShipState) -> str:
    """A ship's state at the end, in one word: destroyed, derelict, ballistic, toast or ok."""
    if ship.destroyed:
        return "destroyed"
    if ship.derelict:
        return "derelict"
    if not ship.in_control:
        return "ballistic"
    return "toast" if ship.toast else "ok"
