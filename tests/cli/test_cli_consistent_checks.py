"""The same value gets the same check in every command (issue 16, item 19): SP limits, seeds,
output files, --db; each refused with one line and exit code 2 before any work, nothing
written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kolrami.cli import main


def refused(args: list[str], capsys: pytest.CaptureFixture[str], quiet: bool = False) -> str:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2, (args, err)
    assert not quiet or out == "", out  # refused before any work was shown
    (line,) = err.strip().splitlines()
    assert line.startswith("kolrami: error: "), line
    return line


@pytest.mark.rule("OP-13")
@pytest.mark.parametrize(
    "args",
    [
        ["fleet", "export", "presets:klingon-strike", "--to", "text", "--limit", "-5"],
        ["fleet", "export", "presets:klingon-strike", "--limit", "0"],
        ["fleet", "import", "presets:klingon-strike", "--limit", "-1"],
        ["fleet", "validate", "presets:klingon-strike", "--limit", "-1"],
        ["fleet", "show", "presets:klingon-strike", "--limit", "100001"],
        ["fleet", "new", "--limit", "-1"],
    ],
)
def test_every_fleet_command_refuses_an_sp_limit_below_1(
    args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    line = refused([*args, *(["--out", str(tmp_path / "n.json")] if "new" in args else [])], capsys)
    assert "an SP limit is a whole number from 1 to 100,000 (OP-13)" in line
    assert not (tmp_path / "n.json").exists()


@pytest.mark.parametrize("seed", ["-1", str(2**63)])
def test_every_command_takes_the_same_seeds(
    seed: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "e.db")
    for args in (
        ["battle", "--seed", seed],
        ["assess", "--seed", seed, "--battles", "2"],
        ["tournament", "simulate", "--players", "4", "--seed", seed],
        ["tournament", "new", "X", "--seed", seed, "--db", db],
    ):
        line = refused(args, capsys)
        assert f"--seed {seed}: a seed is a whole number from 0 to 2**63 - 1" in line, args
    assert not Path(db).exists()


def test_the_largest_seed_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "--seed", str(2**63 - 1), "--turns", "1", "--json"]) == 0
    assert f'"seed": {2**63 - 1}' in capsys.readouterr().out


def test_conflicting_rule_modules_are_refused_naming_both(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for args in (
        ["battle", "--rules", "masking-none,masking-stationary", "--seed", "1"],
        ["assess", "--rules", "masking-none,masking-stationary", "--battles", "2"],
    ):
        line = refused(args, capsys)
        assert "'masking-stationary' and 'masking-none'" in line
        assert "leave one of them out" in line


@pytest.mark.parametrize("command", [["fleet", "sheet", "presets:klingon-strike"]])
def test_a_sheet_is_written_only_under_its_own_ending(
    command: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for option, name, said in (
        ("--pdf", "x.txt", "--pdf '{}' must end in .pdf"),
        ("--html", "x.pdf", "--html '{}' must end in .html or .htm"),
        ("--pdf", "no/such/x.pdf", "folder"),
    ):
        path = tmp_path / name
        line = refused([*command, option, str(path)], capsys)
        assert said.format(path) in line
        assert not path.exists()


def test_the_event_sheet_is_checked_before_it_is_laid_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "e.db")
    assert main(["tournament", "new", "X", "--db", db]) == 0
    capsys.readouterr()
    line = refused(["tournament", "sheet", "--pdf", str(tmp_path / "x.txt"), "--db", db], capsys)
    assert "must end in .pdf" in line
    assert not (tmp_path / "x.txt").exists()


def test_fleet_new_keeps_an_existing_file_unless_forced(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "mine.json"
    out.write_text("my old fleet")
    line = refused(["fleet", "new", "--out", str(out)], capsys)
    assert "is there already: name another file, or add --force to replace it" in line
    assert out.read_text() == "my old fleet"
    line = refused(["fleet", "new", "--out", str(tmp_path / "no" / "mine.json")], capsys)
    assert "does not exist" in line


def test_a_report_with_the_wrong_ending_is_refused_before_the_simulation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for args in (
        ["assess", "--battles", "2", "--report", str(tmp_path / "x.txt")],
        ["tournament", "simulate", "--players", "4", "--report", str(tmp_path / "x.txt")],
    ):
        line = refused(args, capsys, quiet=True)  # nothing played, not even the banner
        assert "must end in .html" in line


def test_a_store_that_is_not_there_is_not_created(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for db in ("sqlite:///nothere.db", "nothere.db"):
        line = refused(["tournament", "standings", "--db", db], capsys)
        assert "'nothere.db': no such store (nothing was created)" in line
        assert "kolrami tournament new NAME --db nothere.db" in line
    for args in (["pair"], ["export"], ["player", "add", "Ann", "--fleet", "klingon-strike"]):
        refused(["tournament", *args, "--db", "nothere.db"], capsys)
    assert list(tmp_path.iterdir()) == []


def test_a_store_in_a_missing_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "no" / "event.db")
    for args in (["standings"], ["new", "X"], ["simulate", "--players", "4"]):
        line = refused(["tournament", *args, "--db", db], capsys)
        assert f"folder '{tmp_path / 'no'}' does not exist" in line
    assert not (tmp_path / "no").exists()


def test_postgresql_without_its_driver_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # not installed, as find_spec sees it
    line = refused(["tournament", "standings", "--db", "postgresql://mara:s3cret@db/k"], capsys)
    assert "the PostgreSQL driver (psycopg) is not installed" in line
    assert "pip install 'kolrami[postgres]'" in line
    assert "s3cret" not in line  # the password is never printed


def test_a_db_that_is_not_a_store_is_one_line_and_left_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text, empty = tmp_path / "notes.db", tmp_path / "empty.db"
    text.write_text("my notes")
    empty.write_bytes(b"")
    line = refused(["tournament", "standings", "--db", str(text)], capsys)
    assert "is not a SQLite database" in line
    line = refused(["tournament", "pair", "--db", str(empty)], capsys)
    assert "is an empty file, not a store (nothing was changed)" in line
    line = refused(["serve", "--db", str(text)], capsys)
    assert "is not a SQLite database" in line
    assert text.read_text() == "my notes"
    assert empty.read_bytes() == b""


def test_absurd_assessment_sizes_are_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = refused(["assess", "--battles", "9" * 30], capsys)
    assert "play 1 to 100,000 battles a matchup" in line
    line = refused(["assess", "--workers", "9" * 30], capsys)
    assert "use 1 to 1024 workers" in line
