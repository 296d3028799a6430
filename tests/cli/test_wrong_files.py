"""A file of the wrong kind is named for what it is (issue 47 item 11): a PDF, a battle log or
an event export given as a fleet, a battle log or a fleet given as an event export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.errors import InvalidInputError
from kolrami.errors import file_kind
from kolrami.fleet import load_fleet

runner = CliRunner()

PDF = b"%PDF-1.4\n\xe2\xe3\xcf\xd3\n1 0 obj"
LOG = '{"e": "battle_started", "header": {}}\n{"e": "turn_started", "turn": 1}\n'
EXPORT = json.dumps({"kolrami": "event/1", "event": {"name": "Nov"}})


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("sheet.pdf", PDF, "is a PDF document"),
        ("battle.jsonl", LOG.encode(), "is a Kolrami battle log"),
        ("event.json", EXPORT.encode(), "is a Kolrami event export"),
    ],
)
def test_a_wrong_file_given_as_a_fleet_is_named(
    tmp_path: Path, name: str, data: bytes, said: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InvalidInputError, match=said) as refused:
        load_fleet(str(path))
    assert "save it as UTF-8" not in str(refused.value)
    result = runner.invoke(
        app, ["battle", "--fleet-a", str(path), "--fleet-b", "presets:klingon-strike"]
    )
    assert result.exit_code == 2
    assert said in result.output


def test_a_battle_log_or_a_fleet_given_as_an_event_export_is_named(tmp_path: Path) -> None:
    log = tmp_path / "battle.jsonl"
    log.write_text(LOG)
    result = runner.invoke(app, ["tournament", "import", str(log), "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 2
    assert "is a Kolrami battle log, " not in result.output  # the hint follows the kind
    assert "battle log" in result.output
    assert "not an event export" in result.output
    fleet = tmp_path / "fleet.json"
    fleet.write_text(load_fleet("presets:klingon-strike").model_dump_json())
    result = runner.invoke(
        app, ["tournament", "import", str(fleet), "--db", str(tmp_path / "t.db")]
    )
    assert result.exit_code == 2
    assert "is a fleet (FleetX), not an event export" in result.output


def test_an_ordinary_file_is_no_known_kind() -> None:
    assert file_kind('{"spec": "fleetx", "ships": []}') is None
    assert file_kind(b"hello") is None
    assert file_kind(b"<!DOCTYPE html><html>") == "a web page (HTML)"


def test_the_roster_names_each_class_faction_in_words_and_counts_the_packs() -> None:
    result = runner.invoke(app, ["ships"], env={"COLUMNS": "140", "NO_COLOR": "1"})
    assert result.exit_code == 0
    assert "Klingon" in result.output
    assert "Federation" in result.output
    assert "22 classes: 10 FPF, 12 house pack" in result.output


def test_the_preset_fleets_are_listed() -> None:
    result = runner.invoke(app, ["fleet", "presets", "--json"])
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert {"presets:klingon-strike", "presets:federation-cruisers"} <= {
        p["preset"] for p in listed
    }
    for p in listed:
        assert load_fleet(p["preset"]).name == p["name"]
