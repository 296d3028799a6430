"""What every router shares: the store, the templates, who is logged in, and the guards.

`require_organizer` and `owned_event` are the doors of the organizer pages: an anonymous
request is sent to the login page, an organizer asking for another organizer's event gets 404
(the event's existence is public; nothing else of it is). `csrf_guard` runs on every request of
the app and refuses any POST without the session's token.

The doors are coroutines, and so are the busiest pages (standings, pairings, entering a result):
they run on the event loop, one after the other, because their store work is a few small SQLite
queries on a kept snapshot of the event. Run in the thread pool instead, each would pay a thread
hop, and under load dozens of threads would pass the GIL to and fro while one of them holds the
store's write lock. Pages with long work (AI battles, PDFs, checking every fleet) stay plain
functions, in the pool.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from dataclasses import field
from typing import Annotated
from typing import Any
from typing import TypeVar
from urllib.parse import quote
from urllib.parse import urlsplit

from fastapi import Depends
from fastapi import File
from fastapi import Form
from fastapi import HTTPException
from fastapi import Request
from fastapi import UploadFile
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from kolrami.errors import InvalidInputError
from kolrami.tournament.store import Store
from kolrami.tournament.store import Unit
from kolrami.web.forms import FleetForm
from kolrami.web.forms import from_text
from kolrami.web.forms import from_upload
from kolrami.web.security import Throttle
from kolrami.web.security import new_token
from kolrami.web.security import same_token

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The cookie's key for the organizer's session token (a row of web_sessions).
SESSION_KEY = "sid"


@dataclass(slots=True)
class Web:
    """The app's shared parts (on app.state.web)."""

    store: Store
    templates: Jinja2Templates
    pins: Throttle  # wrong PINs, per player and per device
    logins: Throttle  # wrong passwords, per user name and per device
    own_hosts: frozenset[str] = frozenset()  # this server's host names (first-account set-up)
    #: PINs just given, for the page the registration redirects to (post/redirect/get): by an
    #: unguessable token, for the organizer who registered, for ten minutes; only the hash is
    #: stored, so a restart loses only this page (give a new PIN from the players' table)
    shown_pins: dict[str, ShownPin] = field(default_factory=dict)

    def keep_pin(self, shown: ShownPin) -> str:
        """Keep a PIN for its page; returns the page's token. Old ones are forgotten."""
        now = time.monotonic()
        for token in [t for t, p in self.shown_pins.items() if now - p.at > PIN_PAGE_SECONDS]:
            del self.shown_pins[token]
        token = new_token()
        self.shown_pins[token] = shown
        return token

    def pin_page(self, token: str, organizer: int) -> ShownPin | None:
        """The PIN kept under `token` for this organizer, while it lasts."""
        shown = self.shown_pins.get(token)
        if shown is None or shown.organizer != organizer:
            return None
        if time.monotonic() - shown.at > PIN_PAGE_SECONDS:
            del self.shown_pins[token]
            return None
        return shown


PIN_PAGE_SECONDS = 600


@dataclass(frozen=True, slots=True)
class ShownPin:
    """A PIN just given, for its page."""

    organizer: int
    event: int
    player: str
    pin: str
    again: bool
    fleet: str = ""
    total_build: int | None = None
    at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True, slots=True)
class Organizer:
    """The organizer of this request."""

    id: int
    name: str

    @property
    def who(self) -> str:
        """How the corrections log names him."""
        return f"organizer {self.name}"


@dataclass(frozen=True, slots=True)
class EventRef:
    """An event in a URL: its id and its name (the store's key)."""

    id: int
    name: str


class LoginRequiredError(Exception):
    """An organizer page asked for without a login."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def web(request: Request) -> Web:
    """The app's shared parts."""
    found: Web = request.app.state.web
    return found


def csrf_token(request: Request) -> str:
    """The session's CSRF token (made on first use)."""
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = new_token()
        request.session["csrf"] = token
    return token


def client_key(request: Request) -> str:
    """The client's address, for attempt limits."""
    return request.client.host if request.client else "unknown"


