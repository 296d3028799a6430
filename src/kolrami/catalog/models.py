"""Pydantic models of the ship data: what an FPF ship sheet says, as typed values.

The models are frozen: a ship class is a definition, never battle state. Battle state (damage,
current shields, speed) lives in the engine and refers back to its ShipClass.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Annotated
from typing import Any
from typing import Self

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import field_validator
from pydantic import model_validator

from kolrami.catalog.names import Names
from kolrami.errors import InvalidInputError
from kolrami.errors import quoted


class Faction(StrEnum):
    """Factions with ship sheets in the built-in packs (the FPF pack and the house pack)."""

    KLINGON = "Klingon"
    FEDERATION = "Federation"
    ROMULAN = "Romulan"
    GORN = "Gorn"
    THOLIAN = "Tholian"
    ORION = "Orion"
    BORG = "Borg"

    @property
    def code(self) -> FactionCode:
        """The Fleet Build Sheet code (FBS-05). The sheet's twelve codes have none for Gorn,
        Tholians or Orions: they are written IND, Independent (docs/rules.md, FBS-05)."""
        return _FACTION_CODES[self]

    @classmethod
    def named(cls, name: str) -> Faction:
        """The faction named `name` (any case, or its FBS-05 code when only one faction has it:
        'rom', 'KLI'); a one-line error listing the known factions otherwise."""
        wanted = name.strip().casefold()
        for f in cls:
            if f.value.casefold() == wanted:
                return f
        by_code = [f for f in cls if f.code.value.casefold() == wanted]
        if len(by_code) == 1:
            return by_code[0]
        known = ", ".join(f.value.lower() for f in cls)
        raise InvalidInputError(f"no faction {quoted(name)}; known factions: {known} (FBS-05)")


class FactionCode(StrEnum):
    """The twelve faction codes of the Fleet Build Sheet (FBS-05)."""

    FED = "FED"
    KLI = "KLI"
    ROM = "ROM"
    DOM = "DOM"
    BOR = "BOR"
    SPE = "SPE"
    KAZ = "KAZ"
    BAJ = "BAJ"
    FER = "FER"
    VUL = "VUL"
    IND = "IND"
    MIR = "MIR"

    @property
    def full_name(self) -> str:
        """The faction's name, e.g. 'Species 8472' for SPE."""
        return _FACTION_NAMES[self]


_FACTION_CODES = {
    Faction.KLINGON: FactionCode.KLI,
    Faction.FEDERATION: FactionCode.FED,
    Faction.ROMULAN: FactionCode.ROM,
    Faction.BORG: FactionCode.BOR,
    # not among FBS-05's twelve codes: Independent (docs/rules.md, FBS-05)
    Faction.GORN: FactionCode.IND,
    Faction.THOLIAN: FactionCode.IND,
    Faction.ORION: FactionCode.IND,
}

_FACTION_NAMES = {
    FactionCode.FED: "Federation",
    FactionCode.KLI: "Klingon",
    FactionCode.ROM: "Romulan",
    FactionCode.DOM: "Dominion",
    FactionCode.BOR: "Borg",
    FactionCode.SPE: "Species 8472",
    FactionCode.KAZ: "Kazon",
    FactionCode.BAJ: "Bajoran",
    FactionCode.FER: "Ferengi",
    FactionCode.VUL: "Vulcan",
    FactionCode.IND: "Independent",
    FactionCode.MIR: "Mirror Universe",
}


class UpgradeType(StrEnum):
    """Upgrade slot types, by their FleetX names; `code` is the sheet's letter (FBS-04)."""

    CREW = "crew"
    TALENT = "talent"
    TECH = "tech"
    WEAPON = "weapon"
    BORG = "borg"
    SQUADRON = "squadron"

    @property
    def code(self) -> str:
        """C, E, T, W, B or S."""
        return _UPGRADE_CODES[self]


_UPGRADE_CODES = {
    UpgradeType.CREW: "C",
    UpgradeType.TALENT: "E",
    UpgradeType.TECH: "T",
    UpgradeType.WEAPON: "W",
    UpgradeType.BORG: "B",
    UpgradeType.SQUADRON: "S",
}


class Arc(StrEnum):
    """The four 90-degree firing arcs of FPF-ARC-01, by their sheet codes (FPF-ARC-03)."""

    F = "F"
    P = "P"
    S = "S"
    A = "A"

    @property
    def full_name(self) -> str:
        """The arc's full name: front, port, starboard or aft."""
        return _ARC_NAMES[self]


_ARC_NAMES = {Arc.F: "front", Arc.P: "port", Arc.S: "starboard", Arc.A: "aft"}
# The sheets also print FWD and AFT (FPF-ARC-03).
_ARC_ALIASES = {"FWD": "F", "AFT": "A"}


