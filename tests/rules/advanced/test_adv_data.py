"""The advanced ship data: derived from the FPF sheets by the documented formula, overridable per
class, every defect one message (catalog/advanced.py, catalog/data/adv_ships.toml)."""

from __future__ import annotations

import math

import pytest

from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import DEFAULT_CHART
from kolrami.catalog.advanced import AdvWeaponKind
from kolrami.catalog.advanced import advanced_pack
from kolrami.catalog.advanced import parse_advanced
from kolrami.catalog.models import Arc
from kolrami.errors import DataPackError

PACK = builtin_pack()
HEADER = '[pack]\nid = "x"\ndata_version = "1.0.0"\nbase_pack = "fpf-core"\n'


@pytest.mark.parametrize("ship", [s.id for s in PACK.ships])
def test_every_class_has_a_sheet_that_follows_the_formula(ship: str) -> None:
    cls = PACK.get(ship)
    sheet = advanced_pack().derived(cls)
    tpa = cls.engine_power + cls.superstructure
    assert sheet.total_power == tpa
    assert sheet.impulse == math.ceil(tpa / 4)
    assert sheet.warp_port + sheet.warp_starboard == tpa - sheet.impulse
    assert 0 <= sheet.warp_port - sheet.warp_starboard <= 1
    assert sheet.shield_points == cls.shields
    assert sheet.shield_ratio == max(1, cls.shields // 4)
    assert sheet.move_cost == 1 + cls.superstructure // 20
    assert sheet.max_moves == cls.max_speed_cm // 4
    assert sheet.crew == 12 * cls.superstructure
    assert sheet.mass_t == 5000 * cls.superstructure
    assert sheet.damage_chart == DEFAULT_CHART
    mounts = [(k, m) for k, w in cls.weapons() for m in w.mounts]
    assert len(sheet.weapons) == len(mounts)
    for (kind, shots), w in zip(mounts, sheet.weapons, strict=True):
        row = cls.weapon(kind)
        assert row is not None
        assert w.range_cm == row.range_cm
        assert w.arcs == row.arcs
        if w.beam:
            assert w.power == max(1, math.ceil(shots * row.strength / 2))
        else:
            assert (w.torpedoes, w.damage, w.arm_cost) == (shots, row.strength, shots)
    torpedoes = sum(w.torpedoes for w in sheet.weapons)
    assert sheet.torpedo_stores == 6 * torpedoes


def test_klingon_beams_are_disruptors_and_federation_beams_phasers() -> None:
    pack = advanced_pack()
    assert {w.kind for w in pack.sheet(PACK.get("ktroika")).weapons if w.beam} == {
        AdvWeaponKind.DISRUPTOR
    }
    assert {w.kind for w in pack.sheet(PACK.get("reliant")).weapons if w.beam} == {
        AdvWeaponKind.PHASER
    }


@pytest.mark.rule("ADV-SHLD-01")
def test_the_enterprise_example_numbers_come_out_of_the_formula() -> None:
    sheet = advanced_pack().sheet(PACK.get("enterprise"))
    assert (sheet.shield_points, sheet.shield_ratio, sheet.shield_cost) == (16, 4, 4)


def test_overrides_change_only_what_they_name() -> None:
    pack = advanced_pack()
    enterprise = PACK.get("enterprise")
    derived, sheet = pack.derived(enterprise), pack.sheet(enterprise)
    assert (sheet.crew, sheet.marines) == (430, 43)
    assert sheet.model_copy(update={"crew": derived.crew, "marines": derived.marines}) == derived
    assert pack.sheet(PACK.get("bird-of-prey")).cloak is True
    heavy = [w for w in pack.sheet(PACK.get("drakonath")).weapons if w.beam]
    assert [w.kind for w in heavy] == [AdvWeaponKind.HEAVY_DISRUPTOR] * 2
    assert all(w.min_power == 4 and w.mount is Arc.F for w in heavy)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[[override]]\nid = "reliance"\ncrew = 5\n', "no ship class 'reliance'"),
        ('[[override]]\nid = "reliant"\ncrew = -5\n', "override 'reliant': field 'crew'"),
        ('[[override]]\nid = "reliant"\nwarp = 5\n', "field 'warp'"),
        ('[[override]]\nid = "reliant"\nspecies = "vulcan"\n', "no species 'vulcan'"),
        (
            '[[override]]\nid = "reliant"\nweapons = [{kind = "heavy-disruptor", arcs = ["F"], '
            'mount = "F", range_cm = 20, power = 4, min_power = 2}]\n',
            "heavy disruptors come in pairs",
        ),
        ("[[override]]\ncrew = 5\n", "needs an 'id'"),
        ("[[species]]\nid = 'Bad Name'\n", "species #1"),
    ],
)
def test_a_bad_data_file_says_where_and_what(toml: str, message: str) -> None:
    with pytest.raises(DataPackError, match=message):
        parse_advanced(HEADER + toml, "test.toml")


def test_a_missing_header_is_named() -> None:
    with pytest.raises(DataPackError, match="pack"):
        parse_advanced("[[override]]\nid = 'reliant'\n", "test.toml")


@pytest.mark.rule("ADV-CAS-05")
def test_species_table_keeps_radiation_resistance_apart_from_personnel() -> None:
    species = advanced_pack().species
    assert species["orion"].personnel == 2
    assert species["orion"].radiation_resistance == 1  # the stated exception
    for sid in ("human", "klingon", "gorn", "borg"):
        assert species[sid].radiation_resistance == species[sid].personnel
