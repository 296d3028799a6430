"""The advanced game's events (GUIDE 3.4): every change the advanced driver makes, one frozen
event each. They are registered with kolrami.engine.events, so logs with them parse back.

Each event can tell itself in one line (`story`) for `kolrami battle`'s narration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.engine.events import Change
from kolrami.engine.events import Event
from kolrami.rules.changes import Sets

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

Name = Callable[[str], str]


def _d100(roll: int, modifier: int, rating: int) -> str:
    """A percentile check as the log shows it: `d100 07+2 vs 61`."""
    mod = f"{modifier:+d}" if modifier else ""
    return f"d100 {roll:02d}{mod} vs {rating}"


FACINGS = {1: "fwd-port", 2: "fwd", 3: "fwd-stbd", 4: "aft-stbd", 5: "aft", 6: "aft-port"}


@dataclass(frozen=True, slots=True)
class AdvancedStarted(Event):
    """The advanced driver took over: its rules version, data version, hex size, phases a turn."""

    kind: ClassVar[str] = "advanced_started"
    rules_version: str
    data_version: str
    hex_cm: int
    phases: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"[bold]Advanced game[/] (rules {self.rules_version}, data {self.data_version}): "
            f"{self.phases} phases a turn, 1 hex = {self.hex_cm} cm"
        )


@dataclass(frozen=True, slots=True)
class OfficersAssigned(Event):
    """A ship's six officers and their ratings (ADV-OFF-01, ADV-OFF-02)."""

    kind: ClassVar[str] = "officers_assigned"
    ship: str
    officers: dict[str, dict[str, int]]

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose:
            return None
        parts = [
            f"{role} " + "/".join(str(v) for v in skills.values())
            for role, skills in self.officers.items()
        ]
        return f"  officers of {name(self.ship)}: " + ", ".join(parts)


@dataclass(frozen=True, slots=True)
class TacticalAdvantage(Event):
    """The captains' opposed roll for Tactical Advantage (ADV-SEQ-04); ties re-rolled."""

    kind: ClassVar[str] = "tactical_advantage"
    ratings: dict[str, int]
    rolls: list[dict[str, int]]
    winner: str

    def story(self, name: Name, verbose: bool) -> str | None:
        last = self.rolls[-1]
        return (
            f"  Tactical Advantage: A {last.get('A')} vs {self.ratings.get('A')}, "
            f"B {last.get('B')} vs {self.ratings.get('B')}: side {self.winner}"
        )


@dataclass(slots=True)
class BonusRolled(Sets):
    """One officer's bonus roll (ADV-OFF-03, ADV-OFF-04, ADV-OFF-05, ADV-OFF-06, ADV-OFF-07,
    ADV-OFF-08, ADV-OFF-09, ADV-OFF-10, ADV-OFF-11): the check and what it did; a Change of
    the ship's superstructure (the hull bonus; the other benefits are the officers' own
    state, kept by the module)."""

    kind: ClassVar[str] = "bonus_rolled"
    hull_of: ClassVar[str | None] = "ship"
    on_ship: ClassVar[tuple[str, ...]] = ("superstructure",)
    ship: str
    officer: str
    choice: str
    roll: int
    modifier: int
    rating: int
    outcome: str
    effect: str
    superstructure: int

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose and self.outcome != "exceptional":
            return None  # the routine ones show with --verbose
        return (
            f"  bonus {name(self.ship)} {self.officer} {self.choice}: "
            f"{_d100(self.roll, self.modifier, self.rating)} {self.outcome}"
            + (f" → {self.effect}" if self.effect else "")
        )


@dataclass(frozen=True, slots=True)
class CasualtiesRecovered(Event):
    """Casualties back on duty at the start of a turn (ADV-CAS-02)."""

    kind: ClassVar[str] = "casualties_recovered"
    ship: str
    recovered: int
    casualties: int

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose:
            return None
        return f"  {name(self.ship)}: {self.recovered} back on duty, {self.casualties} casualties"


@dataclass(frozen=True, slots=True)
class SensorLock(Event):
    """A sensor lock tried (roll > 0) or kept (roll 0) (ADV-SENS-01, ADV-SENS-04)."""

    kind: ClassVar[str] = "sensor_lock"
    ship: str
    target: str
    roll: int
    modifier: int
    rating: int
    locked: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        if self.roll == 0:
            return f"  {name(self.ship)} keeps its lock on {name(self.target)}" if verbose else None
        how = "locked" if self.locked else "no lock"
        return (
            f"  sensors {name(self.ship)} → {name(self.target)}: "
            f"{_d100(self.roll, self.modifier, self.rating)}: {how}"
        )


