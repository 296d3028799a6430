"""`kolrami battle`, `replay`, `rules` and `captains` as a user meets them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import refused
from cli_kit import run_ok
from typer.testing import CliRunner

from cli_options import flags
from kolrami.cli import app
from kolrami.cli import main

runner = CliRunner()


def test_battle_json_has_the_documented_keys() -> None:
    data = json.loads(run_ok("battle", "--seed", "3", "--json"))
    assert list(data) == [
        "seed",
        "rules_version",
        "scenario",
        "winner",
        "reason",
        "turns",
        "points_destroyed",
        "ships",
        "log_sha256",
    ]
    assert data["seed"] == 3
    assert data["winner"] in ("A", "B", None)
    assert 1 <= data["turns"] <= 12
    assert {s["side"] for s in data["ships"]} == {"A", "B"}
    assert set(data["ships"][0]) == {
        "id",
        "class",
        "name",
        "side",
        "superstructure",
        "shields",
        "engine_power",
        "systems",
        "state",
        "destroyed",
    }
    assert len(data["log_sha256"]) == 64


def test_battle_json_carries_what_the_text_shows() -> None:
    """The end reason and the points each side destroyed, as the text's Result line says them."""
    data = json.loads(run_ok("battle", "--seed", "2", "--json"))
    text = run_ok("battle", "--seed", "2")
    done = data["points_destroyed"]
    assert data["reason"] == f"turn limit, points destroyed A {done['A']} : B {done['B']}"
    assert f"Side {data['winner']} wins: {data['reason']} (after {data['turns']} turns)" in text
    assert done["B"] > done["A"] > 0


def test_one_seed_one_battle() -> None:
    first = json.loads(run_ok("battle", "--seed", "11", "--json"))
    again = json.loads(run_ok("battle", "--seed", "11", "--json"))
    other = json.loads(run_ok("battle", "--seed", "12", "--json"))
    assert first == again
    assert first["log_sha256"] != other["log_sha256"]


def test_battle_tells_the_story() -> None:
    out = run_ok("battle", "--seed", "3", "--turns", "3")
    assert "Turn 1" in out
    assert "Turn 3" in out
    assert "Turn 4" not in out
    assert "activates" in out
    assert "Result" in out
    assert "Ships" in out


def test_log_and_replay_are_identical(tmp_path: Path) -> None:
    log = tmp_path / "battle.jsonl"
    fleets = flags(fleet_a="presets:klingon-strike", fleet_b="presets:federation-venture")
    run_ok("battle", *fleets, *flags(seed=5, captain_b="kiting", log=log))
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["e"] == "battle_started"
    assert json.loads(lines[-1])["e"] == "battle_ended"
    assert "identical" in run_ok("replay", str(log))
    verdict = json.loads(run_ok("replay", str(log), "--orders", "--json"))
    assert verdict["identical"] is True


def test_replay_spots_a_tampered_log(tmp_path: Path) -> None:
    log = tmp_path / "battle.jsonl"
    run_ok("battle", "--seed", "5", "--log", str(log))
    lines = log.read_text().splitlines()
    lines[5] = lines[5].replace('"x":', '"x":1')  # a deployment position that was not played
    log.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert "different from line" in result.stdout


def test_rules_and_captains_lists() -> None:
    rules = json.loads(run_ok("rules", "--json"))
    names = {r["name"] for r in rules}
    assert {"fpf-initiative", "derelicts", "micro-warp-jump", "nebula-fire"} <= names
    listed = json.loads(run_ok("captains", "--json"))
    assert [c["name"] for c in listed] == ["admiral", "aggressive", "kiting", "random"]
    assert all(len(c["description"]) > 20 for c in listed)
    ideas = run_ok("rules")
    assert "Named by FPF without rules" in ideas
    assert "to-hit-table" in ideas
    assert "FPF-OPT-08" in ideas
    text = run_ok("captains")
    assert "focus fire" in text  # aggressive's description, beside its name
    assert "fuzzer" in text


def test_optional_modules_switch_on(tmp_path: Path) -> None:
    log = tmp_path / "b.jsonl"
    run_ok("battle", "--seed", "2", "--rules", "derelicts,individual-hold-fire", "--log", str(log))
    header = json.loads(log.read_text().splitlines()[0])["header"]
    assert "derelicts" in header["rules"]
    assert "identical" in run_ok("replay", str(log))


def test_scenario_file(tmp_path: Path) -> None:
    scenario = tmp_path / "small.toml"
    scenario.write_text(
        '[scenario]\nname = "small"\ntable_width_cm = 120\ntable_height_cm = 90\n'
        'turn_limit = 4\nmasking = "method-2"\n'
    )
    data = json.loads(run_ok("battle", "--scenario", str(scenario), "--seed", "1", "--json"))
    assert data["turns"] <= 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["battle", "--fleet-a", "presets:klingon-wolfpak"],
            "no preset fleet 'presets:klingon-wolfpak'; did you mean 'presets:klingon-wolfpack'?",
        ),
        (["battle", "--captain-a", "agressive"], "did you mean 'aggressive'?"),
        (["battle", "--scenario", "standart"], "did you mean 'standard'?"),
        (["battle", "--turns", "0"], "a battle lasts 1 to 200 turns"),
        (["battle", "--seed", "-4"], "--seed -4: a seed is a whole number from 0 to 2**63 - 1"),
        (["battle", "--rules", "cloaking"], "no rule module 'cloaking'"),
        (
            ["battle", "--rules", "derelicts,Fighters"],
            "rule module 'fighters': FPF-OPT-03 names fighters as an idea but gives no rules",
        ),
        (["battle", "--rules", "cids"], "FPF-OPT-07 names close-in defence systems"),
        (["battle", "--fleet-a", "/no/such/fleet.json"], "cannot read the fleet"),
        (["replay", "/no/such/log.jsonl"], "cannot read the log"),
    ],
)
def test_bad_battle_input(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert message in refused(capsys, *args)


def test_bad_fleet_file_names_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fleet = tmp_path / "mine.json"
    fleet.write_text(json.dumps({"name": "Mine", "ships": [{"id": "reliance"}]}))
    assert main(["battle", "--fleet-a", str(fleet)]) == 2
    err = capsys.readouterr().err
    assert "ships[0].id" in err
    assert "did you mean 'Reliant'?" in err
    too_many = tmp_path / "big.json"
    too_many.write_text(json.dumps({"ships": [{"id": "reliant", "squadron": 1}] * 4}))
    assert main(["battle", "--fleet-a", str(too_many)]) == 2
    assert "at most 3 (FPF-MASK-02)" in capsys.readouterr().err


def test_not_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    assert main(["replay", str(junk)]) == 2
    assert "is not a Kolrami event log" in capsys.readouterr().err


@pytest.mark.rule("PP-04", "FPF-OPT-01")
def test_peak_performance_with_derelicts_is_refused_naming_both() -> None:
    """A reset (PP-04) and a derelict (FPF-OPT-01) both say what superstructure 0 does."""
    result = CliRunner().invoke(
        app, ["battle", "--scenario", "peak-performance", "--rules", "derelicts", "--seed", "3"]
    )
    assert result.exit_code == 2
    assert "'battle-simulation' and 'derelicts'" in result.output
    assert "leave one of them out" in result.output
