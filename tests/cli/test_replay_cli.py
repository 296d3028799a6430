"""`kolrami battle --replay/--tracks` and `kolrami replay LOG --html/--tracks`."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.rules import RULES_VERSION

runner = CliRunner()
BATTLE = (
    *("battle", "--seed", "3", "--fleet-a", "presets:federation-fleet"),
    *("--fleet-b", "presets:klingon-fleet", "--captain-b", "kiting"),
)


def test_battle_writes_replay_and_tracks(tmp_path: Path) -> None:
    html, png, log = tmp_path / "b.html", tmp_path / "b.png", tmp_path / "b.jsonl"
    result = runner.invoke(
        app, [*BATTLE, "--replay", str(html), "--tracks", str(png), "--log", str(log)]
    )
    assert result.exit_code == 0, result.output
    assert f"Wrote the replay to {html}" in result.stdout
    assert f"Wrote the ships' tracks to {png}" in result.stdout
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # the same page again from the log
    again, png2 = tmp_path / "again.html", tmp_path / "again.png"
    result = runner.invoke(app, ["replay", str(log), "--html", str(again), "--tracks", str(png2)])
    assert result.exit_code == 0, result.output
    assert "identical" in result.stdout
    assert again.read_bytes() == html.read_bytes()
    assert png2.exists()


def test_battle_json_still_writes_the_replay(tmp_path: Path) -> None:
    html = tmp_path / "b.html"
    result = runner.invoke(app, [*BATTLE, "--turns", "2", "--json", "--replay", str(html)])
    assert result.exit_code == 0, result.output
    assert result.stdout.lstrip().startswith("{")
    assert html.exists()


def test_bad_output_paths_fail_before_the_battle(tmp_path: Path) -> None:
    for args, message in (
        (["--replay", str(tmp_path / "b.txt")], "must end in .html"),
        (["--tracks", str(tmp_path / "b.svg")], "must end in .png"),
        (["--replay", str(tmp_path / "no" / "b.html")], "does not exist"),
    ):
        result = runner.invoke(app, [*BATTLE, *args])
        assert result.exit_code == 2
        assert message in result.output
        assert "Turn 1" not in result.output


def test_replay_html_of_a_missing_log_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["replay", str(tmp_path / "none.jsonl"), "--html", str(tmp_path / "r.html")]
    )
    assert result.exit_code == 2
    assert "cannot read the log" in result.output
    assert not (tmp_path / "r.html").exists()


#: a log of rules fpf-1 (Kolrami before the fidelity fixes), kept as it was recorded
OLD_LOG = Path(__file__).resolve().parent / "data" / "fpf-1-battle.jsonl"


def test_an_fpf_1_log_is_refused_a_rerun_with_the_reason() -> None:
    result = runner.invoke(app, ["replay", str(OLD_LOG)])
    assert result.exit_code == 2, result.output
    assert "played under rules fpf-1" in result.output
    assert RULES_VERSION in result.output
    assert "--html" in result.output


def test_an_fpf_1_log_still_draws_its_replay(tmp_path: Path) -> None:
    html = tmp_path / "old.html"
    result = runner.invoke(app, ["replay", str(OLD_LOG), "--html", str(html)])
    assert result.exit_code == 0, result.output
    assert "not re-run" in result.stdout
    page = html.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "fpf-1" in page
