"""The advanced game's terrain (module adv-terrain): nebulae, ion storms, mines, black holes,
neutron stars, magnetars, gas giants and standard orbit, as a scenario places them
(kolrami.scenarios.models).

One file a clause group, so a rule is found by its id in the file of its group:
nebula.py (ADV-NEB), ion.py (ADV-ION), mines.py (ADV-MINE), black_hole.py (ADV-BH),
neutron.py (ADV-NS), magnetar.py (ADV-MAG), gas_giant.py (ADV-GG), orbit.py (ADV-ORB);
common.py holds the module's state and the one door for terrain damage and moves, module.py the
module that puts them together. ADV-CLOAK-09 is in kolrami.rules.advanced.cloak.

Distances the rules count in hexes are the scenario's `hex_cm`: a point is "in" a
hex when it lies within half a hex of its centre. Readings are in docs/rules.md under each
clause id.
"""

from kolrami.rules.advanced.terrain.common import Mine, TerrainState, terrain_for, terrain_of
from kolrami.rules.advanced.terrain.mines import mines_of, mines_on_path, seen_scenario
from kolrami.rules.advanced.terrain.module import (
    BlackHoleEscapes,
    MagnetarBands,
    Terrain,
    danger,
    deadly,
    surroundings,
)

__all__ = [
    "BlackHoleEscapes",
    "MagnetarBands",
    "Mine",
    "Terrain",
    "TerrainState",
    "danger",
    "deadly",
    "mines_of",
    "mines_on_path",
    "seen_scenario",
    "surroundings",
    "terrain_for",
    "terrain_of",
]
