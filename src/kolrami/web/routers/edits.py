"""Edits at the counter (login required): sharing an event with co-organizers, a player's name,
fleet or registration changed before round 1 (OP-12), a drop confirmed or undone, the current
round cancelled or paired again before any result, two players swapped by hand (OP-04, OP-08,
OP-09 warnings), an event imported from its export, and the standings as CSV. Every change is
logged with the organizer who made it; a refusal is one line under its form (400) and changes
nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import File
from fastapi import HTTPException
from fastapi import Request
from fastapi import UploadFile
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.errors import InvalidInputError
from kolrami.errors import file_kind
from kolrami.errors import loads_json
from kolrami.fleet.legality import EventSettings
from kolrami.web.deps import AtCounter
from kolrami.web.deps import EventRef
from kolrami.web.deps import FleetText
from kolrami.web.deps import Line
from kolrami.web.deps import OrganizerDep
from kolrami.web.deps import OwnedEvent
from kolrami.web.deps import PlayerName
from kolrami.web.deps import current_organizer
from kolrami.web.deps import found
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import check
from kolrami.web.forms import field_error
from kolrami.web.forms import from_text
from kolrami.web.forms import from_upload
from kolrami.web.routers.organizer import _dashboard
from kolrami.web.views import event_view

router = APIRouter(prefix="/org", tags=["organizer"])

#: The most bytes of an event export read from an upload (a 100-player event is about 250 KB).
MAX_IMPORT = 32 * 1024 * 1024


# --- co-organizers ---------------------------------------------------------------------------


def _share_page(
    request: Request, ev: EventRef, errors: dict[str, str] | None = None, status_code: int = 200
) -> HTMLResponse:
    store = web(request).store
    view = event_view(store, ev.id, ev.name, with_tables=False)
    people = store.co_organizers(ev.name)
    org = current_organizer(request)
    owns = any(p["owner"] and org is not None and p["id"] == org.id for p in people)
    ctx = {"ev": view, "people": people, "owns": owns, "errors": errors or {}}
    return render(request, "org_share.html.j2", ctx, status_code=status_code)


@router.get("/events/{eid}/organizers", response_class=HTMLResponse)
def share_page(ev: OwnedEvent, request: Request) -> HTMLResponse:
    """Who runs the event; share it with another organizer account, or stop sharing it."""
    return _share_page(request, ev)


#: The organizer account a co-organizer form names.
Username = Line


def _who_runs(
    request: Request, ev: EventRef, field: str, change: Callable[[], object], done: str = ""
) -> Response:
    """A change of who runs the event: then `done` (the share page by default); refused, the
    share page with the one line under `field` (400), nothing changed."""
    try:
        change()
    except InvalidInputError as exc:
        return _share_page(request, ev, {field: str(exc)}, 400)
    return RedirectResponse(done or f"/org/events/{ev.id}/organizers", status_code=303)


@router.post("/events/{eid}/organizers", response_model=None)
def share(ev: OwnedEvent, org: OrganizerDep, request: Request, username: Username = "") -> Response:
    """Share the event with another organizer account (logged)."""
    store = web(request).store
    return _who_runs(request, ev, "username", lambda: store.share_event(ev.name, username, org.who))


@router.post("/events/{eid}/organizers/remove", response_model=None)
def unshare(
    ev: OwnedEvent, org: OrganizerDep, request: Request, username: Username = ""
) -> Response:
    """Stop sharing the event with an organizer (never its last one; its owner only himself;
    logged). Who leaves goes to his own events: this one is not among them any more."""
    store = web(request).store
    left = "/org" if username.strip() == org.name else ""
    return _who_runs(
        request, ev, "remove", lambda: store.unshare_event(ev.name, username, org.who, org.id), left
    )


@router.post("/events/{eid}/organizers/owner", response_model=None)
def hand_over(
    ev: OwnedEvent, org: OrganizerDep, request: Request, username: Username = ""
) -> Response:
    """The owner hands the event over to a co-organizer (logged)."""
    store = web(request).store
    return _who_runs(
        request, ev, "owner", lambda: store.hand_over(ev.name, username, org.who, org.id)
    )


# --- a player: name, fleet, removal before round 1; drop confirmed or undone ------------------


def _player(request: Request, ev: EventRef, pid: int) -> dict[str, Any]:
    view = event_view(web(request).store, ev.id, ev.name, with_tables=False)
    return found(view.player(pid), f"no player #{pid} in {ev.name}")


def _player_page(
    request: Request,
    ev: EventRef,
    pid: int,
    errors: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    player = _player(request, ev, pid)
    view = event_view(web(request).store, ev.id, ev.name, with_tables=False)
    ctx = {"ev": view, "p": player, "errors": errors or {}, "values": values or {}}
    return render(request, "org_player.html.j2", ctx, status_code=status_code)


@router.get("/events/{eid}/players/{pid}/edit", response_class=HTMLResponse)
def player_page(ev: OwnedEvent, pid: int, request: Request) -> HTMLResponse:
    """A player: rename, new fleet or remove (before round 1), drop (confirmed) or undo it."""
    return _player_page(request, ev, pid)


@router.post("/events/{eid}/players/{pid}/rename", response_model=None)
def rename(
    ev: OwnedEvent, org: OrganizerDep, pid: int, request: Request, new_name: Line = ""
) -> Response:
    """A player's name corrected, before round 1 (OP-12)."""
    player = _player(request, ev, pid)
    try:
        web(request).store.rename_player(ev.name, player["name"], new_name, org.who)
    except InvalidInputError as exc:
        errors = field_error(exc, ("new_name",), default="new_name")
        return _player_page(request, ev, pid, errors, {"new_name": new_name}, 400)
    return RedirectResponse(f"/org/events/{ev.id}#players", status_code=303)


