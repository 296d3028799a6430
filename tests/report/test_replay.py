"""The HTML replay: what it extracts from a battle log, and the page it writes."""

from __future__ import annotations

import importlib.resources
import itertools
import json
import math
import re
from itertools import pairwise
from typing import Any

import pytest

from kolrami.catalog import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.report.replay import render_replay
from kolrami.report.replay import replay_data
from kolrami.report.replay_format import ADRIFT
from kolrami.report.replay_format import DERELICT
from kolrami.report.replay_format import DESTROYED
from kolrami.report.replay_format import OK
from kolrami.report.replay_format import RESET
from kolrami.rules import events as ev
from kolrami.rules.advanced.events import AttackRolled
from kolrami.rules.registry import read_log
from kolrami.scenarios.models import builtin_scenario
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate

SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # an identifier in createElementNS, never fetched


def play(scenario: str, seed: int) -> Battle:
    fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
    return simulate(load_scenario(scenario), fleets, ("aggressive", "kiting"), seed)


@pytest.fixture(scope="module")
def standard() -> Battle:
    return play("standard", 4)  # a battle that lasts all 12 turns


@pytest.fixture(scope="module")
def peak() -> Battle:
    return play("peak-performance", 3)


def status_of(battle: Battle, ship_id: str) -> int:
    s = battle.ships[ship_id]
    if s.destroyed:
        return DESTROYED
    if s.derelict:
        return DERELICT
    if s.out_of_play:
        return RESET
    return OK if s.in_control else ADRIFT


def test_steps_follow_the_battle(standard: Battle) -> None:
    data = replay_data(standard.events())
    steps = data["steps"]
    events = list(standard.events())
    kinds = [s["kind"] for s in steps]
    assert kinds[0] == "deploy"
    assert kinds[-1] == "end"
    assert kinds.count("turn") == sum(isinstance(e, ev.TurnStarted) for e in events)
    assert kinds.count("activation") == sum(isinstance(e, ev.SquadronActivated) for e in events)
    assert [s["turn"] for s in steps] == sorted(s["turn"] for s in steps)
    assert len(data["ships"]) == 12
    assert sum(len(s["volleys"]) for s in steps) == sum(
        isinstance(e, ev.VolleyFired) for e in events
    )
    assert sum(len(s["moves"]) for s in steps) == sum(isinstance(e, ev.ShipMoved) for e in events)
    result = standard.finish()
    assert data["meta"]["result"] == {
        "winner": result.winner,
        "reason": result.reason,
        "turns": result.turns,
    }


@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
@pytest.mark.parametrize("seed", [1, 3, 4])
def test_last_snapshot_is_the_engines_final_state(scenario: str, seed: int) -> None:
    battle = play(scenario, seed)
    data = replay_data(battle.events())
    final = data["steps"][-1]["state"]
    for ship, st in zip(battle.ships.values(), final, strict=True):
        x, y, h, ss, sh, ep, sys_, ph, pt, tokens, status, _ = st
        if ship.on_table:
            assert (x, y, h) == (round(ship.x, 3), round(ship.y, 3), ship.heading), ship.id
        assert (ss, sh, ep, sys_) == (
            ship.superstructure,
            ship.shields,
            ship.engine_power,
            ship.systems,
        ), ship.id
        assert (ph, pt) == (
            sum(ship.mounts[WeaponKind.PHASER]),
            sum(ship.mounts[WeaponKind.PHOTON]),
        ), ship.id
        assert tokens == ship.tokens
        assert status == status_of(battle, ship.id)
        top = data["ships"][ship.index]["max"]
        assert (top["sh"], top["ep"], top["sys"]) == (
            ship.max_shields,
            ship.max_engine,
            ship.max_systems,
        )


