"""An advanced battle's replay names the advanced rules and shows the advanced sheets' numbers."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import advanced_pack
from kolrami.cli import app as cli
from kolrami.report.replay import replay_data
from kolrami.rules.advanced.driver import ADVANCED_RULES_VERSION
from kolrami.rules.registry import read_log


def test_advanced_replay_header_and_cards(tmp_path: Path) -> None:
    log = tmp_path / "adv.jsonl"
    done = CliRunner().invoke(
        cli, ["battle", "--scenario", "advanced", "--seed", "3", "--turns", "1", "--log", str(log)]
    )
    assert done.exit_code == 0, done.output
    data = replay_data(read_log(log.read_text()))
    assert data["meta"]["rules_version"] == ADVANCED_RULES_VERSION
    assert data["meta"]["advanced"] is True
    ship = data["ships"][0]
    sheet = advanced_pack().sheet(builtin_pack().get(ship["cls"]))
    assert ship["max"]["sh"] == sheet.shield_points
    assert ship["max"]["ep"] == sheet.total_power
    assert len(ship["weapons"]) == len(sheet.weapons)
