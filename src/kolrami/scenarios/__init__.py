"""Scenarios: frozen definitions of a battle's table, set-up, limits and rule modules."""

from kolrami.scenarios.models import Masking
from kolrami.scenarios.models import Movement
from kolrami.scenarios.models import Scenario
from kolrami.scenarios.models import load_scenario

__all__ = ["Masking", "Movement", "Scenario", "load_scenario"]
