"""Ship classes and the built-in data packs."""

from kolrami.catalog.loader import builtin_pack, load_pack, parse_pack
from kolrami.catalog.models import (
    Arc,
    Faction,
    HitLocations,
    Location,
    ShipClass,
    ShipPack,
    Weapon,
    WeaponKind,
)

__all__ = [
    "Arc",
    "Faction",
    "HitLocations",
    "Location",
    "ShipClass",
    "ShipPack",
    "Weapon",
    "WeaponKind",
    "builtin_pack",
    "load_pack",
    "parse_pack",
]
