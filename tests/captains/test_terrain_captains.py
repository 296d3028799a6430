"""Captains and terrain (issue 19): the advanced doctrine keeps clear of what would destroy or
wear it down; the random captain wanders into all of it."""

from __future__ import annotations

from kolrami.captains.advanced import terrain_cost
from kolrami.captains.advanced import terrain_moves
from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.battle import Battle
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import setup
from kolrami.rules.advanced.terrain import TerrainState
from kolrami.rules.advanced.terrain import mines_of
from kolrami.rules.advanced.terrain_events import TerrainDamage
from kolrami.rules.sandbox import fleet_of
from kolrami.rules.sandbox import place as put
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import Feature
from kolrami.scenarios.models import IonStorm
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

STORM = IonStorm(kind="ion-storm", front=((10, 0), (10, 120)), heading_deg=0, speed_hexes=3)
HOLE = BlackHole(kind="black-hole", x=120, y=60, horizon_cm=4, rings=3)


def table(features: tuple[Feature, ...]) -> Battle:
    sc = builtin_scenario("advanced").model_copy(
        update={"terrain": features, "rules": ("advanced", "adv-terrain")}
    )
    b = new_battle(sc, (fleet_of([["reliant"]], "A"), fleet_of([["ktroika"]], "B")), 1)
    state = setup(b, advanced_pack(), AdvancedRules.of(b))
    b.extensions[KEY] = state
    state.terrain = TerrainState(mines_of(sc))
    b.turn = 1
    return b


def test_the_doctrine_buys_the_movement_to_outrun_a_storm_and_to_hold_against_a_drag() -> None:
    b = table((STORM, HOLE))
    view = BattleView(b, "A")
    a = view.advanced().ship("A1")
    put(b, "A1", 30, 60, 0)  # the front reaches x = 34 by the end of turn 2
    assert terrain_moves(view, a) == 3 + 3  # the storm's speed and a margin
    put(b, "A1", 60, 60, 0)  # clear of it for now
    assert terrain_moves(view, a) == 0
    put(b, "A1", 120 + 4 + 3 * 4 - 2, 60, 0)  # the outermost disk ring
    assert terrain_moves(view, a) == 5  # a hex every phase


def test_the_doctrine_s_cost_grows_behind_the_front_and_for_a_hurt_ship() -> None:
    b = table((STORM,))
    view = BattleView(b, "A")
    a = view.advanced().ship("A1")
    put(b, "A1", 20, 60, 0)
    shallow = terrain_cost(view, a, 30, 60, 32, 60)
    deep = terrain_cost(view, a, 20, 60, 20, 60)
    clear = terrain_cost(view, a, 60, 60, 62, 60)
    assert clear == 0
    assert deep > shallow > 0
    b.ships["A1"].superstructure //= 4
    assert terrain_cost(view, a, 30, 60, 32, 60) > shallow  # a wreck fears it more


def test_at_a_black_hole_doctrines_lose_no_ship_to_it_and_random_captains_do() -> None:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    sc = builtin_scenario("black-hole")

    def lost(captains: tuple[str, str]) -> int:
        ships: set[str] = set()
        for seed in range(6):
            battle = simulate(sc, fleets, captains, seed)
            for e in battle.events():
                if isinstance(e, TerrainDamage) and e.superstructure <= 0:
                    ships.add(f"{seed}:{e.ship}")
        return len(ships)

    assert lost(("aggressive", "aggressive")) == 0
    assert lost(("random", "random")) > 0
