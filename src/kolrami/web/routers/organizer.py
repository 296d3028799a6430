"""Organizer pages for events (login required): the dashboard, creating an event, taking over
one made with the CLI, the event's page, standings and roll-offs, the corrections log, the
printable pairings, result slips and sheets, and the export."""

from __future__ import annotations

import json
import re
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Form
from fastapi import HTTPException
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response
from fastapi.responses import StreamingResponse
from markupsafe import Markup

from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import validate
from kolrami.report.build_sheet import render_pdf
from kolrami.report.tournament_sheets import event_sheets
from kolrami.web.deps import MAX_ID
from kolrami.web.deps import EventRef
from kolrami.web.deps import Line
from kolrami.web.deps import OrganizerDep
from kolrami.web.deps import OwnedEvent
from kolrami.web.deps import Word
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import START_ROWS
from kolrami.web.forms import field_error
from kolrami.web.forms import whole_number
from kolrami.web.views import event_view

router = APIRouter(prefix="/org", tags=["organizer"])

SCENARIOS = (
    ("peak-performance", "Peak Performance (organized play)"),
    ("standard", "Standard battle"),
)


def _dashboard(
    request: Request,
    org: OrganizerDep,
    errors: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    events = web(request).store.event_list()
    return render(
        request,
        "org_home.html.j2",
        {
            "mine": [e for e in reversed(events) if org.id in e["organizers"]],
            "unowned": [e for e in events if not e["organizers"]],
            "errors": errors or {},
            "values": values
            or {
                "sp_limit": "300",
                "rounds": "3",
                "minutes": "60",
                "titles": "Admiral, Vice Admiral",
            },
            "scenarios": SCENARIOS,
        },
        status_code=status_code,
    )


@router.get("", response_class=HTMLResponse)
def dashboard(org: OrganizerDep, request: Request) -> HTMLResponse:
    """Your events, and a form for a new one."""
    return _dashboard(request, org)


def _positive(values: dict[str, str], key: str, label: str, errors: dict[str, str]) -> int:
    number = whole_number(values.get(key, ""))
    if number is None or number <= 0:
        errors[key] = f"{label}: a whole number above 0"
        return 0
    return number


@router.post("/events", response_model=None)
def create_event(
    org: OrganizerDep,
    request: Request,
    name: Line = "",
    date: Annotated[str, Form(max_length=40)] = "",
    sp_limit: Word = "300",
    scenario: Line = "peak-performance",
    rounds: Word = "3",
    minutes: Word = "60",
    titles: Annotated[str, Form(max_length=500)] = "Admiral, Vice Admiral",
    seed: Annotated[str, Form(max_length=30)] = "",
) -> Response:
    """Create an event run by you (OP-01, OP-02, OP-13, OP-22)."""
    values = {
        "name": name,
        "date": date,
        "sp_limit": sp_limit,
        "scenario": scenario,
        "rounds": rounds,
        "minutes": minutes,
        "titles": titles,
        "seed": seed,
    }
    errors: dict[str, str] = {}
    if not name.strip():
        errors["name"] = "an event needs a name"
    limit = _positive(values, "sp_limit", "SP limit", errors)
    count = _positive(values, "rounds", "Rounds", errors)
    length = _positive(values, "minutes", "Minutes per round", errors)
    if count > 20:
        errors["rounds"] = "at most 20 rounds"
    if scenario not in dict(SCENARIOS):
        errors["scenario"] = "choose one of the scenarios"
    if date and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        errors["date"] = "a date like 2026-11-30"
    title_list = tuple(t.strip() for t in titles.split(",") if t.strip())
    drawn = whole_number(seed, 2**63 - 1) if seed.strip() else None
    if seed.strip() and drawn is None:
        errors["seed"] = "Seed: a whole number from 0 to 2**63 - 1, or empty to draw one"
    if errors:
        return _dashboard(request, org, errors, values, status_code=400)
    store = web(request).store
    try:
        store.create_event(
            name.strip(),
            date,
            limit,
            scenario,
            count,
            length,
            seed=drawn,
            titles=title_list,
            owner=org.id,
        )
    except InvalidInputError as exc:  # under the field it is about, as the store names it
        errors = field_error(exc, values, renamed={"round_minutes": "minutes"})
        return _dashboard(request, org, errors, values, status_code=400)
    return RedirectResponse(f"/org/events/{store.event_id(name.strip())}", status_code=303)


@router.post("/events/{eid}/adopt", response_model=None)
def adopt(eid: int, org: OrganizerDep, request: Request) -> Response:
    """Run an event made with the CLI (one that no organizer runs yet) from the web app."""
    store = web(request).store
    try:
        if not 0 < eid <= MAX_ID:
            raise InvalidInputError("no such event")
        name = store.event_name(eid)
    except InvalidInputError:
        raise HTTPException(404, f"no event #{eid}") from None
    if store.organizers_of(name):
        raise HTTPException(404, f"no event #{eid} to take over")
    store.adopt_event(name, org.id, org.who)
    return RedirectResponse(f"/org/events/{eid}", status_code=303)


@router.get("/events/{eid}", response_class=HTMLResponse)
def event_page(ev: OwnedEvent, request: Request) -> HTMLResponse:
    """The event at the counter: players and registration, rounds, standings."""
    return render(request, "org_event.html.j2", event_page_ctx(request, ev))


def event_page_ctx(request: Request, ev: EventRef, **extra: Any) -> dict[str, Any]:
    """What the organizer's event page shows; `extra` adds form errors and values."""
    ctx: dict[str, Any] = {
        "ev": event_view(web(request).store, ev.id, ev.name),
        "errors": {},
        "values": {},
        "rows": START_ROWS,
        "fleets": fleet_totals(request, ev),
    }
    ctx.update(extra)
    return ctx


def fleet_totals(request: Request, ev: EventRef) -> dict[str, tuple[str, int]]:
    """Each player's fleet name and Total Build, for the players' table."""
    store = web(request).store
    s = store.settings(ev.name)
    limits = EventSettings(s["sp_limit"], s["faction_surcharge"])
    return {
        player: (fleet.name, validate(fleet, s["sp_limit"], limits).total_build)
        for player, fleet in store.fleets(ev.name).items()
    }


@router.post("/events/{eid}/rolloff", response_model=None)
async def rolloff(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Response:
    """Settle players who share a rank after a complete round (OP-24): Kolrami rolls, or the
    dice rolled at the table are entered (fields roll_NAME: '3', or '3,2' when rolled again),
    one tie at a time."""
    form = await request.form()
    store = web(request).store
    view = event_view(store, ev.id, ev.name)
    try:
        if form.get("how") == "entered":
            group = next((g for g in view.ties if any(f"roll_{p}" in form for p in g)), None)
            if group is None:
                raise InvalidInputError("no tie to roll off now: the standings show nobody level")
            throws: dict[str, tuple[int, ...]] = {}
            for player in group:
                value = form.get(f"roll_{player}")
                parts = [v.strip() for v in value.split(",")] if isinstance(value, str) else []
                if not parts or not all(whole_number(v) is not None for v in parts):
                    raise InvalidInputError(
                        f"{player}'s roll-off: the hits and criticals of five attack dice, 0 to "
                        "5 (3, or 3,2 when level and rolled again)"
                    )
                throws[player] = tuple(int(v) for v in parts)
            store.record_roll_off(
                ev.name, throws, f"entered at the table by {org.who}"[:100], org.who
            )
        else:
            store.roll_off_ties(ev.name, org.who)
    except InvalidInputError as exc:
        ctx = event_page_ctx(request, ev, errors={"rolloff": str(exc)})
        return render(request, "org_event.html.j2", ctx, status_code=400)
    return RedirectResponse(f"/org/events/{ev.id}#standings", status_code=303)


@router.get("/events/{eid}/corrections", response_class=HTMLResponse)
def corrections(ev: OwnedEvent, request: Request) -> HTMLResponse:
    """Every change, with who made it, oldest first."""
    store = web(request).store
    view = event_view(store, ev.id, ev.name, with_tables=False)
    return render(
        request, "org_corrections.html.j2", {"ev": view, "rows": store.corrections(ev.name)}
    )


@router.get("/events/{eid}/export")
def export(ev: OwnedEvent, request: Request) -> Response:
    """The whole event as one JSON file (for the regional organizer, or a backup)."""
    doc = web(request).store.export(ev.name)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", ev.name).strip("-").lower() or "event"
    return Response(
        json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{slug}.json"'},
    )


#: Build sheets per printed part: a big event's sheets come a part at a time (each a page of
#: its own, a few MB); an event of up to this many players prints on one page as always.
SHEETS_PER_PART = 200


def _sheet_part(request: Request, ev: EventRef, part: int) -> tuple[range, str]:
    """The players of part `part` (from 1) and the screen-only links to every part."""
    players = len(web(request).store.players(ev.name))
    parts = max(1, -(-players // SHEETS_PER_PART))
    if not 1 <= part <= parts:
        raise HTTPException(404, f"part {part}: the sheets come in parts 1 to {parts}")
    chosen = range((part - 1) * SHEETS_PER_PART, min(players, part * SHEETS_PER_PART))
    if parts == 1:
        return chosen, ""
    links = Markup(" ").join(
        Markup('<a href="?part={0}"{1}>{0}</a>').format(
            n, Markup(' aria-current="page"') if n == part else ""
        )
        for n in range(1, parts + 1)
    )
    nav = Markup(
        "<style>@media print {{ .sheet-parts {{ display: none; }} }}</style>"
        '<nav class="sheet-parts" style="font: 14px sans-serif; margin: 0 0 12px">'
        "<p><strong>{players} players: the sheets come in {parts} parts of {per}.</strong> "
        "This is part {part}: {what} {first} to {last}. Print each part in turn "
        '(<a href="sheets.pdf?part={part}">this part as PDF</a>).</p><p>Parts: {links}</p></nav>'
    ).format(
        players=players,
        parts=parts,
        per=SHEETS_PER_PART,
        part=part,
        what="the score sheet and players" if part == 1 else "players",
        first=chosen.start + 1,
        last=chosen.stop,
        links=links,
    )
    return chosen, str(nav)


@router.get("/events/{eid}/print/sheets", response_class=HTMLResponse)
def print_sheets(ev: OwnedEvent, request: Request, part: int = 1) -> StreamingResponse:
    """The score sheet and every player's Fleet Build Sheet, with the round logs filled in.
    Sent as each sheet is made; an event of more than SHEETS_PER_PART players prints a part at
    a time (?part=2 ...), the score sheet with part 1."""
    players, nav = _sheet_part(request, ev, part)
    pieces = event_sheets(web(request).store, ev.name, players, nav, score=part == 1)
    return StreamingResponse(pieces, media_type="text/html; charset=utf-8")


@router.get("/events/{eid}/print/sheets.pdf")
def print_sheets_pdf(ev: OwnedEvent, request: Request, part: int = 1) -> Response:
    """The same sheets as one PDF (a part of them for a big event)."""
    players, _ = _sheet_part(request, ev, part)
    pdf = render_pdf("".join(event_sheets(web(request).store, ev.name, players, score=part == 1)))
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": 'inline; filename="sheets.pdf"'},
    )


@router.get("/events/{eid}/print/rounds/{number}/pairings", response_class=HTMLResponse)
def print_pairings(ev: OwnedEvent, number: int, request: Request) -> HTMLResponse:
    """A round's pairings in large print, for the wall."""
    view = event_view(web(request).store, ev.id, ev.name)
    return render(request, "print_pairings.html.j2", {"ev": view, "round": view.paired(number)})


@router.get("/events/{eid}/print/rounds/{number}/slips", response_class=HTMLResponse)
def print_slips(ev: OwnedEvent, number: int, request: Request) -> HTMLResponse:
    """One result slip per table, to cut out and hand to the players."""
    view = event_view(web(request).store, ev.id, ev.name)
    base = str(request.base_url).rstrip("/")
    return render(
        request, "print_slips.html.j2", {"ev": view, "round": view.paired(number), "base": base}
    )