class WeaponKind(StrEnum):
    """The two weapon types of the FPF sheets."""

    PHASER = "phaser"
    PHOTON = "photon"


class Location(StrEnum):
    """Hit locations of the d10 location table (FPF-DMG-06)."""

    SHIELDS = "shields"
    ENGINE_POWER = "engine_power"
    PHASERS = "phasers"
    PHOTONS = "photons"
    COMPUTER = "computer"

    @property
    def label(self) -> str:
        """The location as a sheet prints it, e.g. 'Engine Power'."""
        return self.value.replace("_", " ").title()


Face = Annotated[int, Field(ge=1, le=10)]


def _frozen() -> ConfigDict:
    return ConfigDict(frozen=True, extra="forbid")


class Weapon(BaseModel):
    """One weapon row of a ship sheet: where it bears, how hard, how far, and its mounts."""

    model_config = _frozen()

    arcs: tuple[Arc, ...] = Field(min_length=1, description="Arc codes the weapon fires into.")
    strength: int = Field(ge=0, description="Subtracted from the target's shields (FPF-DMG-01).")
    range_cm: int = Field(gt=0, description="Lock-on and firing range, spigot to spigot.")
    mounts: tuple[Annotated[int, Field(gt=0)], ...] = Field(
        min_length=1,
        description="One number per mount as printed: the shots that mount fires per volley.",
    )

    @field_validator("arcs", mode="before")
    @classmethod
    def _arc_aliases(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(_ARC_ALIASES.get(v, v) if isinstance(v, str) else v for v in value)
        return value

    @field_validator("arcs")
    @classmethod
    def _arcs_unique(cls, value: tuple[Arc, ...]) -> tuple[Arc, ...]:
        if len(set(value)) != len(value):
            raise ValueError("an arc is listed twice")
        return value

    @property
    def shots(self) -> int:
        """Shots per volley: the sum of the mounts."""
        return sum(self.mounts)

    def bears(self, arc: Arc) -> bool:
        """Whether this weapon fires into `arc` (FPF-ARC-04)."""
        return arc in self.arcs

    @property
    def arcs_label(self) -> str:
        """Arcs as the sheet writes them, e.g. 'F/P/A'."""
        return "/".join(a.value for a in self.arcs)


class HitLocations(BaseModel):
    """The d10 hit-location table in a sheet's brackets (FPF-DMG-06); face 10 is printed '0'."""

    model_config = _frozen()

    shields: tuple[Face, ...]
    engine_power: tuple[Face, ...]
    phasers: tuple[Face, ...]
    photons: tuple[Face, ...]
    computer: tuple[Face, ...]

    @model_validator(mode="after")
    def _covers_d10_once(self) -> Self:
        faces = [f for loc in Location for f in self.faces(loc)]
        missing = sorted(set(range(1, 11)) - set(faces))
        doubled = sorted({f for f in faces if faces.count(f) > 1})
        if missing or doubled:
            raise ValueError(
                "every d10 face 1-10 must name exactly one location"
                + (f"; missing {missing}" if missing else "")
                + (f"; listed twice {doubled}" if doubled else "")
            )
        return self

    def faces(self, location: Location) -> tuple[int, ...]:
        """The d10 faces that strike `location`."""
        faces: tuple[int, ...] = getattr(self, location.value)
        return faces

    @cached_property
    def by_face(self) -> dict[int, Location]:
        """Face (1-10) to location."""
        return {f: loc for loc in Location for f in self.faces(loc)}

    def probability(self, location: Location) -> float:
        """Chance that one hit lands on `location`."""
        return len(self.faces(location)) / 10

    def probability_exact(self, location: Location) -> Fraction:
        """Chance that one hit lands on `location`, as an exact fraction."""
        return Fraction(len(self.faces(location)), 10)

    def label(self, location: Location) -> str:
        """The bracket label of a sheet row, e.g. '1-4', '5-7' or '0'."""
        shown = sorted(0 if f == 10 else f for f in self.faces(location))
        if len(shown) > 1 and shown == list(range(shown[0], shown[-1] + 1)):
            return f"{shown[0]}-{shown[-1]}"
        return ",".join(str(f) for f in shown)


STANDARD_HIT_LOCATIONS = HitLocations(
    shields=(1, 2, 3, 4), engine_power=(5, 6, 7), phasers=(8,), photons=(9,), computer=(10,)
)


class Slots(BaseModel):
    """Upgrade slots of a ship class, per type (Kolrami's addition to the FPF sheets)."""

    model_config = _frozen()

    crew: int = Field(0, ge=0)
    talent: int = Field(0, ge=0)
    tech: int = Field(0, ge=0)
    weapon: int = Field(0, ge=0)
    borg: int = Field(0, ge=0)
    squadron: int = Field(0, ge=0)

    def of(self, kind: UpgradeType) -> int:
        """Slots of one type."""
        count: int = getattr(self, kind.value)
        return count


class ShipClass(BaseModel):
    """One FPF ship class, every number as printed on its sheet."""

    model_config = _frozen()

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", description="Stable slug, e.g. 'reliant'.")
    faction: Faction
    name: str = Field(min_length=1)
    class_designation: str = Field("", description="Klingon sheets print one (D-7-t); others none.")
    type: str = Field(min_length=1, description="Role as printed, e.g. 'Heavy Cruiser'.")
    registry_prefix: str = ""
    value: int = Field(gt=0, description="Points value of one ship.")
    squadron_value: int = Field(gt=0, description="Points value of a squadron of three.")
    superstructure: int = Field(gt=0)
    shields: int = Field(ge=0)
    engine_power: int = Field(ge=0)
    computer: int = Field(ge=-10, le=10, description="Systems, tracked from +10 to -10.")
    damage_control: int = Field(ge=0)
    max_speed_cm: int = Field(
        40, ge=0, description="0: a fixed base (starbase, outpost) that never moves or turns."
    )
    phasers: Weapon | None = None
    photons: Weapon | None = None
    hit_locations: HitLocations = STANDARD_HIT_LOCATIONS
    slots: Slots = Slots()
    engine_double_damage: bool = Field(
        False, description="Sheet note: engine-location hits count double (see FPF-DATA)."
    )

    @model_validator(mode="after")
    def _squadron_is_three(self) -> Self:
        if self.squadron_value != 3 * self.value:
            raise ValueError(
                f"squadron_value {self.squadron_value} must be 3 x value {self.value} "
                f"= {3 * self.value} (a squadron is three ships, FPF-MASK-02)"
            )
        return self

    def weapon(self, kind: WeaponKind) -> Weapon | None:
        """The weapon row of `kind`, or None when the sheet has none."""
        return self.phasers if kind is WeaponKind.PHASER else self.photons

    @cached_property
    def _weapons(self) -> tuple[tuple[WeaponKind, Weapon], ...]:
        return tuple((k, w) for k in WeaponKind if (w := self.weapon(k)) is not None)

    @cached_property
    def ranges(self) -> dict[WeaponKind, int]:
        """Range in cm of each weapon kind (0 when the sheet has none)."""
        return {k: w.range_cm if (w := self.weapon(k)) is not None else 0 for k in WeaponKind}

    def weapons(self) -> tuple[tuple[WeaponKind, Weapon], ...]:
        """Weapon rows in resolution order: phasers, then photons (FPF-FIRE-08)."""
        return self._weapons

    @cached_property
    def bearing(self) -> dict[Arc, tuple[WeaponKind, ...]]:
        """The weapon kinds that fire into each arc, in resolution order (FPF-ARC-04)."""
        return {a: tuple(k for k, w in self._weapons if w.bears(a)) for a in Arc}

    def arcs_with_weapons(self) -> list[Arc]:
        """Arcs into which at least one weapon bears."""
        return [a for a in Arc if any(w.bears(a) for _, w in self.weapons())]

    @property
    def stationary(self) -> bool:
        """A base: it holds its place and heading all battle (docs/rules.md, "Bases in FPF")."""
        return self.max_speed_cm == 0

    @property
    def title(self) -> str:
        """Name with designation, e.g. 'D-7-t K'T'Roika'."""
        return f"{self.class_designation} {self.name}".strip()


class PackInfo(BaseModel):
    """The header of a data pack."""

    model_config = _frozen()

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    title: str = ""
    data_version: str = Field(pattern=r"^\d+\.\d+\.\d+$")


class ShipPack(BaseModel):
    """A loaded data pack: its header and ship classes in sheet order."""

    model_config = _frozen()

    pack: PackInfo
    ships: tuple[ShipClass, ...]
    #: packs merged in after this one (the built-in house pack): their headers, for the record
    extra_packs: tuple[PackInfo, ...] = ()

    @property
    def data_version(self) -> str:
        """The pack's data version; stored with every result computed from it."""
        return self.pack.data_version

    @cached_property
    def names(self) -> Names[ShipClass]:
        """The classes by name, id, title and designation, found loosely (kolrami.catalog.names)."""
        return Names.of(
            "ship class",
            ((s, s.name, (s.id, s.title, s.class_designation)) for s in self.ships),
        )

    def get(self, name: str) -> ShipClass:
        """Find a class by id, name or designation, loosely ('ktroika', "K'T'Roika", 'D-7-t')."""
        return self.names.find(name)

    def by_faction(self, faction: Faction | None) -> list[ShipClass]:
        """Classes of one faction (all when None), in pack order."""
        return [s for s in self.ships if faction is None or s.faction is faction]
