"""Battle state and the primitives rule modules use: deployment, movement, fire, damage.

A Battle is built from a frozen Scenario, two fleets and a seed (GUIDE 3.1). Its turn structure
lives in rule modules (kolrami.rules.fpf); this file knows how ships move, how a volley is rolled
and how damage lands, and records every change in the event log.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Generic, TypeVar

from kolrami import __version__
from kolrami.catalog import Arc, Location, ShipClass, ShipPack, WeaponKind, builtin_pack
from kolrami.catalog.cards import Card, card_cost
from kolrami.engine import events as ev
from kolrami.engine.chance import Dice
from kolrami.engine.geometry import (
    HEADINGS,
    Trail,
    advance,
    arc_to,
    entry_distance,
    segment_hits_circle,
)
from kolrami.engine.orders import FireTarget, Maneuver
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet, member_cards
from kolrami.rules.registry import Ruleset
from kolrami.scenarios.models import Movement, Scenario

#: Bump whenever a change can alter a battle's outcome for the same inputs (GUIDE 3.10).
RULES_VERSION = "fpf-1"
SIDES = ("A", "B")
T = TypeVar("T")
#: Speeds are whole centimetres, 0 to 40 (FPF-MOV-06).
MAX_SPEED = 40
PIVOT_COST_CM = 5  # FPF-MOV-13
SYSTEMS_FLOOR = -10  # FPF-DMG-14
STEP_CM = 5.0  # locked weapons are checked at least every 5 cm of movement (FPF-FIRE-07)


def other(side: str) -> str:
    """The opposing side."""
    return "B" if side == "A" else "A"


@dataclass(slots=True, eq=False)
class Lock:
    """A declared target: weapons fire when it is in range and arc (FPF-FIRE-03, FPF-FIRE-07)."""

    target: str
    arc: Arc
    pending: list[WeaponKind]
    reaction_to: str | None = None  # reaction fire: only while this squadron moves


@dataclass(slots=True, eq=False)
class ShipState:
    """One ship in battle. Captains read it; only the engine writes it."""

    id: str
    side: str
    cls: ShipClass
    squadron: str
    index: int  # position in the battle's ship order, for stable sorting
    x: float
    y: float
    heading: int
    speed: int  # this turn's speed once moved; last turn's until then
    last_speed: int
    superstructure: int
    shields: int
    engine_power: int
    systems: int
    mounts: dict[WeaponKind, list[int]]
    # Kept through the properties below, which keep `alive` and `on_table` up to date: those
    # two are read thousands of times a battle, these three written a few times.
    _destroyed: bool = False
    _derelict: bool = False
    _out_of_play: bool = False
    #: in play and able to act or be targeted (not destroyed, derelict or reset)
    alive: bool = field(default=True, init=False)
    #: a model on the table: alive ships and derelicts; not destroyed or reset ships
    on_table: bool = field(default=True, init=False)
    tokens: int = 0  # Critical Hit Tokens (PP-10)
    cards: list[str] = field(default_factory=list)  # cards on the ship now (PP-08, PP-09, PP-14)
    start_cards: tuple[str, ...] = ()  # the cards it began the battle with
    points: int = 0  # Total SP: ship value plus cards
    # The ship's own values as the battle began: the sheet's, changed by cards for good.
    # Repairs restore these, a Peak Performance reset returns to them.
    max_shields: int = 0
    max_engine: int = 0
    max_systems: int = 0
    damage_control: int = 0
    strength: dict[WeaponKind, int] = field(default_factory=dict)
    ranges: dict[WeaponKind, int] = field(default_factory=dict)
    evasion: int = 0  # shots at it need this much more on the d10 (card effects)
    detached: bool = False  # flies on its own, out of its squadron's formation
    in_control: bool = True
    fired: bool = False  # used its volley this turn (declared fire or reaction)
    moved: bool = False
    lock: Lock | None = None

    def _settle(self) -> None:
        self.on_table = not self._destroyed and not self._out_of_play
        self.alive = self.on_table and not self._derelict

    @property
    def destroyed(self) -> bool:
        """Removed from play for good (FPF-DMG-11)."""
        return self._destroyed

    @destroyed.setter
    def destroyed(self, value: bool) -> None:
        self._destroyed = value
        self._settle()

    @property
    def derelict(self) -> bool:
        """Left on the table as a wreck (FPF-OPT-01)."""
        return self._derelict

    @derelict.setter
    def derelict(self, value: bool) -> None:
        self._derelict = value
        self._settle()

    @property
    def out_of_play(self) -> bool:
        """Reset and waiting to return (Peak Performance, PP-05, PP-11)."""
        return self._out_of_play

    @out_of_play.setter
    def out_of_play(self, value: bool) -> None:
        self._out_of_play = value
        self._settle()

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
        """Every weapon out of action (FPF-DMG-15)."""
        return not any(map(any, self.mounts.values()))

    @property
    def toast(self) -> bool:
        """Shields at or below half their printed value (FPF-DMG-15, display only)."""
        return self.shields * 2 <= self.max_shields


@dataclass(slots=True, eq=False)
class SquadronState:
    """A squadron: its ships in formation order (leader first) and the leader's trail."""

    id: str
    side: str
    ships: list[str]  # every member, in fleet order
    formation: list[str]  # members flying in formation, leader first
    offsets: dict[str, float]  # cm behind the leader along the trail
    trail: Trail
    activated: bool = False
    fired: bool = False

    @property
    def leader(self) -> str | None:
        """The formation leader, if the formation has anyone left."""
        return self.formation[0] if self.formation else None


