"""The web app under load on loopback: 50 clients for 20 s read the event page, a static file
and the standings, and post results.

The server runs in its own process (uvicorn as `kolrami serve` runs it: one worker, no access
log, httptools and uvloop; a SQLite store in a temporary folder) on 127.0.0.1; the clients are
asyncio tasks in this process. Each client reads the public standings and enters its own
table's result as the organizer would (with the version its page showed; a 409 for a stale
version is the app working, counted apart from errors). Each entry changes the result (the
winner alternates), so every post is a real write that changes the standings. The request loop
is bounded in time and stops by itself; the server is stopped at the end.

The organizer logs in with httpx, as a browser would. The timed loop uses a small HTTP/1.1
client of its own, one keep-alive connection per client, opened before the clock starts: httpx
costs about a millisecond of CPU a request, and on a 2-core machine a load generator that busy
takes CPU from the server it measures and adds its own queueing to every latency.
KOLRAMI_BENCH_WEB_SECONDS sets the duration.

Issue 44's targets are read off one run: a result report's p95 at most 2x the event page's p95
(`report_vs_event_p95`), and the static route's p50 at most the event page's
(`static_vs_event_p50`).
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

CLIENTS = 50
SECONDS = float(os.environ.get("KOLRAMI_BENCH_WEB_SECONDS", "20"))
PASSWORD = "bench-password"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _prepare(db: str) -> int:
    """An event with 100 players and round 1 paired (50 tables), and an organizer account."""
    from kolrami.fleet import load_fleet
    from kolrami.fleet.model import preset_names
    from kolrami.tournament.store import Store
    from kolrami.web.security import hash_secret

    store = Store(db)
    owner = store.create_organizer("bench", hash_secret(PASSWORD))
    store.create_event("Load test", seed=1, owner=owner)
    fleets = [load_fleet(f"presets:{p}") for p in preset_names()]
    for i in range(2 * CLIENTS):
        store.add_player("Load test", f"Player {i:03d}", fleets[i % len(fleets)])
    store.pair_next_round("Load test")
    return store.event_id("Load test")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _Connection:
    """One keep-alive HTTP/1.1 connection: a request, then its whole response."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, head: str):
        self.reader, self.writer, self.head = reader, writer, head

    @classmethod
    async def open(cls, host: str, port: int, cookies: dict[str, str]) -> _Connection:
        reader, writer = await asyncio.open_connection(host, port)
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        return cls(reader, writer, f"Host: {host}:{port}\r\nCookie: {cookie}\r\n")

    async def request(self, method: str, path: str, form: dict[str, str] | None = None) -> int:
        """Send a request, read the response; returns the status (the body is in self.body)."""
        body = urlencode(form).encode() if form is not None else b""
        extra = (
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
            if form is not None
            else ""
        )
        self.writer.write(f"{method} {path} HTTP/1.1\r\n{self.head}{extra}\r\n".encode() + body)
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        lines = head.split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {
            k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)
        }
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                parts.append(await self.reader.readexactly(size))
                await self.reader.readline()
            await self.reader.readline()
            self.body = b"".join(parts)
        else:
            self.body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status

    def close(self) -> None:
        self.writer.close()


