"""Fixed bases in FPF (docs/rules.md, Bases in FPF): they hold place and heading, and losing
their station power does not set them drifting."""

from __future__ import annotations

import pytest
from fpf_kit import fight

from kolrami.catalog import Arc
from kolrami.engine.battle import Battle
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.movement import speed_limits
from kolrami.rules.fpf.movement import verify_maneuver
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.sandbox import sandbox
from scene_kit import place_all


def base_battle() -> Battle:
    battle = sandbox([["starbase"]], [["ktroika"]], turn_limit=2)
    place_all(battle, "A1 90,60 h0 v0; B1 90,100 h3 v10")
    return battle


@pytest.mark.rule("FPF-MOV-06")
def test_a_base_may_only_stand_still() -> None:
    battle = base_battle()
    base = battle.ships["A1"]
    assert speed_limits(battle, base) == (0, 0)
    lo, hi = speed_limits(battle, base, pivot=True)
    assert lo > hi  # no pivot
    verify_maneuver(battle, [base], Maneuver(0), None, "A")
    for m in (Maneuver(5), Maneuver(0, pivot=1), Maneuver(3, 1, 0)):
        with pytest.raises(IllegalOrderError, match="fixed base"):
            verify_maneuver(battle, [base], m, None, "A")


@pytest.mark.rule("FPF-DMG-13")
def test_a_base_at_engine_power_0_stays_in_control() -> None:
    battle = base_battle()
    base = battle.ships["A1"]
    apply_damage(battle, base, 5, base.engine_power, Arc.F, None, "test")
    assert base.engine_power == 0
    assert base.in_control
    apply_damage(battle, base, 10, base.systems, Arc.F, None, "test")
    assert not base.in_control  # Systems at 0 still do (FPF-DMG-15)


@pytest.mark.rule("FPF-MOV-06")
def test_a_base_holds_its_place_through_a_battle() -> None:
    battle = base_battle()
    fight(battle)
    base = battle.ships["A1"]
    assert (base.x, base.y, base.heading) == (90, 60, 0)
