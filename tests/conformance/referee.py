"""An independent referee: reads one battle's event log and lists every rule it breaks.

Written from the seeds and the catalogue (../shared/rules/catalogue.toml) and the readings in
docs/rules.md, never from the engine: the checkers import no rule or engine function, only the
ship sheets' numbers and the cards' costs from kolrami.catalog. They do their own geometry and
their own bookkeeping of every ship (position, heading, speed, shields, engines, systems, weapon
mounts, superstructure, control, tokens, Fleet Points) from the facts in the log, and check each
fact against it. (The last section, which plays seeded battles for the referee to read, uses
the public kolrami.sim.play.simulate, and kolrami.rules.new_battle only to learn which option
combinations the rule binder refuses.)

Where the log does not say something a rule needs, the referee accepts anything the log allows
and flags only what no reading of the log can make legal:
- the moment of a move at which a volley was fired is not logged: every moment of the move
  (ships at a constant pace along their logged paths) is tried, and a volley is legal if its
  logged range, arc, line of fire and the arc its hits came from all fit one of them;
- a wingman's logged path is its start and end only, so its heading on the way is taken as its
  own start or end heading or a heading of the leader's path;
- card effects are read from card_used's text ("shields 15"); a format 2 log's `changes` must
  say the same;
- the speed a returned ship comes back at is the scenario's starting speed (docs/rules.md
  PP-11).

`referee(events)` returns the violations, one `Violation` each; `str(v)` is one line naming the
clause, the turn and the ships. One checker class per clause group, each citing its ids.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from typing import Any

from kolrami.captains.registry import BUILTIN
from kolrami.catalog.cards import get_card
from kolrami.catalog.loader import builtin_pack
from kolrami.catalog.models import ShipClass
from kolrami.errors import KolramiError
from kolrami.fleet import fpf_preset_names
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.registry import describe
from kolrami.scenarios import Scenario
from kolrami.scenarios import load_scenario
from kolrami.sim.play import simulate

Event = dict[str, Any]
Point = tuple[float, float]

# ---------------------------------------------------------------------------------------------
# Violations


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken clause: its id, the turn, the ships involved and what happened."""

    clause: str
    turn: int
    ships: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        who = ",".join(self.ships) or "-"
        return f"{self.clause} turn {self.turn} {who}: {self.detail}"


# ---------------------------------------------------------------------------------------------
# Geometry, our own (cm on a plane, headings in 60-degree steps, +1 a turn to port)

HEX = 6
EPS_CM = 0.02  # the log rounds positions to 0.001 cm; lengths add a few roundings
EPS_DEG = 0.6  # arc and heading tolerance for rounded positions


def unit(heading: int) -> Point:
    """The direction a ship with this heading faces: 0 is up the table (+y), +1 turns to port."""
    a = math.radians(60 * heading)
    return -math.sin(a), math.cos(a)


def bearing(heading: int, x: float, y: float, px: float, py: float) -> float:
    """Angle in degrees from the ship's bow to (px, py), positive to port, in (-180, 180]."""
    ux, uy = unit(heading)
    dx, dy = px - x, py - y
    cross = ux * dy - uy * dx
    dot = ux * dx + uy * dy
    return math.degrees(math.atan2(cross, dot))


def arcs_at(rel: float, tol: float = EPS_DEG) -> set[str]:
    """The 90-degree arcs a relative bearing lies in (FPF-ARC-01): F, P, A, S; a bearing
    exactly on a boundary is front or rear (docs/rules.md), and within `tol` of one it may be
    either side of it."""
    out = set()
    a = abs(rel)
    if a <= 45 + tol:
        out.add("F")
    if a >= 135 - tol:
        out.add("A")
    if 45 - tol < rel < 135 + tol:
        out.add("P")
    if -135 - tol < rel < -45 + tol:
        out.add("S")
    return out


def leg_heading(p: Point, q: Point) -> int | None:
    """The hex heading a straight leg p->q runs along, or None if it runs along none."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length < 0.05:
        return None
    for h in range(HEX):
        ux, uy = unit(h)
        if abs(ux * dy - uy * dx) / length < 0.002 + EPS_CM / length and ux * dx + uy * dy > 0:
            return h
    return None


def turn_of(a: int, b: int) -> int:
    """The smallest number of hex faces from heading a to heading b (0 to 3)."""
    d = (b - a) % HEX
    return min(d, HEX - d)


def seg_len(p: Point, q: Point) -> float:
    return math.hypot(q[0] - p[0], q[1] - p[1])


def segment_meets_circle(p: Point, q: Point, c: Point, r: float) -> bool:
    """Whether the segment p-q passes within r of c (strictly inside)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / ll))
    cx, cy = p[0] + t * dx, p[1] + t * dy
    return math.hypot(c[0] - cx, c[1] - cy) < r - EPS_CM


@dataclass(slots=True)
class Path:
    """A ship's path during one move: its points and the heading on each leg."""

    points: list[Point]
    start_heading: int
    end_heading: int
    #: headings it may have on a leg that runs along no hex heading (a wingman's logged
    #: start-to-end line): those of the leader's path it follows
    extra: set[int] = field(default_factory=set)

    @property
    def length(self) -> float:
        return sum(seg_len(a, b) for a, b in zip(self.points, self.points[1:], strict=False))

    def at(self, t: float) -> tuple[Point, set[int]]:
        """Where the ship is at fraction t of its move (constant pace along the path), and the
        headings it may have there (both of them at a turn point)."""
        legs = [(a, b) for a, b in zip(self.points, self.points[1:], strict=False)]
        lengths = [seg_len(a, b) for a, b in legs]
        total = sum(lengths)
        if total < 1e-9:
            return self.points[-1], {self.start_heading, self.end_heading}
        goal = t * total
        along = 0.0
        for i, ((a, b), n) in enumerate(zip(legs, lengths, strict=True)):
            if n < 1e-9:
                continue
            if goal <= along + n + 1e-9 or i == len(legs) - 1:
                f = min(1.0, max(0.0, (goal - along) / n))
                pos = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
                h = leg_heading(a, b)
                heads = (
                    {h} if h is not None else {self.start_heading, self.end_heading, *self.extra}
                )
                if f * n < 0.05:  # at the start of this leg: the turn may not be made yet
                    before = leg_heading(*legs[i - 1]) if i > 0 else self.start_heading
                    heads.add(self.start_heading if before is None else before)
                if (1 - f) * n < 0.05:  # at its end: the next turn may be made already
                    after = leg_heading(*legs[i + 1]) if i + 1 < len(legs) else None
                    heads.add(self.end_heading if after is None else after)
                return pos, heads
            along += n
        return self.points[-1], {self.end_heading}


# ---------------------------------------------------------------------------------------------
# What the referee knows of each ship


#: A ship's tracks as the log names them (hit_scored.applied_to, ship_repaired.item), and the
#: fields of the referee's record that keep them.
TRACKS = {"shields": "shields", "engine_power": "engine", "computer": "systems"}


@dataclass(slots=True)
class Ship:
    """The referee's own record of one ship, kept from the log's facts."""

    id: str
    side: str
    squadron: str
    cls: ShipClass
    x: float
    y: float
    heading: int
    total_sp: int = 0
    superstructure: int = 0
    shields: int = 0
    max_shields: int = 0
    engine: int = 0
    max_engine: int = 0
    systems: int = 0
    max_systems: int = 0
    damage_control: int = 0
    evasion: int = 0
    strength: dict[str, int] = field(default_factory=dict)
    range_cm: dict[str, int] = field(default_factory=dict)
    arcs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    mounts: dict[str, list[int]] = field(default_factory=dict)
    printed_mounts: dict[str, tuple[int, ...]] = field(default_factory=dict)
    last_speed: int = 0
    speed: int = 0  # what it recorded this turn (ship_moved.speed)
    moved: float | None = None  # distance moved this turn, None until it moves
    destroyed: bool = False
    derelict: bool = False
    out_of_play: bool = False
    tokens: int = 0
    detached: bool = False
    in_control: bool = True
    # this turn's fire
    declared: tuple[str, str, str | None] | None = None  # target, arc, reaction to
    fired_kinds: set[str] = field(default_factory=set)
    declared_turn: int = 0
    reset_turn: int = 0
    postponed_turn: int = -1

    @property
    def on_table(self) -> bool:
        return not self.destroyed and not self.out_of_play

    @property
    def alive(self) -> bool:
        return self.on_table and not self.derelict

    @property
    def pos(self) -> Point:
        return self.x, self.y

    def shots(self, kind: str) -> int:
        return sum(self.mounts.get(kind, []))

    def bears(self, kind: str, arc: str) -> bool:
        return arc in self.arcs.get(kind, ())

    def should_be_in_control(self) -> bool:
        """Out of control while Engine Power is 0 or Systems 0 or below (FPF-DMG-13); a fixed
        base has no engines to lose, only its Systems (docs/rules.md, Bases in FPF)."""
        return (self.engine > 0 or self.cls.max_speed_cm == 0) and self.systems > 0

    def armed(self) -> bool:
        return any(self.shots(k) > 0 for k in self.mounts)


# ---------------------------------------------------------------------------------------------
# Orders, read from their documented text form (docs: rules/fpf/orders.py's grammar)


@dataclass(frozen=True, slots=True)
class Manoeuvre:
    speed: int
    turn1: int
    turn2: int
    pivot: int | None
    jump: bool


MANOEUVRE = re.compile(r"(SPD|JMP) (\d+) (T|PIV)([+-]?\d+) T([+-]?\d+)")


def read_manoeuvres(order: str) -> dict[str | None, Manoeuvre]:
    """The manoeuvres of a squadron's orders: None for the formation, else a ship id."""
    body = order.split(" FIRE ")[0].removesuffix(" HOLD")
    out: dict[str | None, Manoeuvre] = {}
    for m in re.finditer(r"(?:(\w+)=)?" + MANOEUVRE.pattern, body):
        who, kind, speed, first, n1, n2 = m.groups()
        pivot = int(n1) if first == "PIV" else None
        out[who] = Manoeuvre(
            int(speed), 0 if pivot is not None else int(n1), int(n2), pivot, kind == "JMP"
        )
    return out


# ---------------------------------------------------------------------------------------------
# The state the checkers share


HIT_TABLE = {
    **dict.fromkeys((1, 2, 3, 4), "shields"),
    **dict.fromkeys((5, 6, 7), "engine_power"),
    8: "phasers",
    9: "photons",
    10: "computer",
}  # FPF-DMG-06: the d10 face printed 0 is 10
SYSTEMS_FLOOR = -10  # FPF-DMG-14
MAX_SPEED = 40  # FPF-MOV-06
PIVOT_COST = 5  # FPF-MOV-13
ATTACK_KINDS = ("phaser", "photon")


@dataclass(slots=True)
class PendingVolley:
    """A volley rolled whose penetrating shots have not all landed yet."""

    side: str
    ship: str
    target: str
    weapon: str
    expected: int
    allowed: frozenset[int] = frozenset()
    landed: int = 0
    gone: bool = False  # the target left play: the rest of its hits never land
    #: its own hits took the target out of play (destroyed, left derelict or reset)
    finished: bool = False
    plain: int = -1  # penetrations counted without the natural 1 and 10
    shield_cut: int = 0  # shield points its hits took off the target
    moments: list[tuple[float, dict[str, tuple[Point, set[int]]]]] = field(default_factory=list)
    run: int = 0  # the run of volleys it was rolled in (`State.run`)


@dataclass(slots=True)
class Window:
    """The move an event falls in: the ships moving and their paths (index of the block)."""

    paths: dict[str, Path]
    distances: dict[str, float]
    #: ships of the moving squadron that left play before their move was logged: where they
    #: were when they went is not in the log
    lost: set[str] = field(default_factory=set)
    #: ships of the moving squadron stopped in their tracks by fire as they set off (destroyed,
    #: reset or out of control before the move was logged): they were moving when hit
    halted: set[str] = field(default_factory=set)


