"""Magnetars in the advanced game (module adv-terrain): ADV-MAG-01, and the optional ADV-MAG-02
(module adv-magnetar-bands). Readings in docs/rules.md.

A ship in a magnetar's reach with its shields up has charged them against the pull
(`Surroundings.pull`): they give no protection there (ADV-MAG-01, read by the core).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain.common import shift
from kolrami.rules.advanced.terrain.common import toward
from kolrami.scenarios.models import Magnetar

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = ("ADV-MAG-01",)
#: The optional module's clause (adv-magnetar-bands).
BAND_CLAUSES = ("ADV-MAG-02",)
#: The optional module that scales the magnetar's effect in thirds by distance (ADV-MAG-02).
BANDS_MODULE = "adv-magnetar-bands"
#: The bands: the reach split in three (5 hexes each for the usual 15).
BANDS = 3


def in_reach(star: Magnetar, hex_cm: int, x: float, y: float) -> bool:
    """Whether a point is within the magnetar's reach (ADV-MAG-01)."""
    return star.distance(x, y) <= star.reach_hexes * hex_cm


def band(star: Magnetar, hex_cm: int, x: float, y: float) -> int:
    """The thirds of the effect at a point (ADV-MAG-02): 3 (full) in the nearest third of the
    reach (1-5 hexes of 15), 2 in the middle third (6-10), 1 in the outer third (11-15), 0
    beyond it."""
    if not in_reach(star, hex_cm, x, y):
        return 0
    hexes = math.ceil(star.distance(x, y) / hex_cm)
    width = star.reach_hexes / BANDS
    return BANDS - min(BANDS - 1, max(0, math.ceil(hexes / width) - 1))


def acts(
    star: Magnetar, hex_cm: int, x: float, y: float, turn: int, phase: int, bands: bool
) -> bool:
    """Whether the magnetar acts on a ship at (x, y) this phase: everywhere in reach
    (ADV-MAG-01), or with the bands in `band` phases of every three, counted across the battle
    (ADV-MAG-02: a third or two thirds of the effect, spread over time)."""
    if not bands:
        return in_reach(star, hex_cm, x, y)
    thirds = band(star, hex_cm, x, y)
    n = (turn - 1) * PHASES + phase
    return thirds > 0 and (n * thirds) // BANDS > ((n - 1) * thirds) // BANDS


def pull(
    battle: Battle,
    state: AdvancedState,
    adv: AdvShip,
    star: Magnetar,
    phase: int,
    x: float,
    y: float,
) -> None:
    """A ship that was at (x, y) in reach with its shields down is pulled 1 hex toward the
    magnetar a phase (ADV-MAG-01; with the bands on, only in the phases the magnetar acts,
    ADV-MAG-02)."""
    bands = BANDS_MODULE in state.rules.names
    if acts(star, state.hex_cm, x, y, battle.turn, phase, bands) and not adv.shields_up:
        shift(battle, adv, "the magnetar's pull", *toward(adv, star.x, star.y, state.hex_cm))
