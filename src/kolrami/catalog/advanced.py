"""The advanced game's ship data: what the advanced rules need that an FPF sheet does not print.

Every number is derived from the class's FPF sheet by one documented formula (`derive`, written
out in docs/rules.md under "Advanced ship data"), so an FPF ship and its advanced sheet tell the
same story; `catalog/data/adv_ships.toml` overrides any field per class and holds the species
table. The FPF pack (`fpf_ships.toml`) is not touched.
"""

from __future__ import annotations

import math
from enum import StrEnum
from functools import cache
from functools import cached_property
from functools import partial
from importlib import resources
from typing import Any
from typing import Self

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import ValidationInfo
from pydantic import field_validator
from pydantic import model_validator

from kolrami.catalog.loader import builtin_pack
from kolrami.catalog.loader import read_toml
from kolrami.catalog.loader import validated
from kolrami.catalog.models import Arc
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import ShipPack
from kolrami.catalog.models import WeaponKind
from kolrami.errors import DataPackError

ADVANCED_PACK = "adv_ships.toml"
#: Facings are numbered 1-6 (ADV-ARC-04); lists of six values are indexed by facing - 1.
FACINGS = 6


def _frozen() -> ConfigDict:
    return ConfigDict(frozen=True, extra="forbid")


class AdvWeaponKind(StrEnum):
    """Weapon kinds of the advanced game."""

    PHASER = "phaser"
    DISRUPTOR = "disruptor"  # Klingon and Romulan beams: may fire in pairs (ADV-DIS-01)
    HEAVY_DISRUPTOR = "heavy-disruptor"  # always in pairs, with a minimum power (ADV-DIS-02)
    PHOTON = "photon"
    PLASMA = "plasma"  # a torpedo that evasion cannot dodge (ADV-EVA-04)

    @property
    def beam(self) -> bool:
        """Beams take power as damage and may be aimed (ADV-LOCK-01); torpedoes may not."""
        return self not in (AdvWeaponKind.PHOTON, AdvWeaponKind.PLASMA)

    @property
    def dodgeable(self) -> bool:
        """Torpedoes an evasion can dodge: photons; plasma only by moving away (ADV-EVA-04)."""
        return self is AdvWeaponKind.PHOTON


class AdvLocation(StrEnum):
    """Rows of the detailed damage chart (the advanced game's hit locations)."""

    SENSORS = "sensors"
    BRIDGE = "bridge"
    BEAM = "beam"
    TORPEDO = "torpedo"
    WARP_PORT = "warp_port"
    WARP_STARBOARD = "warp_starboard"
    IMPULSE = "impulse"
    SHIELD = "shield"
    CREW = "crew"
    HULL = "hull"


#: The default chart: d10 face n strikes row n (face 10 is the one printed 0).
DEFAULT_CHART: tuple[AdvLocation, ...] = (
    AdvLocation.SENSORS,
    AdvLocation.BRIDGE,
    AdvLocation.BEAM,
    AdvLocation.TORPEDO,
    AdvLocation.WARP_PORT,
    AdvLocation.WARP_STARBOARD,
    AdvLocation.IMPULSE,
    AdvLocation.SHIELD,
    AdvLocation.CREW,
    AdvLocation.HULL,
)


class Species(BaseModel):
    """A species' numbers: casualties taken, troop strengths, radiation, beams, cloak tech."""

    model_config = _frozen()

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    factions: tuple[str, ...] = Field((), description="FPF factions whose crews are this species.")
    casualty_factor: float = Field(1.0, gt=0, le=1, description="ADV-CAS-04: Gorn, Borg 0.5.")
    personnel: int = Field(1, ge=0, description="Combat strength of a crewman (ADV-BRD-02).")
    security: int = Field(0, ge=0, description="0 when the species has no security class.")
    marines: int = Field(1, ge=0)
    radiation_resistance: int = Field(1, ge=0, description="ADV-CAS-05.")
    beam: AdvWeaponKind = Field(AdvWeaponKind.PHASER, description="What its beam banks are.")
    cloak_tech_base: int | None = Field(
        None, description="Cloak Tech ratings are 3d10 + this (ADV-CLOAK-05); None: no cloaks."
    )


