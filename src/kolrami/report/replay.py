"""A battle's event log as one self-contained HTML replay: inline SVG and a little JavaScript.

`replay_data(events)` walks the log once and cuts it into *steps* the viewer pages through:
the deployment, the start of each turn (repairs, returns, initiative), each squadron's
activation (its moves and every volley fired while it moved) and the end of the battle. Each
step carries the moves, the volleys with their hits, the log lines, the changes to ships as they
happen, and a snapshot of every ship at its end, so the page can jump anywhere without
replaying from the start. `render_replay(events)` returns the HTML as a string (for reports
and the web app); `write_replay` writes it to a file.

Each volley's log entry says where the firer and its target stood (rules fpf-2), so the moment
of a volley is how far along its path a mover had come (`_logged_moment`). Logs of rules fpf-1
have only the range, and their engine stepped movers in straight lines: the moment is recovered
as the fraction of the move at which the two ships stood at that range (`_fire_moment`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment
from jinja2 import StrictUndefined
from jinja2 import Template
from markupsafe import Markup

from kolrami.catalog import ShipClass
from kolrami.catalog import ShipPack
from kolrami.catalog import WeaponKind
from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import AdvancedPack
from kolrami.catalog.advanced import AdvancedSheet
from kolrami.catalog.advanced import advanced_pack
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.errors import InvalidInputError
from kolrami.errors import quoted
from kolrami.report.narrate import ITEM_NAMES
from kolrami.report.narrate import mount_names
from kolrami.report.replay_format import ADRIFT
from kolrami.report.replay_format import DERELICT
from kolrami.report.replay_format import DESTROYED
from kolrami.report.replay_format import ENGINE
from kolrami.report.replay_format import FORMAT_VERSION
from kolrami.report.replay_format import LOCATION_COLOURS
from kolrami.report.replay_format import OK
from kolrami.report.replay_format import PHASERS
from kolrami.report.replay_format import PHOTONS
from kolrami.report.replay_format import RESET
from kolrami.report.replay_format import SHIELDS
from kolrami.report.replay_format import SPEED
from kolrami.report.replay_format import SS
from kolrami.report.replay_format import STATUS
from kolrami.report.replay_format import STATUS_NAMES
from kolrami.report.replay_format import SYSTEMS
from kolrami.report.replay_format import TOKENS
from kolrami.report.replay_format import H
from kolrami.report.replay_format import X
from kolrami.report.replay_format import Y
from kolrami.report.replay_format import squadron_colour
from kolrami.report.sideview import REFEREE
from kolrami.report.sideview import view_events
from kolrami.rules import events as ev
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import field_events as fe
from kolrami.rules.advanced import tactics_events as te
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.module import Capability
from kolrami.rules.registry import REGISTRY
from kolrami.rules.registry import capabilities_of

_ASSETS = "assets"
_TRAIL_KEEP_CM = 240.0  # how much of a squadron's path is kept to lay wingmen along it
_ON_TRAIL_CM = 0.75  # a wingman's start and end this close to the trail follow it


# --- extraction -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Ship:
    """What the replay tracks of one ship while it walks the log."""

    index: int
    id: str
    side: str
    squadron: str
    cls: ShipClass
    state: list[float]
    mounts: dict[WeaponKind, list[int]]
    #: values repairs and resets restore: the sheet's, changed by lasting cards
    maxima: dict[str, int] = field(default_factory=dict)
    #: weapon strength and range, changed by lasting cards
    weapon_stats: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: what destroying it scores: its Total SP (logs before fpf-2: its class value)
    points: int = 0

    def weapons(self) -> None:
        self.state[PHASERS] = sum(self.mounts[WeaponKind.PHASER])
        self.state[PHOTONS] = sum(self.mounts[WeaponKind.PHOTON])


@dataclass(slots=True)
class _Step:
    """One page of the replay while it is built."""

    kind: str
    turn: int
    label: str
    events: list[ev.Event] = field(default_factory=list)


@dataclass(slots=True)
class _Walker:
    """Walks a log step by step, keeping every ship's state and the score."""

    pack: ShipPack
    header: dict[str, Any]
    ships: dict[str, _Ship] = field(default_factory=dict)
    score: list[int] = field(default_factory=lambda: [0, 0])
    fleet_points: bool = False
    start_speed: int = 20
    trails: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    #: module adv-tactics: tractor beams (holder -> held) and docks (ship -> base) in effect
    beams: dict[str, str] = field(default_factory=dict)
    docks: dict[str, str] = field(default_factory=dict)
    #: the advanced game's field: probes [x, y, side, alive], webs [ship, permanent], ships
    #: being woven, cloaked ships (modules adv-probes, adv-webs, adv-cloak)
    probes: dict[str, list[Any]] = field(default_factory=dict)
    webs: dict[str, list[int]] = field(default_factory=dict)
    weaving: dict[str, int] = field(default_factory=dict)
    cloaked: set[int] = field(default_factory=set)
    #: the advanced game (its log has advanced_started): ships carry their advanced sheets,
    #: and the cards show those numbers (shields a facing, power, beams and launchers)
    advanced: AdvancedPack | None = None
    sheets: dict[str, AdvancedSheet] = field(default_factory=dict)
    #: advanced ships' six facings' shield points and their warp and impulse power now
    facings: dict[str, list[int]] = field(default_factory=dict)
    engines: dict[str, dict[str, int]] = field(default_factory=dict)

    # -- ships --

    def place(self, e: ev.ShipPlaced) -> None:
        cls = self.pack.get(e.cls)
        mounts = {k: list(w.mounts) for k, w in cls.weapons()}
        for kind in WeaponKind:
            mounts.setdefault(kind, [])
        state = [0.0] * 12
        state[X], state[Y], state[H] = e.x, e.y, e.heading
        state[SS], state[SHIELDS], state[ENGINE] = cls.superstructure, cls.shields, cls.engine_power
        state[SYSTEMS], state[SPEED] = cls.computer, self.start_speed
        ship = _Ship(len(self.ships), e.ship, e.side, e.squadron, cls, state, mounts)
        ship.points = cls.value if e.points is None else e.points
        ship.maxima = {"sh": cls.shields, "ep": cls.engine_power, "sys": cls.computer}
        ship.weapon_stats = {k.value: (w.strength, w.range_cm) for k, w in cls.weapons()}
        ship.weapons()
        if self.advanced is not None:
            self._advanced_sheet(ship)
        self.ships[e.ship] = ship
        # the column as deployed, tail first, is the leader's trail: wingmen follow it
        self.trails[e.ship] = [(e.x, e.y)]
        leader = next(s for s in self.ships.values() if s.squadron == e.squadron)
        if leader is not ship:
            self.trails[leader.id].insert(0, (e.x, e.y))

    def _advanced_sheet(self, ship: _Ship) -> None:
        """The advanced sheet's numbers on the ship's card in place of the FPF ones: shield
        points a facing (the weakest facing is shown), total power, beams and launchers."""
        assert self.advanced is not None
        sheet = self.advanced.sheet(ship.cls)
        self.sheets[ship.id] = sheet
        st = ship.state
        st[SHIELDS], st[ENGINE], st[SYSTEMS] = sheet.shield_points, sheet.total_power, 0
        st[PHASERS] = sum(1 for w in sheet.weapons if w.beam)
        st[PHOTONS] = sum(1 for w in sheet.weapons if not w.beam)
        ship.maxima = {"sh": sheet.shield_points, "ep": sheet.total_power, "sys": 0}
        self.facings[ship.id] = [sheet.shield_points] * 6
        self.engines[ship.id] = {
            "warp_port": sheet.warp_port,
            "warp_starboard": sheet.warp_starboard,
            "impulse": sheet.impulse,
        }

    def adv_power(self, e: ae.PowerAllocated) -> None:
        """A turn's power plan: the power there is, and the shields it raised."""
        ship = self.ships.get(e.ship)
        if ship is None or e.ship not in self.facings:
            return
        ship.state[ENGINE] = e.available
        self.facings[e.ship] = list(e.base) if e.shields_up else [0] * 6
        ship.state[SHIELDS] = min(self.facings[e.ship])

    def adv_shields(self, e: ae.ShieldsRedistributed) -> None:
        ship = self.ships.get(e.ship)
        if ship is None or e.ship not in self.facings or not e.passed:
            return
        self.facings[e.ship] = list(e.base)
        ship.state[SHIELDS] = min(self.facings[e.ship])

    def adv_hit(self, e: ae.DamageDealt) -> None:
        """What a hit past the shields did to the numbers the card shows."""
        ship = self.ships[e.target]
        st = ship.state
        st[SS] = e.superstructure
        facings = self.facings.get(e.target)
        if facings is None:
            return
        if 1 <= e.facing <= 6:
            facings[e.facing - 1] = e.base
        st[SHIELDS] = min(facings)
        sheet = self.sheets[e.target]
        knocked = re.fullmatch(r"w(\d+) damaged", e.effect)
        if knocked and int(knocked.group(1)) < len(sheet.weapons):
            beam = sheet.weapons[int(knocked.group(1))].beam
            index = PHASERS if beam else PHOTONS
            st[index] = max(0, st[index] - 1)
        engines = self.engines[e.target]
        if e.location in engines:
            value = e.effect.rpartition(" ")[2]
            if value.isdigit():
                engines[e.location] = int(value)
                st[ENGINE] = min(st[ENGINE], sum(engines.values()))

    def snapshot(self) -> list[list[float]]:
        return [_rounded(s.state) for s in self.ships.values()]

    def hit(self, e: ev.HitScored) -> None:
        ship = self.ships[e.target]
        st = ship.state
        st[SS] = e.superstructure
        if e.applied_to == "shields":
            st[SHIELDS] = e.value
        elif e.applied_to == "engine_power":
            st[ENGINE] = e.value
        elif e.applied_to == "computer":
            st[SYSTEMS] = e.value
        elif e.applied_to in ("phasers", "photons"):
            kind = WeaponKind.PHASER if e.applied_to == "phasers" else WeaponKind.PHOTON
            if e.mounts is not None:
                ship.mounts[kind] = list(e.mounts)
            else:
                _legacy_knock_out(ship.mounts[kind], e.damage, e.value)  # a format 1 log
            ship.weapons()

    def repair(self, e: ev.Repaired) -> None:
        ship = self.ships[e.ship]
        st = ship.state
        if e.item == "computer":
            st[SYSTEMS] = e.value
        elif e.item == "engine_power":
            st[ENGINE] = e.value
        elif e.item == "shields":
            st[SHIELDS] = e.value
        else:
            name, _, index = e.item.partition(".")
            kind = WeaponKind.PHASER if name == "phasers" else WeaponKind.PHOTON
            mounts = ship.mounts[kind]
            if index.isdigit() and int(index) < len(mounts):
                mounts[int(index)] = e.value
            ship.weapons()

    def card(self, e: ev.CardUsed) -> bool:
        """Apply the values a card set; True if a value the panel shows changed."""
        ship = self.ships.get(e.on)
        if ship is None:
            return False
        if self.header.get("log_format", 1) < 2:
            return _legacy_card(ship, e)
        shown = False
        for name, value in e.changes.items():
            what, _, weapon = name.partition(":")
            if weapon:
                strength, reach = ship.weapon_stats.get(weapon, (0, 0))
                ship.weapon_stats[weapon] = (
                    (value, reach) if what == "strength" else (strength, value)
                )
            elif name in _TOPS:
                ship.maxima[_TOPS[name]] = value
            elif name in _TRACKS:
                ship.state[_TRACKS[name]] = value
                shown = True
        return shown

    def reset(self, e: ev.ShipReset) -> None:
        ship = self.ships[e.ship]
        cls, st, top = ship.cls, ship.state, ship.maxima
        st[SS], st[ENGINE], st[SYSTEMS] = cls.superstructure, top["ep"], top["sys"]
        st[TOKENS] = e.tokens
        st[SHIELDS] = max(0, top["sh"] - e.tokens)
        st[STATUS] = RESET
        ship.mounts = {k: list(w.mounts) for k, w in cls.weapons()}
        for kind in WeaponKind:
            ship.mounts.setdefault(kind, [])
        ship.weapons()

    def returned(self, e: ev.ShipReturned) -> None:
        st = self.ships[e.ship].state
        st[X], st[Y], st[H] = e.x, e.y, e.heading
        st[SHIELDS], st[STATUS], st[SPEED] = e.shields, OK, self.start_speed

    def destroyed(self, e: ev.ShipDestroyed) -> None:
        ship = self.ships[e.ship]
        ship.state[STATUS] = DERELICT if e.derelict else DESTROYED
        if not self.fleet_points:
            winner = 1 if ship.side == "A" else 0
            self.score[winner] += ship.points  # points destroyed: Total SP (FPF victory)

    def control(self, e: ev.ControlChanged) -> None:
        st = self.ships[e.ship].state
        if e.in_control and st[STATUS] == ADRIFT:
            st[STATUS] = OK
        elif not e.in_control and st[STATUS] == OK:
            st[STATUS] = ADRIFT

    # -- names --

    def name(self, ship_id: str) -> str:
        ship = self.ships.get(ship_id)
        return f"{ship_id} {ship.cls.name}" if ship else (ship_id or "?")


