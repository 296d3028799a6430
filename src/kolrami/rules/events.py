"""The FPF family's events: FPF's, its cards' and Peak Performance's.

Each is a frozen fact in a battle's log. The engine's own events (a ship placed, moved, out of
control or destroyed; turns; orders; the result) are re-exported here, so that readers of an
FPF-family log take every event kind from one module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar

from kolrami.catalog import WeaponKind
from kolrami.engine.eventlog import EventLog
from kolrami.engine.events import EVENT_TYPES
from kolrami.engine.events import BattleEnded
from kolrami.engine.events import BattleStarted
from kolrami.engine.events import Change
from kolrami.engine.events import ControlChanged
from kolrami.engine.events import Event
from kolrami.engine.events import FormationLeft
from kolrami.engine.events import OrderGiven
from kolrami.engine.events import ShipDestroyed
from kolrami.engine.events import ShipMoved
from kolrami.engine.events import ShipPlaced
from kolrami.engine.events import TurnEnded
from kolrami.engine.events import TurnStarted
from kolrami.rules.changes import Sets

__all__ = [
    "CARD_CHANGES",
    "EVENT_TYPES",
    "FPF_EVENTS",
    "BattleEnded",
    "BattleStarted",
    "CardUsed",
    "Change",
    "ControlChanged",
    "Event",
    "EventLog",
    "FireDeclared",
    "FleetPointsAwarded",
    "FormationLeft",
    "HitScored",
    "InitiativeRolled",
    "OrderGiven",
    "Repaired",
    "ReturnPostponed",
    "RollOff",
    "ShipDestroyed",
    "ShipMoved",
    "ShipPlaced",
    "ShipReset",
    "ShipReturned",
    "SquadronActivated",
    "StoppedShort",
    "TurnEnded",
    "TurnStarted",
    "VolleyFired",
]

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState

#: a weapon kind by its name in the log ("phasers"), without an Enum call on the hot path
_KINDS = {f"{kind.value}s": kind for kind in WeaponKind}


def _set_track(ship: ShipState, item: str, value: int) -> bool:
    """Set one of a ship's tracks by its name in the log; False if `item` is not a track (a
    weapon's mount, or the superstructure a hit's `applied_to` names)."""
    match item:
        case "shields":
            ship.shields = value
        case "engine_power":
            ship.engine_power = value
        case "computer":
            ship.systems = value
        case _:
            return False
    return True


#: The numbers of a ship a card may change (CardUsed.changes), each the name of its field on the
#: ship; a weapon's strength and range are "strength:phaser", "range:photon" and so on.
CARD_CHANGES = frozenset(
    {
        "shields",
        "max_shields",
        "engine_power",
        "max_engine",
        "systems",
        "max_systems",
        "damage_control",
        "evasion",
        "superstructure",
    }
    | {f"{what}:{kind.value}" for what in ("strength", "range") for kind in WeaponKind}
)

#: each of CARD_CHANGES as what it sets: ("strength" or "range", the weapon kind) for a
#: weapon's, (the name, None) for the others (worked out once: an Enum call by value is slow)
_CARD_TARGETS: dict[str, tuple[str, WeaponKind | None]] = {
    name: (what, WeaponKind(weapon) if weapon else None)
    for name in CARD_CHANGES
    for what, _, weapon in [name.partition(":")]
}


@dataclass(slots=True)
class CardUsed(Change["Battle"]):
    """A card's effect took hold: `ship` carries `card`, `on` is the ship it changed. `changes`
    are the values it set on `on` (CARD_CHANGES names them; empty when the card changed no
    number, as a re-roll); `detail` says it in words."""

    kind: ClassVar[str] = "card_used"
    card: str
    ship: str
    on: str
    detail: str
    changes: dict[str, int] = field(default_factory=dict)

    def apply(self, battle: Battle) -> None:
        self.apply_values(battle, (self.card, self.ship, self.on, self.detail, self.changes))

    @classmethod
    def apply_values(cls, battle: Battle, values: tuple[Any, ...]) -> None:
        # (straight from the values, no event built)
        _, _, on, _, changes = values
        if not changes:
            return  # a re-roll, a repair team called: the numbers change in their own events
        ship = battle.ships[on]
        for name, value in changes.items():
            target = _CARD_TARGETS.get(name)
            if target is None:
                raise ValueError(f"card_used: a card cannot change {name!r}")
            what, weapon = target
            if weapon is None:
                setattr(ship, name, value)
            elif what == "strength":
                ship.strength[weapon] = value
            else:
                ship.ranges[weapon] = value


@dataclass(slots=True)
class Repaired(Change["Battle"]):
    """A Damage Control point brought an item back (FPF-REP-01, FPF-REP-02, FPF-REP-03, FPF-REP-04,
    FPF-REP-05, FPF-REP-06, FPF-REP-07): `value` is the item's value after it ("phasers.1" is
    the second phaser mount)."""

    kind: ClassVar[str] = "repaired"
    ship: str
    item: str
    value: int

    def apply(self, battle: Battle) -> None:
        self.apply_values(battle, (self.ship, self.item, self.value))

    @classmethod
    def apply_values(cls, battle: Battle, values: tuple[Any, ...]) -> None:
        # (straight from the values, no event built)
        ship_id, item, value = values
        ship = battle.ships[ship_id]
        if not _set_track(ship, item, value):
            name, _, index = item.partition(".")
            kind = _KINDS[name]
            mounts = list(ship.mounts[kind])
            mounts[int(index)] = value
            battle.set_mounts(ship, kind, mounts)


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """Equal-speed roll-off between the sides (FPF-MOV-03); re-rolled ties are all listed."""

    kind: ClassVar[str] = "initiative_rolled"
    speed: int
    rolls: list[list[int]]
    winner: str
    first: str


@dataclass(frozen=True, slots=True)
class SquadronActivated(Event):
    """A squadron is activated (FPF-MOV-01, FPF-MOV-02); `forced_by` for forced activation
    (FPF-MOV-10)."""

    kind: ClassVar[str] = "squadron_activated"
    squadron: str
    forced_by: str | None


@dataclass(frozen=True, slots=True)
class FireDeclared(Event):
    """A ship locks its weapons on a target through one arc (FPF-FIRE-04, FPF-FIRE-05, FPF-FIRE-06,
    FPF-FIRE-11)."""

    kind: ClassVar[str] = "fire_declared"
    ship: str
    target: str
    arc: str
    reaction: bool


@dataclass(frozen=True, slots=True)
class StoppedShort(Event):
    """A ship stopped short of another ship or the table edge (FPF-MOV-08)."""

    kind: ClassVar[str] = "stopped_short"
    ship: str
    of: str
    lost_cm: float


@dataclass(frozen=True, slots=True, init=False)
class VolleyFired(Event):
    """One weapon group of one ship fired at its target (FPF-FIRE-08, FPF-FIRE-09); `at`: where
    the firer and the target stood as it fired, [[x, y, heading], [x, y, heading]] (logs of
    rules fpf-1 do not have it); `exchange`: in a head-on exchange (FPF-FIRE-14), the range
    (whole cm) of the weapons fired together, whose groups each fire the shots their ship had as
    the exchange began, whatever the other side's groups logged before it did to the ship (None
    outside one, and in logs of rules fpf-3 and earlier, which log an exchange's volleys before
    its hits)."""

    kind: ClassVar[str] = "volley_fired"
    ship: str
    target: str
    weapon: str
    shots: int
    strength: int
    shields: int
    range_cm: float
    rolls: list[int]
    at: list[list[float]] | None
    exchange: int | None

    def __init__(
        self,
        ship: str,
        target: str,
        weapon: str,
        shots: int,
        strength: int,
        shields: int,
        range_cm: float,
        rolls: list[int],
        at: Sequence[Sequence[float]] | None = None,
        exchange: int | None = None,
    ) -> None:
        object.__setattr__(self, "exchange", exchange)
        for name, value in (
            ("ship", ship),
            ("target", target),
            ("weapon", weapon),
            ("shots", shots),
            ("strength", strength),
            ("shields", shields),
            ("range_cm", round(range_cm, 3)),
            ("rolls", rolls),
        ):
            object.__setattr__(self, name, value)
        # exact range and positions recorded; shown to the millimetre's tenth, rounded when built
        places = None if at is None else [[round(x, 3), round(y, 3), h] for x, y, h in at]
        object.__setattr__(self, "at", places)


@dataclass(slots=True)
class HitScored(Change["Battle"]):
    """A penetrating shot: its location roll, damage, and what the damage struck (FPF-DMG).

    The values are the target's after the hit: its superstructure, the value of what the damage
    struck (`applied_to`), and for a weapons hit each mount's working shots (`mounts`, in the
    sheet's order; None when no weapon was struck, and in logs of format 1)."""

    kind: ClassVar[str] = "hit_scored"
    hull_of: ClassVar[str | None] = "target"
    ship: str
    target: str
    weapon: str
    location_roll: int
    location: str
    damage: int
    applied_to: str
    superstructure: int
    value: int
    mounts: list[int] | None = None

    def apply(self, battle: Battle) -> None:
        self.apply_values(
            battle,
            (
                self.ship,
                self.target,
                self.weapon,
                self.location_roll,
                self.location,
                self.damage,
                self.applied_to,
                self.superstructure,
                self.value,
                self.mounts,
            ),
        )

    @classmethod
    def apply_values(cls, battle: Battle, values: tuple[Any, ...]) -> None:
        # (straight from the values, no event built: this runs for every hit)
        _, target_id, _, _, _, _, applied, superstructure, value, mounts = values
        target = battle.ships[target_id]
        target.superstructure = superstructure
        # (`_set_track`, written out)
        if applied == "shields":
            target.shields = value
        elif applied == "engine_power":
            target.engine_power = value
        elif applied == "computer":
            target.systems = value
        elif mounts is not None:
            battle.set_mounts(target, _KINDS[applied], mounts)


