"""The events of the advanced game's tactics (module adv-tactics, kolrami.rules.advanced.tactics):
tractor beams, transporters and boarding, docking at bases, engines and self-destruct.

The changes are the one door through which these rules change a ship (GUIDE 3.11): each carries
the values after it and `apply` sets them, so the log holds exactly what the battle became and a
reader (the replay, the conformance check) applies the same facts. The rest record the rolls
that led to them. The module's own bookkeeping (who holds whom, who is docked where, the boarding
parties) lives in `TacticsState` under `battle.extensions["adv-tactics"]`, and only these events
write it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.engine.events import Change
from kolrami.engine.events import Event
from kolrami.rules.advanced.state import AdvSets
from kolrami.rules.advanced.state import Officer
from kolrami.rules.advanced.state import kept
from kolrami.rules.advanced.state import state_of
from kolrami.rules.changes import Sets

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

Name = Callable[[str], str]

#: Where the module keeps its state in `battle.extensions`.
TACTICS_KEY = "adv-tactics"


@dataclass(slots=True)
class Tow:
    """A tractor beam: the held ship, the power level, and where the held ship sits relative to
    the holder (it is towed along at that offset, ADV-TRAC-03: it may still turn)."""

    target: str
    level: str
    dx: float
    dy: float


@dataclass(slots=True)
class Party:
    """Boarders on an enemy ship: their side, species, number and the section they fight for
    (1-6 by facing, 'engineering', or 'command' on a base)."""

    side: str
    species: str
    count: int
    section: str


@dataclass(slots=True)
class TacticsState:
    """The tactics module's state of one battle."""

    crystals: dict[str, int] = field(default_factory=dict)
    beams: dict[str, Tow] = field(default_factory=dict)  # by holder
    parties: dict[str, Party] = field(default_factory=dict)  # by boarded ship
    held: dict[str, set[str]] = field(default_factory=dict)  # sections taken, by ship
    sent: dict[str, int] = field(default_factory=dict)  # boarders a ship has sent in all
    docked: dict[str, str] = field(default_factory=dict)  # ship -> base
    captured: set[str] = field(default_factory=set)
    #: ships that transported or are docking this phase: they do not fire (ADV-TRANS-02,
    #: ADV-BASE-04)
    barred: set[str] = field(default_factory=set)
    #: (base, facing) a docking ship approaches through this phase (ADV-BASE-04)
    approach: set[tuple[str, int]] = field(default_factory=set)
    #: facings lowered for this phase: (ship, facing) -> (base, reinforcement) to restore
    lowered: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)
    #: warp levels above the safe speed each ship bought this turn (ADV-WARP-02, ADV-WARP-03)
    strain: dict[str, int] = field(default_factory=dict)
    #: Borg scouts lost so far in the boarding action on each ship (ADV-BRD-03)
    scouts: dict[str, int] = field(default_factory=dict)
    #: ships whose bridge the boarders run: they take no orders to fire or act (ADV-BRD-05)
    seized: set[str] = field(default_factory=set)


def tactics_of(battle: Battle) -> TacticsState:
    """The tactics state of a battle with module adv-tactics on."""
    missing = "module adv-tactics is not playing this battle"
    return kept(battle.extensions, TACTICS_KEY, TacticsState, missing)


def _at(ship: str, x: float, y: float) -> str:
    return f"{ship} at ({x:.1f}, {y:.1f})"


@dataclass(frozen=True, slots=True)
class CrystalsLoaded(Change["Battle"]):
    """The battle's dilithium crystals, from the advanced sheets (ADV-TRAC-04)."""

    kind: ClassVar[str] = "crystals_loaded"
    crystals: dict[str, int]

    def apply(self, battle: Battle) -> None:
        found = TacticsState(crystals=dict(self.crystals))
        battle.extensions[TACTICS_KEY] = found
        state_of(battle).tactics = found


@dataclass(frozen=True, slots=True)
class TractorEngaged(AdvSets):
    """`ship` holds `target` in a tractor beam at `level`, the target at (dx, dy) from it; the
    beam's power is now part of the ship's turn cost (ADV-TRAC-01, ADV-TRAC-02)."""

    kind: ClassVar[str] = "tractor_engaged"
    ship: str
    target: str
    level: str
    on_state: ClassVar[tuple[str, ...]] = ("cost",)
    dx: float
    dy: float
    cost: int

    def then(self, battle: Battle) -> None:
        tactics_of(battle).beams[self.ship] = Tow(self.target, self.level, self.dx, self.dy)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} locks a tractor beam on {name(self.target)} ({self.level})"


