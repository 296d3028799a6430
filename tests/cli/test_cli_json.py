"""`--json` on every command that prints results (issue 23): the test walks the command tree,
so a command added without `--json`, or without a line here, fails it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli_tree import leaf_commands
from kolrami.cli import app
from kolrami.tournament.store import Store

runner = CliRunner()

#: Commands that print no results: why each is left out.
NO_RESULTS = {
    "serve": "runs the web server until stopped; it prints where to open it, not results",
    "play": "an interactive game at the terminal; its result is the log it saves (--save), "
    "which kolrami replay LOG --orders --json reads",
}

#: How each command is run with --json here; {tmp} is the test's folder. Run in this order
#: (the tournament ones build on each other; replay reads the battle's log).
RUNS: dict[str, list[str]] = {
    "ships": ["ships"],
    "ship": ["ship", "reliant"],
    "schema": ["schema", "fleet"],
    "odds": ["odds", "--weapon", "phaser", "--strength", "5", "--shots", "2", "--shields", "12"],
    "battle": ["battle", "--seed", "3", "--turns", "2", "--log", "{tmp}/b.jsonl"],
    "replay": ["replay", "{tmp}/b.jsonl"],
    "captains": ["captains"],
    "rules": ["rules"],
    "cards": ["cards"],
    "card": ["card", "Admiral Torga"],
    "assess": ["assess", "--classes", "reliant,sting", "--battles", "2", "--workers", "1"],
    "ladder": [
        "ladder",
        "aggressive",
        "random",
        "--fleets",
        "presets:klingon-strike",
        "--battles",
        "2",
        "--workers",
        "1",
    ],
    "peak check": ["peak", "check", "--fleet", "presets:klingon-strike", "--points", "0"],
    "fleet validate": ["fleet", "validate", "presets:klingon-strike"],
    "fleet show": ["fleet", "show", "presets:klingon-strike"],
    "fleet presets": ["fleet", "presets"],
    "fleet sheet": ["fleet", "sheet", "presets:klingon-strike", "--html", "{tmp}/s.html"],
    "fleet export": ["fleet", "export", "presets:klingon-strike", "--to", "fleetx"],
    "fleet import": ["fleet", "import", "presets:klingon-raiders", "--out", "{tmp}/r.json"],
    "fleet new": ["fleet", "new", "--out", "{tmp}/new.json"],
    "tournament new": ["tournament", "new", "Cup", "--db", "{tmp}/t.db", "--seed", "1"],
    "tournament player add": [
        "tournament",
        "player",
        "add",
        "Mara",
        "--fleet",
        "{tmp}/r.json",
        "--db",
        "{tmp}/t.db",
    ],
    "tournament pair": ["tournament", "pair", "--db", "{tmp}/t.db"],
    "tournament result": [
        "tournament", "result", "1", "mara", "--fp", "40", "--anyway", "--db", "{tmp}/t.db"
    ],
    "tournament verify": [
        "tournament",
        "verify",
        "1",
        "Mara",
        "--initials",
        "DV",
        "--db",
        "{tmp}/t.db",
    ],
    "tournament standings": ["tournament", "standings", "--db", "{tmp}/t.db"],
    "tournament rolloff": ["tournament", "rolloff", "--db", "{tmp}/t.db"],
    "tournament sheet": ["tournament", "sheet", "--html", "{tmp}/e.html", "--db", "{tmp}/t.db"],
    "tournament export": ["tournament", "export", "--out", "{tmp}/e.json", "--db", "{tmp}/t.db"],
    "tournament import": ["tournament", "import", "{tmp}/e.json", "--db", "{tmp}/t2.db"],
    "tournament player drop": ["tournament", "player", "drop", "Dev", "--db", "{tmp}/t.db"],
    "tournament simulate": ["tournament", "simulate", "--players", "2", "--rounds", "1"],
    # the edits (issue 17), on an event of their own (SETUP makes it): before round 1, then in it
    "tournament player fleet": [
        "tournament", "player", "fleet", "A", "--fleet", "presets:klingon-raiders",
        "--db", "{tmp}/t3.db",
    ],
    "tournament player rename": [
        "tournament", "player", "rename", "E", "Eve", "--db", "{tmp}/t3.db",
    ],
    "tournament player remove": ["tournament", "player", "remove", "Eve", "--db", "{tmp}/t3.db"],
    "tournament player undrop": ["tournament", "player", "undrop", "D", "--db", "{tmp}/t3.db"],
    "tournament pairings": ["tournament", "pairings", "Cup", "--db", "{tmp}/t3.db"],
    "tournament slips": ["tournament", "slips", "--out", "{tmp}/slips.html", "--db", "{tmp}/t3.db"],
    "tournament swap": ["tournament", "swap", "A", "C", "--db", "{tmp}/t3.db"],  # tables 1 and 2
    "tournament cancel-round": ["tournament", "cancel-round", "--repair", "--db", "{tmp}/t3.db"],
    # the owner (mara, made below with the store: the CLI makes no accounts) hands Cup over
    "tournament organizer": [
        "tournament", "organizer", "lee", "--hand-over", "--as", "mara", "--db", "{tmp}/t3.db"
    ],
    # the round timer (issue 17), on the round cancel-round paired again
    "tournament timer start": ["tournament", "timer", "start", "--db", "{tmp}/t3.db"],
    "tournament timer pause": ["tournament", "timer", "pause", "--db", "{tmp}/t3.db"],
    "tournament timer resume": ["tournament", "timer", "resume", "--db", "{tmp}/t3.db"],
    "tournament timer add": ["tournament", "timer", "add", "5", "--db", "{tmp}/t3.db"],
    "tournament timer show": ["tournament", "timer", "show", "--db", "{tmp}/t3.db"],
}  # fmt: skip

#: Commands run before a command of RUNS (without --json), to set up what it needs.
SETUP: dict[str, list[list[str]]] = {
    "tournament player fleet": [
        ["tournament", "new", "Cup", "--db", "{tmp}/t3.db", "--seed", "5"],
        *(
            ["tournament", "player", "add", n, "--fleet", "presets:klingon-strike", "--db",
             "{tmp}/t3.db"]
            for n in "ABCDE"
        ),
    ],
    "tournament player undrop": [["tournament", "player", "drop", "D", "--db", "{tmp}/t3.db"]],
    "tournament pairings": [["tournament", "pair", "--db", "{tmp}/t3.db"]],
}  # fmt: skip

#: What the prompts of `fleet new` are answered with.
FLEET_NEW_INPUT = "Mine\nstar hawk\n1\n\n\n\n\n\n\n\n\n\n"


def test_every_command_has_json_or_says_why_not() -> None:
    names = dict(leaf_commands())
    assert set(names) == set(RUNS) | set(NO_RESULTS), "add the command to RUNS or NO_RESULTS"
    lacking = [
        n
        for n, c in names.items()
        if n not in NO_RESULTS and not any("--json" in getattr(p, "opts", []) for p in c.params)
    ]
    assert lacking == []


def test_every_command_prints_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dev.json").write_text("{}")
    printed: dict[str, Any] = {}
    for name, args in RUNS.items():
        if name == "tournament pair":  # a second player, to pair with and later drop
            dev = ["Dev", "--fleet", "presets:klingon-strike", "--db", f"{tmp_path}/t.db"]
            runner.invoke(app, ["tournament", "player", "add", *dev])
        if name == "tournament organizer":  # two accounts run Cup, mara owns it
            store = Store(f"{tmp_path}/t3.db")
            mara = store.create_organizer("mara", "hash")
            store.create_organizer("lee", "hash")
            store.adopt_event("Cup", mara, "organizer mara")
            store.share_event("Cup", "lee", "organizer mara")
            store.engine.dispose()
        for setup in SETUP.get(name, []):
            done = runner.invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in setup])
            assert done.exit_code == 0, f"{name}: {done.output}"
        argv = [*(a.replace("{tmp}", str(tmp_path)) for a in args), "--json"]
        got = runner.invoke(app, argv, input=FLEET_NEW_INPUT if name == "fleet new" else None)
        assert got.exit_code == 0, f"{name}: {got.output}"
        out = got.stdout
        if name == "fleet new":  # the test runner echoes the answers typed at its prompts
            out = out[out.index("\n{") :]
        try:
            printed[name] = json.loads(out)
        except json.JSONDecodeError:
            pytest.fail(f"kolrami {name} --json printed no JSON:\n{got.stdout}")
    assert printed["card"]["id"] == "torga"
    assert printed["tournament result"]["player"] == "Mara"  # typed mara: the registered name
    assert printed["fleet new"]["ships"][0]["class"] == "star-hawk"
    assert printed["captains"][0]["name"] == "admiral"
    assert printed["fleet export"]["fleetx"]["ships"]
    assert printed["tournament organizer"] == {"owner": "lee"}


def test_version_as_json() -> None:
    got = runner.invoke(app, ["--version", "--json"])
    assert got.exit_code == 0
    data = json.loads(got.stdout)
    assert set(data) == {
        "kolrami",
        "rules_version",
        "data",
        "data_version",
        "advanced_rules_version",
        "advanced_data",
        "advanced_data_version",
        "engine",
    }
    text = runner.invoke(app, ["--version"]).stdout
    assert f"engine: {data['engine']}" in text
    assert data["advanced_rules_version"] in text
    assert data["advanced_data_version"] in text
    assert data["data_version"] in text