class State:
    """Everything the referee has worked out so far, and the log's look-ahead facts."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = events
        self.violations: list[Violation] = []
        self.turn = 0
        self.header: dict[str, Any] = {}
        self.scenario: dict[str, Any] = {}
        self.rules: set[str] = set()
        self.ships: dict[str, Ship] = {}
        self.squadrons: dict[str, list[str]] = {}
        self.escorts: set[str] = set()  # non-combatant escorts (FPF-MASK-04, SquadronChecker)
        self.formation: dict[str, list[str]] = {}
        self.active: str | None = None
        self.phase = "setup"  # setup, start, repairs, initiative, end
        self.order_by_squadron: dict[str, dict[str | None, Manoeuvre]] = {}
        self.engine_at_order: dict[str, int] = {}
        self.control_at_order: dict[str, bool] = {}
        self.pending: list[PendingVolley] = []
        #: volleys rolled at a target before the same side's earlier hits on it landed, to check
        #: once the run is over: an exchange if both sides fired in the run (FPF-FIRE-09)
        self.exchange_checks: list[tuple[str, str, int, int, list[PendingVolley], int]] = []
        #: the same, from the volley order's side: (ships, message, run)
        self.order_checks: list[tuple[list[str], str, int]] = []
        #: volleys follow one another in runs, each run ended by a hit or any other event; the
        #: sides that fired in each run (a run fired by both sides is a simultaneous exchange)
        self.run = 0
        self.run_open = False
        self.run_sides: dict[int, set[str]] = {}
        self.fleet_points = {"A": 0, "B": 0}
        self.resource_scored = {"A": False, "B": False}
        self.resources: dict[str, tuple[str, int] | None] = {"A": None, "B": None}
        self.index = 0
        self.windows: dict[int, Window] = {}
        self.moved_this_turn: dict[tuple[int, str], float] = {}
        self.formation_heads: dict[str, set[int]] = {}
        self.formation_at_order: dict[str, list[str]] = {}
        self.control_events: set[tuple[str, bool]] = set()
        self.control_lost_unlogged: list[str] = []
        self.activated_this_turn: list[tuple[str, str | None]] = []
        self.stopped_short: set[str] = set()
        self.jumping: set[str] = set()
        self.bonus_sides: set[str] = set()
        self.initiative_speeds: dict[str, int] = {}
        self.tier_first: dict[int, str] = {}
        self.ended = False
        self.volley_moments: list[tuple[float, dict[str, tuple[Point, set[int]]]]] = []
        self.initiative_bonus = False
        #: a head-on exchange under way (volleys logged with `exchange`, each with its hits
        #: right after it): its range, and each ship's standing as it began (in play, in
        #: control, working shots by weapon), which its groups fire with (FPF-FIRE-14)
        self.exchange: float | None = None
        self.exchange_start: dict[str, tuple[bool, bool, dict[str, int]]] = {}
        #: when a ship lost control this turn: the event's index and the latest moment of the
        #: move (fraction) at which the volley that did it may have been fired
        self.lost_control_at: dict[str, tuple[int, float, float]] = {}
        self._lookahead()

    # --- look-ahead over the whole log (facts the log gives only later) ---

    def _lookahead(self) -> None:
        """Which move each event falls in, which moving ships left play before their move was
        logged, and how far each ship moved in each turn.

        A move is the formation's ships together, or one ship flying on its own (its own
        manoeuvre in the orders, or out of control): the log writes their ship_moved events
        one after another, and an event falls in the next move of its activation."""
        turn = 0
        active: str | None = None
        squadron_of: dict[str, str] = {}
        block_for: dict[int, int] = {}
        pending_idx: list[int] = []
        gone: set[str] = set()
        halted: set[str] = set()
        adrift: set[str] = set()  # out of control, by the log's control_changed
        alone: set[str] = set()
        ev = self.events

        def close(at: int) -> None:
            # an activation that ends with nobody left to log a move
            nonlocal pending_idx, gone, halted
            if pending_idx and gone:
                self.windows[at] = Window({}, {}, set(gone), halted | gone)
                for k in pending_idx:
                    block_for[k] = at
            pending_idx, gone, halted = [], set(), set()

        def window(k0: int, k1: int) -> None:
            nonlocal pending_idx, gone, halted
            block = ev[k0:k1]
            paths = {
                e["ship"]: Path([(p[0], p[1]) for p in e["path"]], -1, e["heading"]) for e in block
            }
            distances = {e["ship"]: e["distance"] for e in block}
            self.windows[k0] = Window(paths, distances, gone - set(paths), halted | gone)
            for k in [*pending_idx, *range(k0, k1)]:
                block_for[k] = k0
            pending_idx, gone, halted = [], set(), set()
            for e in block:
                key = (turn, e["ship"])
                self.moved_this_turn[key] = self.moved_this_turn.get(key, 0.0) + e["distance"]

        i = 0
        while i < len(ev):
            e = ev[i]
            kind = e["e"]
            if kind == "ship_placed":
                squadron_of[e["ship"]] = e["squadron"]
            elif kind == "turn_started":
                turn = e["turn"]
            elif kind == "control_changed":
                (adrift.discard if e["in_control"] else adrift.add)(e["ship"])
            elif kind in ("ship_reset", "ship_returned"):
                adrift.discard(e["ship"])
            if kind in ("squadron_activated", "turn_ended", "turn_started"):
                close(-i - 1)
                active = e.get("squadron") if kind == "squadron_activated" else None
                alone = {s for s in adrift if squadron_of.get(s) == active}
            if kind == "order_given" and active and e["order"].startswith(active + " "):
                alone = {k for k in read_manoeuvres(e["order"]) if k is not None}
                alone |= {s for s in adrift if squadron_of.get(s) == active}
            if kind in ("ship_destroyed", "ship_reset") and squadron_of.get(e["ship"]) == active:
                gone.add(e["ship"])
            lost_control = kind == "control_changed" and not e["in_control"]
            if lost_control and squadron_of.get(e["ship"]) == active:
                halted.add(e["ship"])
            if kind != "ship_moved":
                pending_idx.append(i)
                i += 1
                continue
            j = i
            while j < len(ev) and ev[j]["e"] == "ship_moved":
                j += 1
            k0 = i
            while k0 < j:
                k1 = k0 + 1
                if ev[k0]["ship"] not in alone:
                    while k1 < j and ev[k1]["ship"] not in alone:
                        k1 += 1
                window(k0, k1)
                k0 = k1
            i = j
        self.block_for = block_for

    def window(self) -> Window | None:
        b = self.block_for.get(self.index)
        return self.windows.get(b) if b is not None else None

    def set_to_fly(self, sid: str) -> float | None:
        """How far a ship of the move now under way is set to fly at this moment of the log:
        the move's distance and what it is stopped short of later in the move (fire that
        stops it after this moment); None when it is not in the move."""
        win = self.window()
        if win is None or sid not in win.distances:
            return None
        end = self.block_for.get(self.index, -1)
        later: float = sum(
            float(e["lost_cm"])
            for e in self.events[self.index + 1 : max(end, self.index + 1)]
            if e["e"] == "stopped_short" and e["ship"] == sid
        )
        return float(win.distances[sid]) + later

    # --- helpers ---

    def firing(self, e: Event) -> tuple[bool, bool, dict[str, int]]:
        """A volley's ship as it fired: in play, in control, its working shots by weapon; as
        the exchange began for a volley of one (docs/rules.md FPF-FIRE-14)."""
        ship = self.ships[e["ship"]]
        if e.get("exchange") is not None and ship.id in self.exchange_start:
            return self.exchange_start[ship.id]
        return ship.alive, ship.in_control, {k: ship.shots(k) for k in ship.mounts}

    def flag(self, clause: str, ships: Iterable[str], detail: str) -> None:
        self.violations.append(Violation(clause, self.turn, tuple(ships), detail))

    def sc(self, name: str, default: Any) -> Any:
        return self.scenario.get(name, default)

    @property
    def peak(self) -> bool:
        return "battle-simulation" in self.rules

    def masking_method_1(self) -> bool:
        return "masking-none" not in self.rules and self.sc("masking", "method-1") == "method-1"

    def planets(self) -> list[tuple[Point, float]]:
        return [
            ((t["x"], t["y"]), t["radius_cm"])
            for t in self.sc("terrain", [])
            if t.get("kind") == "planet"
        ]

    def leader(self, squadron: str) -> str | None:
        form = [s for s in self.formation.get(squadron, []) if self.ships[s].alive]
        if form:
            return form[0]
        live = [s for s in self.squadrons[squadron] if self.ships[s].alive]
        return live[0] if live else None

    def squadron_speed(self, squadron: str) -> int:
        """A squadron's initiative speed: last turn's speed of its leader (FPF-MOV-02)."""
        lead = self.leader(squadron)
        return self.ships[lead].last_speed if lead else 0

    def leave_formation(self, ship: Ship) -> None:
        form = self.formation.get(ship.squadron, [])
        if ship.id in form:
            form.remove(ship.id)
        ship.detached = True

    def positions_at(
        self, t: float, win: Window | None, only: Iterable[str] | None = None
    ) -> dict[str, tuple[Point, set[int]]]:
        """Every ship on the table (or those named) at fraction t of the current move, with
        the headings it may have there."""
        out: dict[str, tuple[Point, set[int]]] = {}
        ships = self.ships.values() if only is None else [self.ships[x] for x in only]
        for s in ships:
            if not s.on_table:
                continue
            if win is not None and s.id in win.paths:
                p = win.paths[s.id]
                p.start_heading = s.heading
                p.extra = self.formation_heads.get(s.squadron, set())
                out[s.id] = p.at(t)
            else:
                out[s.id] = (s.pos, {s.heading})
        return out


# ---------------------------------------------------------------------------------------------
# The checkers: one per clause group


class Checker:
    """Base: a checker may look at an event before and after the referee's state takes it in."""

    def before(self, st: State, e: Event) -> None:
        return None

    def after(self, st: State, e: Event) -> None:
        return None