#: a card's changes (CardUsed.changes) the panel shows, and the maxima it keeps
_TRACKS = {"shields": SHIELDS, "engine_power": ENGINE, "systems": SYSTEMS, "superstructure": SS}
_TOPS = {"max_shields": "sh", "max_engine": "ep", "max_systems": "sys"}


# --- logs of format 1, which gave a hit's total and a card's change only in words ---------------


def _legacy_knock_out(mounts: list[int], amount: int, total_after: int) -> None:
    """Shots lost to a weapons hit, weakest working mount first, as the engine dealt them.

    A format 1 log gives the total left, not which mount lost it; a disagreement is settled by
    the total so the panel never shows a wrong count.
    """
    for _ in range(amount):
        working = [i for i, v in enumerate(mounts) if v > 0]
        if not working:
            break
        mounts[min(working, key=lambda j: (mounts[j], j))] -= 1
    excess = sum(mounts) - total_after
    for i in reversed(range(len(mounts))):
        if excess <= 0:
            break
        take = min(mounts[i], excess)
        mounts[i] -= take
        excess -= take


def _legacy_card(ship: _Ship, e: ev.CardUsed) -> bool:
    """What a card changed, read from a format 1 log's words; True if a value changed."""
    st = ship.state
    if m := re.fullmatch(r"(shields|engine power|systems) (-?\d+)", e.detail):
        key, index = {"shields": ("sh", SHIELDS), "engine power": ("ep", ENGINE)}.get(
            m[1], ("sys", SYSTEMS)
        )
        ship.maxima[key] += int(m[2]) - int(st[index])  # a lasting card raises both
        st[index] = int(m[2])
        return True
    if m := re.fullmatch(r"(phaser|photon)s strength (\d+), range (\d+) cm", e.detail):
        ship.weapon_stats[m[1]] = (int(m[2]), int(m[3]))
    return False


