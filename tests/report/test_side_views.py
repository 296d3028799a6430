"""Hidden information holds in every side view (issue 43, item 4): a side's replay, narration and
log hold none of the other side's hidden ships, unfound mines or probes; the referee's keep all.

The battle: probe-hunt's Federation hunters (probes) against cloaked Romulans, across the
minefield scenario's three rows of side B's mines, one turn. In it A's probes and fire make out
three of the four Romulans; the Talon (B4) stays under its cloak all battle, and A's ships find one
of the 42 mines.
"""

from __future__ import annotations

import io
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console
from typer.testing import CliRunner

from kolrami.captains.registry import make_captain
from kolrami.catalog import builtin_pack
from kolrami.cli import app as cli
from kolrami.cli.play import Terminal
from kolrami.engine.chance import Dice
from kolrami.engine.events import Event
from kolrami.fleet import load_fleet
from kolrami.report.narrate import Narrator
from kolrami.report.replay import render_replay
from kolrami.report.replay import replay_data
from kolrami.report.sideview import jsonl
from kolrami.report.sideview import side_events
from kolrami.report.sideview import view_events
from kolrami.rules import events as ev
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import field_events as fe
from kolrami.rules.advanced.driver import ADVANCED_RULES_VERSION
from kolrami.rules.advanced.terrain_events import MineRolled
from kolrami.scenarios.models import Scenario
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate
from kolrami.sim.session import HUMAN
from kolrami.sim.session import PlaySession
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import token

HIDDEN = "B4"  # the Talon: under its cloak from before its first move to the end
HIDDEN_CLASS = "Talon"


@cache
def battle_log() -> tuple[Event, ...]:
    data = builtin_scenario("probe-hunt").model_dump()
    data["terrain"] = builtin_scenario("minefield").model_dump()["terrain"]
    data["rules"] = [*data["rules"], "adv-terrain"]
    data["turn_limit"] = 1
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:romulan-cloaks"))
    battle = simulate(Scenario.model_validate(data), fleets, ("kiting", "kiting"), 1)
    return tuple(battle.log.events())


def told(events: list[Event]) -> str:
    buffer = io.StringIO()
    Narrator(Console(file=buffer, width=200, color_system=None), builtin_pack(), True).tell(events)
    return buffer.getvalue()


def names(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text) is not None


def test_the_battle_has_what_the_views_must_hide() -> None:
    events = list(battle_log())
    kinds = {e.kind for e in events}
    assert {"cloak_changed", "probe_launched", "probe_sensed", "mine_rolled"} <= kinds
    cloaked = {e.ship for e in events if isinstance(e, ae.CloakChanged) and e.hidden}
    assert HIDDEN in cloaked
    # the referee's view keeps everything: the hidden ship is in its log, replay and narration
    assert view_events(events, "referee") == events
    assert names(render_replay(events), HIDDEN)
    assert names(told(events), HIDDEN_CLASS)


@pytest.mark.rule("ADV-CLOAK-01", "ADV-SENS-02", "ADV-MINE-03", "ADV-PROBE-01")
def test_a_side_s_view_holds_none_of_the_other_side_s_hidden_ships() -> None:
    events = list(battle_log())
    mine = side_events(events, "A")
    html = render_replay(events, view="A")
    log = jsonl(mine)
    story = told(mine)
    for text in (html, log, story):
        assert not names(text, HIDDEN)
        assert not names(text, HIDDEN_CLASS)
    data = replay_data(events, view="A")
    assert data["meta"]["view"] == "A"
    assert data["meta"]["rules_version"] == ADVANCED_RULES_VERSION  # the advanced rules' name
    assert HIDDEN not in [s["id"] for s in data["ships"]]
    assert {s["id"] for s in data["ships"]} == {"A1", "A2", "A3", "B1", "B2", "B3"}
    # none of the other side's orders
    assert not [e for e in mine if isinstance(e, ev.OrderGiven) and e.side == "B"]
    assert [e for e in mine if isinstance(e, ev.OrderGiven) and e.side == "A"]


@pytest.mark.rule("ADV-CLOAK-01", "ADV-CLOAK-03")
def test_a_cloaked_ship_s_moves_show_only_where_the_side_made_it_out() -> None:
    events = list(battle_log())
    mine = side_events(events, "A")
    kept = {id(e) for e in mine}
    under: set[str] = set()
    phase = (0, 0)
    seen: dict[tuple[int, int], set[str]] = {}
    for e in events:  # the referee's log: when was each Romulan made out by side A?
        if isinstance(e, ae.PhaseStarted):
            phase = (e.turn, e.phase)
        if isinstance(e, fe.ProbeSensed) and e.found and e.owner.startswith("A"):
            seen.setdefault(phase, set()).add(e.target)
        if isinstance(e, ae.AttackRolled) and e.target.startswith("A"):
            seen.setdefault(phase, set()).add(e.ship)
    phase = (0, 0)
    shown = 0
    for e in events:
        if isinstance(e, ae.PhaseStarted):
            phase = (e.turn, e.phase)
        if isinstance(e, ae.CloakChanged):
            (under.add if e.hidden else under.discard)(e.ship)
        if isinstance(e, ev.ShipMoved) and e.ship.startswith("B") and id(e) in kept:
            shown += 1
            assert e.ship not in under or e.ship in seen.get(phase, set()), (phase, e)
    assert shown, "the ships A made out are drawn moving"
    hidden_moves = [e for e in events if isinstance(e, ev.ShipMoved) and e.ship == "B1"]
    assert len([e for e in hidden_moves if id(e) in kept]) < len(hidden_moves)