class MovementChecker(Checker):
    """Movement limits and the path (FPF-MOV-01, FPF-MOV-02, FPF-MOV-06, FPF-MOV-07, FPF-MOV-08,
    FPF-MOV-09, FPF-MOV-11, FPF-MOV-12, FPF-MOV-13, FPF-TURN-03, FPF-OPT-01, FPF-OPT-04, PP-03,
    PP-05)."""

    def before(self, st: State, e: Event) -> None:
        if e["e"] == "order_given" and st.active and e["order"].startswith(st.active + " "):
            self._orders(st, st.active, e["order"])
        if e["e"] != "ship_moved":
            return
        ship = st.ships[e["ship"]]
        sid = ship.id
        pts = [(p[0], p[1]) for p in e["path"]]
        dist = float(e["distance"])
        if ship.destroyed:
            st.flag("FPF-DMG-11", [sid], "a destroyed ship moved")
            return
        win = st.window()
        hit_on_the_way = win is not None and sid in win.halted  # left derelict during this move
        if ship.derelict and not hit_on_the_way:
            st.flag("FPF-OPT-01", [sid], "a derelict flew with its squadron")
        if ship.out_of_play:
            st.flag("PP-05", [sid], "a reset ship moved while off the table")
        if ship.squadron != st.active:
            st.flag("FPF-MOV-01", [sid], f"moved while {st.active} was activated")
        if st.moved_this_turn.get((st.turn, sid), 0.0) != dist:
            st.flag("FPF-MOV-01", [sid], "moved twice in one turn")
        orders = st.order_by_squadron.get(ship.squadron, {})
        m = orders.get(sid)
        in_formation = sid in st.formation_at_order.get(ship.squadron, [])
        if m is None and in_formation:
            m = orders.get(None)
        jump = m is not None and m.jump and "micro-warp-jump" in st.rules
        path_len = sum(seg_len(a, b) for a, b in itertools.pairwise(pts))
        # FPF-MOV-06: 40 cm at most, a micro warp jump excepted (FPF-OPT-04)
        if dist > MAX_SPEED + EPS_CM and not jump:
            st.flag("FPF-MOV-06", [sid], f"moved {dist:g} cm, more than 40")
        if e["speed"] > MAX_SPEED:
            st.flag("FPF-MOV-06", [sid], f"records speed {e['speed']}, more than 40")
        # FPF-TURN-03: the speed recorded is the distance actually moved
        if not jump and abs(e["speed"] - dist) > 0.5 + 0.002:
            st.flag("FPF-TURN-03", [sid], f"records speed {e['speed']} after moving {dist:g} cm")
        # the logged path is the path flown: its length is the distance moved
        if abs(path_len - dist) > 0.05:
            clause = "FPF-MOV-09" if in_formation else "FPF-MOV-07"
            st.flag(
                clause, [sid], f"logged path is {path_len:.2f} cm long, the ship moved {dist:g}"
            )
        out_of_control = not st.control_at_order.get(sid, ship.in_control)
        first_turn = False  # out of control only after its first turn point
        lost = st.lost_control_at.get(sid)
        if lost is not None and (not ship.in_control or ship.derelict) and not out_of_control:
            # lost control during this turn's activation: before this move began (an earlier
            # move of the activation, or a volley before the first step) it must drift;
            # FPF-MOV-12 then forbids the turns still to come
            same_move = st.block_for.get(lost[0]) == st.block_for.get(st.index)
            straight = (
                len({leg_heading(a, b) for a, b in itertools.pairwise(pts) if seg_len(a, b) > 0.05})
                <= 1
            )
            if not same_move or lost[1] * max(dist, 1.0) <= 0.1:
                out_of_control = True  # (lost as it set off: within a millimetre of its start)
            elif lost[2] <= self._turn_point(m, dist) and straight:
                # it may have lost control before its second turn: straight on from there,
                # on the heading its first turn gave it
                out_of_control = True
                first_turn = True
            elif (
                lost[1] < 0.49
                and len(pts) == 3
                and leg_heading(pts[0], pts[1]) != leg_heading(pts[1], pts[2])
                # (a wingman turns where its trail does, which may be before control went)
                and seg_len(pts[0], pts[1]) > lost[1] * dist + EPS_CM
            ):
                st.flag("FPF-MOV-12", [sid], "lost control in the first half, then turned")
        if out_of_control:
            self._drift(
                st,
                ship,
                pts,
                e["heading"],
                dist,
                m.speed if m is not None and lost else None,
                e["heading"] if first_turn else None,
                self._set_at_loss(st, ship, m.speed, lost[0]) if m is not None and lost else None,
                m.pivot if m is not None and first_turn else None,
            )
        elif m is not None:
            form = st.formation_at_order.get(ship.squadron, [])
            leader = in_formation and form[:1] == [sid]
            win = st.window()
            lead_dist = win.distances.get(form[0]) if win and form else None
            if form and not st.ships[form[0]].alive:
                lead_dist = None  # a leader destroyed on the way no longer leads (FPF-MOV-09)
            if not in_formation or leader:
                self._speed(st, ship, m, dist, m.speed)
                self._path(st, ship, m, pts, e["heading"], dist, jump)
            else:
                lead = form[0]
                self._speed(st, ship, m, dist, lead_dist)
                if lead_dist is not None and dist > lead_dist + EPS_CM:
                    st.flag(
                        "FPF-MOV-09",
                        [sid, lead],
                        f"wingman moved {dist:g} cm, farther than its leader's {lead_dist:g}",
                    )
        self._planet(st, ship, pts)

    @staticmethod
    def _turn_point(m: Manoeuvre | None, dist: float) -> float:
        """The moment of a move (a fraction of the path it flew) at which its second turn was
        due: half its ordered speed (FPF-MOV-07), which is past the path's middle when fire cut
        the move short; the middle when no order is known."""
        if m is None or dist <= 0:
            return 0.5
        # (plus the log's rounding of the places the moment is worked out from)
        return max(0.5, min(1.0, m.speed / 2 / dist)) + EPS_CM / max(dist, 1.0)

    def after(self, st: State, e: Event) -> None:
        if e["e"] != "ship_moved":
            return
        # the last move of a block: nobody may end on another ship (FPF-MOV-08)
        nxt = st.events[st.index + 1] if st.index + 1 < len(st.events) else {"e": ""}
        if nxt["e"] == "ship_moved":
            return
        win = st.window()
        if win is None:
            return
        reach = 2 * st.sc("base_radius_cm", 2.5)
        for sid in win.paths:
            s = st.ships[sid]
            if not s.on_table:
                continue
            for o in st.ships.values():
                if o.id == sid or not o.on_table or (o.id in win.paths and o.id < sid):
                    continue
                d = math.hypot(o.x - s.x, o.y - s.y)
                if d < reach - EPS_CM and not self._boxed_in(st, s, win):
                    own = " of its own squadron" if o.squadron == s.squadron else ""
                    st.flag(
                        "FPF-MOV-08",
                        [sid, o.id],
                        f"ended its move on {o.id}{own}, centres {d:.2f} cm apart",
                    )
            w, h = st.sc("table_width_cm", 180.0), st.sc("table_height_cm", 120.0)
            if not (-EPS_CM <= s.x <= w + EPS_CM and -EPS_CM <= s.y <= h + EPS_CM):
                st.flag("FPF-MOV-08", [sid], "ended its move off the table")

    @staticmethod
    def _boxed_in(st: State, s: Ship, win: Window) -> bool:
        """A ship that lost control in this move where it ends, over another base, may stay
        there if no place ahead on its drift (the rest of its ordered distance) is clear: each
        is on a base, up to the planet or the table edge, which it cannot pass; it cannot go
        back behind where control went, and ships pass over others on the way (docs/rules.md
        FPF-MOV-08)."""
        lost = st.lost_control_at.get(s.id)
        if lost is None or st.block_for.get(lost[0]) != st.block_for.get(st.index):
            return False
        orders = st.order_by_squadron.get(s.squadron, {})
        m = orders.get(s.id) or orders.get(None)
        rest = (m.speed if m is not None else MAX_SPEED) - win.distances.get(s.id, 0.0)
        if rest <= 0.05:
            return False
        reach, r = 2 * st.sc("base_radius_cm", 2.5), st.sc("base_radius_cm", 2.5)
        w, h = st.sc("table_width_cm", 180.0), st.sc("table_height_cm", 120.0)
        ux, uy = unit(s.heading)
        steps = max(1, math.ceil(rest / 0.1))
        for k in range(1, steps + 1):
            t = rest * k / steps
            px, py = s.x + ux * t, s.y + uy * t
            on_base = any(
                o.id != s.id and o.on_table and math.hypot(o.x - px, o.y - py) < reach - EPS_CM
                for o in st.ships.values()
            )
            in_planet = any(seg_len((px, py), c) < rad + r - 0.05 for c, rad in st.planets())
            off = not (-EPS_CM <= px <= w + EPS_CM and -EPS_CM <= py <= h + EPS_CM)
            if in_planet or off:
                return True  # nothing beyond is reachable (PP-03, the table edge)
            if not on_base:
                return False
        return True

    def _orders(self, st: State, squadron: str, order: str) -> None:
        st.order_by_squadron[squadron] = moves = read_manoeuvres(order)
        if any(m.jump for m in moves.values()):
            st.jumping.add(squadron)  # its locks keep only their photons (FPF-OPT-05)
        form = [x for x in st.formation.get(squadron, []) if st.ships[x].alive]
        st.formation_at_order[squadron] = list(form)
        m = moves.get(None)
        if form and m is not None:
            h = (st.ships[form[0]].heading + (m.pivot if m.pivot is not None else m.turn1)) % HEX
            st.formation_heads[squadron] = {h, (h + m.turn2) % HEX}
        else:
            st.formation_heads.pop(squadron, None)
        for sid in st.squadrons[squadron]:
            s = st.ships[sid]
            st.engine_at_order[sid] = s.engine
            st.control_at_order[sid] = s.in_control

    def _speed(
        self, st: State, ship: Ship, m: Manoeuvre, dist: float, expect: float | None
    ) -> None:
        """FPF-MOV-11: speed changes within Engine Power; FPF-MOV-13: pivots from 0 at 5 cm;
        FPF-MOV-02: the squadron moves its ordered speed, less only if it stops short."""
        power = st.engine_at_order.get(ship.id, ship.engine)
        if m.jump:
            return
        if m.pivot is not None:
            if ship.last_speed != 0:
                st.flag(
                    "FPF-MOV-13",
                    [ship.id],
                    f"pivoted after moving {ship.last_speed} cm last turn",
                )
            if m.speed > power - PIVOT_COST:
                st.flag(
                    "FPF-MOV-13",
                    [ship.id],
                    f"pivoted and reached {m.speed} cm on Engine Power {power}",
                )
        elif abs(m.speed - ship.last_speed) > power:
            st.flag(
                "FPF-MOV-11",
                [ship.id],
                f"changed speed {ship.last_speed} -> {m.speed} on Engine Power {power}",
            )
        if (
            expect is not None
            and dist < expect - 0.05
            and ship.id not in st.stopped_short
            and not ship.derelict  # left derelict on the way: it stopped where it was hit
        ):
            st.flag(
                "FPF-MOV-02",
                [ship.id],
                f"moved {dist:g} cm of its {expect:g} (ordered or its leader's) without "
                "stopping short",
            )

    def _path(
        self,
        st: State,
        ship: Ship,
        m: Manoeuvre,
        pts: list[Point],
        end_heading: int,
        dist: float,
        jump: bool,
    ) -> None:
        """FPF-MOV-07: turn, half the move, turn, the other half; FPF-MOV-13: only a ship at
        speed 0 pivots; FPF-OPT-04: a jump goes straight ahead after the first turn."""
        sid = ship.id
        legs = [(a, b) for a, b in itertools.pairwise(pts) if seg_len(a, b) > 0.05]
        heads: list[int] = []
        for a, b in legs:
            h = leg_heading(a, b)
            if h is None:
                st.flag("FPF-MOV-07", [sid], "a leg of its path runs along no hex heading")
                return
            heads.append(h)
        pivoting = m.pivot is not None
        h0 = ship.heading
        if not legs:
            # a ship blocked at once may still have made its first turn (FPF-MOV-07)
            allowed = 1 if m.speed > 0 else 0
            if turn_of(h0, end_heading) > allowed and not pivoting:
                clause = "FPF-MOV-13" if m.speed == 0 else "FPF-MOV-07"
                st.flag(clause, [sid], f"turned {h0} -> {end_heading} without moving")
            return
        if len(legs) > (1 if jump else 2):
            st.flag("FPF-MOV-07", [sid], f"path has {len(legs)} legs")
            return
        if not pivoting and turn_of(h0, heads[0]) > 1:
            st.flag("FPF-MOV-13", [sid], f"turned {h0} -> {heads[0]} at once without a pivot")
        if len(heads) == 2 and turn_of(heads[0], heads[1]) > 1:
            st.flag("FPF-MOV-07", [sid], f"second turn {heads[0]} -> {heads[1]} is over 60 deg")
        if jump:
            return
        half = m.speed / 2
        first = seg_len(*legs[0])
        if first > half + 0.05 or (len(legs) == 2 and abs(first - half) > 0.05):
            st.flag("FPF-MOV-07", [sid], f"first leg {first:.2f} cm of a {m.speed} cm move")
        if len(legs) == 2 and seg_len(*legs[1]) > half + 0.05:
            st.flag("FPF-MOV-07", [sid], f"second leg longer than half of {m.speed} cm")
        last = heads[-1]
        at_mid = len(legs) == 1 and abs(first - half) <= 0.05
        if end_heading != last and not (at_mid and turn_of(last, end_heading) <= 1):
            st.flag("FPF-MOV-07", [sid], f"ends facing {end_heading}, its path runs {last}")

    def _drift(
        self,
        st: State,
        ship: Ship,
        pts: list[Point],
        end_heading: int,
        dist: float,
        ordered: int | None,
        turned_to: int | None = None,
        set_at_loss: float | None = None,
        pivot: int | None = None,
    ) -> None:
        """FPF-MOV-12, FPF-DMG-13: out of control, it holds its heading and speed (last
        turn's, or the speed just ordered when control went after the orders); `turned_to`: the
        heading of a first turn made before control went, which for a ship ordered to pivot
        (`pivot`, its hex faces) is the pivot, to any facing, as it set off (FPF-MOV-13)."""
        speeds: set[float] = {ship.last_speed} | ({ordered} if ordered is not None else set())
        if set_at_loss is not None:
            speeds.add(set_at_loss)  # its current speed: what it was set to fly then
        if all(abs(dist - v) > 0.05 for v in speeds) and not (
            dist < max(speeds) and ship.id in st.stopped_short
        ):
            st.flag(
                "FPF-MOV-12",
                [ship.id],
                f"out of control, drifted {dist:g} cm at speed {ship.last_speed}",
            )
        held = {ship.heading}
        if turned_to is not None and (turned_to - ship.heading) % 6 in (1, 5):
            held.add(turned_to)  # one 60-degree turn (FPF-MOV-07)
        if turned_to is not None and pivot is not None and turned_to == (ship.heading + pivot) % 6:
            held.add(turned_to)  # the pivot from standstill, made as it set off (FPF-MOV-13)
        turned = end_heading not in held
        for a, b in itertools.pairwise(pts):
            h = leg_heading(a, b)
            if seg_len(a, b) > 0.05 and h is not None and h not in held:
                turned = True
        if turned:
            st.flag(
                "FPF-MOV-12",
                [ship.id],
                f"out of control, yet turned {ship.heading} -> {end_heading}",
            )

    def _set_at_loss(self, st: State, ship: Ship, ordered: int, at: int) -> float:
        """How far a ship was set to fly when it lost control at event `at`: the squadron's
        order less what it and its leader were stopped short of before then."""
        form = st.formation_at_order.get(ship.squadron, [])
        whose = {ship.id, *form[:1]}
        start = at
        while start > 0 and not (
            st.events[start]["e"] == "order_given"
            and st.events[start]["order"].startswith(ship.squadron + " ")
        ):
            start -= 1
        cut: float = sum(
            float(e["lost_cm"])
            for e in st.events[start:at]
            if e["e"] == "stopped_short" and e["ship"] in whose
        )
        return max(0.0, ordered - cut)

    def _planet(self, st: State, ship: Ship, pts: list[Point]) -> None:
        """PP-03 (docs/rules.md): no ship flies into the planet."""
        r = st.sc("base_radius_cm", 2.5)
        for c, radius in st.planets():
            if any(
                segment_meets_circle(a, b, c, radius + r - 0.05) for a, b in itertools.pairwise(pts)
            ) or (len(pts) == 1 and seg_len(pts[0], c) < radius + r - 0.05):
                st.flag("PP-03", [ship.id], "its move entered the planet")