async def _run(base: str, eid: int) -> dict[str, Any]:
    import httpx

    reads: list[float] = []
    writes: list[float] = []
    event_pages: list[float] = []
    statics: list[float] = []
    counts = {"errors": 0, "conflicts": 0}
    async with httpx.AsyncClient(base_url=base, timeout=30) as login:
        page = await login.get("/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token is not None
        done = await login.post(
            "/login",
            data={"username": "bench", "password": PASSWORD, "csrf_token": token.group(1)},
        )
        assert done.status_code == 303, done.text
        cookies = dict(login.cookies)
        page = await login.get("/org")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token is not None
        csrf = token.group(1)
        round_page = (await login.get(f"/org/events/{eid}/rounds/1")).text
        public = (await login.get(f"/events/{eid}")).text
    stylesheet = re.search(r'href="(/static/kolrami\.[0-9a-f]+\.css)"', public)
    assert stylesheet is not None, "the event page links no hashed stylesheet"
    static = stylesheet.group(1)
    versus = r'<p class="versus">([^<]+) <span class="v">v</span> ([^<]+)</p>'
    names = re.findall(versus, round_page)
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connections = [await _Connection.open(host, int(port), cookies) for _ in range(CLIENTS)]
    stop = time.perf_counter() + SECONDS

    async def client(n: int) -> None:
        table = n + 1
        a, b = names[n]
        version = 1
        winner = a
        http = connections[n]
        while time.perf_counter() < stop:
            try:
                start = time.perf_counter()
                got = await http.request("GET", f"/events/{eid}")
                event_pages.append(time.perf_counter() - start)
                start = time.perf_counter()
                got_static = await http.request("GET", static)
                statics.append(time.perf_counter() - start)
                if got != 200 or got_static != 200:
                    counts["errors"] += 1
                start = time.perf_counter()
                got = await http.request("GET", f"/events/{eid}/standings")
                reads.append(time.perf_counter() - start)
                if got != 200:
                    counts["errors"] += 1
                start = time.perf_counter()
                sent = await http.request(
                    "POST",
                    f"/org/events/{eid}/rounds/1/tables/{table}",
                    {
                        "winner": winner,
                        "fp_a": "0",
                        "fp_b": "0",
                        "version": str(version),
                        "csrf_token": csrf,
                    },
                )
                writes.append(time.perf_counter() - start)
            except (OSError, ValueError, asyncio.IncompleteReadError):
                counts["errors"] += 1
                http.close()
                http = await _Connection.open(host, int(port), cookies)
                continue
            if sent == 303:
                version += 1
                winner = b if winner == a else a
            elif sent == 409:
                counts["conflicts"] += 1
                fresh = re.search(
                    rf'id="table-{table}".*?name="version" value="(\d+)"',
                    http.body.decode(),
                    re.S,
                )
                version = int(fresh.group(1)) if fresh else version + 1
            else:
                counts["errors"] += 1
        http.close()

    began = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(CLIENTS)))
    seconds = time.perf_counter() - began
    every = reads + writes + event_pages + statics

    def ms(values: list[float], q: float) -> float:
        return round(_percentile(values, q) * 1000, 1)

    return {
        "clients": CLIENTS,
        "seconds": round(seconds, 1),
        "requests": len(every),
        "requests_per_second": round(len(every) / seconds, 1),
        "errors": counts["errors"],
        "stale_version_conflicts": counts["conflicts"],
        "p50_ms": ms(every, 0.50),
        "p95_ms": ms(every, 0.95),
        "standings_p50_ms": ms(reads, 0.50),
        "standings_p95_ms": ms(reads, 0.95),
        "post_result_p50_ms": ms(writes, 0.50),
        "post_result_p95_ms": ms(writes, 0.95),
        "event_page_p50_ms": ms(event_pages, 0.50),
        "event_page_p95_ms": ms(event_pages, 0.95),
        "static_p50_ms": ms(statics, 0.50),
        "static_p95_ms": ms(statics, 0.95),
        # issue 44's targets: at most 2 and at most 1
        "report_vs_event_p95": _ratio(ms(writes, 0.95), ms(event_pages, 0.95)),
        "static_vs_event_p50": _ratio(ms(statics, 0.50), ms(event_pages, 0.50)),
        "mean_ms": round(statistics.fmean(every) * 1000, 1) if every else 0.0,
    }


def _ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else 0.0


def web_figures() -> dict[str, Any]:
    """Latency of the web app under 50 concurrent clients (target: p95 under 100 ms)."""
    folder = tempfile.mkdtemp(prefix="kolrami-bench-web-")
    db = str(Path(folder) / "store.db")
    eid = _prepare(db)
    port = _free_port()
    code = (
        "from kolrami.cli.web import run_server; from kolrami.web import create_app; "
        f"run_server(create_app({db!r}), '127.0.0.1', {port}, log_level='error')"
    )
    server = subprocess.Popen([sys.executable, "-c", code])
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the web app did not start") from None
                time.sleep(0.1)
        return asyncio.run(_run(base, eid))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    import json

    json.dump(web_figures(), sys.stdout, indent=2)
    sys.stdout.write("\n")
