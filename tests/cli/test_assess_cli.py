"""`kolrami assess` as a user meets it: tables, JSON, the report, resuming, Ctrl-C, bad input."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_kit import run_ok
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.cli.assess import duration_text
from kolrami.cli.assess import speed_text

runner = CliRunner()
SMALL = ["--classes", "reliant,ktroika,sting", "--battles", "4", "--workers", "1"]


def without_run(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "run"}


def test_tables_for_a_small_sweep() -> None:
    text = run_ok("assess", *SMALL, "--classes", "star-hawk,reliant,ktroika,sting")
    for heading in ("Matchups", "Ratings", "Fair values"):
        assert heading in text
    assert "K'T'Roika" in text
    close_costs = run_ok("assess", *SMALL)  # 75 to 90 SP: no line to fit
    assert "No fair values: the costs (75-90 SP) vary too little" in close_costs


def test_json_has_everything() -> None:
    data = json.loads(run_ok("assess", *SMALL, "--json"))
    assert list(data) == [
        "settings",
        "combatants",
        "matchups",
        "ratings_fit",
        "ratings",
        "fair_values",
        "run",
    ]
    assert data["settings"]["battles"] == 12
    assert len(data["matchups"]) == 3
    m = data["matchups"][0]
    assert m["wins"] + m["draws"] + m["losses"] == 4
    assert m["score_95"][0] <= m["score"] <= m["score_95"][1]
    assert {r["combatant"] for r in data["ratings"]} == {"Reliant", "K'T'Roika", "Sting"}
    assert data["run"]["played"] == 12


def test_peak_performance_fleets_with_fleet_points(tmp_path: Path) -> None:
    data = json.loads(
        run_ok(
            "assess",
            "--fleets",
            "presets:klingon-wolfpack",
            "presets:federation-cruisers",
            "--scenario",
            "peak-performance",
            "--captains",
            "aggressive",
            "--battles",
            "2",
            "--turns",
            "3",
            "--workers",
            "1",
            "--json",
        )
    )
    (m,) = data["matchups"]
    assert (m["x"], m["y"]) == ("klingon-wolfpack", "federation-cruisers")
    assert len(m["mean_fleet_points"]) == 2
    assert data["fair_values"]["note"]  # two fleets: too few for a price line


def test_out_folder_resumes_and_gives_the_same_answer(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = json.loads(run_ok("assess", *SMALL, "--out", str(out), "--json"))
    assert first["run"]["resumed"] == 0
    assert len((out / "battles.jsonl").read_text().splitlines()) == 12
    again = json.loads(run_ok("assess", *SMALL, "--out", str(out), "--json"))
    assert again["run"] == {**again["run"], "played": 0, "resumed": 12}
    assert without_run(again) == without_run(first)
    assert without_run(json.loads((out / "assessment.json").read_text())) == without_run(first)
    pooled = json.loads(run_ok("assess", *SMALL[:-1], "2", "--json"))
    assert without_run(pooled) == without_run(first)


def test_html_report_embeds_the_pictures(tmp_path: Path) -> None:
    report = tmp_path / "assessment.html"
    run_ok(
        "assess", *SMALL, "--classes", "reliant,ktroika,sting,enterprise", "--report", str(report)
    )
    page = report.read_text()
    assert page.startswith("<!doctype html>")
    assert page.count("data:image/png;base64,") == 4  # heatmap, ratings, price line, fair cost
    assert "Enterprise" in page
    assert "http" not in page.replace("http-equiv", "")  # nothing to fetch: works offline


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--battles", "0"], "--battles 0"),
        (["--classes", "Reliance,sting"], "did you mean 'Reliant'"),
        (["--classes", "reliant"], "at least two combatants"),
        (["--captains", "brave"], "no captain 'brave'"),
        (["--classes", "enterprise,sting", "--points", "100"], "Enterprise costs 180 SP"),
        (["--points", "0"], "--points 0"),
        (["--fleets", "presets:vulcan-*"], "no preset fleet matches"),
        (["--fleets", "presets:klingon-wolfpak", "presets:klingon-strike"], "did you mean"),
        (["--report", "out.txt"], "must end in .html"),
        (["--report", "/no/such/folder/r.html"], "does not exist"),
        (["--address", "10.0.0.1:6379"], "--address belongs to --backend ray"),
        (["--workers", "0"], "--workers 0"),
        (["--seed", "-1"], "--seed -1: a seed is a whole number from 0 to 2**63 - 1"),
        (["--turns", "0"], "--turns 0"),
        (["--scenario", "nowhere"], "scenario"),
        (["--rules", "warp-speed"], "no rule module 'warp-speed'"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["assess", "--battles", "2", "--workers", "1", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("kolrami: error:")
    assert message in lines[0]


def test_out_must_be_a_folder(tmp_path: Path) -> None:
    afile = tmp_path / "taken"
    afile.write_text("")
    result = runner.invoke(app, ["assess", *SMALL, "--out", str(afile)])
    assert result.exit_code == 2
    assert "is a file" in result.stderr


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="ray is installed")
def test_ray_backend_without_ray_says_how_to_install_it() -> None:
    result = runner.invoke(app, ["assess", *SMALL, "--backend", "ray"])
    assert result.exit_code == 2
    assert "pip install 'kolrami[ray]'" in result.stderr


SMALL_RAY = ["assess", "--classes", "reliant,sting", "--battles", "2", "--backend", "ray"]


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_an_unreachable_ray_cluster_is_named_at_once() -> None:
    result = runner.invoke(app, [*SMALL_RAY, "--address", "127.0.0.1:1"])
    assert result.exit_code == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in result.stderr


def _kolrami(*args: str) -> list[str]:
    return [sys.executable, "-c", "from kolrami.cli import run; run()", *args]


@pytest.mark.slow
def test_ctrl_c_loses_nothing_and_the_rerun_finishes_the_same(tmp_path: Path, sample: int) -> None:
    """A real Ctrl-C to the whole process group, as a terminal sends it, mid-sweep."""
    args = ["assess", "--classes", "all", "--battles", str(10 * sample), "--workers", "2"]
    out = tmp_path / "run"
    records = out / "battles.jsonl"
    proc = subprocess.Popen(
        _kolrami(*args, "--out", str(out)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if records.exists() and len(records.read_text().splitlines()) >= 20:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    saved = records.read_text().splitlines()
    if proc.returncode == 0:  # the sweep beat the signal: nothing to resume, still a pass
        pytest.skip("the sweep finished before Ctrl-C arrived")
    assert proc.returncode == 130, err
    assert "interrupted" in err
    # whole lines only; a batch the interrupt caught between saving it and counting it is
    # saved twice (sim/backends.run_processes: twice, never not at all), and counts once
    battles = {(json.loads(line)["m"], json.loads(line)["i"]) for line in saved}
    # all 22 classes kolrami ships lists: 231 matchups
    assert f"{len(battles)} of {231 * 10 * sample} battles saved" in err
    resumed = subprocess.run(
        _kolrami(*args, "--out", str(out), "--json"), capture_output=True, text=True, check=True
    )
    data = json.loads(resumed.stdout)
    assert data["run"]["resumed"] == len(battles)
    fresh = json.loads(run_ok(*args, "--json"))
    assert without_run(data) == without_run(fresh)


def test_verdicts_per_captain_fit_and_flags_in_the_json() -> None:
    data = json.loads(
        run_ok(
            "assess",
            "--classes",
            "star-hawk,defender,reliant,venture",
            "--battles",
            "8",
            "--workers",
            "1",
            "--captains",
            "aggressive,kiting",
            "--json",
        )
    )
    fit = data["ratings_fit"]
    assert fit["df"] == 6 - 3
    assert fit["dispersion"] >= 1.0
    fv = data["fair_values"]
    assert "scatter" in fv["rests_on"]
    for row in fv["combatants"]:
        assert set(row["verdict_by_captain"]) == {"aggressive", "kiting"}
        # each captain's verdict with its fair cost, as the tables and the report show it
        fair = row["fair_cost_by_captain"]
        assert set(fair) == {"aggressive", "kiting"}
        for captain, verdict in row["verdict_by_captain"].items():
            shown = f"{captain}: {verdict}"
            if fair[captain] is not None:
                shown += f", fair {fair[captain]:.0f} SP"
            assert shown in row["by_captain"]
        assert isinstance(row["extrapolated"], bool)
        assert row["verdict"] in ("underpriced", "overpriced", "about right", "can't tell")
    # the cheapest and the dearest are judged beyond the others' costs
    by_cost = sorted(fv["combatants"], key=lambda r: r["cost"])
    assert by_cost[0]["extrapolated"]
    assert by_cost[-1]["extrapolated"]


def test_a_slow_sweep_s_speed_is_shown_in_figures_that_say_something() -> None:
    # a searching captain plays about a battle a second: "0 battles/s" would tell nothing
    assert speed_text(1234.4) == "1,234"
    assert speed_text(12.6) == "13"
    assert speed_text(0.347) == "0.35"
    assert speed_text(0.004) == "0.004"
    assert speed_text(float("nan")) == "--"
    assert [duration_text(s) for s in (40.2, 720, 12_600)] == ["40 s", "12 min", "3.5 h"]


def test_a_captain_without_battles_of_its_own_is_named_in_the_verdicts() -> None:
    # three captains take turns in nine ordered pairs: in 4 battles a matchup only aggressive
    # plays on both sides, and the other two are named with the battles they need
    data = json.loads(
        run_ok(
            "assess",
            "--classes",
            "reliant,sting,ktroika,defender",
            "--battles",
            "4",
            "--workers",
            "1",
            "--captains",
            "aggressive,kiting,random",
            "--json",
        )
    )
    for row in data["fair_values"]["combatants"]:
        assert set(row["verdict_by_captain"]) == {"aggressive"}
        for other in ("kiting", "random"):
            assert (
                f"{other}: no battles of its own on both sides (--battles 18 or more)"
                in (row["by_captain"])
            )
