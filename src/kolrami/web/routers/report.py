"""Players report from their phones: one reports his table's result with his PIN, the opponent
confirms it with his (the digital initials of OP-14 and FBS-10) or disputes it, and a dispute
goes to the organizer. Wrong PINs slow the device that gives them down, more after each one
(security.Throttle); no player is ever locked out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Form
from fastapi import HTTPException
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.errors import InvalidInputError
from kolrami.tournament.store import MAX_FLEET_POINTS
from kolrami.web.deps import EventRef
from kolrami.web.deps import PublicEvent
from kolrami.web.deps import Word
from kolrami.web.deps import client_key
from kolrami.web.deps import found
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import field_error
from kolrami.web.forms import whole_number
from kolrami.web.security import verify_secret
from kolrami.web.security import wait_text
from kolrami.web.views import EventView
from kolrami.web.views import Table
from kolrami.web.views import event_view

router = APIRouter(tags=["players"])


def _page(
    request: Request,
    view: EventView,
    t: Table,
    errors: dict[str, str] | None = None,
    values: dict[str, Any] | None = None,
    notice: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    return render(
        request,
        "report_table.html.j2",
        {
            "ev": view,
            "t": t,
            "errors": errors or {},
            "values": values or {},
            "notice": notice,
            "latest": t.round == len(view.rounds),
        },
        status_code=status_code,
    )


@dataclass(frozen=True, slots=True)
class PinRefused:
    """Why a PIN was not taken; `wait` > 0: this device must wait that many seconds (429)."""

    message: str
    wait: int = 0


def check_pin(request: Request, ev: EventRef, player: str, pin: str) -> PinRefused | None:
    """None when `pin` is the player's PIN; else what to tell him (a wrong one slows this
    device down: security.Throttle; the player is never locked out)."""
    w = web(request)
    account, device = f"{ev.id}:{player}", client_key(request)
    wait = w.pins.wait_seconds(device)
    if wait:
        return PinRefused(
            f"too many wrong PINs from this device: try again in {wait_text(wait)} (or ask the "
            "organizer to enter the result or give a new PIN)",
            wait,
        )
    if whole_number(pin) is None:
        w.pins.failed(account, device)
        return PinRefused(f"{player}'s PIN is 4 digits")
    if not verify_secret(w.store.pin_hash(ev.name, player), pin.strip()):
        w.pins.failed(account, device)
        return PinRefused(f"that is not {player}'s PIN")
    w.pins.succeeded(device)
    return None


def _refused(
    request: Request,
    view: EventView,
    t: Table,
    refused: PinRefused,
    values: dict[str, Any] | None = None,
) -> HTMLResponse:
    """The table's page with the PIN's problem beside the field (429 and Retry-After when
    this device must wait)."""
    errors = {"pin": refused.message}
    if not refused.wait:
        return _page(request, view, t, errors, values, status_code=400)
    response = _page(request, view, t, errors, values, status_code=429)
    response.headers["Retry-After"] = str(refused.wait)
    return response


@router.get("/events/{eid}/report", response_class=HTMLResponse)
async def pick_table(ev: PublicEvent, request: Request) -> HTMLResponse:
    """Find your table in the current round."""
    view = event_view(web(request).store, ev.id, ev.name)
    return render(request, "report_pick.html.j2", {"ev": view, "round": view.current})


@router.get("/events/{eid}/rounds/{number}/tables/{table}", response_class=HTMLResponse)
async def table_page(ev: PublicEvent, number: int, table: int, request: Request) -> HTMLResponse:
    """A table: report its result, or confirm or dispute the opponent's report."""
    view = event_view(web(request).store, ev.id, ev.name)
    return _page(request, view, view.table(number, table))


