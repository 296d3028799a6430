"""Tractors in an accretion disk (ADV-BH-08) and the two optional terrain modules: clever escapes
from an event horizon (ADV-BH-10, adv-bh-escapes) and a magnetar's distance bands (ADV-MAG-02,
adv-magnetar-bands)."""

from __future__ import annotations

import pytest
from adv_kit import Loaded
from adv_kit import arm
from adv_kit import events_of
from adv_kit import put

from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.battle import Battle
from kolrami.rules import new_battle
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import setup
from kolrami.rules.advanced.terrain import Terrain
from kolrami.rules.advanced.terrain import TerrainState
from kolrami.rules.advanced.terrain import mines_of
from kolrami.rules.advanced.terrain.black_hole import disk_burnout
from kolrami.rules.advanced.terrain.black_hole import disk_burnout_due
from kolrami.rules.advanced.terrain.black_hole import disk_tractor_power
from kolrami.rules.advanced.terrain.black_hole import disk_tractor_problem
from kolrami.rules.advanced.terrain.magnetar import acts
from kolrami.rules.advanced.terrain.magnetar import band
from kolrami.rules.advanced.terrain_events import TerrainCheck
from kolrami.rules.advanced.terrain_events import TerrainMoved
from kolrami.rules.advanced.tractor import Level
from kolrami.rules.advanced.tractor import cost
from kolrami.rules.sandbox import fleet_of
from kolrami.scenarios.models import BlackHole
from kolrami.scenarios.models import Feature
from kolrami.scenarios.models import Magnetar
from kolrami.scenarios.models import builtin_scenario
from scene_kit import place_all

MODULE = Terrain()
HOLE = BlackHole(kind="black-hole", x=100, y=60, horizon_cm=8, rings=3)
STAR = Magnetar(kind="magnetar", x=10, y=60)  # reach 15 hexes = 60 cm


def table(
    features: tuple[Feature, ...], rules: tuple[str, ...] = ()
) -> tuple[Battle, AdvancedState]:
    sc = builtin_scenario("advanced").model_copy(
        update={"terrain": features, "rules": ("advanced", "adv-terrain", *rules)}
    )
    b = new_battle(sc, (fleet_of([["reliant"]], "A"), fleet_of([["ktroika"]], "B")), 1)
    state = setup(b, advanced_pack(), AdvancedRules.of(b))
    b.extensions[KEY] = state
    state.terrain = TerrainState(mines_of(sc))
    b.turn = 1
    return b, state


# --- ADV-BH-08 -----------------------------------------------------------------------------------


@pytest.mark.rule("ADV-BH-08")
def test_in_the_disk_a_tractor_needs_maximum_power_for_half_mass_and_half_again_for_equal() -> None:
    tpa = 41
    assert disk_tractor_power(100, 50, tpa) == 5  # maximum: 10% of 41, rounded up
    assert disk_tractor_power(100, 50, tpa) == cost(Level.FULL, tpa)  # outside: half power did
    assert cost(Level.HALF, tpa) == 3
    assert disk_tractor_power(100, 100, tpa) == 7  # maximum plus half: 15% of 41 = 6.15 -> 7
    assert disk_tractor_power(100, 101, tpa) is None  # heavier: no beam holds it
    assert disk_tractor_problem(0, 100, 50, 3, tpa) is None  # outside the disk: tractor rules
    assert disk_tractor_problem(2, 100, 50, 5, tpa) is None
    assert "takes 7 power, not 5" in (disk_tractor_problem(1, 100, 100, 5, tpa) or "")
    assert "heavier" in (disk_tractor_problem(1, 100, 120, 99, tpa) or "")


@pytest.mark.rule("ADV-BH-08")
def test_a_holder_in_the_disk_rolls_for_burn_out_every_other_phase() -> None:
    due = [disk_burnout_due(turn, phase) for turn in (1, 2) for phase in range(1, 6)]
    assert due == [False, True, False, True, False, True, False, True, False, True]
    assert not disk_burnout(Loaded([]), 1, 1)  # not due: no roll at all
    assert disk_burnout(Loaded([10]), 1, 2)  # due, and the 0 face burns a crystal
    assert not disk_burnout(Loaded([3]), 1, 4)


# --- ADV-BH-10 -----------------------------------------------------------------------------------