def _rounded(state: list[float]) -> list[float]:
    return [round(v, 3) if isinstance(v, float) and not v.is_integer() else int(v) for v in state]


def _split(events: Sequence[ev.Event]) -> list[_Step]:
    """Cut the log into steps: deployment, turn starts, activations, the end."""
    steps = [_Step("deploy", 0, "Deployment")]
    turn = 0
    after_turn = False
    for e in events:
        if isinstance(e, ev.TurnStarted):
            turn, after_turn = e.turn, False
            steps.append(_Step("turn", turn, f"Turn {turn} begins"))
            continue
        if isinstance(e, ev.TurnEnded):
            after_turn = True
            continue
        if isinstance(e, ev.SquadronActivated):
            forced = f" (forced by {e.forced_by})" if e.forced_by else ""
            steps.append(_Step("activation", turn, f"Turn {turn}: {e.squadron} moves{forced}"))
        elif isinstance(e, ae.PhaseStarted):  # the advanced game: a step a phase (ADV-SEQ-02)
            steps.append(_Step("phase", turn, f"Turn {turn}, phase {e.phase}"))
        elif (after_turn or isinstance(e, ev.BattleEnded)) and steps[-1].kind != "end":
            steps.append(_Step("end", turn, "The end of the battle"))
        steps[-1].events.append(e)
    if steps[-1].kind != "end":
        steps.append(_Step("end", turn, "The end of the battle"))
    return steps


def _segments(events: list[ev.Event]) -> list[tuple[list[ev.Event], list[ev.ShipMoved]]]:
    """An activation's events as (what happened before a move, the move) pairs.

    One engine move logs its ShipMoved records together after the volleys fired on the way,
    so each run of ShipMoved closes a segment; anything after the last run is a segment of
    its own without a move.
    """
    out: list[tuple[list[ev.Event], list[ev.ShipMoved]]] = []
    pre: list[ev.Event] = []
    moves: list[ev.ShipMoved] = []
    for e in events:
        if isinstance(e, ev.ShipMoved):
            moves.append(e)
            continue
        if moves:
            out.append((pre, moves))
            pre, moves = [], []
        pre.append(e)
    if pre or moves:
        out.append((pre, moves))
    return out


def _logged_moment(e: ev.VolleyFired, moves: list[ev.ShipMoved], after: float) -> float:
    """The fraction of a move (0..1) at which a volley was fired, read off the positions the
    log gives for it: how far along its path a mover had come. Every mover of a move goes
    along its own path at its own even pace, all starting and ending together."""
    assert e.at is not None
    for ship, (x, y, _) in zip((e.ship, e.target), e.at, strict=True):
        for m in moves:
            if m.ship == ship and m.distance > 0:
                along, total = _along(m.path, x, y)
                if total > 0:
                    return max(after, min(1.0, along / total))
    return after


def _along(path: list[list[float]], x: float, y: float) -> tuple[float, float]:
    """How far along `path` its nearest point to (x, y) lies, and the path's length."""
    best, best_off, total = 0.0, math.inf, 0.0
    for i in range(1, len(path)):
        (x0, y0), (x1, y1) = path[i - 1][:2], path[i][:2]
        dx, dy = x1 - x0, y1 - y0
        seg = math.hypot(dx, dy)
        t = 0.0 if seg == 0 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / seg**2))
        off = math.hypot(x0 + dx * t - x, y0 + dy * t - y)
        if off < best_off - 1e-9:
            best, best_off = total + seg * t, off
        total += seg
    return best, total


def _fire_moment(
    walker: _Walker,
    firer: str,
    target: str,
    range_cm: float,
    moves: list[ev.ShipMoved],
    after: float,
) -> float:
    """The fraction of a move (0..1) at which `firer` and `target` stood `range_cm` apart.

    Movers go in straight lines from start to end in equal steps (kolrami.engine.battle
    `_execute`), so the moment is one of k/n for a small n; the earliest fraction not before
    `after` whose range matches the log best is taken.
    """

    def where(ship_id: str, t: float) -> tuple[float, float]:
        st = walker.ships[ship_id].state if ship_id in walker.ships else None
        if st is None:
            return 0.0, 0.0
        for m in moves:
            if m.ship == ship_id:
                (x0, y0), (x1, y1) = m.path[0], m.path[-1]
                return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        return st[X], st[Y]

    best_t, best_err = after, math.inf
    candidates = sorted({k / n for n in range(1, 13) for k in range(n + 1)} | {after})
    for t in candidates:
        if t < after:
            continue
        (ax, ay), (bx, by) = where(firer, t), where(target, t)
        err = abs(math.hypot(bx - ax, by - ay) - range_cm)
        if err < best_err - 1e-6:
            best_t, best_err = t, err
    return best_t


