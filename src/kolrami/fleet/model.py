"""A fleet in the FleetX JSON shape (GUIDE 6): ship classes in squadrons, with their cards.

The model only checks the shape of the document; whether the fleet is legal (budget, slots,
unique cards, factions ...) is kolrami.fleet.legality's job, which reports every problem at once.
Nothing is dropped: unknown ids stay in the fleet and are reported. A captain, an admiral or the
resource may be written as a list, so that a fleet with two of them can be read and told what is
wrong rather than refused.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kolrami.catalog import ShipPack, builtin_pack
from kolrami.catalog.loader import _first_problem
from kolrami.errors import DataPackError, InvalidInputError, UnknownNameError

PRESET_PREFIX = "presets:"


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


def parse_fleet(data: Any, source: str, pack: ShipPack | None = None) -> Fleet:
    """A fleet fit to play: its shape valid and nothing in it that a battle cannot field.

    Budget and other squad-building limits are not checked here (see legality.validate);
    problems that stop a battle (unknown ids, squadrons over three, cards in the wrong place)
    are, with the first one named and how many there are.
    """
    from kolrami.fleet.legality import PLAY_BLOCKING, validate

    fleet = read_fleet(data, source)
    report = validate(fleet, limit=None, pack=pack)
    blocking = [e for e in report.errors if e.code in PLAY_BLOCKING]
    if blocking:
        first = blocking[0]
        more = f" (and {len(blocking) - 1} more)" if len(blocking) > 1 else ""
        raise InvalidInputError(f"{source}: {first.path}: {first.message}{more}")
    return fleet


def read_fleet(data: Any, source: str) -> Fleet:
    """A FleetX document's shape checked; nothing else (legality reports the rest)."""
    try:
        return Fleet.model_validate(data)
    except ValidationError as exc:
        field, msg = _first_problem(exc)
        raise InvalidInputError(f"{source}: {field or 'fleet'}: {msg}") from None


@cache
def _preset_files() -> dict[str, str]:
    folder = resources.files("kolrami.fleet").joinpath("presets")
    return {
        p.name.removesuffix(".json"): p.read_text(encoding="utf-8")
        for p in folder.iterdir()
        if p.name.endswith(".json")
    }


def preset_names() -> list[str]:
    """Names of the built-in preset fleets."""
    return sorted(_preset_files())


def load_fleet(ref: str, pack: ShipPack | None = None) -> Fleet:
    """A fleet from 'presets:NAME', a bare preset name, or a FleetX JSON file path."""
    presets = _preset_files()
    name = ref.removeprefix(PRESET_PREFIX)
    if name in presets:
        return parse_fleet(json.loads(presets[name]), f"{PRESET_PREFIX}{name}", pack)
    if ref.startswith(PRESET_PREFIX) or not (ref.endswith(".json") or Path(ref).exists()):
        import difflib

        close = difflib.get_close_matches(name, list(presets), n=1, cutoff=0.4)
        raise UnknownNameError(
            "preset fleet", ref, f"{PRESET_PREFIX}{close[0]}" if close else None, preset_names()
        )
    path = Path(ref)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataPackError(f"{path}: cannot read the fleet: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path}: not valid JSON: {exc}") from None
    return parse_fleet(data, str(path), pack)
