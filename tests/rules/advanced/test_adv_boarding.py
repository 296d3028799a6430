"""Transporters and boarding (rules/advanced/boarding.py)."""

from __future__ import annotations

import dataclasses

import pytest

from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import boarding as b

SPECIES = advanced_pack().species
OK = b.Beam("A1", "B1", 2, True, 0, False, False, 20, "gorn", "klingon")


@pytest.mark.rule("ADV-BRD-04")
@pytest.mark.rule("ADV-BRD-02")
def test_worked_example_20_gorn_predators_take_a_section_of_a_ktinga() -> None:
    gorn, klingon = SPECIES["gorn"], SPECIES["klingon"]
    predator = b.strength(gorn, b.Troop.MARINES)
    master = b.strength(klingon, b.Troop.MARINES)
    assert (predator, master) == (6, 4)
    assert 20 * predator == 120
    fight = b.assault(20, predator, 72, master)
    assert fight.kills == 12  # 72 / 6 combat masters
    assert fight.kills * master == 48
    assert fight.lost == 8  # 48 strength is 8 predators
    assert fight.left == 12
    assert fight.left * predator == 72
    assert fight.taken


@pytest.mark.rule("ADV-BRD-04")
def test_boarders_too_weak_are_wiped_out_and_kill_what_their_strength_pays_for() -> None:
    fight = b.assault(5, 1, 72, 4)  # 5 human crewmen against 72 Klingons: cost 48 > 5
    assert (fight.kills, fight.lost, fight.left, fight.taken) == (1, 5, 0, False)


@pytest.mark.rule("ADV-BRD-02")
def test_troop_strengths_per_species() -> None:
    table = {
        s: tuple(b.strength(SPECIES[s], t) for t in b.Troop)
        for s in ("human", "klingon", "romulan", "gorn", "orion")
    }
    assert table["human"] == (1, 2, 3, 3)
    assert table["klingon"] == (2, 0, 4, 4)
    assert table["romulan"] == (2, 3, 4, 4)
    assert table["gorn"] == (4, 0, 6, 6)
    assert table["orion"][:2] == (2, 2)
    assert SPECIES["borg"].personnel == 5


@pytest.mark.rule("ADV-BRD-01")
@pytest.mark.rule("ADV-TRANS-01")
@pytest.mark.rule("ADV-TRANS-02")
@pytest.mark.rule("ADV-TRANS-03")
@pytest.mark.rule("ADV-TRANS-04")
@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"people": 21}, "ADV-BRD-01"),
        ({"facing_shield": 16}, "ADV-TRANS-01"),
        ({"fired": True}, "ADV-TRANS-02"),
        ({"hexes": 2.5}, "ADV-TRANS-03"),
        ({"sensors_working": False}, "ADV-TRANS-04"),
    ],
)
def test_a_beam_across_needs_range_sensors_an_open_facing_and_no_fire(
    change: dict[str, object], reason: str
) -> None:
    assert b.can_beam(OK)
    assert b.can_beam(dataclasses.replace(OK, facing_shield=16, drop_facing=True))
    bad = dataclasses.replace(OK, **change)  # type: ignore[arg-type]
    assert not b.can_beam(bad)
    with pytest.raises(IllegalOrderError, match=reason):
        b.verify_beam(bad)


@pytest.mark.rule("ADV-BRD-07")
@pytest.mark.rule("ADV-BRD-10")
def test_tholians_neither_board_nor_are_boarded() -> None:
    for ours, theirs in (("tholian", "human"), ("gorn", "tholian")):
        beam = dataclasses.replace(OK, ship_species=ours, target_species=theirs)
        with pytest.raises(IllegalOrderError, match="ADV-BRD-07"):
            b.verify_beam(beam)
    assert b.THOLIAN_CLASS_N_HOURS == 12
    lattice = advanced_pack().sheet(builtin_pack().get("lattice"))
    assert lattice.species == b.THOLIAN


@pytest.mark.rule("ADV-BRD-03")
def test_the_first_three_borg_scouts_are_lost() -> None:
    lost = 0
    for _ in range(3):
        landed, gone = b.borg_landed(1, lost)
        assert landed == 0
        lost += gone
    assert b.borg_landed(1, lost) == (1, 0)
    assert b.borg_landed(20, 0) == (20, 0)  # a full wave is not a scout


@pytest.mark.rule("ADV-BRD-05")
@pytest.mark.rule("ADV-BRD-06")
def test_sections_and_permanent_capture() -> None:
    assert set(b.SECTION_EFFECTS) == {1, 2, 3, 4, 5, 6}
    assert "bridge" in b.SECTION_EFFECTS[2]
    assert "impulse" in b.SECTION_EFFECTS[3]
    assert not b.captured({2, 3, 5, 4})  # engineering not held
    assert b.captured({2, 3, 5, 6, b.ENGINEERING})
    assert not b.captured({2, 3, 5, b.ENGINEERING})  # neither 4 nor 6


@pytest.mark.rule("ADV-BRD-09")
@pytest.mark.rule("ADV-BRD-08")
def test_bases_fall_at_half_their_crew_and_guards_and_slaves_resist_at_30_percent() -> None:
    # an outpost of 500 crew (human 1) and 50 security (2): 250 + 25 x 2 = 300 strength to pay
    assert not b.base_assault(20, 6, 500, 50, 1, 2).taken
    fight = b.base_assault(60, 6, 500, 50, 1, 2)
    assert fight.taken
    assert fight.lost == 50
    assert fight.left == 10
    assert b.slave_strength(SPECIES["human"]) == 0  # 30% of 1, rounded down
    assert b.slave_strength(SPECIES["gorn"]) == 1
