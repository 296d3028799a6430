"""The built-in terrain scenarios (issue 19) load, and FPF's nebula option plays in one."""

from __future__ import annotations

import pytest

from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.fpf.volley import Volley
from kolrami.rules.module import rules_of
from kolrami.rules.sandbox import place
from kolrami.scenarios.models import BUILTIN
from kolrami.scenarios.models import builtin_scenario
from kolrami.scenarios.models import load_scenario

TERRAIN = {
    "nebula-ambush": ["nebula"],
    "ion-storm-crossing": ["ion-storm", "nebula"],
    "minefield": ["minefield"],
    "black-hole": ["black-hole", "moon"],
    "gas-giant-hide": ["gas-giant", "neutron-star", "magnetar"],
}


@pytest.mark.parametrize("name", sorted(TERRAIN))
def test_each_terrain_scenario_is_built_in_with_its_features(name: str) -> None:
    assert name in BUILTIN
    scenario = load_scenario(name)
    assert [t.kind for t in scenario.terrain] == TERRAIN[name]
    assert ("adv-terrain" in scenario.rules) == (scenario.driver == "advanced")


@pytest.mark.rule("FPF-OPT-09")
def test_the_nebula_ambush_plays_fpf_with_nebula_fire() -> None:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    battle = new_battle(builtin_scenario("nebula-ambush"), fleets, 1)
    assert "nebula-fire" in battle.rules.names
    rules = rules_of(battle)
    a, b = battle.ships["A1"], battle.ships["B1"]
    place(battle, "B1", 90, 60, 3)  # inside the outline
    assert [rules.penetrates(battle, Volley(a, b, 4, 0), roll) for roll in (8, 9, 10)] == [
        False,
        True,
        True,
    ]
    place(battle, "B1", 90, 100, 3)  # outside: shields 0 less strength 4, 2 gets through
    assert rules.penetrates(battle, Volley(a, b, 4, 0), 2)
