"""The built-in ship data: every number as printed on the FPF sheets (seed 001)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from kolrami.catalog import Arc
from kolrami.catalog import Faction
from kolrami.catalog import Location
from kolrami.catalog import builtin_pack
from kolrami.catalog.loader import fpf_pack
from kolrami.errors import UnknownNameError

# Hand-copied from the seed's ship sheets: (faction, name, designation, type, value, squadron,
# superstructure, shields, engine power, phasers (arcs, str, range, mounts),
# photons (arcs, str, range, mounts), computer, damage control)
SHEETS: dict[str, tuple[Any, ...]] = {
    "bird-of-prey": ("Klingon", "Bird of Prey", "D-25-b", "Scout", 15, 45, 6, 12, 20,
                     ("FP", 2, 18, (1, 1)), ("A", 7, 14, (1,)), 2, 0),
    "star-hawk": ("Klingon", "Star Hawk", "D-18-e", "Escort", 30, 90, 12, 12, 12,
                  ("F", 2, 18, (2, 2)), ("A", 5, 14, (1,)), 3, 0),
    "sting": ("Klingon", "Sting", "D-2-a", "Missile Destroyer", 75, 225, 13, 15, 15,
              ("FPS", 3, 18, (2, 2)), ("F", 5, 12, (4,)), 3, 1),
    "ktroika": ("Klingon", "K'T'Roika", "D-7-t", "Battle Cruiser", 80, 240, 22, 14, 16,
                ("F", 4, 22, (4, 2)), ("F", 9, 14, (1, 1)), 4, 2),
    "drakonath": ("Klingon", "Drakonath", "D-10-k", "Heavy Cruiser", 100, 300, 34, 14, 18,
                  ("F", 4, 22, (4, 2)), ("F", 9, 14, (2, 1)), 5, 3),
    "defender": ("Federation", "Defender", "", "Escort", 45, 135, 14, 14, 12,
                 ("FP", 3, 20, (2, 2)), ("FPSA", 6, 16, (1,)), 3, 1),
    "charger": ("Federation", "Charger", "", "Destroyer", 70, 210, 18, 14, 16,
                ("FPA", 4, 24, (3, 3)), ("FP", 6, 16, (1, 1)), 3, 2),
    "reliant": ("Federation", "Reliant", "", "Research Cruiser", 90, 270, 22, 14, 16,
                ("FPA", 4, 24, (3, 3)), ("FP", 7, 16, (2, 1)), 3, 2),
    "venture": ("Federation", "Venture", "", "Cruiser", 110, 330, 28, 16, 18,
                ("F", 5, 24, (2, 2, 2)), ("F", 8, 16, (2, 2)), 4, 3),
    "enterprise": ("Federation", "Enterprise", "", "Heavy Cruiser", 180, 540, 32, 16, 20,
                   ("F", 5, 24, (4, 2, 2, 2)), ("F", 10, 16, (2, 2)), 5, 4),
}  # fmt: skip


@pytest.mark.rule("FPF-ARC-03", "FPF-DMG-03", "FPF-DMG-06", "FPF-MOV-06")
@pytest.mark.parametrize("ship_id", list(SHEETS))
def test_ship_sheet_numbers(ship_id: str) -> None:
    (faction, name, desig, typ, value, sqdn, ss, shields, engine, ph, pt, comp, dc) = SHEETS[
        ship_id
    ]
    ship = builtin_pack().get(ship_id)
    assert ship.id == ship_id
    assert ship.faction is Faction(faction)
    assert (ship.name, ship.class_designation, ship.type) == (name, desig, typ)
    assert (ship.value, ship.squadron_value) == (value, sqdn)
    assert (ship.superstructure, ship.shields, ship.engine_power) == (ss, shields, engine)
    assert (ship.computer, ship.damage_control) == (comp, dc)
    assert ship.max_speed_cm == 40
    for weapon, (arcs, strength, rng, mounts) in ((ship.phasers, ph), (ship.photons, pt)):
        assert weapon is not None
        assert weapon.arcs == tuple(Arc(a) for a in arcs)
        assert (weapon.strength, weapon.range_cm, weapon.mounts) == (strength, rng, mounts)
        assert weapon.shots == sum(mounts)
    table = ship.hit_locations
    assert [table.by_face[f] for f in range(1, 11)] == (
        [Location.SHIELDS] * 4 + [Location.ENGINE_POWER] * 3
        + [Location.PHASERS, Location.PHOTONS, Location.COMPUTER]
    )  # fmt: skip


def test_pack_has_exactly_the_ten_classes_in_sheet_order() -> None:
    pack = fpf_pack()  # the FPF pack alone; the house pack follows it (test_house_pack.py)
    assert [s.id for s in pack.ships] == list(SHEETS)
    assert pack.data_version == "1.2.0"
    assert len(pack.by_faction(Faction.KLINGON)) == 5
    assert len(pack.by_faction(Faction.FEDERATION)) == 5


def test_only_the_bird_of_prey_carries_the_engine_note() -> None:
    flagged = [s.id for s in builtin_pack().ships if s.engine_double_damage]
    assert flagged == ["bird-of-prey"]


@pytest.mark.rule("FPF-ARC-04")
def test_arcs_with_weapons_follow_the_arc_lists() -> None:
    pack = builtin_pack()
    assert pack.get("charger").arcs_with_weapons() == [Arc.F, Arc.P, Arc.A]
    assert pack.get("defender").arcs_with_weapons() == [Arc.F, Arc.P, Arc.S, Arc.A]
    assert pack.get("venture").arcs_with_weapons() == [Arc.F]


@pytest.mark.parametrize(
    ("query", "ship_id"),
    [
        ("Reliant", "reliant"),
        ("RELIANT", "reliant"),
        ("K'T'Roika", "ktroika"),
        ("kt roika", "ktroika"),
        ("D-7-t", "ktroika"),
        ("d10k", "drakonath"),
        ("bird of prey", "bird-of-prey"),
        ("D-25-b Bird of Prey", "bird-of-prey"),
    ],
)
def test_lookup_is_loose(query: str, ship_id: str) -> None:
    assert builtin_pack().get(query).id == ship_id


@pytest.mark.parametrize(
    ("query", "suggestion"),
    [("Reliance", "Reliant"), ("Enterprize", "Enterprise"), ("Drakonat", "Drakonath")],
)
def test_unknown_name_suggests(query: str, suggestion: str) -> None:
    with pytest.raises(UnknownNameError) as info:
        builtin_pack().get(query)
    assert str(info.value) == f"no ship class '{query}'; did you mean '{suggestion}'?"


def test_unknown_name_without_close_match_lists_the_classes() -> None:
    with pytest.raises(UnknownNameError, match="known: Bird of Prey, Star Hawk"):
        builtin_pack().get("Millennium Falcon")


CATALOGUE = Path(__file__).resolve().parents[3] / "shared" / "rules" / "catalogue.toml"


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the shared rules catalogue is not beside us")
def test_agrees_with_the_rules_catalogue() -> None:
    """A second, independent transcription of the sheets (the catalogue's [[ship]] entries)."""
    entries = tomllib.loads(CATALOGUE.read_text())["ship"]
    pack = fpf_pack()
    assert len(entries) == len(pack.ships)
    for e in entries:
        ship = pack.get(e["name"])
        assert ship.faction.value == e["faction"]
        assert ship.class_designation == e["class_designation"]
        assert ship.type == e["type"]
        for key in ("value", "squadron_value", "superstructure", "shields", "engine_power",
                    "computer", "damage_control"):  # fmt: skip
            assert getattr(ship, key) == e[key], (ship.name, key)
        for key in ("phasers", "photons"):
            weapon = getattr(ship, key)
            assert [a.value for a in weapon.arcs] == e[key]["arcs"]
            assert weapon.strength == e[key]["strength"]
            assert weapon.range_cm == e[key]["range_cm"]
            assert list(weapon.mounts) == e[key]["counts"]
