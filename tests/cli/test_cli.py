"""The `kolrami` command as a user meets it: output, JSON shapes, pictures and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import refused
from cli_kit import run_ok

from kolrami.cli import main


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def odds(
    weapon: str = "phaser", strength: object = 5, shots: object = 1, shields: object = 12
) -> list[str]:
    """`kolrami odds` for one volley given by its numbers (phaser, strength 5, 1 shot, shields
    12 unless told)."""
    return [
        "odds",
        *("--weapon", weapon, "--strength", str(strength)),
        *("--shots", str(shots), "--shields", str(shields)),
    ]


#: `kolrami odds` for a Reliant's front arc at a Sting.
RELIANT_AT_STING = ["odds", "--from", "Reliant", "--arc", "F", "--vs", "Sting"]


def test_ships_table_lists_every_class() -> None:
    out = run_ok("ships")
    for name in ("Bird of Prey", "K'T'Roika", "Enterprise", "Defender"):
        assert name in out


def test_ships_faction_filter_and_json() -> None:
    data = json.loads(run_ok("ships", "--faction", "klingon", "--json"))
    assert data["pack"]["data_version"] == "1.2.0"
    assert [s["name"] for s in data["ships"]] == [
        "Bird of Prey",
        "Star Hawk",
        "Sting",
        "K'T'Roika",
        "Drakonath",
        "Outpost",  # the house pack's (test_house_pack.py)
    ]


@pytest.mark.rule("FPF-DMG-06")
def test_ship_sheet_has_location_brackets() -> None:
    out = run_ok("ship", "d-7-t")
    assert "K'T'Roika" in out
    for row in (
        "(1-4) Shields",
        "(5-7) Engine Power",
        "(8) Phasers F str 4/ 22cm",
        "4 2",
        "(9) Photons F str 9/ 14cm",
        "(0) Computer",
        "Damage Control",
    ):
        assert row in out


def test_ship_json_is_the_model() -> None:
    data = json.loads(run_ok("ship", "enterprise", "--json"))
    assert data["phasers"]["mounts"] == [4, 2, 2, 2]
    assert data["value"] == 180


def test_schema_ship() -> None:
    schema = json.loads(run_ok("schema", "ship"))
    assert schema["title"] == "ShipClass"
    assert "superstructure" in schema["required"]
    assert json.loads(run_ok("schema", "pack"))["title"] == "ShipPack"


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-02")
@pytest.mark.parametrize(
    ("strength", "shields", "p"), [("5", "12", 0.4), ("5", "20", 0.1), ("10", "10", 0.9)]
)
def test_odds_json_worked_examples(strength: str, shields: str, p: float) -> None:
    out = run_ok(*odds(strength=strength, shields=shields), "--json")
    data = json.loads(out)
    assert list(data) == [
        "per_shot_penetration",
        "p_any_penetration",
        "expected_damage",
        "damage",
        "location",
    ]
    assert data["per_shot_penetration"] == p
    assert data["damage"] == {"0": pytest.approx(1 - p), "1": p}
    assert list(data["location"]) == ["shields", "engine_power", "phasers", "photons", "computer"]
    assert data["location"]["shields"] == pytest.approx(p * 0.4)


def test_odds_json_photons() -> None:
    data = json.loads(run_ok(*odds("photon", shots=3), "--json"))
    assert data["expected_damage"] == pytest.approx(3 * 0.4 * 3.5)
    assert sum(data["damage"].values()) == pytest.approx(1)
    assert max(int(k) for k in data["damage"]) == 18


@pytest.mark.rule("FPF-FIRE-08", "FPF-ARC-04")
def test_odds_from_vs_json_has_groups_and_combined() -> None:
    data = json.loads(
        run_ok("odds", "--from", "Reliant", "--arc", "F", "--vs", "K'T'Roika", "--json")
    )
    assert [g["weapon"] for g in data["groups"]] == ["phaser", "photon"]
    assert data["groups"][0]["shots"] == 6
    assert data["groups"][1]["shots"] == 3
    assert data["groups"][0]["per_shot_penetration"] == 0.1  # strength 4 vs 14 needs a 10
    assert sum(data["damage"].values()) == pytest.approx(1)
    assert data["expected_damage"] == pytest.approx(
        sum(g["expected_damage"] for g in data["groups"])
    )
    assert set(data) == {"groups", "p_any_penetration", "expected_damage", "damage", "location"}


def test_odds_text_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "volley.png"
    out = run_ok(
        "odds", "--from", "Enterprise", "--arc", "F", "--vs", "Drakonath", "--plot", str(plot)
    )
    assert "Enterprise fires its front arc at Drakonath" in out
    assert "Chance to destroy outright" in out
    data = plot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 10_000  # a real chart, not an empty canvas


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ship", "Reliance"], "no ship class 'Reliance'; did you mean 'Reliant'?"),
        (["odds", "--from", "Reliance", "--arc", "F", "--vs", "Sting"], "did you mean 'Reliant'?"),
        (odds(strength=-1), "weapon strength -1 is negative"),
        (odds(shots=0), "0 shots fire nothing"),
        (odds(shots=2, shields=-4), "shields -4 are negative"),
        (["odds", "--strength", "5"], "missing --weapon, --shots, --shields"),
        (["odds", "--from", "Reliant", "--vs", "Sting"], "needs --arc"),
        (["odds", "--from", "Reliant", "--arc", "S", "--vs", "Sting"], "no weapon bearing"),
        ([*RELIANT_AT_STING, "--shots", "3"], "cannot be combined"),
        (odds("laser", shields=2), "'laser' is not one of"),
        (odds(strength="five", shields=2), "Invalid value for '--strength'"),
        ([*RELIANT_AT_STING, "--plot", "/no/such/x.png"], "folder '/no/such' does not exist"),
        (["warp"], "No such command 'warp'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    err = refused(capsys, *args)
    assert message in err
    assert "Traceback" not in err


def test_main_runs_a_good_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "--version")
    assert code == 0
    assert out.startswith("kolrami ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (odds("photon", strength=7, shots=400), "--shots 400: at most 100 shots"),
        (["assess", "--points", "20000"], "at most 60 ships a side: use --points 900 or less"),
        (["assess", "--points", "99999", "--classes", "enterprise"], "use --points 10800 or less"),
        (["tournament", "simulate", "--players", "-3"], "an event needs at least 2 players"),
        (["tournament", "simulate", "--rounds", "0"], "--rounds 0: an event has 1 to 20"),
    ],
)
def test_long_work_is_bounded_before_it_starts(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Issue 23: refused at once with the bound and the fix; nothing printed before (no
    'Simulated event: -3 players' banner)."""
    assert message in refused(capsys, *args)


def test_simulate_without_db_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    run_ok("tournament", "simulate", "--players", "2", "--rounds", "1", "--json")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("kolrami-sim-")] == []


def test_the_bird_of_preys_sheet_says_double_engine_damage_is_an_option() -> None:
    out = run_ok("ship", "Bird of Prey")
    assert "engine hits count double with the bop-engine-double-damage rule (off by default)" in out
    assert "bop-engine-double-damage" in run_ok("rules")


@pytest.mark.rule("FBS-05")
def test_ships_lists_the_house_factions_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = json.loads(run_ok("ships", "--faction", "romulan", "--json"))
    assert [s["id"] for s in data["ships"]] == ["talon", "shrike", "vindicator"]
    assert [p["id"] for p in data["extra_packs"]] == ["kolrami-house"]
    assert "Varn" in run_ok("ships", "--faction", "Gorn")
    err = refused(capsys, "ships", "--faction", "vulcan")
    assert "known factions: klingon, federation, romulan, gorn, tholian, orion, borg" in err