@dataclass(frozen=True, slots=True)
class LockLost(Event):
    """A sensor lock ends: target gone, sensors hit, another target chosen (ADV-SENS-04)."""

    kind: ClassVar[str] = "lock_lost"
    ship: str
    target: str
    reason: str

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"  {name(self.ship)} loses its lock on {name(self.target)} ({self.reason})"


@dataclass(frozen=True, slots=True)
class PowerAllocated(Event):
    """A ship's power for the game turn (ADV-POW-01, ADV-SHLD-01, ADV-SHLD-02, ADV-SHLD-03,
    ADV-SHLD-04, ADV-SHLD-05, ADV-SHLD-06)."""

    kind: ClassVar[str] = "power_allocated"
    ship: str
    available: int
    cost: int
    plan: str
    shields_up: bool
    base: list[int]
    reinforcement: list[int]

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose:
            return None
        shields = "/".join(str(b) for b in self.base) if self.shields_up else "down"
        return (
            f"  power {name(self.ship)}: {self.cost} of {self.available} ({self.plan}); "
            f"shields {shields}"
        )


@dataclass(frozen=True, slots=True)
class PowerCut(Event):
    """Engine damage left less power than allocated: allocations cut back (ADV-POW-01)."""

    kind: ClassVar[str] = "power_cut"
    ship: str
    available: int
    allocated: int
    cut: list[str]

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"  {name(self.ship)} powers down to {self.available}: " + ", ".join(self.cut)
            if self.cut
            else None
        )


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    """One of the game turn's phases begins (ADV-SEQ-02)."""

    kind: ClassVar[str] = "phase_started"
    turn: int
    phase: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return f"[dim]— phase {self.turn}.{self.phase}[/dim]"


@dataclass(frozen=True, slots=True)
class FireCheck(Event):
    """A Weapons check for manual fire (ADV-FIRE-03) or an aimed lock (ADV-LOCK-01)."""

    kind: ClassVar[str] = "fire_check"
    ship: str
    target: str
    purpose: str
    roll: int
    modifier: int
    rating: int
    passed: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        verdict = "passed" if self.passed else "failed"
        return (
            f"    {self.purpose} check {name(self.ship)} → {name(self.target)}: "
            f"{_d100(self.roll, self.modifier, self.rating)} {verdict}"
        )


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """One to-hit roll: a beam attack, or one torpedo of a salvo (ADV-FIRE, ADV-TORP-01)."""

    kind: ClassVar[str] = "attack_rolled"
    ship: str
    target: str
    weapons: list[int]
    weapon: str
    range_cm: float
    needed: int
    roll: int
    modifier: int
    hit: bool
    damage: int

    def story(self, name: Name, verbose: bool) -> str | None:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        ws = "+".join(f"w{w}" for w in self.weapons)
        result = f"[bold]hit[/] for {self.damage}" if self.hit else "miss"
        return (
            f"  {name(self.ship)} {ws} {self.weapon} → {name(self.target)} at "
            f"{self.range_cm:.1f} cm: d10 {self.roll}{mod} needs {self.needed} or less: {result}"
        )


@dataclass(slots=True)
class DamageDealt(Change["Battle"]):
    """A hit on a facing: what the shield absorbed (reinforcement first, ADV-SHLD-07), what got
    through, the location it struck and its effect (superstructure after); a Change of the
    target's superstructure (the shields and systems are the module's own state)."""

    kind: ClassVar[str] = "damage_dealt"
    hull_of: ClassVar[str | None] = "target"
    ship: str
    target: str
    facing: int
    damage: int
    absorbed: int
    through: int
    location_roll: int
    shift: int
    location: str
    aimed: bool
    effect: str
    reinforcement: int
    base: int
    superstructure: int

    def apply(self, battle: Battle) -> None:
        battle.ships[self.target].superstructure = self.superstructure

    def story(self, name: Name, verbose: bool) -> str | None:
        face = FACINGS.get(self.facing, str(self.facing))
        line = (
            f"      shield {self.facing} ({face}) takes {self.damage}: {self.absorbed} absorbed, "
            f"left {self.base}" + (f"+{self.reinforcement}" if self.reinforcement else "")
        )
        if self.through:
            how = "aimed" if self.aimed else f"d10 {self.location_roll % 10}"
            shift = f" shifted {self.shift:+d}" if self.shift else ""
            line += (
                f"; {self.through} through → {self.location.replace('_', ' ')} ({how}{shift})"
                f"{': ' + self.effect if self.effect else ''}, superstructure "
                f"{self.superstructure}"
            )
        return line


