"""Play a battle in the browser (/play, no login): hot-seat on one screen or against an AI.

A game in progress is its event log, kept as a file in the play folder under an unguessable id:
every order taken is written there before the answer goes back, so a reload, another tab or a
restarted server finds the game where it was (the session in memory is only a cache, rebuilt
from the log when missing). The page reads the deciding side's view as JSON (never the whole
battle: what the other side's view hides stays on the server), sends orders in the log's text
form, and the rules check them with their own verify functions; a refusal names its clause,
linked to its reading in docs/rules.md.
"""

from __future__ import annotations

import io
import os
import re
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from rich.console import Console

from kolrami.captains.registry import captain_names
from kolrami.catalog import Arc, builtin_pack
from kolrami.engine.events import Event
from kolrami.errors import InvalidInputError, KolramiError
from kolrami.fleet.model import preset_names
from kolrami.report.narrate import Narrator
from kolrami.report.replay import render_replay
from kolrami.rules import events as rev
from kolrami.rules.fpf.damage import penetrates, penetration_target
from kolrami.rules.fpf.orders import OrdersDecision, ReactionDecision
from kolrami.scenarios.models import BUILTIN as SCENARIOS
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.session import HUMAN, SIDES, PlaySession, choices, percent, rule_reading
from kolrami.web import play_fleets
from kolrami.web.deps import render
from kolrami.web.forms import MAX_UPLOAD

router = APIRouter(tags=["play"])
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: The replay page is one self-contained file with its script and style inline.
REPLAY_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)
ARCS = {"F": 0.0, "P": 90.0, "A": 180.0, "S": 270.0}  # each arc's centre, degrees to port


@dataclass(slots=True)
class PlayGames:
    """The games in progress: their logs in `folder`, their sessions cached in memory."""

    folder: Path
    cache: dict[str, PlaySession] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)  # game: the side last shown
    lock: threading.Lock = field(default_factory=threading.Lock)

    def path(self, gid: str) -> Path:
        if not _GAME_ID.match(gid):
            raise HTTPException(404, "there is no such game here")
        return self.folder / f"{gid}.jsonl"

    def new(self, session: PlaySession) -> str:
        gid = secrets.token_urlsafe(18)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.cache[gid] = session
        self.save(gid)
        return gid

    def get(self, gid: str) -> PlaySession:
        session = self.cache.get(gid)
        if session is None:
            path = self.path(gid)
            try:
                text = path.read_text(encoding="utf-8")
            except OSError:
                raise HTTPException(404, "there is no such game here") from None
            session = self.cache[gid] = PlaySession.resume(text)
        return session

    def save(self, gid: str) -> None:
        """Write the game's log, whole or not at all (a new file renamed over the old)."""
        path = self.path(gid)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.cache[gid].log_text(), encoding="utf-8")
        os.replace(tmp, path)


def games(request: Request) -> PlayGames:
    """The app's games in progress."""
    found: PlayGames = request.app.state.play
    return found


def _narration(events: list[Event]) -> list[str]:
    """The events told as `kolrami battle -v` tells them, as plain lines."""
    buffer = io.StringIO()
    out = Console(file=buffer, width=110, color_system=None, force_terminal=False)
    Narrator(out, builtin_pack(), verbose=True).tell(events)
    return [line.rstrip() for line in buffer.getvalue().splitlines() if line.strip()]


def _volleys(events: list[Event]) -> list[dict[str, Any]]:
    """The volleys of the last turn played, with their dice, for the dice panel."""
    start = 0
    for i, e in enumerate(events):
        if isinstance(e, rev.TurnStarted):
            start = i
    out = []
    for e in events[start:]:
        if isinstance(e, rev.VolleyFired):
            out.append(
                {
                    "ship": e.ship,
                    "target": e.target,
                    "weapon": e.weapon,
                    "strength": e.strength,
                    "shields": e.shields,
                    "needs": _needs(penetration_target(e.shields, e.strength)),
                    "range_cm": e.range_cm,
                    "rolls": [[r, penetrates(r, e.shields, e.strength)] for r in e.rolls],
                }
            )
    return out


