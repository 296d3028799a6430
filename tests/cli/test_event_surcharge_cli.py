"""Issue 47 item 15: `kolrami tournament new --surcharge N`, the faction surcharge the docs call
an event setting (docs/rules.md): stored with the event, charged on a card of another faction
than its ship at registration, and refused with one line when it is negative; issue 47 item 16:
`fleet validate` on a Klingon ship in a Federation fleet says the surcharge is off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.cli import main
from kolrami.tournament.store import Store

runner = CliRunner()


def test_tournament_new_takes_the_faction_surcharge(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    made = runner.invoke(app, ["tournament", "new", "Mixed Night", "--surcharge", "5", "--db", db])
    assert made.exit_code == 0, made.output
    assert "faction surcharge 5 SP" in made.output
    assert Store(db).settings("Mixed Night")["faction_surcharge"] == 5
    fleet = tmp_path / "venn.json"  # a FED captain on a KLI ship: 5 SP more at this event
    fleet.write_text(json.dumps({"name": "Venn", "ships": [{"id": "sting", "captain": "venn"}]}))
    added = runner.invoke(
        app, ["tournament", "player", "add", "Ann", "--fleet", str(fleet), "--db", db]
    )
    assert added.exit_code == 0, added.output
    plain = runner.invoke(app, ["fleet", "validate", str(fleet), "--json"])
    charged = runner.invoke(app, ["fleet", "validate", str(fleet), "--surcharge", "5", "--json"])
    assert json.loads(charged.stdout)["total_build"] == json.loads(plain.stdout)["total_build"] + 5
    default = runner.invoke(app, ["tournament", "new", "Plain", "--db", db])
    assert default.exit_code == 0, default.output
    assert Store(db).settings("Plain")["faction_surcharge"] == 0  # off unless the event sets one


def test_a_negative_surcharge_is_one_line_and_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "k.db"
    assert main(["tournament", "new", "X", "--surcharge", "-1", "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert "faction surcharge -1 SP: use 0 (off) to 100000" in err
    assert len(err.splitlines()) == 1
    assert not db.exists()


def test_validate_hints_the_surcharge_is_off_for_a_klingon_ship_in_a_federation_fleet(
    tmp_path: Path,
) -> None:
    fleet = tmp_path / "mixed.json"
    fleet.write_text(
        json.dumps(
            {
                "name": "Feds and a Bird",
                "faction": "federation",
                "ships": [{"id": "reliant", "squadron": 1}, {"id": "sting", "squadron": 2}],
            }
        )
    )
    result = runner.invoke(app, ["fleet", "validate", str(fleet)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "Legal" in said
    assert "ships of 2 factions (FED, KLI) in a fleet declared federation" in said
    assert "the faction surcharge is off unless the event sets one" in said
