"""`kolrami play` as a newcomer meets it (issue 47, items 2, 3, 4, 5 and 14): undo takes back
the last decision however it was followed, the AI's answers are shown, Ctrl-C says where the
game is, a saved unfinished game replays as "identical so far", a suggested reaction aims only
inside the firer's forward arc, and the damage lines and the ship sheets read one value alike."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

from kolrami.captains.doctrines import RandomCaptain
from kolrami.captains.registry import make_captain
from kolrami.catalog import Arc
from kolrami.catalog import builtin_pack
from kolrami.cli import app
from kolrami.cli.play import sheets
from kolrami.engine.chance import Dice
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.engine.geometry import arc_to
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import load_fleet
from kolrami.report.narrate import Narrator
from kolrami.report.narrate import status_table
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.scenarios.models import load_scenario
from kolrami.sim.session import HUMAN
from kolrami.sim.session import PlaySession
from kolrami.sim.session import choices
from play_kit import until_dice_follow

KOLRAMI = str(Path(sys.executable).with_name("kolrami"))
PROMPT = re.compile(r"^([AB])> ", re.MULTILINE)
runner = CliRunner()


def _spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "160"}
    return pexpect.spawn(
        KOLRAMI,
        ["play", *args, "--width", "160"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 160),
    )


def _fleets() -> tuple[Fleet, Fleet]:
    pack = builtin_pack()
    return (
        load_fleet("presets:federation-cruisers", pack),
        load_fleet("presets:klingon-wolfpack", pack),
    )


def test_undo_after_the_ai_answered_shows_and_takes_back_the_answer(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    child = _spawn("--side", "A", "--seed", "5", "--save", str(log))
    child.expect("FIRST or SECOND")
    child.expect(PROMPT)
    child.sendline("FIRST")
    child.expect(PROMPT)
    child.sendline("ACT AS1")
    # the AI's reaction is said, not silently taken (item 14)
    child.expect(r"B \(aggressive\) answered: (REACT BS1 \S+)")
    child.expect(PROMPT)
    child.sendline("undo")  # refused before: "the last order is committed" (item 2)
    child.expect(r"Took back: ACT AS1 \(side A\), and the answers after it \(B: REACT BS1")
    child.expect("Activate one squadron")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Took back: FIRST")
    child.expect(PROMPT)
    child.sendintr()  # Ctrl-C: a message, the log kept (item 14)
    # on a loaded machine a Ctrl-C that lands as readline takes the terminal can be lost (seen
    # twice in full runs, never alone): press it again, as a player would
    if child.expect([r"Stopped \(Ctrl-C\)\. The game is saved in", pexpect.TIMEOUT], timeout=15):
        child.sendintr()
        child.expect(r"Stopped \(Ctrl-C\)\. The game is saved in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    # the unfinished game replays as what it is (item 3)
    result = runner.invoke(app, ["replay", str(log), "--orders"])
    assert result.exit_code == 0, result.output
    assert "identical so far: an unfinished game" in result.output
    assert "different" not in result.output


def test_the_sheets_label_last_speed_and_read_systems_as_the_damage_lines() -> None:
    session = PlaySession(load_scenario("standard"), _fleets(), 5, (HUMAN, HUMAN))
    out = Console(file=io.StringIO(), width=200)
    out.print(sheets(session, "A"))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Last spd" in text


def test_a_hit_on_the_computer_is_told_as_the_sheets_show_systems() -> None:
    # item 5: the damage line said "computer -2" while the sheet said "Sys 0/3"
    pack = builtin_pack()
    sc = load_scenario("standard")
    for seed in range(40):
        battle = new_battle(sc, _fleets(), seed, ("aggressive", "aggressive"))
        run(battle, {s: make_captain("aggressive", captain_dice(seed, s)) for s in ("A", "B")})
        hits = [e for e in battle.events() if isinstance(e, ev.HitScored)]
        low = [h for h in hits if h.applied_to == "computer" and h.value < 0]
        if low:
            break
    else:  # pragma: no cover - the search always finds one
        pytest.fail("no computer hit below 0 in 40 battles")
    out = Console(file=io.StringIO(), width=300)
    Narrator(out, pack).tell(battle.events())
    told = out.file.getvalue()  # type: ignore[attr-defined]
    assert f"→ systems {low[0].value}," in told
    assert "→ computer" not in told
    ship = battle.ships[low[-1].target]
    final = Console(file=io.StringIO(), width=300)
    final.print(status_table(battle))
    assert f"{ship.systems}/{ship.max_systems}" in final.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.rule("FPF-FIRE-11", "FPF-ARC-02")
def test_a_suggested_reaction_aims_only_inside_the_firers_forward_arc() -> None:
    sc = load_scenario("standard").model_copy(update={"turn_limit": 4})
    checked = behind = 0
    for seed in range(4):
        session = PlaySession(sc, _fleets(), seed, (HUMAN, HUMAN))
        captain = RandomCaptain(Dice(seed))
        while not session.over:
            d = session.decision
            assert d is not None
            if isinstance(d, ReactionDecision):
                view = session.view(d.side)
                for line in choices(session, d):
                    for firer, target in re.findall(r"(\w+):F@(\w+)", line):
                        s, t = view.ship(firer), view.ship(target)
                        assert arc_to(s.x, s.y, s.heading, t.x, t.y) is Arc.F, line
                        checked += 1
                for firer in d.firers:
                    s = view.ship(firer)
                    t = view.ship(d.targets[0])
                    behind += arc_to(s.x, s.y, s.heading, t.x, t.y) is not Arc.F
            assert session.submit(str(captain.decide(session.view(d.side), d))) is None
    assert checked  # a reaction with a target ahead was met
    assert behind  # and one whose first target was not ahead


def test_a_log_with_an_undo_after_seen_dice_replays_identically(tmp_path: Path) -> None:
    session = PlaySession(load_scenario("standard"), _fleets(), 7, (HUMAN, "aggressive"))
    until_dice_follow(session)
    session.undo()
    assert session.undone
    log = tmp_path / "undone.jsonl"
    log.write_text(session.log_text(), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(log), "--orders"])
    assert result.exit_code == 0, result.output
    assert "identical so far" in result.output
