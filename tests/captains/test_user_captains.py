"""Captains anyone can bring (issue 22, Tomas's story): by file path, by module path, through the
`kolrami.captains` entry point; in battles, assessments on worker processes and simulated
events; versioned so stale results are never reused; the example of docs/captains.md plays."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_options import flags
from kolrami.captains import registry
from kolrami.captains.registry import captain_names
from kolrami.captains.registry import captain_version
from kolrami.captains.registry import make_captain
from kolrami.cli import app
from kolrami.engine.chance import Dice
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.scenarios.models import load_scenario
from kolrami.sim.assess import Plan
from kolrami.sim.assess import class_combatants
from kolrami.sim.assess import summarise
from kolrami.sim.backends import run_plan
from kolrami.tournament.simulate import run_event

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "brawler.py"
BRAWLER = f"{EXAMPLE}:Brawler"
runner = CliRunner()


def test_the_guide_s_example_captain_plays_a_battle(tmp_path: Path) -> None:
    log = tmp_path / "b.jsonl"
    result = runner.invoke(
        app, ["battle", *flags(captain_a=BRAWLER, captain_b="kiting", seed=3, log=log)]
    )
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])["header"]
    assert header["captains"][0] == BRAWLER
    # the same log plays again: same captain, same seed, same battle
    again = runner.invoke(app, ["replay", str(log)])
    assert again.exit_code == 0, again.output


def test_a_captain_by_module_path_from_the_folder_it_is_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(EXAMPLE, tmp_path / "my_brawler.py")
    monkeypatch.chdir(tmp_path)
    captain = make_captain("my_brawler:Brawler", Dice(1))
    assert captain.name == "brawler"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nosuchmodule_xyz:Brawler", "cannot be imported"),
        (f"{EXAMPLE}:Nope", "has no 'Nope'"),
        ("missing/brawler.py:Brawler", "no file missing/brawler.py"),
        (f"{EXAMPLE}:math", "not callable"),
        (":Brawler", "module:Attribute"),
    ],
)
def test_a_captain_that_cannot_be_had_is_one_line(name: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as err:
        make_captain(name, Dice(1))
    assert "\n" not in str(err.value)
    result = runner.invoke(app, ["battle", "--captain-a", name])
    assert result.exit_code == 2
    assert message in result.output


def test_a_captain_that_makes_no_decider_is_refused(tmp_path: Path) -> None:
    (tmp_path / "odd.py").write_text("def Odd(dice):\n    return 42\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="no decide"):
        make_captain(f"{tmp_path / 'odd.py'}:Odd", Dice(1))


def test_a_captain_from_an_installed_package_s_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(EXAMPLE, tmp_path / "brawler_pkg_mod.py")
    info = tmp_path / "brawler_pkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: brawler-pkg\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[kolrami.captains]\nbrawler = brawler_pkg_mod:Brawler\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "brawler" in captain_names()
    assert make_captain("brawler", Dice(1)).name == "brawler"
    with pytest.raises(UnknownNameError):
        make_captain("brawlr-nope", Dice(1))


def _plan(captain: str) -> Plan:
    return Plan(
        tuple(class_combatants(["reliant", "sting", "ktroika"])),
        load_scenario("standard"),
        captains=(captain, "kiting"),
        battles=4,
        seed=5,
    )


def test_a_module_captain_plays_on_two_workers_as_on_one() -> None:
    plan = _plan(BRAWLER)
    one, _ = run_plan(plan, workers=1)
    two, _ = run_plan(plan, workers=2)
    assert len(one) == plan.total
    assert one == two
    assert summarise(plan, one).to_json() == summarise(plan, two).to_json()


def test_a_captain_s_code_version_is_in_its_matchups_ids(tmp_path: Path) -> None:
    source = EXAMPLE.read_text(encoding="utf-8").replace('    version = "1"\n', "")
    mine = tmp_path / "mine.py"
    mine.write_text(source, encoding="utf-8")
    name = f"{mine}:Brawler"
    before = captain_version(name)
    ids = [m.id for m in _plan(name).matchups]
    mine.write_text(source + "\n# a change\n", encoding="utf-8")
    assert captain_version(name) != before
    assert [m.id for m in _plan(name).matchups] != ids  # stored results of the old code unused
    # the built-in captains alone keep the ids they had
    assert captain_version("kiting")
    assert captain_version(BRAWLER) == "1"  # a version the captain states itself


def test_a_simulated_event_with_a_captain_of_one_s_own() -> None:
    event = run_event(
        [("reliant", class_combatants(["reliant"])[0].fleet)],
        players=4,
        seed=2,
        rounds=1,
        captains=(BRAWLER, "kiting"),
    )
    assert len(event.games) == 2
    result = runner.invoke(
        app,
        ["tournament", "simulate", "--players", "3", "--rounds", "1", "--captains", "nope:X"],
    )
    assert result.exit_code == 2
    assert "cannot be imported" in result.output


def test_replay_says_how_to_supply_a_missing_captain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "gone.py"
    shutil.copy(EXAMPLE, mine)
    log = tmp_path / "b.jsonl"
    result = runner.invoke(
        app, ["battle", "--captain-a", f"{mine}:Brawler", "--seed", "1", "--log", str(log)]
    )
    assert result.exit_code == 0, result.output
    mine.unlink()
    monkeypatch.setattr(registry, "_LOADED", {})  # as in a new process: the file is gone
    again = runner.invoke(app, ["replay", str(log)])
    assert again.exit_code == 2
    assert "--orders" in again.output
    assert runner.invoke(app, ["replay", str(log), "--orders"]).exit_code == 0


def test_a_user_captain_declares_its_parameters_least_and_greatest(tmp_path: Path) -> None:
    # `parameters`: each name and its least value, or a (least, greatest) pair; the factory
    # is called with the values given, and a value out of range is one line naming the fix
    source = tmp_path / "ranged.py"
    source.write_text(
        "from kolrami.captains.doctrines import AggressiveCaptain\n"
        "class Ranged(AggressiveCaptain):\n"
        "    name = 'ranged'\n"
        "    parameters = {'nerve': (1, 3), 'patience': 0}\n"
        "    def __init__(self, dice, nerve=2, patience=0):\n"
        "        super().__init__(dice)\n"
        "        self.nerve, self.patience = nerve, patience\n",
        encoding="utf-8",
    )
    made = make_captain(f"{source}:Ranged:nerve=3,patience=7", Dice(1))
    assert (made.nerve, made.patience) == (3, 7)  # type: ignore[attr-defined]
    for bad, why in (("nerve=4", "from 1 to 3, not '4'"), ("nerve=0", "from 1 to 3, not '0'")):
        with pytest.raises(InvalidInputError) as caught:
            make_captain(f"{source}:Ranged:{bad}", Dice(1))
        assert f"nerve must be a whole number {why} (e.g. " in str(caught.value)
    with pytest.raises(InvalidInputError, match="patience must be a whole number >= 0"):
        make_captain(f"{source}:Ranged:patience=-1", Dice(1))
