"""Black holes in the advanced game (module adv-terrain): ADV-BH-01, ADV-BH-02, ADV-BH-03,
ADV-BH-04, ADV-BH-05, ADV-BH-06, ADV-BH-07, ADV-BH-09. Readings in docs/rules.md under each
clause id.

A ship in the accretion disk has `Surroundings.disk` (its depth) set; the core reads it: no
missiles or plasma fired from it (ADV-BH-06), no cloak (ADV-BH-07).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.state import AdvancedState, AdvShip
from kolrami.rules.advanced.terrain.common import allowance_used, shift, strike, toward
from kolrami.rules.advanced.terrain_events import TerrainCheck
from kolrami.scenarios.models import BlackHole

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = (
    "ADV-BH-01",
    "ADV-BH-02",
    "ADV-BH-03",
    "ADV-BH-04",
    "ADV-BH-05",
    "ADV-BH-06",
    "ADV-BH-07",
    "ADV-BH-09",
)

#: The most an accretion disk ring deals: the ring next to the event horizon (ADV-BH-01).
INNER_RING_DAMAGE = 6


def disk_depth(hole: BlackHole, hex_cm: int, x: float, y: float) -> int:
    """The accretion disk ring a point is in: 1 outermost to `rings` next to the event horizon;
    0 outside the disk, rings + 1 at or inside the event horizon."""
    r = hole.distance(x, y)
    if r <= hole.horizon_cm:
        return hole.rings + 1
    outer = hole.horizon_cm + hole.rings * hex_cm
    if r > outer:
        return 0
    return min(hole.rings, max(1, math.ceil((outer - r) / hex_cm)))


def ring_damage(hole: BlackHole, depth: int) -> int:
    """Superstructure a disk ring deals a phase: its depth, and 6 next to the horizon
    (ADV-BH-01)."""
    return INNER_RING_DAMAGE if depth >= hole.rings else depth


def beyond_horizon(hole: BlackHole, x: float, y: float) -> bool:
    """A ship at the event horizon is destroyed, warp or not (ADV-BH-09)."""
    return hole.distance(x, y) <= hole.horizon_cm


def disk_cost(hole: BlackHole, hex_cm: int, x: float, y: float) -> float:
    """What ending a move in the disk at (x, y) costs a captain: its ring's damage."""
    depth = disk_depth(hole, hex_cm, x, y)
    return 5.0 * ring_damage(hole, depth) + 5.0 if depth else 0.0


def to_hit_penalty(ship: AdvShip) -> int:
    """Gravitational eddies: +1 to hit per hex of depth in the disk (ADV-BH-04)."""
    return ship.around.disk


def beam_bonus(ship: AdvShip) -> int:
    """The disk's charging effect: beams fired from it deal 2 more per hex of depth
    (ADV-BH-05)."""
    return 2 * ship.around.disk


def disk_effects(battle: Battle, state: AdvancedState, adv: AdvShip, hole: BlackHole) -> None:
    """Ring damage (ADV-BH-01), debris (ADV-BH-02) and the drag inward (ADV-BH-03)."""
    depth = disk_depth(hole, state.hex_cm, adv.ship.x, adv.ship.y)
    if not depth or depth > hole.rings:
        return
    strike(battle, adv, f"accretion disk ring {depth}", 0, ring_damage(hole, depth))
    if not adv.alive:
        return
    result = check(battle.dice, adv.rating("helm", "helm_ops"), adv.penalty)
    battle.log.record(
        TerrainCheck,
        adv.id,
        "disk debris Helm Ops",
        result.roll + result.modifier,
        result.rating,
        result.outcome.passed,
    )
    if not result.outcome.passed:
        facing, amount = battle.dice.d6(), battle.dice.d(3)
        strike(battle, adv, "disk debris", facing, amount)
    # holding against the well costs `depth` extra hexes a phase; a ship that did not
    # move that far this phase is dragged one hex inward
    if adv.alive and allowance_used(adv) < depth:
        shift(battle, adv, "the black hole's drag", *toward(adv, hole.x, hole.y, state.hex_cm))
