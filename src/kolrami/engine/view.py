"""Frozen per-side snapshots (GUIDE 3.8; OpenSpiel's observer, PettingZoo's `observe`).

A captain never holds the battle's own objects: what a view hands it are immutable snapshots of
ships and squadrons, taken when it asks and kept until the battle changes (an event other than an
order is logged), so a captain can read as often as it likes and change nothing. Snapshots are
named tuples: cheap to take and to read.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from kolrami.catalog import Arc, ShipClass, WeaponKind
from kolrami.engine.battle import Battle, ShipState, SquadronState


class ShipView(NamedTuple):
    """One ship as a side sees it at a decision: read-only, detached from the battle."""

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
    mounts: Mapping[WeaponKind, tuple[int, ...]]
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
    strength: Mapping[WeaponKind, int]
    ranges: Mapping[WeaponKind, int]
    evasion: int
    detached: bool
    in_control: bool
    fired: bool
    moved: bool

    def shots(self, kind: WeaponKind) -> int:
        """Working shots of a weapon kind now (knocked-out mounts count 0)."""
        return sum(self.mounts[kind])

    def bears(self, arc: Arc) -> list[WeaponKind]:
        """Weapon kinds with working shots that fire into `arc`."""
        mounts = self.mounts
        return [k for k in self.cls.bearing[arc] if any(mounts[k])]

    def range_of(self, kind: WeaponKind) -> int:
        """Range of a weapon kind in cm (0 when the sheet has none)."""
        return self.ranges.get(kind, 0)

    def armed_arcs(self) -> list[Arc]:
        """Arcs into which a working weapon bears."""
        return [a for a in Arc if self.bears(a)]

    @property
    def detoothed(self) -> bool:
        """Every weapon out of action."""
        return not any(map(any, self.mounts.values()))

    @property
    def toast(self) -> bool:
        """Shields at or below half their printed value (for display)."""
        return self.shields * 2 <= self.max_shields


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
    mounts = ship.mounts
    # tuple.__new__ straight from the values: the snapshot is the view's hot path
    return _new_tuple(
        ShipView,
        (
            ship.id,
            ship.side,
            ship.cls,
            ship.squadron,
            ship.x,
            ship.y,
            ship.heading,
            ship.speed,
            ship.last_speed,
            ship.superstructure,
            ship.shields,
            ship.engine_power,
            ship.systems,
            dict(zip(mounts, map(tuple, mounts.values()), strict=True)),  # its own, of tuples
            ship._destroyed,
            ship._derelict,
            ship._out_of_play,
            ship.alive,
            ship.on_table,
            ship.tokens,
            tuple(ship.cards),
            ship.start_cards,
            ship.points,
            ship.max_shields,
            ship.max_engine,
            ship.max_systems,
            ship.damage_control,
            MappingProxyType(ship.strength),  # read-only windows onto values set at deployment
            MappingProxyType(ship.ranges),
            ship.evasion,
            ship.detached,
            ship.in_control,
            ship.fired,
            ship.moved,
        ),
    )


_new_tuple = tuple.__new__


def squadron_snapshot(squadron: SquadronState) -> SquadronView:
    """An immutable copy of `squadron` as it is now."""
    return SquadronView(
        squadron.id,
        squadron.side,
        tuple(squadron.ships),
        tuple(squadron.formation),
        squadron.activated,
        squadron.fired,
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
        view = self._ships[ship.id] = snapshot(ship)
        return view

    def _fresh(self) -> None:
        changes = self._battle.log.changes
        if changes != self._seen:
            self._seen = changes
            self._ships.clear()
            self._squadrons.clear()

    def ship(self, ship_id: str) -> ShipView:
        """The snapshot of one ship."""
        self._fresh()
        view = self._ships.get(ship_id)
        if view is None:
            view = self._take(self._battle.ships[ship_id])
        return view

    def ships(self, ships: list[ShipState]) -> list[ShipView]:
        """Snapshots of `ships`, in order."""
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
        self._fresh()
        view = self._squadrons.get(squadron_id)
        if view is None:
            view = self._squadrons[squadron_id] = squadron_snapshot(
                self._battle.squadrons[squadron_id]
            )
        return view
