"""Public pages (no login): the events, each event's pairings, standings and, once round 1 has
started, every player's fleet; the replay of a game the AI played."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi import HTTPException
from fastapi import Request
from fastapi.responses import FileResponse
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse

from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import validate
from kolrami.report.replay import render_replay
from kolrami.rules.registry import read_log
from kolrami.web.deps import PublicEvent
from kolrami.web.deps import found
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.views import event_view

router = APIRouter(tags=["public"])
STATIC = Path(__file__).resolve().parent.parent / "static"

#: The replay page is one self-contained file with its script and style inline.
REPLAY_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    """Every event in this store."""
    events = web(request).store.event_list()
    return render(request, "home.html.j2", {"events": list(reversed(events))})


@router.get("/events", include_in_schema=False)
def events_list() -> RedirectResponse:
    """`/events` typed by hand: the list of events is the home page."""
    return RedirectResponse("/", status_code=307)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> FileResponse:
    """The tab icon (browsers ask for it even on pages that name none)."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/events/{eid}", response_class=HTMLResponse)
async def event_page(ev: PublicEvent, request: Request) -> HTMLResponse:
    """The event: this round's pairings and results, the bye, links to standings and fleets."""
    view = event_view(web(request).store, ev.id, ev.name)
    return render(request, "event.html.j2", {"ev": view, "round": view.current})


@router.get("/events/{eid}/standings", response_class=HTMLResponse)
async def standings_page(ev: PublicEvent, request: Request) -> HTMLResponse:
    """Standings with ranks and titles (OP-18, OP-19, OP-20, OP-21, OP-22, OP-23, OP-24)."""
    view = event_view(web(request).store, ev.id, ev.name, with_tables=False)
    return render(request, "standings.html.j2", {"ev": view})


@router.get("/events/{eid}/rounds/{number}", response_class=HTMLResponse)
async def round_page(ev: PublicEvent, number: int, request: Request) -> HTMLResponse:
    """One round's pairings and results."""
    view = event_view(web(request).store, ev.id, ev.name)
    return render(request, "event.html.j2", {"ev": view, "round": view.paired(number, True)})


@router.get("/events/{eid}/players/{pid}", response_class=HTMLResponse)
def fleet_page(ev: PublicEvent, pid: int, request: Request) -> HTMLResponse:
    """A player's fleet, public once round 1 has been paired (the fleets are locked, OP-12)."""
    store = web(request).store
    view = event_view(store, ev.id, ev.name, with_tables=False)
    player = found(view.player(pid), f"no player #{pid} in {ev.name}")
    if not view.state.rounds:
        raise HTTPException(
            404, "fleets are shown once round 1 has been paired; until then they are private"
        )
    fleet = store.fleets(ev.name)[player["name"]]
    limits = EventSettings(view.settings["sp_limit"], view.settings["faction_surcharge"])
    report = validate(fleet, view.settings["sp_limit"], limits)
    return render(request, "fleet.html.j2", {"ev": view, "player": player, "report": report})


@router.get("/events/{eid}/rounds/{number}/tables/{table}/replay", response_class=HTMLResponse)
def replay_page(ev: PublicEvent, number: int, table: int, request: Request) -> HTMLResponse:
    """The replay of a game the AI captains played."""
    text = web(request).store.battle_log(ev.name, number, table)
    if text is None:
        raise HTTPException(404, f"round {number} table {table} was not played by the AI")
    return HTMLResponse(
        render_replay(read_log(text)), headers={"Content-Security-Policy": REPLAY_CSP}
    )
