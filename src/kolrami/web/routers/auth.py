"""Organizer accounts: the first one is made on /setup (open only while the store has none),
more by a logged-in organizer; logging in and out; the organizer's own account (password,
logins, removal). Wrong passwords slow the device that gives them down (security.Throttle)."""

from __future__ import annotations

import functools
import secrets
from typing import Annotated
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter
from fastapi import Form
from fastapi import HTTPException
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.errors import InvalidInputError
from kolrami.tournament.store import SESSION_LIFETIME
from kolrami.web.deps import SESSION_KEY
from kolrami.web.deps import Line
from kolrami.web.deps import Organizer
from kolrami.web.deps import OrganizerDep
from kolrami.web.deps import client_key
from kolrami.web.deps import current_organizer
from kolrami.web.deps import render
from kolrami.web.deps import safe_next
from kolrami.web.deps import session_token
from kolrami.web.deps import web
from kolrami.web.security import MIN_PASSWORD
from kolrami.web.security import hash_secret
from kolrami.web.security import new_token
from kolrami.web.security import verify_secret
from kolrami.web.security import wait_text

router = APIRouter(tags=["accounts"])
SETUP_ELSEWHERE = (
    "the first account is made only at this server's own address: open /setup on the computer "
    "that runs kolrami serve (http://localhost:PORT/setup)"
)


#: What the login page says after an account's sessions ended (by ?done=).
DONE = {
    "ended": "Logged out everywhere: every browser and tablet must log in again.",
    "removed": "The account is removed; its events wait for another organizer to take them over.",
}


@functools.cache
def _decoy_hash() -> str:
    """A hash of a random password, checked for unknown user names."""
    return hash_secret(secrets.token_urlsafe(16))


def _own_host(request: Request) -> bool:
    """The request is addressed to one of this server's own host names (not a page that points
    a name of its own at this address: DNS rebinding)."""
    host = urlsplit(f"//{request.headers.get('host', '')}").hostname or ""
    return host.lower() in web(request).own_hosts


def _log_in(request: Request, organizer_id: int) -> None:
    request.session.clear()  # a fresh session: nothing carried over from before the login
    request.session[SESSION_KEY] = web(request).store.start_web_session(organizer_id)
    request.session["csrf"] = new_token()


def _account_errors(username: str, password: str, again: str) -> dict[str, str]:
    errors = {}
    if not username.strip():
        errors["username"] = "choose a user name"
    if len(password) < MIN_PASSWORD:
        errors["password"] = f"at least {MIN_PASSWORD} characters"
    elif password != again:
        errors["again"] = "the two passwords differ"
    return errors


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/org", done: str = "") -> Response:
    """The login form (or /setup while the store has no organizer yet)."""
    if web(request).store.organizer_count() == 0:
        return RedirectResponse("/setup", status_code=303)
    ctx = {"next": safe_next(next), "errors": {}, "notice": DONE.get(done, "")}
    return render(request, "login.html.j2", ctx)


@router.post("/login", response_model=None)
def login(
    request: Request,
    username: Annotated[str, Form(max_length=80)] = "",
    password: Line = "",
    next: Annotated[str, Form(max_length=500)] = "/org",
) -> Response:
    """Check the password; on success a new session with the organizer in it."""
    w = web(request)
    account, device = f"user:{username.strip()}", client_key(request)
    ctx: dict[str, Any] = {"next": safe_next(next), "username": username}
    wait = w.logins.wait_seconds(device)
    if wait:
        return _too_many(request, "login.html.j2", ctx, "password", wait)
    found = w.store.organizer(username)
    # an unknown user name costs the same hash check as a wrong password: the answer's time
    # does not tell which user names exist
    if not verify_secret(found[1] if found else _decoy_hash(), password) or found is None:
        w.logins.failed(account, device)
        ctx["errors"] = {"password": "wrong user name or password"}
        return render(request, "login.html.j2", ctx, status_code=400)
    w.logins.succeeded(device)
    _log_in(request, found[0])
    return RedirectResponse(safe_next(next), status_code=303)


def _too_many(
    request: Request, template: str, ctx: dict[str, Any], field: str, wait: int
) -> HTMLResponse:
    """429 to a device that gave too many wrong passwords, with Retry-After: it waits; the
    account is not locked (the right password from another device logs in)."""
    ctx["errors"] = {
        field: f"too many wrong passwords from this device: try again in {wait_text(wait)}"
    }
    response = render(request, template, ctx, status_code=429)
    response.headers["Retry-After"] = str(wait)
    return response


@router.post("/logout")
def logout(request: Request) -> RedirectResponse:
    """End the session in the store (a copy of the cookie stops working too) and forget it."""
    token = session_token(request)
    if token is not None:
        web(request).store.end_web_session(token)
    request.session.clear()
    return RedirectResponse("/", status_code=303)


