"""Engines and self-destruct (rules/advanced/engines.py)."""

from __future__ import annotations

import pytest

from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import engines as e


@pytest.mark.rule("ADV-IMP-01")
def test_no_impulse_means_no_dodging_and_no_moving() -> None:
    assert e.can_evade(1)
    assert e.can_manoeuvre(1)
    assert not e.can_evade(0)
    assert not e.can_manoeuvre(0)


@pytest.mark.rule("ADV-IMP-02")
def test_warp_without_impulse_is_straight_ahead_on_a_clear_path() -> None:
    e.verify_warp(0, 1, turns=False, path_clear=True)
    e.verify_warp(3, 1, turns=True, path_clear=False)  # with impulse the helm steers
    for args in ((0, 1, True, True), (0, 1, False, False), (0, 0, False, True)):
        with pytest.raises(IllegalOrderError, match="ADV-IMP-02"):
            e.verify_warp(*args)


@pytest.mark.rule("ADV-WARP-01")
def test_worked_example_max_warp_8_with_25_percent_damage_is_6() -> None:
    assert e.max_warp(8, 25) == 6
    assert e.damage_percent(15, 20) == 25


@pytest.mark.rule("ADV-WARP-02")
@pytest.mark.rule("ADV-WARP-03")
def test_worked_example_warp_tech_65_with_20_percent_damage_rolling_50_loses_containment() -> None:
    assert not e.containment_held(50, 65, 20)  # 50 + 20 = 70 > 65
    assert e.containment_held(45, 65, 20)
    assert e.containment_held(99, 65, 0)  # undamaged: only a 00 fails
    assert not e.containment_held(e.NATURAL_00, 65, 0)


@pytest.mark.rule("ADV-NAC-01")
def test_worked_example_a_nacelle_with_8_left_taking_11() -> None:
    hit = e.hit_nacelle(8, 11)
    assert hit == e.NacelleHit(0, True, 3)
    assert e.hit_nacelle(8, 8) == e.NacelleHit(0, False, 0)


@pytest.mark.rule("ADV-SD-01")
@pytest.mark.rule("ADV-SD-02")
@pytest.mark.rule("ADV-SD-03")
def test_the_three_ways_to_self_destruct() -> None:
    assert e.can_destruct(e.Destruct.WARP_BREACH, 1, 0)
    with pytest.raises(IllegalOrderError, match="ADV-SD-01"):
        e.verify_destruct(e.Destruct.WARP_BREACH, 0, 5)
    assert e.can_destruct(e.Destruct.IMPULSE_OVERLOAD, 0, 5)
    with pytest.raises(IllegalOrderError, match="ADV-SD-02"):
        e.verify_destruct(e.Destruct.IMPULSE_OVERLOAD, 3, 5)
    assert e.can_destruct(e.Destruct.SCUTTLE, 0, 0)
    assert e.blast_damage(e.Destruct.WARP_BREACH, 12, 4, 1) == 12
    assert e.blast_damage(e.Destruct.WARP_BREACH, 12, 4, 2) == 6
    assert e.blast_damage(e.Destruct.IMPULSE_OVERLOAD, 0, 4, 1) == 4
    assert e.blast_damage(e.Destruct.SCUTTLE, 12, 4, 0) == 0
