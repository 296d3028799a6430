"""The app factory: `create_app(store_url)` builds the FastAPI app on a tournament store.

The store is the only implementation of pairing and scoring; the routers read it and call it.
Nothing is fetched from the internet: htmx and the stylesheet are served from static/.
"""

from __future__ import annotations

import re
import socket
import sqlite3
import tempfile
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import Depends
from fastapi import FastAPI
from fastapi import HTTPException
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment
from jinja2 import FileSystemLoader
from markupsafe import Markup
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from kolrami import __version__
from kolrami.errors import KolramiError
from kolrami.fleet.legality import faction_notes
from kolrami.tournament.store import SESSION_LIFETIME
from kolrami.tournament.store import ConflictError
from kolrami.tournament.store import Store
from kolrami.tournament.store import StoreBusyError
from kolrami.tournament.store import StoreUnavailableError
from kolrami.tournament.store import store_problem
from kolrami.web import live
from kolrami.web.assets import Assets
from kolrami.web.deps import LoginRequiredError
from kolrami.web.deps import Web
from kolrami.web.deps import bounded_numbers
from kolrami.web.deps import csrf_guard
from kolrami.web.deps import csrf_token
from kolrami.web.deps import login_url
from kolrami.web.deps import render
from kolrami.web.deps import request_unit
from kolrami.web.routers import auth
from kolrami.web.routers import builder
from kolrami.web.routers import edits
from kolrami.web.routers import joining
from kolrami.web.routers import organizer
from kolrami.web.routers import play
from kolrami.web.routers import players
from kolrami.web.routers import public
from kolrami.web.routers import report
from kolrami.web.routers import rounds
from kolrami.web.routers import timer
from kolrami.web.routers import week
from kolrami.web.security import Throttle
from kolrami.web.views import EventView

HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "kolrami_session"
SESSION_HOURS = int(SESSION_LIFETIME.total_seconds() // 3600)

#: Pages are ours alone: scripts only from this server; styles may be inline (the printable
#: sheets carry theirs). The replay page, one self-contained file, sets its own policy.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)


class SecurityHeaders:
    """Adds the security headers to every response that does not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for key, value in (
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"same-origin"),
                    (b"cache-control", b"no-store"),
                ):
                    if key not in present:
                        headers.append((key, value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, sending)


def create_app(
    store: Store | str | None = None,
    *,
    https_only: bool = False,
    own_hosts: Iterable[str] = (),
    play_dir: Path | None = None,
    public_url: str | None = None,
    listen_host: str | None = None,
    play_limits: play.PlayLimits | None = None,
) -> FastAPI:
    """The web app on a store (a Store, a database URL or path, or the default ./kolrami.db).

    `own_hosts` adds to the names this server answers /setup on (localhost, its loopback
    addresses and the machine's own names always). `https_only`: served over TLS, the session
    cookie is Secure. `play_dir`: where the games of /play keep their logs (by default beside
    the database file, `<db>.play/`, or in the system's temporary folder). `public_url`: the
    address players' phones open (the join address and its QR code); by default the machine's
    address on its network (network.py). `listen_host`: the address the server listens on, so
    that a join address phones cannot reach says so. `play_limits`: who may use /play and what
    it may keep (play.PlayLimits; kolrami serve's --play options)."""
    the_store = store if isinstance(store, Store) else Store(store)
    # autoescape everything: the templates end in .j2, which select_autoescape would not escape
    # auto_reload off: the templates are part of the installed package and do not change under
    # a running server, so they are not looked at on disk again for every page
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"), autoescape=True, auto_reload=False
    )
    templates = Jinja2Templates(env=env)
    templates.env.globals["version"] = __version__
    assets = Assets(HERE / "static")
    templates.env.globals["static"] = assets.url
    templates.env.globals["kept"] = _keeper(env)
    templates.env.globals["once_each"] = _once_each(env)
    templates.env.globals["faction_notes"] = faction_notes  # a mixed fleet, as the CLI says
    live.install(env, the_store, public_url, listen_host)
    app = FastAPI(
        title="Kolrami",
        version=__version__,
        # the request's unit of work first: every store call after it joins it
        dependencies=[
            Depends(bounded_numbers),
            Depends(request_unit, scope="function"),
            Depends(csrf_guard),
        ],
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.web = Web(
        the_store,
        templates,
        # a phone passed round a table takes several players' PINs: more free tries per device
        Throttle(account_free=3, device_free=6),
        Throttle(account_free=3, device_free=5),
        local_names(own_hosts),
    )
    app.add_middleware(
        SessionMiddleware,
        secret_key=the_store.secret("session-key"),
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_HOURS * 3600,
        same_site="lax",
        https_only=https_only,
    )
    app.add_middleware(SecurityHeaders)
    app.mount("/static", assets, name="static")
    app.state.join_limit = joining.join_limit()
    app.state.play = play.PlayGames(
        play_dir or _play_dir(the_store), play_limits or play.PlayLimits()
    )
    for module in (
        public,
        report,
        play,
        builder,
        auth,
        organizer,
        players,
        rounds,
        edits,
        timer,
        joining,
        week,
    ):
        app.include_router(module.router)

    _add_error_pages(app, the_store)

    return app


def _add_error_pages(app: FastAPI, the_store: Store) -> None:
    """Every refusal as a page (or, for htmx, one line in the form's message area) with its
    status: 401 login ended, 404, 409 conflict, 422 incomplete form, 400 bad input, 503 the
    database busy or unusable."""

    @app.exception_handler(LoginRequiredError)
    async def _login(request: Request, exc: LoginRequiredError) -> Response:
        if request.headers.get("hx-request") == "true":
            if _message_area(request) is None:  # htmx with nowhere to say it: the login page
                return Response(status_code=401, headers={"HX-Redirect": login_url(exc.path)})
            # a form on the screen (a table card): say so there and keep what was typed
            back = request.headers.get("hx-current-url") or exc.path
            line = Markup(
                "your login has ended (logged out, or {hours} hours since the password): "
                '<a href="{url}" target="_blank" rel="noopener">log in again</a> in a new tab, '
                "then send this again"
            ).format(hours=SESSION_HOURS, url=login_url(urlsplit(back).path or exc.path))
            return _error_line(request, 401, line)
        return RedirectResponse(login_url(exc.path), status_code=303)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> HTMLResponse:
        message = exc.detail if isinstance(exc.detail, str) else "something went wrong"
        if exc.status_code == 404 and message == "Not Found":
            message = "there is no such page here"
        return _error_page(request, exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> HTMLResponse:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e.get('loc', ())[1:]) or 'request'}: {e.get('msg', '')}"
            for e in exc.errors()
        )
        return _error_page(request, 422, f"the form is not complete: {problems}")

    @app.exception_handler(ConflictError)
    async def _conflict(request: Request, exc: ConflictError) -> HTMLResponse:
        return _error_page(request, 409, str(exc))

    @app.exception_handler(KolramiError)
    async def _kolrami(request: Request, exc: KolramiError) -> HTMLResponse:
        return _error_page(request, 400, str(exc))

    @app.exception_handler(StoreUnavailableError)
    async def _unavailable(request: Request, exc: StoreUnavailableError) -> HTMLResponse:
        # the database read-only or damaged: not the sender's fault, and nothing was saved
        return _error_page(request, 503, str(exc))

    async def _busy(request: Request, exc: Exception) -> HTMLResponse:
        # A database error that got past the store's transaction (which turns them into typed
        # errors itself): told by its kind, not its text. Busy (SQLite's busy timeout,
        # PostgreSQL's lock_timeout): nothing is half-saved, send it again. Others stay 500s.
        problem = store_problem(the_store.url, exc)
        if not isinstance(problem, StoreBusyError):
            raise exc
        return _error_page(request, 503, str(problem))

    app.add_exception_handler(OperationalError, _busy)
    app.add_exception_handler(sqlite3.OperationalError, _busy)


def local_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names that mean this server: loopback, the machine's names and addresses."""
    names = {"localhost", "127.0.0.1", "::1"}
    try:
        host = socket.gethostname()
        names |= {host, f"{host}.local", socket.getfqdn()}
        names |= {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError:  # no name service on an offline laptop: loopback still works
        pass
    names |= {h.strip("[]") for h in extra if h and h not in ("0.0.0.0", "::")}
    return frozenset(n.lower() for n in names)


def _keeper(env: Environment) -> Callable[..., Markup]:
    """The templates' `kept(ev, macro, *args)`: a macro of _macros.html.j2 that depends only on
    the event (standings, pairings), rendered once for each view of the event and kept with it.
    The view lives exactly as long as the event's revision, so the fragment is never older than
    the database. Its arguments after `ev` are plain values (round numbers), part of the key."""

    def kept(ev: EventView, macro: str, *args: Hashable) -> Markup:
        key = ("fragment", macro, *args)
        html = ev.memo.get(key)
        if not isinstance(html, Markup):
            html = Markup(getattr(env.get_template("_macros.html.j2").module, macro)(ev, *args))
            ev.memo[key] = html  # two requests may both render it: the same text either way
        return html

    return kept


#: How many rendered rows once_each keeps (then it starts afresh): far more than the rows an
#: event's pages show at one time, a few megabytes at most.
ONCE_LIMIT = 20_000


def _once_each(
    env: Environment, limit: int = ONCE_LIMIT
) -> Callable[[str, Iterable[tuple[Hashable, ...]]], Markup]:
    """The templates' `once_each(macro, rows)`: a macro of _macros.html.j2 called with each
    tuple of `rows` as its arguments, the results joined. The macro sees nothing but its
    arguments (plain, hashable values), so its text is a function of them: each distinct row is
    rendered once and kept, whichever event, revision or page it comes from. A result moves a
    few rows of the standings; the others are found here instead of being rendered again."""
    done: dict[tuple[Hashable, ...], Markup] = {}

    def once_each(macro: str, rows: Iterable[tuple[Hashable, ...]]) -> Markup:
        make = None
        out = []
        for row in rows:
            key = (macro, *row)
            html = done.get(key)
            if html is None:
                if make is None:
                    make = getattr(env.get_template("_macros.html.j2").module, macro)
                html = Markup(make(*row))
                if len(done) >= limit:
                    done.clear()
                done[key] = html  # two requests may both render it: the same text either way
            out.append(html)
        return Markup("".join(out))  # each is Markup: safe already, nothing to escape

    return once_each


def _error_page(request: Request, status: int, message: str) -> HTMLResponse:
    if request.headers.get("hx-request") == "true":
        return _error_line(request, status, message)
    titles = {
        400: "That did not work",
        403: "Refused",
        404: "Not found",
        409: "Changed by someone else",
        422: "Something is missing",
        429: "Too many tries",
        503: "Busy",
    }
    return render(
        request,
        "error.html.j2",
        {"status": status, "title": titles.get(status, "Error"), "message": message},
        status_code=status,
    )


#: An element id htmx names in HX-Target ("article#table-3"): plain, so it can go into a
#: selector and a header as it is.
_TARGET_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,80}")


def _message_area(request: Request) -> str | None:
    """Where an htmx request's refusal goes: the element `ID-message` of the request's target
    `#ID` (a table card's message line); None when the target has no id."""
    ident = request.headers.get("hx-target", "").partition("#")[2]
    return f"#{ident}-message" if _TARGET_ID.fullmatch(ident) else None


def _error_line(request: Request, status: int, message: str) -> HTMLResponse:
    """A refusal of an htmx request (busy, session ended, form expired, not found ...): one
    line into the target's message area, never the whole error page in place of the target,
    so the form and what was typed in it stay on the screen. The session's CSRF token goes
    with it (X-CSRF-Token; static/kolrami.js takes it), so the kept form can be sent again."""
    area = _message_area(request)
    line = Markup('<span class="error" role="alert">{}</span>').format(message)
    headers = {"X-CSRF-Token": csrf_token(request)}
    if area is None:
        headers["HX-Reswap"] = "none"
    else:
        headers |= {"HX-Retarget": area, "HX-Reswap": "innerHTML"}
    return HTMLResponse(str(line), status_code=status, headers=headers)


__all__ = ["HTTPException", "create_app"]


def _play_dir(store: Store) -> Path:
    """Where /play keeps its games when the app is not told: beside a SQLite file, else in the
    temporary folder (a game is its log; the folder is made at the first game)."""
    url = str(store.url)
    if url.startswith("sqlite:///") and ":memory:" not in url:
        return Path(url.removeprefix("sqlite:///")).with_suffix(".play")
    return Path(tempfile.gettempdir()) / "kolrami-play"
