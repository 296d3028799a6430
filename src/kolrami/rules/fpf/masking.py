"""Masking (FPF-MASK): what blocks a line of fire, by the scenario's method."""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Final

from kolrami.engine.geometry import segment_hits_circle
from kolrami.rules.module import RuleModule

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState


#: Where `escorts` keeps a battle's non-combatant escorts, worked out once (`battle.extensions`).
ESCORTS_KEY: Final = "fpf-escorts"


def escorts(battle: Battle) -> frozenset[str]:
    """The ids of the battle's non-combatant escorts (FPF-MASK-04): ships their fleet marks
    `escort`, which fire no weapons all battle and may fly as a squadron's fourth ship. Ids
    follow the deployment: squadron by squadron, A1, A2 ... (kolrami.engine.battle)."""
    found = battle.extensions.get(ESCORTS_KEY)
    if isinstance(found, frozenset):
        return found
    out: set[str] = set()
    for side, fleet in zip(("A", "B"), battle.fleets, strict=False):
        count = 0
        for members in fleet.squadrons().values():
            for member in members:
                count += 1
                if member.escort:
                    out.add(f"{side}{count}")
    result = frozenset(out)
    battle.extensions[ESCORTS_KEY] = result
    return result


def bases_clear(battle: Battle, firer: ShipState, target: ShipState) -> bool:
    """Whether no base masks the line of fire from `firer` to `target` by masking method 1
    (FPF-MASK-01, FPF-MASK-03): a base on the line masks it when the firer or the target
    stands still (speed 0). A module function, compiled with the fire rules, which call it
    directly when `MaskingStationary` decides the line of fire (`damage.natives`)."""
    if firer.speed != 0 and target.speed != 0:
        return True
    r = battle.base_radius_cm
    for s in battle.all_ships:
        if s is firer or s is target or not s.on_table:
            continue
        if segment_hits_circle(firer.x, firer.y, target.x, target.y, s.x, s.y, r):
            return False
    return True


class MaskingStationary(RuleModule):
    """Masking method 1: bases block fire when firer or target stands still (FPF-MASK-01,
    FPF-MASK-03)."""

    name = "masking-stationary"
    clauses = ("FPF-MASK-01", "FPF-MASK-03", "FPF-MASK-04", "FPF-MASK-05")
    summary = "Method 1: a base on the line of fire masks it when firer or target is at speed 0."

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        return bases_clear(battle, firer, target)


class MaskingNone(RuleModule):
    """Masking method 2: nothing masks (FPF-MASK-06)."""

    name = "masking-none"
    clauses = ("FPF-MASK-04", "FPF-MASK-06")
    summary = "Method 2: no masking; ships above and below see past each other."

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        return True
