"""Frozen per-side snapshots (GUIDE 3.8; OpenSpiel's observer, PettingZoo's `observe`).

A captain never holds the battle's own objects: what a view hands it are immutable snapshots of
ships and squadrons, taken when it asks and kept until the battle changes (an event other than an
order is logged), so a captain can read as often as it likes and change nothing. Snapshots read
as fast as the ships themselves and are cheap to take.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from kolrami.catalog import Arc, ShipClass, WeaponKind
from kolrami.engine.battle import (
    Battle,
    ClassFacts,
    ShipState,
    SquadronState,
    all_out,
    bearing_of,
    working_shots,
)

#: this module runs compiled (mypyc): its classes are laid out in C, and a compiled object's
#: class cannot be swapped (see `_take`)
_COMPILED: Final = not __file__.endswith(".py")


class _ShipFields:
    """The fields of a ship's snapshot, filled in at slot speed (see `Snapshots._take`), and
    what can be read off them, answered as `ShipState` answers it."""

    __slots__ = (
        "alive",
        "cards",
        "cls",
        "damage_control",
        "derelict",
        "destroyed",
        "detached",
        "engine_power",
        "evasion",
        "fired",
        "heading",
        "id",
        "in_control",
        "known",
        "last_speed",
        "max_engine",
        "max_shields",
        "max_systems",
        "mounts",
        "moved",
        "on_table",
        "out_of_play",
        "points",
        "ranges",
        "shields",
        "side",
        "speed",
        "squadron",
        "start_cards",
        "strength",
        "superstructure",
        "systems",
        "tokens",
        "x",
        "y",
    )

    id: str
    side: str
    cls: ShipClass
    squadron: str
    x: float
    y: float
    heading: int
    speed: int
    last_speed: int
    superstructure: int
    shields: int
    engine_power: int
    systems: int
    # (dicts, not Mappings: compiled code reads a dict natively, a Mapping through its methods)
    mounts: dict[WeaponKind, tuple[int, ...]]
    destroyed: bool
    derelict: bool
    out_of_play: bool
    alive: bool
    on_table: bool
    tokens: int
    cards: tuple[str, ...]
    start_cards: tuple[str, ...]
    points: int
    max_shields: int
    max_engine: int
    max_systems: int
    damage_control: int
    strength: dict[WeaponKind, int]
    ranges: dict[WeaponKind, int]
    evasion: int
    detached: bool
    in_control: bool
    fired: bool
    moved: bool
    #: what the rules read of its class (`ShipState.class_facts`), shared with the ship
    known: ClassFacts

    def __init__(self, ship: ShipState) -> None:
        self.id = ship.id
        self.side = ship.side
        self.cls = ship.cls
        self.squadron = ship.squadron
        self.x = ship.x
        self.y = ship.y
        self.heading = ship.heading
        self.speed = ship.speed
        self.last_speed = ship.last_speed
        self.superstructure = ship.superstructure
        self.shields = ship.shields
        self.engine_power = ship.engine_power
        self.systems = ship.systems
        # (dict.copy() is a quicker call than dict())
        self.mounts = ship.mounts.copy()  # the mounts are tuples: the dict is the view's own
        self.destroyed = ship._destroyed
        self.derelict = ship._derelict
        self.out_of_play = ship._out_of_play
        self.alive = ship.alive
        self.on_table = ship.on_table
        self.tokens = ship.tokens
        self.cards = tuple(ship.cards)
        self.start_cards = ship.start_cards
        self.points = ship.points
        self.max_shields = ship.max_shields
        self.max_engine = ship.max_engine
        self.max_systems = ship.max_systems
        self.damage_control = ship.damage_control
        self.strength = ship.strength.copy()  # copies of their own: plain dicts read fastest
        self.ranges = ship.ranges.copy()
        self.evasion = ship.evasion
        self.detached = ship.detached
        self.in_control = ship.in_control
        self.fired = ship.fired
        self.moved = ship.moved
        self.known = ship.class_facts()

    def shots(self, kind: WeaponKind) -> int:
        """Working shots of a weapon kind now (knocked-out mounts count 0)."""
        return working_shots(self.mounts[kind])

    def bears(self, arc: Arc) -> list[WeaponKind]:
        """Weapon kinds with working shots that fire into `arc`."""
        return bearing_of(self.known, self.mounts, arc)

    def range_of(self, kind: WeaponKind) -> int:
        """Range of a weapon kind in cm (0 when the sheet has none)."""
        return self.ranges.get(kind, 0)

    def armed_arcs(self) -> list[Arc]:
        """Arcs into which a working weapon bears."""
        return [a for a in Arc if self.bears(a)]

    @property
    def detoothed(self) -> bool:
        """Every weapon out of action."""
        return all_out(self.mounts)

    @property
    def toast(self) -> bool:
        """Shields at or below half their printed value (for display)."""
        return self.shields * 2 <= self.max_shields


class ShipView(_ShipFields):
    """One ship as a side sees it at a decision: read-only, detached from the battle. Its
    mounts (tuples), strengths and ranges are in dicts of its own: changing them changes no
    battle."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a view's ship is read-only: it cannot set '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a view's ship is read-only: it cannot delete '{name}'")


