"""A malformed data pack fails with one message naming the file, the ship and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from kolrami.catalog import load_pack
from kolrami.catalog import parse_pack
from kolrami.catalog.loader import BUILTIN_PACK
from kolrami.errors import DataPackError

GOOD_SHIP = """
[[ship]]
id = "{id}"
faction = "Federation"
name = "{name}"
type = "Escort"
value = 45
squadron_value = 135
superstructure = 14
shields = 14
engine_power = 12
computer = 3
damage_control = 1
phasers = {{ arcs = ["F", "P"], strength = 3, range_cm = 20, mounts = [2, 2] }}
photons = {{ arcs = ["F", "P", "S", "A"], strength = 6, range_cm = 16, mounts = [1] }}
"""
HEADER = '[pack]\nid = "test-pack"\ndata_version = "1.1.0"\n'


def pack_text(*ships: str) -> str:
    return HEADER + "".join(ships)


def ship(name: str = "Defender", sid: str = "defender") -> str:
    return GOOD_SHIP.format(id=sid, name=name)


def error_of(text: str) -> str:
    with pytest.raises(DataPackError) as info:
        parse_pack(text, "packs/test.toml")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("packs/test.toml: ")
    return message


def test_a_good_pack_loads() -> None:
    pack = parse_pack(pack_text(ship(), ship("Second", "second")), "packs/test.toml")
    assert [s.id for s in pack.ships] == ["defender", "second"]


def test_missing_field() -> None:
    text = pack_text(ship().replace("superstructure = 14\n", ""))
    assert error_of(text) == (
        "packs/test.toml: ship 'defender' (#1): field 'superstructure': required field is missing"
    )


#: (a line of the good ship, what replaces it, what the one-line message must say)
WRONG_FIELDS = [
    pytest.param(
        "shields = 14",
        'shields = "high"',
        ["ship 'defender' (#1): field 'shields':", "integer"],
        id="wrong type",
    ),
    pytest.param(
        'arcs = ["F", "P"]',
        'arcs = ["F", "Q"]',
        ["ship 'defender' (#1): field 'phasers.arcs[1]':", "'Q'"],
        id="unknown arc code",
    ),
    pytest.param(
        "computer = 3", "computer = 3\ncomptuer = 3", ["field 'comptuer':"], id="unknown field"
    ),
    pytest.param(
        "squadron_value = 135",
        "squadron_value = 130",
        ["ship 'defender' (#1):", "3 x value 45 = 135"],
        id="squadron value not three ships",
    ),
]


@pytest.mark.parametrize(("line", "wrong", "says"), WRONG_FIELDS)
def test_a_wrong_field_is_named(line: str, wrong: str, says: list[str]) -> None:
    assert line in ship()
    msg = error_of(pack_text(ship().replace(line, wrong)))
    for part in says:
        assert part in msg


def test_negative_value() -> None:
    text = pack_text(
        ship(), ship("Broken", "broken").replace("engine_power = 12", "engine_power = -3")
    )
    msg = error_of(text)
    assert "ship 'broken' (#2): field 'engine_power':" in msg
    assert "greater than or equal to 0" in msg


def test_fwd_and_aft_are_accepted_arc_codes() -> None:
    text = pack_text(ship().replace('arcs = ["F", "P"]', 'arcs = ["FWD", "AFT"]'))
    pack = parse_pack(text, "packs/test.toml")
    assert pack.ships[0].phasers is not None
    assert [a.value for a in pack.ships[0].phasers.arcs] == ["F", "A"]


def test_duplicate_id() -> None:
    msg = error_of(pack_text(ship(), ship("Other", "defender")))
    assert msg == (
        "packs/test.toml: ship 'defender' (#2): field 'id': duplicate id 'defender', already used "
        "by ship #1; give each ship its own id"
    )


def test_hit_table_must_cover_the_d10() -> None:
    text = pack_text(
        ship().replace(
            "photons = {",
            "hit_locations = { shields = [1, 2, 3], engine_power = [5, 6, 7], phasers = [8], "
            "photons = [9], computer = [10, 5] }\nphotons = {",
        )
    )
    msg = error_of(text)
    assert "field 'hit_locations':" in msg
    assert "missing [4]" in msg
    assert "listed twice [5]" in msg


def test_bad_toml_and_missing_header() -> None:
    assert "not valid TOML" in error_of("[[ship]\n")
    assert "table [pack]" in error_of(ship())
    assert "no [[ship]] entries" in error_of(HEADER)


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(DataPackError, match="cannot read the data pack"):
        load_pack(tmp_path / "absent.toml")


def test_built_in_file_round_trips_through_load_pack(tmp_path: Path) -> None:
    from importlib import resources

    text = resources.files("kolrami.catalog").joinpath("data", BUILTIN_PACK).read_text()
    path = tmp_path / "copy.toml"
    path.write_text(text)
    assert len(load_pack(path).ships) == 10
