"""Ship sheets and the roster as Rich renderables, laid out like the FPF sheets."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from kolrami.catalog.models import Location
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import ShipPack
from kolrami.catalog.models import Weapon
from kolrami.catalog.models import WeaponKind

FACTION_STYLE = {
    "Klingon": "red",
    "Federation": "cyan",
    "Romulan": "green",
    "Gorn": "yellow",
    "Tholian": "magenta",
    "Orion": "bright_green",
    "Borg": "bright_black",
}


def weapon_summary(weapon: Weapon | None) -> str:
    """Short form for tables: shots x strength / range and arcs, e.g. '6x s4/24cm F/P/A'."""
    if weapon is None:
        return "-"
    return f"{weapon.shots}x s{weapon.strength}/{weapon.range_cm}cm {weapon.arcs_label}"


def roster_table(
    pack: ShipPack, ships: list[ShipClass], width: int = 120, core: frozenset[str] = frozenset()
) -> Table:
    """The roster as one table, one row per class: its faction in words (the colour is only a
    help: it is lost when piped, and to colour-blind readers), and, with `core` (the ids of the
    FPF pack's classes), which pack each class comes from.

    Below about 135 columns the class designation and type are left out so the numbers fit.
    """
    wide = width >= 135
    table = Table(
        title=f"Ship classes (data {pack.pack.id} {pack.data_version}"
        + "".join(f", {p.id} {p.data_version}" for p in pack.extra_packs)
        + ")",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
    )
    roomy = width >= 110  # the faction in full and the pack; else its first three letters
    fpf = sum(1 for s in ships if s.id in core)
    core = core if roomy else frozenset()
    table.add_column("Ship", no_wrap=True)
    table.add_column("Faction" if roomy else "Fac", no_wrap=True)
    if core:
        table.add_column("Pack", no_wrap=True)
    if wide:
        table.add_column("Class", no_wrap=True)
        table.add_column("Type", no_wrap=True)
    for col in ("Pts", "SS", "Sh", "EP"):
        table.add_column(col, justify="right", min_width=len(col))
    table.add_column("Phasers", no_wrap=True)
    table.add_column("Photons", no_wrap=True)
    table.add_column("Cmp", justify="right", min_width=3)
    table.add_column("DC", justify="right", min_width=2)
    for s in ships:
        numbers = [str(n) for n in (s.value, s.superstructure, s.shields, s.engine_power)]
        table.add_row(
            Text(s.name, style=FACTION_STYLE.get(s.faction.value, "")),
            s.faction.value if roomy else s.faction.value[:3],
            *(["FPF" if s.id in core else "house"] if core else []),
            *([s.class_designation or "-", s.type] if wide else []),
            *numbers,
            weapon_summary(s.phasers),
            weapon_summary(s.photons),
            str(s.computer),
            str(s.damage_control),
        )
    counted = ""
    if fpf:
        counted = f"{len(ships)} classes: {fpf} FPF, {len(ships) - fpf} house pack. "
    bases = " Speed 0: a fixed base." if any(s.stationary for s in ships) else ""
    table.caption = (
        f"{counted}{bases.strip()} Pts value, SS superstructure, Sh shields, EP engine power, "
        "Cmp computer, DC damage control. Weapons: shots x strength / range, arcs."
    )
    return table


def _weapon_row(ship: ShipClass, kind: WeaponKind) -> tuple[str, str]:
    loc = Location.PHASERS if kind is WeaponKind.PHASER else Location.PHOTONS
    bracket = f"({ship.hit_locations.label(loc)})"
    weapon = ship.weapon(kind)
    if weapon is None:
        return f"{bracket} {loc.label}: none", "-"
    label = f"{bracket} {loc.label} {weapon.arcs_label} str {weapon.strength}/ {weapon.range_cm}cm"
    mounts = " ".join(str(m) for m in weapon.mounts)
    return label, f"{mounts}  ({weapon.shots} shot{'s' * (weapon.shots != 1)})"


def ship_sheet(ship: ShipClass, data_version: str) -> RenderableType:
    """One ship sheet: the rows of the printed sheet with their hit-location brackets."""
    style = FACTION_STYLE.get(ship.faction.value, "")
    head = Text.assemble(
        (ship.name, f"bold {style}"),
        (f"  {ship.class_designation}" if ship.class_designation else "", style),
        f"  {ship.faction.value} {ship.type}",
    )
    sub = Text(
        f"Value {ship.value}   Squadron {ship.squadron_value}   Registry {ship.registry_prefix}"
    )
    loc = ship.hit_locations
    table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 2))
    table.add_column("row", style="bold")
    table.add_column("value")
    table.add_row("Superstructure", str(ship.superstructure))
    table.add_row(f"({loc.label(Location.SHIELDS)}) Shields", str(ship.shields))
    engine = str(ship.engine_power) + (
        # an optional rule, off unless a battle switches it on (kolrami rules)
        "  engine hits count double with the bop-engine-double-damage rule (off by default)"
        if ship.engine_double_damage
        else ""
    )
    table.add_row(f"({loc.label(Location.ENGINE_POWER)}) Engine Power", engine)
    table.add_row(*_weapon_row(ship, WeaponKind.PHASER))
    table.add_row(*_weapon_row(ship, WeaponKind.PHOTON))
    table.add_row(f"({loc.label(Location.COMPUTER)}) Computer", str(ship.computer))
    table.add_row("Damage Control", str(ship.damage_control))
    table.add_row(
        "Speed",
        "0: a fixed base (no moves, turns or pivots; engine hits never set it drifting)"
        if ship.stationary
        else f"0-{ship.max_speed_cm} cm",
    )
    foot = Text(
        "Arcs: F front, P port, S starboard, A aft. (n) = d10 hit location, 0 = the 10 face. "
        f"Data {data_version}.",
        style="dim",
    )
    return Group(head, sub, Text(""), table, Text(""), foot)