def _wingman_path(
    trail: list[tuple[float, float]], start: list[float], end: list[float]
) -> list[list[float]]:
    """A wingman's path along its squadron's trail, when its start and end lie on it."""
    s0 = _project(trail, start[0], start[1])
    s1 = _project(trail, end[0], end[1])
    if s0 is None or s1 is None or s1[0] < s0[0]:
        return [start, end]
    along = 0.0
    inner: list[list[float]] = []
    for i in range(1, len(trail)):
        (x0, y0), (x1, y1) = trail[i - 1], trail[i]
        along += math.hypot(x1 - x0, y1 - y0)
        if s0[0] + 1e-6 < along < s1[0] - 1e-6:
            inner.append([round(x1, 3), round(y1, 3)])
    return [start, *inner, end]


def _project(trail: list[tuple[float, float]], x: float, y: float) -> tuple[float, float] | None:
    """(distance along the trail, distance off it) of the nearest trail point, if close."""
    best: tuple[float, float] | None = None
    along = 0.0
    for i in range(1, len(trail)):
        (x0, y0), (x1, y1) = trail[i - 1], trail[i]
        dx, dy = x1 - x0, y1 - y0
        seg = math.hypot(dx, dy)
        t = 0.0 if seg == 0 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / seg**2))
        off = math.hypot(x0 + dx * t - x, y0 + dy * t - y)
        if off <= _ON_TRAIL_CM and (best is None or off < best[1]):
            best = (along + seg * t, off)
        along += seg
    return best


def _extend_trail(trail: list[tuple[float, float]], path: list[list[float]]) -> None:
    """Add a squadron leader's path to its trail (a fresh trail if it does not join on)."""
    first = (path[0][0], path[0][1])
    if not trail or math.hypot(trail[-1][0] - first[0], trail[-1][1] - first[1]) > _ON_TRAIL_CM:
        trail[:] = [first]
    for x, y in path[1:]:
        if math.hypot(trail[-1][0] - x, trail[-1][1] - y) > 1e-9:
            trail.append((x, y))
    total = 0.0
    for i in range(len(trail) - 1, 0, -1):
        total += math.hypot(trail[i][0] - trail[i - 1][0], trail[i][1] - trail[i - 1][1])
        if total > _TRAIL_KEEP_CM:
            del trail[: i - 1]
            break