def _needs(target: int) -> str:
    """What a die must show to get through, as the narration says it (a 10 always does)."""
    return "10" if target >= 10 else "2+" if target <= 2 else f"{target}+"


def _ships(session: PlaySession, side: str) -> list[dict[str, Any]]:
    view = session.view(side)
    out = []
    for s in [*view.own_ships(), *view.enemies()]:
        arcs = []
        for arc, centre in ARCS.items():
            kinds = s.bears(Arc(arc))
            if kinds:
                arcs.append(
                    {"arc": arc, "centre": centre, "range": max(s.ranges[k] for k in kinds)}
                )
        out.append(
            {
                "id": s.id,
                "side": s.side,
                "squadron": s.squadron,
                "cls": s.cls.name,
                "x": round(s.x, 2),
                "y": round(s.y, 2),
                "heading": s.heading,
                "on_table": s.on_table,
                "speed": s.last_speed,
                "ss": max(0, s.superstructure),
                "ss_max": s.cls.superstructure,
                "shields": s.shields,
                "shields_max": s.max_shields,
                "engine": s.engine_power,
                "systems": max(0, s.systems),
                "in_control": s.in_control,
                "arcs": arcs,
            }
        )
    return out


def _decision(session: PlaySession) -> dict[str, Any] | None:
    d = session.decision
    if d is None:
        return None
    side = d.side
    view = session.view(side)
    out: dict[str, Any] = {"kind": type(d).__name__, "side": side, "text": str(d)}
    for name in ("squadron", "squadrons", "mover", "firers", "targets", "ships", "speed"):
        if hasattr(d, name):
            value = getattr(d, name)
            out[name] = list(value) if isinstance(value, tuple) else value
    if hasattr(d, "forcible"):
        out["forcible"] = {q: list(p) for q, p in d.forcible}
    if isinstance(d, OrdersDecision):
        movers = []
        for mover in d.movers:
            lead = view.mover_position(mover, d.squadron)
            lo, hi = view.speed_limits(mover, d.squadron, False)
            movers.append(
                {
                    "key": "formation" if mover is None else mover,
                    "prefix": "" if mover is None else f"{mover}=",
                    "ship": lead.id,
                    "lo": lo,
                    "hi": hi,
                    "last": lead.last_speed,
                }
            )
        out["movers"] = movers
        out["ends"] = session.end_positions(side)
    if isinstance(d, (OrdersDecision, ReactionDecision)):
        fire = []
        for sid in d.firers:
            ship = view.ship(sid)
            arcs = (
                ["F"] if isinstance(d, ReactionDecision) else [a.value for a in ship.armed_arcs()]
            )
            options = [f"{a}@{t}" for a in arcs for t in d.targets]
            fire.append({"ship": sid, "options": options})
        out["fire"] = fire
        out["unit"] = view.fires_as_unit()
    return out


def _reach(session: PlaySession, side: str) -> list[dict[str, Any]]:
    out = []
    for r in session.in_reach(side):
        o = session.odds(side, r.firer, r.arc, r.target)
        out.append(
            {
                "firer": r.firer,
                "arc": r.arc.value,
                "target": r.target,
                "range_cm": round(r.range_cm, 1),
                "p_damage": percent(o.p_any_penetration),
                "mean": round(float(o.expected_damage), 2),
                "damage": {str(k): percent(v) for k, v in sorted(o.damage.items())},
            }
        )
    return out


