"""The scenario model: everything about a battle that is fixed before the first die is rolled.

Scenarios are TOML files validated like the data packs; `kolrami battle --scenario NAME|FILE`
takes a built-in name or a path.
"""

from __future__ import annotations

import math
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Annotated
from typing import Any
from typing import Literal
from typing import Self

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import SerializerFunctionWrapHandler
from pydantic import ValidationError
from pydantic import model_serializer
from pydantic import model_validator

from kolrami.catalog.loader import _first_problem
from kolrami.catalog.loader import read_toml
from kolrami.catalog.names import Names
from kolrami.errors import DataPackError
from kolrami.errors import path_is
from kolrami.errors import read_text


class Masking(StrEnum):
    """FPF's two masking methods (FPF-MASK-01, FPF-MASK-02, FPF-MASK-03, FPF-MASK-04, FPF-MASK-05,
    FPF-MASK-06)."""

    STATIONARY = "method-1"  # bases block the line of fire when firer or target is stationary
    NONE = "method-2"  # no masking at all


class Movement(StrEnum):
    """Squadron movement (FPF-MOV-07, FPF-MOV-09) or the one-ship-at-a-time variant (FPF-MOV-14)."""

    SQUADRON = "squadron"
    INDIVIDUAL = "individual"


#: A point on the table, (x, y) in cm.
Point = tuple[float, float]


class _Feature(BaseModel):
    """Base of the terrain features: frozen, strict about unknown fields, and quiet in a dump
    about optional geometry it does not use (a circle nebula dumps as it always did)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @model_serializer(mode="wrap")
    def _quiet(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None and v != [] and v != ()}

    def contains(self, x: float, y: float) -> bool:
        """Whether the point (a ship's centre) is inside the feature."""
        raise NotImplementedError


class _Round(_Feature):
    """A feature drawn as a circle around a centre (each kind declares x and y first after
    its kind, so dumps keep the order they always had)."""

    if TYPE_CHECKING:
        x: float
        y: float

    def distance(self, x: float, y: float) -> float:
        """Centre-to-point distance in cm."""
        return math.hypot(x - self.x, y - self.y)


class Planet(_Round):
    """A planet: blocks fire and moves in FPF (PP-01, PP-02, PP-03); ships may orbit it in the
    advanced game (ADV-ORB-01, ADV-ORB-02)."""

    kind: Literal["planet"]
    x: float
    y: float
    radius_cm: float = Field(gt=0)

    def contains(self, x: float, y: float) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.radius_cm**2


class Moon(_Round):
    """A moon: something to orbit (ADV-ORB-01, ADV-ORB-02); it blocks nothing."""

    kind: Literal["moon"]
    x: float
    y: float
    radius_cm: float = Field(gt=0)

    def contains(self, x: float, y: float) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.radius_cm**2


class Nebula(_Feature):
    """A nebula: a circle (x, y, radius_cm) or an outline polygon of three or more points
    (FPF-OPT-09; ADV-NEB-01, ADV-NEB-02, ADV-NEB-03, ADV-NEB-04, ADV-NEB-05)."""

    kind: Literal["nebula"]
    x: float | None = None
    y: float | None = None
    radius_cm: float | None = Field(None, gt=0)
    outline: tuple[Point, ...] = ()

    @model_validator(mode="after")
    def _shape(self) -> Self:
        circle = (self.x, self.y, self.radius_cm)
        if self.outline and any(v is not None for v in circle):
            raise ValueError("give either x, y and radius_cm or an outline, not both")
        if not self.outline and any(v is None for v in circle):
            raise ValueError("a nebula needs x, y and radius_cm (a circle) or an outline")
        if self.outline and len(self.outline) < 3:
            raise ValueError("an outline needs at least 3 points [[x, y], ...]")
        return self

    def contains(self, x: float, y: float) -> bool:
        if self.outline:
            return inside_polygon(self.outline, x, y)
        assert self.x is not None
        assert self.y is not None
        assert self.radius_cm is not None
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.radius_cm**2

    def points(self) -> tuple[Point, ...]:
        """The outline (a circle nebula has none: draw it as a circle)."""
        return self.outline


class IonStorm(_Feature):
    """An ion storm (ADV-ION-01, ADV-ION-02, ADV-ION-03): its front is the line through the two
    `front` points at the start of the battle; it moves `speed_hexes` hexes a game turn in the
    direction `heading_deg` (0 = +x, 90 = +y), and everything behind it (up to `depth_cm` behind,
    or all of it) is storm."""

    kind: Literal["ion-storm"]
    front: tuple[Point, Point]
    heading_deg: float
    speed_hexes: float = Field(ge=0)
    depth_cm: float | None = Field(None, gt=0)

    @model_validator(mode="after")
    def _line(self) -> Self:
        (x1, y1), (x2, y2) = self.front
        if (x1, y1) == (x2, y2):
            raise ValueError("the front needs two different points [[x1, y1], [x2, y2]]")
        return self

    def direction(self) -> Point:
        """The unit vector the front moves along."""
        a = math.radians(self.heading_deg)
        return math.cos(a), math.sin(a)

    def offset(self, x: float, y: float) -> float:
        """How far (cm) the point lies ahead of the front's starting line, along its travel."""
        dx, dy = self.direction()
        fx, fy = self.front[0]
        return (x - fx) * dx + (y - fy) * dy

    def covers(self, x: float, y: float, advance_cm: float) -> bool:
        """Whether the point is storm once the front has moved `advance_cm` (ADV-ION-01)."""
        s = self.offset(x, y)
        return s <= advance_cm and (self.depth_cm is None or s >= advance_cm - self.depth_cm)

    def contains(self, x: float, y: float) -> bool:
        return self.covers(x, y, 0.0)


class Minefield(_Feature):
    """Mines laid by side `owner` (ADV-MINE-01, ADV-MINE-03, ADV-MINE-07, ADV-MINE-09): each
    point is one mined hex; `cloaked` for Romulan-made mines; `damage` each mine deals; `firing`
    for the scenario kind that shoots weakly and can be shot; `lay_area`, two opposite corners
    of the rectangle where the owner's ships may lay more of these mines in play (ADV-MINE-02)."""

    kind: Literal["minefield"]
    owner: Literal["A", "B"]
    mines: tuple[Point, ...] = Field(min_length=1)
    damage: int = Field(10, ge=1, le=100)
    cloaked: bool | None = None
    firing: bool | None = None
    lay_area: tuple[Point, Point] | None = None

    def may_lay_at(self, x: float, y: float) -> bool:
        """Whether the scenario lets the owner lay a mine of this field at (x, y)."""
        if self.lay_area is None:
            return False
        (x0, y0), (x1, y1) = self.lay_area
        return min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1)

    def contains(self, x: float, y: float) -> bool:
        return False  # a minefield is points: the rules ask per mine and hex

    @model_serializer(mode="wrap")
    def _quiet(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None and v is not False}


