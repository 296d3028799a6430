"""A fixed-shape observation of an FPF battle from one side's view (the observation of
`kolrami.rl`, and what a learned captain reads at play time).

Built from a `BattleView` and the decision alone: the side's own ships in full, enemy ships as
the view shows them (a ship the side cannot see is an empty slot), never the battle itself.
Every field is a float32 in [-CLIP, CLIP]; docs/research.md lists them, and `FIELDS` names
them in order (`describe` pairs each with its value).

Layout: GLOBAL fields, then the decision's squadrons (one-hot), then MAX_SHIPS slots of own
ships and MAX_SHIPS of enemy ships (slot k is ship number k+1: A3 in slot 2), SHIP fields each.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt

from kolrami.captains.base import BattleView
from kolrami.captains.macro import KINDS
from kolrami.captains.macro import MAX_SQUADRONS
from kolrami.captains.macro import kind_of
from kolrami.catalog.models import WeaponKind
from kolrami.engine.orders import Decision
from kolrami.engine.view import ShipView
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import RepairDecision
from kolrami.rules.fpf.orders import ReturnDecision

#: The most ships a side may field in an environment (slots of each side's ships).
MAX_SHIPS: Final = 12
#: Every value is clipped to [-CLIP, CLIP].
CLIP: Final = 10.0
#: Speeds, ranges, points and shots are divided by these.
SPEED_SCALE: Final = 30.0
RANGE_SCALE: Final = 100.0
POINTS_SCALE: Final = 100.0
SHOTS_SCALE: Final = 10.0

GLOBAL: Final = (
    "turn_fraction",  # turn / turn limit
    "side_is_b",
    "resets_destroyed",  # Peak Performance: destroyed ships come back (PP-04)
    "own_fleet_points",  # / POINTS_SCALE
    "enemy_fleet_points",
    *(f"decision_{k}" for k in KINDS),  # one-hot
    "initiative_speed",  # the roll-off's speed / SPEED_SCALE (initiative only)
    "fires_as_unit",  # FPF-FIRE-13
    "jump_allowed",  # a micro warp jump may be ordered (FPF-OPT-04)
    "own_in_play",  # ships in play / MAX_SHIPS
    "enemy_seen",
)
SQUADRONS: Final = (
    *(f"own_squadron_{k}" for k in range(1, MAX_SQUADRONS + 1)),  # the one deciding
    *(f"enemy_squadron_{k}" for k in range(1, MAX_SQUADRONS + 1)),  # a reaction's mover
)
SHIP: Final = (
    "present",  # in play, and seen (enemy)
    "on_table",
    "x",  # / table width
    "y",  # / table height
    "heading_sin",
    "heading_cos",
    "speed",  # / SPEED_SCALE
    "last_speed",
    "superstructure",  # / its class's
    "shields",  # / its printed value
    "engine_power",  # / its most
    "systems",  # / its most
    "phaser_shots",  # working shots / SHOTS_SCALE
    "photon_shots",
    "phaser_range",  # cm / RANGE_SCALE
    "photon_range",
    "points",  # Total SP / POINTS_SCALE
    "fired",
    "moved",
    "in_control",
    "detached",
    "derelict",
    "squadron",  # its squadron's number / MAX_SQUADRONS
    "in_decision",  # own: of the squadron deciding; enemy: of a reaction's mover
    "named",  # own: a firer (orders, reaction) or a ship repairing/returning; enemy: a target
    "tokens",  # Critical Hit Tokens / 5
    "evasion",  # / 10
)
FIELDS: Final = (
    *GLOBAL,
    *SQUADRONS,
    *(f"own_{k + 1}_{f}" for k in range(MAX_SHIPS) for f in SHIP),
    *(f"enemy_{k + 1}_{f}" for k in range(MAX_SHIPS) for f in SHIP),
)
#: The observation's length.
SIZE: Final = len(FIELDS)
_OWN: Final = len(GLOBAL) + len(SQUADRONS)
_ENEMY: Final = _OWN + MAX_SHIPS * len(SHIP)
#: a global field's index by name
_G: Final = {name: i for i, name in enumerate(GLOBAL)}


def number(ident: str) -> int:
    """The number in a ship's or squadron's id (A3: 3, BS2: 2)."""
    digits = ident.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return int(digits) if digits.isdigit() else 0


def observe(view: BattleView, decision: Decision | None) -> npt.NDArray[np.float32]:
    """The observation of `view`'s side at `decision` (None: it is asked nothing now)."""
    out = np.zeros(SIZE, dtype=np.float32)
    scenario = view.scenario
    g = out  # the global fields first
    g[0] = view.turn / max(1, scenario.turn_limit)
    g[1] = 1.0 if view.side == "B" else 0.0
    g[2] = 1.0 if view.resets_destroyed() else 0.0
    points = view.fleet_points()
    g[3] = points.get(view.side, 0) / POINTS_SCALE
    g[4] = points.get(view.enemy, 0) / POINTS_SCALE
    own_squadron = enemy_squadron = ""
    named: set[str] = set()
    if decision is not None and decision.side == view.side:
        g[_G["decision_orders"] + KINDS.index(kind_of(decision))] = 1.0
        if isinstance(decision, InitiativeDecision):
            g[_G["initiative_speed"]] = decision.speed / SPEED_SCALE
        if isinstance(decision, OrdersDecision):
            own_squadron = decision.squadron
            named = {*decision.firers, *decision.targets}
            g[_G["jump_allowed"]] = 1.0 if decision.jump is not None else 0.0
        elif isinstance(decision, ReactionDecision):
            own_squadron, enemy_squadron = decision.squadron, decision.mover
            named = {*decision.firers, *decision.targets}
        elif isinstance(decision, RepairDecision):
            named = set(decision.ships)
        elif isinstance(decision, ReturnDecision):
            named = {decision.ship}
    g[_G["fires_as_unit"]] = 1.0 if view.fires_as_unit() else 0.0
    own = view.own_ships()
    enemies = view.enemies()
    g[_G["own_in_play"]] = len(own) / MAX_SHIPS
    g[_G["enemy_seen"]] = len(enemies) / MAX_SHIPS
    base = len(GLOBAL)
    for q, offset in ((own_squadron, 0), (enemy_squadron, MAX_SQUADRONS)):
        k = number(q) if q else 0
        if 1 <= k <= MAX_SQUADRONS:
            out[base + offset + k - 1] = 1.0
    width, height = scenario.table_width_cm, scenario.table_height_cm
    deciding = {own_squadron, enemy_squadron} - {""}
    for ships, start in ((own, _OWN), (enemies, _ENEMY)):
        for ship in ships:
            k = number(ship.id)
            if 1 <= k <= MAX_SHIPS:
                _ship(out, start + (k - 1) * len(SHIP), ship, width, height, deciding, named)
    np.clip(out, -CLIP, CLIP, out=out)
    return out


