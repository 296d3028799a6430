"""Battle events: every change to a battle is one frozen event in its log (GUIDE 3.4).

The log is the replay, the report, the test oracle and the RL trace. Recording must be cheap
(it sits on the hot path of every shot), so the log keeps compact records, (event class, field
values), and builds the event objects only when someone reads them. Positions are rounded to
0.001 cm in the log so the JSON form is short and stable.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; `kind` is the name in the JSON log."""

    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object: {"e": kind, field: value, ...}."""
        out: dict[str, Any] = {"e": self.kind}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    """Header: everything needed to re-run the battle (GUIDE 3.4)."""

    kind: ClassVar[str] = "battle_started"
    header: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ShipPlaced(Event):
    """A ship deployed at the start of the battle."""

    kind: ClassVar[str] = "ship_placed"
    ship: str
    cls: str
    side: str
    squadron: str
    x: float
    y: float
    heading: int


@dataclass(frozen=True, slots=True)
class CardUsed(Event):
    """A card's effect took hold: `ship` carries `card`, `on` is the ship it changed."""

    kind: ClassVar[str] = "card_used"
    card: str
    ship: str
    on: str
    detail: str


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A new turn begins."""

    kind: ClassVar[str] = "turn_started"
    turn: int


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
class OrderGiven(Event):
    """A captain's answer to a decision, in its text form (kolrami.engine.orders).

    Every order is logged, so a battle can be re-run from its header and these orders alone,
    whoever gave them (GUIDE 3.4).
    """

    kind: ClassVar[str] = "order_given"
    side: str
    order: str

    def __post_init__(self) -> None:
        # The log keeps the (immutable) order itself, which is cheap; its text form is made
        # only when the event is built.
        if not isinstance(self.order, str):
            object.__setattr__(self, "order", str(self.order))


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
class ShipMoved(Event):
    """A ship moved along a path of waypoints; `speed` is what it records for next turn."""

    kind: ClassVar[str] = "ship_moved"
    ship: str
    path: list[list[float]]
    heading: int
    speed: int
    distance: float

    def __post_init__(self) -> None:
        # The engine records the exact path as a tuple of (x, y) points and the exact distance;
        # the event shows them to the millimetre's tenth, rounded only when it is built.
        if isinstance(self.path, tuple):
            object.__setattr__(self, "path", [[round(x, 3), round(y, 3)] for x, y in self.path])
        object.__setattr__(self, "distance", round(self.distance, 3))


@dataclass(frozen=True, slots=True)
class StoppedShort(Event):
    """A ship stopped short of another ship or the table edge (FPF-MOV-08)."""

    kind: ClassVar[str] = "stopped_short"
    ship: str
    of: str
    lost_cm: float


@dataclass(frozen=True, slots=True)
class VolleyFired(Event):
    """One weapon group of one ship fired at its target (FPF-FIRE-08, FPF-FIRE-09)."""

    kind: ClassVar[str] = "volley_fired"
    ship: str
    target: str
    weapon: str
    shots: int
    strength: int
    shields: int
    range_cm: float
    rolls: list[int]


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
class ControlChanged(Event):
    """A ship lost or regained control (FPF-DMG-13, FPF-MOV-12)."""

    kind: ClassVar[str] = "control_changed"
    ship: str
    in_control: bool


@dataclass(frozen=True, slots=True)
class ShipDestroyed(Event):
    """Superstructure reached 0 (FPF-DMG-11)."""

    kind: ClassVar[str] = "ship_destroyed"
    ship: str
    by: str
    derelict: bool


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


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The turn is over."""

    kind: ClassVar[str] = "turn_ended"
    turn: int


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """The result: winner ('A', 'B' or None for a draw), why, and the points destroyed."""

    kind: ClassVar[str] = "battle_ended"
    winner: str | None
    reason: str
    turns: int
    destroyed_value: dict[str, int]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        BattleStarted,
        ShipPlaced,
        TurnStarted,
        CardUsed,
        Repaired,
        InitiativeRolled,
        SquadronActivated,
        OrderGiven,
        FireDeclared,
        ShipMoved,
        StoppedShort,
        VolleyFired,
        HitScored,
        ControlChanged,
        ShipDestroyed,
        ShipReset,
        ShipReturned,
        ReturnPostponed,
        FleetPointsAwarded,
        RollOff,
        TurnEnded,
        BattleEnded,
    )
}


class EventLog:
    """An append-only log of compact records; events are built on demand."""

    __slots__ = ("_records",)

    def __init__(self) -> None:
        self._records: list[tuple[type[Event], tuple[Any, ...]]] = []

    def record(self, cls: type[Event], *values: Any) -> None:
        """Append one event (its class and its field values in order)."""
        self._records.append((cls, values))

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[Event]:
        for cls, values in self._records:
            yield cls(*values)

    def events(self) -> list[Event]:
        """All events, built now."""
        return list(self)

    def count(self, cls: type[Event]) -> int:
        """How many events of one class, without building them."""
        return sum(1 for c, _ in self._records if c is cls)

    def jsonl(self) -> str:
        """The log as JSON lines, one event per line, keys in field order."""
        return "".join(
            json.dumps(e.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n" for e in self
        )

    def sha256(self) -> str:
        """Fingerprint of the JSONL form: two runs agree exactly when these agree."""
        return hashlib.sha256(self.jsonl().encode()).hexdigest()


def parse_jsonl(text: str, kinds: Mapping[str, type[Event]] = EVENT_TYPES) -> list[Event]:
    """Events from a JSONL log (the inverse of EventLog.jsonl). `kinds` are the event classes
    by name: the engine's own by default; the rules' full list is kolrami.rules.registry's."""
    out: list[Event] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        data = json.loads(line)
        kind = data.pop("e", None)
        cls = kinds.get(kind)
        if cls is None:
            raise ValueError(f"line {number}: unknown event kind")
        out.append(cls(**data))
    return out
