"""/play through the test client: a game is its log on disk (a new app on the same folder goes
on where it was), the page gets the deciding side's view only, refusals name and link their
clause, bad input is a 4xx with the message, and hot-seat with hidden ships passes the device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kolrami.captains.doctrines import RandomCaptain
from kolrami.engine.chance import Dice
from kolrami.tournament.store import Store
from kolrami.web import create_app
from kolrami.web.routers.play import PlayGames
from web_helpers import text
from web_helpers import token


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Store(str(tmp_path / "s.db")), play_dir=tmp_path / "games"))


def _start(c: TestClient, **form: str) -> tuple[str, str]:
    page = c.get("/play")
    assert page.status_code == 200
    csrf = token(page.text)
    sent = {"csrf_token": csrf, "turns": "2", "seed": "3", **form}
    made = c.post("/play", data=sent, follow_redirects=False)
    assert made.status_code == 303, made.text
    return made.headers["location"], csrf


def _order(c: TestClient, game: str, csrf: str, order: str) -> Any:
    return c.post(f"{game}/order", json={"order": order}, headers={"X-CSRF-Token": csrf})


def test_a_game_is_its_log_and_survives_a_new_server(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game, csrf = _start(c)
    first = c.get(f"{game}/state").json()
    d = first["decision"]
    answer = "FIRST" if d["kind"] == "InitiativeDecision" else f"ACT {d['squadrons'][0]}"
    taken = _order(c, game, csrf, answer)
    assert taken.status_code == 200, taken.text
    assert taken.json()["orders"] > first["orders"]
    # another app on the same folder (a restarted server) finds the game from its log alone
    again = _client(tmp_path).get(f"{game}/state").json()
    assert again["orders"] == taken.json()["orders"]
    assert again["ships"] == taken.json()["ships"]
    log = c.get(f"{game}/log.jsonl")
    assert log.text == (tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl").read_text()


@pytest.mark.rule("FPF-MOV-02")
def test_a_refused_order_names_its_clause_and_changes_nothing(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game, csrf = _start(c)
    before = c.get(f"{game}/log.jsonl").text
    answer = _order(c, game, csrf, "REPAIR A1:warp_core")
    assert answer.status_code == 422
    body = answer.json()
    assert body["refused"]
    if body["rules"]:
        rule = body["rules"][0]
        assert rule["url"] == f"/play/rules/{rule['id']}"
    assert c.get(f"{game}/log.jsonl").text == before
    assert c.get("/play/rules/FPF-MOV-07").status_code == 200
    assert "turn" in c.get("/play/rules/FPF-MOV-07").text
    assert c.get("/play/rules/FPF-NOPE-99").status_code == 404


def test_bad_input_is_a_4xx_with_the_message(tmp_path: Path) -> None:
    c = _client(tmp_path)
    csrf = token(c.get("/play").text)
    bad = c.post("/play", data={"csrf_token": csrf, "seat_b": "nobody"})
    assert bad.status_code == 400
    assert "no captain 'nobody'" in text(bad)
    assert c.post("/play", data={"csrf_token": csrf, "turns": "0"}).status_code == 400
    assert c.post("/play", data={"csrf_token": csrf, "seed": "x"}).status_code == 400
    assert c.get("/play/not-a-game").status_code == 404
    assert c.get("/play/" + "a" * 24 + "/state").status_code == 404
    game, _ = _start(c)
    # no CSRF token: refused, the game untouched
    assert c.post(f"{game}/order", json={"order": "FIRST"}).status_code == 403
    assert _order(c, game, csrf, "").status_code == 422
    assert not list((tmp_path / "games").glob("*.tmp"))


def test_the_page_gets_the_deciding_sides_view_only(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game, csrf = _start(c, scenario="advanced", seat_a="human", seat_b="human")
    gid = game.rsplit("/", 1)[1]
    app_games: PlayGames = c.app.state.play  # type: ignore[attr-defined]
    session = app_games.get(gid)
    assert session.hides_anything()  # the advanced game's cloaks: views may differ
    state = c.get(f"{game}/state").json()
    side = state["side"]
    seen = {s["id"] for s in state["ships"]}
    assert seen == {s.id for s in session.view(side).own_ships()} | {
        s.id for s in session.view(side).enemies()
    }
    # play on (random legal orders, from each side's own view) until the other side decides:
    # hot-seat with something that can be hidden shows the 'pass the device' screen first
    captains = {s: RandomCaptain(Dice(i)) for i, s in enumerate("AB")}
    for _ in range(50):
        d = session.decision
        assert d is not None
        order = captains[d.side].decide(session.view(d.side), d)
        answer = _order(c, game, csrf, str(order))
        assert answer.status_code == 200, answer.text
        if answer.json()["side"] != side:
            assert answer.json()["pass_to"] == answer.json()["side"]
            break
    else:
        pytest.fail("the other side never decided")
