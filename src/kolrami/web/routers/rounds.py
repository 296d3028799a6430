"""Rounds at the counter (login required): pair the next round, enter or correct a table's
result (with the version the tablet saw: a second tablet with an older page is told, not
obeyed), accept or override players' reports, and let the AI captains play a table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi import HTTPException
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response

from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.rules.module import Capability
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate
from kolrami.tournament.core import stale_pairing_note
from kolrami.tournament.store import MAX_FLEET_POINTS
from kolrami.tournament.store import ConflictError
from kolrami.tournament.store import ScoreCheckError
from kolrami.web.deps import EventRef
from kolrami.web.deps import OrganizerDep
from kolrami.web.deps import OwnedEvent
from kolrami.web.deps import PlayerName
from kolrami.web.deps import Word
from kolrami.web.deps import render
from kolrami.web.deps import web
from kolrami.web.forms import field_error
from kolrami.web.forms import whole_number
from kolrami.web.routers.organizer import event_page_ctx
from kolrami.web.views import event_view

router = APIRouter(prefix="/org/events/{eid}", tags=["organizer"])
CAPTAINS = ("aggressive", "kiting")


@router.post("/pair", response_model=None)
def pair(ev: OwnedEvent, org: OrganizerDep, request: Request) -> Response:
    """Pair the next round (round 1 at random, then Swiss; the bye by OP-07, OP-08, OP-09)."""
    store = web(request).store
    try:
        pairing = store.pair_next_round(ev.name, org.who)
    except InvalidInputError as exc:
        ctx = event_page_ctx(request, ev, errors={"pair": str(exc)})
        return render(request, "org_event.html.j2", ctx, status_code=400)
    return RedirectResponse(f"/org/events/{ev.id}/rounds/{pairing.round}", status_code=303)


@router.get("/rounds/{number}", response_class=HTMLResponse)
async def round_page(ev: OwnedEvent, number: int, request: Request) -> HTMLResponse:
    """A round's tables: results, players' reports, disputes, flags, and the entry forms."""
    view = event_view(web(request).store, ev.id, ev.name)
    return render(
        request, "org_round.html.j2", {"ev": view, "round": view.paired(number), "cards": {}}
    )


def _card(
    request: Request, ev: EventRef, number: int, table: int, card: dict[str, Any], status_code: int
) -> HTMLResponse:
    """The round page again (or, for htmx, just the table's card) with a message on the table."""
    view = event_view(web(request).store, ev.id, ev.name)
    t = view.table(number, table)
    ctx = {"ev": view, "round": view.paired(number), "t": t, "cards": {table: card}}
    if request.headers.get("hx-request") == "true":
        return render(request, "_table_card.html.j2", ctx, status_code=status_code)
    return render(request, "org_round.html.j2", ctx, status_code=status_code)


@router.post("/rounds/{number}/tables/{table}", response_model=None)
async def enter_result(
    ev: OwnedEvent,
    org: OrganizerDep,
    number: int,
    table: int,
    request: Request,
    winner: PlayerName = "",
    fp_a: Word = "",
    fp_b: Word = "",
    version: Word = "",
    accept: Word = "",
) -> Response:
    """Enter or correct a table's result. A score the opponent's fleet cannot give is shown
    first and recorded only when accepted; a stale page is told to reload (409)."""
    store = web(request).store
    # the table's players from the kept snapshot: not a new read, nor the pages' view of the
    # event (its standings), which the next page builds if it needs it
    snapshot = store.snapshot(ev.id)
    if not 1 <= number <= len(snapshot.rounds):
        raise HTTPException(404, f"round {number} has no table {table}")
    t = next((x for x in snapshot.rounds[number - 1] if x["table"] == table), None)
    if t is None:
        raise HTTPException(404, f"round {number} has no table {table}")
    a, b = str(t["a"]), t["b"]
    if b is None:
        raise HTTPException(400, f"{a} has the bye: there is no result to enter")
    values = {"winner": winner, "fp_a": fp_a, "fp_b": fp_b}
    errors: dict[str, str] = {}
    if winner not in (a, b):
        errors["winner"] = "choose the winner"
    points: dict[str, int] = {}
    for side, text, key in ((a, fp_a, "fp_a"), (b, fp_b, "fp_b")):
        fp = whole_number(text, MAX_FLEET_POINTS)
        if fp is None:
            errors[key] = f"{side}'s Fleet Points: a whole number, 0 to {MAX_FLEET_POINTS}"
        else:
            points[side] = fp
    if whole_number(version) is None:
        errors["form"] = "the page is incomplete: reload it"
    if errors:
        return _card(request, ev, number, table, {"errors": errors, "values": values}, 400)
    try:  # one transaction: the score check (unless accepted), the version check, the result
        store.record_game(
            ev.name,
            number,
            table,
            winner,
            points,
            org.who,
            expected_version=whole_number(version),
            unless_warned=accept != "yes",
        )
    except ScoreCheckError as exc:
        card = {"values": values, "warning": str(exc), "version": version}
        return _card(request, ev, number, table, card, 200)
    except ConflictError as exc:
        card = {"conflict": str(exc), "mine": values}
        return _card(request, ev, number, table, card, 409)
    except InvalidInputError as exc:
        errors = field_error(exc, ("winner",))  # the Fleet Points were checked above
        return _card(request, ev, number, table, {"errors": errors, "values": values}, 400)
    stale = ""
    if number < len(snapshot.rounds):  # a correction after the next round was paired: a word
        state = store.snapshot(ev.id).state  # on that round, from the results as they are now
        stale = stale_pairing_note(number, state.rounds, state.seed)
    if stale or request.headers.get("hx-request") == "true":
        return _card(request, ev, number, table, {"saved": True, "stale": stale}, 200)
    return RedirectResponse(f"/org/events/{ev.id}/rounds/{number}#table-{table}", status_code=303)


@router.post("/rounds/{number}/tables/{table}/ai", response_model=None)
def ai_plays(
    ev: OwnedEvent, org: OrganizerDep, number: int, table: int, request: Request, version: Word = ""
) -> Response:
    """The AI captains play the table's battle with the two registered fleets; the result is
    recorded like any other and the battle log kept for its replay."""
    store = web(request).store
    view = event_view(store, ev.id, ev.name)
    t = view.table(number, table)
    if t.b is None:
        raise HTTPException(400, f"{t.a} has the bye: there is no battle to play")
    fleets = store.fleets(ev.name)
    scenario = load_scenario(view.settings["scenario"])
    seed = derive_seed(view.state.seed, "battle", number, table)
    battle = simulate(scenario, (fleets[t.a], fleets[t.b]), CAPTAINS, seed)
    result = battle.finish()
    if Capability.SCORES_FLEET_POINTS in battle.rules.capabilities:
        points = battle.fleet_points
    else:
        destroyed = battle.destroyed_value()
        points = {"A": destroyed["B"], "B": destroyed["A"]}
    side = result.winner or ("A" if points["A"] >= points["B"] else "B")
    winner = t.a if side == "A" else t.b
    try:
        store.record_game(
            ev.name,
            number,
            table,
            winner,
            {t.a: points["A"], t.b: points["B"]},
            f"AI captains ({org.who})",
            expected_version=whole_number(version),
            battle_log=(" v ".join(CAPTAINS), battle.log.jsonl()),
        )
    except ConflictError as exc:
        return _card(request, ev, number, table, {"conflict": str(exc)}, 409)
    return RedirectResponse(f"/org/events/{ev.id}/rounds/{number}#table-{table}", status_code=303)