@router.post("/events/{eid}/rounds/{number}/tables/{table}/report", response_model=None)
def report(
    ev: PublicEvent,
    number: int,
    table: int,
    request: Request,
    player: Annotated[str, Form()] = "",
    winner: Annotated[str, Form()] = "",
    fp_a: Word = "",
    fp_b: Word = "",
    pin: Annotated[str, Form()] = "",
) -> Response:
    """A player reports the result of his table; it waits for the opponent's PIN."""
    store = web(request).store
    view = event_view(store, ev.id, ev.name)
    t = view.table(number, table)
    values = {"player": player, "winner": winner, "fp_a": fp_a, "fp_b": fp_b}
    if t.b is None:
        raise HTTPException(400, f"{t.a} has the bye: there is nothing to report")
    errors: dict[str, str] = {}
    if player not in (t.a, t.b):
        errors["player"] = "say who you are"
    if winner not in (t.a, t.b):
        errors["winner"] = "say who won"
    points: dict[str, int] = {}
    for side, text in ((t.a, fp_a), (t.b, fp_b)):
        key = "fp_a" if side == t.a else "fp_b"
        fp = whole_number(text, MAX_FLEET_POINTS)
        if fp is None:
            errors[key] = f"{side}'s Fleet Points: a whole number, 0 to {MAX_FLEET_POINTS}"
        else:
            points[side] = fp
    if errors:
        return _page(request, view, t, errors, values, status_code=400)
    refused = check_pin(request, ev, player, pin)
    if refused is not None:
        return _refused(request, view, t, refused, values)
    try:
        store.report_result(ev.name, number, player, winner, points)
    except InvalidInputError as exc:
        return _page(request, view, t, field_error(exc, values), values, status_code=400)
    return RedirectResponse(
        f"/events/{ev.id}/rounds/{number}/tables/{table}?sent=1", status_code=303
    )


@router.post("/events/{eid}/reports/{rid}", response_model=None)
def answer(
    ev: PublicEvent,
    rid: int,
    request: Request,
    action: Annotated[str, Form()] = "confirm",
    pin: Annotated[str, Form()] = "",
    note: Annotated[str, Form(max_length=500)] = "",
) -> Response:
    """The opponent confirms the report with his PIN, or disputes it (then the organizer
    decides)."""
    store = web(request).store
    rep = found(
        next((r for r in store.reports(ev.name) if r["id"] == rid), None),
        f"no report #{rid} in {ev.name}",
    )
    view = event_view(store, ev.id, ev.name)
    t = view.table(rep["round"], rep["table"])
    if action not in ("confirm", "dispute"):
        raise HTTPException(400, "answer confirm or dispute")
    confirmer = rep["confirmer"]
    refused = check_pin(request, ev, confirmer, pin)
    if refused is not None:
        return _refused(request, view, t, refused)
    try:
        if action == "confirm":
            warning = store.confirm_report(ev.name, rid, confirmer)
        else:
            store.dispute_report(ev.name, rid, confirmer, note)
            warning = ""
    except InvalidInputError as exc:
        return _page(request, view, t, {"form": str(exc)}, status_code=400)
    view = event_view(store, ev.id, ev.name)
    t = view.table(rep["round"], rep["table"])
    if action == "dispute":
        notice = "Sent to the organizer: they will settle the result with you both."
    elif warning:
        notice = (
            f"Confirmed, but the score check fails: {warning}. The organizer will look at the "
            "sheet before the result counts."
        )
    else:
        notice = "Confirmed: the result is recorded. Thank you!"
    return _page(request, view, t, notice=notice)


@router.post("/events/{eid}/rounds/{number}/tables/{table}/build", response_model=None)
def build_check(
    ev: PublicEvent,
    number: int,
    table: int,
    request: Request,
    player: Annotated[str, Form()] = "",
    initials: Annotated[str, Form(max_length=40)] = "",
    pin: Annotated[str, Form()] = "",
) -> Response:
    """The build check at the start of a round (OP-14, FBS-09): a player, by his PIN, initials
    his opponent's build as the Fleet Build Sheet's column asks."""
    store = web(request).store
    view = event_view(store, ev.id, ev.name)
    t = view.table(number, table)
    values = {"build_player": player, "initials": initials}
    if t.b is None:
        raise HTTPException(400, f"{t.a} has the bye: there is no opponent's build to check")
    if number != len(view.rounds):
        raise HTTPException(400, f"round {number} is over: the build check is at a round's start")
    if player not in (t.a, t.b):
        errors = {"build_player": "say who you are"}
        return _page(request, view, t, errors, values, status_code=400)
    refused = check_pin(request, ev, player, pin)
    if refused is not None:
        errors = {"build_pin": refused.message}
        status = 429 if refused.wait else 400
        response = _page(request, view, t, errors, values, status_code=status)
        if refused.wait:
            response.headers["Retry-After"] = str(refused.wait)
        return response
    opponent = t.b if player == t.a else t.a
    try:
        store.verify(ev.name, number, opponent, initials, "build")
    except InvalidInputError as exc:
        errors = field_error(exc, ("initials",), default="initials")
        return _page(request, view, t, errors, values, status_code=400)
    return RedirectResponse(
        f"/events/{ev.id}/rounds/{number}/tables/{table}?checked=1", status_code=303
    )
