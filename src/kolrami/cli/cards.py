"""`kolrami cards` and `kolrami card`: the captains, admirals, upgrades and resources."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.catalog.cards import get_card
from kolrami.catalog.models import FactionCode
from kolrami.catalog.models import UpgradeType
from kolrami.catalog.names import Names
from kolrami.cli.support import AsJson
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.errors import InvalidInputError


def _card_row(card: Card) -> list[str]:
    return [
        card.id,
        card.name,
        card.type.value if card.type else card.kind.value,
        card.faction.value,
        str(card.cost),
        "yes" if card.unique else "",
        card.effect.describe(),
    ]


def cards_cmd(
    type_: Annotated[
        str | None,
        typer.Option("--type", help="captain, admiral, upgrade, resource or an upgrade type."),
    ] = None,
    faction: Annotated[str | None, typer.Option(help="Faction code, e.g. FED (FBS-05).")] = None,
    as_json: AsJson = False,
) -> None:
    """List the cards: captains, admirals, upgrades and resources."""
    chosen = list(cards().values())
    if type_ is not None:
        kinds = sorted({k.value for k in CardKind} | {u.value for u in UpgradeType})
        found = Names.of("card type", ((k, k, ()) for k in kinds)).get(type_)
        if found is None:
            raise InvalidInputError(f"--type {type_}: use one of {', '.join(kinds)}")
        type_ = found
        chosen = [c for c in chosen if c.kind.value == type_ or (c.type and c.type.value == type_)]
    if faction is not None:
        try:
            code = FactionCode(faction.upper())
        except ValueError:
            codes = ", ".join(f.value for f in FactionCode)
            raise InvalidInputError(f"--faction {faction}: use a code: {codes}") from None
        chosen = [c for c in chosen if c.faction is code]
    if as_json:
        print_json([c.model_dump(mode="json") for c in chosen])
        return
    table = Table(title=f"Cards ({len(chosen)})", title_justify="left")
    for col in ("Id", "Name", "Type", "Faction", "SP", "Unique", "Effect"):
        table.add_column(col, justify="right" if col == "SP" else "left")
    for c in chosen:
        table.add_row(*_card_row(c))
    console().print(table)


def card_cmd(
    card_id: Annotated[
        str,
        typer.Argument(
            metavar="CARD", help="A card: id or name, loosely ('torga', 'Admiral Torga', 'Torga')."
        ),
    ],
    as_json: AsJson = False,
) -> None:
    """One card: what it costs, who may carry it, what it does and how the engine does it."""
    card = get_card(card_id)
    if as_json:
        print_json(card.model_dump(mode="json"))
        return
    out = console()
    kind = f"{card.type.value} upgrade ({card.type.code})" if card.type else card.kind.value
    out.print(f"[bold]{card.name}[/bold]  [dim]{card.id}[/dim]")
    out.print(
        f"{kind}, {card.faction.full_name} ({card.faction.value}), {card.cost} SP"
        + (", unique" if card.unique else "")
        + (f", skill {card.skill}" if card.skill else "")
    )
    out.print(card.text)
    out.print(f"[dim]Engine hook: {card.effect.describe()}[/dim]")
    r = card.restriction
    if r.factions or r.ship_types:
        who = ", ".join([f.value for f in r.factions] + list(r.ship_types))
        out.print(f"Only for: {who}")


def register(app: typer.Typer) -> None:
    """Add `kolrami cards` and `kolrami card` to the main app."""
    command(app, "cards")(cards_cmd)
    command(app, "card")(card_cmd)