@dataclass(slots=True)
class Evaded(Sets):
    """A ship turned one hexside to evade torpedoes (ADV-EVA-01, ADV-EVA-02, ADV-EVA-03): a
    Change of its superstructure (the stress; the turn itself is the ShipMoved before it)."""

    kind: ClassVar[str] = "evaded"
    hull_of: ClassVar[str | None] = "ship"
    on_ship: ClassVar[tuple[str, ...]] = ("superstructure",)
    ship: str
    turn: int
    heading: int
    roll: int
    modifier: int
    rating: int
    outcome: str
    superstructure: int

    def story(self, name: Name, verbose: bool) -> str | None:
        return (
            f"  {name(self.ship)} evades ({self.turn:+d} hexside, 1 stress): Helm Ops "
            f"{_d100(self.roll, self.modifier, self.rating)} {self.outcome}"
        )


@dataclass(frozen=True, slots=True)
class CasualtiesTaken(Event):
    """Crew out of action from a hit (ADV-CAS-01, ADV-CAS-04); fatalities are 15% of all taken."""

    kind: ClassVar[str] = "casualties_taken"
    ship: str
    amount: int
    casualties: int
    fatalities: int

    def story(self, name: Name, verbose: bool) -> str | None:
        if not verbose:
            return None
        return (
            f"      {name(self.ship)}: {self.amount} casualties ({self.casualties} out of "
            f"action, {self.fatalities} dead)"
        )


@dataclass(frozen=True, slots=True)
class OfficerShaken(Event):
    """A bridge hit shakes an officer; the third time he dies and is replaced (ADV-OFF-04)."""

    kind: ClassVar[str] = "officer_shaken"
    ship: str
    officer: str
    times: int
    out: int
    replacement: dict[str, int] | None

    def story(self, name: Name, verbose: bool) -> str | None:
        if self.replacement is not None:
            return (
                f"      {name(self.ship)}'s {self.officer} is killed; replacement rated "
                + "/".join(str(v) for v in self.replacement.values())
            )
        return f"      {name(self.ship)}'s {self.officer} is shaken ({self.times}x)"


@dataclass(frozen=True, slots=True)
class ShieldsRedistributed(Event):
    """An end-of-phase redistribution tried with a Shield Tech check (ADV-SEQ-05)."""

    kind: ClassVar[str] = "shields_redistributed"
    ship: str
    roll: int
    modifier: int
    rating: int
    passed: bool
    base: list[int]

    def story(self, name: Name, verbose: bool) -> str | None:
        if not self.passed and not verbose:
            return None
        now = "/".join(str(b) for b in self.base)
        result = f"shields now {now}" if self.passed else "no change"
        return (
            f"  shields {name(self.ship)}: Shield Tech "
            f"{_d100(self.roll, self.modifier, self.rating)}: {result}"
        )


@dataclass(frozen=True, slots=True)
class CloakChanged(Event):
    """A ship's cloak goes on or off: engaged or dropped at power allocation, dropped for one
    phase's fire and back after it (ADV-CLOAK-01), or lost for want of power."""

    kind: ClassVar[str] = "cloak_changed"
    ship: str
    hidden: bool
    why: str

    def story(self, name: Name, verbose: bool) -> str | None:
        verb = "vanishes under its cloak" if self.hidden else "shimmers into view"
        return f"  {name(self.ship)} {verb} ({self.why})"