class _StepBuilder:
    """Turns one step's events into the page's step record."""

    def __init__(self, walker: _Walker, step: _Step) -> None:
        self.w = walker
        self.step = step
        self.moves: list[list[Any]] = []
        self.volleys: list[dict[str, Any]] = []
        self.changes: list[list[Any]] = []
        self.scores: list[list[Any]] = []
        self.marks: list[list[Any]] = []
        self.log: list[list[Any]] = []
        self.volley: dict[str, Any] | None = None
        #: lines between two ships over a span of the step: tractor beams, beam-overs, docks
        self.links: list[list[Any]] = []
        #: the advanced game: each ship's moves over the turn's phases, as one path
        self.paths: dict[int, list[Any]] = {}

    def line(self, t: float, text: str, style: str = "") -> None:
        self.log.append([round(t, 3), text, style])

    def hull(self, e: ev.Event, t: float) -> None:
        """Every event that gives a ship's superstructure after it (`Event.hull_of`) sets the
        hull the replay shows: one reading for all, whatever the event's kind."""
        field = type(e).hull_of
        if field is None:
            return
        ship_id = getattr(e, field)
        ship = self.w.ships.get(ship_id)
        hull = getattr(e, "superstructure", None)
        if ship is not None and isinstance(hull, int) and ship.state[SS] != hull:
            ship.state[SS] = hull
            self.changed(t, ship_id)

    def changed(self, t: float, ship_id: str) -> None:
        ship = self.w.ships[ship_id]
        self.changes.append([round(t, 3), ship.index, _rounded(ship.state)])

    def build(self) -> dict[str, Any]:
        if self.step.kind == "activation":
            segments = _segments(self.step.events)
            windows = sum(1 for _, moves in segments if moves) or 1
            j = 0
            for pre, moves in segments:
                if moves:
                    a, b = j / windows, (j + 1) / windows
                    j += 1
                else:
                    a = b = 0.5 if j == 0 else j / windows
                self.segment(pre, moves, a, b)
        else:
            self.phases()
        return {
            "kind": self.step.kind,
            "turn": self.step.turn,
            "label": self.step.label,
            "moves": self.moves,
            "volleys": self.volleys,
            "changes": self.changes,
            "scores": self.scores,
            "marks": self.marks,
            "links": self.links,
            "log": self.log,
            "state": self.w.snapshot(),
            "score": list(self.w.score),
            "field": {
                "probes": [list(p) for p in self.w.probes.values() if p[3]],
                "webs": sorted(self.w.webs.values()),
                "weaving": sorted(self.w.weaving.values()),
                "cloaked": sorted(self.w.cloaked),
            },
        }

    def phases(self) -> None:
        """A step without activations: FPF's start and end, the advanced game's turn start, or
        one of its phases (ADV-SEQ-02), whose moves are drawn as one path a ship."""
        w = self.w
        span = 1.0 if self.step.kind == "phase" else 1 / PHASES
        open_beams: dict[str, tuple[float, str, str]] = {h: (0.0, h, e) for h, e in w.beams.items()}
        open_docks: dict[str, tuple[float, str, str]] = {s: (0.0, s, b) for s, b in w.docks.items()}
        t = 0.0
        for e in self.step.events:
            if isinstance(e, ae.PhaseStarted):
                t = 0.0 if self.step.kind == "phase" else (e.phase - 1) / PHASES
            if isinstance(e, ev.ShipMoved):
                self.adv_move(e.ship, e.path, e.heading, t, t + span)
                continue
            if isinstance(e, te.Towed | te.Docked):
                ship = w.ships[e.ship]
                here = [ship.state[X], ship.state[Y]]
                self.adv_move(e.ship, [here, [e.x, e.y]], int(ship.state[H]), t, t)
            if isinstance(e, te.TractorEngaged):
                w.beams[e.ship] = e.target
                open_beams[e.ship] = (t, e.ship, e.target)
            elif isinstance(e, te.TractorReleased) and e.ship in open_beams:
                start, a, b = open_beams.pop(e.ship)
                w.beams.pop(e.ship, None)
                self.link(start, t, a, b, "tractor")
            elif isinstance(e, te.Beamed):
                self.link(t, min(1.0, t + span), e.ship, e.target, "board")
            elif isinstance(e, te.Docked):
                w.docks[e.ship] = e.base
                open_docks[e.ship] = (t, e.ship, e.base)
            elif isinstance(e, te.Undocked) and e.ship in open_docks:
                start, a, b = open_docks.pop(e.ship)
                w.docks.pop(e.ship, None)
                self.link(start, t, a, b, "dock")
            if isinstance(e, te.TACTICS_EVENTS):
                story: Callable[[Callable[[str], str], bool], str | None] | None = getattr(
                    e, "story", None
                )
                told = story(w.name, False) if story is not None else None
                if told:
                    self.line(t, re.sub(r"\[/?[a-z ]+\]", "", told).strip(), "tactics")
                self.hull(e, t)
                self.tactics_change(e, t)
                continue
            self.event(e, t)
        for start, a, b in open_beams.values():
            self.link(start, 1.0, a, b, "tractor")
        for start, a, b in open_docks.values():
            self.link(start, 1.0, a, b, "dock")
        for idx, (a, b, path, h) in self.paths.items():
            if len(path) == 1:  # turned on the spot: still a path from where it stands
                path = [path[0], list(path[0])]
            self.moves.append([idx, round(a, 3), round(b, 3), path, h])

    def adv_move(
        self, ship_id: str, path: list[list[float]], heading: int, a: float, b: float
    ) -> None:
        """One advanced move (or tow), joined to the ship's path for the turn."""
        ship = self.w.ships[ship_id]
        entry = self.paths.setdefault(ship.index, [a, b, [], heading])
        entry[1], entry[3] = b, heading
        points: list[list[float]] = entry[2]
        for p in path:
            if not points or points[-1] != list(p):
                points.append(list(p))
        _extend_trail(self.w.trails.setdefault(ship_id, []), path)
        ship.state[X], ship.state[Y], ship.state[H] = path[-1][0], path[-1][1], heading

    def link(self, a: float, b: float, ship: str, other_ship: str, kind: str) -> None:
        """A line between two ships from `a` to `b` in the step."""
        w = self.w
        if ship in w.ships and other_ship in w.ships:
            self.links.append(
                [round(a, 3), round(b, 3), w.ships[ship].index, w.ships[other_ship].index, kind]
            )

    def tactics_change(self, e: ev.Event, t: float) -> None:
        """What a tactics change does to the ship's numbers the replay shows."""
        w = self.w
        if isinstance(e, te.SelfDestructed | te.ShipCaptured | te.Beamed | te.Docked):
            ship = w.ships.get(e.ship)
            if ship is not None:
                self.marks.append(
                    [round(t, 3), ship.index, _MARK[type(e)], ship.state[X], ship.state[Y]]
                )

    def segment(self, pre: list[ev.Event], moves: list[ev.ShipMoved], a: float, b: float) -> None:
        local = 0.0
        for e in pre:
            t = a + (b - a) * local
            if isinstance(e, ev.VolleyFired) and moves:
                if e.at is not None:  # where both stood is in the log (rules fpf-2 on)
                    local = _logged_moment(e, moves, local)
                else:
                    local = _fire_moment(self.w, e.ship, e.target, e.range_cm, moves, local)
                t = a + (b - a) * local
            self.event(e, t)
        w = self.w
        leaders: dict[str, str] = {}  # squadron -> the ship whose full path this move logged
        moved: dict[float, list[str]] = {}
        for m in moves:
            ship = w.ships[m.ship]
            path = m.path
            if len(path) >= 3:
                leaders[ship.squadron] = ship.id
            elif len(path) == 2 and ship.squadron in leaders:
                path = _wingman_path(w.trails[leaders[ship.squadron]], path[0], path[1])
            _extend_trail(w.trails.setdefault(ship.id, []), path)
            self.moves.append([ship.index, round(a, 3), round(b, 3), path, m.heading])
            ship.state[X], ship.state[Y] = m.path[-1][0], m.path[-1][1]
            ship.state[H], ship.state[SPEED] = m.heading, m.speed
            if m.distance > 0:
                moved.setdefault(m.distance, []).append(m.ship)
        for distance, ids in moved.items():
            verb = "moves" if len(ids) == 1 else "move"
            self.line(b, f"{', '.join(ids)} {verb} {distance:g} cm", "move")

    def event(self, e: ev.Event, t: float) -> None:
        w = self.w
        self.hull(e, t)
        if isinstance(e, ev.ShipPlaced):
            w.place(e)
            self.line(t, f"{w.name(e.ship)} ({e.squadron}) deploys", "move")
        elif isinstance(e, ev.CardUsed):
            if w.card(e):
                self.changed(t, e.on)
            on = "" if e.on == e.ship else f" on {w.name(e.on)}"
            self.line(t, f"{card_label(e.card, w.name(e.ship))}{on}: {e.detail}", "card")
        elif isinstance(e, ev.Repaired):
            w.repair(e)
            self.changed(t, e.ship)
            ship = w.ships.get(e.ship)
            mounts = mount_names(ship.cls) if ship else {}
            what = mounts.get(e.item) or ITEM_NAMES.get(e.item, e.item.replace("_", " "))
            self.line(t, f"{w.name(e.ship)} repairs {what} (now {e.value})", "repair")
        elif isinstance(e, ev.InitiativeRolled):
            rolls = ", ".join(f"A {r[0]} : B {r[1]}" for r in e.rolls)
            self.line(t, f"Initiative at {e.speed} cm: {rolls}; {e.winner} wins, {e.first} first")
        elif isinstance(e, ev.OrderGiven):
            word = e.order.split()[0] if e.order else ""
            hold = e.order.startswith("REACT") and e.order.endswith(" HOLD")
            if word not in ("ACT", "FIRST", "SECOND", "REPAIR", "RETURN") and not hold:
                self.line(t, f"{e.side} orders {e.order}", "order")
        elif isinstance(e, ev.FireDeclared):
            how = "in reaction " if e.reaction else ""
            self.line(t, f"{w.name(e.ship)} locks {how}on {w.name(e.target)} ({e.arc} arc)", "lock")
        elif isinstance(e, ev.StoppedShort):
            what = w.name(e.of) if e.of in w.ships else f"the {e.of.replace('edge', 'table edge')}"
            self.line(t, f"{w.name(e.ship)} stops {e.lost_cm:.1f} cm short of {what}", "move")
        elif isinstance(e, ev.VolleyFired):
            self.fired(e, t)
        elif isinstance(e, ev.HitScored):
            self.hit(e, t)
        elif isinstance(e, ev.ControlChanged):
            w.control(e)
            self.changed(t, e.ship)
            state = "regains control" if e.in_control else "is out of control and drifts"
            self.line(t, f"{w.name(e.ship)} {state}", "info")
        elif isinstance(e, ev.ShipDestroyed):
            self.gone(e.ship, t, "derelict" if e.derelict else "destroyed", e.by)
            w.destroyed(e)
            self.changed(t, e.ship)
            self.scores.append([round(t, 3), *w.score])
        elif isinstance(e, ev.ShipReset):
            self.gone(e.ship, t, "reset", e.by)
            w.reset(e)
            self.changed(t, e.ship)
        elif isinstance(e, ev.ShipReturned):
            w.returned(e)
            self.changed(t, e.ship)
            self.marks.append([round(t, 3), w.ships[e.ship].index, "returned", e.x, e.y])
            self.line(t, f"{w.name(e.ship)} returns with shields {e.shields}", "info")
        elif isinstance(e, ev.ReturnPostponed):
            self.line(t, f"{w.name(e.ship)} finds no room to return; it tries next turn", "info")
        elif isinstance(e, ev.FleetPointsAwarded):
            w.score[0 if e.side == "A" else 1] = e.total
            self.scores.append([round(t, 3), *w.score])
            why = {"kill": f"for {w.name(e.ship)}", "resource": f"resource {e.ship}"}.get(
                e.reason, "bonus for tokens"
            )
            self.line(t, f"Side {e.side} scores {e.points} Fleet Points ({why})", "score")
        elif isinstance(e, ev.RollOff):
            self.line(t, f"Fleet Points level: side {e.winner} wins the roll-off", "score")
        elif isinstance(e, ae.AttackRolled):
            self.adv_shot(e, t)
        elif isinstance(e, ae.DamageDealt):
            self.adv_damage(e, t)
        elif isinstance(e, ae.PowerAllocated):
            w.adv_power(e)
            self.changed(t, e.ship)
        elif isinstance(e, ae.ShieldsRedistributed):
            w.adv_shields(e)
            self.changed(t, e.ship)
        elif isinstance(e, (ae.CloakChanged, *fe.FIELD_EVENTS)):
            self.field(e, t)
        elif isinstance(e, ev.BattleEnded):
            who = f"Side {e.winner} wins" if e.winner else "A draw"
            self.line(t, f"{who}: {e.reason} (after {e.turns} turns)", "result")

    def open_volley(self, t: float, ship: str, target: str, shot: dict[str, Any]) -> None:
        """A volley drawn from `ship` to `target`, its hits added as they are logged: FPF's
        group of shots, or the advanced game's one roll (`shot`: its weapon, shots, strength,
        shields, range, rolls and how many went through)."""
        w = self.w
        self.volley = {"t": round(t, 3), "a": w.ships[ship].index, "b": w.ships[target].index}
        self.volley.update(shot, hits=[])
        self.volleys.append(self.volley)

    def fired(self, e: ev.VolleyFired, t: float) -> None:
        w = self.w
        through = sum(penetrates(r, e.shields, e.strength) for r in e.rolls)
        shot = {"w": e.weapon, "n": e.shots, "str": e.strength, "sh": e.shields}
        shot.update(rng=e.range_cm, rolls=e.rolls, through=through)
        self.open_volley(t, e.ship, e.target, shot)
        plural = "s" * (e.shots != 1)
        rolls = " ".join(str(r) for r in e.rolls)
        # a head-on exchange's groups fire as their ships stood when it began (FPF-FIRE-14)
        head_on = " (head-on exchange)" if e.exchange is not None else ""
        self.line(
            t,
            f"{w.name(e.ship)} fires {e.shots} {e.weapon}{plural} (str {e.strength}) at "
            f"{w.name(e.target)}, {e.range_cm:.1f} cm, shields {e.shields}: {rolls}, "
            f"{through} through{head_on}",
            "fire",
        )

    def hit(self, e: ev.HitScored, t: float) -> None:
        w = self.w
        w.hit(e)
        self.changed(t, e.target)
        v = self.volley
        if v is not None and e.ship and w.ships[e.ship].index == v["a"] and e.weapon == v["w"]:
            v["hits"].append([e.location, e.damage, e.applied_to, e.value, e.superstructure])
        else:  # damage with no volley: a micro warp jump's strain (FPF-OPT-06)
            self.volley = None
            self.marks.append([round(t, 3), w.ships[e.target].index, "strain", 0, 0])
        where = e.location.replace("_", " ")
        self.line(
            t,
            f"  hit on {where}: {e.damage} damage, superstructure {e.superstructure}"
            + ("" if e.applied_to == "superstructure" else f", {where} {e.value}"),
            "hit",
        )

    def adv_shot(self, e: ae.AttackRolled, t: float) -> None:
        """An advanced game's to-hit roll: a beam or one torpedo, drawn as a volley of one."""
        w = self.w
        weapon = "photon" if e.weapon in ("photon", "plasma") else "phaser"
        shot = {"w": weapon, "n": 1, "str": e.damage, "sh": 0, "rng": round(e.range_cm, 1)}
        shot.update(rolls=[e.roll], through=int(e.hit))
        self.open_volley(t, e.ship, e.target, shot)
        ws = "+".join(f"w{i}" for i in e.weapons)
        result = f"hit for {e.damage}" if e.hit else "miss"
        self.line(
            t,
            f"{w.name(e.ship)} {ws} {e.weapon} at {w.name(e.target)}, {e.range_cm:.1f} cm: "
            f"d10 {e.roll} needs {e.needed}: {result}",
            "fire",
        )

    def adv_damage(self, e: ae.DamageDealt, t: float) -> None:
        """Damage past an advanced shield facing: the superstructure left, a hit dot."""
        w = self.w
        ship = w.ships[e.target]
        w.adv_hit(e)
        self.changed(t, e.target)
        where = "superstructure" if e.location in ("hull", "") else e.location
        v = self.volley
        if v is not None and v["b"] == ship.index and e.through > 0:
            v["hits"].append([where, e.through, "superstructure", e.base, e.superstructure])
        self.line(
            t,
            f"  shield {e.facing} takes {e.damage} ({e.absorbed} absorbed); {e.through} through "
            f"to {e.location or 'nothing'}, superstructure {e.superstructure}",
            "hit",
        )

    def field(self, e: ev.Event, t: float) -> None:
        """Cloaks, webs and probes: the field the replay draws over the table."""
        w = self.w
        if isinstance(e, ae.CloakChanged):
            index = w.ships[e.ship].index
            if e.hidden:
                w.cloaked.add(index)
            else:
                w.cloaked.discard(index)
        elif isinstance(e, fe.ProbeLaunched):
            w.probes[e.probe] = [round(e.x, 2), round(e.y, 2), w.ships[e.ship].side, 1]
        elif isinstance(e, fe.ProbeFiredAt) and e.destroyed and e.probe in w.probes:
            w.probes[e.probe][3] = 0
        elif isinstance(e, fe.WebCast):
            w.webs[e.web] = [w.ships[e.target].index, int(e.permanent)]
            w.weaving.pop(e.target, None)
        elif isinstance(e, fe.WebReleased):
            w.webs.pop(e.web, None)
        elif isinstance(e, fe.WebWoven):
            if e.weavers:
                w.weaving[e.target] = w.ships[e.target].index
            else:
                w.weaving.pop(e.target, None)
        elif isinstance(e, fe.WebTowed):
            ship = w.ships[e.ship]
            ship.state[X], ship.state[Y] = e.x, e.y
        story = getattr(e, "story", None)  # every advanced event tells itself
        text = story(w.name, False) if story is not None else None
        if text:
            self.line(t, str(text).strip(), "field")

    def gone(self, ship_id: str, t: float, how: str, by: str) -> None:
        w = self.w
        st = w.ships[ship_id].state
        self.marks.append([round(t, 3), w.ships[ship_id].index, how, st[X], st[Y]])
        by_text = f" by {w.name(by)}" if by else ""
        self.line(t, f"{w.name(ship_id)} {how}{by_text}", "kill")


