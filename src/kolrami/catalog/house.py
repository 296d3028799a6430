"""The house data pack's design rules: how its points values follow from a sheet's numbers.

The house pack (`data/house_ships.toml`) is Kolrami's own design, not seed data. Its values come
from one formula, calibrated against the ten FPF classes (docs/rules.md, "House ship data"), so
a house ship costs about what an FPF ship of the same strength does.
"""

from __future__ import annotations

import math

from kolrami.catalog.models import ShipClass

#: Subtracted from the rating: a hull with no weapons or engines is worth nothing.
RATING_OFFSET = 50
#: A fixed base cannot close on a target or run from one: it pays this share of its rating.
BASE_SHARE = 0.6
LEAST_VALUE = 15


def house_rating(cls: ShipClass) -> float:
    """A sheet's strength in one number: hull, shields, half the engine power, five per point of
    Systems and of Damage Control, and each weapon's shots x strength x range / 20, times the
    square root of the arcs it bears into."""
    fire = sum(
        w.shots * w.strength * math.sqrt(len(w.arcs)) * w.range_cm / 20 for _, w in cls.weapons()
    )
    return (
        2 * cls.superstructure
        + cls.shields
        + cls.engine_power / 2
        + 5 * cls.computer
        + 5 * cls.damage_control
        + fire
    )


def house_value(cls: ShipClass) -> int:
    """The points value the house formula gives: (rating - 50), times 0.6 for a base, to the
    nearest 5, at least 15."""
    worth = house_rating(cls) - RATING_OFFSET
    if cls.stationary:
        worth *= BASE_SHARE
    return max(LEAST_VALUE, 5 * round(worth / 5))