@dataclass(slots=True)
class _Move:
    """One ship's planned move: start, first-leg heading, end, distance and path."""

    ship: ShipState
    x0: float
    y0: float
    h0: int
    mid: int
    x1: float
    y1: float
    h1: int
    dist: float
    path: list[tuple[float, float, int]] | None
    #: the speed to record; a formation records its leader's for every ship, so the squadron
    #: keeps one speed (FPF-MOV-05) even when a wingman had to stop short
    speed: int | None = None


@dataclass(slots=True)
class Stats:
    """Counters for benchmarks and reports."""

    activations: int = 0
    volleys: int = 0
    shots: int = 0
    candidates: int = 0  # manoeuvres the captains evaluated


@dataclass(slots=True)
class Result:
    """How the battle ended."""

    winner: str | None
    reason: str
    turns: int
    destroyed_value: dict[str, int]


class Battle:
    """The full state of one battle, its rules, its dice and its log."""

    def __init__(
        self,
        scenario: Scenario,
        fleets: tuple[Fleet, Fleet],
        seed: int,
        captains: tuple[str, str] = ("", ""),
        pack: ShipPack | None = None,
        extra_rules: tuple[str, ...] = (),
    ) -> None:
        from kolrami.rules import fpf, register_builtin

        register_builtin()

        self.scenario = scenario
        self.pack = pack or builtin_pack()
        for side, fleet in zip(SIDES, fleets, strict=True):
            _check_playable(fleet, side, self.pack)
        self.fleets = fleets
        self.seed = seed
        self.dice = Dice(seed)
        module_names = [*fpf.CORE_MODULES, *fpf.mode_modules(scenario)]
        module_names += [r for r in (*scenario.rules, *extra_rules) if r not in module_names]
        self.rules = Ruleset(module_names)
        self.log = ev.EventLog()
        self.stats = Stats()
        self.turn = 0
        self.result: Result | None = None
        self.ships: dict[str, ShipState] = {}
        self.squadrons: dict[str, SquadronState] = {}
        self.moving: str | None = None  # squadron now moving (for reaction fire)
        self.locked: list[ShipState] = []  # ships with weapons locked and not yet fired
        #: who sees what, when a driver hides ships (the advanced game's cloaks); None: all
        self.sight: Callable[[str, ShipState], bool] | None = None
        #: terrain that blocks movement and fire (planets)
        self.blockers = [t for t in scenario.terrain if t.kind == "planet"]
        #: card effects' bookkeeping: re-rolls left this turn, uses of once-a-battle cards
        self.rerolls_left: dict[str, int] = {}
        self.card_uses: dict[tuple[str, str], int] = {}
        self.cards_in_play: list[tuple[ShipState, Card]] | None = None  # rules/cards.py
        #: Fleet Points so far, for scenarios that score them (Peak Performance, PP-15)
        self.fleet_points = dict.fromkeys(SIDES, 0)
        self.resource_scored = dict.fromkeys(SIDES, False)
        #: cards each ship lost for good: discarded or taken by an opponent (PP-08, PP-14)
        self.lost_cards: dict[str, set[str]] = {}
        self.activation_order: list[str] = []
        #: state that other games' drivers and rule modules keep (the advanced game's)
        self.extensions: dict[str, Any] = {}
        self.header: dict[str, Any] = {
            "kolrami": __version__,
            "rules_version": RULES_VERSION,
            "data_version": self.pack.data_version,
            "seed": seed,
            "scenario": _dump(scenario),
            "rules": self.rules.names,
            "fleets": [_dump(f) for f in fleets],
            "captains": list(captains),
        }
        self.log.record(ev.BattleStarted, self.header)
        self._deploy()

    # --- set-up ----------------------------------------------------------------------------------

    def _deploy(self) -> None:
        """Standard set-up: side A along the near edge heading 0, B along the far edge heading 3.

        Squadrons are spread evenly along the edge, in the middle of their deployment zone;
        wingmen line up behind their leader (FPF-MOV-09).
        """
        sc = self.scenario
        for side, fleet in zip(SIDES, self.fleets, strict=True):
            heading = 0 if side == "A" else 3  # facing the enemy's edge
            squadrons = fleet.squadrons()
            n = len(squadrons)
            count = 0  # ships of this side placed so far: ids run A1, A2 ...
            for k, (number, members) in enumerate(squadrons.items()):
                sq_id = f"{side}S{number}"
                x = sc.table_width_cm * (k + 1) / (n + 1)
                zone_mid = sc.deployment_depth_cm / 2
                y = zone_mid if side == "A" else sc.table_height_cm - zone_mid
                # the column is centred on its zone: leader ahead, wingmen behind
                back = sc.formation_spacing_cm * (len(members) - 1)
                lx, ly = advance(x, y, heading, back / 2)
                trail = Trail(lx, ly, heading, back + sc.formation_spacing_cm * 4)
                ids = []
                offsets = {}
                for i, member in enumerate(members):
                    count += 1
                    sid = f"{side}{count}"
                    cls = self.pack.get(member.id)
                    px, py, ph = trail.point_at(i * sc.formation_spacing_cm)
                    ship = ShipState(
                        id=sid,
                        side=side,
                        cls=cls,
                        squadron=sq_id,
                        index=len(self.ships),
                        x=px,
                        y=py,
                        heading=ph,
                        speed=sc.start_speed_cm,
                        last_speed=sc.start_speed_cm,
                        superstructure=cls.superstructure,
                        shields=cls.shields,
                        engine_power=cls.engine_power,
                        systems=cls.computer,
                        mounts={k: list(w.mounts) for k, w in cls.weapons()},
                    )
                    for kind in WeaponKind:
                        ship.mounts.setdefault(kind, [])
                    ship.max_shields, ship.max_engine = cls.shields, cls.engine_power
                    ship.max_systems, ship.damage_control = cls.computer, cls.damage_control
                    ship.strength = {k: w.strength for k, w in cls.weapons()}
                    ship.ranges = {k: w.range_cm for k, w in cls.weapons()}
                    ship.start_cards = tuple(member_cards(member))
                    ship.cards = list(ship.start_cards)
                    # Total SP: ship value plus its cards (FBS-08), what a kill scores (PP-16)
                    ship.points = cls.value + sum(card_cost(c) for c in ship.start_cards)
                    self.ships[sid] = ship
                    ids.append(sid)
                    offsets[sid] = i * sc.formation_spacing_cm
                    self.log.record(
                        ev.ShipPlaced, sid, cls.id, side, sq_id, round(px, 3), round(py, 3), ph
                    )
                individual = sc.movement is Movement.INDIVIDUAL
                self.squadrons[sq_id] = SquadronState(
                    id=sq_id,
                    side=side,
                    ships=ids,
                    formation=[] if individual else list(ids),
                    offsets={} if individual else offsets,
                    trail=trail,
                )
                if individual:
                    for sid in ids:
                        self.ships[sid].detached = True

    # --- queries ------------------------------------------------------------------------------

    def side_ships(self, side: str) -> list[ShipState]:
        """Ships of a side still alive."""
        return [s for s in self.ships.values() if s.side == side and s.alive]

    def side_squadrons(self, side: str) -> list[SquadronState]:
        """Squadrons of a side with a ship still alive."""
        ships = self.ships
        return [
            q
            for q in self.squadrons.values()
            if q.side == side and any(ships[s].alive for s in q.ships)
        ]

    def squadron_speed(self, squadron: SquadronState) -> int:
        """A squadron's initiative speed: last turn's speed of its leader or first live ship."""
        ids = squadron.formation or [s for s in squadron.ships if self.ships[s].alive]
        return self.ships[ids[0]].last_speed if ids else 0

    def visible(self, side: str, ship: ShipState) -> bool:
        """Whether `side` can see `ship`: always in FPF; the advanced driver's `sight` hides
        cloaked ships (GUIDE 3.8)."""
        return self.sight is None or ship.side == side or self.sight(side, ship)

    def speed_limits(self, ship: ShipState, pivot: bool = False) -> tuple[int, int]:
        """The speeds `ship` may choose this turn (FPF-MOV-06, FPF-MOV-11, FPF-MOV-13)."""
        budget = ship.engine_power - (PIVOT_COST_CM if pivot else 0)
        if budget < 0:
            return (1, 0)  # empty range: a pivot needs 5 cm of power
        return (max(0, ship.last_speed - budget), min(MAX_SPEED, ship.last_speed + budget))

    def formation_limits(self, squadron: SquadronState, pivot: bool = False) -> tuple[int, int]:
        """Speeds the whole formation may choose: every member's limits at once."""
        lo, hi = 0, MAX_SPEED
        for sid in squadron.formation:
            a, b = self.speed_limits(self.ships[sid], pivot)
            lo, hi = max(lo, a), min(hi, b)
        return lo, hi

    def movers(self, squadron: SquadronState) -> list[str | None]:
        """Who needs a manoeuvre: None for the formation, plus detached ships in control."""
        ships = self.ships
        out: list[str | None] = []
        if any(ships[s].in_control for s in squadron.formation):
            out.append(None)
        out += [
            sid for sid in squadron.ships if (s := ships[sid]).alive and s.detached and s.in_control
        ]
        return out

    def firers(self, squadron: SquadronState) -> list[ShipState]:
        """Ships of a squadron able to fire now: alive, in control, with a working weapon."""
        ships = self.ships
        return [
            s
            for sid in squadron.ships
            if (s := ships[sid]).alive and s.in_control and not s.detoothed
        ]

    # --- movement -----------------------------------------------------------------------------

    def plan_path(
        self, x: float, y: float, heading: int, m: Maneuver, ignore: set[str]
    ) -> tuple[list[tuple[float, float, int]], float, str | None]:
        """Waypoints (x, y, heading) of a manoeuvre, its length, and what it stopped short of.

        Activate, turn, half the move, turn, the other half (FPF-MOV-07); a pivot from
        standstill turns to any facing first (FPF-MOV-13). The final position must not be on
        another ship or off the table: the ship stops short (FPF-MOV-08).
        """
        h = (heading + (m.pivot if m.pivot is not None else m.turn1)) % HEADINGS
        if m.jump:  # straight ahead after the first turn (FPF-OPT-04)
            jx, jy = advance(x, y, h, m.speed)
            return self._stop_short([(x, y, h), (jx, jy, h)], m.speed, ignore)
        half = m.speed / 2
        mx, my = advance(x, y, h, half)
        h2 = (h + m.turn2) % HEADINGS
        ex, ey = advance(mx, my, h2, half)
        path = [(x, y, h), (mx, my, h), (ex, ey, h2)]
        if m.speed == 0:
            return [(x, y, h)], 0.0, None
        return self._stop_short(path, m.speed, ignore)

    def _stop_short(
        self, path: list[tuple[float, float, int]], length: float, ignore: set[str]
    ) -> tuple[list[tuple[float, float, int]], float, str | None]:
        """Cut a path so that it ends clear of other bases and on the table (FPF-MOV-08)."""
        sc = self.scenario
        reach = 2 * sc.base_radius_cm
        cut_at: float | None = None
        blocker: str | None = None
        # the table edge: the centre may not leave the table at any point of the path
        along = 0.0
        for (x0, y0, _), (x1, y1, _) in pairwise(path):
            seg = math.hypot(x1 - x0, y1 - y0)
            t = _edge_exit(x0, y0, x1, y1, sc.table_width_cm, sc.table_height_cm)
            if t is not None:
                cut_at, blocker = along + t * seg, "edge"
                break
            along += seg
        # a planet: no ship flies through it; the base stops at its rim
        for rock in self.blockers:
            along = 0.0
            rim = rock.radius_cm + sc.base_radius_cm
            for (x0, y0, h), (x1, y1, _) in pairwise(path):
                seg = math.hypot(x1 - x0, y1 - y0)
                entry = entry_distance(x0, y0, h, seg, rock.x, rock.y, rim)
                if entry is not None and (cut_at is None or along + entry < cut_at):
                    cut_at, blocker = max(0.0, along + entry - 1e-6), rock.kind
                    break
                along += seg
        end = length if cut_at is None else cut_at
        # another ship's base at the end: back off along the path until clear
        for _ in range(8):
            ex, ey, _ = _point_on(path, end)
            hit = None
            for s in self.ships.values():
                if s.id in ignore or not s.on_table:
                    continue
                if (s.x - ex) ** 2 + (s.y - ey) ** 2 < reach * reach:
                    hit = s
                    break
            if hit is None:
                break
            end = _back_off(path, end, hit.x, hit.y, reach)
            blocker = hit.id
        cut = _cut(path, end) if end < length else path
        return cut, end, blocker

    def move_formation(self, squadron: SquadronState, m: Maneuver) -> None:
        """Fly the formation: the leader's manoeuvre, wingmen on its trail (FPF-MOV-07,
        FPF-MOV-09)."""
        if not squadron.formation:
            return
        leader = self.ships[squadron.formation[0]]
        own = set(squadron.formation)
        path, dist, blocker = self.plan_path(leader.x, leader.y, leader.heading, m, own)
        if blocker and m.speed > 0:
            self.log.record(ev.StoppedShort, leader.id, blocker, round(m.speed - dist, 3))
        trail = squadron.trail
        for x, y, h in path:
            trail.extend(x, y, h)
        ex, ey, eh = path[-1]
        if trail.headings[0] != eh:
            # the leader turned without moving on (a pivot, or stopped short at once): a
            # zero-length segment keeps its new facing at the head of the trail
            trail.points.insert(0, (ex, ey))
            trail.headings.insert(0, eh)
        # Wingmen move as far as the leader did, never more (FPF-MOV-09). A wingman whose place
        # is taken stops short along the trail, 1 cm at a time, but never behind where it
        # started and never onto a ship of its own squadron (FPF-MOV-08).
        reach2 = (2 * self.scenario.base_radius_cm) ** 2
        others = [s for s in self.ships.values() if s.on_table and s.id not in own]
        placed: list[tuple[float, float]] = []
        width, height = self.scenario.table_width_cm, self.scenario.table_height_cm

        def taken(x: float, y: float) -> bool:
            if not (0.0 <= x <= width and 0.0 <= y <= height):
                return True  # the trail may run off the table behind a new column
            if any((o.x - x) ** 2 + (o.y - y) ** 2 < reach2 for o in others):
                return True
            return any((qx - x) ** 2 + (qy - y) ** 2 < reach2 for qx, qy in placed)

        moves: list[_Move] = []
        for sid in squadron.formation:
            ship = self.ships[sid]
            if sid == leader.id:
                px, py, ph, moved = ex, ey, eh, dist
            else:
                off = squadron.offsets[sid]
                start = off + dist
                px, py, ph = trail.point_at(off)
                moved = dist
                while taken(px, py):
                    if off >= start:
                        px, py, ph, moved, off = ship.x, ship.y, ship.heading, 0.0, start
                        break
                    off = min(start, off + 1.0)
                    moved = start - off
                    px, py, ph = trail.point_at(off)
                if moved < dist:
                    self.log.record(ev.StoppedShort, sid, "formation", round(dist - moved, 3))
                squadron.offsets[sid] = off
            placed.append((px, py))
            mid = path[1][2] if len(path) > 1 else ph
            moves.append(
                _Move(
                    ship,
                    ship.x,
                    ship.y,
                    ship.heading,
                    mid,
                    px,
                    py,
                    ph,
                    max(0.0, moved),
                    path if sid == leader.id else None,
                    round(dist),
                )
            )
        trail.trim(max(squadron.offsets.values()) + self.scenario.formation_spacing_cm * 2)
        self._execute(moves)

    def move_single(self, ship: ShipState, m: Maneuver | None) -> None:
        """Fly one ship on its own; None drifts it straight ahead (FPF-MOV-12, FPF-DMG-13)."""
        if m is None:
            m = Maneuver(ship.last_speed, 0, 0)
        path, dist, blocker = self.plan_path(ship.x, ship.y, ship.heading, m, {ship.id})
        if blocker and m.speed > 0:
            self.log.record(ev.StoppedShort, ship.id, blocker, round(m.speed - dist, 3))
        x, y, h = path[-1]
        mid = path[1][2] if len(path) > 1 else h
        self._execute([_Move(ship, ship.x, ship.y, ship.heading, mid, x, y, h, dist, path)])

    def _clear_of_terrain(self, ship: ShipState, target: ShipState) -> bool:
        """No planet on the line of fire (PP-03: a planet blocks fire whatever the masking)."""
        for t in self.blockers:
            if segment_hits_circle(ship.x, ship.y, target.x, target.y, t.x, t.y, t.radius_cm):
                return False
        return True

    def _clash(self, x: float, y: float, ignore: set[str]) -> str | None:
        reach2 = (2 * self.scenario.base_radius_cm) ** 2
        for s in self.ships.values():
            if s.id not in ignore and s.on_table and (s.x - x) ** 2 + (s.y - y) ** 2 < reach2:
                return s.id
        return None

    def _execute(self, moves: list[_Move]) -> None:
        """Step the movers from start to end, letting locked weapons fire on the way, then log.

        Ships advance in straight lines from start to end in steps of at most STEP_CM, keeping
        their first-leg heading for the first half and their final heading after; exact for
        straight moves and close for a 60-degree turn. Locks are checked before the first step
        and after each one (FPF-FIRE-03, FPF-FIRE-07).
        """
        longest = max((mv.dist for mv in moves), default=0.0)
        for mv in moves:  # this turn's speed holds from the start of the move (FPF-MASK-03)
            mv.ship.speed = min(MAX_SPEED, round(mv.dist) if mv.speed is None else mv.speed)
        steps = max(1, math.ceil(longest / STEP_CM)) if self.locked else 0
        self.resolve_locks()
        for k in range(1, steps + 1):
            t = k / steps
            for mv in moves:
                ship = mv.ship
                if not ship.on_table:
                    continue
                ship.x = mv.x0 + (mv.x1 - mv.x0) * t
                ship.y = mv.y0 + (mv.y1 - mv.y0) * t
                ship.heading = mv.mid if t <= 0.5 else mv.h1
            self.resolve_locks()
        for mv in moves:
            ship = mv.ship
            if not ship.on_table:
                continue
            # never a hair off the table through rounding
            x1 = min(max(mv.x1, 0.0), self.scenario.table_width_cm)
            y1 = min(max(mv.y1, 0.0), self.scenario.table_height_cm)
            ship.x, ship.y, ship.heading = x1, y1, mv.h1
            # a jump records flat out; a formation records its leader's speed
            ship.speed = min(MAX_SPEED, round(mv.dist) if mv.speed is None else mv.speed)
            ship.moved = True
            if mv.path is None:
                points: tuple[tuple[float, float], ...] = ((mv.x0, mv.y0), (x1, y1))
            else:
                inner = tuple((px, py) for px, py, _ in mv.path[1:-1])
                points = ((mv.x0, mv.y0), *inner, (x1, y1))
            # exact values: the event rounds them when it is built (ShipMoved)
            self.log.record(ev.ShipMoved, ship.id, points, mv.h1, ship.speed, mv.dist)

    # --- fire ---------------------------------------------------------------------------------

    def declare(
        self, targets: tuple[FireTarget, ...], reaction_to: str | None, jumping: bool = False
    ) -> None:
        """Lock the listed ships on their targets (FPF-FIRE-06: all declared before any shot)."""
        for t in targets:
            ship = self.ships[t.ship]
            kinds = ship.bears(t.arc)
            if jumping:
                kinds = self.rules.jump_weapons(self, kinds)
            ship.lock = Lock(t.target, t.arc, kinds, reaction_to)
            self.locked.append(ship)
            ship.fired = True
            self.log.record(ev.FireDeclared, t.ship, t.target, str(t.arc), reaction_to is not None)

    def resolve_locks(self) -> None:
        """Fire every locked weapon whose target is now in range, arc and line of fire."""
        if not self.locked:
            return
        ready: list[tuple[ShipState, ShipState, WeaponKind, float]] = []
        for ship in self.locked:
            lock = ship.lock
            if lock is None or not lock.pending:
                continue
            if not ship.alive or not ship.in_control:
                ship.lock = None
                continue
            target = self.ships[lock.target]
            if not target.alive:
                ship.lock = None
                continue
            if not lock.pending:
                continue
            if lock.reaction_to is not None and self.moving != lock.reaction_to:
                continue
            dx, dy = target.x - ship.x, target.y - ship.y
            dist = math.sqrt(dx * dx + dy * dy)
            ranges = ship.ranges
            in_range = [k for k in lock.pending if dist <= ranges[k]]
            if not in_range:
                continue
            if arc_to(ship.x, ship.y, ship.heading, target.x, target.y) is not lock.arc:
                continue
            if self.blockers and not self._clear_of_terrain(ship, target):
                continue
            if not self.rules.line_of_fire_clear(self, ship, target):
                continue
            for k in in_range:
                lock.pending.remove(k)
                ready.append((ship, target, k, dist))
        if ready:
            self._fire(ready)
            self.locked = [s for s in self.locked if s.lock is not None and s.lock.pending]

    def _fire(self, ready: list[tuple[ShipState, ShipState, WeaponKind, float]]) -> None:
        """Resolve the groups that became ready at one moment, in the order the rules give.

        One side: ship by ship, all phasers, then all photons (FPF-FIRE-08, FPF-FIRE-09). Both sides
        at
        once (a head-on exchange, FPF-FIRE-14): longest range first across both sides; groups
        of equal range on opposite sides roll together, then their damage lands together.
        """
        sides = {s.side for s, _, _, _ in ready}
        if len(sides) == 1:
            ready.sort(key=lambda r: (r[2] is WeaponKind.PHOTON, r[0].index))
            for ship, target, kind, dist in ready:
                if _can_still_fire(ship, target, kind):
                    self._apply_hits(self._roll_group(ship, target, kind, dist))
            return
        ready.sort(key=lambda r: (-r[0].range_of(r[2]), r[0].index))
        i = 0
        while i < len(ready):
            rng = ready[i][0].range_of(ready[i][2])
            tier = [r for r in ready[i:] if r[0].range_of(r[2]) == rng]
            i += len(tier)
            # what an earlier tier destroyed, knocked out or took control of fires no more
            tier = [r for r in tier if _can_still_fire(r[0], r[1], r[2])]
            if len({r[0].side for r in tier}) == 1:
                tier.sort(key=lambda r: (r[2] is WeaponKind.PHOTON, r[0].index))
                for ship, target, kind, dist in tier:
                    if _can_still_fire(ship, target, kind):
                        self._apply_hits(self._roll_group(ship, target, kind, dist))
            else:
                rolled = [self._roll_group(s, t, k, d) for s, t, k, d in tier]
                for hits in rolled:
                    self._apply_hits(hits)

    def _roll_group(
        self, ship: ShipState, target: ShipState, kind: WeaponKind, dist: float
    ) -> tuple[ShipState, ShipState, WeaponKind, list[tuple[int, int]]]:
        """Roll one group's penetration, location and damage dice (FPF-DMG-01, FPF-DMG-02,
        FPF-DMG-03, FPF-DMG-04, FPF-DMG-05, FPF-DMG-06)."""
        # evasion makes a shot as hard as if the weapon were that much weaker (card effects)
        strength = ship.strength[kind] - self.rules.evasion(self, ship, target)
        shots = ship.shots(kind)
        dice = self.dice
        rolls = self.rules.after_roll(self, ship, target, strength, dice.many(shots, 10))
        penetrates = self.rules.penetrates
        hits: list[tuple[int, int]] = []
        for roll in rolls:
            if penetrates(self, ship, target, strength, roll):
                loc_roll = dice.d10()
                dmg = dice.d6() if kind is WeaponKind.PHOTON else 1
                hits.append((loc_roll, dmg))
        self.stats.volleys += 1
        self.stats.shots += shots
        self.log.record(
            ev.VolleyFired,
            ship.id,
            target.id,
            str(kind),  # a StrEnum's str() is its value, quicker to reach than .value
            shots,
            strength,
            target.shields,
            round(dist, 3),
            rolls,
        )
        return ship, target, kind, hits

    def _apply_hits(
        self, rolled: tuple[ShipState, ShipState, WeaponKind, list[tuple[int, int]]]
    ) -> None:
        ship, target, kind, hits = rolled
        attack_arc = arc_to(target.x, target.y, target.heading, ship.x, ship.y)
        for loc_roll, dmg in hits:
            if not target.alive:
                break
            self.apply_damage(target, loc_roll, dmg, attack_arc, ship, str(kind))

    def apply_damage(
        self,
        target: ShipState,
        loc_roll: int,
        amount: int,
        attack_arc: Arc,
        by: ShipState | None,
        weapon: str,
    ) -> None:
        """Damage to superstructure and the location hit (FPF-DMG-07, FPF-DMG-08, FPF-DMG-09,
        FPF-DMG-10, FPF-DMG-11, FPF-DMG-12, FPF-DMG-13, FPF-DMG-14)."""
        loc = target.cls.hit_locations.by_face[loc_roll]
        target.superstructure -= amount
        applied = "superstructure"
        value = target.superstructure
        if loc is Location.SHIELDS:
            if target.shields > 0:
                target.shields = max(0, target.shields - amount)
                applied, value = "shields", target.shields
        elif loc is Location.ENGINE_POWER:
            if target.engine_power > 0:
                target.engine_power = max(
                    0, target.engine_power - self.rules.engine_damage(self, target, amount)
                )
                applied, value = "engine_power", target.engine_power
        elif loc is Location.COMPUTER:
            # Systems keep falling below zero, to -10 (FPF-DMG-14)
            target.systems = max(SYSTEMS_FLOOR, target.systems - amount)
            applied, value = "computer", target.systems
        else:
            kind = WeaponKind.PHASER if loc is Location.PHASERS else WeaponKind.PHOTON
            w = target.cls.weapon(kind)
            mounts = target.mounts[kind]
            # a weapon is only damaged by fire from an arc it covers (FPF-DMG-09)
            if w is not None and w.bears(attack_arc) and sum(mounts) > 0:
                _damage_mounts(mounts, amount)
                applied, value = str(loc), sum(mounts)
        self.log.record(
            ev.HitScored,
            by.id if by else "",
            target.id,
            weapon,
            loc_roll,
            str(loc),
            amount,
            applied,
            target.superstructure,
            value,
        )
        if target.superstructure <= 0:
            self.rules.destroyed(self, target, by)
        elif target.in_control and (target.engine_power <= 0 or target.systems <= 0):
            self.set_control(target, False)

    def set_control(self, ship: ShipState, in_control: bool) -> None:
        """A ship loses or regains control (FPF-DMG-13); it leaves its formation when lost."""
        ship.in_control = in_control
        self.log.record(ev.ControlChanged, ship.id, in_control)
        if not in_control:
            ship.lock = None
            self.leave_formation(ship)

    def leave_formation(self, ship: ShipState) -> None:
        """Take a ship out of its squadron's formation; a new leader takes over if needed."""
        squadron = self.squadrons[ship.squadron]
        if ship.id not in squadron.formation:
            return
        was_leader = squadron.formation[0] == ship.id
        squadron.formation.remove(ship.id)
        squadron.offsets.pop(ship.id, None)
        ship.detached = True
        if was_leader and squadron.formation:
            shift = squadron.offsets[squadron.formation[0]]
            squadron.trail.drop_front(shift)
            for sid in squadron.formation:
                squadron.offsets[sid] -= shift

    def discard_card(self, ship: ShipState, card: str) -> None:
        """A ship discards one of its cards; it is gone for the battle (PP-08)."""
        ship.cards.remove(card)
        self.lost_cards.setdefault(ship.id, set()).add(card)

    def take_card(self, thief: ShipState, victim: ShipState, card: str) -> None:
        """A card stolen or assimilated: it stays with the thief (PP-14) until the thief's own
        reset, when it leaves the game as a card the thief did not start with (PP-09)."""
        victim.cards.remove(card)
        self.lost_cards.setdefault(victim.id, set()).add(card)
        thief.cards.append(card)

    def remove(self, ship: ShipState, by: ShipState | None, derelict: bool) -> None:
        """Take a destroyed ship out of play (FPF-DMG-11) or leave it derelict (FPF-OPT-01)."""
        self.leave_formation(ship)
        ship.destroyed = not derelict
        ship.derelict = derelict
        ship.lock = None
        self.log.record(ev.ShipDestroyed, ship.id, by.id if by else "", derelict)

    # --- end ----------------------------------------------------------------------------------

    def destroyed_value(self) -> dict[str, int]:
        """Points of each side's fleet destroyed so far (keyed by the side that lost them)."""
        out = dict.fromkeys(SIDES, 0)
        for s in self.ships.values():
            if s.destroyed or s.derelict:
                out[s.side] += s.cls.value
        return out

    def over(self) -> bool:
        """Whether the battle has ended before its turn limit (the rules decide how)."""
        return self.result is not None or self.rules.battle_over(self)

    def finish(self) -> Result:
        """Record the result (once)."""
        if self.result is None:
            winner, reason = self.rules.result(self)
            self.result = Result(winner, reason, self.turn, self.destroyed_value())
            self.log.record(ev.BattleEnded, winner, reason, self.turn, self.result.destroyed_value)
        return self.result

    def events(self) -> Iterator[ev.Event]:
        """The battle's events, built on demand."""
        return iter(self.log)


