"""`kolrami ships`, `kolrami ship` and `kolrami schema`: the ship classes of the data pack."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from pydantic import BaseModel

from kolrami.catalog import Faction
from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import Card
from kolrami.catalog.loader import fpf_pack
from kolrami.catalog.models import ShipClass as ShipModel
from kolrami.catalog.models import ShipPack as PackModel
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.fleet.model import Fleet
from kolrami.report.sheets import roster_table
from kolrami.report.sheets import ship_sheet


def ships_cmd(
    faction: Annotated[
        str | None,
        typer.Option(
            help="Only this faction: " + ", ".join(f.value.lower() for f in Faction) + "."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the ship classes of the built-in data pack."""
    pack = builtin_pack()
    ships = pack.by_faction(Faction.named(faction) if faction is not None else None)
    if as_json:
        print_json(
            {
                "pack": pack.pack.model_dump(mode="json"),
                "extra_packs": [p.model_dump(mode="json") for p in pack.extra_packs],
                "ships": [s.model_dump(mode="json") for s in ships],
            }
        )
        return
    out = console()
    core = frozenset(s.id for s in fpf_pack().ships)
    table = roster_table(pack, ships, out.width, core)
    legend, table.caption = table.caption, None  # the legend wrapped to the terminal, not
    out.print(table)  # clipped to the table's columns
    out.print(legend, style="dim")


def ship_cmd(
    name: Annotated[str, typer.Argument(help="Ship class: name, id or designation (D-7-t).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of the sheet.")
    ] = False,
    advanced: Annotated[
        bool, typer.Option("--advanced", help="The advanced game's sheet (derived, overridden).")
    ] = False,
) -> None:
    """Show one ship sheet, laid out like the FPF sheet with its hit-location brackets."""
    pack = builtin_pack()
    ship = pack.get(name)
    if advanced:
        # the advanced game's data and rules state (about 50 ms): only for --advanced
        from kolrami.catalog.advanced import advanced_pack
        from kolrami.report.adv_sheet import advanced_json
        from kolrami.report.adv_sheet import advanced_sheet

        if as_json:
            print_json(advanced_json(ship, advanced_pack()))
        else:
            console().print(advanced_sheet(ship, advanced_pack()))
        return
    if as_json:
        print_json(ship.model_dump(mode="json"))
        return
    console().print(ship_sheet(ship, pack.data_version))


class SchemaName(StrEnum):
    """Models whose JSON Schema `kolrami schema` prints."""

    SHIP = "ship"
    PACK = "pack"
    FLEET = "fleet"
    CARDS = "card"


def schema_cmd(
    model: Annotated[
        SchemaName,
        typer.Argument(case_sensitive=False, help="Which model: ship, pack, fleet or card."),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Accepted for uniformity: a schema is always JSON.")
    ] = False,
) -> None:
    """Print the JSON Schema of a data model (for editors and other tools)."""
    schemas: dict[SchemaName, type[BaseModel]] = {
        SchemaName.SHIP: ShipModel,
        SchemaName.PACK: PackModel,
        SchemaName.FLEET: Fleet,
        SchemaName.CARDS: Card,
    }
    print_json(schemas[model].model_json_schema())


def register(app: typer.Typer) -> None:
    """Add `kolrami ships`, `kolrami ship` and `kolrami schema` to the main app."""
    command(app, "ships")(ships_cmd)
    command(app, "ship")(ship_cmd)
    command(app, "schema")(schema_cmd)
