"""Bases and starbases (ADV-BASE-01, ADV-BASE-02, ADV-BASE-03, ADV-BASE-04, ADV-BASE-05,
ADV-BASE-06, ADV-BASE-07, ADV-SB-01): docking, repairs while docked, and how a base fires.

Functions over a base's and a ship's numbers that the tactics module (kolrami.rules.advanced.
tactics), a captain and a test can all call; readings are in docs/rules.md under each id.
"""

from __future__ import annotations

import math
from collections.abc import Callable

#: A ship docks from the base's hex or the ring of hexes around it (ADV-BASE-01).
DOCK_HEXES = 1.5
#: Each officer on duty repairs a point a phase docked; 2% of the casualties come back
#: (ADV-BASE-02).
REPAIR_PER_OFFICER = 1
CASUALTY_PERCENT = 2
#: Ships a base can hold (ADV-BASE-06: the seed leaves it to the station's specifications; our
#: reading: one berth per 60 points of the base's superstructure, at least one).
SUPERSTRUCTURE_PER_BERTH = 60


def capacity(base_superstructure: int) -> int:
    """Berths a base has (ADV-BASE-06)."""
    return max(1, base_superstructure // SUPERSTRUCTURE_PER_BERTH)


def dock_problem(
    hexes: float,
    allied: bool,
    base_is_base: bool,
    docked_here: int,
    berths: int,
    already_docked: bool,
) -> str | None:
    """Why a ship may not dock now, or None (ADV-BASE-01, ADV-BASE-06). Docking goes through the
    base's facing toward the ship, which the base lowers for the phase (ADV-BASE-04)."""
    if not base_is_base:
        return "only a base (a starbase or an outpost) takes ships in to dock (ADV-BASE-01)"
    if not allied:
        return "a ship docks only with its own side's base (ADV-BASE-01)"
    if already_docked:
        return "already docked (ADV-BASE-01)"
    if hexes > DOCK_HEXES:
        return (
            f"{hexes:.1f} hexes from the base; a ship docks from its hex or the next one "
            "(ADV-BASE-01)"
        )
    if docked_here >= berths:
        return f"the base's {berths} berth(s) are full (ADV-BASE-06)"
    return None


def dock_repair(officers_on_duty: int, docked: int) -> int:
    """Points one docked ship repairs in a phase: one per officer on duty, the base's rate
    shared by the ships docked (ADV-BASE-02, ADV-BASE-06), rounded down."""
    if docked <= 0:
        return 0
    return officers_on_duty * REPAIR_PER_OFFICER // docked


def dock_recovery(casualties: int, fatalities: int, docked: int) -> int:
    """Casualties back on duty after a phase docked: 2% of them (never the dead), shared by the
    ships docked (ADV-BASE-02, ADV-BASE-06); at least one while any can come back."""
    living = max(0, casualties - fatalities)
    if living <= 0 or docked <= 0:
        return 0
    return min(living, max(1, math.floor(casualties * CASUALTY_PERCENT / 100 / docked)))


def crew_exchange(casualties: int, fatalities: int, base_crew_fit: int) -> int:
    """Casualties a docked ship hands over to the station for fresh personnel (ADV-BASE-07):
    the living casualties, as many as the station has people fit for duty."""
    return max(0, min(casualties - fatalities, base_crew_fit))


def shared_shields(base_facings: list[int], cap: Callable[[int], int]) -> list[int]:
    """A docked ship's facings: it shuts its own shields down and stands behind the base's
    (ADV-BASE-05), each facing up to what the ship's own would hold (`cap(facing)`: its sheet's
    points, 0 with the generator damaged), so its redistribution and damage rules still
    hold."""
    return [min(points, cap(f)) for f, points in enumerate(base_facings, start=1)]


def approach_blocked(approach_facings: set[int], facing_to_target: int) -> bool:
    """The base holds fire through the facing a ship docks through this phase (ADV-BASE-04)."""
    return facing_to_target in approach_facings


def docked_can_fire(docked: bool, docking_now: bool) -> bool:
    """Docking does not stop a ship from firing or being fired at (ADV-BASE-03); only the phase
    it arrives in does (ADV-BASE-04)."""
    return not docking_now


#: How many targets a base may engage in a phase (ADV-SB-01): any number, so as many as it has
#: weapons.
def base_targets(weapons: int) -> int:
    """Targets a starbase or outpost may engage in one firing phase (ADV-SB-01)."""
    return max(1, weapons)


def base_pair_allowed(first_beam: bool, second_beam: bool) -> bool:
    """A base may fire one beam and one missile together at the same target (ADV-SB-01); two of
    one kind still go at different targets."""
    return first_beam != second_beam
