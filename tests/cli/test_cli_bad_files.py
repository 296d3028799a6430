"""Files and names the CLI cannot read are one line and exit code 2, never "internal error ...
This is a bug" (issue 16, item 18): text that is not UTF-8 or is UTF-16, names past the system's
255-byte limit, and a squadron the prompt cannot take."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.cli import main

runner = CliRunner()
LONG = "a" * 300  # past NAME_MAX (255 bytes): the system refuses to look it up at all


def bad_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "latin-1": '{"name": "Caf\xe9"}'.encode("latin-1"),
        "utf-16": '{"name": "Caf\u00e9"}'.encode("utf-16"),
        "utf-16-be": "\ufeff[scenario]".encode("utf-16-be"),
    }
    out = {}
    for kind, data in files.items():
        path = tmp_path / f"{kind}.json"
        path.write_bytes(data)
        out[kind] = path
    return out


def commands(path: str, db: str) -> list[list[str]]:
    """Every command that reads a file a user names, with `path` in that place."""
    return [
        ["fleet", "validate", path],
        ["fleet", "show", path],
        ["fleet", "import", path],
        ["fleet", "export", path],
        ["fleet", "sheet", path, "--html", str(Path(db).with_suffix(".html"))],
        ["battle", "--fleet-a", path, "--seed", "1"],
        ["battle", "--fleet-b", path, "--seed", "1"],
        ["battle", "--scenario", path, "--seed", "1"],
        ["replay", path],
        ["assess", "--fleets", path, "--fleets", "presets:klingon-strike", "--battles", "2"],
        ["peak", "check", "--fleet", path, "--points", "10"],
        ["tournament", "player", "add", "Ann", "--fleet", path, "--db", db],
        ["tournament", "import", path, "--db", db],
        ["tournament", "standings", "--from", path],
        ["tournament", "simulate", "--fleets", f"{path},presets:klingon-strike", "--db", db],
    ]


def one_line_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2, (args, err)
    assert len(lines) == 1, (args, err)
    assert "internal error" not in err
    assert "This is a bug" not in err
    return lines[0]


def test_text_that_is_not_utf8_is_one_line_in_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "event.db")
    assert main(["tournament", "new", "November", "--db", db]) == 0
    capsys.readouterr()
    for kind, path in bad_files(tmp_path).items():
        for args in commands(str(path), db):
            line = one_line_exit_2(args, capsys)
            assert path.name in line, (args, line)
            if kind.startswith("utf-16"):
                assert "UTF-16 text; save it as UTF-8" in line, (args, line)
            else:
                assert "not UTF-8 text" in line, (args, line)


def test_fleet_validate_says_2_not_1_for_a_file_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit code 1 means "read, and not legal": a UTF-16 file is not that."""
    path = bad_files(tmp_path)["utf-16"]
    assert one_line_exit_2(["fleet", "validate", str(path)], capsys).startswith("kolrami: error")


def test_a_folder_or_an_endless_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "event.db")
    for path in (str(tmp_path), "/dev/zero"):
        for args in commands(path, db):
            one_line_exit_2(args, capsys)


def test_names_too_long_for_the_system_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "event.db")
    assert main(["tournament", "new", "November", "--db", db]) == 0
    capsys.readouterr()
    everyone = [
        *commands(LONG, db),
        *commands(f"{LONG}.json", db),
        ["fleet", "export", "presets:klingon-strike", "--out", LONG],
        ["fleet", "sheet", "presets:klingon-strike", "--html", f"{LONG}.html"],
        ["fleet", "new", "--out", LONG],
        ["battle", "--seed", "1", "--log", LONG],
        ["battle", "--seed", "1", "--replay", f"{LONG}.html"],
        ["battle", "--seed", "1", "--tracks", f"{LONG}.png"],
        ["replay", f"{LONG}.jsonl"],
        ["tournament", "export", "--out", LONG, "--db", db],
        ["tournament", "standings", "--db", LONG],
        ["tournament", "new", "X", "--db", f"{LONG}.db"],
        ["ship", LONG],
        ["card", LONG],
        ["odds", "--from", LONG, "--vs", "Reliant", "--arc", "F"],
    ]
    for args in everyone:
        line = one_line_exit_2(args, capsys)
        assert LONG not in line, line  # the name is quoted short, never whole


def test_squadron_0_at_the_prompt_is_asked_again(tmp_path: Path) -> None:
    out = tmp_path / "mine.json"
    answers = "Mine\nreliant\n0\n\u00b2\n100\n2\n" + "\n" * 8 + "\n\n"
    result = runner.invoke(app, ["fleet", "new", "--out", str(out)], input=answers)
    assert result.exit_code == 0, result.output
    assert result.output.count("a squadron is a whole number from 1 to 99") == 3
    assert '"squadron": 2' in out.read_text()


def test_a_fleet_name_too_long_at_the_prompt_is_asked_again(tmp_path: Path) -> None:
    out = tmp_path / "mine.json"
    answers = "N" * 500 + "\nMine\nreliant\n1\n" + "\n" * 8 + "\n\n"
    result = runner.invoke(app, ["fleet", "new", "--out", str(out)], input=answers)
    assert result.exit_code == 0, result.output
    assert "A fleet's name is 1 to 120 characters" in result.output
    assert '"name": "Mine"' in out.read_text()