def current_organizer(request: Request) -> Organizer | None:
    """The logged-in organizer, or None. The cookie names a session kept in the store
    (web_sessions): logged out, logged out everywhere, past its lifetime or its account
    removed, the session is gone and so is the login, whoever holds a copy of the cookie.
    Asked once per request (the answer is kept on the request)."""
    if hasattr(request.state, "organizer"):
        kept: Organizer | None = request.state.organizer
        return kept
    found: Organizer | None = None
    token = request.session.get(SESSION_KEY)
    if isinstance(token, str):
        live = web(request).store.web_session(token)
        if live is None:  # ended or expired: forget it (and its CSRF token with it)
            request.session.clear()
        else:
            found = Organizer(live[0], live[1])
    request.state.organizer = found
    return found


def session_token(request: Request) -> str | None:
    """The token of this browser's organizer session, if it has one."""
    token = request.session.get(SESSION_KEY)
    return token if isinstance(token, str) else None


async def require_organizer(request: Request) -> Organizer:
    """The logged-in organizer; anyone else is sent to the login page."""
    org = current_organizer(request)
    if org is None:
        raise LoginRequiredError(request.url.path)
    return org


OrganizerDep = Annotated[Organizer, Depends(require_organizer)]

# The form fields the routers take, named by the most characters each reads (a longer value is
# refused before the handler runs): a line (a name, a password), a word (a number, an action),
# a fleet as text (a share string, FleetX, a paper list).
Line = Annotated[str, Form(max_length=200)]
Word = Annotated[str, Form(max_length=10)]
FleetText = Annotated[str, Form(max_length=100_000)]
Email = Annotated[str, Form(max_length=300)]
#: a registered player's name, as a results or pairing form names him
PlayerName = Annotated[str, Form(max_length=200)]


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A registration form, the organizer's or a player's own from his phone: the name, the
    email, the fleet as typed, and the fleet read from it or from the uploaded file."""

    name: str
    email: str
    fleet: str
    form: FleetForm

    @property
    def values(self) -> dict[str, str]:
        """What the form shows again when it is refused."""
        return {"name": self.name, "email": self.email, "fleet": self.fleet}


async def player_entry(
    name: Line = "",
    email: Email = "",
    fleet: FleetText = "",
    upload: Annotated[UploadFile | None, File()] = None,
) -> PlayerEntry:
    """The registration form of this request; an uploaded file wins over the pasted text."""
    if upload is not None and upload.filename:
        form = from_upload(await upload.read(), upload.filename)
    else:
        form = from_text(fleet)
    return PlayerEntry(name, email, fleet, form)


PlayerEntryForm = Annotated[PlayerEntry, Depends(player_entry)]


#: The largest id a row can have (SQLite's integers are 64-bit): a larger number in a URL is
#: no event, not a number for the database to overflow on.
MAX_ID = 2**63 - 1


_NUMBER = re.compile(r"-?[0-9]+")
#: What each number in a path names, for the 404's line.
_NUMBERED = {"eid": "event", "pid": "player", "rid": "request", "number": "round"}


async def bounded_numbers(request: Request) -> None:
    """A number in a URL's path (an event, a round, a table, a player, a request) past what
    the database's integers hold names nothing here: 'not found' (404), before a route or the
    database sees it (a 30-digit table number would overflow them). Smaller ones that name
    nothing are the routes' own 404s, which say what is there."""
    for name, value in request.path_params.items():
        if isinstance(value, str) and _NUMBER.fullmatch(value) and abs(int(value)) > MAX_ID:
            what = _NUMBERED.get(name, name)
            raise HTTPException(404, f"there is no {what} {value[:24]} here: not found")


async def owned_event(eid: int, org: OrganizerDep, request: Request) -> EventRef:
    """An event the logged-in organizer runs; any other is 'not found'."""
    if not 0 < eid <= MAX_ID:
        raise HTTPException(404, "no such event among yours")
    try:
        snapshot = web(request).store.snapshot(eid)
    except InvalidInputError:
        raise HTTPException(404, f"no event #{eid} among yours") from None
    if org.id not in snapshot.organizers:
        raise HTTPException(404, f"no event #{eid} among yours")
    return EventRef(eid, snapshot.name)


