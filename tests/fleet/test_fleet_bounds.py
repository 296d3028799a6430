"""A fleet's bounds, wherever a fleet is read (issue 16, items 14 and 19): a share string that
inflates to megabytes, a fleet of a thousand ships, a squadron numbered 10**23, a FleetX version
this Kolrami does not know: one line each, never a fleet called legal."""

from __future__ import annotations

import base64
import contextlib
import json
import random
import string
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kolrami.cli import main
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.fleet.document import MAX_FLEET_BYTES
from kolrami.fleet.document import MAX_NAME_CHARS
from kolrami.fleet.document import MAX_SHIPS
from kolrami.fleet.document import MAX_SQUADRON_NUMBER
from kolrami.fleet.document import read_fleet
from kolrami.fleet.fleetx import MAX_SHARE_CHARS
from kolrami.fleet.fleetx import from_share_string
from kolrami.fleet.fleetx import load_any
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.model import load_fleet


def packed(doc: Any) -> str:
    """A share string of any JSON document, made as Kolrami makes them."""
    raw = json.dumps(doc, separators=(",", ":")).encode()
    return "KF1-" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def fleet_doc(**changes: Any) -> dict[str, Any]:
    return {"name": "Bounds", "ships": [{"id": "reliant", "squadron": 1}], **changes}


def test_a_share_string_that_inflates_past_a_fleet_is_refused_before_it_is_read() -> None:
    bomb = packed(fleet_doc(vendor={"x": " " * 20_000_000}))  # 20 MB of JSON
    assert len(bomb) < MAX_SHARE_CHARS  # it passes the length bound: the inflation is caught
    with pytest.raises(InvalidInputError, match=r"larger than 256 KiB"):
        from_share_string(bomb)


def test_a_share_string_longer_than_any_fleet_is_refused() -> None:
    long = "KF1-" + "A" * (MAX_SHARE_CHARS + 10)
    with pytest.raises(InvalidInputError, match=r"share string of 32,782 characters"):
        from_share_string(long)


def test_the_largest_fleet_round_trips_through_a_share_string() -> None:
    names = random.Random(16)
    ships = [
        {
            "id": "bird-of-prey",
            "squadron": i // 3 + 1,
            "name": "".join(names.choices(string.ascii_letters, k=MAX_NAME_CHARS)),
        }
        for i in range(MAX_SHIPS)
    ]
    fleet = read_fleet(fleet_doc(name="F" * MAX_NAME_CHARS, ships=ships), "big")
    text = share_string(fleet)
    assert len(text) < MAX_SHARE_CHARS
    back = from_share_string(text)
    assert (back.name, back.ships) == (fleet.name, fleet.ships)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"version": 99}, "version: FleetX version 99 is not one this Kolrami reads"),
        ({"ships": [{"id": "reliant", "squadron": 10**23}]}, "ships[0].squadron"),
        ({"ships": [{"id": "reliant", "squadron": MAX_SQUADRON_NUMBER + 1}]}, "squadron"),
        ({"ships": [{"id": "reliant"}] * (MAX_SHIPS + 1)}, "ships: Tuple should have at most 60"),
        ({"name": "x" * (MAX_NAME_CHARS + 1)}, "name: String should have at most 120"),
        ({"ships": [{"id": "reliant", "name": "y" * 10_000}]}, "ships[0].name"),
        ({"ships": [{"id": "reliant", "captain": ["kirk"] * 100}]}, "ships[0].captain"),
        ({"points_limit": 10**23}, "points_limit"),
    ],
)
def test_out_of_bounds_fleets_are_refused_in_files_and_share_strings(
    tmp_path: Path, changes: dict[str, Any], field: str
) -> None:
    doc = fleet_doc(**changes)
    path = tmp_path / "fleet.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    for ref in (str(path), packed(doc)):
        with pytest.raises(InvalidInputError) as caught:
            load_any(ref)
        message = str(caught.value)
        assert field in message
        assert len(message) < 300  # the input is quoted short, never whole


def test_a_squadron_of_ten_to_the_23_is_not_legal_on_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sq.json"
    path.write_text(json.dumps(fleet_doc(ships=[{"id": "reliant", "squadron": 10**23}])))
    assert main(["fleet", "validate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "squadron" in err[0]
    assert "less than or equal to 99" in err[0]


def test_a_fleetx_version_99_is_refused_on_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "v99.json"
    path.write_text(json.dumps(fleet_doc(version=99)))
    assert main(["fleet", "validate", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "FleetX version 99" in line


def test_the_zip_bomb_is_one_line_on_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    bomb = packed(fleet_doc(vendor={"x": " " * 20_000_000}))
    for command in (["fleet", "validate", bomb], ["fleet", "import", bomb]):
        assert main(command) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert "larger than 256 KiB" in line


def test_a_fleet_file_larger_than_any_fleet_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(fleet_doc(vendor={"x": " " * MAX_FLEET_BYTES})))
    with pytest.raises(InvalidInputError, match=r"huge.json: larger than 256 KiB"):
        load_fleet(str(path))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_in_a_share_string_are_one_error(body: bytes) -> None:
    text = "KF1-" + base64.urlsafe_b64encode(body).decode()
    with contextlib.suppress(KolramiError):
        from_share_string(text)


@settings(max_examples=80, deadline=None)
@given(st.recursive(st.none() | st.integers() | st.text(max_size=5), st.lists, max_leaves=30))
def test_any_json_in_a_share_string_is_one_error_or_a_fleet(doc: Any) -> None:
    with contextlib.suppress(KolramiError):
        from_share_string(packed(doc))