@dataclass(frozen=True, slots=True)
class TractorReleased(Change["Battle"]):
    """The beam of `ship` on `target` ends (released, broken, or a ship gone)."""

    kind: ClassVar[str] = "tractor_released"
    ship: str
    target: str
    why: str

    def apply(self, battle: Battle) -> None:
        tactics_of(battle).beams.pop(self.ship, None)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  tractor beam {name(self.ship)} → {name(self.target)} ends: {self.why}"


@dataclass(frozen=True, slots=True)
class Towed(Sets):
    """A tractor beam (or a dock) puts `ship` at (x, y)."""

    kind: ClassVar[str] = "towed"
    on_ship: ClassVar[tuple[str, ...]] = ("x", "y")
    ship: str
    by: str
    x: float
    y: float

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.by)} tows {_at(name(self.ship), self.x, self.y)}"


@dataclass(frozen=True, slots=True)
class CrystalsBurned(AdvSets):
    """A dilithium check went wrong (ADV-TRAC-04, ADV-TRAC-06, ADV-TRAC-08): the crystals the
    ship has left; with none left its engines give no power (ADV-TRAC-07)."""

    kind: ClassVar[str] = "crystals_burned"
    on_state: ClassVar[tuple[str, ...]] = ("warp_port", "warp_starboard", "impulse")
    ship: str
    why: str
    crystals: int
    warp_port: int
    warp_starboard: int
    impulse: int

    def then(self, battle: Battle) -> None:
        tactics_of(battle).crystals[self.ship] = self.crystals

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} {self.why}: {self.crystals} crystal(s) left"


@dataclass(frozen=True, slots=True)
class FacingSet(Change["Battle"]):
    """A shield facing lowered for a phase (transporting, docking: ADV-TRANS-01, ADV-BASE-04) or
    raised again after it; the facing's points after."""

    kind: ClassVar[str] = "facing_set"
    ship: str
    facing: int
    base: int
    reinforcement: int
    why: str
    lowered: bool

    def apply(self, battle: Battle) -> None:
        adv = state_of(battle).of(self.ship)
        key = (self.ship, self.facing)
        t = tactics_of(battle)
        if self.lowered:
            t.lowered.setdefault(key, adv.facing(self.facing))
        else:
            t.lowered.pop(key, None)
        adv.base[self.facing - 1] = self.base
        adv.reinforcement[self.facing - 1] = self.reinforcement

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "lowers" if self.lowered else "raises"
        return f"  {name(self.ship)} {how} shield {self.facing} ({self.why})"


def _transported(t: TacticsState, ship: str, sent: int) -> TacticsState:
    """`ship` has sent `sent` people across in all and may not fire this phase (ADV-TRANS-02)."""
    t.sent[ship] = sent
    t.barred.add(ship)
    return t


@dataclass(frozen=True, slots=True)
class Beamed(Change["Battle"]):
    """`people` boarders beam from `ship` onto `target`'s `section` (ADV-TRANS, ADV-BRD-01);
    the party there now numbers `party`; `ship` may not fire this phase (ADV-TRANS-02)."""

    kind: ClassVar[str] = "beamed"
    ship: str
    target: str
    people: int
    section: str
    party: int
    species: str
    sent: int

    def apply(self, battle: Battle) -> None:
        t = tactics_of(battle)
        side = battle.ships[self.ship].side
        old = t.parties.get(self.target)
        section = old.section if old is not None else self.section
        t.parties[self.target] = Party(side, self.species, self.party, section)
        _transported(t, self.ship, self.sent)

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"  {name(self.ship)} beams {self.people} boarder(s) onto {name(self.target)} "
            f"(section {self.section}; {self.party} aboard)"
        )


@dataclass(frozen=True, slots=True)
class ScoutsLost(Change["Battle"]):
    """`lost` Borg drones beamed singly from `ship` onto `target` as scouts are lost while the
    collective adapts (ADV-BRD-03): `scouts` lost in this action so far; the ship has sent
    `sent` in all and may not fire this phase (ADV-TRANS-02)."""

    kind: ClassVar[str] = "scouts_lost"
    ship: str
    target: str
    lost: int
    scouts: int
    sent: int

    def apply(self, battle: Battle) -> None:
        _transported(tactics_of(battle), self.ship, self.sent).scouts[self.target] = self.scouts

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"  {name(self.ship)} beams {self.lost} drone(s) singly onto {name(self.target)}: "
            "scouts, lost while the collective adapts"
        )


