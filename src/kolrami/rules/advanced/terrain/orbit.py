"""Standard orbit in the advanced game (module adv-terrain): ADV-ORB-01, ADV-ORB-02. Readings
in docs/rules.md under each clause id.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain.common import shift
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import GasGiant
from kolrami.scenarios.models import Moon
from kolrami.scenarios.models import Planet
from kolrami.scenarios.models import Scenario

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

CLAUSES = ("ADV-ORB-01", "ADV-ORB-02")


def orbit_band(
    feature: Planet | Moon | GasGiant | BlackHole, hex_cm: int
) -> tuple[float, float] | None:
    """The (inner, outer) radius in cm of a feature's standard orbit: the hex next to a moon or
    planet, 2 hexes out for a gas giant, the hex next to a black hole's disk (ADV-ORB-02)."""
    if isinstance(feature, Planet | Moon):
        return feature.radius_cm, feature.radius_cm + hex_cm
    if isinstance(feature, GasGiant):
        return (feature.radius_hexes + 1) * hex_cm, (feature.radius_hexes + 2) * hex_cm
    outer = feature.horizon_cm + feature.rings * hex_cm
    return outer, outer + hex_cm


def in_band(feature: Planet | Moon | GasGiant | BlackHole, hex_cm: int, x: float, y: float) -> bool:
    """Whether a point is in the feature's orbit band (ADV-ORB-02)."""
    band = orbit_band(feature, hex_cm)
    return band is not None and band[0] < feature.distance(x, y) <= band[1]


def orbit(battle: Battle, state: AdvancedState, adv: AdvShip, scenario: Scenario) -> None:
    """One hex along the orbit, counter-clockwise, for free (ADV-ORB-01)."""
    feature = scenario.terrain[adv.around.orbit]
    if not isinstance(feature, Planet | Moon | GasGiant | BlackHole):
        return
    x, y = adv.ship.x, adv.ship.y
    r = feature.distance(x, y)
    if r == 0:
        return
    angle = math.atan2(y - feature.y, x - feature.x) + state.hex_cm / r
    shift(
        battle,
        adv,
        "standard orbit",
        feature.x + r * math.cos(angle),
        feature.y + r * math.sin(angle),
    )