def state(gid: str, request: Request) -> dict[str, Any]:
    """What the page shows: the deciding side's view only, and what happened so far."""
    play = games(request)
    session = play.get(gid)
    events = session.battle.log.events()
    d = session.decision
    side = d.side if d is not None else "A"
    hot_seat = all(seat == HUMAN for seat in session.seats)
    last = play.shown.get(gid)
    pass_to = side if hot_seat and session.hides_anything() and last not in (None, side) else None
    play.shown[gid] = side
    sc = session.scenario
    return {
        "game": gid,
        "seats": dict(zip(SIDES, session.seats, strict=True)),
        "hot_seat": hot_seat,
        "pass_to": pass_to,
        "turn": session.battle.turn,
        "turn_limit": sc.turn_limit,
        "table": {"w": sc.table_width_cm, "h": sc.table_height_cm},
        "obstacles": [list(o) for o in session.view(side).obstacles()],
        "side": side,
        "over": session.over,
        "result": None
        if session.result is None
        else {"winner": session.result.winner, "reason": session.result.reason},
        "ships": _ships(session, side),
        "decision": _decision(session),
        "choices": choices(session, d) if d is not None else [],
        "reach": _reach(session, side) if d is not None else [],
        "undoable": session.undoable(),
        "volleys": _volleys(events),
        "narration": _narration(events)[-60:],
        "orders": len(session.orders()),
    }


def _new_game_ctx(values: dict[str, str], errors: dict[str, str]) -> dict[str, Any]:
    return {
        "presets": preset_names(),
        "scenarios": list(SCENARIOS),
        "captains": captain_names(),
        "values": values,
        "errors": errors,
    }


@router.get("/play", response_class=HTMLResponse)
def new_game_page(request: Request, fleet_a: str = "", fleet_b: str = "") -> HTMLResponse:
    """Choose the fleets, the scenario, the turns and who plays each side; `?fleet_a=KF1-...`
    (the fleet builder's Play link) fills in a side's share string."""
    values = {"fleet_a_text": fleet_a[:40_000], "fleet_b_text": fleet_b[:40_000]}
    return render(request, "play_new.html.j2", _new_game_ctx(values, {}))


async def _upload(file: UploadFile | None) -> tuple[bytes, str] | None:
    """An uploaded file's bytes (at most one more than a fleet's bound) and name, or None."""
    if file is None or not file.filename:
        return None
    return await file.read(MAX_UPLOAD + 1), file.filename


@router.post("/play", response_model=None)
async def new_game(
    request: Request,
    fleet_a: str = Form("federation-cruisers"),
    fleet_b: str = Form("klingon-wolfpack"),
    fleet_a_text: Annotated[str, Form(max_length=100_000)] = "",
    fleet_b_text: Annotated[str, Form(max_length=100_000)] = "",
    fleet_a_file: Annotated[UploadFile | None, File()] = None,
    fleet_b_file: Annotated[UploadFile | None, File()] = None,
    seat_a: str = Form(HUMAN),
    seat_b: str = Form("aggressive"),
    scenario: str = Form("standard"),
    turns: int = Form(3),
    seed: str = Form(""),
) -> Response:
    """Start a game and go to its board; a fleet that cannot be played is one line under its
    field (400), and no game is made."""
    known = set(captain_names())
    for name, seat in (("side A", seat_a), ("side B", seat_b)):
        if seat != HUMAN and seat not in known:
            raise InvalidInputError(
                f"{name}: no captain '{seat}'; choose human or one of {', '.join(sorted(known))}"
            )
    if not 1 <= turns <= 200:
        raise InvalidInputError(f"turns {turns}: a battle lasts 1 to 200 turns")
    if scenario not in list(SCENARIOS):
        raise InvalidInputError(
            f"no scenario '{scenario}'; choose one of {', '.join(list(SCENARIOS))}"
        )
    try:
        number = int(seed) if seed.strip() else secrets.randbelow(10**6)
    except ValueError:
        raise InvalidInputError(f"seed '{seed}': a whole number, or leave it empty") from None
    if not 0 <= number < 2**63:
        raise InvalidInputError(f"seed {number}: 0 to 2**63 - 1")
    picked = (
        play_fleets.choose("a", fleet_a, fleet_a_text, await _upload(fleet_a_file)),
        play_fleets.choose("b", fleet_b, fleet_b_text, await _upload(fleet_b_file)),
    )
    if picked[0].fleet is None or picked[1].fleet is None:
        values = {
            "fleet_a": fleet_a,
            "fleet_b": fleet_b,
            "fleet_a_text": fleet_a_text,
            "fleet_b_text": fleet_b_text,
            "seat_a": seat_a,
            "seat_b": seat_b,
            "scenario": scenario,
            "turns": str(turns),
            "seed": seed,
        }
        errors = {c.field: c.problem for c in picked if c.fleet is None}
        return render(request, "play_new.html.j2", _new_game_ctx(values, errors), 400)
    fleets = (picked[0].fleet, picked[1].fleet)
    sc = builtin_scenario(scenario).model_copy(update={"turn_limit": turns})
    play = games(request)
    with play.lock:
        gid = play.new(PlaySession(sc, fleets, number, (seat_a, seat_b)))
    return RedirectResponse(f"/play/{gid}", status_code=303)


