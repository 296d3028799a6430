"""Masking (FPF-MASK): what blocks a line of fire, by the scenario's method."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.engine.battle import bases_clear
from kolrami.rules.module import RuleModule

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, ShipState


class MaskingStationary(RuleModule):
    """Masking method 1: bases block fire when firer or target stands still (FPF-MASK-01,
    FPF-MASK-03)."""

    name = "masking-stationary"
    clauses = ("FPF-MASK-01", "FPF-MASK-03", "FPF-MASK-05")
    summary = "Method 1: a base on the line of fire masks it when firer or target is at speed 0."

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        # (the rule is `battle.bases_clear`, compiled; the fire rules call it directly when this
        # module decides the line of fire)
        return bases_clear(battle, firer, target)


class MaskingNone(RuleModule):
    """Masking method 2: nothing masks (FPF-MASK-06)."""

    name = "masking-none"
    clauses = ("FPF-MASK-06",)
    summary = "Method 2: no masking; ships above and below see past each other."

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        return True