class AdvWeapon(BaseModel):
    """One weapon of an advanced sheet: a beam bank or a torpedo launcher."""

    model_config = _frozen()

    kind: AdvWeaponKind
    arcs: tuple[Arc, ...] = Field(min_length=1)
    mount: Arc = Field(description="Where it sits on the hull: pairs need F+F, A+A or P+S.")
    range_cm: int = Field(gt=0)
    power: int = Field(0, ge=0, description="Beams: most power the bank takes = its damage.")
    min_power: int = Field(0, ge=0, description="Heavy disruptors: least power that arms them.")
    torpedoes: int = Field(0, ge=0, description="Launchers: torpedoes in one salvo.")
    damage: int = Field(0, ge=0, description="Launchers: damage of one torpedo.")
    arm_cost: int = Field(0, ge=0, description="Launchers: power to arm a salvo.")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.kind.beam:
            if self.power <= 0 or self.torpedoes or self.damage:
                raise ValueError("a beam bank has power > 0 and no torpedoes or damage")
            if self.min_power > self.power:
                raise ValueError(f"min_power {self.min_power} exceeds power {self.power}")
            if self.min_power and self.kind is not AdvWeaponKind.HEAVY_DISRUPTOR:
                raise ValueError("only heavy disruptors have a minimum power (ADV-DIS-02)")
        elif self.torpedoes <= 0 or self.damage <= 0 or self.power:
            raise ValueError("a launcher has torpedoes > 0, damage > 0 and no power")
        if len(set(self.arcs)) != len(self.arcs):
            raise ValueError("an arc is listed twice")
        return self

    @property
    def beam(self) -> bool:
        """A beam bank (not a torpedo launcher)."""
        return self.kind.beam

    @property
    def label(self) -> str:
        """Short form, e.g. 'phaser 10 F 24cm' or 'photon 2x10 F 16cm'."""
        arcs = "/".join(a.value for a in self.arcs)
        size = f"{self.power}" if self.beam else f"{self.torpedoes}x{self.damage}"
        heavy = f" min {self.min_power}" if self.min_power else ""
        return f"{self.kind.value} {size}{heavy} {arcs} {self.range_cm}cm"


