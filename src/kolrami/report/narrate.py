"""A battle's events told turn by turn for the terminal (`kolrami battle`, `kolrami replay`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table

from kolrami.catalog import ShipClass
from kolrami.catalog import ShipPack
from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.engine.battle import Battle
from kolrami.engine.battle import ShipState
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import member_cards
from kolrami.report.adv_sheet import advanced_status_table
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.damage import penetration_target

SIDE_STYLE = {"A": "cyan", "B": "red"}


#: Repair items the FPF repair rule names, as a sheet names them (weapon mounts: see mount_names).
ITEM_NAMES = {"shields": "shields", "engine_power": "engine power", "computer": "systems"}


class Narrator:
    """Turns events into lines. It reads only what the events say, and the catalog for the
    names and effects of classes and cards: the ships' names as ShipPlaced events arrive, the
    cards each ship carries from the log's header."""

    def __init__(self, console: Console, pack: ShipPack, verbose: bool = False) -> None:
        self.out = console
        self.pack = pack
        self.verbose = verbose
        self.names: dict[str, str] = {}
        self.turn = 0
        self.sides: dict[str, str] = {}
        self.items: dict[str, dict[str, str]] = {}  # ship: repair item id -> its display name
        self.evasion: dict[str, int] = {}  # ship: what its cards' evasion adds (CardUsed)
        self.placed: dict[str, list[str]] = {"A": [], "B": []}
        self.fleets: list[Fleet] = []
        self.carried: dict[str, list[Card]] = {}  # ship: the cards it carries
        self.in_play: set[str] = set()

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
        if isinstance(e, ev.BattleStarted):
            self._read_header(e.header)
        elif isinstance(e, ev.ShipPlaced):
            cls = self.pack.get(e.cls)
            self.names[e.ship] = cls.name
            self.sides[e.ship] = e.side
            self.items[e.ship] = mount_names(cls)
            self._place(e.ship, e.side)
        elif isinstance(e, ev.TurnStarted):
            self.turn = e.turn
            out.rule(f"Turn {e.turn}")
        elif isinstance(e, ev.CardUsed):
            self._card(e)
        elif isinstance(e, ev.Repaired):
            mount = self.items.get(e.ship, {}).get(e.item)
            if mount is not None:
                back = f"{mount} back to {e.value} shot{'s' * (e.value != 1)}"
            else:
                back = f"{ITEM_NAMES.get(e.item, e.item.replace('_', ' '))} back to {e.value}"
            out.print(f"  repair  {self.ship(e.ship)}: {back}")
        elif isinstance(e, ev.InitiativeRolled):
            out.print(f"  initiative at {e.speed} cm: {self._initiative(e)}")
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
            self._volley(e)
        elif isinstance(e, ev.HitScored):
            self._hit(e)
        elif isinstance(e, ev.ControlChanged):
            state = "regains control" if e.in_control else "[yellow]is out of control[/] (drifts)"
            out.print(f"  {self.ship(e.ship)} {state}")
        elif isinstance(e, ev.ShipDestroyed):
            self.in_play.discard(e.ship)
            how = "left derelict" if e.derelict else "[bold red]destroyed[/]"
            by = f" by {self.ship(e.by)}" if e.by else ""
            out.print(f"  ✖ {self.ship(e.ship)} {how}{by}")
        elif isinstance(e, ev.ShipReset):
            self.in_play.discard(e.ship)
            by = f" by {self.ship(e.by)}" if e.by else ""
            out.print(
                f"  ↺ {self.ship(e.ship)} [bold]reset[/]{by}: out of play until it returns "
                f"({e.tokens} critical token{'s' * (e.tokens != 1)} so far)"
            )
        elif isinstance(e, ev.ShipReturned):
            self.in_play.add(e.ship)
            out.print(
                f"  ↻ {self.ship(e.ship)} [bold]returns[/] at ({e.x:.1f}, {e.y:.1f}) heading "
                f"{e.heading}, shields {e.shields}"
            )
        elif isinstance(e, ev.ReturnPostponed):
            out.print(f"  {self.ship(e.ship)} finds no room to return; it tries next turn")
        elif isinstance(e, ev.FleetPointsAwarded):
            why = {
                "kill": f"for {self.ship(e.ship)}" if e.ship else "for a kill",
                "resource": "for the resource",
                "bonus": "end bonus",
            }.get(e.reason, e.reason)
            out.print(
                f"  [bold]+{e.points} Fleet Points[/] side {e.side} ({why}): {e.total} in all"
            )
        elif isinstance(e, ev.BattleEnded):
            out.rule("Result")
            who = f"Side {e.winner} wins" if e.winner else "A draw"
            out.print(f"[bold]{who}[/bold]: {e.reason} (after {e.turns} turns)")
        else:  # events of other games tell themselves (kolrami.rules.advanced.events)
            tell = getattr(e, "story", None)
            line = tell(self.ship, self.verbose) if callable(tell) else None
            if line:
                out.print(line)

    def _volley(self, e: ev.VolleyFired) -> None:
        """A volley: its shots, their strength against the shields, the dice and what got
        through."""
        out = self.out
        through = sum(penetrates(r, e.shields, e.strength) for r in e.rolls)
        target = penetration_target(e.shields, e.strength)
        needs = "10" if target >= 10 else "2+" if target <= 2 else f"{target}+"
        rolls = " ".join(str(r) for r in e.rolls)
        # evasion makes the shot as hard as a weaker weapon: the log carries the strength
        # the dice faced; the weapon's own is that plus the target's evasion
        dodge = self.evasion.get(e.target, 0)
        strength = f"str {e.strength + dodge} (-{dodge} evasion)" if dodge else f"str {e.strength}"
        # a head-on exchange's groups fire as their ships stood when it began (FPF-FIRE-14)
        head_on = " (head-on exchange)" if e.exchange is not None else ""
        out.print(
            f"  {self.ship(e.ship)} → {self.ship(e.target)}: {e.shots} {e.weapon}"
            f"{'s' * (e.shots != 1)} {strength} at {e.range_cm:.1f} cm vs shields "
            f"{e.shields} (needs {needs}): {rolls} → [bold]{through} through[/bold]{head_on}"
        )

    def _hit(self, e: ev.HitScored) -> None:
        """A hit: where it landed and what it struck."""
        out = self.out
        face = 0 if e.location_roll == 10 else e.location_roll
        # what was struck, named as the ship sheets name it (the computer is "systems")
        where = ITEM_NAMES.get(e.applied_to, e.applied_to.replace("_", " "))
        struck = (
            f"superstructure {e.superstructure}"  # the hull alone: say it once
            if e.applied_to == "superstructure"
            else f"{where} {e.value}, superstructure {e.superstructure}"
        )
        out.print(
            f"      hit ({face}) {e.location.replace('_', ' ')}: {e.damage} damage → {struck}"
        )

    # --- cards -------------------------------------------------------------------------------

    def _read_header(self, header: dict[str, Any]) -> None:
        """The fleets the log's header carries: which cards each ship will carry."""
        fleets = header.get("fleets")
        self.fleets = []
        if isinstance(fleets, list):
            try:
                self.fleets = [Fleet.model_validate(f) for f in fleets]
            except ValueError:  # an odd header: tell the battle without the cards' numbers
                self.fleets = []

    def _place(self, ship_id: str, side: str) -> None:
        """Ships are placed squadron by squadron in fleet order: the n-th ship a side places
        is its fleet's n-th ship so ordered; the fleet's resource rides on its first ship."""
        n = len(self.placed[side])
        self.placed[side].append(ship_id)
        self.in_play.add(ship_id)
        index = 0 if side == "A" else 1
        if index >= len(self.fleets):
            return
        fleet = self.fleets[index]
        members = [m for group in fleet.squadrons().values() for m in group]
        ids = list(member_cards(members[n])) if n < len(members) else []
        if n == 0:
            ids += fleet.resources()[:1]
        every = cards()
        self.carried[ship_id] = [every[c] for c in ids if c in every]

    def _initiative(self, e: ev.InitiativeRolled) -> str:
        """The d10s with the cards' modifiers where they explain the rolls. The event carries
        the dice only; the modifiers are the initiative cards the side's ships in play carry
        (from the header), shown only when they agree with every roll and the winner."""
        bonus = {side: self._initiative_bonus(side) for side in ("A", "B")}

        def agrees() -> bool:
            totals = [(a + bonus["A"], b + bonus["B"]) for a, b in e.rolls]
            level = all(x == y for x, y in totals[:-1])
            last = totals[-1]
            return level and last[0] != last[1] and ("A" if last[0] > last[1] else "B") == e.winner

        if not any(bonus.values()) or not agrees():
            bonus = {"A": 0, "B": 0}

        def one(side: str, die: int) -> str:
            return f"{side} {die}{bonus[side]:+d}" if bonus[side] else f"{side} {die}"

        pairs = []
        for n, (a, b) in enumerate(e.rolls):
            tie = " (level: again)" if n < len(e.rolls) - 1 else ""
            pairs.append(f"{one('A', a)} : {one('B', b)}{tie}")
        cards_say = [
            f"{side} {bonus[side]:+d} from {', '.join(self._initiative_cards(side))}"
            for side in ("A", "B")
            if bonus[side]
        ]
        why = f" [dim]({'; '.join(cards_say)})[/dim]" if cards_say else ""
        return f"d10 {', '.join(pairs)}; {e.winner} wins, {e.first} moves first{why}"

    def _initiative_cards(self, side: str) -> list[str]:
        return [
            card.name
            for ship in self.placed[side]
            if ship in self.in_play
            for card in self.carried.get(ship, [])
            if card.effect.hook == "initiative"
        ]

    def _initiative_bonus(self, side: str) -> int:
        return sum(
            card.effect.amount
            for ship in self.placed[side]
            if ship in self.in_play
            for card in self.carried.get(ship, [])
            if card.effect.hook == "initiative"
        )

    def _card(self, e: ev.CardUsed) -> None:
        """A card's effect: named, and said of the ship that carries it."""
        card = cards().get(e.card)
        if card is None:  # a card this Kolrami does not know: say what the log says
            self.out.print(
                f"  card {e.card or '?'} ({self.ship(e.ship)}): {self.ship(e.on)} {e.detail}"
            )
            return
        hook = card.effect.hook
        if hook == "evasion":
            self.evasion[e.on] = self.evasion.get(e.on, 0) + card.effect.amount
        if card.kind is CardKind.RESOURCE:
            whose = f"side {self.sides.get(e.ship, '?')}'s resource"
        else:
            kind = f"{card.type.value} upgrade" if card.type else card.kind.value
            whose = f"{self.ship(e.ship)}'s {kind}"
        if hook == "reroll":
            its = whose.replace(f"{self.ship(e.ship)}'s", "its", 1)
            self.out.print(
                f"  {self.ship(e.ship)}, firing at {self.ship(e.on)}, uses "
                f"[bold]{card.name}[/bold] ({its}): {e.detail}"
            )
            return
        if self.turn == 0 and not self.verbose:
            return  # lasting effects at the start: the sheets show them
        on = (
            ""
            if e.on == e.ship and card.kind is not CardKind.RESOURCE
            else f" on {self.ship(e.on)}"
        )
        self.out.print(f"  [bold]{card.name}[/bold] ({whose}){on}: {e.detail}")


def mount_names(cls: ShipClass) -> dict[str, str]:
    """Display names of a class's weapon mounts under the ids the repair rule gives them
    (`photons.0`: the first photon mount), made from the class, not read from the id."""
    names: dict[str, str] = {}
    for kind, weapon in cls.weapons():
        many = len(weapon.mounts) > 1
        for i in range(len(weapon.mounts)):
            names[f"{kind.value}s.{i}"] = f"{kind.value} mount {i + 1}" if many else kind.value
    return names


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
            f"{s.systems}/{s.max_systems}",  # below 0 too, as the damage lines say it
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
