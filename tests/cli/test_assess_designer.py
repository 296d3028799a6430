"""`kolrami assess` for the designer (issue 47): every class, --precision that says it gave up."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kolrami.catalog import builtin_pack
from kolrami.cli import app

runner = CliRunner()


def test_classes_all_assesses_every_class_kolrami_ships_lists() -> None:
    result = runner.invoke(
        app, ["assess", "--classes", "all", "--battles", "2", "--workers", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = {r["combatant"] for r in data["ratings"]}
    assert names == {cls.name for cls in builtin_pack().ships}
    assert len(names) == 22


def test_precision_says_when_it_gave_up_and_how_many_battles_would_do() -> None:
    args = ["assess", "--classes", "reliant,ktroika,venture", "--battles", "40"]
    result = runner.invoke(app, [*args, "--precision", "0.03", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert "matchups reached --battles 40 with their interval still wider than 0.06" in (
        result.stderr
    )
    short = json.loads(result.stdout)["settings"]["precision_not_reached"]
    assert short
    assert all(s["battles_needed"] > 40 for s in short)
    # the wording: an interval at most 2P wide, not "+-P" (Wilson's is lopsided)
    assert "+-0.03" not in result.stderr
    assert "at most 0.06 wide" in result.stderr


def test_a_reached_precision_says_nothing_of_giving_up() -> None:
    args = ["assess", "--classes", "bird-of-prey,enterprise,venture", "--battles", "200"]
    result = runner.invoke(app, [*args, "--precision", "0.2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "still wider" not in result.stderr
