"""FleetX, share strings and text: round trips, and no crash on any document."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.catalog.models import UpgradeType
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import as_text
from kolrami.fleet.fleetx import data_version_note
from kolrami.fleet.fleetx import dumps
from kolrami.fleet.fleetx import from_share_string
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.fleetx import to_fleetx
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.fleet.model import read_fleet

SHIP_IDS = [s.id for s in builtin_pack().ships]
CARDS = cards()
CAPTAINS = [c.id for c in CARDS.values() if c.kind is CardKind.CAPTAIN]
ADMIRALS = [c.id for c in CARDS.values() if c.kind is CardKind.ADMIRAL]
RESOURCES = [c.id for c in CARDS.values() if c.kind is CardKind.RESOURCE]
UPGRADES = {t.value: [c.id for c in CARDS.values() if c.type is t] for t in UpgradeType}
any_id = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12)

fleet_ships = st.builds(
    FleetShip,
    id=st.sampled_from(SHIP_IDS) | any_id,
    squadron=st.integers(1, 4),
    name=st.none() | st.text(max_size=20),
    captain=st.none() | st.sampled_from(CAPTAINS) | any_id,
    admiral=st.none() | st.sampled_from(ADMIRALS),
    upgrades=st.dictionaries(
        st.sampled_from(list(UPGRADES)),
        st.lists(st.sampled_from([c for ids in UPGRADES.values() for c in ids]), max_size=3),
        max_size=3,
    ),
)
fleets = st.builds(
    Fleet,
    name=st.text(min_size=1, max_size=30),
    ships=st.lists(fleet_ships, min_size=1, max_size=7).map(tuple),
    resource=st.none() | st.sampled_from(RESOURCES),
)


@settings(max_examples=60, deadline=None)
@given(fleets)
def test_fleetx_round_trip(fleet: Fleet) -> None:
    back = read_fleet(json.loads(dumps(fleet)), "round trip")
    assert back.model_dump(exclude={"vendor"}) == fleet.model_dump(exclude={"vendor"})
    assert back.vendor["kolrami"]["data_version"] == builtin_pack().data_version


@settings(max_examples=60, deadline=None)
@given(fleets)
def test_share_string_round_trip(fleet: Fleet) -> None:
    text = share_string(fleet)
    assert text.startswith("KF1-")
    assert all(c.isalnum() or c in "-_" for c in text)  # safe to paste anywhere
    back = from_share_string(text)
    assert back.model_dump(exclude={"vendor"}) == fleet.model_dump(exclude={"vendor"})
    assert validate(back).to_json() == validate(fleet).to_json()


def test_presets_survive_every_format() -> None:
    for name in ("federation-flagship", "klingon-raiders"):
        fleet = load_fleet(name)
        assert from_share_string(share_string(fleet)) == read_fleet(to_fleetx(fleet), "x")
        text = as_text(validate(fleet))
        assert "Total Build" in text
        assert f"Total Build: {validate(fleet).total_build} SP of 300" in text


def test_unknown_ids_are_kept_and_reported() -> None:
    data = {
        "name": "Odd",
        "ships": [
            {
                "id": "reliant",
                "captain": "zz-top",
                "upgrades": {"crew": ["mystery"]},
                "paint": "red",
            }
        ],
        "vendor": {"other-tool": {"x": 1}},
    }
    fleet = read_fleet(data, "odd.json")
    again = read_fleet(json.loads(dumps(fleet)), "again")
    assert again.ships[0].captain == "zz-top"
    assert again.ships[0].model_extra == {"paint": "red"}
    assert again.vendor["other-tool"] == {"x": 1}
    assert [e.path for e in validate(again).errors] == [
        "ships[0].captain",
        "ships[0].upgrades.crew[0]",
    ]


def test_data_version_note() -> None:
    fleet = read_fleet(
        {"ships": [{"id": "reliant"}], "vendor": {"kolrami": {"data_version": "0.9.0"}}}, "x"
    )
    note = data_version_note(fleet)
    assert note is not None
    assert "0.9.0" in note
    assert data_version_note(read_fleet(to_fleetx(fleet), "y")) is None


@pytest.mark.parametrize("text", ["KF1-", "KF1-!!!!", "KF1-aGVsbG8", "hello", ""])
def test_broken_share_strings(text: str) -> None:
    with pytest.raises(InvalidInputError):
        from_share_string(text)


def _mutant(rng: random.Random) -> Any:
    """A random or damaged FleetX document."""
    base: Any = json.loads(dumps(load_fleet(rng.choice(["klingon-raiders", "federation-venture"]))))
    junk: list[Any] = [None, 0, -3, 2.5, "", "x", [], {}, [1, 2], {"a": 1}, True, "reliant"]
    for _ in range(rng.randint(1, 4)):
        target = base
        path: list[Any] = []
        while isinstance(target, dict | list) and target and rng.random() < 0.7:
            key = rng.choice(list(target) if isinstance(target, dict) else range(len(target)))
            path.append(key)
            if not isinstance(target[key], dict | list):
                break
            target = target[key]
        if isinstance(target, dict) and target:
            key = rng.choice(list(target))
            if rng.random() < 0.3:
                del target[key]
            else:
                target[key] = copy.deepcopy(rng.choice(junk))
        elif isinstance(target, list) and target:
            target[rng.randrange(len(target))] = copy.deepcopy(rng.choice(junk))
    return base if rng.random() > 0.05 else rng.choice(junk)


@pytest.mark.slow
def test_fuzzed_documents_give_structured_errors(sample: int) -> None:
    rng = random.Random(5)
    outcomes = {"invalid-shape": 0, "illegal": 0, "legal": 0}
    for _ in range(500 * sample):
        doc = _mutant(rng)
        try:
            fleet = read_fleet(doc, "fuzz")
        except KolramiError as exc:
            message = str(exc)
            outcomes["invalid-shape"] += 1
            assert "\n" not in message
            continue
        report = validate(fleet)
        for e in report.errors:
            assert e.code
            assert e.rule
            assert e.path
            assert e.message
        outcomes["legal" if report.valid else "illegal"] += 1
        from_share_string(share_string(fleet))  # whatever reads, also travels
    assert all(outcomes.values())  # the fuzzer reaches all three outcomes
