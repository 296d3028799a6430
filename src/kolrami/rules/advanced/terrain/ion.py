"""Ion storms in the advanced game (module adv-terrain): ADV-ION-01, ADV-ION-02, ADV-ION-03.
Readings in docs/rules.md under each clause id.

The front moves at the scenario's steady speed (ADV-ION-01); every facing touching the storm
takes 1 a phase (ADV-ION-02); a ship inside has `Surroundings.storm` set, and the Communications
officer cannot decode there (ADV-ION-03, in kolrami.rules.advanced.officers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain.common import strike
from kolrami.scenarios.models import IonStorm

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = ("ADV-ION-01", "ADV-ION-02", "ADV-ION-03")


def storm_advance(storm: IonStorm, hex_cm: int, turn: int, phase: int) -> float:
    """How far (cm) an ion storm's front has moved by the end of `phase` of `turn`
    (ADV-ION-01: a steady speed a game turn, set by the scenario)."""
    return storm.speed_hexes * hex_cm * ((turn - 1) + phase / PHASES)


def storm_damage(
    battle: Battle, state: AdvancedState, adv: AdvShip, storm: IonStorm, phase: int
) -> None:
    """1 damage a phase on every facing touching the storm: all six inside it, the facing
    toward it within half a hex of its front (ADV-ION-02)."""
    advance = storm_advance(storm, state.hex_cm, battle.turn, phase)
    x, y = adv.ship.x, adv.ship.y
    if storm.covers(x, y, advance):
        for facing in range(1, 7):
            strike(battle, adv, "the ion storm", facing, 1)
        return
    gap = storm.offset(x, y) - advance
    if 0 < gap <= state.hex_cm / 2:
        dx, dy = storm.direction()
        facing = facing_toward(x, y, adv.ship.heading, x - dx * gap, y - dy * gap)
        strike(battle, adv, "the ion storm", facing, 1)