@pytest.mark.rule("ADV-BH-10")
def test_with_the_option_a_ship_at_the_horizon_tries_one_clever_escape() -> None:
    b, state = table((HOLE,), rules=("adv-bh-escapes",))
    put(b, "A1", 94, 60, 0)  # 6 cm from the centre: inside the 8 cm horizon
    put(b, "B1", 10, 110, 3)
    state.of("A1").officers["helm"].ratings["helm_ops"] = 70
    b.dice = Loaded([40])  # Helm Ops 40 <= 70: it skips off at warp
    list(MODULE.adv_after_move(b, state, 1, ("A", "B")))
    a = b.ships["A1"]
    assert a.alive
    assert HOLE.distance(a.x, a.y) == pytest.approx(12)  # one hex outside the horizon
    assert [e.what for e in events_of(b, TerrainCheck)] == ["clever escape Helm Ops"]
    assert events_of(b, TerrainMoved)[-1].cause == "a skip off the event horizon"
    put(b, "A1", 94, 60, 0)  # back at the horizon: no second escape
    list(MODULE.adv_after_move(b, state, 2, ("A", "B")))
    assert not b.ships["A1"].alive


@pytest.mark.rule("ADV-BH-10")
def test_a_failed_escape_and_a_battle_without_the_option_end_at_the_horizon() -> None:
    b, state = table((HOLE,), rules=("adv-bh-escapes",))
    place_all(b, "A1 94,60 h0; B1 10,110 h3")
    b.dice = Loaded([99])
    list(MODULE.adv_after_move(b, state, 1, ("A", "B")))
    assert not b.ships["A1"].alive
    b, state = table((HOLE,))
    place_all(b, "A1 94,60 h0; B1 10,110 h3")
    b.dice = Loaded([])  # no roll at all without the option
    list(MODULE.adv_after_move(b, state, 1, ("A", "B")))
    assert not b.ships["A1"].alive
    assert not events_of(b, TerrainCheck)


# --- ADV-MAG-02 ----------------------------------------------------------------------------------


@pytest.mark.rule("ADV-MAG-02")
def test_the_magnetar_s_bands_are_thirds_of_its_reach() -> None:
    hexes = {h: band(STAR, 4, 10 + 4 * h, 60) for h in (1, 5, 6, 10, 11, 15, 16)}
    assert hexes == {1: 3, 5: 3, 6: 2, 10: 2, 11: 1, 15: 1, 16: 0}
    phases = [(t, p) for t in (1, 2, 3) for p in range(1, 6)][:6]
    outer = [acts(STAR, 4, 10 + 4 * 12, 60, t, p, True) for t, p in phases]
    middle = [acts(STAR, 4, 10 + 4 * 8, 60, t, p, True) for t, p in phases]
    inner = [acts(STAR, 4, 10 + 4 * 3, 60, t, p, True) for t, p in phases]
    assert outer == [False, False, True, False, False, True]  # one phase in three
    assert middle == [False, True, True, False, True, True]  # two in three
    assert inner == [True] * 6
    assert all(acts(STAR, 4, 10 + 4 * 12, 60, t, p, False) for t, p in phases)  # option off


@pytest.mark.rule("ADV-MAG-02")
def test_with_the_bands_a_far_ship_is_pulled_and_its_shields_voided_one_phase_in_three() -> None:
    b, state = table((STAR,), rules=("adv-magnetar-bands",))
    put(b, "A1", 58, 60, 0)  # 12 hexes: the outer band
    put(b, "B1", 58, 20, 3)  # 62.5 cm from the magnetar: out of its reach
    arm(b, state, "A1", shields=False)
    xs = []
    for phase in (1, 2, 3):
        list(MODULE.adv_after_move(b, state, phase, ("A", "B")))
        MODULE.adv_phase_end(b, state, phase)
        xs.append(b.ships["A1"].x)
    assert xs == [58, 58, pytest.approx(54)]
    b, state = table((STAR,), rules=("adv-magnetar-bands",))
    place_all(b, "A1 58,60 h0; B1 150,20 h3")
    a = arm(b, state, "A1", shields=True)
    shielded = []
    for phase in (1, 2, 3):
        list(MODULE.adv_after_move(b, state, phase, ("A", "B")))
        shielded.append(a.shielded)
    assert shielded == [True, True, False]  # resisting voids the shields one phase in three
