"""The bad-input suite (issue 16): one corpus of bad input through every CLI command that takes a
file or a value, and through every POST route of the web app.

The promise it checks: bad input is one line naming the problem (exit code 2 on the CLI, a 4xx
with the message on the web), never a traceback, an "internal error" or a 500, and it changes
nothing stored (the database's contents are compared before and after, and no file appears).
Input that is fine (a player called "<b>x</b>" may register) may succeed: then it must not
break a page either.

The commands and routes are found from the app itself (Typer's command tree, FastAPI's routes),
so a new command or route is in the suite without being listed here; only the valid baseline of
each comes from the table below. The counts are printed (pytest -s) and must show no failure.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import re
import shutil
import sqlite3
import sys
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

import kolrami.cli.web as cli_web
from cli_tree import leaf_commands
from kolrami.cli import main
from kolrami.fleet import load_fleet
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.fleetx import to_fleetx
from kolrami.tournament.store import Store
from kolrami.web import create_app
from web_helpers import Desk
from web_helpers import new_event
from web_helpers import organizer
from web_helpers import possible_points

# --- the corpus ------------------------------------------------------------------------------

#: Values typed on a command line or into a form field.
TEXT: dict[str, str] = {
    "empty": "",
    "unicode digits": "\u00b2",
    "arabic-indic digits": "\u0663",
    "fullwidth digits": "\uff11\uff12",
    "negative": "-1",
    "overflow": "9" * 30,
    "control characters": "Ann\x07\x1b[31m\tx",
    "look-alike name": "\u0410nn\u200b",  # Cyrillic A, zero-width space
    "HTML": "<script>alert(1)</script>",
    "replay placeholder": "{{SCRIPT}}",
    "too long for a file name": "a" * 300,
    "huge": "x" * 100_000,
}
#: Form fields also meet a NUL, which no command line can carry.
FORM_ONLY: dict[str, str] = {"NUL": "a\x00b"}


def placeholder_fleet() -> dict[str, Any]:
    doc = to_fleetx(load_fleet("presets:klingon-strike"))
    doc["name"] = "{{SCRIPT}}"
    return doc


#: Files a command is pointed at (by path); None is a folder.
FILES: dict[str, bytes | None] = {
    "non-UTF-8 file": b'{"name": "Caf\xe9", "ships": [{"id": "reliant"}]}',
    "UTF-16 file": '{"name": "x", "ships": [{"id": "reliant"}]}'.encode("utf-16"),
    "empty file": b"",
    "folder": None,
    "huge file": b" " * (3 * 1024 * 1024),
    "deeply nested JSON": b"[" * 50_000,
    "fleet named {{SCRIPT}}": json.dumps(placeholder_fleet()).encode(),
}

# --- the CLI ---------------------------------------------------------------------------------

#: Parameters that name a file or something read from one: they get the files as well.
FILE_PARAMS = {
    "source", "fleet", "fleet_a", "fleet_b", "fleets", "more", "scenario", "log", "from_file",
    "db", "out", "html", "pdf", "report", "tracks", "replay", "plot",
}  # fmt: skip
#: Exit code 1 is an answer, not an error, for these: not legal, not identical, not achievable.
ANSWERS_WITH_1 = {"fleet validate", "replay", "peak check"}

#: A valid, quick value for the parameters of each command (the rest keep their defaults). The
#: suite changes one parameter at a time to each input of the corpus.
BASE: dict[str, dict[str, str]] = {
    "ship": {"name": "reliant"},
    "schema": {"model": "fleet"},
    "odds": {"weapon": "phaser", "strength": "5", "shots": "2", "shields": "12"},
    "battle": {"turns": "1", "seed": "1"},
    "replay": {"log": "{files}/battle.jsonl"},
    "card": {"card_id": "torga"},
    "assess": {"classes": "reliant,sting", "battles": "2", "workers": "1", "turns": "1"},
    "serve": {"port": "8765", "db": "{run}/event.db"},
    "peak check": {"fleet": "presets:klingon-strike", "points": "10"},
    "fleet validate": {"source": "presets:klingon-strike"},
    "fleet show": {"source": "presets:klingon-strike"},
    "fleet sheet": {"source": "presets:klingon-strike", "html": "{run}/sheet.html"},
    "fleet export": {"source": "presets:klingon-strike"},
    "fleet import": {"source": "presets:klingon-strike"},
    "fleet new": {"out": "{run}/new.json"},
    "tournament new": {"name": "Winter", "db": "{run}/event.db"},
    "tournament pair": {"db": "{run}/event.db"},
    "tournament result": {"round_number": "1", "player": "P0", "fp": "10", "db": "{run}/event.db"},
    "tournament verify": {
        "round_number": "1", "player": "P0", "initials": "PX", "db": "{run}/event.db"
    },
    "tournament rolloff": {"db": "{run}/event.db"},
    "tournament standings": {"db": "{run}/event.db"},
    "tournament sheet": {"html": "{run}/sheets.html", "db": "{run}/event.db"},
    "tournament export": {"db": "{run}/event.db"},
    "tournament import": {"source": "{files}/event.json", "db": "{run}/event.db"},
    "tournament simulate": {"players": "2", "rounds": "1"},
    "tournament player add": {"name": "Zed", "fleet": "klingon-strike", "db": "{run}/event.db"},
    "tournament player drop": {"name": "P3", "db": "{run}/event.db"},
    "tournament pairings": {"db": "{run}/event.db"},
    "tournament slips": {"out": "{run}/slips.html", "db": "{run}/event.db"},
    "tournament swap": {"first": "P0", "second": "P1", "db": "{run}/event.db"},
    "tournament cancel-round": {"db": "{run}/event.db"},
    "tournament player rename": {"name": "P0", "new_name": "Pat", "db": "{run}/event.db"},
    "tournament player remove": {"name": "P0", "db": "{run}/event.db"},
    "tournament player fleet": {
        "name": "P0", "fleet": "presets:klingon-strike", "db": "{run}/event.db"
    },
    "tournament player undrop": {"name": "P3", "db": "{run}/event.db"},
}  # fmt: skip
#: The answers `fleet new` reads from its prompt in every run.
PROMPT_ANSWERS = "Mine\nreliant\n1\n" + "\n" * 10


@dataclass(slots=True)
class Tally:
    """What the suite ran and what broke its promise."""

    commands: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)
    inputs: set[str] = field(default_factory=set)
    runs: int = 0
    refused: int = 0
    failures: list[str] = field(default_factory=list)


def value_params(cmd: Any) -> list[Any]:
    """The parameters of a command that take a value (flags and --help take none)."""
    return [p for p in cmd.params if p.name != "help" and not getattr(p, "is_flag", False)]


def argv(name: str, cmd: Any, values: dict[str, str]) -> list[str]:
    out = name.split()
    for p in cmd.params:
        if p.name not in values:
            continue
        if p.param_type_name == "argument":
            out.append(values[p.name])
        else:
            out += [p.opts[0], values[p.name]]
    return out


def dump(db: Path) -> list[str]:
    """The database's contents as SQL (read through SQLite, so its write-ahead log counts)."""
    if not db.exists():
        return []
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return list(conn.iterdump())