class BlackHole(_Round):
    """A black hole (the ADV-BH group, see docs/rules.md): the event horizon of `horizon_cm` and an
    accretion disk `rings` hexes deep around it."""

    kind: Literal["black-hole"]
    x: float
    y: float
    horizon_cm: float = Field(gt=0)
    rings: int = Field(6, ge=1, le=12)

    def contains(self, x: float, y: float) -> bool:
        return self.distance(x, y) <= self.horizon_cm


class NeutronStar(_Round):
    """A neutron star: entering its hex destroys a ship (ADV-NS-01)."""

    kind: Literal["neutron-star"]
    x: float
    y: float

    def contains(self, x: float, y: float) -> bool:
        return False  # its hex is sized by the scenario's hex_cm


class Magnetar(_Round):
    """A magnetar: pulls ships within `reach_hexes` (ADV-MAG-01, ADV-MAG-02); its own hex kills
    as a neutron star's does (ADV-NS-01)."""

    kind: Literal["magnetar"]
    x: float
    y: float
    reach_hexes: int = Field(15, ge=1, le=40)

    def contains(self, x: float, y: float) -> bool:
        return False


class GasGiant(_Round):
    """A gas giant `radius_hexes` hexes in radius: a solid core hex, then atmosphere layers
    outward, the outermost hex ring being the outer atmosphere (ADV-GG-01, ADV-GG-02, ADV-GG-03,
    ADV-GG-04, ADV-GG-05); orbit 2 hexes outside (ADV-ORB-02)."""

    kind: Literal["gas-giant"]
    x: float
    y: float
    radius_hexes: int = Field(ge=4, le=20)

    def contains(self, x: float, y: float) -> bool:
        return False  # sized in hexes: the rules ask with the scenario's hex_cm


