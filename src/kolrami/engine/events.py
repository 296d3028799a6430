"""Battle events: every change to a battle is one frozen event in its log.

The log is the replay, the report, the test oracle and the RL trace. Recording must be cheap
(it sits on the hot path of every shot), so the log keeps compact records, (event class, field
values), and builds the event objects only when someone reads them. Positions are rounded to
0.001 cm in the log so the JSON form is short and stable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import Field
from dataclasses import dataclass
from dataclasses import fields
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import ParamSpec
from typing import Protocol
from typing import TypeVar

from kolrami.engine.step import BattleT

if TYPE_CHECKING:
    from kolrami.engine.geometry import Trail
    from kolrami.engine.orders import Order

P = ParamSpec("P")
E = TypeVar("E", bound="Event")

#: The version of the log's shape, in the header as "log_format". 2: the changes of a ship's
#: numbers carry their facts as fields (a hit's mounts left, a card's changed values), so a
#: reader never re-works them from text or from the rules. A header without it is format 1.
LOG_FORMAT = 2


class Event:
    """Base of all events; `kind` is the name in the JSON log. Each kind is a dataclass: a
    frozen one for a fact, a plain one for a Change (not a dataclass itself, so both can be)."""

    __slots__ = ()
    kind: ClassVar[str] = "event"
    #: the field naming the ship whose superstructure after the event its `superstructure`
    #: field gives (None: the event carries no hull): readers of the log (the replay) take
    #: every ship's hull from these, whatever the event's kind
    hull_of: ClassVar[str | None] = None
    #: every kind has them, as a dataclass (declared for the type checker)
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object: {"e": kind, field: value, ...}."""
        out: dict[str, Any] = {"e": self.kind}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out


class Change(Event, Generic[BattleT]):
    """An event that is a change of the battle's state: the one door through which rules change
    a ship's numbers (`Battle.record`). Its fields are the state after the change, so applying
    it is setting them, and a reader of the log (the replay, the referee) applies the same facts
    without knowing the rules that produced them. It is generic in the battle it applies to: a
    game's kinds are `Change[Battle]`, the engine's own apply to any `Table`.

    Its kinds are plain (not frozen) dataclasses: they are built on the hot path of every hit,
    and a frozen one takes some twenty times as long to build. The log keeps their field values,
    not the object, so what it recorded cannot change after."""

    __slots__ = ()

    def apply(self, battle: BattleT) -> None:
        """Make the change on `battle` (each kind says how)."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it applies")

    @classmethod
    def apply_values(cls, battle: BattleT, values: tuple[Any, ...]) -> None:
        """Make the change given as its field values, every one in field order
        (`Battle.change`): built, then applied, unless the kind makes it straight from the
        values (the log builds its events only when they are read)."""
        cls(*values).apply(battle)


class _Placed(Protocol):
    """A ship as the engine's own changes set it (kolrami.engine.battle.ShipState)."""

    in_control: bool
    lock: Any  # its fire lock (kolrami.engine.battle.Lock), only ever dropped here
    detached: bool
    destroyed: bool
    derelict: bool
    x: float
    y: float
    heading: int
    speed: int


class _Formation(Protocol):
    """A squadron as FormationLeft changes it (kolrami.engine.battle.SquadronState)."""

    formation: list[str]
    offsets: dict[str, float]
    trail: Trail


