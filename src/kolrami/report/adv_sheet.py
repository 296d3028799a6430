"""The advanced sheet (`kolrami ship NAME --advanced`) and the advanced game's status table."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from kolrami.catalog.advanced import AdvancedPack
from kolrami.catalog.advanced import AdvancedSheet
from kolrami.catalog.models import ShipClass
from kolrami.engine.battle import Battle
from kolrami.report.sheets import FACTION_STYLE
from kolrami.rules.advanced.geometry import FACING_NAMES
from kolrami.rules.advanced.geometry import rotating
from kolrami.rules.advanced.state import state_of


def _arcs(sheet: AdvancedSheet, index: int) -> str:
    w = sheet.weapons[index]
    arcs = "/".join(a.value for a in w.arcs)
    if rotating(w.arcs):
        arcs += " (all round)" if len(w.arcs) == 4 else " (rotating: all but aft)"
    return arcs


def advanced_json(cls: ShipClass, pack: AdvancedPack) -> dict[str, Any]:
    """The advanced sheet as JSON, with what it derives (total power, shield cost)."""
    sheet = pack.sheet(cls)
    data: dict[str, Any] = sheet.model_dump(mode="json")
    data["total_power"] = sheet.total_power
    data["shield_cost"] = sheet.shield_cost
    data["overridden"] = sorted(pack.overrides.get(cls.id, {}))
    data["data_version"] = pack.data_version
    return data


def advanced_sheet(cls: ShipClass, pack: AdvancedPack) -> RenderableType:
    """One advanced sheet: power, shields, movement, crew, weapons and the damage chart."""
    sheet = pack.sheet(cls)
    style = FACTION_STYLE.get(cls.faction.value, "")
    overridden = sorted(pack.overrides.get(cls.id, {}))
    head = Text.assemble(
        (cls.name, f"bold {style}"),
        (f"  {cls.class_designation}" if cls.class_designation else "", style),
        f"  {cls.faction.value} {cls.type}  (advanced sheet, crew: {sheet.species})",
    )
    rows = Table(show_header=False, box=None, pad_edge=False, padding=(0, 2))
    rows.add_column("row", style="bold")
    rows.add_column("value")
    rows.add_row(
        "Total power",
        f"{sheet.total_power}: warp port {sheet.warp_port}, warp starboard "
        f"{sheet.warp_starboard}, impulse {sheet.impulse}",
    )
    rows.add_row(
        "Shields",
        f"{sheet.shield_points} on each of 6 facings; 1 power = {sheet.shield_ratio} points; "
        f"charge {sheet.shield_cost} power",
    )
    rows.add_row("Movement", f"{sheet.move_cost} power a hex, at most {sheet.max_moves} a turn")
    rows.add_row("Superstructure", str(cls.superstructure))
    rows.add_row("Crew", f"{sheet.crew}, marines {sheet.marines}")
    rows.add_row("Mass", f"{sheet.mass_t:,} t; dilithium crystals {sheet.dilithium}")
    rows.add_row("Torpedo stores", str(sheet.torpedo_stores))
    rows.add_row("Cloak", "yes" if sheet.cloak else "no")
    weapons = Table(title="Weapons (fire each once a game turn)", title_justify="left")
    for col in ("#", "Kind", "Arcs", "Mount", "Range", "Power / salvo"):
        weapons.add_column(col)
    for i, w in enumerate(sheet.weapons):
        size = (
            f"up to {w.power}" + (f" (min {w.min_power})" if w.min_power else "")
            if w.beam
            else f"{w.torpedoes} x {w.damage} dmg, arm {w.arm_cost}"
        )
        weapons.add_row(
            f"w{i}", w.kind.value, _arcs(sheet, i), w.mount.value, f"{w.range_cm} cm", size
        )
    chart = " ".join(
        f"{0 if face == 10 else face}:{loc.value}" for face, loc in enumerate(sheet.damage_chart, 1)
    )
    foot = Text(
        "Facings: " + ", ".join(f"{n} {name}" for n, name in FACING_NAMES.items()) + ". "
        "Side arcs 60-120 (port) and 240-300 (starboard) degrees. Derived from the FPF sheet"
        + (f"; overridden: {', '.join(overridden)}" if overridden else "")
        + f". Data {pack.data_version}.",
        style="dim",
    )
    return Group(
        head, Text(""), rows, Text(""), weapons, Text(f"Damage chart (d10): {chart}"), foot
    )


def advanced_status_table(battle: Battle) -> Table:
    """Every ship's advanced state at the end of a battle."""
    state = state_of(battle)
    table = Table(title="Ships (advanced)", title_justify="left")
    for col in ("Ship", "Class", "Side", "SS", "Shields 1-6", "Power", "Weapons", "Crew", "State"):
        table.add_column(col, justify="right" if col in ("SS", "Power") else "left")
    for a in state.ships.values():
        s = a.ship
        state_text = "[red]destroyed[/]" if s.destroyed else "derelict" if s.derelict else "ok"
        shields = "/".join(str(b + r) for b, r in zip(a.base, a.reinforcement, strict=True))
        weapons = f"{sum(a.weapon_ok)}/{len(a.weapon_ok)} ok, {a.stores} torps"
        crew = f"{a.casualties} out, {a.fatalities} dead"
        table.add_row(
            s.id,
            s.cls.name,
            s.side,
            f"{max(0, s.superstructure)}/{s.cls.superstructure}",
            shields,
            f"{a.engine_power}/{a.sheet.total_power}",
            weapons,
            crew,
            state_text,
        )
    return table