@pytest.mark.rule("ADV-MINE-03")
def header(events: list[Event]) -> dict[str, Any]:
    first = events[0]
    assert isinstance(first, ev.BattleStarted)
    return first.header


def test_a_side_sees_only_the_enemy_mines_it_found() -> None:
    events = list(battle_log())
    field = header(events)["scenario"]["terrain"][0]
    found = {e.mine for e in events if isinstance(e, MineRolled) and e.ship.startswith("A")}
    assert found
    assert len(found) < len(field["mines"])
    theirs = header(side_events(events, "A"))["scenario"]["terrain"][0]
    assert theirs["mine_keys"] == sorted(found)
    assert len(theirs["mines"]) == len(found)
    drawn = replay_data(events, view="A")["meta"]["terrain"][0]["mines"]
    assert len(drawn) == len(found)
    # the owner sees all of its own mines
    own = header(side_events(events, "B"))["scenario"]["terrain"][0]
    assert own["mines"] == field["mines"]
    hidden = [m for k, m in enumerate(field["mines"], 1) if f"1.{k}" not in found]
    text = json.dumps(theirs)
    assert all(json.dumps(m) not in text for m in hidden)


@pytest.mark.rule("ADV-PROBE-01", "ADV-PROBE-02")
def test_a_side_sees_none_of_the_enemy_s_probes() -> None:
    events = list(battle_log())
    launched = {e.probe for e in events if isinstance(e, fe.ProbeLaunched)}
    assert launched
    theirs = side_events(events, "B")
    assert not [e for e in theirs if isinstance(e, fe.ProbeLaunched | fe.ProbeSensed)]
    assert not [e for e in theirs if isinstance(e, ev.OrderGiven) and e.side == "A"]
    steps = replay_data(events, view="B")["steps"]
    assert all(not (s.get("field") or {}).get("probes") for s in steps)
    own = replay_data(events, view="A")["steps"]
    assert any((s.get("field") or {}).get("probes") for s in own)


def test_a_side_s_log_reads_back_and_draws_but_does_not_re_run(tmp_path: Path) -> None:
    events = list(battle_log())
    log = tmp_path / "side-a.jsonl"
    log.write_text(jsonl(side_events(events, "A")), encoding="utf-8")
    page = tmp_path / "side-a.html"
    done = CliRunner().invoke(cli, ["replay", str(log), "--html", str(page)])
    assert done.exit_code == 0, done.output
    assert "not re-run" in done.output
    assert not names(page.read_text(encoding="utf-8"), HIDDEN)
    assert '"view":"A"' in page.read_text(encoding="utf-8")
    full = tmp_path / "full.jsonl"
    full.write_text(jsonl(events), encoding="utf-8")
    drawn = tmp_path / "a.html"
    bad = CliRunner().invoke(cli, ["replay", str(full), "--html", str(drawn), "--view", "C"])
    assert bad.exit_code == 2
    assert "--view 'C'" in bad.output


def test_the_web_serves_a_game_in_progress_in_the_player_s_view(tmp_path: Path) -> None:
    c = TestClient(create_app(Store(str(tmp_path / "s.db")), play_dir=tmp_path / "games"))
    csrf = token(c.get("/play").text)
    form = {
        "csrf_token": csrf,
        "turns": "2",
        "seed": "3",
        "scenario": "probe-hunt",
        "seat_a": "human",
        "seat_b": "aggressive",
    }
    made = c.post("/play", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    game = made.headers["location"]
    log = c.get(f"{game}/log.jsonl")
    assert log.status_code == 200
    assert json.loads(log.text.splitlines()[0])["header"]["view"] == "A"
    assert '"e":"order_given","side":"B"' not in log.text  # none of the AI's orders
    assert c.get(f"{game}/log.jsonl?view=A").text == log.text
    for other in ("B", "referee"):
        refused = c.get(f"{game}/log.jsonl?view={other}")
        assert refused.status_code == 403
        assert "when it is over" in refused.text
        assert c.get(f"{game}/replay?view={other}").status_code == 403
    assert c.get(f"{game}/log.jsonl?view=nobody").status_code == 400
    page = c.get(f"{game}/replay")
    assert page.status_code == 200
    assert '"view":"A"' in page.text


def test_the_terminal_narrates_a_game_against_an_ai_in_the_player_s_view() -> None:
    first = battle_log()[0]
    assert isinstance(first, ev.BattleStarted)
    scenario = Scenario.model_validate(first.header["scenario"])
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:romulan-cloaks"))
    session = PlaySession(scenario, fleets, 1, (HUMAN, "kiting"))
    buffer = io.StringIO()
    terminal = Terminal(session, Console(file=buffer, width=200, color_system=None), None)
    player = make_captain("kiting", Dice(1))
    while not session.over:
        d = session.decision
        assert d is not None
        assert session.submit(str(player.decide(session.view(d.side), d))) is None
        terminal.tell()
    terminal.tell()
    said = buffer.getvalue()
    assert "B (kiting) answered" not in said  # the AI's orders are its own
    assert "Turn 1" in said
    events = session.battle.log.events()
    unseen = {e.ship for e in events if isinstance(e, ev.ShipPlaced)} - {
        e.ship for e in side_events(events, "A") if isinstance(e, ev.ShipPlaced)
    }
    assert unseen, "a Romulan stays under its cloak all battle"
    assert not any(names(said, ship) for ship in unseen)
    # against the same AI in a battle with nothing hidden, its orders are told as before
    open_session = PlaySession(builtin_scenario("standard"), fleets, 1, (HUMAN, "kiting"))
    assert Terminal(open_session, Console(file=io.StringIO()), None).live is None