class StopShortChecker(Checker):
    """A stop-short needs a blocker (FPF-MOV-08): a ship stops short of another only if its
    final position would be on top of it, so the ship it stopped for stands, at the end of the
    move, where the mover's base would have overlapped it: on the table (not destroyed, reset
    or never arrived) and within two base radii of a point the mover gave up, which is no
    farther from where the mover ended than the distance it lost (docs/rules.md FPF-MOV-08)."""

    def __init__(self) -> None:
        #: the stop-shorts of each move (its block in `State.windows`): (ship, of, lost cm)
        self.stops: dict[int, list[tuple[str, str, float]]] = {}

    def before(self, st: State, e: Event) -> None:
        if e["e"] != "stopped_short" or e["of"] not in st.ships:
            return  # the table edge, the planet, the formation: no ship to stand there
        block = st.block_for.get(st.index)
        if block is not None:
            self.stops.setdefault(block, []).append((e["ship"], e["of"], float(e["lost_cm"])))

    def after(self, st: State, e: Event) -> None:
        block = st.block_for.get(st.index)
        if block is None or block not in self.stops:
            return
        nxt = st.block_for.get(st.index + 1) if st.index + 1 < len(st.events) else None
        if nxt == block:
            return  # the move is not over yet
        stops = self.stops.pop(block)
        lost: dict[str, float] = {}
        for sid, _, cm in stops:
            lost[sid] = lost.get(sid, 0.0) + cm
        reach = 2 * st.sc("base_radius_cm", 2.5)
        for sid, of, _ in stops:
            mover, blocker = st.ships[sid], st.ships[of]
            if not mover.on_table:
                continue  # it left play on the way: where it would have ended is moot
            if not blocker.on_table:
                why = "reset" if blocker.out_of_play else "destroyed"
                st.flag(
                    "FPF-MOV-08",
                    [sid, of],
                    f"stopped short of {of}, which was {why} before the move ended: no ship "
                    "stood where it was going",
                )
                continue
            gap = seg_len(mover.pos, blocker.pos)
            if gap > reach + lost[sid] + 0.05:
                st.flag(
                    "FPF-MOV-08",
                    [sid, of],
                    f"stopped {lost[sid]:g} cm short of {of}, which ended the move {gap:.2f} cm "
                    "away: no ship stood where it was going",
                )


class InitiativeChecker(Checker):
    """Who activates when (FPF-MOV-01, FPF-MOV-02, FPF-MOV-03, FPF-MOV-04, FPF-MOV-10,
    FPF-OPT-01)."""

    def before(self, st: State, e: Event) -> None:
        kind = e["e"]
        if kind == "initiative_rolled":
            self._rolled(st, e)
        elif kind == "squadron_activated":
            self._activated(st, e)
        elif kind == "turn_ended":
            self._all_moved(st)

    def _pending(self, st: State) -> list[str]:
        done = {q for q, _ in st.activated_this_turn}
        return [
            q
            for q in st.initiative_speeds
            if q not in done and any(st.ships[s].alive for s in st.squadrons[q])
        ]

    def _rolled(self, st: State, e: Event) -> None:
        rolls = e["rolls"]
        if not rolls:
            st.flag("FPF-MOV-03", [], "an initiative roll-off without dice")
            return
        a, b = rolls[-1]
        if not st.initiative_bonus and any(x != y for x, y in rolls[:-1]):
            st.flag("FPF-MOV-03", [], "a roll-off went on after a side won")
        if not st.initiative_bonus and a != b and e["winner"] != ("A" if a > b else "B"):
            st.flag("FPF-MOV-03", [], f"roll-off {a}:{b} given to {e['winner']}")
        st.tier_first[e["speed"]] = e["first"]

    def _activated(self, st: State, e: Event) -> None:
        q = e["squadron"]
        forced_by = e["forced_by"]
        if not any(st.ships[s].alive for s in st.squadrons.get(q, [])):
            st.flag("FPF-MOV-01", [q], "a squadron with no ship in play was activated")
        if any(q == x for x, _ in st.activated_this_turn):
            st.flag("FPF-MOV-02", [q], "activated twice in one turn")
            return
        pending = self._pending(st)
        speed = st.initiative_speeds.get(q, 0)
        prev = st.activated_this_turn[-1] if st.activated_this_turn else None
        if forced_by is not None:
            self._forced(st, q, forced_by, pending)
        elif (
            prev is not None
            and prev[1] is not None
            and prev[1] != q
            # (a forcer wiped out by the squadron it forced has no move left to make)
            and any(st.ships[s].alive for s in st.squadrons.get(prev[1], []))
        ):
            st.flag("FPF-MOV-10", [q, prev[1]], f"{prev[1]} forced {prev[0]}, then {q} moved")
        else:
            faster = [p for p in pending if st.initiative_speeds[p] > speed and p != q]
            if faster:
                st.flag(
                    "FPF-MOV-02",
                    [q, *faster],
                    f"{q} (speed {speed}) moved before faster {', '.join(faster)}",
                )
            self._tier_order(st, q, speed, pending)
        st.activated_this_turn.append((q, forced_by))

    def _tier_order(self, st: State, q: str, speed: int, pending: list[str]) -> None:
        """FPF-MOV-03: at a shared speed the roll-off winner's choice goes first, then the
        sides alternate while both have squadrons at that speed."""
        tier = [p for p in pending if st.initiative_speeds[p] == speed]
        sides = {p[0] for p in tier}
        if len(sides) < 2 and speed not in st.tier_first:
            return
        if speed not in st.tier_first:
            st.flag("FPF-MOV-03", [q], f"both sides at speed {speed} and no roll-off")
            return
        done = st.activated_this_turn
        if done and done[-1][1] == q:
            return  # a forcer moving after the squadron it forced: the slot it forced in
        # each activation's slot: a forced squadron's is its forcer's, in the forcer's tier
        # (FPF-MOV-10), whether or not the forcer is left to move after it (a forcer reset or
        # destroyed by the squadron it forced still spent its side's turn)
        before = [
            f if f is not None else x
            for x, f in done
            if st.initiative_speeds.get(f if f is not None else x) == speed
        ]
        if not before:
            expected = st.tier_first[speed]
        else:
            other = "B" if before[-1][0] == "A" else "A"
            expected = other if any(p[0] == other for p in tier) else q[0]
        if q[0] != expected:
            st.flag("FPF-MOV-03", [q], f"side {q[0]} moved where side {expected} was due")

    def _forced(self, st: State, prey: str, by: str, pending: list[str]) -> None:
        """FPF-MOV-10: a pursuer in the prey's rear arc, the prey in its front arc."""
        if prey[0] == by[0] or prey not in pending:
            st.flag("FPF-MOV-10", [prey, by], "forced a squadron that is not pending prey")
            return
        for p in st.squadrons[by]:
            ps = st.ships[p]
            if not ps.alive:
                continue
            for q in st.squadrons[prey]:
                qs = st.ships[q]
                if not qs.alive:
                    continue
                rear = arcs_at(bearing(qs.heading, qs.x, qs.y, ps.x, ps.y))
                front = arcs_at(bearing(ps.heading, ps.x, ps.y, qs.x, qs.y))
                if "A" in rear and "F" in front:
                    return
        st.flag("FPF-MOV-10", [prey, by], f"{by} forced {prey} without pursuing it")

    def _all_moved(self, st: State) -> None:
        if not all(any(s.alive and s.side == side for s in st.ships.values()) for side in "AB"):
            return  # the battle is over
        for q in self._pending(st):
            st.flag("FPF-MOV-02", [q], "a squadron in play never activated this turn")