#: the marks the tactics events leave (module adv-tactics)
_MARK: dict[type, str] = {
    te.SelfDestructed: "self-destructs",
    te.ShipCaptured: "captured",
    te.Beamed: "beams boarders",
    te.Docked: "docks",
}


def replay_data(
    events: Iterable[ev.Event], pack: ShipPack | None = None, view: str = REFEREE
) -> dict[str, Any]:
    """Everything the replay page shows, as plain JSON-ready data (see the module docstring):
    the referee's view of the log, or one side's (`view` 'A' or 'B': only what that side saw,
    kolrami.report.sideview)."""
    events = list(events)
    if not events or not isinstance(events[0], ev.BattleStarted):
        raise InvalidInputError("a replay needs a battle log that starts with battle_started")
    events = view_events(events, view)
    first = events[0]
    assert isinstance(first, ev.BattleStarted)  # a view keeps the log's header first
    header = first.header
    if view == REFEREE:
        view = str(header.get("view", REFEREE))  # a side's log stays that side's view
    pack = pack or builtin_pack()
    scenario = header.get("scenario", {})
    rules = list(header.get("rules", []))
    walker = _Walker(pack, header)
    known = [r for r in rules if r in REGISTRY]  # a log may name a module since renamed
    walker.fleet_points = Capability.SCORES_FLEET_POINTS in capabilities_of(known)
    walker.start_speed = int(scenario.get("start_speed_cm", 20))
    started = next((e for e in events if isinstance(e, ae.AdvancedStarted)), None)
    if started is not None:
        walker.advanced = advanced_pack()
    steps = [_StepBuilder(walker, s).build() for s in _split(events[1:])]
    detonated = _detonations(events)
    end = next((e for e in reversed(events) if isinstance(e, ev.BattleEnded)), None)
    classes = {s.cls.id: _class_json(s.cls) for s in walker.ships.values()}
    fleets = header.get("fleets", [{}, {}])
    captains = header.get("captains", ["", ""])
    names = [str(f.get("name", f"Side {side}")) for f, side in zip(fleets, "AB", strict=False)]
    return {
        "format": FORMAT_VERSION,
        "title": f"{names[0]} vs {names[1]}" if len(names) == 2 else "Kolrami battle",
        "meta": {
            # text: JavaScript's numbers hold integers exactly only up to 2**53
            "seed": None if header.get("seed") is None else str(header["seed"]),
            "kolrami": header.get("kolrami"),
            # an advanced battle is played by the advanced rules, on the advanced data
            "rules_version": started.rules_version if started else header.get("rules_version"),
            "data_version": started.data_version if started else header.get("data_version"),
            "advanced": started is not None,
            "view": view,
            "fpf_rules_version": header.get("rules_version"),
            "rules": rules,
            "captains": list(captains),
            "fleets": [
                {"name": n, "faction": f.get("faction") or ""}
                for n, f in zip(names, fleets, strict=False)
            ],
            "scenario": {
                "name": scenario.get("name", ""),
                "title": scenario.get("title") or scenario.get("name", ""),
                "width": float(scenario.get("table_width_cm", 180.0)),
                "height": float(scenario.get("table_height_cm", 120.0)),
                "deployment": float(scenario.get("deployment_depth_cm", 20.0)),
                "base": float(scenario.get("base_radius_cm", 2.5)),
                "turns": int(scenario.get("turn_limit", 12)),
            },
            "terrain": [terrain_json(t, scenario, detonated) for t in scenario.get("terrain", [])],
            "scoring": "fleet-points" if walker.fleet_points else "destroyed",
            "result": None
            if end is None
            else {"winner": end.winner, "reason": end.reason, "turns": end.turns},
        },
        "classes": classes,
        "ships": [
            {
                "id": s.id,
                "cls": s.cls.id,
                "side": s.side,
                "sq": s.squadron,
                "colour": squadron_colour(s.side, s.squadron),
                "max": {"ss": s.cls.superstructure, **s.maxima},
                "weapons": _adv_weapons(walker.sheets[s.id])
                if s.id in walker.sheets
                else [
                    {
                        "kind": kind.value,
                        "arcs": [a.value for a in w.arcs],
                        "range": s.weapon_stats[kind.value][1],
                        "str": s.weapon_stats[kind.value][0],
                        "shots": w.shots,
                    }
                    for kind, w in s.cls.weapons()
                ],
            }
            for s in walker.ships.values()
        ],
        "locations": LOCATION_COLOURS,
        "statuses": list(STATUS_NAMES),
        "steps": steps,
    }