class _ByIdentity(Generic[T]):
    """Results worked out once per object (or objects) and kept by identity: sweeps and
    tournaments play the same frozen scenario and fleet objects again and again. An entry holds
    its objects, so their ids cannot pass to others while it stands; at most `size` entries."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._known: dict[tuple[int, ...], tuple[tuple[object, ...], T]] = {}

    def get(self, objects: tuple[object, ...], make: Callable[[], T]) -> T:
        """The result for `objects`: the kept one, or `make()` (kept unless it raises)."""
        key = tuple(map(id, objects))
        known = self._known.get(key)
        if known is not None:
            return known[1]
        value = make()
        if len(self._known) >= self.size:
            self._known.clear()
        self._known[key] = (objects, value)
        return value


_PLAYABLE: _ByIdentity[None] = _ByIdentity()  # (fleet, pack) pairs already checked
_DUMPS: _ByIdentity[dict[str, Any]] = _ByIdentity()  # JSON forms of scenarios and fleets


def _dump(model: Scenario | Fleet) -> dict[str, Any]:
    """The JSON form of a (frozen) scenario or fleet for a log header, made once per object.
    Headers share it: read-only."""
    return _DUMPS.get((model,), lambda: model.model_dump(mode="json"))


def _check_playable(fleet: Fleet, side: str, pack: ShipPack) -> None:
    """Refuse a fleet a battle cannot field (unknown ids, squadrons over three ...); a fleet
    found playable with a pack is not checked again."""
    from kolrami.fleet.legality import PLAY_BLOCKING, validate

    def check() -> None:
        found = validate(fleet, limit=None, pack=pack).errors
        problems = [e for e in found if e.code in PLAY_BLOCKING]
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            first = problems[0]
            raise InvalidInputError(
                f"fleet {side} '{fleet.name}': {first.path}: {first.message}{more}"
            )

    _PLAYABLE.get((fleet, pack), check)


def _can_still_fire(ship: ShipState, target: ShipState, kind: WeaponKind) -> bool:
    """A group still fires if its ship is in play and in control, its target is in play and
    the weapon has working shots: damage lands at once (FPF-DMG-11, FPF-DMG-12, FPF-DMG-13)."""
    return ship.alive and ship.in_control and target.alive and ship.shots(kind) > 0


def _damage_mounts(mounts: list[int], amount: int) -> None:
    """Remove `amount` shots, concentrated on the weakest working mount (owner's choice, see
    docs/rules.md FPF-DATA): a mount knocked out needs only one Damage Control point."""
    for _ in range(amount):
        working = [i for i, v in enumerate(mounts) if v > 0]
        if not working:
            return
        i = min(working, key=lambda j: (mounts[j], j))
        mounts[i] -= 1


def _edge_exit(x0: float, y0: float, x1: float, y1: float, w: float, h: float) -> float | None:
    """Fraction of the segment at which the centre leaves the table, or None."""
    if 0.0 <= x1 <= w and 0.0 <= y1 <= h:
        return None
    t = 1.0
    dx, dy = x1 - x0, y1 - y0
    for edge, d, origin in ((0.0, dx, x0), (w, dx, x0), (0.0, dy, y0), (h, dy, y0)):
        if d != 0.0:
            te = (edge - origin) / d
            # a start on the edge may sit a rounding error outside: that is a crossing at 0
            if -1e-9 <= te < t:
                t = max(0.0, te)
    return t


def _point_on(path: list[tuple[float, float, int]], at: float) -> tuple[float, float, int]:
    along = 0.0
    for (x0, y0, _), (x1, y1, h1) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if at <= along + seg or (x1, y1) == path[-1][:2]:
            t = 0.0 if seg == 0 else min(1.0, (at - along) / seg)
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1
        along += seg
    return path[-1]


def _cut(path: list[tuple[float, float, int]], at: float) -> list[tuple[float, float, int]]:
    out = [path[0]]
    along = 0.0
    for (x0, y0, _), (x1, y1, h1) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        if along + seg >= at:
            t = 0.0 if seg == 0 else (at - along) / seg
            out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, h1))
            return out
        out.append((x1, y1, h1))
        along += seg
    return out


def _back_off(
    path: list[tuple[float, float, int]], end: float, cx: float, cy: float, reach: float
) -> float:
    """The largest distance <= end along the path whose point is clear of (cx, cy) by reach."""
    along = 0.0
    segs = []
    for (x0, y0, _), (x1, y1, h1) in pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        segs.append((along, x0, y0, h1, seg))
        along += seg
    for start, x0, y0, h, seg in reversed(segs):
        if start >= end:
            continue
        length = min(seg, end - start)
        t = entry_distance(x0, y0, h, length, cx, cy, reach)
        if t is not None:
            return start + max(0.0, t - 1e-6)
        return start + length
    return 0.0
