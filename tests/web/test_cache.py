"""The pages are built from what the app keeps in memory of each event, checked against the
event's revision in the database on every request: a write by the CLI (another process), by
another Store or by the app itself shows on the very next page, never a stale one."""

from __future__ import annotations

import random
import re
import subprocess
import sys

from fastapi import FastAPI
from fastapi.testclient import TestClient

from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer


def standings_table(page: str) -> str:
    found = re.search(r'<table class="standings">.*?</table>', page, re.S)
    assert found, "no standings on the page"
    return found.group(0)


def row_of(page: str, player: str) -> list[str]:
    """The cells of a player's standings row."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", standings_table(page), re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        if player in cells or f"{player} (provisional)" in cells:  # one side's result only
            return cells
    raise AssertionError(f"{player} is not in the standings")


def started(app: FastAPI) -> tuple[Desk, int, Store, str]:
    desk = organizer(app)
    eid = new_event(desk, players=6)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    store: Store = app.state.web.store
    return desk, eid, store, store.event_name(eid)


def test_a_write_by_another_store_shows_on_the_next_page(app: FastAPI, db: str) -> None:
    desk, eid, store, name = started(app)
    g = next(g for g in store.games(name, 1) if g["b"])
    before = desk.client.get(f"/events/{eid}/standings").text
    assert row_of(before, g["a"])[3:5] == ["0", "0"]  # BP, FP
    assert desk.client.get(f"/events/{eid}/standings").text == before  # kept, same page

    other = Store(db)  # another process on the same file
    other.record_result(name, 1, g["a"], True, 120)
    after = desk.client.get(f"/events/{eid}/standings").text
    assert row_of(after, g["a"])[3:5] == ["2", "120"]
    assert row_of(after, g["b"])[3] == "1"


def test_a_result_entered_with_the_cli_shows_on_the_next_page(app: FastAPI, db: str) -> None:
    desk, eid, store, name = started(app)
    g = next(g for g in store.games(name, 1) if g["b"])
    desk.client.get(f"/events/{eid}/standings")
    round_page = desk.client.get(f"/org/events/{eid}/rounds/1").text
    version = re.search(
        rf'id="table-{g["table"]}".*?name="version" value="(\d+)"', round_page, re.S
    )
    assert version is not None
    cli = [sys.executable, "-c", "from kolrami.cli import run; run()"]
    args = ["tournament", "result", "1", g["b"], "--fp", "77", "--anyway", "--event", name]
    done = subprocess.run(
        [*cli, *args, "--db", db],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert row_of(desk.client.get(f"/events/{eid}/standings").text, g["b"])[3:5] == ["2", "77"]
    # the organizer's tablet, still holding the old page, is told rather than obeyed
    stale = desk.post(
        f"/org/events/{eid}/rounds/1/tables/{g['table']}",
        {"winner": g["a"], "fp_a": "0", "fp_b": "0", "version": version.group(1)},
    )
    assert stale.status_code == 409
    fresh = re.search(rf'id="table-{g["table"]}".*?name="version" value="(\d+)"', stale.text, re.S)
    assert fresh is not None
    assert int(fresh.group(1)) > int(version.group(1))


def test_the_pages_always_match_a_fresh_app(app: FastAPI, db: str) -> None:
    """Writes by the app and by another Store, in a random order, each followed by reads: the
    long-running app's pages equal those of an app started afresh on the same file (which
    keeps nothing yet)."""
    desk, eid, store, name = started(app)
    other = Store(db)
    rng = random.Random(8)
    tables = [g for g in store.games(name, 1) if g["b"]]
    for step in range(12):
        g = rng.choice(tables)
        winner = rng.choice([g["a"], g["b"]])
        low, high = sorted((rng.randrange(0, 40), rng.randrange(0, 40)))
        loser = g["b"] if winner == g["a"] else g["a"]
        points = {winner: high, loser: low}  # the winner has more Fleet Points (PP-22)
        if step % 2:
            other.record_game(name, 1, g["table"], winner, points, "cli")
        else:
            version = next(x for x in store.games(name, 1) if x["table"] == g["table"])["version"]
            sent = desk.post(
                f"/org/events/{eid}/rounds/1/tables/{g['table']}",
                {
                    "winner": winner,
                    "fp_a": str(points[g["a"]]),
                    "fp_b": str(points[g["b"]]),
                    "version": str(version),
                    "accept": "yes",
                },
            )
            assert sent.status_code == 303, sent.text
        with TestClient(create_app(db)) as fresh:
            for path in (f"/events/{eid}/standings", f"/events/{eid}", f"/events/{eid}/rounds/1"):
                kept_page = desk.client.get(path).text
                fresh_page = fresh.get(path).text
                assert strip_session(kept_page) == strip_session(fresh_page), path


def strip_session(page: str) -> str:
    """A page without what belongs to the session (CSRF token, the organizer's header)."""
    page = re.sub(r'"X-CSRF-Token": "[^"]*"', "", page)
    page = re.sub(r"<header.*?</header>", "", page, flags=re.S)
    return re.sub(r'<a href="/org/events/\d+">Organize</a>', "", page)
