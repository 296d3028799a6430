"""Gas giants in the advanced game (module adv-terrain): ADV-GG-01, ADV-GG-02, ADV-GG-03,
ADV-GG-04, ADV-GG-05. Readings in docs/rules.md under each clause id.

A ship in an atmosphere has `Surroundings.layer` set; the core reads it: no lock (weapons are
aimed by hand, ADV-GG-01) and no cloak there (ADV-GG-05).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.catalog.advanced import AdvWeapon
from kolrami.catalog.advanced import AdvWeaponKind
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain.common import LEADING_FACINGS
from kolrami.rules.advanced.terrain.common import strike
from kolrami.scenarios.models import GasGiant

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = ("ADV-GG-01", "ADV-GG-02", "ADV-GG-03", "ADV-GG-04", "ADV-GG-05")

#: Pressure per move on each of the three leading facings, by atmosphere layer (ADV-GG-01,
#: ADV-GG-02); torpedo damage factors by layer.
PRESSURE = {1: 1, 2: 6, 3: 18}
TORPEDO_FACTOR = {1: 1.5, 2: 2.0, 3: 4.0}
#: To-hit penalty for torpedoes fired inside an atmosphere (ADV-GG-01).
ATMOSPHERE_TORPEDO_PENALTY = 5


def giant_layer(giant: GasGiant, hex_cm: int, x: float, y: float) -> int:
    """A gas giant's layer at a point: 0 outside, 1 the outer atmosphere (the outermost hex
    ring), 2 one hex deeper, 3 deeper still, 4 the solid core hex (ADV-GG-01, ADV-GG-02,
    ADV-GG-03)."""
    d = giant.distance(x, y) / hex_cm
    if d <= 0.5:
        return 4
    if d > giant.radius_hexes:
        return 0
    if d > giant.radius_hexes - 1:
        return 1
    if d > giant.radius_hexes - 2:
        return 2
    return 3


def in_core(giant: GasGiant, hex_cm: int, x: float, y: float) -> bool:
    """The solid core destroys a ship that reaches it (ADV-GG-03)."""
    return giant_layer(giant, hex_cm, x, y) == 4


def layer_cost(giant: GasGiant, hex_cm: int, x: float, y: float) -> float:
    """What ending a move deep in the atmosphere costs a captain: the pressure there."""
    layer = giant_layer(giant, hex_cm, x, y)
    return 3.0 * PRESSURE[min(3, layer)] * len(LEADING_FACINGS) if layer >= 2 else 0.0


def pressure(
    battle: Battle, adv: AdvShip, giant: GasGiant, hex_cm: int, x: float, y: float
) -> None:
    """A ship that moved at (x, y) in an atmosphere takes its layer's pressure on each of the
    three leading facings (ADV-GG-01, ADV-GG-02)."""
    layer = min(3, giant_layer(giant, hex_cm, x, y))
    if layer and adv.moved_last:
        for facing in LEADING_FACINGS:
            strike(battle, adv, "atmospheric pressure", facing, PRESSURE[layer])


def hidden(ship: AdvShip) -> bool:
    """Movement in an atmosphere is the referee's: the enemy sees the ship only within 1 hex
    (ADV-GG-04)."""
    return ship.around.layer > 0


def to_hit_penalty(ship: AdvShip, weapon: AdvWeapon) -> int:
    """Torpedoes fired inside an atmosphere are at +5 to hit (ADV-GG-01)."""
    return ATMOSPHERE_TORPEDO_PENALTY if ship.around.layer and not weapon.beam else 0


def torpedo_damage(ship: AdvShip, weapon: AdvWeapon, damage: int) -> int:
    """Pressure makes torpedoes hit harder by layer (ADV-GG-01, ADV-GG-02) and halves plasma
    (ADV-GG-05)."""
    if not weapon.beam and ship.around.layer:
        if weapon.kind is AdvWeaponKind.PLASMA:
            return damage // 2  # ADV-GG-05
        return int(damage * TORPEDO_FACTOR[ship.around.layer])  # ADV-GG-01, ADV-GG-02
    return damage