@dataclass(frozen=True, slots=True)
class CloakSearch(Event):
    """A sensor search of one facing for a cloaked ship (ADV-SENS-02): the Sensors check, then
    the d10 (with the target engineer's Cloak Tech modifier, ADV-OFF-09). `target` is the cloaked
    ship the sweep could find ("" when none is there); the searcher learns only `locked`."""

    kind: ClassVar[str] = "cloak_search"
    ship: str
    facing: int
    target: str
    roll: int
    modifier: int
    rating: int
    passed: bool
    d10: int
    d10_modifier: int
    needed: int
    moved: bool
    locked: bool
    note: str

    def story(self, name: Name, verbose: bool) -> str | None:
        line = (
            f"  {name(self.ship)} sweeps facing {self.facing} for cloaked ships: sensors "
            f"{_d100(self.roll, self.modifier, self.rating)}"
        )
        if self.passed:
            mod = f"{self.d10_modifier:+d}" if self.d10_modifier else ""
            line += f", d10 {self.d10 % 10}{mod} needs {self.needed} or less"
        if self.note:
            line += f" ({self.note})"
        found = f"locked on {name(self.target)}" if self.locked else "nothing"
        return f"{line}: {found}"


@dataclass(frozen=True, slots=True)
class CloakPinged(Event):
    """A ship holding a lock on a cloaked ship tries to ping it (ADV-CLOAK-03); a ping shows
    the sensing ship its position, speed and heading for the phase."""

    kind: ClassVar[str] = "cloak_pinged"
    ship: str
    target: str
    d10: int
    needed: int
    moved: bool
    pinged: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        if not self.pinged and not verbose:
            return None
        why = "" if self.moved else " (it did not move)"
        result = "[bold]pinged[/]" if self.pinged else "no ping"
        return (
            f"  {name(self.ship)} pings {name(self.target)}: d10 {self.d10 % 10} needs "
            f"{self.needed} or less{why}: {result}"
        )


@dataclass(frozen=True, slots=True)
class CloakSave(Event):
    """A cloaked ship's Cloak Tech check (ADV-CLOAK-04: a hit through the cloak stands only if
    it fails, and then its next move is shown to everyone)."""

    kind: ClassVar[str] = "cloak_save"
    ship: str
    attacker: str
    roll: int
    modifier: int
    rating: int
    passed: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        result = "the cloak holds, the shot misses" if self.passed else "hit, and revealed"
        return (
            f"    {name(self.ship)} Cloak Tech {_d100(self.roll, self.modifier, self.rating)}: "
            f"{result}"
        )


@dataclass(frozen=True, slots=True)
class DispersalRolled(Event):
    """One dispersal torpedo fired at a point to hunt a cloaked ship (ADV-CLOAK-07, ADV-CLOAK-08):
    to-hit, the 1-3 hunt roll, and the rolled share of half its damage."""

    kind: ClassVar[str] = "dispersal_rolled"
    ship: str
    weapon: int
    x: int
    y: int
    target: str
    needed: int
    roll: int
    modifier: int
    hunt: int
    hit: bool
    share: int
    reroll: int
    damage: int
    revealed: bool

    def story(self, name: Name, verbose: bool) -> str | None:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        line = (
            f"  {name(self.ship)} w{self.weapon} dispersal torpedo at ({self.x}, {self.y}): d10 "
            f"{self.roll}{mod} needs {self.needed}, hunt d10 {self.hunt % 10} needs 3"
        )
        if not self.hit:
            return line + (": nothing there" if not self.target else ": misses")
        share = f"share d10 {self.share % 10}" + (
            f", again {self.reroll % 10}" if self.reroll else ""
        )
        tail = ", [bold]position revealed[/]" if self.revealed else ""
        return f"{line}: catches {name(self.target)} ({share}) for {self.damage}{tail}"


@dataclass(frozen=True, slots=True)
class TrafficDecoded(Event):
    """A side reads the enemy's decoded traffic: their power plans this turn (ADV-OFF-12)."""

    kind: ClassVar[str] = "traffic_decoded"
    side: str
    plans: dict[str, str]

    def story(self, name: Name, verbose: bool) -> str | None:
        plans = ", ".join(f"{name(s)} {p}" for s, p in self.plans.items())
        return f"  side {self.side} decodes the enemy's orders: {plans}"


ADVANCED_EVENTS: tuple[type[Event], ...] = (
    AdvancedStarted,
    OfficersAssigned,
    TacticalAdvantage,
    BonusRolled,
    CasualtiesRecovered,
    SensorLock,
    LockLost,
    PowerAllocated,
    PowerCut,
    PhaseStarted,
    FireCheck,
    AttackRolled,
    DamageDealt,
    Evaded,
    CasualtiesTaken,
    OfficerShaken,
    ShieldsRedistributed,
    CloakChanged,
    CloakSearch,
    CloakPinged,
    CloakSave,
    DispersalRolled,
    TrafficDecoded,
)