def _ship(
    out: npt.NDArray[np.float32],
    at: int,
    s: ShipView,
    width: float,
    height: float,
    deciding: set[str],
    named: set[str],
) -> None:
    angle = s.heading * math.pi / 3
    values = (
        1.0,
        float(s.on_table),
        s.x / width,
        s.y / height,
        math.sin(angle),
        math.cos(angle),
        s.speed / SPEED_SCALE,
        s.last_speed / SPEED_SCALE,
        max(0, s.superstructure) / s.cls.superstructure,
        s.shields / max(1, s.max_shields),
        s.engine_power / max(1, s.max_engine),
        max(0, s.systems) / max(1, s.max_systems),
        s.shots(WeaponKind.PHASER) / SHOTS_SCALE if WeaponKind.PHASER in s.mounts else 0.0,
        s.shots(WeaponKind.PHOTON) / SHOTS_SCALE if WeaponKind.PHOTON in s.mounts else 0.0,
        s.range_of(WeaponKind.PHASER) / RANGE_SCALE,
        s.range_of(WeaponKind.PHOTON) / RANGE_SCALE,
        s.points / POINTS_SCALE,
        float(s.fired),
        float(s.moved),
        float(s.in_control),
        float(s.detached),
        float(s.derelict),
        number(s.squadron) / MAX_SQUADRONS,
        1.0 if s.squadron in deciding else 0.0,
        1.0 if s.id in named else 0.0,
        s.tokens / 5,
        s.evasion / 10,
    )
    out[at : at + len(values)] = values


def describe(observation: npt.NDArray[np.float32]) -> dict[str, float]:
    """Each field's name with its value (the non-zero ones), for reading an observation."""
    return {name: float(v) for name, v in zip(FIELDS, observation, strict=True) if v}
