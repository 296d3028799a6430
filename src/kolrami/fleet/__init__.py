"""Fleets: the FleetX model, presets and loading (cards and legality come with the fleets issue)."""

from kolrami.fleet.model import Fleet, FleetShip, fpf_preset_names, load_fleet, preset_names

__all__ = ["Fleet", "FleetShip", "fpf_preset_names", "load_fleet", "preset_names"]