@dataclass(slots=True)
class ShipReset(Change["Battle"]):
    """Battle simulation: a ship that would be destroyed is reset instead (PP-04, PP-05, PP-06,
    PP-07, PP-08, PP-09, PP-10). `tokens`, `shields` and `cards` are what it has after the
    reset; everything else is back to its own values (format 1 logs lack the last two)."""

    kind: ClassVar[str] = "ship_reset"
    ship: str
    by: str
    tokens: int
    shields: int | None = None
    cards: list[str] | None = None

    def apply(self, battle: Battle) -> None:
        ship = battle.ships[self.ship]
        ship.out_of_play = True
        ship.lock = None
        # PP-06, PP-07, PP-13: all damage goes, knocked-out items work again
        ship.superstructure = ship.cls.superstructure
        ship.engine_power = ship.max_engine
        ship.systems = ship.max_systems
        ship.in_control = True
        for kind, weapon in ship.cls.weapons():
            battle.set_mounts(ship, kind, weapon.mounts)
        ship.tokens = self.tokens
        ship.cards = list(self.cards or ())
        ship.shields = (
            max(0, ship.max_shields - self.tokens) if self.shields is None else self.shields
        )


@dataclass(slots=True)
class ShipReturned(Sets):
    """A reset ship comes back into play in its owner's zone (PP-11, PP-12, PP-13), flying on
    its own at `speed` (format 1 logs lack it: the scenario's starting speed)."""

    kind: ClassVar[str] = "ship_returned"
    on_ship: ClassVar[tuple[str, ...]] = ("x", "y", "heading", "shields")
    ship: str
    x: float
    y: float
    heading: int
    shields: int
    speed: int | None = None

    def then(self, battle: Battle) -> None:
        ship = battle.ships[self.ship]
        speed = battle.scenario.start_speed_cm if self.speed is None else self.speed
        ship.speed = ship.last_speed = speed
        ship.out_of_play = False
        ship.detached = True  # it flies on its own, away from its squadron's column


