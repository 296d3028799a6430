"""Registering players (login required): a pasted share string or FleetX, an uploaded FleetX file,
or a fleet typed from a paper list. Each problem is shown next to its field; a legal fleet is
registered and the player's PIN shown, once. Dropping players and giving new PINs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import CardKind
from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import EventSettings
from kolrami.web.deps import EventRef
from kolrami.web.deps import FleetText
from kolrami.web.deps import OrganizerDep
from kolrami.web.deps import OwnedEvent
from kolrami.web.deps import PlayerEntryForm
from kolrami.web.deps import ShownPin
from kolrami.web.deps import found
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import START_ROWS
from kolrami.web.forms import FleetForm
from kolrami.web.forms import card_choices
from kolrami.web.forms import check
from kolrami.web.forms import field_error
from kolrami.web.forms import from_rows
from kolrami.web.forms import from_text
from kolrami.web.forms import row_count
from kolrami.web.forms import upgrade_names
from kolrami.web.routers.organizer import event_page_ctx
from kolrami.web.security import hash_pin
from kolrami.web.security import new_pin
from kolrami.web.views import event_view

router = APIRouter(prefix="/org/events/{eid}", tags=["organizer"])


def _settings(request: Request, ev: EventRef) -> EventSettings:
    s = web(request).store.settings(ev.name)
    return EventSettings(s["sp_limit"], s["faction_surcharge"])


def _player_errors(name: str, email: str) -> dict[str, str]:
    errors = {}
    if not name.strip():
        errors["name"] = "the player's name"
    elif len(name.strip()) > 120:
        errors["name"] = "at most 120 characters"
    if email and ("@" not in email or len(email) > 200):
        errors["email"] = "an email address like ann@example.org, or nothing"
    return errors


def _register(
    request: Request, ev: EventRef, org: OrganizerDep, name: str, email: str, form: FleetForm
) -> tuple[str | None, dict[str, str]]:
    """Register when everything is right: returns (the PIN, {}) or (None, problems by field)."""
    errors = _player_errors(name, email)
    for key, messages in form.errors.items():
        errors[key] = "; ".join(messages)
    if errors or form.fleet is None:
        return None, errors
    pin = new_pin()
    try:
        web(request).store.add_player(
            ev.name, name.strip(), form.fleet, email.strip(), pin_hash=hash_pin(pin), who=org.who
        )
    except InvalidInputError as exc:
        return None, field_error(exc, ("name", "email", "fleet"))
    return pin, {}


def _pin_page(
    request: Request, ev: EventRef, org: OrganizerDep, name: str, pin: str, form: FleetForm
) -> Response:
    """Post/redirect/get: the PIN is kept for its page and the browser sent there, so that a
    reload shows the PIN again instead of registering the player a second time."""
    report = form.report
    token = web(request).keep_pin(
        ShownPin(
            org.id,
            ev.id,
            name.strip(),
            pin,
            again=False,
            fleet=report.fleet.name if report else "",
            total_build=report.total_build if report else None,
        )
    )
    return RedirectResponse(f"/org/events/{ev.id}/pins/{token}", status_code=303)


@router.get("/pins/{token}", response_class=HTMLResponse)
def pin_page(ev: OwnedEvent, org: OrganizerDep, token: str, request: Request) -> HTMLResponse:
    """The PIN just given, for ten minutes to the organizer who gave it; then a new PIN from the
    players' table."""
    shown = web(request).pin_page(token, org.id)
    view = event_view(web(request).store, ev.id, ev.name, with_tables=False)
    if shown is None or shown.event != ev.id:
        return render(request, "org_pin.html.j2", {"ev": view, "gone": True}, status_code=410)
    return render(request, "org_pin.html.j2", {"ev": view, "shown": shown})


@router.post("/players", response_model=None)
async def register(
    ev: OwnedEvent, org: OrganizerDep, request: Request, entry: PlayerEntryForm
) -> Response:
    """Register a player with a pasted share string (or FleetX JSON) or an uploaded file."""
    form = check(entry.form, _settings(request, ev), None)
    pin, errors = _register(request, ev, org, entry.name, entry.email, form)
    if pin is not None:
        return _pin_page(request, ev, org, entry.name, pin, form)
    ctx = event_page_ctx(request, ev, errors=errors, values=entry.values, report=form.report)
    return render(request, "org_event.html.j2", ctx, status_code=400)


