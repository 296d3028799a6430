"""The house data pack: our own classes for the other species and the bases (docs/rules.md)."""

from __future__ import annotations

import pytest

from kolrami.catalog import Faction
from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import advanced_pack
from kolrami.catalog.house import house_value
from kolrami.catalog.loader import fpf_pack
from kolrami.catalog.loader import merge_packs
from kolrami.catalog.models import FactionCode
from kolrami.errors import DataPackError
from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip

HOUSE = [s for s in builtin_pack().ships if s.id not in {c.id for c in fpf_pack().ships}]
NEW_PRESETS = (
    "romulan-cloaks",
    "gorn-hunters",
    "tholian-weavers",
    "orion-raiders",
    "borg-cube",
    "federation-starbase",
    "klingon-outpost",
)


def test_the_builtin_list_is_the_fpf_pack_then_the_house_pack() -> None:
    pack = builtin_pack()
    assert pack.ships[:10] == fpf_pack().ships
    assert pack.pack == fpf_pack().pack  # battles record the FPF pack's version, as before
    assert [p.id for p in pack.extra_packs] == ["kolrami-house"]
    assert len(HOUSE) == 12


def test_every_species_the_rules_name_has_two_or_three_sizes_and_there_are_bases() -> None:
    by_faction = {f: [s for s in HOUSE if s.faction is f] for f in Faction}
    for f in (Faction.ROMULAN, Faction.GORN, Faction.THOLIAN, Faction.ORION):
        assert 2 <= len(by_faction[f]) <= 3
        assert len({s.superstructure for s in by_faction[f]}) == len(by_faction[f])
    assert [s.id for s in by_faction[Faction.BORG]] == ["borg-cube"]
    assert {s.id for s in HOUSE if s.stationary} == {"starbase", "outpost"}


@pytest.mark.parametrize("cls", HOUSE, ids=lambda c: c.id)
def test_house_values_follow_the_house_formula(cls: object) -> None:
    from_pack = builtin_pack().get(cls.id)  # type: ignore[attr-defined]
    assert from_pack.value == house_value(from_pack)


@pytest.mark.rule("FBS-05")
def test_faction_codes_on_the_build_sheet() -> None:
    assert Faction.ROMULAN.code is FactionCode.ROM
    assert Faction.BORG.code is FactionCode.BOR
    for f in (Faction.GORN, Faction.THOLIAN, Faction.ORION):
        assert f.code is FactionCode.IND
    assert Faction.named("romulan") is Faction.ROMULAN
    assert Faction.named("BOR") is Faction.BORG
    with pytest.raises(InvalidInputError, match="known factions: klingon, federation, romulan"):
        Faction.named("vulcan")
    with pytest.raises(InvalidInputError, match="no faction"):
        Faction.named("ind")  # three factions share IND


def test_a_merge_refuses_a_class_id_in_both_packs() -> None:
    with pytest.raises(DataPackError, match="already in pack 'fpf-core'"):
        merge_packs(fpf_pack(), fpf_pack())


@pytest.mark.parametrize("cls", HOUSE, ids=lambda c: c.id)
def test_every_house_class_has_an_advanced_sheet_of_its_species(cls: object) -> None:
    sheet = advanced_pack().sheet(builtin_pack().get(cls.id))  # type: ignore[attr-defined]
    species = {
        Faction.ROMULAN: "romulan",
        Faction.GORN: "gorn",
        Faction.THOLIAN: "tholian",
        Faction.ORION: "orion",
        Faction.BORG: "borg",
    }.get(cls.faction, "human" if cls.faction is Faction.FEDERATION else "klingon")  # type: ignore[attr-defined]
    assert sheet.species == species
    assert sheet.cloak is (cls.faction is Faction.ROMULAN)  # type: ignore[attr-defined]
    assert (sheet.max_moves == 0) is cls.stationary  # type: ignore[attr-defined]


@pytest.mark.rule("FBS-05")
@pytest.mark.parametrize("name", NEW_PRESETS)
def test_the_new_presets_are_legal_and_their_sheet_lines_carry_the_codes(name: str) -> None:
    report = validate(load_fleet(f"presets:{name}"))
    assert report.valid, report.errors
    codes = {line.faction for s in report.ships for line in s.lines}
    assert codes <= {c.value for c in FactionCode}
    if name.startswith(("gorn", "tholian", "orion")):
        assert report.ships[0].lines[0].faction == "IND"


def test_a_base_in_a_squadron_with_other_ships_is_refused() -> None:
    fleet = Fleet(
        name="x", ships=(FleetShip(id="starbase", squadron=1), FleetShip(id="defender", squadron=1))
    )
    codes = [e.code for e in validate(fleet).errors]
    assert codes == ["base-in-squadron"]