def test_score_ends_at_the_engines_score(standard: Battle, peak: Battle) -> None:
    lost = standard.destroyed_value()
    standard_data = replay_data(standard.events())
    assert standard_data["meta"]["scoring"] == "destroyed"
    assert standard_data["steps"][-1]["score"] == [lost["B"], lost["A"]]
    peak_data = replay_data(peak.events())
    assert peak_data["meta"]["scoring"] == "fleet-points"
    assert peak_data["steps"][-1]["score"] == [peak.fleet_points["A"], peak.fleet_points["B"]]
    # the score only ever grows, step by step
    scores = [s["score"] for s in peak_data["steps"]]
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in pairwise(scores))


def test_peak_performance_resets_and_returns_are_marked(peak: Battle) -> None:
    data = replay_data(peak.events())
    marks = [m for s in data["steps"] for m in s["marks"]]
    resets = sum(isinstance(e, ev.ShipReset) for e in peak.events())
    returns = sum(isinstance(e, ev.ShipReturned) for e in peak.events())
    assert resets > 0
    assert sum(m[2] == "reset" for m in marks) == resets
    assert sum(m[2] == "returned" for m in marks) == returns
    assert data["meta"]["terrain"] == [{"kind": "planet", "x": 90.0, "y": 60.0, "r": 6.0}]


def positions_at(data: dict[str, Any], i: int, t: float) -> dict[int, tuple[float, float]]:
    """Where the engine had every ship at moment t of step i: each mover along its own path,
    at an even pace over the move (kolrami.rules.fpf.movement `_execute`)."""
    before = data["steps"][i - 1]["state"]
    out = {idx: (st[0], st[1]) for idx, st in enumerate(before)}
    for idx, a, b, path, _ in data["steps"][i]["moves"]:
        u = 1.0 if b <= a else min(1.0, max(0.0, (t - a) / (b - a)))
        legs = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in itertools.pairwise(path)]
        left = u * sum(legs)
        x, y = path[0][0], path[0][1]
        for k, ((p, q), leg) in enumerate(zip(itertools.pairwise(path), legs, strict=True)):
            if left <= leg or k == len(legs) - 1:
                f = 0.0 if leg == 0 else min(1.0, left / leg)
                x, y = p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f
                break
            left -= leg
        out[idx] = (x, y)
    return out


def test_each_volley_is_placed_where_the_logged_range_holds(standard: Battle) -> None:
    data = replay_data(standard.events())
    checked = 0
    for i, step in enumerate(data["steps"]):
        if step["kind"] != "activation":
            continue
        for v in step["volleys"]:
            movers = {m[0] for m in step["moves"]}
            if v["a"] not in movers and v["b"] not in movers:
                continue  # neither moved: any moment of the step gives the same range
            where = positions_at(data, i, v["t"])
            (ax, ay), (bx, by) = where[v["a"]], where[v["b"]]
            assert math.hypot(bx - ax, by - ay) == pytest.approx(v["rng"], abs=0.05)
            checked += 1
    assert checked > 10


def test_wingmen_follow_their_leaders_trail(standard: Battle) -> None:
    data = replay_data(standard.events())
    followed = 0
    for step in data["steps"]:
        leaders = {data["ships"][m[0]]["sq"]: m[3] for m in step["moves"] if len(m[3]) >= 3}
        for idx, _, _, path, _ in step["moves"]:
            sq = data["ships"][idx]["sq"]
            if len(path) > 2 and sq in leaders and path is not leaders[sq]:
                corners = [tuple(p) for p in path[1:-1]]
                trail = {tuple(p) for s in data["steps"] for m in s["moves"] for p in m[3]}
                assert all(c in trail for c in corners)
                followed += 1
    assert followed > 0


def test_log_lines_tell_the_volleys_and_the_result(standard: Battle) -> None:
    data = replay_data(standard.events())
    lines = [text for s in data["steps"] for _, text, _ in s["log"]]
    assert any(" fires " in line and " through" in line for line in lines)
    assert any("hit on " in line for line in lines)
    assert "wins" in data["steps"][-1]["log"][-1][1] or "draw" in data["steps"][-1]["log"][-1][1]


def test_a_log_without_a_header_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="battle_started"):
        replay_data([])
    with pytest.raises(InvalidInputError, match="battle_started"):
        replay_data([ev.TurnStarted(1)])


