"""The event's week in one place, for phones: the public overview (the current round with its
timer, the pairings, the standings and, once every round is played, each table's result and
each player's fleet) and the archive of past events by venue."""

from __future__ import annotations

from itertools import groupby

from fastapi import APIRouter
from fastapi import Request
from fastapi.responses import HTMLResponse

from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.legality import validate
from kolrami.web.deps import PublicEvent
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.views import event_view

router = APIRouter(tags=["public"])


@router.get("/events/{eid}/overview", response_class=HTMLResponse)
def overview(ev: PublicEvent, request: Request) -> HTMLResponse:
    """Everything of the event on one page a phone can read."""
    store = web(request).store
    view = event_view(store, ev.id, ev.name)
    reports: dict[str, FleetReport] = {}
    if view.finished:  # the fleets are public from round 1 on (OP-12); shown whole at the end
        s = view.settings
        limits = EventSettings(s["sp_limit"], s["faction_surcharge"])
        reports = {
            name: validate(fleet, s["sp_limit"], limits)
            for name, fleet in store.fleets(ev.name).items()
        }
    ids = {p["name"]: p["id"] for p in view.players}
    return render(
        request,
        "overview.html.j2",
        {
            "ev": view,
            "round": view.current,
            "public": store.public_settings(ev.name),
            "reports": reports,
            "ids": ids,
        },
    )


@router.get("/archive", response_class=HTMLResponse)
def archive(request: Request) -> HTMLResponse:
    """Every event that has played all its rounds, by venue (events without one last)."""
    events = web(request).store.archive()
    ordered = sorted(events, key=lambda e: (e["venue"] == "", e["venue"].casefold()))
    venues = [(venue, list(group)) for venue, group in groupby(ordered, key=lambda e: e["venue"])]
    return render(request, "archive.html.j2", {"venues": venues})
