"""Firing mines (ADV-MINE-09): mines that shoot weakly at ships and can be shot at, a target
that is not a ship (`M<feature>.<mine>` in an attack)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import events_of
from adv_kit import put

from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.battle import Battle
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import new_battle
from kolrami.rules.advanced.combat import fire
from kolrami.rules.advanced.combat import verify_attacks
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import AttackDecision
from kolrami.rules.advanced.orders import AttackOrder
from kolrami.rules.advanced.orders import mine_target
from kolrami.rules.advanced.orders import parse_advanced
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import setup
from kolrami.rules.advanced.terrain import Terrain
from kolrami.rules.advanced.terrain import TerrainState
from kolrami.rules.advanced.terrain import mines_of
from kolrami.rules.advanced.terrain.mines import mine_shot_problem
from kolrami.rules.advanced.terrain_events import MineFired
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.rules.advanced.terrain_events import MineShot
from kolrami.rules.advanced.terrain_events import TerrainDamage
from kolrami.rules.sandbox import fleet_of
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import builtin_scenario

MODULE = Terrain()
GUNS = Minefield(kind="minefield", owner="B", mines=((56, 40), (150, 20)), firing=True)


def table() -> tuple[Battle, AdvancedState, TerrainState]:
    sc = builtin_scenario("advanced").model_copy(
        update={"terrain": (GUNS,), "rules": ("advanced", "adv-terrain")}
    )
    b = new_battle(sc, (fleet_of([["reliant"]], "A"), fleet_of([["ktroika"]], "B")), 1)
    state = setup(b, advanced_pack(), AdvancedRules.of(b))
    b.extensions[KEY] = state
    t = TerrainState(mines_of(sc))
    state.terrain = t
    b.turn = 1
    put(b, "A1", 50, 40, 0)  # 1.5 hexes from mine 1.1
    put(b, "B1", 10, 110, 3)
    return b, state, t


def bearing_weapon(state: AdvancedState, t: TerrainState) -> int:
    a = state.of("A1")
    ready = range(len(a.sheet.weapons))
    return next(i for i in ready if mine_shot_problem(state, t, a, (i,), "1.1") is None)


@pytest.mark.rule("ADV-MINE-09")
def test_a_firing_mine_shoots_weakly_at_the_nearest_enemy_in_reach_and_gives_itself_away() -> None:
    b, state, t = table()
    arm(b, state, "A1", shields=False)
    assert "1.1" not in t.found["A"]
    b.dice = Loaded([3])  # 3 <= 5: a hit
    MODULE.adv_phase_end(b, state, 1)
    shots = events_of(b, MineFired)
    assert [(s.mine, s.ship, s.hit, s.damage) for s in shots] == [("1.1", "A1", True, 2)]
    hit = [e for e in events_of(b, TerrainDamage) if e.source == "a firing mine"]
    assert [(e.ship, e.damage) for e in hit] == [("A1", 2)]
    assert b.ships["A1"].superstructure == b.ships["A1"].cls.superstructure - 2
    assert "1.1" in t.found["A"]  # side A now knows where it is
    seen = BattleView(b, "A").scenario.terrain
    assert isinstance(seen[0], Minefield)
    assert seen[0].mines == ((56, 40),)
    put(b, "A1", 56, 40, 0)  # into its hex: a firing mine does not go off
    list(MODULE.adv_after_move(b, state, 2, ("A", "B")))
    assert not events_of(b, MineRolled)


@pytest.mark.rule("ADV-MINE-09")
def test_a_known_firing_mine_can_be_shot_and_one_hit_destroys_it() -> None:
    b, state, t = table()
    arm(b, state, "A1")
    decision = AttackDecision("A", 1, ("A1",))
    with pytest.raises(IllegalOrderError, match=r"no enemy firing mine M1\.1 is known"):
        verify_attacks(state, decision, AttackOrder((Attack("A1", (0,), "M1.1"),)))
    t.found["A"].add("1.1")
    put(b, "A1", 50, 40, 4)  # turned so that its guns bear
    w = bearing_weapon(state, t)
    order = AttackOrder((Attack("A1", (w,), "M1.1"),))
    verify_attacks(state, decision, order)
    b.dice = Loaded([1, 1])  # manual fire: Weapons check 01 passes; to-hit d10 1
    fire(b, state, order.attacks[0])
    shot = events_of(b, MineShot)
    assert [(s.mine, s.hit) for s in shot] == [("1.1", True)]
    assert "1.1" in t.cleared
    assert BattleView(b, "A").scenario.terrain == ()  # gone from the view
    b.dice = Loaded([])  # a destroyed mine fires no more (the dice would run out)
    MODULE.adv_phase_end(b, state, 1)
    assert not events_of(b, MineFired)


@pytest.mark.rule("ADV-MINE-09")
def test_only_the_named_owner_s_firing_mines_exist_and_ordinary_mines_cannot_be_shot() -> None:
    b, state, t = table()
    arm(b, state, "A1")
    assert t.mines["1.1"].owner == "B"  # the scenario names who placed them
    own = state.of("B1")
    assert "no enemy firing mine" in (mine_shot_problem(state, t, own, (0,), "1.1") or "")
    t.mines["1.1"] = replace(t.mines["1.1"], firing=False)
    t.found["A"].add("1.1")
    problem = mine_shot_problem(state, t, state.of("A1"), (0,), "1.1")
    assert "not a firing mine" in (problem or "")
    assert mine_target("M2.3") == "2.3"
    assert mine_target("B2") is None
    text = "ATTACK A1:0>M1.1"
    assert str(parse_advanced(text.split(), text)) == text
