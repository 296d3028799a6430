"""A fleet in the FleetX JSON shape (GUIDE 6): ship classes grouped into squadrons.

Captains, admirals, upgrades and resources are carried in the shape already so that the full
fleet model extends it without breaking files; for now the battle engine reads the ships and
their squadrons. Unknown card ids are kept, not dropped.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kolrami.catalog import ShipPack, builtin_pack
from kolrami.catalog.loader import _first_problem
from kolrami.errors import DataPackError, InvalidInputError, UnknownNameError

MAX_SQUADRON = 3  # FPF-MASK-02
PRESET_PREFIX = "presets:"


class FleetShip(BaseModel):
    """One ship of a fleet: its class id, its squadron, and (later) its cards."""

    model_config = ConfigDict(frozen=True, extra="allow")

    id: str = Field(description="Ship class id from the data pack, e.g. 'reliant'.")
    squadron: int = Field(1, ge=1, description="Squadron number within the fleet.")
    name: str | None = Field(None, description="The ship's own name, e.g. 'USS Reliant'.")
    captain: str | None = None
    admiral: str | None = None
    upgrades: dict[str, list[str]] = Field(default_factory=dict)


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
    resource: str | None = None
    ships: tuple[FleetShip, ...] = Field(min_length=1)
    vendor: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _squadrons_of_three(self) -> Self:
        for number, members in self.squadrons().items():
            if len(members) > MAX_SQUADRON:
                raise ValueError(
                    f"squadron {number} has {len(members)} ships; a squadron holds at most "
                    f"{MAX_SQUADRON} (FPF-MASK-02): move a ship to another squadron"
                )
        return self

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

    def check_classes(self, pack: ShipPack, source: str) -> None:
        """Every ship id names a class of `pack`."""
        for i, ship in enumerate(self.ships):
            try:
                pack.get(ship.id)
            except UnknownNameError as exc:
                raise InvalidInputError(f"{source}: ships[{i}].id: {exc}") from None


def member_cards(ship: FleetShip) -> list[str]:
    """Card ids on a fleet ship: captain, admiral, then upgrades by slot type."""
    cards = [c for c in (ship.captain, ship.admiral) if c]
    for slot in sorted(ship.upgrades):
        cards += ship.upgrades[slot]
    return cards


def parse_fleet(data: Any, source: str, pack: ShipPack | None = None) -> Fleet:
    """Validate fleet data; errors name the source, the path in the fleet and the fix."""
    try:
        fleet = Fleet.model_validate(data)
    except ValidationError as exc:
        field, msg = _first_problem(exc)
        raise InvalidInputError(f"{source}: {field or 'fleet'}: {msg}") from None
    fleet.check_classes(pack or builtin_pack(), source)
    return fleet


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
