"""Ship classes and the built-in data packs."""

from kolrami.catalog.loader import builtin_pack
from kolrami.catalog.loader import load_pack
from kolrami.catalog.loader import parse_pack
from kolrami.catalog.models import Arc
from kolrami.catalog.models import Faction
from kolrami.catalog.models import HitLocations
from kolrami.catalog.models import Location
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import ShipPack
from kolrami.catalog.models import Weapon
from kolrami.catalog.models import WeaponKind

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
