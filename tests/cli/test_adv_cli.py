"""The advanced game as a user meets it: `kolrami ship NAME --advanced`, `kolrami battle
--scenario advanced` (or `--rules advanced`), `kolrami replay`, `kolrami rules`, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import refused
from cli_kit import run_ok

from cli_options import flags
from kolrami.cli import main


def test_the_advanced_sheet() -> None:
    out = run_ok("ship", "Reliant", "--advanced")
    for text in ("Total power", "38", "warp port 14", "charge 5 power", "w3", "photon", "crew"):
        assert text in out, text
    assert "Damage chart (d10)" in out


def test_the_advanced_sheet_as_json_names_its_overrides() -> None:
    data = json.loads(run_ok("ship", "enterprise", "--advanced", "--json"))
    assert data["total_power"] == 52
    assert data["shield_cost"] == 4
    assert data["overridden"] == ["crew", "marines"]
    assert len(data["weapons"]) == 6
    plain = json.loads(run_ok("ship", "enterprise", "--json"))
    assert "total_power" not in plain  # the FPF sheet is unchanged


def test_a_bad_name_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ship", "Reliance", "--advanced"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "kolrami: error: no ship class 'Reliance'; did you mean 'Reliant'?"


def test_an_advanced_battle_tells_its_story() -> None:
    out = run_ok("battle", "--scenario", "advanced", "--seed", "3", "--turns", "2")
    for text in ("Advanced game", "Tactical Advantage", "phase 1.1", "Turn 2", "Ships (advanced)"):
        assert text in out, text
    assert "Turn 3" not in out


def test_an_advanced_battle_as_json_and_by_rules() -> None:
    data = json.loads(run_ok("battle", "--scenario", "advanced", "--seed", "4", "--json"))
    assert data["winner"] in ("A", "B", None)
    again = json.loads(
        run_ok("battle", "--rules", "advanced", "--seed", "4", "--turns", "2", "--json")
    )
    assert again["turns"] <= 2


def test_an_advanced_log_replays_identically(tmp_path: Path) -> None:
    log = tmp_path / "adv.jsonl"
    rules = "adv-shield-reinforcement"
    run_ok(
        "battle",
        *flags(scenario="advanced", rules=rules, captain_b="random", seed=6, turns=3, log=log),
    )
    assert "identical" in run_ok("replay", str(log))
    assert "identical" in run_ok("replay", str(log), "--orders")
    shown = run_ok("replay", str(log), "--show")
    assert "Advanced game" in shown
    assert "Tactical Advantage" in shown
    page = tmp_path / "adv.html"
    run_ok("replay", str(log), "--html", str(page))
    assert page.stat().st_size > 10_000


def test_rules_lists_the_advanced_modules() -> None:
    rows = {r["name"]: r for r in json.loads(run_ok("rules", "--json"))}
    assert "ADV-SEQ-01" in rows["advanced"]["clauses"]
    assert rows["adv-shield-reinforcement"]["clauses"] == ["ADV-SHLD-05", "ADV-SHLD-07"]
    assert "ADV-SENS-02" in rows["adv-cloak"]["clauses"]
    assert rows["adv-warp-limit"]["clauses"] == ["ADV-OFF-10"]


@pytest.mark.rule("ADV-CLOAK-01")
def test_a_battle_with_cloaks_tells_who_vanishes() -> None:
    out = run_ok(
        "battle",
        "--scenario",
        "advanced",
        "--rules",
        "adv-cloak",
        "--fleet-b",
        "presets:klingon-raiders",
        "--turns",
        "2",
        "--seed",
        "3",
    )
    assert "vanishes under its cloak (cloak engaged)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["battle", "--scenario", "advnced"], "did you mean 'advanced'?"),
        (["battle", "--scenario", "advanced", "--rules", "advancd"], "did you mean 'advanced'?"),
        (["battle", "--rules", "adv-clok"], "no rule module 'adv-clok'; did you mean 'adv-cloak'?"),
    ],
)
def test_bad_advanced_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in refused(capsys, *args)