def listing(folder: Path) -> set[str]:
    """The files in a run's folder, but SQLite's own companions of a store it opened (its
    write-ahead log and shared memory: the store's contents are compared by `dump`)."""
    return {
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if not p.name.endswith(("-wal", "-shm"))
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus's files, a battle log, an event export and a template store."""
    folder = tmp_path_factory.mktemp("corpus")
    for name, data in FILES.items():
        path = folder / name.replace(" ", "-")
        if data is None:
            path.mkdir()
        else:
            path.write_bytes(data)
    assert (
        main(["battle", "--seed", "2", "--turns", "2", "--log", str(folder / "battle.jsonl")]) == 0
    )
    db = folder / "template.db"
    store = Store(str(db))
    store.create_event("Cup", "2026-11-30", 300, "peak-performance", 3, 60, 1, ("Admiral",))
    for i, preset in enumerate(
        ("klingon-strike", "federation-fleet", "klingon-raiders", "federation-venture")
    ):
        store.add_player("Cup", f"P{i}", load_fleet(f"presets:{preset}"))
    store.pair_next_round("Cup")
    (folder / "event.json").write_text(json.dumps(store.export("Cup"), default=str))
    store.engine.dispose()
    return folder


def file_inputs(files: Path) -> dict[str, str]:
    return {name: str(files / name.replace(" ", "-")) for name in FILES}


def run_cli(
    name: str,
    args: list[str],
    run: Path,
    capsys: pytest.CaptureFixture[str],
    tally: Tally,
    what: str,
) -> None:
    db = run / "event.db"
    before, files_before = dump(db), listing(run)
    sys.stdin = io.StringIO(PROMPT_ANSWERS)
    try:
        code = main(args)
    finally:
        sys.stdin = sys.__stdin__
    out = capsys.readouterr()
    tally.runs += 1
    problem = None
    shown = out.err.strip().splitlines()
    if "internal error" in out.err or "Traceback" in out.err + out.out:
        problem = f"internal error: {out.err.strip()[:300]}"
    elif code == 2:
        tally.refused += 1
        if len(shown) != 1 or not shown[0].startswith("kolrami: error: "):
            problem = f"not one line: {out.err[:300]!r}"
        elif dump(db) != before:
            problem = "refused, but the database changed"
        elif listing(run) != files_before:
            problem = f"refused, but files appeared: {listing(run) - files_before}"
    elif code == 1 and name not in ANSWERS_WITH_1:
        problem = f"exit code 1: {out.err.strip()[:300]}"
    elif code not in (0, 1, 2):
        problem = f"exit code {code}: {out.err.strip()[:300]}"
    if problem:
        tally.failures.append(f"kolrami {name} [{what}]: {problem}")


def test_every_command_keeps_the_promise_on_bad_input(
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    full: bool,
) -> None:
    """Every command and every parameter that takes a value. In `make test` a parameter meets a
    quarter of the corpus, in turn (so every input meets a quarter of the parameters);
    `pytest --full` runs every input against every parameter."""
    monkeypatch.setattr(cli_web, "run_server", lambda *a, **k: None)  # serve: no server
    monkeypatch.chdir(tmp_path)
    tally = Tally()
    inputs = {**TEXT}
    for name, cmd in leaf_commands():
        params = value_params(cmd)
        if not params:
            continue
        tally.commands.add(name)
        base = BASE.get(name, {})
        for param in params:
            tally.params.add(f"{name} {param.name}")
            corpus = dict(inputs)
            if param.name in FILE_PARAMS:
                corpus |= file_inputs(files)
            for index, (what, value) in enumerate(corpus.items()):
                if not full and (index + len(tally.params)) % 4:
                    continue
                tally.inputs.add(what)
                run = tmp_path / f"run-{tally.runs}"
                run.mkdir()
                shutil.copy(files / "template.db", run / "event.db")
                values = {
                    k: v.format(run=run, files=files) for k, v in base.items() if k != param.name
                }
                values[param.name] = value
                monkeypatch.chdir(run)  # relative outputs land in the run's folder
                run_cli(name, argv(name, cmd, values), run, capsys, tally, f"{param.name}: {what}")
                monkeypatch.chdir(tmp_path)
                shutil.rmtree(run, ignore_errors=True)
            gc.collect()  # the stores the runs opened, and their connections
    with capsys.disabled():
        print(
            f"\nbad-input suite, CLI: {len(tally.commands)} commands, {len(tally.params)} "
            f"parameters, {len(tally.inputs)} inputs, {tally.runs} runs ({tally.refused} "
            f"refused), {len(tally.failures)} failures"
        )
    assert tally.failures == [], "\n".join(tally.failures)


# --- the web app -----------------------------------------------------------------------------

#: Form fields of the routes that read the form themselves (FastAPI cannot list them).
FORM_FIELDS: dict[str, list[str]] = {
    "/org/events/{eid}/rolloff": ["how", "roll_P0", "roll_P1"],
    "/org/events/{eid}/players/build": [
        "name", "email", "fleet_name", "rows", "ship_0_class", "ship_0_squadron",
        "ship_0_captain", "ship_0_admiral", "ship_0_upgrades", "resource", "action",
    ],
}  # fmt: skip
#: Routes that work without an organizer's session, and the one that ends it.
PUBLIC = ("/events/", "/login", "/setup", "/logout")


@dataclass(slots=True)
class Site:
    """The app with one event in round 1, an organizer's session and what the forms need."""

    app: FastAPI
    db: Path
    desk: Desk
    eid: int
    table: dict[str, str]  # a and b of table 1, with their PINs
    good: dict[str, str] = field(default_factory=dict)
    by_route: dict[str, dict[str, str]] = field(default_factory=dict)  # overrides of `good`


def post_routes(app: FastAPI) -> list[tuple[str, list[str], list[str]]]:
    """(path, form fields, path parameters) of every POST route of the app."""
    found = []
    for included in app.routes:
        candidates = getattr(included, "effective_candidates", None)
        routes: list[Any] = candidates() if callable(candidates) else [included]
        for route in routes:  # an APIRoute, or (FastAPI 0.16x) the context of one
            if "POST" not in (getattr(route, "methods", None) or ()):
                continue
            path = str(route.path)
            fields = [f.name for f in route.dependant.body_params]
            fields += FORM_FIELDS.get(path, [])
            params = [
                p for p in ("eid", "number", "table", "rid", "pid", "gid") if f"{{{p}}}" in path
            ]
            found.append((path, fields or ["anything"], params))
    assert len(found) >= 15, "the app's routes were not found: has FastAPI's router changed?"
    return found


def make_site(tmp_path: Path) -> Site:
    db = tmp_path / "store.db"
    app = create_app(Store(str(db)), own_hosts=("testserver",))
    desk = organizer(app)
    eid = new_event(desk, "November", players=4)
    assert desk.post(f"/org/events/{eid}/pair").status_code == 303
    store: Store = app.state.web.store
    game = store.state("November").rounds[0][0]
    assert game.b is not None
    table = {"a": game.a, "b": game.b, "pin": desk.pins[game.a]}
    good = {
        "player": game.a, "winner": game.a, "fp_a": "120", "fp_b": "80", "pin": table["pin"],
        "action": "confirm", "note": "", "username": "lee", "password": "counter-2026",
        "again": "counter-2026", "next": "/org", "name": "Zed", "date": "2026-12-01",
        "sp_limit": "300", "scenario": "peak-performance", "rounds": "3", "minutes": "60",
        "titles": "Admiral", "email": "zed@example.org",
        "fleet": share_string(load_fleet("presets:klingon-strike")), "fleet_name": "Typed",
        "rows": "6", "ship_0_class": "reliant", "ship_0_squadron": "1", "version": "",
        "accept": "", "how": "entered", "roll_P0": "3", "roll_P1": "2",
        "eid": str(eid), "number": "1", "table": "1", "rid": "1", "pid": "1",
    }  # fmt: skip
    reported = desk.client.post(
        f"/events/{eid}/rounds/1/tables/1/report",
        data={
            **{k: good[k] for k in ("player", "winner", "fp_a", "fp_b", "pin")},
            "csrf_token": desk.csrf,
        },
        follow_redirects=False,
    )
    assert reported.status_code == 303, reported.text
    good["rid"] = str(store.reports("November")[0]["id"])
    # a game of /play (issue 20), for its routes' game id
    started = desk.post("/play", {"turns": "1", "seed": "1"})
    assert started.status_code == 303, started.text
    good["gid"] = started.headers["location"].rsplit("/", 1)[1]
    version = str(store.snapshot(eid).rounds[0][1].get("version", 0))
    other = store.state("November").rounds[0][1]  # table 2: the organizer enters its result
    assert other.b is not None
    scored = str(possible_points(store.fleets("November")[other.b], 10))
    table_2 = {"table": "2", "winner": other.a, "fp_a": scored, "fp_b": "0", "version": version}
    by_route = {
        "/events/{eid}/reports/{rid}": {"pin": desk.pins[game.b]},
        "/org/events/{eid}/players/build": {"action": "register", "name": "Yan"},
        "/org/events/{eid}/rounds/{number}/tables/{table}": {**table_2, "accept": "yes"},
        "/org/events/{eid}/rounds/{number}/tables/{table}/ai": table_2,
    }  # fmt: skip
    return Site(app, db, desk, eid, table, good, by_route)


def test_every_post_route_keeps_the_promise_on_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path)
    routes = post_routes(site.app)
    corpus = {**TEXT, **FORM_ONLY}
    uploads = {name: data for name, data in FILES.items() if data is not None}
    failures: list[str] = []
    runs = refused = 0
    inputs: set[str] = set()
    anonymous = TestClient(site.app)
    anonymous.get("/login")
    for path, fields, params in sorted(routes, key=lambda r: r[0] == "/logout"):
        public = path.startswith(PUBLIC)
        client = anonymous if public else site.desk.client
        for name in [*fields, *params]:
            values: dict[str, str | tuple[str, bytes]] = dict(corpus.items())
            if name == "upload":
                values = {k: (k, v) for k, v in uploads.items()}
            for what, value in values.items():
                inputs.add(what)
                good = {**site.good, **site.by_route.get(path, {})}
                form = {f: good.get(f, "") for f in fields if f not in ("upload", name)}
                where = {p: good[p] for p in params}
                files = None
                if name == "upload":
                    assert isinstance(value, tuple)
                    files = {"upload": value}
                elif name in params:
                    assert isinstance(value, str)
                    if len(value) > 2000:
                        continue  # no client sends a URL that long (servers answer 414)
                    where[name] = value
                else:
                    assert isinstance(value, str)
                    form[name] = value
                url = path.format(**{p: quote(v, safe="") for p, v in where.items()})
                csrf = _token(client) if public else site.desk.csrf
                before = dump(site.db)
                response = client.post(
                    url,
                    data={**form, "csrf_token": csrf or ""},
                    files=files,
                    follow_redirects=False,
                )
                runs += 1
                status = response.status_code
                problem = None
                if status >= 500:
                    problem = f"{status}: {response.text[:200]}"
                elif 400 <= status < 500:
                    refused += 1
                    if not response.text.strip():
                        problem = f"{status} without a message"
                    elif dump(site.db) != before:
                        problem = f"{status}, but the database changed"
                if problem:
                    failures.append(f"POST {path} [{name}: {what}]: {problem}")
    for page in (
        "/",
        f"/events/{site.eid}",
        f"/org/events/{site.eid}",
        f"/org/events/{site.eid}/print/sheets",
        f"/org/events/{site.eid}/print/sheets.pdf",
        f"/org/events/{site.eid}/print/rounds/1/slips",
    ):
        status = site.desk.client.get(page).status_code
        if status >= 500:
            failures.append(f"GET {page} after the suite: {status}")
    with capsys.disabled():
        print(
            f"\nbad-input suite, web: {len(routes)} POST routes, {len(inputs)} inputs, {runs} "
            f"requests ({refused} refused), {len(failures)} failures"
        )
    assert failures == [], "\n".join(failures)


def _token(client: TestClient) -> str:
    """The session's CSRF token, read off a page anyone may see."""
    page = client.get("/login")
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    return found.group(1) if found else ""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return make_site(tmp_path_factory.mktemp("site"))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.text(max_size=250), points=st.text(max_size=12), email=st.text(max_size=40))
def test_any_text_in_the_registration_and_report_forms(
    site: Site, name: str, points: str, email: str
) -> None:
    """Hypothesis's text (any code point, surrogates aside) in the fields a person types in:
    a page or a 4xx, and a refusal stores nothing."""
    desk, fleet = site.desk, site.good["fleet"]
    for url, form in (
        (f"/org/events/{site.eid}/players", {"name": name, "email": email, "fleet": fleet}),
        (f"/events/{site.eid}/rounds/1/tables/1/report", {
            "player": site.table["a"], "winner": site.table["a"], "fp_a": points, "fp_b": "0",
            "pin": site.table["pin"],
        }),
    ):  # fmt: skip
        before = dump(site.db)
        response = desk.post(url, form)
        assert response.status_code < 500, response.text[:300]
        if response.status_code >= 400:
            assert dump(site.db) == before