def _account_page(
    request: Request,
    org: Organizer,
    errors: dict[str, str] | None = None,
    notice: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    ctx = {**_account_context(request, org), "errors": errors or {}, "notice": notice}
    return render(request, "org_account.html.j2", ctx, status_code=status_code)


def _account_context(request: Request, org: Organizer) -> dict[str, Any]:
    store = web(request).store
    return {
        "errors": {},
        "notice": "",
        "sessions": store.web_sessions(org.id),
        "alone": store.organizer_count() == 1,
        "lifetime_hours": int(SESSION_LIFETIME.total_seconds() // 3600),
    }


@router.get("/org/account", response_class=HTMLResponse)
def account_page(org: OrganizerDep, request: Request) -> HTMLResponse:
    """The organizer's own account: change the password, log out everywhere, remove it."""
    return _account_page(request, org)


@router.post("/org/account/password", response_model=None)
def change_password(
    org: OrganizerDep, request: Request, current: Line = "", password: Line = "", again: Line = ""
) -> Response:
    """A new password, given the current one; every other session of the account ends."""
    problem = _check_current(request, org, current)
    if problem is not None:
        return problem
    errors = _account_errors(org.name, password, again)
    if errors:
        return _account_page(request, org, errors, status_code=400)
    web(request).store.set_password_hash(org.id, hash_secret(password))
    _log_in(request, org.id)  # the old sessions ended with the old password; this one goes on
    return _account_page(
        request,
        org,
        notice="Password changed. Every other browser logged in to this account is logged out.",
    )


@router.post("/org/account/sessions/end", response_model=None)
def log_out_everywhere(org: OrganizerDep, request: Request) -> Response:
    """End every session of the account, this one too (a lost tablet, a shared computer)."""
    web(request).store.end_web_sessions(org.id)
    request.session.clear()
    return RedirectResponse("/login?done=ended", status_code=303)


@router.post("/org/account/remove", response_model=None)
def remove_account(org: OrganizerDep, request: Request, current: Line = "") -> Response:
    """Remove one's own account (never the store's last one), given its password."""
    problem = _check_current(request, org, current, field="remove")
    if problem is not None:
        return problem
    try:
        web(request).store.remove_organizer(org.id)
    except InvalidInputError as exc:
        return _account_page(request, org, {"remove": str(exc)}, status_code=400)
    request.session.clear()
    return RedirectResponse("/login?done=removed", status_code=303)


def _check_current(
    request: Request, org: Organizer, current: str, field: str = "current"
) -> Response | None:
    """None when `current` is the account's password; else the account page saying so (a
    wrong one is counted like a wrong password at the login)."""
    w = web(request)
    account, device = f"user:{org.name}", client_key(request)
    wait = w.logins.wait_seconds(device)
    if wait:
        return _too_many(
            request, "org_account.html.j2", _account_context(request, org), field, wait
        )
    found = w.store.organizer(org.name)
    if found is None or not verify_secret(found[1], current):
        w.logins.failed(account, device)
        return _account_page(
            request, org, {field: "that is not this account's password"}, status_code=400
        )
    w.logins.succeeded(device)
    return None


@router.get("/setup", response_class=HTMLResponse)
def setup_page(request: Request) -> HTMLResponse:
    """Make the first organizer account (only while there is none)."""
    if not _own_host(request):
        raise HTTPException(403, SETUP_ELSEWHERE)
    if web(request).store.organizer_count() > 0:
        raise HTTPException(404, "this store has organizers already: log in")
    return render(request, "account.html.j2", {"first": True, "errors": {}, "values": {}})


@router.post("/setup", response_model=None)
def setup(
    request: Request,
    username: Annotated[str, Form(max_length=80)] = "",
    password: Line = "",
    again: Line = "",
) -> Response:
    """The first organizer account; he is logged in at once."""
    store = web(request).store
    if not _own_host(request):
        raise HTTPException(403, SETUP_ELSEWHERE)
    if store.organizer_count() > 0:
        raise HTTPException(404, "this store has organizers already: log in")
    errors = _account_errors(username, password, again)
    if not errors:
        try:
            made = store.create_first_organizer(username, hash_secret(password))
        except InvalidInputError as exc:
            errors["username"] = str(exc)
        else:
            if made is None:  # another set-up won the race
                raise HTTPException(404, "this store has organizers already: log in")
            _log_in(request, made)
            return RedirectResponse("/org", status_code=303)
    ctx = {"first": True, "errors": errors, "values": {"username": username}}
    return render(request, "account.html.j2", ctx, status_code=400)


@router.get("/org/organizers", response_class=HTMLResponse)
def organizers_page(org: OrganizerDep, request: Request) -> HTMLResponse:
    """Add an organizer account (a helper with a tablet, another store event)."""
    return render(request, "account.html.j2", {"first": False, "errors": {}, "values": {}})


@router.post("/org/organizers", response_model=None)
def add_organizer(
    org: OrganizerDep,
    request: Request,
    username: Annotated[str, Form(max_length=80)] = "",
    password: Line = "",
    again: Line = "",
) -> Response:
    """A new organizer account; it sees only the events it creates or takes over."""
    errors = _account_errors(username, password, again)
    if not errors:
        try:
            web(request).store.create_organizer(username, hash_secret(password))
            return render(
                request,
                "account.html.j2",
                {"first": False, "errors": {}, "values": {}, "made": username.strip()},
            )
        except InvalidInputError as exc:
            errors["username"] = str(exc)
    ctx = {"first": False, "errors": errors, "values": {"username": username}}
    return render(request, "account.html.j2", ctx, status_code=400)


__all__ = ["current_organizer", "router"]
