"""Terrain features in scenario TOML: geometry, validation with one-line errors, old files."""

from __future__ import annotations

import pytest

from kolrami.errors import DataPackError
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import GasGiant
from kolrami.scenarios.models import IonStorm
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import Nebula
from kolrami.scenarios.models import builtin_scenario
from kolrami.scenarios.models import parse_scenario

HEAD = """
[scenario]
name = "t"
driver = "advanced"
rules = ["advanced"]
hex_cm = 4
"""


def scenario(terrain: str, head: str = HEAD) -> object:
    return parse_scenario(head + terrain, "t.toml")


def test_every_feature_kind_loads_with_its_geometry() -> None:
    s = parse_scenario(
        HEAD
        + """
[[scenario.terrain]]
kind = "nebula"
outline = [[10, 10], [50, 10], [50, 40], [10, 40]]
[[scenario.terrain]]
kind = "ion-storm"
front = [[0, 0], [0, 120]]
heading_deg = 0
speed_hexes = 2
[[scenario.terrain]]
kind = "minefield"
owner = "B"
mines = [[90, 60], [94, 60]]
cloaked = true
[[scenario.terrain]]
kind = "black-hole"
x = 90
y = 60
horizon_cm = 4
rings = 6
[[scenario.terrain]]
kind = "gas-giant"
x = 30
y = 90
radius_hexes = 5
[[scenario.terrain]]
kind = "moon"
x = 150
y = 20
radius_cm = 3
[[scenario.terrain]]
kind = "neutron-star"
x = 160
y = 100
[[scenario.terrain]]
kind = "magnetar"
x = 170
y = 10
""",
        "t.toml",
    )
    nebula, storm, mines, hole, giant = s.terrain[:5]
    assert isinstance(nebula, Nebula)
    assert nebula.contains(20, 20)
    assert not nebula.contains(60, 20)
    assert isinstance(storm, IonStorm)
    assert storm.covers(-1, 50, 0)
    assert not storm.covers(5, 50, 0)
    assert storm.covers(5, 50, 8)
    assert isinstance(mines, Minefield)
    assert mines.owner == "B"
    assert mines.cloaked
    assert isinstance(hole, BlackHole)
    assert hole.rings == 6
    assert isinstance(giant, GasGiant)
    assert giant.radius_hexes == 5
    assert [t.kind for t in s.terrain[5:]] == ["moon", "neutron-star", "magnetar"]


@pytest.mark.parametrize(
    ("terrain", "words"),
    [
        (
            '[[scenario.terrain]]\nkind = "ion-storm"\nfront = [[0, 0], [0, 120]]\n'
            "heading_deg = 0\nspeed_hexes = -1\n",
            ["terrain feature 1 (ion-storm)", "'speed_hexes'", "greater than or equal to 0"],
        ),
        (
            '[[scenario.terrain]]\nkind = "nebula"\nx = 10\ny = 10\n',
            ["terrain feature 1 (nebula)", "radius_cm", "outline"],
        ),
        (
            '[[scenario.terrain]]\nkind = "volcano"\nx = 10\ny = 10\n',
            ["terrain feature 1", "volcano", "'minefield'"],
        ),
        (
            '[[scenario.terrain]]\nkind = "minefield"\nowner = "C"\nmines = [[1, 1]]\n',
            ["terrain feature 1 (minefield)", "'owner'", "'A' or 'B'"],
        ),
        (
            '[[scenario.terrain]]\nkind = "black-hole"\nx = 500\ny = 10\nhorizon_cm = 3\n',
            ["terrain feature 1 (black-hole)", "off the 180 x 120 cm table", "move it on"],
        ),
    ],
)
def test_a_bad_feature_gets_one_line_naming_it_the_field_and_the_fix(
    terrain: str, words: list[str]
) -> None:
    with pytest.raises(DataPackError) as err:
        scenario(terrain)
    message = str(err.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_an_fpf_scenario_refuses_terrain_only_the_advanced_game_has_rules_for() -> None:
    with pytest.raises(DataPackError, match=r"feature 1 \(ion-storm\).*driver = 'advanced'"):
        scenario(
            '[[scenario.terrain]]\nkind = "ion-storm"\nfront = [[0, 0], [0, 9]]\n'
            "heading_deg = 0\nspeed_hexes = 1\n",
            head='[scenario]\nname = "t"\n',
        )


def test_old_circle_terrain_loads_and_dumps_as_before() -> None:
    pp = builtin_scenario("peak-performance")
    assert pp.model_dump(mode="json")["terrain"] == [
        {"kind": "planet", "x": 90, "y": 60, "radius_cm": 6}
    ]
    old = scenario('[[scenario.terrain]]\nkind = "nebula"\nx = 90\ny = 60\nradius_cm = 8\n')
    assert old.model_dump(mode="json")["terrain"] == [  # type: ignore[attr-defined]
        {"kind": "nebula", "x": 90, "y": 60, "radius_cm": 8}
    ]