@dataclass(frozen=True, slots=True)
class SectionHeld(AdvSets):
    """What the sections the boarders hold on `ship` do to it (ADV-BRD-05), the values after:
    sensors out while section 1 is held, its warp sides switched off while 4 or 6 is, its
    power cut while the auxiliary bridge (5) is held and engineering is not, and `seized` while
    they run the bridge (2: for the rest of the game turn, for good with 5 as well)."""

    kind: ClassVar[str] = "section_held"
    on_state: ClassVar[tuple[str, ...]] = (
        "sensor_damage",
        "warp_port",
        "warp_starboard",
        "impulse",
    )
    ship: str
    sensor_damage: int
    warp_port: int
    sections: list[str]  # the sections held
    warp_starboard: int
    impulse: int
    seized: bool

    def then(self, battle: Battle) -> None:
        seized = tactics_of(battle).seized
        (seized.add if self.seized else seized.discard)(self.ship)

    def story(self, name: Name, verbose: bool) -> str | None:
        run = "; the boarders run its bridge" if self.seized else ""
        held = ", ".join(self.sections)
        return f"  boarders hold section(s) {held} of {name(self.ship)}{run}"


@dataclass(frozen=True, slots=True)
class BridgeLockedOut(Change["Battle"]):
    """The crew lock the boarders out from the auxiliary bridge at the end of the game turn
    (ADV-BRD-05): `ship` takes its captain's orders again."""

    kind: ClassVar[str] = "bridge_locked_out"
    ship: str

    def apply(self, battle: Battle) -> None:
        tactics_of(battle).seized.discard(self.ship)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)}'s crew lock the boarders out from the auxiliary bridge"


@dataclass(frozen=True, slots=True)
class SectionFought(Change["Battle"]):
    """A boarding fight for `section` of `target` (ADV-BRD-04, ADV-BRD-09): kills, boarders lost
    and left, whether the section fell, the sections held after, the party's next objective,
    and the defenders' casualties after."""

    kind: ClassVar[str] = "section_fought"
    target: str
    section: str
    boarders: int
    defenders: int
    kills: int
    lost: int
    left: int
    taken: bool
    held: list[str]
    next_section: str
    casualties: int
    taken_all: int
    impulse: int

    def apply(self, battle: Battle) -> None:
        t = tactics_of(battle)
        adv = state_of(battle).of(self.target)
        party = t.parties.get(self.target)
        if party is not None:
            if self.left <= 0:
                del t.parties[self.target]
            else:
                party.count, party.section = self.left, self.next_section
        t.held[self.target] = set(self.held)
        adv.casualties, adv.taken = self.casualties, self.taken_all
        adv.impulse = self.impulse

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "taken" if self.taken else "held by the crew"
        return (
            f"  boarders on {name(self.target)} fight for section {self.section}: "
            f"{self.kills} killed, {self.lost} lost, {self.left} left: {how}"
        )


@dataclass(frozen=True, slots=True)
class ShipCaptured(Change["Battle"]):
    """Boarders hold what a capture needs (ADV-BRD-06, ADV-BRD-09): `ship` is `side`'s prize
    and out of the fight."""

    kind: ClassVar[str] = "ship_captured"
    ship: str
    side: str

    def apply(self, battle: Battle) -> None:
        t = tactics_of(battle)
        t.captured.add(self.ship)
        t.parties.pop(self.ship, None)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"[bold]  {name(self.ship)} is captured by side {self.side}[/bold]"


@dataclass(frozen=True, slots=True)
class SelfDestructed(Sets):
    """`ship` destroys itself (ADV-SD-01, ADV-SD-02, ADV-SD-03) with `blast` points against every
    ship next to it."""

    kind: ClassVar[str] = "self_destructed"
    hull_of: ClassVar[str | None] = "ship"
    on_ship: ClassVar[tuple[str, ...]] = ("superstructure",)
    ship: str
    how: str
    blast: int
    superstructure: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"[bold]  {name(self.ship)} self-destructs ({self.how}, blast {self.blast})[/bold]"


@dataclass(frozen=True, slots=True)
class BlastDamage(Sets):
    """An explosion (a breach, an overload) strikes `ship` straight on the superstructure."""

    kind: ClassVar[str] = "blast_damage"
    hull_of: ClassVar[str | None] = "ship"
    on_ship: ClassVar[tuple[str, ...]] = ("superstructure",)
    source: str
    ship: str
    damage: int
    superstructure: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"  the blast of {name(self.source)} strikes {name(self.ship)} for {self.damage}: "
            f"superstructure {self.superstructure}"
        )


@dataclass(frozen=True, slots=True)
class Docked(Sets):
    """`ship` docks with its side's `base` (ADV-BASE-01): it sits in the base's hex, its own
    shields shut down and the base's protect it (ADV-BASE-05)."""

    kind: ClassVar[str] = "docked"
    on_ship: ClassVar[tuple[str, ...]] = ("x", "y")
    ship: str
    base: str
    x: float
    y: float
    shields: list[int]

    def then(self, battle: Battle) -> None:
        t = tactics_of(battle)
        t.docked[self.ship] = self.base
        t.barred.add(self.ship)
        adv = state_of(battle).of(self.ship)
        adv.base = list(self.shields)
        adv.reinforcement = [0] * len(self.shields)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} docks with {name(self.base)}"


