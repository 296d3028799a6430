"""The browser test kit: what every test in tests/e2e that drives Debian's chromium shares.

The devices' screen sizes, chromium's switches (no sandbox, headless, nothing asked of the
internet), a free loopback port, the app served by uvicorn in a thread, polling, and `Device`,
a browser context that records the page's errors and every request. The fixtures built on
them (`browser`, `shots`, `store`, `server`) are in tests/e2e/conftest.py.

A module that drives the browser marks itself `pytestmark = [needs_browser, ...]`: skipped,
with the reason, where /usr/bin/chromium is missing; the `browser` fixture skips where the
playwright package is missing. Screenshots go to KOLRAMI_SCREENSHOTS (a folder) when it is
set, else to the test's temporary folder.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: the narrowest phone the site is made for (a small Android's 360 CSS px)
SMALL_PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
#: an upright 10-inch tablet
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 860}}
WALL = {"viewport": {"width": 1920, "height": 1080}}

needs_browser = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(app: Any) -> Iterator[str]:
    """The app served by uvicorn on a loopback port in a thread: yields its base URL once it
    has started, and stops it when resumed (`yield from serve(app)` in a fixture)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def until(check: Callable[[], Any], what: str, seconds: float = 30) -> None:
    """Poll `check` (the pages' policy allows no eval, so no wait_for_function)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def tab(browser: Any, width: int = 1400, height: int = 900) -> Any:
    """A new page whose `errors` collect its script errors."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def open_replay(page: Any, path: Path) -> Any:
    """Open a replay file on a page, once the replay says it is ready."""
    page.goto(path.as_uri())
    page.wait_for_function("window.kolramiReplay && window.kolramiReplay.ready")
    return page


class Device:
    """A browser context (laptop, tablet or phone) that records errors and every request."""

    def __init__(self, browser: Any, base: str, shots: Path, name: str, **kwargs: Any) -> None:
        self.context = browser.new_context(**kwargs)
        self.page = self.context.new_page()
        self.base = base
        self.shots = shots
        self.name = name
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("request", lambda r: self.requests.append(r.url))

    def go(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def shot(self, label: str) -> Path:
        path = self.shots / f"{self.name}-{label}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def text(self) -> str:
        body: str = self.page.inner_text("body")
        return body


def log_in(page: Any, base: str, password: str, username: str = "mara") -> None:
    """Log in on the organizer's login page and wait for the dashboard."""
    page.goto(f"{base}/login")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("button[type=submit]")
    page.wait_for_url("**/org")


def start_play(page: Any, base: str, seed: int = 3, turns: int = 2) -> None:
    """Start a /play game, side A the human on this page and side B the aggressive AI."""
    page.goto(base + "/play")
    page.select_option("select[name=seat_b]", "aggressive")
    page.fill("input[name=turns]", str(turns))
    page.fill("input[name=seed]", str(seed))
    page.click("#start")
    page.wait_for_url("**/play/*")


def refuse(page: Any, server: str, order: str, rule: str) -> None:
    """Give /play an order the rules refuse: its clause is named and linked (the link opens),
    and the battle is untouched (no order more)."""
    before = page.get_attribute("#play", "data-orders")
    page.fill("#order", order)
    page.click("#send")
    page.wait_for_selector("#refusal-text")
    assert rule in page.inner_text("#refusal-text")
    link = page.get_attribute("#refusal a.rule", "href")
    assert link is not None
    assert page.request.get(server + link).ok
    assert page.get_attribute("#play", "data-orders") == before


def board_ready(page: Any) -> None:
    """Wait for /play's board: drawn, and no order on its way."""
    until(
        lambda: (
            page.get_attribute("#play", "data-orders") is not None
            and page.get_attribute("#play", "data-busy") != "yes"
        ),
        "the board",
    )
