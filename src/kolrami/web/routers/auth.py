"""Organizer accounts: the first one is made on /setup (open only while the store has none),
more by a logged-in organizer; logging in and out. Wrong passwords are counted per user name
and per device."""

from __future__ import annotations

import functools
import secrets
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from kolrami.errors import InvalidInputError
from kolrami.web.deps import (
    OrganizerDep,
    client_key,
    current_organizer,
    render,
    safe_next,
    web,
)
from kolrami.web.security import MIN_PASSWORD, hash_secret, new_token, verify_secret

router = APIRouter(tags=["accounts"])
SETUP_ELSEWHERE = (
    "the first account is made only at this server's own address: open /setup on the computer "
    "that runs kolrami serve (http://localhost:PORT/setup)"
)


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
    request.session["org"] = organizer_id
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
def login_page(request: Request, next: str = "/org") -> Response:
    """The login form (or /setup while the store has no organizer yet)."""
    if web(request).store.organizer_count() == 0:
        return RedirectResponse("/setup", status_code=303)
    return render(request, "login.html.j2", {"next": safe_next(next), "errors": {}})


@router.post("/login", response_model=None)
def login(
    request: Request,
    username: Annotated[str, Form(max_length=80)] = "",
    password: Annotated[str, Form(max_length=200)] = "",
    next: Annotated[str, Form(max_length=500)] = "/org",
) -> Response:
    """Check the password; on success a new session with the organizer in it."""
    w = web(request)
    keys = (f"user:{username.strip()}", f"client:{client_key(request)}")
    wait = max(w.logins.wait_seconds(k) for k in keys)
    ctx: dict[str, Any] = {"next": safe_next(next), "username": username}
    if wait:
        minutes = (wait + 59) // 60
        ctx["errors"] = {"password": f"too many wrong passwords: try again in {minutes} minute(s)"}
        return render(request, "login.html.j2", ctx, status_code=429)
    found = w.store.organizer(username)
    # an unknown user name costs the same hash check as a wrong password: the answer's time
    # does not tell which user names exist
    if not verify_secret(found[1] if found else _decoy_hash(), password) or found is None:
        w.logins.failed(*keys)
        ctx["errors"] = {"password": "wrong user name or password"}
        return render(request, "login.html.j2", ctx, status_code=400)
    w.logins.succeeded(keys[0])
    _log_in(request, found[0])
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/logout")
def logout(request: Request) -> RedirectResponse:
    """Forget the session."""
    request.session.clear()
    return RedirectResponse("/", status_code=303)


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
    password: Annotated[str, Form(max_length=200)] = "",
    again: Annotated[str, Form(max_length=200)] = "",
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
    password: Annotated[str, Form(max_length=200)] = "",
    again: Annotated[str, Form(max_length=200)] = "",
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
