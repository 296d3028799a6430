"""A fleet in the FleetX JSON shape: ship classes in squadrons, with their cards.

This module only checks the shape of the document; whether the fleet is legal (budget, slots,
unique cards, factions ...) is kolrami.fleet.legality's job, which reports every problem at once.
Nothing is dropped: unknown ids stay in the fleet and are reported. A captain, an admiral or the
resource may be written as a list, so that a fleet with two of them can be read and told what is
wrong rather than refused. Loading a fleet fit to play (presets, files) is kolrami.fleet.model's.

The shape has bounds that no real fleet comes near, so that a hostile or broken document (a share
string that inflates to megabytes, a squadron numbered 10**23, a name of a million characters) is
one line at the door instead of memory, time and an absurd fleet called legal: see the MAX_
constants. Every way into a fleet (files, share strings, the web's forms, the store) comes here.
"""

from __future__ import annotations

from typing import Annotated
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import SerializationInfo
from pydantic import SerializerFunctionWrapHandler
from pydantic import StringConstraints
from pydantic import ValidationError
from pydantic import field_validator
from pydantic import model_serializer

from kolrami.catalog import ShipPack
from kolrami.catalog import builtin_pack
from kolrami.catalog.loader import _first_problem
from kolrami.errors import InvalidInputError

#: The FleetX version this Kolrami reads and writes; a document of another is refused, since what
#: its fields mean is not known here.
FLEETX_VERSION = 1
#: The most bytes of FleetX JSON read from a file, an upload or a share string: the presets are
#: under 2 KB, and a fleet of MAX_SHIPS ships with every card and long names under 40 KB.
MAX_FLEET_BYTES = 256 * 1024
#: The most ships in a fleet: as many as one side of an assessment fields (60 Birds of Prey is
#: 900 SP, three times the usual limit).
MAX_SHIPS = 60
#: Squadron numbers are 1 to this (the web's typed form offers the same).
MAX_SQUADRON_NUMBER = 99
#: The most characters of a fleet's or ship's name, and of an id (ship class, card, faction).
MAX_NAME_CHARS = 120
MAX_ID_CHARS = 64
#: The largest SP limit a fleet or an event has (OP-13; kolrami.tournament.store's is the same).
MAX_SP_LIMIT = 100_000
#: The most cards in one list (captains or admirals of a ship, upgrades of one type, resources),
#: and the most upgrade types on a ship; a legal ship carries a handful.
MAX_CARDS = 12

Name = Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS)]
Id = Annotated[str, StringConstraints(max_length=MAX_ID_CHARS)]
Ids = Annotated[list[Id], Field(max_length=MAX_CARDS)]


class FleetShip(BaseModel):
    """One ship of a fleet: its class id, its squadron, and (later) its cards."""

    model_config = ConfigDict(frozen=True, extra="allow")

    id: Id = Field(description="Ship class id from the data pack, e.g. 'reliant'.")
    squadron: int = Field(
        1, ge=1, le=MAX_SQUADRON_NUMBER, description="Squadron number within the fleet."
    )
    name: Name | None = Field(None, description="The ship's own name, e.g. 'USS Reliant'.")
    captain: Id | Ids | None = None
    admiral: Id | Ids | None = None
    upgrades: Annotated[dict[Id, Ids], Field(max_length=MAX_CARDS)] = Field(default_factory=dict)
    escort: bool = Field(
        False,
        description=(
            "A non-combatant escort: it fires no weapons all battle and may fly as a fourth "
            "ship in its squadron (FPF-MASK-04)."
        ),
    )

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        # a combatant's document is written as it was before the escort field (FPF-MASK-04):
        # the field appears only when set, so fleets, share strings and logs are unchanged
        out = handler(self)
        if isinstance(out, dict) and not self.escort:
            out.pop("escort", None)
        return out

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

    spec: Id = "fleetx"
    version: int = FLEETX_VERSION
    game: Id = "fpf"
    ruleset: Id = "fpf-core"
    name: Name = Field("Unnamed fleet", min_length=1)
    faction: Id | None = None
    points_limit: int | None = Field(None, gt=0, le=MAX_SP_LIMIT)
    resource: Id | Ids | None = None
    ships: tuple[FleetShip, ...] = Field(min_length=1, max_length=MAX_SHIPS)
    vendor: dict[str, Any] = Field(default_factory=dict)

    @field_validator("version")
    @classmethod
    def _known_version(cls, version: int) -> int:
        if version != FLEETX_VERSION:
            raise ValueError(
                f"FleetX version {version} is not one this Kolrami reads (it reads version "
                f"{FLEETX_VERSION}); export the fleet again as version {FLEETX_VERSION}"
            )
        return version

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
