"""The FPF rules, one module per clause group: turn, initiative, movement, fire, damage,
repairs, masking and the optional rules."""

from __future__ import annotations

from kolrami.scenarios.models import Masking
from kolrami.scenarios.models import Scenario

CORE_MODULES = ("fpf-turn", "fpf-repairs", "fpf-initiative", "fpf-damage", "cards")


def mode_modules(scenario: Scenario) -> list[str]:
    """Modules a scenario's options select (masking method)."""
    return ["masking-stationary" if scenario.masking is Masking.STATIONARY else "masking-none"]