#: Any terrain feature, told apart by its `kind`.
Feature = Annotated[
    Planet | Moon | Nebula | IonStorm | Minefield | BlackHole | NeutronStar | Magnetar | GasGiant,
    Field(discriminator="kind"),
]
#: The feature kinds, as a scenario names them.
FEATURE_KINDS = (
    "planet",
    "moon",
    "nebula",
    "ion-storm",
    "minefield",
    "black-hole",
    "neutron-star",
    "magnetar",
    "gas-giant",
)


def inside_polygon(points: tuple[Point, ...], x: float, y: float) -> bool:
    """Even-odd rule: whether (x, y) lies inside the closed polygon."""
    inside = False
    n = len(points)
    for i in range(n):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


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
    terrain: tuple[Feature, ...] = ()
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
    fleets: tuple[str, ...] = Field(
        (),
        max_length=2,
        description="The fleets `kolrami battle` plays when none is given: side A's, side B's "
        "(presets:NAME or a file).",
    )

    @model_serializer(mode="wrap")
    def _quiet_defaults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Fields added for other games stay out of a dump while they hold their defaults, so
        # FPF battle logs (whose header holds the scenario) read exactly as before.
        data: dict[str, Any] = handler(self)
        for key, default in _QUIET_DEFAULTS.items():
            quiet = (default, []) if default == () else (default,)  # a tuple dumps as a list
            if key in data and data[key] in quiet:
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
        for number, feature in enumerate(self.terrain, start=1):
            where = f"terrain feature {number} ({feature.kind})"
            if self.driver != "advanced" and feature.kind not in FPF_KINDS:
                raise ValueError(
                    f"{where}: only the advanced game has rules for it; set driver = "
                    "'advanced' or leave the feature out"
                )
            for x, y in _anchors(feature):
                if not (0 <= x <= self.table_width_cm and 0 <= y <= self.table_height_cm):
                    raise ValueError(
                        f"{where}: the point ({x:g}, {y:g}) lies off the "
                        f"{self.table_width_cm:g} x {self.table_height_cm:g} cm table; move it on"
                    )
        return self


#: Terrain FPF has rules for (FPF-OPT-09, PP-01); the rest is the advanced game's.
FPF_KINDS = frozenset({"planet", "nebula"})


def _anchors(feature: _Feature) -> list[Point]:
    """The points of a feature that must lie on the table."""
    if isinstance(feature, Nebula):
        return list(feature.outline) or [(feature.x or 0.0, feature.y or 0.0)]
    if isinstance(feature, IonStorm):
        return list(feature.front)
    if isinstance(feature, Minefield):
        return list(feature.mines) + list(feature.lay_area or ())
    if isinstance(feature, _Round):
        return [(feature.x, feature.y)]
    return []


#: Fields left out of a scenario's dump while at these defaults (see `_quiet_defaults`).
_QUIET_DEFAULTS: dict[str, Any] = {"driver": "fpf", "hex_cm": 4, "fleets": ()}

BUILTIN = (
    "standard",
    "peak-performance",
    "advanced",
    "nebula-ambush",
    "ion-storm-crossing",
    "minefield",
    "black-hole",
    "gas-giant-hide",
    "starbase-assault",
    "boarding-action",
    "web-trap",
    "probe-hunt",
)
#: The most bytes of a scenario file read (the built-in ones are under 2 KB).
MAX_SCENARIO_BYTES = 256 * 1024


def parse_scenario(text: str, source: str) -> Scenario:
    """Validate scenario TOML; errors name the file and the field."""
    raw = read_toml(text, source)
    try:
        return Scenario.model_validate(raw.get("scenario", raw))
    except ValidationError as exc:
        first = exc.errors()[0]["loc"]
        field, msg = _first_problem(exc)
        if len(first) >= 2 and first[0] == "terrain" and isinstance(first[1], int):
            # name the feature by its place and kind, then its own field
            kind = first[2] if len(first) > 2 else "feature"
            inner = ".".join(str(p) for p in first[3:]) or "-"
            raise DataPackError(
                f"{source}: terrain feature {first[1] + 1} ({kind}), field '{inner}': {msg}"
            ) from None
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
