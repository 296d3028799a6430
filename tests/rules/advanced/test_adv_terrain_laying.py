"""Laying mines in play (ADV-MINE-02): the order, the decision the terrain module asks, and what
a layer may not do."""

from __future__ import annotations

import pytest
from adv_kit import arm
from adv_kit import events_of
from adv_kit import put

from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.battle import Battle
from kolrami.engine.driver import advance
from kolrami.engine.driver import apply
from kolrami.engine.orders import IllegalOrderError
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.orders import LayDecision
from kolrami.rules.advanced.orders import LayOrder
from kolrami.rules.advanced.orders import parse_advanced
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import setup
from kolrami.rules.advanced.terrain import Terrain
from kolrami.rules.advanced.terrain import TerrainState
from kolrami.rules.advanced.terrain import mines_of
from kolrami.rules.advanced.terrain_events import MineLaid
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.rules.sandbox import fleet_of
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate
from scene_kit import place_all

MODULE = Terrain()
FIELD = Minefield(
    kind="minefield", owner="A", mines=((10, 110),), damage=8, lay_area=((40, 30), (60, 50))
)


def laying_table() -> tuple[Battle, AdvancedState]:
    sc = builtin_scenario("advanced").model_copy(
        update={"terrain": (FIELD,), "rules": ("advanced", "adv-terrain")}
    )
    b = new_battle(sc, (fleet_of([["reliant"]], "A"), fleet_of([["ktroika"]], "B")), 1)
    state = setup(b, advanced_pack(), AdvancedRules.of(b))
    b.extensions[KEY] = state
    state.terrain = TerrainState(mines_of(sc))
    b.turn = 1
    place_all(b, "A1 50,40 h0; B1 150,100 h3")
    return b, state


def asked(b: Battle, state: AdvancedState, answer: LayOrder, phase: int = 1) -> list[LayDecision]:
    """Run the module's after-move step, answering every lay decision with `answer`."""
    b.then(*MODULE.adv_after_move(b, state, phase, ("A", "B")))
    decisions: list[LayDecision] = []
    decision = advance(b)
    while decision is not None:
        assert isinstance(decision, LayDecision)
        decisions.append(decision)
        decision = apply(b, answer)
    return decisions


@pytest.mark.rule("ADV-MINE-02")
def test_a_ship_lays_a_mine_only_in_its_lay_area_with_shields_down_then_holds_fire() -> None:
    b, state = laying_table()
    a = arm(b, state, "A1", shields=True)
    assert asked(b, state, LayOrder()) == []  # shields up: not asked
    a = arm(b, state, "A1", shields=False)
    stores = a.stores
    decisions = asked(b, state, LayOrder(("A1",)))
    assert decisions == [LayDecision("A", 1, ("A1",))]  # B has no lay area
    laid = events_of(b, MineLaid)
    assert [(e.ship, e.mine, e.x, e.y) for e in laid] == [("A1", "1.2", 50, 40)]
    assert a.stores == stores - 1  # one missile casing a mine
    assert state.rules.fire_barred(state, a)  # no fire while laying
    own = BattleView(b, "A").scenario.terrain
    assert isinstance(own[0], Minefield)
    assert own[0].mines == ((10, 110), (50, 40))
    assert BattleView(b, "B").scenario.terrain == ()  # the enemy does not see it
    # the next phase the layer, still in the hex, is not struck by its own mine; one mine a hex
    assert asked(b, state, LayOrder(("A1",)), phase=2) == []
    assert not events_of(b, MineRolled)
    assert not state.rules.fire_barred(state, a)
    put(b, "A1", 90, 40, 0)  # out of the lay area: not asked
    assert asked(b, state, LayOrder(), phase=3) == []


@pytest.mark.rule("ADV-MINE-02")
def test_a_lay_order_names_ships_the_decision_offers_once_each() -> None:
    b, state = laying_table()
    arm(b, state, "A1", shields=False)
    with pytest.raises(IllegalOrderError, match="ADV-MINE-02"):
        asked(b, state, LayOrder(("A1", "A1")))
    b, state = laying_table()
    arm(b, state, "A1", shields=False)
    with pytest.raises(IllegalOrderError, match="B1 cannot lay a mine now"):
        asked(b, state, LayOrder(("B1",)))
    assert str(parse_advanced(["LAY", "A1", "A2"], "LAY A1 A2")) == "LAY A1 A2"
    assert parse_advanced(["LAY", "NONE"], "LAY NONE") == LayOrder()


@pytest.mark.rule("ADV-MINE-02")
def test_in_whole_battles_random_captains_lay_mines_and_a_layer_never_fires_that_phase() -> None:
    sc = builtin_scenario("minefield")
    fields = tuple(
        f.model_copy(update={"lay_area": ((0, 0), (180, 120))}) if isinstance(f, Minefield) else f
        for f in sc.terrain
    )
    sc = sc.model_copy(update={"terrain": fields})
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    laid = 0
    for seed in range(4):
        battle = simulate(sc, fleets, ("random", "random"), seed)
        when = (0, 0)
        layers: set[tuple[tuple[int, int], str]] = set()
        firers: set[tuple[tuple[int, int], str]] = set()
        for e in battle.events():
            if isinstance(e, ae.PhaseStarted):
                when = (e.turn, e.phase)
            elif isinstance(e, MineLaid):
                layers.add((when, e.ship))
            elif isinstance(e, ae.AttackRolled | ae.FireCheck):
                firers.add((when, e.ship))
        laid += len(layers)
        assert not layers & firers
    assert laid > 0
