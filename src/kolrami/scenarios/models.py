"""The scenario model: everything about a battle that is fixed before the first die is rolled.

Scenarios are TOML files validated like the data packs; `kolrami battle --scenario NAME|FILE`
takes a built-in name or a path.
"""

from __future__ import annotations

import tomllib
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)

from kolrami.catalog.loader import _first_problem
from kolrami.catalog.names import Names
from kolrami.errors import DataPackError, path_is, read_text


class Masking(StrEnum):
    """FPF's two masking methods (FPF-MASK-01, FPF-MASK-02, FPF-MASK-03, FPF-MASK-04, FPF-MASK-05,
    FPF-MASK-06)."""

    STATIONARY = "method-1"  # bases block the line of fire when firer or target is stationary
    NONE = "method-2"  # no masking at all


class Movement(StrEnum):
    """Squadron movement (FPF-MOV-07, FPF-MOV-09) or the one-ship-at-a-time variant (FPF-MOV-14)."""

    SQUADRON = "squadron"
    INDIVIDUAL = "individual"


class Terrain(BaseModel):
    """A circle of terrain: a nebula (FPF-OPT-09) or a planet (PP-01, PP-02, PP-03: blocks fire and
    moves)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["nebula", "planet"]
    x: float
    y: float
    radius_cm: float = Field(gt=0)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point (a ship's centre) is inside."""
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.radius_cm**2


class Scenario(BaseModel):
    """A battle's fixed definition: table, deployment, limits, options and rule modules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    title: str = ""
    description: str = ""
    table_width_cm: float = Field(180.0, gt=0)
    table_height_cm: float = Field(120.0, gt=0)
    deployment_depth_cm: float = Field(20.0, gt=0, description="Depth of each side's zone.")
    turn_limit: int = Field(12, ge=1, le=200)
    start_speed_cm: int = Field(20, ge=0, le=40, description="Speed ships enter with (turn 1).")
    base_radius_cm: float = Field(2.5, gt=0, description="Radius of a ship's base.")
    formation_spacing_cm: float = Field(6.0, gt=0, description="Gap between squadron ships.")
    masking: Masking = Masking.STATIONARY
    movement: Movement = Movement.SQUADRON
    rules: tuple[str, ...] = Field((), description="Optional rule modules to switch on.")
    terrain: tuple[Terrain, ...] = ()
    return_range_cm: float = Field(
        10.0, gt=0, description="Range 1: how far from every ship a reset ship returns (PP-11)."
    )
    resource_repeat: bool = Field(
        False, description="Score a fleet resource again on later kills (PP-19 option)."
    )
    micro_warp_unit_cm: float = Field(
        2.54, gt=0, description="Unit of the micro warp jump's 40-60 (printed in inches)."
    )
    driver: str = Field(
        "fpf",
        pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$",
        description="The turn driver: 'fpf', or 'advanced' for the advanced game.",
    )
    hex_cm: int = Field(
        4, ge=1, le=20, description="Centimetres in one hex where the advanced rules count hexes."
    )

    @model_serializer(mode="wrap")
    def _quiet_defaults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Fields added for other games stay out of a dump while they hold their defaults, so
        # FPF battle logs (whose header holds the scenario) read exactly as before.
        data: dict[str, Any] = handler(self)
        for key, default in _QUIET_DEFAULTS.items():
            if key in data and data[key] == default:
                del data[key]
        return data

    @model_validator(mode="after")
    def _fits(self) -> Self:
        if 2 * self.deployment_depth_cm >= self.table_height_cm:
            raise ValueError(
                f"deployment zones of {self.deployment_depth_cm:g} cm meet on a table "
                f"{self.table_height_cm:g} cm deep; use less than half the depth"
            )
        if self.formation_spacing_cm < 2 * self.base_radius_cm:
            raise ValueError("formation_spacing_cm must be at least two base radii")
        return self


#: Fields left out of a scenario's dump while at these defaults (see `_quiet_defaults`).
_QUIET_DEFAULTS: dict[str, Any] = {"driver": "fpf", "hex_cm": 4}

BUILTIN = ("standard", "peak-performance", "advanced")
#: The most bytes of a scenario file read (the built-in ones are under 2 KB).
MAX_SCENARIO_BYTES = 256 * 1024


def parse_scenario(text: str, source: str) -> Scenario:
    """Validate scenario TOML; errors name the file and the field."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataPackError(f"{source}: not valid TOML: {exc}") from None
    try:
        return Scenario.model_validate(raw.get("scenario", raw))
    except ValidationError as exc:
        field, msg = _first_problem(exc)
        raise DataPackError(f"{source}: scenario field '{field or '-'}': {msg}") from None


@cache
def builtin_scenario(name: str) -> Scenario:
    """A scenario shipped inside the package."""
    res = resources.files("kolrami.scenarios").joinpath("data", f"{name}.toml")
    return parse_scenario(res.read_text(encoding="utf-8"), f"kolrami/scenarios/data/{name}.toml")


SCENARIO_NAMES: Names[str] = Names.of("scenario", ((n, n, ()) for n in BUILTIN))


def load_scenario(name_or_path: str) -> Scenario:
    """A built-in scenario by name (loosely: 'Peak Performance'), or a scenario file by path."""
    if name_or_path in BUILTIN:
        return builtin_scenario(name_or_path)
    path = Path(name_or_path)
    if path.suffix == ".toml" or path_is(path, "file"):
        return parse_scenario(
            read_text(path, "scenario", MAX_SCENARIO_BYTES, DataPackError), str(path)
        )
    return builtin_scenario(SCENARIO_NAMES.find(name_or_path))
