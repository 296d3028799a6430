"""Players join from their phones: the join page (the address and QR code on the sheets, the
slips and the organizer's screen lead here), and, when the organizer has opened the event to
it, a form where a player sends his name and fleet (a share string, FleetX JSON or a FleetX
file). The request waits for the organizer, who approves it (the player is registered with
every check of the counter's own registration, and his PIN shown once) or refuses it."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter
from fastapi import Form
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import EventSettings
from kolrami.web.deps import EventRef
from kolrami.web.deps import OrganizerDep
from kolrami.web.deps import OwnedEvent
from kolrami.web.deps import PlayerEntryForm
from kolrami.web.deps import PublicEvent
from kolrami.web.deps import ShownPin
from kolrami.web.deps import Word
from kolrami.web.deps import client_key
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import FleetForm
from kolrami.web.forms import check
from kolrami.web.routers.organizer import event_page_ctx
from kolrami.web.security import RateLimit
from kolrami.web.security import hash_pin
from kolrami.web.security import new_pin
from kolrami.web.security import wait_text
from kolrami.web.views import event_view

router = APIRouter(tags=["joining"])


#: requests to join a device may send: 6 at once, then 3 a minute (a typo fixed, a fleet
#: corrected), so one phone cannot fill an event's queue (MAX_PENDING) for the others
JOIN_PER_MINUTE, JOIN_BURST = 3, 6


def join_limit() -> RateLimit:
    """The limit on requests to join, per device (the app keeps one: app.state.join_limit)."""
    return RateLimit(JOIN_PER_MINUTE, JOIN_BURST)


def _join_page(
    request: Request,
    ev: EventRef,
    errors: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    form: FleetForm | None = None,
    status_code: int = 200,
    sent: str | None = None,
) -> HTMLResponse:
    store = web(request).store
    view = event_view(store, ev.id, ev.name, with_tables=False)
    return render(
        request,
        "join.html.j2",
        {
            "ev": view,
            "public": store.public_settings(ev.name),
            "errors": errors or {},
            "values": values or {},
            "form": form,
            "sent": sent if sent is not None else request.query_params.get("sent", "")[:120],
        },
        status_code=status_code,
    )


@router.get("/events/{eid}/join", response_class=HTMLResponse)
def join_page(ev: PublicEvent, request: Request) -> HTMLResponse:
    """Where a player's phone lands: the event's pages and, when open, the registration."""
    return _join_page(request, ev)


@router.post("/events/{eid}/join", response_model=None)
async def ask_to_join(ev: PublicEvent, request: Request, entry: PlayerEntryForm) -> Response:
    """A player asks to join with his fleet; it waits for the organizer. A fleet that cannot
    be read is refused here; one that is not legal is kept, with its problems shown to the
    player and the organizer (who cannot approve it as it is), and the player may send a
    corrected one, which takes its place."""
    values, form, name, email = entry.values, entry.form, entry.name, entry.email
    wait = request.app.state.join_limit.take(client_key(request))
    if wait:  # one phone cannot fill the queue: a few requests a minute a device
        return _join_page(
            request,
            ev,
            {"form": f"too many requests from this device: wait {wait_text(wait)} and send again"},
            values,
            status_code=429,
        )
    store = web(request).store
    s = store.settings(ev.name)
    check(form, EventSettings(s["sp_limit"], s["faction_surcharge"]), None)
    errors: dict[str, str] = {}
    if not name.strip():
        errors["name"] = "your name, as the standings should show it"
    if form.fleet is None:
        found = "; ".join(m for messages in form.errors.values() for m in messages)
        errors["fleet"] = found or "paste your fleet's share string (KF1-...) or choose a file"
    if errors or form.fleet is None:
        return _join_page(request, ev, errors, values, form, status_code=400)
    try:
        store.request_join(ev.name, name, form.fleet, email)
    except InvalidInputError as exc:
        key = exc.field if exc.field in ("name", "email") else "form"
        return _join_page(request, ev, {key: str(exc)}, values, form, status_code=400)
    if form.errors:  # kept, but the organizer cannot approve it as it is: say why now
        problems = "; ".join(m for messages in form.errors.values() for m in messages)
        return _join_page(request, ev, {"legal": problems}, values, form, sent=name.strip())
    return RedirectResponse(
        f"/events/{ev.id}/join?sent={quote(name.strip()[:120])}", status_code=303
    )


@router.post("/org/events/{eid}/join-settings", response_model=None)
def join_settings(
    ev: OwnedEvent,
    org: OrganizerDep,
    request: Request,
    venue: Annotated[str, Form(max_length=300)] = "",
    self_registration: Word = "",
) -> Response:
    """The event's venue, and whether players may ask to join from their phones."""
    try:
        web(request).store.set_public_settings(ev.name, venue, self_registration == "on", org.who)
    except InvalidInputError as exc:
        ctx = event_page_ctx(request, ev, errors={"joining": str(exc)})
        return render(request, "org_event.html.j2", ctx, status_code=400)
    return RedirectResponse(f"/org/events/{ev.id}#joining", status_code=303)


@router.post("/org/events/{eid}/join-requests/{rid}/approve", response_model=None)
def approve(ev: OwnedEvent, org: OrganizerDep, rid: int, request: Request) -> Response:
    """Register the player who asked (the same checks as at the counter); his PIN is shown
    once, as after any registration. A refusal is one line (400) and registers nobody."""
    pin = new_pin()
    try:
        name = web(request).store.approve_join(ev.name, rid, hash_pin(pin), org.who)
    except InvalidInputError as exc:
        ctx = event_page_ctx(request, ev, errors={"joining": str(exc)})
        return render(request, "org_event.html.j2", ctx, status_code=400)
    token = web(request).keep_pin(ShownPin(org.id, ev.id, name, pin, again=False))
    return RedirectResponse(f"/org/events/{ev.id}/pins/{token}", status_code=303)


@router.post("/org/events/{eid}/join-requests/{rid}/refuse", response_model=None)
def refuse(ev: OwnedEvent, org: OrganizerDep, rid: int, request: Request) -> Response:
    """Turn a request down: the player is not registered."""
    try:
        web(request).store.refuse_join(ev.name, rid, org.who)
    except InvalidInputError as exc:
        ctx = event_page_ctx(request, ev, errors={"joining": str(exc)})
        return render(request, "org_event.html.j2", ctx, status_code=400)
    return RedirectResponse(f"/org/events/{ev.id}#joining", status_code=303)


@router.post("/org/events/{eid}/join-requests/refuse-all", response_model=None)
def refuse_all(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Response:
    """Turn every waiting request down at once (a flood of them, or the doors closing)."""
    web(request).store.refuse_all_joins(ev.name, org.who)
    return RedirectResponse(f"/org/events/{ev.id}#joining", status_code=303)
