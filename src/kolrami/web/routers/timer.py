"""The round's timer (OP-02): the organizer starts, pauses, resumes and adds time at the
counter; the wall clock (a page for a screen across the room) and every player's phone show
what is left. The timer is kept in the round's row, so a restarted server shows the same
time (services/timer.py); the pages count down by themselves with static/clock.js and ask
the server again now and then, so a pause or added minutes reach every screen."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import JSONResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.errors import InvalidInputError
from kolrami.tournament.services.timer import MAX_ADDED_MINUTES
from kolrami.web.deps import AtCounter
from kolrami.web.deps import PublicEvent
from kolrami.web.deps import Word
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import whole_number
from kolrami.web.live import local_time
from kolrami.web.views import event_view

router = APIRouter(tags=["timer"])
ACTIONS = ("start", "pause", "resume", "add")


@router.get("/events/{eid}/clock", response_class=HTMLResponse)
def wall_clock(ev: PublicEvent, request: Request) -> HTMLResponse:
    """The round's clock in huge digits, for a screen on the wall; it runs by itself and
    keeps running when the network drops."""
    view = event_view(web(request).store, ev.id, ev.name, with_tables=False)
    return render(request, "clock.html.j2", {"ev": view})


@router.get("/events/{eid}/clock.json")
def clock_json(ev: PublicEvent, request: Request) -> JSONResponse:
    """The latest round's timer: status, seconds left, when it ends (UTC and local)."""
    try:
        t = web(request).store.timer(ev.name)
    except InvalidInputError:
        return JSONResponse({"event": ev.name, "round": None, "status": "not paired"})
    body = t.as_dict()
    body["ends_local"] = local_time(t.ends_at)
    return JSONResponse(body)


@router.post("/org/events/{eid}/rounds/{number}/timer", response_model=None)
def timer_action(at: AtCounter, number: int, action: Word = "", minutes: Word = "") -> Response:
    """Start, pause, resume or add minutes to the round's timer; a refusal is one line above
    the timer's buttons (400) and changes nothing."""
    ev, org, request, store = at.ev, at.org, at.request, at.store
    view = event_view(store, ev.id, ev.name)
    paired = view.paired(number)  # a 404 before any change
    try:
        if action == "start":
            store.start_timer(ev.name, number, org.who)
        elif action == "pause":
            store.pause_timer(ev.name, number, org.who)
        elif action == "resume":
            store.resume_timer(ev.name, number, org.who)
        elif action == "add":
            added = whole_number(minutes.strip().lstrip("+"), MAX_ADDED_MINUTES)
            if added is None or added < 1:
                raise InvalidInputError(
                    f"minutes to add '{minutes[:10]}': a whole number from 1 to "
                    f"{MAX_ADDED_MINUTES} (time is only ever added)"
                )
            store.add_time(ev.name, added, number, org.who)
        else:
            raise InvalidInputError(f"timer action '{action[:10]}': one of {', '.join(ACTIONS)}")
    except InvalidInputError as exc:
        ctx = {"ev": view, "round": paired, "cards": {}, "timer_error": str(exc)}
        return render(request, "org_round.html.j2", ctx, status_code=400)
    return RedirectResponse(f"/org/events/{ev.id}/rounds/{number}#timer", status_code=303)