@dataclass(frozen=True, slots=True)
class ReturnPostponed(Event):
    """No legal spot to return to this turn; the ship tries again next turn (PP-11)."""

    kind: ClassVar[str] = "return_postponed"
    ship: str


@dataclass(frozen=True, slots=True)
class FleetPointsAwarded(Event):
    """Fleet Points scored by `side`: for a kill, a resource or the end bonus (PP-15, PP-16, PP-17,
    PP-18, PP-19, PP-20, PP-21)."""

    kind: ClassVar[str] = "fleet_points_awarded"
    side: str
    points: int
    reason: str
    ship: str
    total: int


@dataclass(frozen=True, slots=True)
class RollOff(Event):
    """A tie settled by each side rolling attack dice; hits and criticals count (OP-24)."""

    kind: ClassVar[str] = "roll_off"
    rolls: list[dict[str, list[str]]]
    winner: str


#: The FPF family's own event kinds (the engine's are in kolrami.engine.events.EVENT_TYPES).
FPF_EVENTS: tuple[type[Event], ...] = (
    CardUsed,
    Repaired,
    InitiativeRolled,
    SquadronActivated,
    FireDeclared,
    StoppedShort,
    VolleyFired,
    HitScored,
    ShipReset,
    ShipReturned,
    ReturnPostponed,
    FleetPointsAwarded,
    RollOff,
)