class AdvancedSheet(BaseModel):
    """A ship class's advanced sheet. Derived from its FPF sheet, then overridden per class."""

    model_config = _frozen()

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str
    species: str
    warp_port: int = Field(ge=0, description="Power of the port warp nacelle.")
    warp_starboard: int = Field(ge=0, description="Power of the starboard warp nacelle.")
    impulse: int = Field(ge=0, description="Power of the impulse engine.")
    shield_points: int = Field(ge=0, description="Points on each of the six facings at 100%.")
    shield_ratio: int = Field(ge=1, description="Shield points one power point buys.")
    move_cost: int = Field(ge=1, description="Power for one hex of movement.")
    max_moves: int = Field(ge=0, description="Most hexes a game turn.")
    crew: int = Field(gt=0)
    marines: int = Field(ge=0)
    mass_t: int = Field(gt=0, description="Mass in tonnes (tractors, webs: part 2).")
    dilithium: int = Field(ge=0, description="Dilithium crystals (tractors: part 2).")
    cloak: bool = Field(False, description="Carries a cloaking device (module adv-cloak).")
    cloak_cost: int | None = Field(
        None, ge=0, description="Power a game turn of cloak takes; None: the shields' charge."
    )
    torpedo_stores: int = Field(ge=0, description="Torpedoes carried for the battle (ADV-TORP-01).")
    weapons: tuple[AdvWeapon, ...] = ()
    damage_chart: tuple[AdvLocation, ...] = DEFAULT_CHART

    @field_validator("cloak_cost")
    @classmethod
    def _cloak_cost(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and not info.data.get("cloak", False):
            raise ValueError(
                "set on a ship without a cloaking device: set cloak = true, or leave cloak_cost "
                "out (module adv-cloak, ADV-CLOAK-01)"
            )
        return value

    @model_validator(mode="after")
    def _chart(self) -> Self:
        if len(self.damage_chart) != 10:
            raise ValueError(
                f"damage_chart needs 10 rows (one per d10 face), not {self.damage_chart}"
            )
        heavy = [w for w in self.weapons if w.kind is AdvWeaponKind.HEAVY_DISRUPTOR]
        if len(heavy) % 2:
            raise ValueError("heavy disruptors come in pairs (ADV-DIS-02): give an even number")
        return self

    @property
    def total_power(self) -> int:
        """Total power available (TPA) with undamaged engines."""
        return self.warp_port + self.warp_starboard + self.impulse

    @property
    def shield_cost(self) -> int:
        """Power that charges one facing to 100%, and with it all six (ADV-SHLD-01)."""
        return math.ceil(self.shield_points / self.shield_ratio) if self.shield_points else 0

    @property
    def cloak_power(self) -> int:
        """Power one game turn of cloak takes: `cloak_cost`, else the shields' charge."""
        return self.shield_cost if self.cloak_cost is None else self.cloak_cost

    def weapon(self, index: int) -> AdvWeapon:
        """Weapon `index` (0-based, as the sheet numbers them: w0, w1 ...)."""
        return self.weapons[index]


def species_for(faction: str, species: dict[str, Species]) -> Species:
    """The species that crews a faction's ships (first match; 'human' when none claims it)."""
    for s in species.values():
        if faction in s.factions:
            return s
    return species.get("human", Species(id="human"))


def _mount_position(arcs: tuple[Arc, ...], index: int) -> Arc:
    """Where mount `index` of a weapon row sits: forward if it can fire forward, aft if it fires
    only aft, otherwise port and starboard alternately."""
    if Arc.F in arcs:
        return Arc.F
    if Arc.P in arcs and Arc.S in arcs:
        return Arc.P if index % 2 == 0 else Arc.S
    for side in (Arc.P, Arc.S):
        if side in arcs:
            return side
    return Arc.A


def derive(cls: ShipClass, species: Species) -> AdvancedSheet:
    """The advanced sheet that follows from an FPF sheet (the formula in docs/rules.md)."""
    tpa = cls.engine_power + cls.superstructure
    impulse = math.ceil(tpa / 4)
    warp = tpa - impulse
    crew = 12 * cls.superstructure
    weapons: list[AdvWeapon] = []
    stores = 0
    for kind, row in cls.weapons():
        for i, shots in enumerate(row.mounts):
            # what a mount is wherever it sits: its arcs, its place on the hull, its range
            mounted = partial(
                AdvWeapon, arcs=row.arcs, mount=_mount_position(row.arcs, i), range_cm=row.range_cm
            )
            if kind is WeaponKind.PHASER:
                power = max(1, math.ceil(shots * row.strength / 2))
                weapons.append(mounted(kind=species.beam, power=power))
            else:
                damage = max(1, row.strength)
                weapons.append(
                    mounted(
                        kind=AdvWeaponKind.PHOTON, torpedoes=shots, damage=damage, arm_cost=shots
                    )
                )
                stores += 6 * shots
    marine_share = 5 if species.marines >= 4 else 10
    return AdvancedSheet(
        id=cls.id,
        name=cls.name,
        species=species.id,
        warp_port=math.ceil(warp / 2),
        warp_starboard=warp // 2,
        impulse=impulse,
        shield_points=cls.shields,
        shield_ratio=max(1, cls.shields // 4),
        move_cost=1 + cls.superstructure // 20,
        max_moves=cls.max_speed_cm // 4,
        crew=crew,
        marines=crew // marine_share,
        mass_t=5000 * cls.superstructure,
        dilithium=2 + cls.superstructure // 10,
        cloak=False,
        torpedo_stores=stores,
        weapons=tuple(weapons),
    )


class AdvancedPackInfo(BaseModel):
    """The header of the advanced data file."""

    model_config = _frozen()

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    title: str = ""
    data_version: str = Field(pattern=r"^\d+\.\d+\.\d+$")
    base_pack: str = Field(description="The FPF pack whose classes it derives from.")


class AdvancedPack:
    """Species and per-class overrides; sheets for any FPF class, derived then overridden."""

    def __init__(
        self,
        info: AdvancedPackInfo,
        species: dict[str, Species],
        overrides: dict[str, dict[str, Any]],
        source: str,
    ) -> None:
        self.info = info
        self.species = species
        self.overrides = overrides
        self.source = source
        self._sheets: dict[tuple[str, str], AdvancedSheet] = {}

    @property
    def data_version(self) -> str:
        """Version of the advanced data; stored in every advanced battle's log."""
        return self.info.data_version

    def derived(self, cls: ShipClass) -> AdvancedSheet:
        """The formula's sheet for `cls`, before overrides."""
        return derive(cls, species_for(cls.faction.value, self.species))

    def sheet(self, cls: ShipClass) -> AdvancedSheet:
        """The advanced sheet of `cls`: derived, with this pack's overrides for its id."""
        key = (cls.id, cls.model_dump_json())
        found = self._sheets.get(key)
        if found is not None:
            return found
        base = self.derived(cls)
        override = self.overrides.get(cls.id)
        if override:
            merged = base.model_dump() | override
            if "species" in override and override["species"] not in self.species:
                raise DataPackError(
                    f"{self.source}: override '{cls.id}': field 'species': no species "
                    f"'{override['species']}'; known: {', '.join(sorted(self.species))}"
                )
            base = validated(AdvancedSheet, merged, f"{self.source}: override '{cls.id}'")
        self._sheets[key] = base
        return base

    def species_of(self, sheet: AdvancedSheet) -> Species:
        """The species of a sheet."""
        return self.species.get(sheet.species) or Species(id=sheet.species)

    @cached_property
    def overridden(self) -> frozenset[str]:
        """Class ids with an override."""
        return frozenset(self.overrides)


def parse_advanced(text: str, source: str, fpf: ShipPack | None = None) -> AdvancedPack:
    """Validate the advanced data file's TOML; every defect is one message naming the field."""
    raw = read_toml(text, source)
    info = validated(AdvancedPackInfo, raw.get("pack"), source, "pack.", "table [pack]")
    species: dict[str, Species] = {}
    for number, entry in enumerate(raw.get("species", []), start=1):
        s = validated(Species, entry, f"{source}: species #{number}")
        species[s.id] = s
    fpf = fpf or builtin_pack()
    known = {s.id for s in fpf.ships}
    overrides: dict[str, dict[str, Any]] = {}
    for number, entry in enumerate(raw.get("override", []), start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise DataPackError(f"{source}: override #{number}: needs an 'id' naming a ship class")
        ship_id = entry["id"]
        if ship_id not in known:
            raise DataPackError(
                f"{source}: override #{number}: no ship class '{ship_id}' in pack "
                f"'{fpf.pack.id}'; known: {', '.join(sorted(known))}"
            )
        overrides[ship_id] = {k: v for k, v in entry.items() if k != "id"}
    pack = AdvancedPack(info, species, overrides, source)
    for cls in fpf.ships:  # validate every override now, not in the middle of a battle
        pack.sheet(cls)
    return pack


@cache
def advanced_pack() -> AdvancedPack:
    """The built-in advanced data (species, overrides) over the built-in FPF pack."""
    res = resources.files("kolrami.catalog").joinpath("data", ADVANCED_PACK)
    return parse_advanced(res.read_text(encoding="utf-8"), f"kolrami/catalog/data/{ADVANCED_PACK}")
