"""Black holes in the advanced game (module adv-terrain): ADV-BH-01, ADV-BH-02, ADV-BH-03,
ADV-BH-04, ADV-BH-05, ADV-BH-06, ADV-BH-07, ADV-BH-08, ADV-BH-09, and the optional ADV-BH-10
(module adv-bh-escapes). Readings in docs/rules.md under each clause id.

Tractors in the disk (ADV-BH-08) are rule functions beside kolrami.rules.advanced.tractor's: no
tractor order is played in a battle yet.

A ship in the accretion disk has `Surroundings.disk` (its depth) set; the core reads it: no
missiles or plasma fired from it (ADV-BH-06), no cloak (ADV-BH-07).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kolrami.engine.chance import Dice
from kolrami.rules.advanced import tractor
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain.common import allowance_used
from kolrami.rules.advanced.terrain.common import shift
from kolrami.rules.advanced.terrain.common import strike
from kolrami.rules.advanced.terrain.common import toward
from kolrami.rules.advanced.terrain_events import terrain_check
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
    "ADV-BH-08",
    "ADV-BH-09",
)
#: The optional module's clause (adv-bh-escapes).
ESCAPE_CLAUSES = ("ADV-BH-10",)
#: The optional module that lets a ship try a clever escape from the event horizon (ADV-BH-10).
ESCAPES_MODULE = "adv-bh-escapes"

#: In the disk a tractor holds a half-mass ship only at maximum power (10% of the initial TPA)
#: and a ship of equal mass at maximum plus half (15%), rounded up (ADV-BH-08).
DISK_HALF_MASS_SHARE, DISK_EQUAL_MASS_SHARE = 10, 15

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


# --- tractors in the disk (ADV-BH-08) ---------------------------------------------------------


def disk_tractor_power(holder_mass: int, target_mass: int, initial_tpa: int) -> int | None:
    """Power a tractor beam takes to hold `target_mass` in the accretion disk: maximum (10% of
    the initial TPA) up to half the holder's mass, maximum plus half (15%) up to its own mass,
    rounded up; None for a heavier ship, which no beam holds (ADV-BH-08, ADV-TRAC-06)."""
    if 2 * target_mass <= holder_mass:
        share = DISK_HALF_MASS_SHARE
    elif target_mass <= holder_mass:
        share = DISK_EQUAL_MASS_SHARE
    else:
        return None
    return math.ceil(initial_tpa * share / 100)


def disk_tractor_problem(
    depth: int, holder_mass: int, target_mass: int, power: int, initial_tpa: int
) -> str | None:
    """Why a beam of `power` does not hold the target while either ship is in the disk (`depth`
    the deeper one's ring, 0 outside it), or None (ADV-BH-08); outside the disk the tractor
    rules alone apply."""
    if depth <= 0:
        return None
    needed = disk_tractor_power(holder_mass, target_mass, initial_tpa)
    if needed is None:
        return "no beam holds a heavier ship in the accretion disk (ADV-BH-08)"
    if power < needed:
        return f"in the accretion disk this hold takes {needed} power, not {power} (ADV-BH-08)"
    return None


def disk_burnout_due(turn: int, phase: int) -> bool:
    """A holder in the disk rolls for crystal burn-out every other phase of the battle: the
    2nd, 4th, 6th ... counted across game turns (ADV-BH-08)."""
    return ((turn - 1) * PHASES + phase) % 2 == 0


def disk_burnout(dice: Dice, turn: int, phase: int) -> bool:
    """The holder's burn-out roll in the disk when one is due: a 0 on the d10 burns a crystal
    (the roll of ADV-TRAC-08, ADV-BH-08)."""
    return disk_burnout_due(turn, phase) and dice.d(10) == tractor.HOLDER_BURNS


# --- a clever escape from the event horizon (ADV-BH-10, optional) ------------------------------


def escape_outward(hole: BlackHole, hex_cm: int, x: float, y: float) -> tuple[float, float]:
    """Where a ship that skips off the event horizon at warp comes out: one hex outside the
    horizon, straight out from the centre (ADV-BH-10)."""
    r = hole.distance(x, y)
    out = hole.horizon_cm + hex_cm
    if r == 0:
        return hole.x + out, hole.y
    return hole.x + (x - hole.x) * out / r, hole.y + (y - hole.y) * out / r


def try_escape(battle: Battle, state: AdvancedState, adv: AdvShip, hole: BlackHole) -> bool:
    """A ship reaching the event horizon tries one clever escape a battle: a Helm Ops check; on a
    pass it skips off the horizon at warp to one hex outside it (ADV-BH-10). Blowing up its own
    warp core would not push it a single hex, so that is never an escape."""
    escaped = terrain_check(battle, adv, "clever escape Helm Ops", adv.rating("helm", "helm_ops"))
    if escaped:
        x, y = escape_outward(hole, state.hex_cm, adv.ship.x, adv.ship.y)
        shift(battle, adv, "a skip off the event horizon", x, y)
    return escaped


def disk_effects(battle: Battle, state: AdvancedState, adv: AdvShip, hole: BlackHole) -> None:
    """Ring damage (ADV-BH-01), debris (ADV-BH-02) and the drag inward (ADV-BH-03)."""
    depth = disk_depth(hole, state.hex_cm, adv.ship.x, adv.ship.y)
    if not depth or depth > hole.rings:
        return
    strike(battle, adv, f"accretion disk ring {depth}", 0, ring_damage(hole, depth))
    if not adv.alive:
        return
    if not terrain_check(battle, adv, "disk debris Helm Ops", adv.rating("helm", "helm_ops")):
        facing, amount = battle.dice.d6(), battle.dice.d(3)
        strike(battle, adv, "disk debris", facing, amount)
    # holding against the well costs `depth` extra hexes a phase; a ship that did not
    # move that far this phase is dragged one hex inward
    if adv.alive and allowance_used(adv) < depth:
        shift(battle, adv, "the black hole's drag", *toward(adv, hole.x, hole.y, state.hex_cm))
