"""One loose lookup for every named thing (issue 23): ids, names and designations; case and
punctuation loose; suggestions that know prefixes."""

from __future__ import annotations

import pytest

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import get_card
from kolrami.catalog.names import Names
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.fleet.fleetx import load_any
from kolrami.fleet.model import load_fleet
from kolrami.scenarios.models import load_scenario


@pytest.mark.parametrize(
    ("query", "card_id"),
    [
        ("torga", "torga"),
        ("Admiral Torga", "torga"),
        ("Torga", "torga"),
        ("ADMIRAL-TORGA", "torga"),
        ("tavish orrin", "orrin"),
        ("Kor'vekh", "korvekh"),
        ("korvekh", "korvekh"),
        ("Patient Target Lock", "target-lock"),
        ("target lock", "target-lock"),
    ],
)
def test_cards_by_id_name_or_the_end_of_the_name(query: str, card_id: str) -> None:
    assert get_card(query).id == card_id


def test_a_prefix_suggests_the_names_it_starts() -> None:
    with pytest.raises(UnknownNameError) as info:
        builtin_pack().get("Ent")
    assert str(info.value) == "no ship class 'Ent'; did you mean 'Enterprise'?"
    with pytest.raises(UnknownNameError, match="did you mean 'Admiral Torga'"):
        get_card("Torg")


def test_an_unlike_name_suggests_nothing_unlike_it() -> None:
    with pytest.raises(UnknownNameError) as info:
        load_fleet("presets:nonexistent")
    assert info.value.suggestions == []
    assert "klingon-fleet" in str(info.value)  # listed among the presets, not as a guess


def test_the_end_of_a_name_must_be_one_entrys() -> None:
    names = Names.of("thing", [(1, "Red Alpha", ()), (2, "Blue Alpha", ())])
    assert names.get("red alpha") == 1
    assert names.get("alpha") is None  # both end so: neither is guessed
    assert names.suggest("alpha") == ["Red Alpha", "Blue Alpha"]


def test_completion_is_loose() -> None:
    names = builtin_pack().names
    assert names.complete("Ent") == ["Enterprise"]
    assert names.complete("ent") == ["Enterprise"]
    assert names.complete("k't") == ["K'T'Roika"]
    assert names.complete("hawk") == ["Star Hawk"]


@pytest.mark.parametrize("query", ["klingon-strike", "Klingon Strike", "presets:KLINGON_STRIKE"])
def test_presets_loosely(query: str) -> None:
    assert load_fleet(query).name == load_fleet("presets:klingon-strike").name


def test_presets_by_the_fleets_own_name() -> None:
    assert load_fleet("Klingon wolfpack").name == "Klingon wolfpack"


def test_scenarios_loosely() -> None:
    assert load_scenario("Peak Performance").name == "peak-performance"


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("", "no fleet given: name a FleetX file, a share string (KF1-...) or presets:NAME"),
        ("   ", "no fleet given"),
        ("KF2-abc", "'KF2-abc' is not a share string this Kolrami reads: they start KF1-"),
        (".", "'.' is a folder; name a FleetX file (.json) in it"),
        ("mara.json", "mara.json: cannot read the fleet: no such file"),
        ("wolfpak", "did you mean 'presets:klingon-wolfpack'?"),
    ],
)
def test_a_fleet_reference_that_names_nothing_says_what_it_may_be(ref: str, message: str) -> None:
    with pytest.raises((InvalidInputError, UnknownNameError)) as info:
        load_any(ref)
    assert message in str(info.value)
    assert "Is a directory" not in str(info.value)


@pytest.mark.parametrize(
    ("query", "card_id"),
    [
        ("tavish", "orrin"),
        ("Forward Repair", "repair-tender"),
        ("\uff34\uff2f\uff32\uff27\uff21", "torga"),
    ],
)
def test_one_entrys_whole_words_or_full_width_letters_name_it(query: str, card_id: str) -> None:
    assert get_card(query).id == card_id  # issue 47, item 12


def test_a_run_of_words_must_be_one_entrys_and_part_of_a_word_is_no_match() -> None:
    names = Names.of("player", [(1, "Ana Lima", ()), (2, "Ana Sousa", ()), (3, "José Lima", ())])
    assert names.get("lima") is None  # two end so
    assert names.get("ana") is None  # two start so
    assert names.get("Jose") == 3  # accents do not count
    assert names.get("\uff2a\uff2f\uff33\uff25")  # full-width JOSE == 3
    assert names.get("Jos") is None  # part of a word: a suggestion, not a match
    assert names.suggest("Jos") == ["José Lima"]
    assert Names.of("player", [(1, "Ana Lima", ())]).get("Ana") == 1
