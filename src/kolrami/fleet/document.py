"""A fleet in the FleetX JSON shape (GUIDE 6): ship classes in squadrons, with their cards.

This module only checks the shape of the document; whether the fleet is legal (budget, slots,
unique cards, factions ...) is kolrami.fleet.legality's job, which reports every problem at once.
Nothing is dropped: unknown ids stay in the fleet and are reported. A captain, an admiral or the
resource may be written as a list, so that a fleet with two of them can be read and told what is
wrong rather than refused. Loading a fleet fit to play (presets, files) is kolrami.fleet.model's.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kolrami.catalog import ShipPack, builtin_pack
from kolrami.catalog.loader import _first_problem
from kolrami.errors import InvalidInputError


class FleetShip(BaseModel):
    """One ship of a fleet: its class id, its squadron, and (later) its cards."""

    model_config = ConfigDict(frozen=True, extra="allow")

    id: str = Field(description="Ship class id from the data pack, e.g. 'reliant'.")
    squadron: int = Field(1, ge=1, description="Squadron number within the fleet.")
    name: str | None = Field(None, description="The ship's own name, e.g. 'USS Reliant'.")
    captain: str | list[str] | None = None
    admiral: str | list[str] | None = None
    upgrades: dict[str, list[str]] = Field(default_factory=dict)

    def captains(self) -> list[str]:
        """Captain ids on this ship (normally zero or one)."""
        return _as_list(self.captain)

    def admirals(self) -> list[str]:
        """Admiral ids on this ship (normally zero or one)."""
        return _as_list(self.admiral)


def _as_list(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


class Fleet(BaseModel):
    """A fleet file (FleetX)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    spec: str = "fleetx"
    version: int = 1
    game: str = "fpf"
    ruleset: str = "fpf-core"
    name: str = Field("Unnamed fleet", min_length=1)
    faction: str | None = None
    points_limit: int | None = Field(None, gt=0)
    resource: str | list[str] | None = None
    ships: tuple[FleetShip, ...] = Field(min_length=1)
    vendor: dict[str, Any] = Field(default_factory=dict)

    def resources(self) -> list[str]:
        """Resource ids of the fleet (normally zero or one, OP-15)."""
        return _as_list(self.resource)

    def squadrons(self) -> dict[int, list[FleetShip]]:
        """Ships by squadron number, in file order."""
        out: dict[int, list[FleetShip]] = {}
        for ship in self.ships:
            out.setdefault(ship.squadron, []).append(ship)
        return dict(sorted(out.items()))

    def value(self, pack: ShipPack | None = None) -> int:
        """Total points value of the ships."""
        pack = pack or builtin_pack()
        return sum(pack.get(s.id).value for s in self.ships)


def member_cards(ship: FleetShip) -> list[str]:
    """Card ids on a fleet ship: captain, admiral, then upgrades by slot type."""
    cards = ship.captains() + ship.admirals()
    for slot in sorted(ship.upgrades):
        cards += ship.upgrades[slot]
    return cards


def read_fleet(data: Any, source: str) -> Fleet:
    """A FleetX document's shape checked; nothing else (legality reports the rest)."""
    try:
        return Fleet.model_validate(data)
    except ValidationError as exc:
        field, msg = _first_problem(exc)
        raise InvalidInputError(f"{source}: {field or 'fleet'}: {msg}") from None
