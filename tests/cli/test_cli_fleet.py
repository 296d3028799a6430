"""`kolrami fleet ...`, `kolrami cards` and `kolrami card` as a player meets them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import refused
from typer.testing import CliRunner

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import card_names
from kolrami.cli import app
from kolrami.cli import main
from kolrami.cli.fleet import completer

runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout


def write(tmp_path: Path, doc: object, name: str = "fleet.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_validate_legal_fleet_exits_0_with_the_documented_json(tmp_path: Path) -> None:
    code, out = invoke("fleet", "validate", "presets:federation-flagship", "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == [
        "name",
        "valid",
        "total_build",
        "sp_limit",
        "ships",
        "resource",
        "errors",
        "note",
        "faction_notes",
    ]
    assert data["valid"] is True
    assert data["ships"][0]["cards"][0] == {
        "title": "Enterprise",
        "type": "Ship",
        "faction": "FED",
        "sp": 180,
        "known": True,
    }
    assert data["total_build"] == 297
    assert [s["total_sp"] for s in data["ships"]] == [200, 48, 49]


def test_validate_illegal_fleet_exits_1_naming_every_problem(tmp_path: Path) -> None:
    path = write(
        tmp_path, {"ships": [{"id": "enterprise", "captain": "korvekh"}, {"id": "enterprise"}]}
    )
    code, out = invoke("fleet", "validate", path, "--json")
    assert code == 1
    errors = json.loads(out)["errors"]
    assert {e["code"] for e in errors} == {"faction-restriction", "over-budget"}
    assert set(errors[0]) == {"code", "rule", "path", "message"}
    code, out = invoke("fleet", "validate", path)
    assert code == 1
    assert "2 problem(s)" in out
    assert "ship 1 (Enterprise), captain:" in out  # counted as a player counts, from 1
    assert "ships[0]" not in out


def test_a_problem_names_its_rule_once(tmp_path: Path) -> None:
    four = {"ships": [{"id": "sting", "squadron": 1}] * 4}
    code, out = invoke("fleet", "validate", write(tmp_path, four))
    assert code == 1
    assert "ship 4 (Sting), squadron: squadron 1 has 4 ships" in out
    assert out.count("FPF-MASK-02") == 1


def test_validate_limit_changes_the_verdict(tmp_path: Path) -> None:
    assert invoke("fleet", "validate", "presets:federation-flagship", "--limit", "250")[0] == 1
    assert invoke("fleet", "validate", "presets:federation-flagship", "--limit", "297")[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["fleet", "validate", "/no/such.json"], "cannot read the fleet"),
        (["fleet", "validate", "presets:nope"], "no preset fleet"),
        (
            ["fleet", "validate", "presets:federation-fleet", "--limit", "0"],
            "an SP limit is a whole number from 1 to 100,000",
        ),
        (["fleet", "import", "KF1-garbage!"], "not a Kolrami share string"),
        (["fleet", "export", "presets:klingon-fleet", "--to", "pdf"], "use share, text or fleetx"),
        (["fleet", "sheet", "presets:klingon-fleet"], "--html OUT.html and/or --pdf OUT.pdf"),
        (["card", "vennn"], "did you mean 'Captain Ilsa Venn'?"),
        (["cards", "--type", "laser"], "--type laser"),
        (["cards", "--faction", "XYZ"], "use a code"),
    ],
)
def test_bad_input_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert message in refused(capsys, *args)


def test_unreadable_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    assert main(["fleet", "validate", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_share_export_import_round_trip(tmp_path: Path) -> None:
    code, share = invoke("fleet", "export", "presets:klingon-wolfpack", "--to", "share")
    assert code == 0
    out = tmp_path / "friend.json"
    code, text = invoke("fleet", "import", share.strip(), "--out", str(out))
    assert code == 0
    assert "Legal" in text
    before = invoke("fleet", "validate", "presets:klingon-wolfpack", "--json")[1]
    after = invoke("fleet", "validate", str(out), "--json")[1]
    assert before == after


def test_text_export() -> None:
    code, text = invoke("fleet", "export", "presets:klingon-wolfpack", "--to", "text")
    assert code == 0
    assert "K'T'Roika 80 + Captain Kor'vekh 4 + Admiral Torga 4 + Heavy Warheads 4 = 92 SP" in text
    assert "Total Build: 273 SP of 300" in text


def test_show(tmp_path: Path) -> None:
    code, out = invoke("fleet", "show", "presets:klingon-raiders")
    assert code == 0
    for text in ("Evasive Pattern Delta", "Total Build", "258", "Legal"):
        assert text in out


def test_sheet_writes_html_and_pdf(tmp_path: Path) -> None:
    html, pdf = tmp_path / "s.html", tmp_path / "s.pdf"
    code, _ = invoke(
        "fleet",
        "sheet",
        "presets:klingon-fleet",
        "--html",
        str(html),
        "--pdf",
        str(pdf),
        "--player",
        "Dev",
        "--page",
        "letter",
    )
    assert code == 0
    assert "Dev" in html.read_text()
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_new_builds_a_fleet_at_the_prompt(tmp_path: Path) -> None:
    out = tmp_path / "mine.json"
    answers = (
        "\n".join(
            [
                "Dev's cruisers",  # fleet name
                "reliance",  # a typo: told, asked again
                "reliant",
                "1",
                "venn",
                "",  # squadron, captain, no admiral
                "damage-control-team, phaser-focus",  # every upgrade on one line
                "charger",
                "1",
                "",
                "",
                "",  # no cards: the same five answers whatever the class
                "",  # no more ships
                "sensor-picket",
            ]
        )
        + "\n"
    )
    code, text = invoke("fleet", "new", "--out", str(out), stdin=answers)
    assert code == 0, text
    assert "did you mean 'Reliant'?" in text
    assert "Total Build 103 / 300 SP" in text
    assert "Total Build 173 / 300 SP" in text
    saved = json.loads(out.read_text())
    assert [s["id"] for s in saved["ships"]] == ["reliant", "charger"]
    assert saved["ships"][0]["captain"] == "venn"
    assert saved["resource"] == "sensor-picket"
    assert invoke("fleet", "validate", str(out))[0] == 0


def test_cards_and_card() -> None:
    code, out = invoke("cards", "--type", "weapon", "--json")
    assert code == 0
    assert {c["type"] for c in json.loads(out)} == {"weapon"}
    code, out = invoke("cards", "--faction", "kli")
    assert code == 0
    assert "Captain Kor'vekh" in out
    assert "Captain Ilsa Venn" not in out
    code, out = invoke("card", "reinforcements-sideboard")
    assert code == 0
    assert "10 SP" in out
    assert "repair-team" in out


def test_fleet_schema() -> None:
    schema = json.loads(invoke("schema", "fleet")[1])
    assert schema["title"] == "Fleet"
    assert "ships" in schema["properties"]


def test_tab_completion_at_fleet_new_is_loose() -> None:
    """'Ent' then Tab completes Enterprise; case and punctuation do not count (issue 23)."""
    complete = completer(builtin_pack().names.labels + card_names().labels)
    assert complete("Ent", 0) == "Enterprise"
    assert complete("ent", 0) == "Enterprise"
    assert complete("ent", 1) is None
    assert complete("admiral t", 0) == "Admiral Torga"
    assert complete("torg", 0) == "Admiral Torga"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ship", "Ent"], "no ship class 'Ent'; did you mean 'Enterprise'?"),
        (["fleet", "import", "KF2-abc"], "is not a share string this Kolrami reads"),
        (["fleet", "import", ""], "no fleet given"),
        (["card", "Torgaa"], "did you mean 'Admiral Torga'?"),
    ],
)
def test_wrong_names_get_one_line_that_helps(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    err = refused(capsys, *args)
    assert message in err
    assert "Venture" not in err
    assert "Is a directory" not in err


def _built(tmp_path: Path, lines: list[str], *options: str) -> tuple[int, str, Path]:
    out = tmp_path / "built.json"
    code, text = invoke("fleet", "new", "--out", str(out), *options, stdin="\n".join(lines) + "\n")
    return code, text, out


@pytest.mark.rule("FBS-05", "OP-13")
def test_fleet_new_checks_each_choice_as_it_is_made(tmp_path: Path) -> None:
    """Issue 47, item 10: the faction restriction, the slot and the budget at the prompt."""
    code, text, out = _built(
        tmp_path,
        [
            "Checked",
            "reliant",
            "1",
            "Kor'vekh",  # a Klingon-only captain on a Federation ship: refused at once
            "?",  # what fits: Federation and independent captains only
            "",
            "",
            "sensor picket",  # a resource where the upgrades go: said so
            "",
            "enterprise",  # 90 + 180 > 200: refused at once with the amount
            "list",
            "remove 1",
            "star hawk",
            "1",
            "",
            "",
            "",
            "",
            "?",  # the resources that fit the SP left
            "",
        ],
        "--limit",
        "200",
    )
    assert code == 0, text
    assert "may only serve on KLI ships, not on a FED Reliant (FBS-05)" in text
    fits = next(line for line in text.splitlines() if "Fits:" in line)
    assert "Captain Ilsa Venn" in fits
    assert "Kor'vekh" not in fits
    assert "General Azra'tol" not in fits
    assert "Sensor Picket is a resource, not an upgrade" in text
    assert "Enterprise (180 SP): Total Build 270 SP exceeds the 200 SP limit by 70" in text
    assert "1. Reliant, squadron 1" in text
    assert "Removed ship 1 (reliant)" in text
    resources = [line for line in text.splitlines() if "Fits:" in line][-1]
    assert "Sensor Picket" in resources
    assert "Captain" not in resources  # the resource prompt offers resources only
    saved = json.loads(out.read_text())
    assert [s["id"] for s in saved["ships"]] == ["star-hawk"]


def test_fleet_new_asks_five_questions_a_ship_whatever_its_class(tmp_path: Path) -> None:
    # the same script builds a Bird of Prey and a Starbase: no drift between classes
    for cls in ("bird of prey", "starbase"):
        code, text, out = _built(tmp_path, ["F", cls, "1", "", "", "", "", ""], "--force")
        assert code == 0, text
        assert json.loads(out.read_text())["ships"][0]["id"] == builtin_pack().get(cls).id


def test_a_cross_faction_card_is_noted_with_the_surcharge_rule(tmp_path: Path) -> None:
    code, text, _ = _built(tmp_path, ["F", "sting", "1", "venn", "", "", "", ""])
    assert code == 0, text
    assert "a FED card on a KLI ship is legal here" in text
    assert "--surcharge" in text


def test_validate_says_the_faction_surcharge_is_off_for_a_mixed_fleet(tmp_path: Path) -> None:
    """Issue 47, item 16: a Klingon ship in a Federation fleet passes, with the rule said."""
    fleet = tmp_path / "mixed.json"
    fleet.write_text(
        json.dumps(
            {
                "name": "Mixed",
                "ships": [
                    {"id": "reliant", "squadron": 1},
                    {"id": "sting", "squadron": 2, "captain": "venn"},
                ],
            }
        )
    )
    code, text = invoke("fleet", "validate", str(fleet))
    assert code == 0, text
    assert "ships of 2 factions (FED, KLI)" in text
    assert "Captain Ilsa Venn (FED) on Sting (KLI)" in text
    assert "the faction surcharge is off unless the event sets one" in " ".join(text.split())
    code, text = invoke("fleet", "validate", str(fleet), "--surcharge", "3", "--json")
    assert code == 0
    notes = json.loads(text)["faction_notes"]
    assert any("each costs 3 SP more" in n for n in notes)
