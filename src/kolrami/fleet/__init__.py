"""Fleets: the FleetX model, presets and loading (cards and legality come with the fleets issue)."""

from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.fleet.model import fpf_preset_names
from kolrami.fleet.model import load_fleet
from kolrami.fleet.model import preset_names

__all__ = ["Fleet", "FleetShip", "fpf_preset_names", "load_fleet", "preset_names"]