@router.post("/events/{eid}/players/{pid}/fleet", response_model=None)
async def new_fleet(
    ev: OwnedEvent,
    org: OrganizerDep,
    pid: int,
    request: Request,
    fleet: FleetText = "",
    upload: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """A player's fleet replaced, before round 1 (OP-12): a share string, FleetX or file."""
    player = _player(request, ev, pid)
    store = web(request).store
    if upload is not None and upload.filename:
        form = from_upload(await upload.read(), upload.filename)
    else:
        form = from_text(fleet)
    s = store.settings(ev.name)
    check(form, EventSettings(s["sp_limit"], s["faction_surcharge"]), None)
    errors = {k: "; ".join(v) for k, v in form.errors.items()}
    if not errors and form.fleet is not None:
        try:
            store.change_fleet(ev.name, player["name"], form.fleet, org.who)
        except InvalidInputError as exc:
            errors = field_error(exc, ("fleet",), default="fleet")
        else:
            return RedirectResponse(f"/org/events/{ev.id}#players", status_code=303)
    return _player_page(request, ev, pid, errors, {"fleet": fleet}, 400)


def _player_change(
    request: Request, ev: EventRef, pid: int, field: str, change: Callable[[str], object]
) -> Response:
    """A change of a player (by his registered name), then the event's players; refused, the
    player's page with the one line under `field` (400), nothing changed."""
    player = _player(request, ev, pid)
    try:
        change(player["name"])
    except InvalidInputError as exc:
        return _player_page(request, ev, pid, {field: str(exc)}, status_code=400)
    return RedirectResponse(f"/org/events/{ev.id}#players", status_code=303)


@router.post("/events/{eid}/players/{pid}/remove", response_model=None)
def remove(ev: OwnedEvent, org: OrganizerDep, pid: int, request: Request) -> Response:
    """A player registered by mistake, removed before round 1 (OP-12)."""
    store = web(request).store
    return _player_change(
        request, ev, pid, "remove", lambda name: store.remove_player(ev.name, name, org.who)
    )


@router.get("/events/{eid}/players/{pid}/drop", response_class=HTMLResponse)
def drop_page(ev: OwnedEvent, pid: int, request: Request) -> HTMLResponse:
    """Asks before a drop: the player is not paired again (the drop can be undone until the
    next round is paired)."""
    return _player_page(request, ev, pid, values={"confirm_drop": "yes"})


@router.post("/events/{eid}/players/{pid}/undrop", response_model=None)
def undrop(ev: OwnedEvent, org: OrganizerDep, pid: int, request: Request) -> Response:
    """A drop made by mistake undone (before the next round is paired)."""
    store = web(request).store
    return _player_change(
        request, ev, pid, "undrop", lambda name: store.undo_drop(ev.name, name, org.who)
    )


# --- the current round ---------------------------------------------------------------------


def _round_page(
    request: Request, ev: EventRef, extra: dict[str, Any], status_code: int
) -> HTMLResponse:
    view = event_view(web(request).store, ev.id, ev.name)
    if not view.rounds:
        raise HTTPException(400, f"{ev.name} has no round paired yet")
    ctx = {"ev": view, "round": view.rounds[-1], "cards": {}, **extra}
    return render(request, "org_round.html.j2", ctx, status_code=status_code)


@router.post("/events/{eid}/rounds/cancel", response_model=None)
def cancel(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Response:
    """Cancel the current round before any result is in."""
    try:
        web(request).store.cancel_round(ev.name, org.who)
    except InvalidInputError as exc:
        return _round_page(request, ev, {"edit_error": str(exc)}, 400)
    return RedirectResponse(f"/org/events/{ev.id}#rounds", status_code=303)


@router.post("/events/{eid}/rounds/repair", response_model=None)
def repair(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Response:
    """Cancel the current round before any result and pair it again, as the players are now."""
    try:
        pairing = web(request).store.repair_round(ev.name, org.who)
    except InvalidInputError as exc:
        return _round_page(request, ev, {"edit_error": str(exc)}, 400)
    return RedirectResponse(f"/org/events/{ev.id}/rounds/{pairing.round}", status_code=303)


@router.post("/events/{eid}/rounds/swap", response_model=None)
def swap(at: AtCounter, first: PlayerName = "", second: PlayerName = "") -> Response:
    """Swap two players of the current round by hand: a rematch or a bye against the bye
    rules is warned about on the page, not refused."""
    values = {"first": first, "second": second}
    try:
        if not first.strip() or not second.strip():
            raise InvalidInputError("name the two players to swap")
        warnings = at.store.swap_players(at.ev.name, first, second, at.org.who)
    except InvalidInputError as exc:
        return _round_page(at.request, at.ev, {"edit_error": str(exc), "swap_values": values}, 400)
    return _round_page(at.request, at.ev, {"swap_warnings": warnings, "swapped": True}, 200)


# --- the event in and out: import, standings CSV ---------------------------------------------


@router.post("/import", response_model=None)
async def import_event(
    org: OrganizerDep, request: Request, upload: Annotated[UploadFile | None, File()] = None
) -> Response:
    """An event from its JSON export (kolrami tournament export, or Export on its page), run
    by you from now on. A file that is not an export is refused in one line; nothing is kept."""
    store = web(request).store
    try:
        if upload is None or not upload.filename:
            raise InvalidInputError("choose the event's export file (.json) to import")
        data = await upload.read(MAX_IMPORT + 1)
        if len(data) > MAX_IMPORT:
            raise InvalidInputError(
                f"{upload.filename}: larger than {MAX_IMPORT // 2**20} MiB; is it an event export?"
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InvalidInputError(
                f"{upload.filename}: not an event export (not UTF-8 text); export the event "
                "again (kolrami tournament export)"
            ) from None
        kind = file_kind(text)
        if kind is not None and "event export" not in kind:
            raise InvalidInputError(
                f"{upload.filename} is {kind}, not an event export; choose the event's export "
                "(Export (JSON) on its page)"
            )
        doc = loads_json(text, upload.filename)  # nesting and huge numbers refused in one line
        name = store.import_event(doc, source=upload.filename)
        store.adopt_event(name, org.id, org.who)
    except InvalidInputError as exc:
        return _dashboard(request, org, errors={"import": str(exc)}, status_code=400)
    return RedirectResponse(f"/org/events/{store.event_id(name)}", status_code=303)


@router.get("/events/{eid}/export/standings.csv")
def standings_csv(ev: OwnedEvent, request: Request) -> Response:
    """The standings as CSV, for a spreadsheet."""
    text = web(request).store.standings_csv(ev.name)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", ev.name).strip("-").lower() or "event"
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{slug}-standings.csv"'},
    )
