"""A volley as the shot policies see it (`Policies.penetrates`, `Policies.after_roll`): its own
module, below both the policies' declarations (rules.module) and the damage rules that carry
them out, so neither has to import the other to name it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kolrami.engine.battle import ShipState


@dataclass(frozen=True, slots=True)
class Volley:
    """One group's shots as the shot policies (`penetrates`, `after_roll`) see them: `firer`'s
    weapon at `strength` (after evasion) against `target`'s shields as they stand for this
    volley, `shields` (FPF-FIRE-09: in an exchange, what its side's earlier shots left)."""

    firer: ShipState
    target: ShipState
    strength: int
    shields: int