@router.get("/play/rules/{rule_id}", response_class=HTMLResponse)
def rule_page(rule_id: str, request: Request) -> HTMLResponse:
    """How we read a clause: its section of docs/rules.md."""
    found = rule_reading(rule_id.upper())
    if found is None:
        raise HTTPException(
            404, f"no reading of {rule_id} in docs/rules.md (docs/clauses.md lists every clause)"
        )
    return render(
        request,
        "play_rule.html.j2",
        {"rule": rule_id.upper(), "heading": found[0], "body": found[1]},
    )


@router.get("/play/{gid}", response_class=HTMLResponse)
def game_page(gid: str, request: Request) -> HTMLResponse:
    """The board of a game in progress."""
    play = games(request)
    with play.lock:
        play.get(gid)
    return render(request, "play.html.j2", {"gid": gid})


@router.get("/play/{gid}/state")
def game_state(gid: str, request: Request) -> JSONResponse:
    """The deciding side's view, its choices and what happened, as JSON."""
    with games(request).lock:
        return JSONResponse(state(gid, request))


@router.post("/play/{gid}/order")
async def give_order(gid: str, request: Request) -> JSONResponse:
    """Take an order for the deciding side: 200 with the new state, or 422 with the refusal."""
    try:
        body = await request.json()
    except (ValueError, RuntimeError):  # a form (read already by the CSRF guard), not JSON
        body = None
    text = body.get("order") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text.strip() or len(text) > 2000:
        raise HTTPException(422, 'send {"order": "<an order in the log\'s text form>"}')
    play = games(request)
    with play.lock:
        session = play.get(gid)
        refusal = session.submit(text)
        if refusal is not None:
            rules = [{"id": r, "url": f"/play/rules/{r}"} for r in refusal.rules]
            return JSONResponse({"refused": refusal.message, "rules": rules}, status_code=422)
        play.save(gid)
        return JSONResponse(state(gid, request))


@router.post("/play/{gid}/undo")
def undo(gid: str, request: Request) -> JSONResponse:
    """Take back the last order while it is not committed."""
    play = games(request)
    with play.lock:
        session = play.get(gid)
        try:
            taken = session.undo()
        except KolramiError as exc:
            return JSONResponse({"refused": str(exc), "rules": []}, status_code=409)
        play.save(gid)
        return JSONResponse({"undone": taken, **state(gid, request)})


@router.get("/play/{gid}/log.jsonl")
def game_log(gid: str, request: Request) -> PlainTextResponse:
    """The game's event log (replay it with kolrami replay LOG --orders)."""
    with games(request).lock:
        text = games(request).get(gid).log_text()
    return PlainTextResponse(
        text,
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="kolrami-{gid[:8]}.jsonl"'},
    )


@router.get("/play/{gid}/replay", response_class=HTMLResponse)
def game_replay(gid: str, request: Request) -> HTMLResponse:
    """The replay of the game so far: the same page `kolrami battle --replay` writes."""
    with games(request).lock:
        events = games(request).get(gid).battle.log.events()
    return HTMLResponse(render_replay(events), headers={"content-security-policy": REPLAY_CSP})