class FireChecker(Checker):
    """Declarations, timing, arcs, ranges and reaction fire (FPF-FIRE-01, FPF-FIRE-02,
    FPF-FIRE-04, FPF-FIRE-05, FPF-FIRE-08, FPF-FIRE-10, FPF-FIRE-11, FPF-FIRE-13, FPF-FIRE-15,
    FPF-ARC-01, FPF-ARC-04, FPF-TURN-01, FPF-MASK-03, FPF-DMG-11, FPF-DMG-13, FPF-OPT-01,
    FPF-OPT-05, PP-03, PP-05)."""

    def __init__(self) -> None:
        self.declaring: str | None = None  # the squadron whose declarations are being read
        self.declared_now: set[str] = set()
        self.reaction_now = False

    def before(self, st: State, e: Event) -> None:
        kind = e["e"]
        if kind != "fire_declared":
            self._close_declaration(st)
        if kind == "fire_declared":
            self._declared(st, e)
        elif kind == "volley_fired":
            self._volley(st, e)

    # --- declarations ---

    def _declared(self, st: State, e: Event) -> None:
        ship, target = st.ships[e["ship"]], st.ships.get(e["target"])
        sid = ship.id
        if self.declaring != ship.squadron:
            self._close_declaration(st)
            self.declaring, self.reaction_now = ship.squadron, bool(e["reaction"])
        self.declared_now.add(sid)
        if not ship.alive:
            clause = (
                "FPF-OPT-01" if ship.derelict else "PP-05" if ship.out_of_play else ("FPF-DMG-11")
            )
            st.flag(clause, [sid], "declared fire while out of play")
        if not ship.in_control:
            st.flag("FPF-DMG-13", [sid], "declared fire while out of control")
        if ship.declared is not None and ship.declared_turn == st.turn:
            st.flag("FPF-FIRE-04", [sid], "declared a second lock this turn")
        if target is None or target.side == ship.side or not target.alive:
            st.flag("FPF-FIRE-01", [sid, e["target"]], "locked on a ship that is no enemy in play")
        if not any(ship.bears(k, e["arc"]) and ship.shots(k) > 0 for k in ATTACK_KINDS):
            st.flag("FPF-ARC-04", [sid], f"no working weapon covers its arc {e['arc']}")
        reaction_to = None
        if e["reaction"]:
            reaction_to = st.active
            if e["arc"] != "F":
                st.flag("FPF-FIRE-11", [sid], f"reaction fire declared from arc {e['arc']}")
            if target is not None and target.squadron != st.active:
                st.flag("FPF-FIRE-11", [sid, target.id], "reaction lock on a ship not moving now")
            if ship.squadron == st.active:
                st.flag("FPF-FIRE-11", [sid], "reaction fire by the activated squadron itself")
        elif ship.squadron != st.active:
            st.flag("FPF-FIRE-10", [sid], f"declared fire while {st.active} was activated")
        ship.declared = (e["target"], e["arc"], reaction_to)
        ship.declared_turn = st.turn
        ship.fired_kinds = set()

    def _close_declaration(self, st: State) -> None:
        """FPF-FIRE-13: a squadron fires as a unit: every ship able to fire declares."""
        q = self.declaring
        if q is None:
            return
        self.declaring = None
        if "individual-hold-fire" not in st.rules:
            able = {
                s
                for s in st.squadrons[q]
                if st.ships[s].alive
                and st.ships[s].in_control
                and s not in st.escorts  # FPF-MASK-04: an escort fires nothing
                and (
                    any(
                        st.ships[s].shots(k) > 0 and st.ships[s].bears(k, "F") for k in ATTACK_KINDS
                    )
                    if self.reaction_now
                    else st.ships[s].armed()
                )
            }
            missing = sorted(able - self.declared_now)
            if missing:
                st.flag("FPF-FIRE-13", missing, f"{q} fired without these ships")
        self.declared_now = set()

    # --- volleys ---

    def _volley(self, st: State, e: Event) -> None:
        ship, target = st.ships[e["ship"]], st.ships[e["target"]]
        sid, tid, kind = ship.id, target.id, e["weapon"]
        lock = ship.declared if ship.declared_turn == st.turn else None
        alive, in_control, _ = st.firing(e)
        if not alive:
            clause = (
                "FPF-OPT-01" if ship.derelict else "PP-05" if ship.out_of_play else ("FPF-DMG-11")
            )
            st.flag(clause, [sid], "fired while out of play")
        if not target.alive:
            clause = (
                "FPF-OPT-01"
                if target.derelict
                else "PP-05"
                if target.out_of_play
                else ("FPF-DMG-11")
            )
            st.flag(clause, [sid, tid], "fired at a ship out of play")
        if not in_control:
            st.flag("FPF-DMG-13", [sid], "fired while out of control")
        if lock is None:
            st.flag("FPF-FIRE-02", [sid, tid], "fired without a lock declared this turn")
            return
        locked_on, arc, reaction_to = lock
        if locked_on != tid:
            st.flag("FPF-FIRE-05", [sid, tid], f"fired at {tid}, locked on {locked_on}")
        if kind in ship.fired_kinds:
            st.flag("FPF-FIRE-04", [sid], f"its {kind}s fired twice this turn")
        ship.fired_kinds.add(kind)
        if not ship.bears(kind, arc):
            st.flag("FPF-ARC-04", [sid], f"{kind}s fired though they do not cover arc {arc}")
        if kind == "phaser" and ship.squadron in st.jumping:
            st.flag("FPF-OPT-05", [sid], "fired phasers in a micro warp jump")
        if e["range_cm"] > ship.range_cm.get(kind, 0) + 1e-6:
            st.flag(
                "FPF-FIRE-15",
                [sid, tid],
                f"{kind}s fired at {e['range_cm']:g} cm, range {ship.range_cm.get(kind)}",
            )
        # FPF-FIRE-10, FPF-FIRE-11: when it may fire
        win = st.window()
        if reaction_to is None:
            if ship.squadron != st.active:
                st.flag(
                    "FPF-FIRE-10",
                    [sid, tid],
                    f"fired from arc {arc} while {st.active} was activated",
                )
        else:
            if st.active != reaction_to:
                st.flag("FPF-FIRE-11", [sid, tid], "reaction fire outside the move it answered")
            moving = win is not None and (
                (st.set_to_fly(tid) or 0.0) > 0.05 or tid in win.lost or tid in win.halted
            )
            if not moving:
                st.flag("FPF-FIRE-11", [sid, tid], "reaction fire at a ship that is not moving")
        self._geometry(st, e, ship, target, arc, win)
        self._phasers_first(st, e, ship)

    def _geometry(
        self, st: State, e: Event, ship: Ship, target: Ship, arc: str, win: Window | None
    ) -> None:
        """The range on the real paths (FPF-TURN-01), in range and arc (FPF-FIRE-15,
        FPF-ARC-01), masking (FPF-MASK-03) and the planet (PP-03), at some moment of the move
        (the log does not say which)."""
        sid, tid = ship.id, target.id
        lost = win.lost if win is not None else set()
        if sid in lost or tid in lost or not ship.on_table or not target.on_table:
            return  # a ship destroyed before its move was logged: its path is unknown
        rng = float(e["range_cm"])
        reach = ship.range_cm.get(e["weapon"], 0)
        # (a ship that masks the line may be the one moving: any move makes time matter)
        moving = win is not None and bool(win.paths)
        samples = [i / 200 for i in range(201)] if moving else [0.0]
        if win is not None and moving:
            # the moments the ships pass their turn points: a range may be reached only there
            # (the nearest point of a path that turns away)
            for path in win.paths.values():
                total = path.length
                along = 0.0
                for a, b in itertools.pairwise(path.points):
                    along += seg_len(a, b)
                    if 0.0 < along < total:
                        samples.append(along / total)
            samples.sort()
        at_range: list[tuple[float, dict[str, tuple[Point, set[int]]]]] = []
        in_reach_and_arc = False
        prev: tuple[float, float] | None = None
        pair = (sid, tid)
        for t in samples:
            where = st.positions_at(t, win, pair)
            (fp, fh), (tp, _) = where[sid], where[tid]
            d = seg_len(fp, tp)
            if d <= reach + EPS_CM and any(arc in arcs_at(bearing(h, *fp, *tp)) for h in fh):
                in_reach_and_arc = True
            if abs(d - rng) <= 0.01 or (prev is not None and (prev[1] - rng) * (d - rng) < 0):
                if prev is not None and abs(d - rng) > 0.01:
                    t = self._root(st, win, sid, tid, rng, prev[0], t)
                at_range.append((t, st.positions_at(t, win)))
            prev = (t, d)
        if not in_reach_and_arc:
            st.flag(
                "FPF-FIRE-15",
                [sid, tid],
                f"{tid} never in {e['weapon']} range and arc {arc} on the real paths",
            )
        if not at_range:
            st.flag(
                "FPF-TURN-01",
                [sid, tid],
                f"range {rng:g} cm is no distance between the two on their real paths",
            )
            return
        in_arc = [
            (t, w)
            for t, w in at_range
            if any(arc in arcs_at(bearing(h, *w[sid][0], *w[tid][0])) for h in w[sid][1])
        ]
        if not in_arc:
            st.flag(
                "FPF-ARC-01",
                [sid, tid],
                f"{tid} outside arc {arc} wherever the range is {rng:g} cm",
            )
            return
        clear = [(t, w) for t, w in in_arc if not self._planet_blocks(st, w[sid][0], w[tid][0])]
        if not clear:
            st.flag("PP-03", [sid, tid], "fired through the planet")
            return
        if st.masking_method_1() and self._stationary(st, sid, tid):
            unmasked = [(t, w) for t, w in clear if not self._masked(st, sid, tid, w)]
            if not unmasked:
                blockers = self._masked(st, sid, tid, clear[0][1])
                st.flag(
                    "FPF-MASK-03",
                    [sid, tid, *blockers],
                    f"fired through {', '.join(blockers)} with a ship standing still",
                )
                return
            clear = unmasked
        st.volley_moments = clear

    def _root(
        self, st: State, win: Window | None, sid: str, tid: str, rng: float, lo: float, hi: float
    ) -> float:
        def f(t: float) -> float:
            w = st.positions_at(t, win, (sid, tid))
            return seg_len(w[sid][0], w[tid][0]) - rng

        flo = f(lo)
        for _ in range(30):
            mid = (lo + hi) / 2
            fm = f(mid)
            if flo * fm <= 0:
                hi = mid
            else:
                lo, flo = mid, fm
        return (lo + hi) / 2

    def _stationary(self, st: State, sid: str, tid: str) -> bool:
        """Masking applies when the firer or the target stands still this turn (FPF-MASK-03):
        its speed this turn is the distance of its move once it sets off (FPF-MOV-02), as far
        as it is set to fly at the moment of the shot; before it has moved this turn, last
        turn's speed stands (docs/rules.md, FPF-MASK-03)."""

        def speeds(s: str) -> set[float]:
            """Its speed now, every way the log can be read: a distance logged to the tenth of
            a millimetre may have been on either side of the half centimetre that rounds its
            speed to a whole number of cm."""
            flying = st.set_to_fly(s)
            ship = st.ships[s]
            if flying is None and ship.moved is None:
                return {float(ship.last_speed)}
            cm = flying if flying is not None else float(ship.moved or 0.0)
            return {float(round(cm - 0.0005)), float(round(cm + 0.0005))}

        return any(speeds(s) == {0.0} for s in (sid, tid))

    def _masked(
        self, st: State, sid: str, tid: str, where: dict[str, tuple[Point, set[int]]]
    ) -> list[str]:
        r = st.sc("base_radius_cm", 2.5)
        fp, tp = where[sid][0], where[tid][0]
        win = st.window()
        unknown = win.lost if win is not None else set()  # left play on the way: where, unknown
        return [
            o
            for o, (p, _) in where.items()
            if o not in (sid, tid) and o not in unknown and segment_meets_circle(fp, tp, p, r)
        ]

    def _planet_blocks(self, st: State, fp: Point, tp: Point) -> bool:
        return any(segment_meets_circle(fp, tp, c, radius) for c, radius in st.planets())

    def _phasers_first(self, st: State, e: Event, ship: Ship) -> None:
        """FPF-FIRE-08: a ship's beams land before its torpedoes, unless (head on,
        FPF-FIRE-14) the torpedoes reach farther."""
        if ship.squadron in st.jumping:
            return  # a jumping squadron's phasers stay silent all turn (FPF-OPT-05)
        if e["weapon"] != "photon" or ship.declared is None:
            return
        if "phaser" in ship.fired_kinds or ship.shots("phaser") == 0:
            return
        if not ship.bears("phaser", ship.declared[1]):
            return
        if ship.range_cm.get("phaser", 0) >= max(float(e["range_cm"]), ship.range_cm["photon"]):
            st.flag("FPF-FIRE-08", [ship.id], "its photons fired while its phasers were ready")


class VolleyOrderChecker(Checker):
    """Volley order (FPF-FIRE-08, FPF-FIRE-09): one ship's damage lands before the next same-side
    group at that target rolls, unless both sides fire in the run of volleys (an exchange, whose
    groups all roll before any damage lands: checked by `DamageChecker._settle`)."""

    def before(self, st: State, e: Event) -> None:
        if e["e"] == "volley_fired":
            ship = st.ships[e["ship"]]
            waiting = [
                p
                for p in st.pending
                if p.target == e["target"]
                and p.side == ship.side
                and p.landed < min(p.allowed)
                and not p.gone
            ]
            if waiting:
                st.order_checks.append(
                    (
                        [e["ship"], e["target"], *(p.ship for p in waiting)],
                        f"rolled against shields {e['shields']} before {waiting[0].ship}'s "
                        f"{min(waiting[0].allowed) - waiting[0].landed} hit(s) landed",
                        st.run,
                    )
                )