@dataclass(frozen=True, slots=True)
class Undocked(Change["Battle"]):
    """`ship` leaves `base` (it moved off, or the base is gone)."""

    kind: ClassVar[str] = "undocked"
    ship: str
    base: str
    why: str

    def apply(self, battle: Battle) -> None:
        tactics_of(battle).docked.pop(self.ship, None)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} leaves {name(self.base)}: {self.why}"


@dataclass(frozen=True, slots=True)
class ShieldsShared(Change["Battle"]):
    """A docked ship's facings stand at its base's (ADV-BASE-05)."""

    kind: ClassVar[str] = "shields_shared"
    ship: str
    base: str
    shields: list[int]

    def apply(self, battle: Battle) -> None:
        adv = state_of(battle).of(self.ship)
        adv.base = list(self.shields)
        adv.reinforcement = [0] * len(self.shields)

    def story(self, name: Name, verbose: bool) -> str | None:
        return None


@dataclass(frozen=True, slots=True)
class DockRepaired(AdvSets):
    """A phase docked (ADV-BASE-02, ADV-BASE-06): superstructure and casualties after."""

    kind: ClassVar[str] = "dock_repaired"
    hull_of: ClassVar[str | None] = "ship"
    on_ship: ClassVar[tuple[str, ...]] = ("superstructure",)
    on_state: ClassVar[tuple[str, ...]] = ("casualties",)
    ship: str
    base: str
    points: int
    back: int
    superstructure: int
    casualties: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"  {name(self.base)} repairs {name(self.ship)}: +{self.points} "
            f"(superstructure {self.superstructure}), {self.back} crew back"
        )


@dataclass(frozen=True, slots=True)
class CrewExchanged(Change["Battle"]):
    """A docked ship swaps its casualties for station personnel (ADV-BASE-07): its casualties
    and the base's after, and the ratings of each shaken officer's replacement."""

    kind: ClassVar[str] = "crew_exchanged"
    ship: str
    base: str
    casualties: int
    base_casualties: int
    officers: dict[str, dict[str, int]]

    def apply(self, battle: Battle) -> None:
        state = state_of(battle)
        adv = state.of(self.ship)
        adv.casualties = self.casualties
        state.of(self.base).casualties = self.base_casualties
        for role, ratings in self.officers.items():
            adv.officers[role] = Officer(role, dict(ratings), replacement=True)

    def story(self, name: Name, verbose: bool) -> str | None:
        new = f", new {', '.join(self.officers)}" if self.officers else ""
        return f"  {name(self.ship)} takes on crew from {name(self.base)}{new}"


@dataclass(frozen=True, slots=True)
class WarpStrained(Event):
    """A Warp Technology saving roll for a warp level above the safe speed (ADV-WARP-02,
    ADV-WARP-03): d100, damage percentage, rating, whether containment held."""

    kind: ClassVar[str] = "warp_strained"
    ship: str
    level: int
    roll: int
    damage_pct: int
    rating: int
    held: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        how = "holds" if self.held else "is LOST"
        return (
            f"  {name(self.ship)} warp level +{self.level}: {self.roll:02d}+{self.damage_pct} vs "
            f"{self.rating}: containment {how}"
        )


@dataclass(frozen=True, slots=True)
class NacelleLost(Change["Battle"]):
    """A nacelle took more than it could absorb (ADV-NAC-01): blown off for good."""

    kind: ClassVar[str] = "nacelle_lost"
    ship: str
    nacelle: str

    def apply(self, battle: Battle) -> None:
        adv = state_of(battle).of(self.ship)
        adv.blown_off = adv.blown_off | {self.nacelle}
        setattr(adv, self.nacelle, 0)

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)}'s {self.nacelle.replace('_', ' ')} nacelle is blown off"


#: Every tactics event, for the registry's log reader.
TACTICS_EVENTS: tuple[type[Event], ...] = (
    CrystalsLoaded,
    TractorEngaged,
    TractorReleased,
    Towed,
    CrystalsBurned,
    FacingSet,
    Beamed,
    ScoutsLost,
    SectionFought,
    SectionHeld,
    BridgeLockedOut,
    ShipCaptured,
    SelfDestructed,
    BlastDamage,
    Docked,
    Undocked,
    ShieldsShared,
    DockRepaired,
    CrewExchanged,
    WarpStrained,
    NacelleLost,
)