class SquadronView(NamedTuple):
    """A squadron as a side sees it at a decision."""

    id: str
    side: str
    ships: tuple[str, ...]
    formation: tuple[str, ...]
    activated: bool
    fired: bool

    @property
    def leader(self) -> str | None:
        """The formation leader, if the formation has anyone left."""
        return self.formation[0] if self.formation else None


def snapshot(ship: ShipState) -> ShipView:
    """An immutable copy of `ship` as it is now."""
    if _COMPILED:
        # the fields are filled in by _ShipFields.__init__, whose compiled code writes them
        # straight into the object: ShipView's __setattr__ guards them from everyone else
        return ShipView(ship)
    # Filled in as the plain class, then made read-only: the two share one slot layout, so a
    # snapshot reads as fast as the ship itself and costs one ordinary construction.
    view: ShipView = _ShipFields(ship)  # type: ignore[assignment]  # (made one next)
    view.__class__ = ShipView
    return view


#: `tuple.__new__`, found once (compiled, `tuple.__new__` is looked up on the type each time)
_TUPLE_NEW: Final = tuple.__new__


def squadron_snapshot(squadron: SquadronState) -> SquadronView:
    """An immutable copy of `squadron` as it is now."""
    # built straight from its values: a named tuple's own __new__ is a Python call
    return _TUPLE_NEW(
        SquadronView,
        (
            squadron.id,
            squadron.side,
            tuple(squadron.ships),
            tuple(squadron.formation),
            squadron.activated,
            squadron.fired,
        ),
    )


class Snapshots:
    """A side's snapshots of one battle, taken on demand and kept while the battle is unchanged
    (no event but orders logged since): a view reads through it."""

    __slots__ = ("_battle", "_seen", "_ships", "_squadrons")

    def __init__(self, battle: Battle) -> None:
        self._battle = battle
        self._seen = -1
        self._ships: dict[str, ShipView] = {}
        self._squadrons: dict[str, SquadronView] = {}

    def _take(self, ship: ShipState) -> ShipView:
        # `snapshot(ship)`, written out: one call fewer a snapshot
        if _COMPILED:
            view = ShipView(ship)
        else:
            view = _ShipFields(ship)  # type: ignore[assignment]  # (made one next)
            view.__class__ = ShipView
        self._ships[ship.id] = view
        return view

    def _fresh(self) -> None:
        """Forget the snapshots taken before the battle last changed."""
        self._seen = self._battle.log.changes
        self._ships.clear()
        self._squadrons.clear()

    def ship(self, ship_id: str) -> ShipView:
        """The snapshot of one ship."""
        if self._battle.log.changes != self._seen:
            self._fresh()
        view = self._ships.get(ship_id)
        if view is None:
            view = self._take(self._battle.ships[ship_id])
        return view

    def ships(self, ships: list[ShipState]) -> list[ShipView]:
        """Snapshots of `ships`, in order."""
        if self._battle.log.changes != self._seen:  # (a call saved when nothing changed)
            self._fresh()
        known = self._ships
        out = []
        for s in ships:
            view = known.get(s.id)
            if view is None:
                view = self._take(s)
            out.append(view)
        return out

    def squadron(self, squadron_id: str) -> SquadronView:
        """The snapshot of one squadron."""
        if self._battle.log.changes != self._seen:
            self._fresh()
        view = self._squadrons.get(squadron_id)
        if view is None:
            view = self._squadrons[squadron_id] = squadron_snapshot(
                self._battle.squadrons[squadron_id]
            )
        return view