class DamageChecker(Checker):
    """Penetration, damage and locations (FPF-DMG-01, FPF-DMG-02, FPF-DMG-03, FPF-DMG-04,
    FPF-DMG-05, FPF-DMG-06, FPF-DMG-07, FPF-DMG-08, FPF-DMG-09, FPF-DMG-10, FPF-DMG-11,
    FPF-DMG-13, FPF-DMG-14, FPF-OPT-06, FPF-OPT-09)."""

    #: events that may come between a volley and its hits
    AMID = frozenset(
        {
            "volley_fired",
            "hit_scored",
            "control_changed",
            "formation_left",
            "ship_destroyed",
            "ship_reset",
            "fleet_points_awarded",
            "card_used",
        }
    )

    def before(self, st: State, e: Event) -> None:
        kind = e["e"]
        if kind == "control_changed":
            st.control_events.add((e["ship"], e["in_control"]))
        if kind not in self.AMID:
            self._settle(st)
            for sid in st.control_lost_unlogged:
                if (sid, False) not in st.control_events:
                    st.flag("FPF-DMG-13", [sid], "out of control, and the log never says so")
            st.control_lost_unlogged.clear()
        if kind == "volley_fired":
            self._volley(st, e)
        elif kind == "hit_scored":
            self._hit(st, e)
        elif kind in ("ship_destroyed", "ship_reset"):
            s = st.ships[e["ship"]]
            if s.superstructure > 0:
                st.flag(
                    "FPF-DMG-11" if kind == "ship_destroyed" else "PP-04",
                    [s.id],
                    f"{kind.split('_')[1]} at superstructure {s.superstructure}",
                )
        elif kind == "control_changed":
            s = st.ships[e["ship"]]
            if e["in_control"] != s.should_be_in_control():
                st.flag(
                    "FPF-DMG-13",
                    [s.id],
                    f"control set to {e['in_control']} with Engine Power {s.engine}, "
                    f"Systems {s.systems}",
                )
        self._destruction_follows(st, e)

    def _destruction_follows(self, st: State, e: Event) -> None:
        """FPF-DMG-11: a ship at 0 superstructure goes at once."""
        prev: Event = st.events[st.index - 1] if st.index else {"e": ""}
        if prev["e"] != "hit_scored" or prev["superstructure"] > 0:
            return
        if e["e"] in ("ship_destroyed", "ship_reset") and e["ship"] == prev["target"]:
            return
        st.flag("FPF-DMG-11", [prev["target"]], "superstructure 0 and still in play")

    def _volley(self, st: State, e: Event) -> None:
        ship, target = st.ships[e["ship"]], st.ships[e["target"]]
        sid, tid, kind = ship.id, target.id, e["weapon"]
        working = st.firing(e)[2].get(kind, 0)
        if e["shots"] != working or len(e["rolls"]) != e["shots"]:
            st.flag(
                "FPF-DMG-03",
                [sid],
                f"{kind}s fired {e['shots']} shots, {len(e['rolls'])} dice; working shots "
                f"{working}",
            )
        expected_strength = ship.strength.get(kind, 0) - target.evasion
        if e["strength"] != expected_strength:
            st.flag(
                "FPF-DMG-01",
                [sid, tid],
                f"{kind} strength {e['strength']}, sheet and cards give {expected_strength}",
            )
        earlier = [  # rolled in this exchange, none of their hits landed yet
            p
            for p in st.pending
            if p.target == tid and p.side == ship.side and not p.gone and p.landed == 0
        ]
        if earlier:
            # FPF-FIRE-09 in a simultaneous exchange (FPF-FIRE-14): all groups roll before any
            # damage lands, each against the shields its side's earlier groups knocked down;
            # checked once their hits have landed (`_settle`), when the run shows whether the
            # other side fired in it too
            st.exchange_checks.append((sid, tid, e["shields"], target.shields, earlier, st.run))
        elif e["shields"] != target.shields:
            st.flag(
                "FPF-DMG-10",
                [sid, tid],
                f"rolled against shields {e['shields']}; they stand at {target.shields}",
            )
        need = e["shields"] - e["strength"]
        through = sum(1 for r in e["rolls"] if r == 10 or (r != 1 and r >= need))
        nebula = sum(1 for r in e["rolls"] if r >= 9)
        nebulae = [
            ((t["x"], t["y"]), t["radius_cm"])
            for t in st.sc("terrain", [])
            if t.get("kind") == "nebula" and "nebula-fire" in st.rules
        ]
        allowed = {through}
        if nebulae:
            # FPF-OPT-09: a target inside a nebula has no shields; 9 and 10 get through
            places = [w[tid][0] for _, w in st.volley_moments] or [target.pos]
            inside = {any(seg_len(p, c) <= r for c, r in nebulae) for p in places}
            moving = (
                not st.volley_moments and (win := st.window()) is not None and (tid in win.paths)
            )
            if moving:
                inside = {True, False}
            allowed = {nebula if x else through for x in inside}
        pv = PendingVolley(ship.side, sid, tid, kind, max(allowed), frozenset(allowed))
        pv.plain = sum(1 for r in e["rolls"] if r >= need)
        pv.moments = st.volley_moments
        pv.run = st.run
        st.pending.append(pv)

    def _settle(self, st: State) -> None:
        """FPF-DMG-01, FPF-DMG-02: every penetrating roll lands one hit, no more."""
        for ships, message, run in st.order_checks:
            if len(st.run_sides.get(run, ())) < 2:
                st.flag("FPF-FIRE-09", ships, message)
        st.order_checks.clear()
        for sid, tid, logged, standing, earlier, run in st.exchange_checks:
            if len(st.run_sides.get(run, ())) < 2:
                if logged != standing:
                    st.flag(
                        "FPF-DMG-10",
                        [sid, tid],
                        f"rolled against shields {logged}; they stand at {standing}",
                    )
                continue
            expected = max(0, standing - sum(p.shield_cut for p in earlier))
            finisher = next((p for p in earlier if p.finished), None)
            if finisher is not None:
                # FPF-FIRE-09: damage lands at once, ship by ship, so a later group of the side
                # has no target left to roll at
                st.flag(
                    "FPF-FIRE-09",
                    [sid, tid, finisher.ship],
                    f"rolled at {tid}, which its side's earlier group ({finisher.ship}'s "
                    f"{finisher.weapon}s) had already taken out of play",
                )
                continue
            if any(p.gone for p in earlier):
                # an earlier group whose target left play before its hits landed: the shields
                # those hits would have knocked down are not in the log, only that they cannot
                # stand higher than the landed hits left them
                if logged > expected:
                    st.flag(
                        "FPF-FIRE-09",
                        [sid, tid, *(p.ship for p in earlier)],
                        f"rolled in an exchange against shields {logged}; its side's earlier "
                        f"groups left them at {expected} or lower",
                    )
                continue
            if logged != expected:
                st.flag(
                    "FPF-FIRE-09",
                    [sid, tid, *(p.ship for p in earlier)],
                    f"rolled in an exchange against shields {logged}; its side's earlier "
                    f"groups left them at {expected}",
                )
        st.exchange_checks.clear()
        for p in st.pending:
            if not p.gone and p.landed not in p.allowed:
                # a count the roll against the target number alone gives: the natural 1 or
                # 10 was not honoured (FPF-DMG-02)
                clause = "FPF-DMG-02" if p.landed == p.plain else "FPF-DMG-01"
                st.flag(
                    clause,
                    [p.ship, p.target],
                    f"{p.weapon}s: {p.expected} penetrating roll(s), {p.landed} hit(s)",
                )
        st.pending.clear()

    def _hit(self, st: State, e: Event) -> None:
        tid = e["target"]
        target = st.ships[tid]
        roll, dmg, loc, applied = e["location_roll"], e["damage"], e["location"], e["applied_to"]
        if e["weapon"] == "jump strain":
            self._strain(st, e, target)
            return
        pv = next(
            (
                p
                for p in st.pending
                if p.ship == e["ship"]
                and p.target == tid
                and p.weapon == e["weapon"]
                and p.landed < p.expected
                and not p.gone
            ),
            None,
        )
        if pv is None:
            st.flag("FPF-DMG-01", [e["ship"], tid], "a hit no penetrating roll gave")
        else:
            pv.landed += 1
            if applied == "shields":
                pv.shield_cut += target.shields - e["value"]
        if HIT_TABLE.get(roll) != loc:
            st.flag("FPF-DMG-06", [tid], f"location roll {roll} struck {loc}")
        if e["weapon"] == "phaser" and dmg != 1:
            st.flag("FPF-DMG-04", [e["ship"], tid], f"a phaser beam dealt {dmg}")
        if e["weapon"] == "photon" and not 1 <= dmg <= 6:
            st.flag("FPF-DMG-05", [e["ship"], tid], f"a photon torpedo dealt {dmg}")
        if e["superstructure"] != target.superstructure - dmg:
            st.flag(
                "FPF-DMG-07",
                [tid],
                f"superstructure {target.superstructure} - {dmg} became {e['superstructure']}",
            )
        expect_to, value = self._where(st, target, loc, dmg, pv)
        if expect_to is not None and applied not in expect_to:
            clause = (
                "FPF-DMG-09"
                if loc in ("phasers", "photons") and target.shots(loc.removesuffix("s")) > 0
                else "FPF-DMG-08"
            )
            st.flag(clause, [e["ship"], tid], f"{loc} hit applied to {applied}")
        elif value is not None and applied != "superstructure" and e["value"] != value:
            clause = "FPF-DMG-14" if loc == "computer" else "FPF-DMG-07"
            st.flag(clause, [tid], f"{loc} became {e['value']}, the damage leaves {value}")
        logged = e.get("mounts")
        if applied in ("phasers", "photons") and logged is not None:
            # format 2 logs say what each mount has left: the weakest working one loses first
            # (docs/rules.md FPF-DMG-07), and the mounts add up to the value
            mounts = list(target.mounts.get(applied.removesuffix("s"), []))
            _knock_out(mounts, dmg)
            if logged != mounts or sum(logged) != e["value"]:
                st.flag("FPF-DMG-07", [tid], f"{applied} mounts became {logged}, not {mounts}")

    def _where(
        self, st: State, target: Ship, loc: str, dmg: int, pv: PendingVolley | None
    ) -> tuple[set[str] | None, int | None]:
        """Where the damage goes and the item's new value (FPF-DMG-07, FPF-DMG-08,
        FPF-DMG-09, FPF-DMG-10, FPF-DMG-14)."""
        if loc == "shields":
            if target.shields <= 0:
                return {"superstructure"}, None
            return {"shields"}, max(0, target.shields - dmg)
        if loc == "engine_power":
            if target.engine <= 0:
                return {"superstructure"}, None
            double = "bop-engine-double-damage" in st.rules and target.cls.engine_double_damage
            return {"engine_power"}, max(0, target.engine - dmg * (2 if double else 1))
        if loc == "computer":
            return {"computer"}, max(SYSTEMS_FLOOR, target.systems - dmg)
        kind = loc.removesuffix("s")
        if target.shots(kind) <= 0:
            return {"superstructure"}, None
        if pv is None or not pv.moments:
            return None, max(0, target.shots(kind) - dmg)  # the firing moment is unknown
        covers = set()
        for _, where in pv.moments:
            if pv.ship not in where or target.id not in where:
                return None, None
            tp, th = where[target.id]
            fp = where[pv.ship][0]
            for h in th:
                for a in arcs_at(bearing(h, *tp, *fp)):
                    covers.add(target.bears(kind, a))
        expect = {loc if c else "superstructure" for c in covers}
        return expect, max(0, target.shots(kind) - dmg)

    def _strain(self, st: State, e: Event, target: Ship) -> None:
        """FPF-OPT-06: d6 to superstructure for a jump at half superstructure or less."""
        if "micro-warp-jump" not in st.rules:
            st.flag("FPF-OPT-06", [target.id], "jump strain without the micro warp jump rule")
        if target.superstructure * 2 > target.cls.superstructure:
            st.flag("FPF-OPT-06", [target.id], "jump strain above half superstructure")
        if not 1 <= e["damage"] <= 6:
            st.flag("FPF-OPT-06", [target.id], f"jump strain of {e['damage']}")


class RepairChecker(Checker):
    """Damage control (FPF-REP-01, FPF-REP-02, FPF-REP-03, FPF-REP-04, FPF-REP-05, FPF-REP-06,
    FPF-REP-07, PP-12)."""

    def __init__(self) -> None:
        self.spent: Counter[str] = Counter()
        self.team: Counter[str] = Counter()  # repairs a card's reserve team adds this turn

    def before(self, st: State, e: Event) -> None:
        if e["e"] == "turn_started":
            self.spent.clear()
            self.team.clear()
        if e["e"] == "card_used" and e["detail"].startswith("superstructure back to"):
            st.flag("FPF-REP-03", [e["on"]], f"{e['card']} repaired superstructure in battle")
        if e["e"] == "card_used" and (m := re.fullmatch(r"up to (\d+) repairs", e["detail"])):
            self.team[e["on"]] += int(m[1])  # the Reinforcements Sideboard's team (data 1.2.0)
        if e["e"] != "repaired":
            return
        s = st.ships[e["ship"]]
        item, value = e["item"], e["value"]
        if st.phase not in ("start", "repairs"):
            st.flag("FPF-REP-02", [s.id], "repaired outside the repairs at the start of the turn")
        self.spent[s.id] += 1
        if self.spent[s.id] > s.damage_control + self.team[s.id]:
            st.flag(
                "FPF-REP-06" if s.damage_control == 0 else "FPF-REP-01",
                [s.id],
                f"repair {self.spent[s.id]} this turn with Damage Control {s.damage_control}",
            )
        if not s.on_table:
            st.flag("FPF-DMG-11", [s.id], "repaired while out of play")
        if item == "superstructure":
            st.flag("FPF-REP-03", [s.id], "superstructure repaired in battle")
        elif item == "computer":
            if s.systems >= s.max_systems:
                st.flag("FPF-REP-07", [s.id], "repaired Systems that were not damaged")
            elif value != s.systems + 1:
                st.flag("FPF-REP-05", [s.id], f"Systems {s.systems} repaired to {value}")
        elif item == "engine_power":
            if s.engine >= s.max_engine:
                st.flag("FPF-REP-07", [s.id], "repaired engines that were not damaged")
            elif value != s.max_engine:
                st.flag("FPF-REP-04", [s.id], f"engines repaired to {value} of {s.max_engine}")
        elif item == "shields":
            cap = max(0, s.max_shields - s.tokens) if st.peak else s.max_shields
            if s.shields >= cap:
                clause = "PP-12" if st.peak and s.shields < s.max_shields else "FPF-REP-07"
                st.flag(clause, [s.id], f"shields {s.shields} repaired above {cap}")
            elif value > cap:
                st.flag("PP-12", [s.id], f"shields repaired to {value}, above {cap} (tokens)")
            elif value != cap:
                st.flag("FPF-REP-04", [s.id], f"shields repaired to {value} of {cap}")
        else:
            kind_name, _, index = item.partition(".")
            kind = kind_name.removesuffix("s")
            mounts = s.mounts.get(kind)
            printed = s.printed_mounts.get(kind)
            if (
                mounts is None
                or printed is None
                or not index.isdigit()
                or int(index) >= len(mounts)
            ):
                st.flag("FPF-REP-07", [s.id], f"repaired '{item}', which it does not have")
            elif mounts[int(index)] >= printed[int(index)]:
                st.flag("FPF-REP-07", [s.id], f"repaired '{item}', which was working")
            elif value != printed[int(index)]:
                st.flag("FPF-REP-04", [s.id], f"'{item}' repaired to {value}")