def _clip(
    poly: list[tuple[float, float]], keep: Callable[[float, float], float]
) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of a convex polygon where keep(x, y) >= 0."""
    out: list[tuple[float, float]] = []
    for k, (x1, y1) in enumerate(poly):
        x2, y2 = poly[(k + 1) % len(poly)]
        a, b = keep(x1, y1), keep(x2, y2)
        if a >= 0:
            out.append((x1, y1))
        if (a >= 0) != (b >= 0):
            t = a / (a - b)
            out.append((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t))
    return out


def _ahead(
    fx: float, fy: float, dx: float, dy: float, at: float, sign: float
) -> Callable[[float, float], float]:
    """sign x (how far a point lies along (dx, dy) from (fx, fy), less `at`)."""

    def keep(x: float, y: float) -> float:
        return sign * ((x - fx) * dx + (y - fy) * dy - at)

    return keep


def storm_areas(
    t: dict[str, Any], width: float, height: float, hex_cm: float, turns: int
) -> list[list[list[float]]]:
    """An ion storm's area on the table at the end of each turn (index 0: the start), as
    polygons: the table clipped to the cm behind the moving front (ADV-ION-01)."""
    (fx, fy), _ = t["front"]
    a = math.radians(t["heading_deg"])
    dx, dy = math.cos(a), math.sin(a)
    depth = t.get("depth_cm")
    table = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    out = []
    for turn in range(turns + 1):
        advance = t["speed_hexes"] * hex_cm * turn
        area = _clip(table, _ahead(fx, fy, dx, dy, advance, -1.0))
        if depth is not None and area:
            area = _clip(area, _ahead(fx, fy, dx, dy, advance - depth, 1.0))
        out.append([[round(x, 2), round(y, 2)] for x, y in area])
    return out


def terrain_json(
    t: dict[str, Any], scenario: dict[str, Any], detonated: dict[str, int]
) -> dict[str, Any]:
    """What the page draws of one terrain feature (circles keep their old, short form)."""
    kind = t["kind"]
    if kind in ("planet", "moon") or (kind == "nebula" and "radius_cm" in t):
        return {"kind": kind, "x": t["x"], "y": t["y"], "r": t["radius_cm"]}
    hex_cm = float(scenario.get("hex_cm", 4))
    if kind == "nebula":
        return {"kind": kind, "points": t["outline"]}
    if kind == "ion-storm":
        width = float(scenario.get("table_width_cm", 180.0))
        height = float(scenario.get("table_height_cm", 120.0))
        turns = int(scenario.get("turn_limit", 12))
        return {"kind": kind, "areas": storm_areas(t, width, height, hex_cm, turns)}
    if kind == "minefield":
        number = scenario.get("terrain", []).index(t) + 1
        # a side's view lists only the mines it found, each with its own key (sideview)
        keys = t.get("mine_keys") or [f"{number}.{k}" for k in range(1, len(t["mines"]) + 1)]
        return {
            "kind": kind,
            "owner": t["owner"],
            "hex": hex_cm,
            "cloaked": bool(t.get("cloaked")),
            "mines": [
                [x, y, detonated.get(key, 0)] for key, (x, y) in zip(keys, t["mines"], strict=False)
            ],
        }
    out: dict[str, Any] = {"kind": kind, "x": t["x"], "y": t["y"], "hex": hex_cm}
    if kind == "black-hole":
        out |= {"horizon": t["horizon_cm"], "rings": t.get("rings", 6)}
    elif kind == "magnetar":
        out |= {"reach": t.get("reach_hexes", 15) * hex_cm}
    elif kind == "gas-giant":
        out |= {"layers": t["radius_hexes"]}
    return out


def _detonations(events: Sequence[ev.Event]) -> dict[str, int]:
    """The turn each mine went off in (by its key, '2.1')."""
    turn = 0
    out: dict[str, int] = {}
    for e in events:
        if isinstance(e, ev.TurnStarted):
            turn = e.turn
        elif isinstance(e, MineRolled) and e.exploded:
            out.setdefault(e.mine, turn)
    return out


def _adv_weapons(sheet: AdvancedSheet) -> list[dict[str, Any]]:
    """An advanced sheet's weapons as the replay draws arcs: beams as phasers, launchers as
    photons (its colours), each with its own range and its damage (a beam's most power)."""
    return [
        {
            "kind": "phaser" if w.beam else "photon",
            "arcs": [a.value for a in w.arcs],
            "range": w.range_cm,
            "str": w.power if w.beam else w.damage,
            "shots": 1,
            "label": w.label,
        }
        for w in sheet.weapons
    ]


def _class_json(cls: ShipClass) -> dict[str, Any]:
    return {
        "name": cls.name,
        "title": cls.title,
        "type": cls.type,
        "faction": cls.faction.value,
        "value": cls.value,
        "ss": cls.superstructure,
        "sh": cls.shields,
        "ep": cls.engine_power,
        "sys": cls.computer,
        "dc": cls.damage_control,
        "weapons": [
            {
                "kind": kind.value,
                "arcs": [a.value for a in w.arcs],
                "range": w.range_cm,
                "str": w.strength,
                "shots": w.shots,
            }
            for kind, w in cls.weapons()
        ],
    }


# --- rendering ------------------------------------------------------------------------------


def _asset(name: str) -> str:
    return resources.files("kolrami.report").joinpath(_ASSETS, name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' can close or open a tag."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def _page() -> Template:
    """The page's Jinja2 template: each value goes in once, escaped unless marked safe, and is
    never read again as template text (a fleet named '{{ script }}' stays a name)."""
    env = Environment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    return env.from_string(_asset("replay.html.j2"))


def render_replay(
    events: Iterable[ev.Event], pack: ShipPack | None = None, view: str = REFEREE
) -> str:
    """The replay page of a battle as one HTML string: no network, no other files. `view`: the
    referee's (everything) or a side's ('A', 'B': only what it saw, kolrami.report.sideview).

    For the tournament report and the web app: they embed or serve this string as it is.
    """
    data = replay_data(events, pack, view)
    return _page().render(
        title=f"Kolrami replay: {data['title']}",
        style=Markup(_asset("replay.css")),
        data=Markup(_script_json(data)),  # safe inside <script>: see _script_json
        script=Markup(_asset("replay.js")),
    )


def check_output(path: Path, suffixes: tuple[str, ...], what: str) -> None:
    """Fail early, before a battle is played, when `path` cannot be the output file."""
    if path.suffix.lower() not in suffixes:
        raise InvalidInputError(f"{what} file '{quoted(path)}' must end in {' or '.join(suffixes)}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidInputError(
            f"cannot write {what} '{quoted(path)}': folder '{quoted(parent)}' does not exist"
        )


def write_replay(
    events: Iterable[ev.Event], path: Path, pack: ShipPack | None = None, view: str = REFEREE
) -> int:
    """Write the replay page (in `view`, `render_replay`) to `path`; returns its size in bytes."""
    check_output(path, (".html", ".htm"), "replay")
    text = render_replay(events, pack, view).encode("utf-8")
    try:
        path.write_bytes(text)
    except OSError as exc:
        raise InvalidInputError(f"cannot write replay '{quoted(path)}': {exc.strerror}") from None
    return len(text)


def card_label(card_id: str, carrier: str) -> str:
    """'Admiral Torga (B1 K'T'Roika's admiral)': a card by its name and who carries it."""
    card = cards().get(card_id)
    if card is None:
        return f"Card {card_id or '?'} of {carrier}"
    if card.kind is CardKind.RESOURCE:
        return f"{card.name} (the fleet's resource, on {carrier})"
    kind = f"{card.type.value} upgrade" if card.type else card.kind.value
    return f"{card.name} ({carrier}'s {kind})"