class Table(Protocol):
    """What the engine's own changes touch of a battle: its ships and squadrons by id. The
    battle's class (kolrami.engine.battle) keeps a log of these events, so this module names
    only what it needs of it."""

    @property
    def ships(self) -> Mapping[str, _Placed]: ...

    @property
    def squadrons(self) -> Mapping[str, _Formation]: ...


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    """Header: everything needed to re-run the battle."""

    kind: ClassVar[str] = "battle_started"
    header: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ShipPlaced(Event):
    """A ship deployed at the start of the battle; `points`: its Total SP, class and cards, what
    destroying it scores (logs before rules fpf-2 do not have it)."""

    kind: ClassVar[str] = "ship_placed"
    ship: str
    cls: str
    side: str
    squadron: str
    x: float
    y: float
    heading: int
    points: int | None = None


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A new turn begins."""

    kind: ClassVar[str] = "turn_started"
    turn: int


@dataclass(frozen=True, slots=True, init=False)
class OrderGiven(Event):
    """A captain's answer to a decision, in its text form (kolrami.engine.orders).

    Every order is logged, so a battle can be re-run from its header and these orders alone,
    whoever gave them.
    """

    kind: ClassVar[str] = "order_given"
    side: str
    order: str

    def __init__(self, side: str, order: str | Order) -> None:
        # The log keeps the (immutable) order itself, which is cheap; its text form is made
        # only when the event is built.
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "order", order if isinstance(order, str) else str(order))


@dataclass(slots=True, init=False)
class ShipMoved(Change[Table]):
    """A ship moved along a path of waypoints to its last one, facing `heading`; `speed` is
    what it records for next turn. A Change: it sets the ship's place, heading and speed."""

    kind: ClassVar[str] = "ship_moved"
    ship: str
    path: list[list[float]]
    heading: int
    speed: int
    distance: float

    def __init__(
        self,
        ship: str,
        path: Sequence[Sequence[float]],
        heading: int,
        speed: int,
        distance: float,
    ) -> None:
        # The engine records the exact path as (x, y) points and the exact distance; the event
        # shows them to the millimetre's tenth, rounded only when it is built.
        self.ship = ship
        self.path = [[round(x, 3), round(y, 3)] for x, y in path]
        self.heading = heading
        self.speed = speed
        self.distance = round(distance, 3)

    def apply(self, battle: Table) -> None:
        _place(battle, self.ship, self.path[-1], self.heading, self.speed)

    @classmethod
    def apply_values(cls, battle: Table, values: tuple[Any, ...]) -> None:
        # the battle takes the exact end point; the log's event is rounded when it is built
        _place(battle, values[0], values[1][-1], values[2], values[3])


def _place(battle: Table, ship_id: str, point: Sequence[float], heading: int, speed: int) -> None:
    ship = battle.ships[ship_id]
    ship.x = point[0]
    ship.y = point[1]
    ship.heading = heading
    ship.speed = speed


@dataclass(slots=True)
class ControlChanged(Change[Table]):
    """A ship lost or regained control of itself; a ship out of control holds no lock
    (it leaves its formation: FormationLeft follows)."""

    kind: ClassVar[str] = "control_changed"
    ship: str
    in_control: bool

    def apply(self, battle: Table) -> None:
        ship = battle.ships[self.ship]
        ship.in_control = self.in_control
        if not self.in_control:
            ship.lock = None


@dataclass(slots=True)
class FormationLeft(Change[Table]):
    """A ship left its squadron's formation: it flies on its own from now on; when it led,
    the next ship leads and the trail starts where that one flies."""

    kind: ClassVar[str] = "formation_left"
    ship: str
    squadron: str

    def apply(self, battle: Table) -> None:
        squadron = battle.squadrons[self.squadron]
        if self.ship not in squadron.formation:
            return
        battle.ships[self.ship].detached = True
        was_leader = squadron.formation[0] == self.ship
        squadron.formation.remove(self.ship)
        squadron.offsets.pop(self.ship, None)
        if was_leader and squadron.formation:
            shift = squadron.offsets[squadron.formation[0]]
            squadron.trail.drop_front(shift)
            for sid in squadron.formation:
                squadron.offsets[sid] -= shift


@dataclass(slots=True)
class ShipDestroyed(Change[Table]):
    """A ship was destroyed (out of play), or left on the table as a derelict; either way it
    holds no lock (it leaves its formation: FormationLeft follows)."""

    kind: ClassVar[str] = "ship_destroyed"
    ship: str
    by: str
    derelict: bool

    def apply(self, battle: Table) -> None:
        ship = battle.ships[self.ship]
        ship.destroyed = not self.derelict
        ship.derelict = self.derelict
        ship.lock = None


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
        OrderGiven,
        ShipMoved,
        ControlChanged,
        FormationLeft,
        ShipDestroyed,
        TurnEnded,
        BattleEnded,
    )
}


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
            raise ValueError(f"line {number}: unknown event kind {kind!r}")
        out.append(cls(**data))
    return out