class PeakChecker(Checker):
    """Peak Performance: resets, returns and Fleet Points (PP-04, PP-05, PP-10, PP-11, PP-12,
    PP-15, PP-16, PP-17, PP-18, PP-19, PP-20, PP-21, PP-22), and the standard result."""

    def __init__(self) -> None:
        self.expect_points: list[tuple[str, int, str, str]] = []
        self.roll_off: str | None = None

    def before(self, st: State, e: Event) -> None:
        kind = e["e"]
        if self.expect_points and kind != "fleet_points_awarded":
            for side, pts, reason, ship in self.expect_points:
                clause = "PP-18" if reason == "resource" else "PP-16"
                st.flag(clause, [ship], f"no {pts} Fleet Points for side {side} ({reason})")
            self.expect_points.clear()
        if kind == "ship_destroyed" and st.peak:
            st.flag("PP-04", [e["ship"]], "destroyed in a battle simulation")
        elif kind == "ship_reset":
            self._reset(st, e)
        elif kind == "fleet_points_awarded":
            self._points(st, e)
        elif kind == "ship_returned":
            self._returned(st, e)
        elif kind == "roll_off":
            self.roll_off = e["winner"]
        elif kind in ("squadron_activated", "repaired") and st.peak:
            self._all_returned(st)
        elif kind == "battle_ended":
            self._ended(st, e)

    def _reset(self, st: State, e: Event) -> None:
        s = st.ships[e["ship"]]
        if not st.peak:
            st.flag("PP-04", [s.id], "reset outside a battle simulation")
            return
        if e["tokens"] != s.tokens + 1:
            st.flag("PP-10", [s.id], f"token count {s.tokens} became {e['tokens']}")
        opponent = "B" if s.side == "A" else "A"
        self.expect_points.append((opponent, s.total_sp, "kill", s.id))
        side_ships = [x for x in st.ships.values() if x.side == s.side]
        res = st.resources[s.side]
        if (
            res is not None
            and all(x.tokens > 0 or x is s for x in side_ships)
            and (not st.resource_scored[s.side] or st.sc("resource_repeat", False))
        ):
            self.expect_points.append((opponent, res[1], "resource", res[0]))

    def _points(self, st: State, e: Event) -> None:
        side, pts, reason = e["side"], e["points"], e["reason"]
        if not st.peak:
            st.flag("PP-15", [], "Fleet Points outside a battle simulation")
        if st.fleet_points[side] + pts != e["total"]:
            st.flag("PP-15", [], f"side {side} total {e['total']} is no running tally")
        if reason == "bonus":
            opponent = "B" if side == "A" else "A"
            tokens = sum(x.tokens for x in st.ships.values() if x.side == opponent)
            if pts != 5 * tokens:
                st.flag("PP-21", [], f"bonus {pts} for {tokens} tokens on the opponent's ships")
            if side in st.bonus_sides:
                st.flag("PP-21", [], f"side {side} got the end bonus twice")
            st.bonus_sides.add(side)
            return
        want = (side, pts, reason, e["ship"])
        if want in self.expect_points:
            self.expect_points.remove(want)
            if reason == "resource":
                st.resource_scored["B" if side == "A" else "A"] = True
        else:
            clause = "PP-18" if reason == "resource" else "PP-16"
            st.flag(clause, [e["ship"]], f"{pts} Fleet Points for side {side} ({reason})")

    def _returned(self, st: State, e: Event) -> None:
        """PP-11: in the owner's zone, more than Range 1 from every ship; PP-12: shields less
        a point a token."""
        s = st.ships[e["ship"]]
        if not s.out_of_play:
            st.flag("PP-11", [s.id], "returned though it was in play")
        if st.phase != "start":
            st.flag("PP-11", [s.id], "returned after the start of the turn")
        x, y = e["x"], e["y"]
        depth = st.sc("deployment_depth_cm", 20.0)
        height = st.sc("table_height_cm", 120.0)
        zone = (0.0, depth) if s.side == "A" else (height - depth, height)
        if not (zone[0] - EPS_CM <= y <= zone[1] + EPS_CM) or not (
            -EPS_CM <= x <= st.sc("table_width_cm", 180.0) + EPS_CM
        ):
            st.flag("PP-11", [s.id], f"returned at ({x:g}, {y:g}), outside its zone")
        reach = st.sc("return_range_cm", 10.0)
        for o in st.ships.values():
            if o.id != s.id and o.on_table and math.hypot(o.x - x, o.y - y) <= reach:
                st.flag("PP-11", [s.id, o.id], f"returned within {reach:g} cm of {o.id}")
        for c, radius in st.planets():
            if seg_len((x, y), c) < radius + st.sc("base_radius_cm", 2.5) - EPS_CM:
                st.flag("PP-03", [s.id], "returned on the planet")
        want = max(0, s.max_shields - s.tokens)
        if e["shields"] != want:
            st.flag("PP-12", [s.id], f"returned with shields {e['shields']}, not {want}")

    def _all_returned(self, st: State) -> None:
        for s in st.ships.values():
            if s.out_of_play and s.reset_turn < st.turn and s.postponed_turn != st.turn:
                st.flag("PP-11", [s.id], "neither returned nor postponed at the turn's start")
                s.postponed_turn = st.turn

    def _ended(self, st: State, e: Event) -> None:
        if st.peak:
            a, b = st.fleet_points["A"], st.fleet_points["B"]
            if e["turns"] != st.sc("turn_limit", 12):
                st.flag("PP-20", [], f"ended after {e['turns']} turns, before the turn limit")
            want = "A" if a > b else "B" if b > a else self.roll_off
            if a == b and self.roll_off is None:
                st.flag("PP-22", [], "level on Fleet Points and no roll-off")
            elif e["winner"] != want:
                st.flag("PP-22", [], f"winner {e['winner']} with Fleet Points {a}:{b}")
            return
        # the standard scenario (docs/rules.md): a side with no ships left loses; else the side
        # that destroyed more points wins
        alive = {side: any(s.alive and s.side == side for s in st.ships.values()) for side in "AB"}
        lost_class = dict.fromkeys("AB", 0)
        lost_sp = dict.fromkeys("AB", 0)
        for s in st.ships.values():
            if s.destroyed or s.derelict:
                lost_class[s.side] += s.cls.value
                lost_sp[s.side] += s.total_sp
        if e["destroyed_value"] not in (lost_class, lost_sp):
            st.flag("FPF-DMG-11", [], f"destroyed value {e['destroyed_value']} is not {lost_class}")
        lost = e["destroyed_value"]
        if alive["A"] != alive["B"]:
            want = "A" if alive["A"] else "B"
        elif not alive["A"]:
            want = None
        else:
            want = None if lost["A"] == lost["B"] else "A" if lost["B"] > lost["A"] else "B"
        if e["winner"] != want:
            st.flag("FPF-DMG-11", [], f"winner {e['winner']}, the table gives {want}")


# ---------------------------------------------------------------------------------------------
class SquadronChecker(Checker):
    """Squadron make-up (FPF-MASK-02, FPF-MASK-04): at most three ships of a squadron fight; one
    more may fly with them as a non-combatant escort (its ship marked `escort` in the header's
    fleet), and an escort fires no weapons all battle (docs/rules.md FPF-MASK-04)."""

    def __init__(self) -> None:
        self.flags: dict[str, list[bool]] = {}
        self.placed: dict[str, int] = {}

    def after(self, st: State, e: Event) -> None:
        if e["e"] == "battle_started":
            for side, f in zip("AB", st.header.get("fleets", []), strict=False):
                # ships are placed squadron by squadron, file order within one
                ships = sorted(f.get("ships", []), key=lambda sh: int(sh.get("squadron", 1)))
                self.flags[side] = [bool(sh.get("escort")) for sh in ships]
        elif e["e"] == "ship_placed":
            side = e["side"]
            n = self.placed.get(side, 0)
            self.placed[side] = n + 1
            flags = self.flags.get(side, [])
            if n < len(flags) and flags[n]:
                st.escorts.add(e["ship"])
            members = st.squadrons.get(e["squadron"], [])
            escorts = [s for s in members if s in st.escorts]
            fighting = [s for s in members if s not in st.escorts]
            if e["ship"] in st.escorts and len(escorts) == 2:
                st.flag("FPF-MASK-04", escorts, f"{e['squadron']} has two non-combatant escorts")
            if e["ship"] not in st.escorts and len(fighting) == 4:
                st.flag("FPF-MASK-02", fighting, f"{e['squadron']} has four fighting ships")
        elif e["e"] == "volley_fired" and e["ship"] in st.escorts:
            st.flag("FPF-MASK-04", [e["ship"]], "a non-combatant escort fired")


# The referee: keeps the state from the log's facts, and lets every checker look


CHECKERS: tuple[type[Checker], ...] = (
    MovementChecker,
    StopShortChecker,
    InitiativeChecker,
    FireChecker,
    VolleyOrderChecker,
    DamageChecker,
    RepairChecker,
    PeakChecker,
    SquadronChecker,
)


def _knock_out(mounts: list[int], dmg: int) -> None:
    """Shots lost to a weapons hit: the weakest working mount first (docs/rules.md FPF-DMG-07)."""
    for _ in range(dmg):
        working = [i for i, v in enumerate(mounts) if v > 0]
        if not working:
            break
        mounts[min(working, key=lambda j: (mounts[j], j))] -= 1


#: the words of a card's change, and the names its format 2 `changes` give the same values
CHANGE_NAMES = {
    "shields": "shields",
    "engine power": "engine_power",
    "systems": "systems",
    "damage control": "damage_control",
    "evasion": "evasion",
}

DETAIL = re.compile(
    r"^(?:(shields|engine power|systems|damage control|evasion) (-?\d+)"
    r"|(phasers|photons) strength (\d+), range (\d+) cm)$"
)