OwnedEvent = Annotated[EventRef, Depends(owned_event)]


_T = TypeVar("_T")


def found(item: _T | None, message: str) -> _T:
    """`item`, or a 404 saying `message` when there is none (a player, a report by its id)."""
    if item is None:
        raise HTTPException(404, message)
    return item


@dataclass(frozen=True, slots=True)
class Counter:
    """An organizer's request about one of the events he runs: the event, the organizer, the
    request and the store (what most of the counter's routes take, as one parameter)."""

    ev: EventRef
    org: Organizer
    request: Request

    @property
    def store(self) -> Store:
        """The app's store."""
        return web(self.request).store


def counter(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Counter:
    """The event of the URL, one the logged-in organizer runs, with him."""
    return Counter(ev, org, request)


AtCounter = Annotated[Counter, Depends(counter)]


async def public_event(eid: int, request: Request) -> EventRef:
    """Any event, for the public pages."""
    if not 0 < eid <= MAX_ID:
        raise HTTPException(404, "no such event")
    head = web(request).store.event_revision(eid)
    if head is None:
        raise HTTPException(404, f"no event #{eid}")
    return EventRef(eid, head[0])


PublicEvent = Annotated[EventRef, Depends(public_event)]


async def request_unit(request: Request) -> AsyncIterator[Unit]:
    """One store session per request: every store call the request makes joins it (its
    dependencies', its route's), and its writes are one transaction, committed when the route
    has returned and before the answer is sent, so an answered write is on disk (a kill -9
    after it loses nothing); a route that raises rolls the whole request back. Opened here, in
    the request's own context (async), so the route's threads see it; used with
    scope="function", so it ends before the response goes out."""
    unit = Unit(web(request).store)
    token = unit.activate()
    try:
        yield unit
    # Finished on the event loop, not in the thread pool: under load every pool thread may be
    # waiting for the write lock this unit holds, and a commit queued behind them would never
    # run (a deadlock: 50 clients posting results, 40 threads). A commit is short.
    except BaseException:
        unit.finish(False)
        raise
    else:
        unit.finish(True)
    finally:
        unit.deactivate(token)


async def csrf_guard(request: Request) -> None:
    """Refuse a state-changing request without the session's CSRF token, or from another site."""
    if request.method not in UNSAFE:
        return
    origin = request.headers.get("origin")
    if origin and origin != "null":
        host = request.headers.get("host", "")
        if urlsplit(origin).netloc != host:
            raise HTTPException(403, "this form was sent from another site; it was refused")
    given = request.headers.get(CSRF_HEADER)
    if given is None:
        content_type = request.headers.get("content-type", "")
        if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            value = (await request.form()).get(CSRF_FIELD)
            given = value if isinstance(value, str) else None
    if not same_token(request.session.get("csrf"), given):
        if request.headers.get("hx-request") == "true":  # the answer brings the token along
            raise HTTPException(
                403,
                "this form had expired (a new login, say) and was not sent; it is renewed now: "
                "send it again",
            )
        raise HTTPException(
            403,
            "the form has expired or did not come from this site: reload the page and send it "
            "again",
        )


def render(
    request: Request,
    template: str,
    context: dict[str, Any] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """A page from a template, with what every page needs (CSRF token, who is logged in)."""
    ctx = dict(context or {})
    ctx.setdefault("organizer", current_organizer(request))
    ctx["csrf"] = csrf_token(request)
    ctx["htmx"] = request.headers.get("hx-request") == "true"
    response: HTMLResponse = web(request).templates.TemplateResponse(
        request, template, ctx, status_code=status_code
    )
    return response


def login_url(path: str) -> str:
    """The login page, coming back to `path`."""
    return "/login?next=" + quote(path, safe="/")


def safe_next(target: str | None) -> str:
    """A local path to go to after logging in (never another site)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/org"
    return target
