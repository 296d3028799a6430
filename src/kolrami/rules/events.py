"""The FPF family's events: FPF's, its cards' and Peak Performance's (GUIDE 3.4).

Each is a frozen fact in a battle's log. The engine's own events (a ship placed, moved, out of
control or destroyed; turns; orders; the result) are re-exported here, so that readers of an
FPF-family log take every event kind from one module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from kolrami.engine.events import (
    EVENT_TYPES,
    BattleEnded,
    BattleStarted,
    ControlChanged,
    Event,
    EventLog,
    FormationLeft,
    OrderGiven,
    ShipDestroyed,
    ShipMoved,
    ShipPlaced,
    TurnEnded,
    TurnStarted,
)

__all__ = [
    "EVENT_TYPES",
    "FPF_EVENTS",
    "BattleEnded",
    "BattleStarted",
    "CardUsed",
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


@dataclass(frozen=True, slots=True)
class CardUsed(Event):
    """A card's effect took hold: `ship` carries `card`, `on` is the ship it changed."""

    kind: ClassVar[str] = "card_used"
    card: str
    ship: str
    on: str
    detail: str


@dataclass(frozen=True, slots=True)
class Repaired(Event):
    """A Damage Control point brought an item back (FPF-REP-01, FPF-REP-02, FPF-REP-03, FPF-REP-04,
    FPF-REP-05, FPF-REP-06, FPF-REP-07)."""

    kind: ClassVar[str] = "repaired"
    ship: str
    item: str
    value: int


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
    rules fpf-1 do not have it)."""

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
    ) -> None:
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


@dataclass(frozen=True, slots=True)
class HitScored(Event):
    """A penetrating shot: its location roll, damage, and what the damage struck (FPF-DMG)."""

    kind: ClassVar[str] = "hit_scored"
    ship: str
    target: str
    weapon: str
    location_roll: int
    location: str
    damage: int
    applied_to: str
    superstructure: int
    value: int


@dataclass(frozen=True, slots=True)
class ShipReset(Event):
    """Battle simulation: a ship that would be destroyed is reset instead (PP-04, PP-05, PP-06,
    PP-07, PP-08, PP-09, PP-10)."""

    kind: ClassVar[str] = "ship_reset"
    ship: str
    by: str
    tokens: int


@dataclass(frozen=True, slots=True)
class ShipReturned(Event):
    """A reset ship comes back into play in its owner's zone (PP-11, PP-12, PP-13)."""

    kind: ClassVar[str] = "ship_returned"
    ship: str
    x: float
    y: float
    heading: int
    shields: int


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
