"""`kolrami serve` (issue 16): TLS with --certfile/--keyfile (both or neither, checked before the
server starts), the session cookie Secure over it, and a real server process under test; a
database Kolrami cannot use (newer, damaged, read-only) is one line and exit 2, for serve and the
tournament commands alike."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store
from kolrami.web.security import hash_secret
from web_helpers import FLEETS
from web_helpers import PASSWORD

runner = CliRunner()


def _kolrami(*args: str) -> list[str]:
    return [sys.executable, "-c", "from kolrami.cli import run; run()", *args]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _certificate(folder: Path, name: str = "cert") -> tuple[Path, Path]:
    """A self-signed certificate for localhost and its key, made by Debian's openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = folder / f"{name}.pem", folder / f"{name}-key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.mark.parametrize("given", ["--certfile", "--keyfile"])
def test_one_of_certfile_and_keyfile_is_refused(tmp_path: Path, given: str) -> None:
    db = tmp_path / "k.db"
    result = runner.invoke(app, ["serve", "--db", str(db), given, str(tmp_path / "x.pem")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "needs" in lines[0]
    assert not db.exists()  # refused before anything was opened


def test_a_key_that_is_not_the_certificates_is_refused(tmp_path: Path) -> None:
    cert, _ = _certificate(tmp_path, "one")
    _, other_key = _certificate(tmp_path, "two")
    result = runner.invoke(
        app,
        [
            "serve",
            "--db",
            str(tmp_path / "k.db"),
            "--certfile",
            str(cert),
            "--keyfile",
            str(other_key),
        ],
    )
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "TLS cannot use them" in result.output
    missing = runner.invoke(
        app, ["serve", "--certfile", str(tmp_path / "none.pem"), "--keyfile", str(other_key)]
    )
    assert missing.exit_code == 2
    assert "no such file" in missing.output


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    cert, key = _certificate(tmp_path)
    port = _free_port()
    proc = subprocess.Popen(
        _kolrami(
            *("serve", "--db", str(tmp_path / "k.db"), "--port", str(port)),
            *("--certfile", str(cert), "--keyfile", str(key)),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"https://localhost:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(url + "/", verify=False, timeout=1)
            break
        except httpx.HTTPError:
            assert proc.poll() is None, proc.communicate()[0]
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
    try:
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_over_tls_with_a_secure_cookie(tls_server: tuple[str, subprocess.Popen[str]]) -> None:
    url, _ = tls_server
    page = httpx.get(url + "/setup", verify=False, timeout=5)
    assert page.status_code == 200
    cookie = page.headers["set-cookie"].lower()
    assert "; secure" in cookie
    assert "httponly" in cookie
    with pytest.raises(httpx.HTTPError):  # plain http is not answered on the TLS port
        httpx.get(url.replace("https", "http") + "/", timeout=2).raise_for_status()


def _newer(folder: Path) -> Path:
    path = folder / "newer.db"
    Store(str(path)).engine.dispose()
    with sqlite3.connect(path) as c:
        c.execute("UPDATE alembic_version SET version_num = '0099'")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["serve", "--port", "8999"],
        ["tournament", "standings"],
        ["tournament", "player", "add", "Ann", "--fleet", "presets:klingon-strike"],
    ],
)
def test_a_database_kolrami_cannot_use_is_one_line_and_exit_2(
    tmp_path: Path, command: list[str]
) -> None:
    notes = tmp_path / "notes.db"
    notes.write_bytes(b"not a database\n" * 400)
    for db, expected in (
        (_newer(tmp_path), "was made by a newer Kolrami"),
        (notes, "is not a SQLite database"),
    ):
        result = runner.invoke(app, [*command, "--db", str(db)])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, lines
        assert str(db) in lines[0]
        assert expected in lines[0]


def test_a_read_only_database_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "night.db"
    assert runner.invoke(app, ["tournament", "new", "Night", "--db", str(path)]).exit_code == 0
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    add = ["tournament", "player", "add", "Ann", "--fleet", "presets:klingon-strike"]
    result = runner.invoke(app, [*add, "--db", url])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "read-only here, so nothing was saved" in result.output
    assert Store(str(path)).players("Night") == []


def _big_event(path: Path, players: int) -> int:
    """An event of `players` players run by mara (password PASSWORD), round 1 paired."""
    store = Store(str(path))
    mara = store.create_organizer("mara", hash_secret(PASSWORD))
    store.create_event("Big", seed=3)
    fleets = [load_fleet(f"presets:{name}") for name in FLEETS]
    for i in range(players):
        store.add_player("Big", f"Player {i:04d}", fleets[i % len(fleets)])
    store.adopt_event("Big", mara, "organizer mara")
    store.pair_next_round("Big")
    store.engine.dispose()
    return store.event_id("Big")


@pytest.mark.slow
def test_sigterm_stops_the_server_while_a_long_page_is_made(tmp_path: Path) -> None:
    """The PDF of 100 build sheets takes half a minute; SIGTERM a second into it: the server
    cancels the answer after SHUTDOWN_SECONDS and exits, rather than finishing the page first
    (which is what it did: 60 s and more for a big event, until kill -9)."""
    db = tmp_path / "big.db"
    eid = _big_event(db, 100)
    port = _free_port()
    proc = subprocess.Popen(
        _kolrami("serve", "--db", str(db), "--port", str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        client = httpx.Client(base_url=base, timeout=120)
        deadline = time.monotonic() + 30
        while True:
            try:
                page = client.get("/login")
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.communicate()[0]
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert csrf is not None
        login = {"username": "mara", "password": PASSWORD, "csrf_token": csrf.group(1)}
        assert client.post("/login", data=login).status_code == 303
        answers: list[int | str] = []

        def fetch() -> None:
            try:
                answers.append(client.get(f"/org/events/{eid}/print/sheets.pdf").status_code)
            except httpx.HTTPError as exc:
                answers.append(type(exc).__name__)

        waiting = threading.Thread(target=fetch)
        waiting.start()
        time.sleep(1.5)  # the PDF is being made
        asked = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
        stopped = time.monotonic() - asked
        waiting.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode is not None
    assert answers, output
    assert answers[0] != 200, (answers, output)  # cancelled, not finished first
    assert stopped < 25, output  # SHUTDOWN_SECONDS and the time to wind down; not 30 s or more
    assert "Traceback" not in output  # the cancelled answer is one line of uvicorn's