class Referee:
    """Walks a log once, keeping its own state, and asks each checker at every event."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.st = State(events)
        self.checkers = [c() for c in CHECKERS]
        self.pack = {c.id: c for c in builtin_pack().ships}

    def run(self) -> list[Violation]:
        st = self.st
        for i, e in enumerate(st.events):
            st.index = i
            if e["e"] == "volley_fired" and e.get("exchange") != st.exchange:
                st.exchange = e.get("exchange")
                st.exchange_start = {
                    s.id: (s.alive, s.in_control, {k: s.shots(k) for k in s.mounts})
                    for s in st.ships.values()
                }
            elif e["e"] not in DamageChecker.AMID:
                st.exchange = None
            if e["e"] == "volley_fired":
                st.volley_moments = []
                if not st.run_open:
                    st.run += 1
                    st.run_open = True
                st.run_sides.setdefault(st.run, set()).add(st.ships[e["ship"]].side)
            elif e["e"] != "card_used":
                st.run_open = False
            for c in self.checkers:
                c.before(st, e)
            getattr(self, "_" + e["e"], self._ignore)(e)
            for c in self.checkers:
                c.after(st, e)
        return st.violations

    def _ignore(self, e: Event) -> None:
        return None

    # --- set-up ---

    def _battle_started(self, e: Event) -> None:
        st = self.st
        st.header = e["header"]
        st.scenario = st.header.get("scenario", {})
        st.rules = set(st.header.get("rules", []))
        self.fleet_ships = {
            side: list(f.get("ships", []))
            for side, f in zip("AB", st.header["fleets"], strict=False)
        }
        bonus = False
        for side, f in zip("AB", st.header["fleets"], strict=False):
            res = f.get("resource")
            if res:
                st.resources[side] = (res, get_card(res).cost)
                bonus |= get_card(res).effect.hook == "initiative"
            for sh in f.get("ships", []):
                for c in self._cards(sh):
                    bonus |= get_card(c).effect.hook == "initiative"
        st.initiative_bonus = bonus

    def _cards(self, sh: dict[str, Any]) -> list[str]:
        out = [c for c in (sh.get("captain"), sh.get("admiral")) if c]
        for ids in (sh.get("upgrades") or {}).values():
            out += list(ids)
        return out

    def _ship_placed(self, e: Event) -> None:
        st = self.st
        cls = self.pack[e["cls"]]
        s = Ship(e["ship"], e["side"], e["squadron"], cls, e["x"], e["y"], e["heading"])
        s.superstructure = cls.superstructure
        s.shields = s.max_shields = cls.shields
        s.engine = s.max_engine = cls.engine_power
        s.systems = s.max_systems = cls.computer
        s.damage_control = cls.damage_control
        for kind, w in (("phaser", cls.phasers), ("photon", cls.photons)):
            if w is not None:
                s.strength[kind], s.range_cm[kind] = w.strength, w.range_cm
                s.arcs[kind] = tuple(str(a) for a in w.arcs)
                s.mounts[kind] = list(w.mounts)
                s.printed_mounts[kind] = tuple(w.mounts)
        # a fixed base stands still from the start (docs/rules.md, Bases in FPF)
        s.last_speed = s.speed = 0 if cls.max_speed_cm == 0 else st.sc("start_speed_cm", 20)
        s.reset_turn = 0
        s.postponed_turn = -1
        index = sum(1 for x in st.ships.values() if x.side == s.side)
        fleet = self.fleet_ships.get(s.side, [])
        if index < len(fleet):
            s.total_sp = cls.value + sum(get_card(c).cost for c in self._cards(fleet[index]))
        st.ships[s.id] = s
        st.squadrons.setdefault(s.squadron, []).append(s.id)
        if st.sc("movement", "squadron") == "individual":
            s.detached = True
        else:
            st.formation.setdefault(s.squadron, []).append(s.id)

    def _card_used(self, e: Event) -> None:
        st = self.st
        s = st.ships.get(e["on"])
        if s is None:
            return
        detail = e["detail"]
        if detail.startswith("superstructure back to"):
            s.superstructure = int(detail.rsplit(" ", 1)[1])
            return
        m = DETAIL.match(detail)
        if m is None or st.turn > 0:
            return
        stat, amount, weapon, strength, rng = m.groups()
        said = (
            {CHANGE_NAMES[stat]: int(amount)}
            if stat
            else {f"strength:{weapon[:-1]}": int(strength), f"range:{weapon[:-1]}": int(rng)}
        )
        changes = e.get("changes")
        if changes is not None and any(changes.get(k) != v for k, v in said.items()):
            st.flag("LOG", [e["ship"], e["on"]], f"card {e['card']} says {detail}: {changes}")
        if stat == "shields":
            s.shields = s.max_shields = int(amount)
        elif stat == "engine power":
            s.engine = s.max_engine = int(amount)
        elif stat == "systems":
            s.systems = s.max_systems = int(amount)
        elif stat == "damage control":
            s.damage_control = int(amount)
        elif stat == "evasion":
            s.evasion = int(amount)
        elif weapon:
            kind = weapon.removesuffix("s")
            s.strength[kind], s.range_cm[kind] = int(strength), int(rng)

    # --- the turn ---

    def _turn_started(self, e: Event) -> None:
        st = self.st
        st.turn = e["turn"]
        st.phase = "start"
        st.activated_this_turn = []
        st.jumping = set()  # a jump limits its squadron's fire in the turn of the jump only
        st.tier_first = {}
        st.initiative_speeds = {}
        st.lost_control_at = {}
        st.control_events = set()
        for s in st.ships.values():
            s.moved = None
            s.declared = None

    def _repaired(self, e: Event) -> None:
        st = self.st
        st.phase = "repairs"
        s = st.ships[e["ship"]]
        item, value = e["item"], e["value"]
        if item in TRACKS:
            setattr(s, TRACKS[item], value)
        else:
            kind_name, _, index = item.partition(".")
            mounts = s.mounts.get(kind_name.removesuffix("s"))
            if mounts is not None and index.isdigit() and int(index) < len(mounts):
                mounts[int(index)] = value

    def _start_initiative(self) -> None:
        st = self.st
        if st.phase in ("start", "repairs"):
            st.phase = "initiative"
            for s in st.ships.values():  # control back once engines and Systems work
                if s.on_table and not s.in_control and s.should_be_in_control():
                    s.in_control = True
                    if (s.id, True) not in st.control_events:
                        st.flag("FPF-DMG-13", [s.id], "back in control, and the log never says so")
            st.initiative_speeds = {
                q: st.squadron_speed(q)
                for q in st.squadrons
                if any(st.ships[s].alive for s in st.squadrons[q])
            }

    def _initiative_rolled(self, e: Event) -> None:
        self._start_initiative()

    def _order_given(self, e: Event) -> None:
        if e["order"] in ("FIRST", "SECOND") or e["order"].startswith("ACT "):
            self._start_initiative()

    def _squadron_activated(self, e: Event) -> None:
        st = self.st
        self._start_initiative()
        st.active = e["squadron"]
        st.order_by_squadron.pop(st.active, None)
        st.formation_at_order.pop(st.active, None)
        st.stopped_short = set()
        st.jumping.discard(st.active)
        st.control_at_order = {}
        st.engine_at_order = {}

    def _stopped_short(self, e: Event) -> None:
        self.st.stopped_short.add(e["ship"])

    def _ship_moved(self, e: Event) -> None:
        st = self.st
        s = st.ships[e["ship"]]
        end = e["path"][-1]
        s.x, s.y, s.heading = end[0], end[1], e["heading"]
        s.speed = e["speed"]
        s.moved = (s.moved or 0.0) + e["distance"]

    def _volley_fired(self, e: Event) -> None:
        return None

    def _hit_scored(self, e: Event) -> None:
        st = self.st
        s = st.ships[e["target"]]
        dmg, applied, value = e["damage"], e["applied_to"], e["value"]
        s.superstructure = e["superstructure"]
        if applied in TRACKS:
            setattr(s, TRACKS[applied], value)
        elif applied in ("phasers", "photons"):
            _knock_out(s.mounts[applied.removesuffix("s")], dmg)
        if s.in_control and not s.should_be_in_control() and s.superstructure > 0:
            # out of control at once (FPF-DMG-13); the earliest moment it may have happened
            s.in_control = False
            st.leave_formation(s)
            latest = max((t for t, _ in st.volley_moments), default=1.0)
            earliest = min((t for t, _ in st.volley_moments), default=1.0)
            st.lost_control_at[s.id] = (st.index, latest, earliest)
            st.control_lost_unlogged.append(s.id)

    def _control_changed(self, e: Event) -> None:
        return None  # the referee works control out itself; DamageChecker compares

    def _gone(self, s: Ship) -> None:
        st = self.st
        st.leave_formation(s)
        prev = st.events[st.index - 1] if st.index else {"e": ""}
        if prev["e"] == "hit_scored" and prev["target"] == s.id:
            # the volley whose hit this was took its target out of play
            for p in st.pending:
                if p.ship == prev["ship"] and p.target == s.id and p.weapon == prev["weapon"]:
                    p.finished = True
        for p in st.pending:
            if p.target == s.id:
                p.gone = True

    def _ship_destroyed(self, e: Event) -> None:
        s = self.st.ships[e["ship"]]
        self._gone(s)
        if e["derelict"]:
            s.derelict = True
            st = self.st
            if s.squadron == st.active and s.moved is None and s.id not in st.lost_control_at:
                # left derelict during its own move: it drifts on from here (FPF-OPT-01, read
                # as a loss of control in docs/rules.md)
                moments = [t for t, _ in st.volley_moments] or [1.0]
                st.lost_control_at[s.id] = (st.index, max(moments), min(moments))
            if "derelicts" not in self.st.rules:
                self.st.flag("FPF-OPT-01", [s.id], "left as a derelict without the option")
        else:
            s.destroyed = True

    def _ship_reset(self, e: Event) -> None:
        st = self.st
        s = st.ships[e["ship"]]
        self._gone(s)
        s.out_of_play = True
        s.tokens = e["tokens"]
        s.reset_turn = st.turn
        cls = s.cls
        s.superstructure = cls.superstructure
        s.engine, s.systems = s.max_engine, s.max_systems
        s.in_control = True
        for kind, printed in s.printed_mounts.items():
            s.mounts[kind] = list(printed)
        s.shields = max(0, s.max_shields - s.tokens)

    def _return_postponed(self, e: Event) -> None:
        s = self.st.ships[e["ship"]]
        s.postponed_turn = self.st.turn

    def _ship_returned(self, e: Event) -> None:
        st = self.st
        s = st.ships[e["ship"]]
        s.x, s.y, s.heading = e["x"], e["y"], e["heading"]
        s.shields = e["shields"]
        s.out_of_play = False
        s.detached = True
        start = 0 if s.cls.max_speed_cm == 0 else st.sc("start_speed_cm", 20)  # a base: 0
        s.last_speed = s.speed = start  # docs/rules.md PP-11

    def _formation_left(self, e: Event) -> None:
        # the log says who flies on its own from now on (a loss of control, a leader gone, a
        # wingman that cannot keep its squadron's pace)
        self.st.leave_formation(self.st.ships[e["ship"]])

    def _fleet_points_awarded(self, e: Event) -> None:
        self.st.fleet_points[e["side"]] = e["total"]

    def _turn_ended(self, e: Event) -> None:
        st = self.st
        st.phase = "end"
        st.active = None
        for s in st.ships.values():
            s.last_speed = s.speed

    def _battle_ended(self, e: Event) -> None:
        self.st.ended = True


def read_log(text: str) -> list[Event]:
    """The events of a JSONL log, as plain dicts."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def referee(events: Sequence[Event]) -> list[Violation]:
    """Every rule the battle in `events` breaks, in log order."""
    return Referee(events).run()


def counts(violations: Iterable[Violation]) -> Counter[str]:
    """Violations per clause id."""
    return Counter(v.clause for v in violations)


def lines(violations: Iterable[Violation]) -> Iterator[str]:
    for v in violations:
        yield str(v)


# ---------------------------------------------------------------------------------------------
# Seeded battles to referee, through the public simulate API


@dataclass(frozen=True, slots=True)
class Setup:
    """One seeded battle of a sample: scenario, fleets, captains and optional rules."""

    seed: int
    scenario: str
    fleets: tuple[str, str]
    captains: tuple[str, str]
    rules: tuple[str, ...]

    def command(self) -> str:
        """The `kolrami battle` command that plays the same battle."""
        extra = f" --rules {','.join(modules_of(self.rules))}" if modules_of(self.rules) else ""
        options = [r for r in self.rules if r not in modules_of(self.rules)]
        if "nebula-fire" in self.rules:
            options.append(f"a nebula {NEBULA}")
        if options:
            extra += f" (scenario option: {', '.join(options)})"
        return (
            f"kolrami battle --seed {self.seed} --scenario {self.scenario} "
            f"--fleet-a presets:{self.fleets[0]} --fleet-b presets:{self.fleets[1]} "
            f"--captain-a {self.captains[0]} --captain-b {self.captains[1]}{extra}"
        )


#: Options a scenario sets rather than a module: masking method 2 (FPF-MASK-06), ships moving
#: one at a time (FPF-MOV-14), and a nebula on the table for the nebula rule (FPF-OPT-09).
SCENARIO_OPTIONS = {
    "masking-none": {"masking": "method-2"},
    "individual-movement": {"movement": "individual"},
}
NEBULA = {"kind": "nebula", "x": 45.0, "y": 60.0, "radius_cm": 15.0}


def optional_rules() -> list[str]:
    """Every optional FPF-family rule (`kolrami rules`, the advanced game's aside), and the
    scenario options."""
    modules = [
        name
        for name, core, _, _ in describe()
        if not core and not name.startswith("adv") and name not in ("masking-stationary",)
    ]
    return sorted({*modules, *SCENARIO_OPTIONS})


@cache
def accepted(scenario: str, rule: str) -> bool:
    """Whether a battle of `scenario` may switch `rule` on (the binder refuses some pairs)."""
    try:
        scenario_of(scenario, (rule,))
        fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
        new_battle(
            scenario_of(scenario, (rule,)),
            fleets,
            1,
            ("random", "random"),
            extra_rules=modules_of((rule,)),
        )
    except KolramiError:
        return False
    return True


def scenario_of(name: str, rules: tuple[str, ...]) -> Scenario:
    """The built-in scenario with the scenario options among `rules` set."""
    data = load_scenario(name).model_dump()
    for rule in rules:
        data.update(SCENARIO_OPTIONS.get(rule, {}))
        if rule == "nebula-fire":
            data["terrain"] = [*data["terrain"], NEBULA]
    return Scenario.model_validate(data)


def modules_of(rules: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(r for r in rules if r not in SCENARIO_OPTIONS)


def setups(
    count: int,
    scenario: str,
    first_seed: int = 1,
    captains: Sequence[str] | None = None,
    presets: Sequence[str] | None = None,
) -> list[Setup]:
    """`count` battles spread over every preset pair, captain pair and optional rule (one rule
    a battle, in turn, with every fourth battle on the core rules alone); the captains are the
    built-in ones unless named (a captain installed on this machine changes no sample), the
    presets those of the FPF classes unless named (the house presets change no sample)."""
    presets = list(presets) if presets is not None else fpf_preset_names()
    captains = list(captains) if captains is not None else sorted(BUILTIN)
    rules = [r for r in optional_rules() if accepted(scenario, r)]
    out = []
    for k in range(count):
        seed = first_seed + k
        a = presets[k % len(presets)]
        b = presets[(k // len(presets) + k + 1) % len(presets)]
        ca = captains[k % len(captains)]
        cb = captains[(k // len(captains) + k) % len(captains)]
        extra: tuple[str, ...] = () if k % 4 == 0 else (rules[(k // 4 + k) % len(rules)],)
        out.append(Setup(seed, scenario, (a, b), (ca, cb), extra))
    return out


def play(setup: Setup) -> list[Event] | None:
    """The battle's log as plain dicts, or None when the rules refuse the combination."""
    fleets = (load_fleet(f"presets:{setup.fleets[0]}"), load_fleet(f"presets:{setup.fleets[1]}"))
    try:
        battle = simulate(
            scenario_of(setup.scenario, setup.rules),
            fleets,
            setup.captains,
            setup.seed,
            modules_of(setup.rules),
        )
    except KolramiError:
        return None
    return read_log(battle.log.jsonl())
