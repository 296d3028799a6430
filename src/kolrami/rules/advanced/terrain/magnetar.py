"""Magnetars in the advanced game (module adv-terrain): ADV-MAG-01. Readings in docs/rules.md.

A ship in a magnetar's reach with its shields up has charged them against the pull
(`Surroundings.pull`): they give no protection there (ADV-MAG-01, read by the core).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.rules.advanced.state import AdvancedState, AdvShip
from kolrami.rules.advanced.terrain.common import shift, toward
from kolrami.scenarios.models import Magnetar

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = ("ADV-MAG-01",)


def in_reach(star: Magnetar, hex_cm: int, x: float, y: float) -> bool:
    """Whether a point is within the magnetar's reach (ADV-MAG-01)."""
    return star.distance(x, y) <= star.reach_hexes * hex_cm


def pull(
    battle: Battle, state: AdvancedState, adv: AdvShip, star: Magnetar, x: float, y: float
) -> None:
    """A ship that was at (x, y) in reach with its shields down is pulled 1 hex toward the
    magnetar a phase (ADV-MAG-01)."""
    if in_reach(star, state.hex_cm, x, y) and not adv.shields_up:
        shift(battle, adv, "the magnetar's pull", *toward(adv, star.x, star.y, state.hex_cm))