@router.post("/fleet-check", response_class=HTMLResponse)
def fleet_check(ev: OwnedEvent, request: Request, fleet: FleetText = "") -> HTMLResponse:
    """The pasted fleet's totals and problems, for the feedback beside the field (htmx)."""
    form = check(from_text(fleet), _settings(request, ev), None) if fleet.strip() else FleetForm()
    return render(
        request, "_fleet_feedback.html.j2", {"form": form, "limit": _settings(request, ev).sp_limit}
    )


def _build_ctx(
    request: Request, ev: EventRef, form: FleetForm, values: dict[str, Any], rows: int
) -> dict[str, Any]:
    view = event_view(web(request).store, ev.id, ev.name, with_tables=False)
    return {
        "ev": view,
        "form": form,
        "values": values,
        "rows": rows,
        "errors": {k: "; ".join(v) for k, v in form.errors.items()},
        "ships": builtin_pack().ships,
        "captains": card_choices(CardKind.CAPTAIN),
        "admirals": card_choices(CardKind.ADMIRAL),
        "resources": card_choices(CardKind.RESOURCE),
        "upgrades": upgrade_names(),
    }


@router.get("/players/build", response_class=HTMLResponse)
def build_page(ev: OwnedEvent, request: Request) -> HTMLResponse:
    """The typed fleet: one ship a row, as on the paper list."""
    ctx = _build_ctx(request, ev, FleetForm(), {}, START_ROWS)
    return render(request, "org_build.html.j2", ctx)


@router.post("/players/build", response_model=None)
async def build(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Response:
    """Check the typed fleet (action=check), add rows (action=more) or register it."""
    raw = await request.form()
    values = {k: v for k, v in raw.items() if isinstance(v, str)}
    action = values.get("action", "register")
    rows = row_count(values)
    if action == "more":
        rows = row_count({"rows": str(rows + 3)})
        values["rows"] = str(rows)
    form, field_of = from_rows(values)
    check(form, _settings(request, ev), field_of)
    if action == "register":
        pin, errors = _register(
            request, ev, org, values.get("name", ""), values.get("email", ""), form
        )
        if pin is not None:
            return _pin_page(request, ev, org, values.get("name", ""), pin, form)
        ctx = _build_ctx(request, ev, form, values, rows)
        ctx["errors"] = errors
        return render(request, "org_build.html.j2", ctx, status_code=400)
    ctx = _build_ctx(request, ev, form, values, rows)
    return render(request, "org_build.html.j2", ctx)


def _player_name(request: Request, ev: EventRef, pid: int) -> str:
    players = web(request).store.players(ev.name)
    player = found(
        next((p for p in players if p["id"] == pid), None), f"no player #{pid} in {ev.name}"
    )
    return str(player["name"])


@router.post("/players/{pid}/drop", response_model=None)
def drop(ev: OwnedEvent, org: OrganizerDep, pid: int, request: Request) -> Response:
    """The player leaves: not paired from the next round on; his results stay."""
    web(request).store.drop_player(ev.name, _player_name(request, ev, pid), who=org.who)
    return RedirectResponse(f"/org/events/{ev.id}#players", status_code=303)


@router.post("/players/{pid}/pin", response_model=None)
def new_player_pin(ev: OwnedEvent, org: OrganizerDep, pid: int, request: Request) -> Response:
    """A new PIN for a player who lost his (the old one stops working); shown on its page."""
    name = _player_name(request, ev, pid)
    pin = new_pin()
    store = web(request).store
    store.set_pin_hash(ev.name, name, hash_pin(pin), org.who)
    web(request).pins.forgive(f"{ev.id}:{name}")
    token = web(request).keep_pin(ShownPin(org.id, ev.id, name, pin, again=True))
    return RedirectResponse(f"/org/events/{ev.id}/pins/{token}", status_code=303)
