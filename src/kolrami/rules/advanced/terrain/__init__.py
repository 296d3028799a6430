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

from kolrami.rules.advanced.terrain.common import Mine
from kolrami.rules.advanced.terrain.common import TerrainState
from kolrami.rules.advanced.terrain.common import terrain_for
from kolrami.rules.advanced.terrain.common import terrain_of
from kolrami.rules.advanced.terrain.mines import mines_of
from kolrami.rules.advanced.terrain.mines import mines_on_path
from kolrami.rules.advanced.terrain.mines import seen_scenario
from kolrami.rules.advanced.terrain.module import BlackHoleEscapes
from kolrami.rules.advanced.terrain.module import MagnetarBands
from kolrami.rules.advanced.terrain.module import Terrain
from kolrami.rules.advanced.terrain.module import danger
from kolrami.rules.advanced.terrain.module import deadly
from kolrami.rules.advanced.terrain.module import surroundings

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