def embedded_data(page: str) -> Any:
    found = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S
    )
    assert found is not None
    return json.loads(found.group(1))


def test_the_page_is_self_contained_and_small(standard: Battle) -> None:
    assert standard.finish().turns == 12
    page = render_replay(standard.events())
    size = len(page.encode("utf-8"))
    assert size < 1_000_000, f"{size} bytes"
    assert page.startswith("<!DOCTYPE html>")
    rest = page.replace(SVG_NAMESPACE, "")
    assert not re.search(r"https?:|//[a-z0-9.-]+\.[a-z]{2,}/", rest, re.I)
    assert not re.search(r"\b(src|href)\s*=", rest, re.I)
    assert "@import" not in rest
    assert "url(" not in rest.replace("url(#", "")
    for api in ("fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "import("):
        assert api not in rest
    assert "{{" not in page  # every placeholder filled
    assert embedded_data(page) == json.loads(json.dumps(replay_data(standard.events())))


def test_the_page_is_the_same_for_the_same_log(standard: Battle) -> None:
    text = standard.log.jsonl()
    assert render_replay(read_log(text)) == render_replay(read_log(text))


def test_names_cannot_break_out_of_the_data_script(standard: Battle) -> None:
    events = list(standard.events())
    header = dict(events[0].header)  # type: ignore[attr-defined]
    evil = "</script><script>alert(1)</script>&<b>"
    header["fleets"] = [{**header["fleets"][0], "name": evil}, header["fleets"][1]]
    page = render_replay([ev.BattleStarted(header), *events[1:]])
    assert "<script>alert(1)" not in page
    assert "<b>" not in page
    assert embedded_data(page)["meta"]["fleets"][0]["name"] == evil
    assert "&lt;/script&gt;" in page.split("<title>")[1].split("</title>")[0]


@pytest.mark.parametrize("name", ["{{SCRIPT}}", "{{ script }}", "{{DATA}}", "{% raw %}", "{#"])
def test_a_name_like_a_placeholder_stays_a_name(standard: Battle, name: str) -> None:
    """Issue 16, item 20: the page was built by string replacement, so a fleet named {{SCRIPT}}
    got the whole script pasted into its name and the page went blank."""
    events = list(standard.events())
    header = dict(events[0].header)  # type: ignore[attr-defined]
    header["fleets"] = [{**header["fleets"][0], "name": name}, header["fleets"][1]]
    page = render_replay([ev.BattleStarted(header), *events[1:]])
    script = (importlib.resources.files("kolrami.report") / "assets" / "replay.js").read_text()
    assert page.count(script.strip()) == 1
    assert embedded_data(page)["meta"]["fleets"][0]["name"] == name


def test_a_64_bit_seed_is_carried_as_text(standard: Battle) -> None:
    """Issue 16, item 22: JavaScript rounds integers past 2**53 (...662 showed as ...000)."""
    events = list(standard.events())
    seed = 5192042249628085662
    header = {**events[0].header, "seed": seed}  # type: ignore[attr-defined]
    data = embedded_data(render_replay([ev.BattleStarted(header), *events[1:]]))
    assert data["meta"]["seed"] == "5192042249628085662"
    assert data["format"] == 2


def test_an_advanced_replay_has_a_step_a_phase_its_shots_and_its_field() -> None:
    scenario = builtin_scenario("probe-hunt")
    fleets = (load_fleet(scenario.fleets[0]), load_fleet(scenario.fleets[1]))
    battle = simulate(scenario, fleets, ("aggressive", "aggressive"), 2)
    data = replay_data(battle.events())
    phases = [s for s in data["steps"] if s["kind"] == "phase"]
    assert len(phases) >= 5
    assert all(", phase " in s["label"] for s in phases)
    assert any(s["moves"] for s in phases)
    shots = sum(1 for e in battle.events() if isinstance(e, AttackRolled))
    assert shots
    assert sum(len(s["volleys"]) for s in data["steps"]) == shots
    assert any(s["field"]["probes"] for s in data["steps"])
    assert any(s["field"]["cloaked"] for s in data["steps"])
