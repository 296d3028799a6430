"""The events of the advanced game's terrain (module adv-terrain, kolrami.rules.advanced.terrain).

The changes are the one door through which terrain changes a ship (GUIDE 3.11): each carries the
values after it and `apply` sets them, so the log holds exactly what the battle became. The rest
record the rolls that led to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.engine.events import Change
from kolrami.engine.events import Event
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.state import AdvSets
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.state import Surroundings
from kolrami.rules.advanced.state import state_of
from kolrami.rules.changes import Sets

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

Name = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class SurroundingsChanged(Change["Battle"]):
    """A ship's surroundings changed as it moved or the terrain did (entered or left a nebula,
    a storm, a disk ring, an atmosphere layer, a magnetar's reach, an orbit)."""

    kind: ClassVar[str] = "surroundings_changed"
    ship: str
    nebula: bool
    storm: bool
    disk: int
    layer: int
    pull: bool
    orbit: int

    def apply(self, battle: Battle) -> None:
        state_of(battle).of(self.ship).around = Surroundings(
            self.nebula, self.storm, self.disk, self.layer, self.pull, self.orbit
        )

    def story(self, name: Name, verbose: bool) -> str | None:
        parts = [
            what
            for what, on in (
                ("in a nebula", self.nebula),
                ("in an ion storm", self.storm),
                (f"accretion disk depth {self.disk}", self.disk),
                (f"gas giant layer {self.layer}", self.layer),
                ("in a magnetar's pull", self.pull),
                ("in standard orbit", self.orbit >= 0),
            )
            if on
        ]
        return f"  {name(self.ship)} is now {', '.join(parts) or 'in open space'}"


@dataclass(frozen=True, slots=True)
class TerrainDamage(Change["Battle"]):
    """Terrain struck a ship: `damage` on shield `facing` (0: straight to the superstructure),
    what the facing absorbed, and the facing's points and the superstructure after."""

    kind: ClassVar[str] = "terrain_damage"
    hull_of: ClassVar[str | None] = "ship"
    ship: str
    source: str
    facing: int
    damage: int
    absorbed: int
    base: int
    reinforcement: int
    superstructure: int

    def apply(self, battle: Battle) -> None:
        adv = state_of(battle).of(self.ship)
        if self.facing:
            adv.base[self.facing - 1] = self.base
            adv.reinforcement[self.facing - 1] = self.reinforcement
        adv.ship.superstructure = self.superstructure

    def story(self, name: Name, verbose: bool) -> str | None:
        where = f"shield {self.facing}" if self.facing else "the hull"
        return (
            f"  {self.source} strikes {name(self.ship)}: {self.damage} on {where}, "
            f"{self.absorbed} absorbed, superstructure {self.superstructure}"
        )


@dataclass(frozen=True, slots=True)
class TerrainMoved(Sets):
    """Terrain moved a ship (a black hole's drag, a magnetar's pull, standard orbit)."""

    kind: ClassVar[str] = "terrain_moved"
    on_ship: ClassVar[tuple[str, ...]] = ("x", "y")
    ship: str
    cause: str
    x: float
    y: float

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {self.cause} moves {name(self.ship)} to ({self.x:.1f}, {self.y:.1f})"


@dataclass(frozen=True, slots=True)
class MineRolled(Event):
    """A ship in a mined hex: the d10 against the detonation number, and if the mine went off
    the helmsman's d100 against half Helm Ops to dodge it (ADV-MINE-04, ADV-MINE-05)."""

    kind: ClassVar[str] = "mine_rolled"
    ship: str
    mine: str
    roll: int
    needed: int
    exploded: bool
    dodge_roll: int
    dodge_rating: int
    dodged: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        line = f"  mine {self.mine} under {name(self.ship)}: d10 {self.roll} vs {self.needed}"
        if not self.exploded:
            return line + ": holds" if verbose else None
        how = "dodged" if self.dodged else "hit"
        return line + f": explodes; Helm Ops {self.dodge_roll:02d} vs {self.dodge_rating}: {how}"


@dataclass(frozen=True, slots=True)
class TerrainCheck(Event):
    """A roll terrain asked for: a nebula's sensing d10 (ADV-NEB-02), a disk's debris Helm Ops
    check (ADV-BH-02), a black hole's Cloak Tech interference roll (ADV-CLOAK-09)."""

    kind: ClassVar[str] = "terrain_check"
    ship: str
    what: str
    roll: int
    needed: int
    passed: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose and self.passed:
            return None
        how = "passed" if self.passed else "failed"
        return f"  {self.what} {name(self.ship)}: {self.roll} vs {self.needed}: {how}"


def terrain_check(battle: Battle, adv: AdvShip, what: str, rating: int) -> bool:
    """Roll a check the terrain asks of `adv` against `rating` (with the ship's penalty), log it
    as a TerrainCheck named `what`, and say whether it passed."""
    result = check(battle.dice, rating, adv.penalty)
    passed = result.outcome.passed
    battle.note(TerrainCheck, adv.id, what, result.roll + result.modifier, result.rating, passed)
    return passed


@dataclass(frozen=True, slots=True)
class MineLaid(AdvSets):
    """A ship laid mine `mine` where it stands, spending one missile casing from its torpedo
    stores, `stores` left (ADV-MINE-02). Only its own side's view shows the mine."""

    kind: ClassVar[str] = "mine_laid"
    on_state: ClassVar[tuple[str, ...]] = ("stores",)
    ship: str
    mine: str
    x: float
    y: float
    stores: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} lays mine {self.mine} ({self.stores} casings left)"


@dataclass(frozen=True, slots=True)
class MineFired(Event):
    """A firing mine shot at the nearest enemy ship in its reach: the d10 against the number
    it needs, and the damage on the facing toward it when it hit (ADV-MINE-09)."""

    kind: ClassVar[str] = "mine_fired"
    mine: str
    ship: str
    roll: int
    needed: int
    hit: bool
    damage: int

    def story(self, name: Name, verbose: bool) -> str | None:
        how = f"hit for {self.damage}" if self.hit else "miss"
        who = name(self.ship)
        return f"  firing mine {self.mine} shoots at {who}: d10 {self.roll} vs {self.needed}: {how}"


@dataclass(frozen=True, slots=True)
class MineShot(Event):
    """A ship fired at a firing mine: the to-hit roll (with its modifier) against the number;
    one point of damage destroys the mine (ADV-MINE-09)."""

    kind: ClassVar[str] = "mine_shot"
    ship: str
    mine: str
    weapons: list[int]
    needed: int
    roll: int
    modifier: int
    hit: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "destroyed" if self.hit else "miss"
        roll = f"d10 {self.roll}{self.modifier:+d} vs {self.needed}"
        return f"  {name(self.ship)} fires at mine {self.mine}: {roll}: {how}"


#: Every terrain event, for the registry's log reader.
TERRAIN_EVENTS: tuple[type[Event], ...] = (
    SurroundingsChanged,
    TerrainDamage,
    TerrainMoved,
    MineLaid,
    MineFired,
    MineShot,
    MineRolled,
    TerrainCheck,
)
