"""Nebulae in the advanced game (module adv-terrain): ADV-NEB-01, ADV-NEB-02, ADV-NEB-03,
ADV-NEB-04, ADV-NEB-05. Readings in docs/rules.md under each clause id.

A ship inside a nebula has `Surroundings.nebula` set; the core reads it: no sensor lock holds
there (ADV-NEB-03), a cloak does not work (ADV-NEB-04), shields give no protection
(ADV-NEB-05). Crews take no radiation casualties in a scenario's length (ADV-NEB-01: nothing to
do). This file holds the sensing rolls (ADV-NEB-02).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.terrain.common import TerrainState
from kolrami.rules.advanced.terrain_events import TerrainCheck
from kolrami.scenarios.models import Nebula

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = ("ADV-NEB-01", "ADV-NEB-02", "ADV-NEB-03", "ADV-NEB-04", "ADV-NEB-05")

#: A nebula's sensing d10 must come in under this; boosted by sensor power (ADV-NEB-02).
SENSING = 4
SENSING_BOOSTS = ((4, 6), (2, 5))  # (power, number): 2 power -> under 5, 4 power -> under 6


def in_nebula(cloud: Nebula, x: float, y: float) -> bool:
    """Whether a point lies in the nebula (no locks, cloaks or shields there: ADV-NEB-03,
    ADV-NEB-04, ADV-NEB-05)."""
    return cloud.contains(x, y)


def sensing_number(power: int) -> int:
    """The d10 a ship in a nebula must roll under to see other ships, with `power` put into
    sensors (ADV-NEB-02)."""
    for needed_power, number in SENSING_BOOSTS:
        if power >= needed_power:
            return number
    return SENSING


def sense(battle: Battle, state: AdvancedState, t: TerrainState) -> None:
    """Each ship in a nebula rolls to see other ships this phase; a side all of whose ships
    are in nebulae and all failed sees no enemy beyond 1 hex (ADV-NEB-02)."""
    t.blind.clear()
    for side in ("A", "B"):
        ships = state.side(side)
        if not ships or not all(a.around.nebula for a in ships):
            continue
        sees = False
        for a in ships:
            needed = sensing_number(0)
            roll = battle.dice.d10()
            ok = roll < needed
            battle.note(TerrainCheck, a.id, "nebula sensing d10", roll, needed, ok)
            sees = sees or ok
        if not sees:
            t.blind.add(side)
