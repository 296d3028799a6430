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
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from enum import StrEnum
from pathlib import Path
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Depends
from fastapi import File
from fastapi import Form
from fastapi import HTTPException
from fastapi import Request
from fastapi import UploadFile
from fastapi.responses import HTMLResponse
from fastapi.responses import JSONResponse
from fastapi.responses import PlainTextResponse
from fastapi.responses import RedirectResponse
from fastapi.responses import Response
from rich.console import Console

from kolrami.captains.registry import captain_names
from kolrami.catalog import Arc
from kolrami.catalog import builtin_pack
from kolrami.engine.events import Event
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.fleet.model import preset_names
from kolrami.report.narrate import Narrator
from kolrami.report.replay import render_replay
from kolrami.report.sideview import REFEREE
from kolrami.report.sideview import VIEWS
from kolrami.report.sideview import jsonl
from kolrami.report.sideview import view_events
from kolrami.rules import events as rev
from kolrami.rules.advanced.choices import describe
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.damage import penetration_target
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.scenarios.models import BUILTIN as SCENARIOS
from kolrami.scenarios.models import Minefield
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.session import HUMAN
from kolrami.sim.session import SIDES
from kolrami.sim.session import PlaySession
from kolrami.sim.session import choices
from kolrami.sim.session import percent
from kolrami.sim.session import rule_reading
from kolrami.web import play_fleets
from kolrami.web.deps import LoginRequiredError
from kolrami.web.deps import client_key
from kolrami.web.deps import current_organizer
from kolrami.web.deps import render
from kolrami.web.forms import MAX_UPLOAD
from kolrami.web.security import RateLimit
from kolrami.web.security import wait_text

_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: The replay page is one self-contained file with its script and style inline.
REPLAY_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)
ARCS = {"F": 0.0, "P": 90.0, "A": 180.0, "S": 270.0}  # each arc's centre, degrees to port


#: How much memory a session in the cache takes, for each byte of its log (measured: a 200-turn
#: AI battle of a 42 kB log holds about 190 kB; rounded up).
MEMORY_PER_LOG_BYTE = 6
MIB = 1024 * 1024


class PlayMode(StrEnum):
    """Who may use /play: anyone, logged-in organizers only, or nobody (kolrami serve --play)."""

    OPEN = "open"
    LOGIN = "login"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class PlayLimits:
    """What one client and the whole server may keep of /play (kolrami serve's options).

    A client is an address. New games and orders are rate-limited per client; each client may
    keep `client_games` games and `client_bytes` of logs, the folder `folder_games` and
    `folder_bytes` in all: past a cap the oldest finished games go first (the client's own for
    its caps), then games nobody has touched for `expire_seconds`; a game in progress is never
    removed before it expires, so when only those are left the new game is refused (429). The
    sessions kept in memory are at most `cache_games`, and about `cache_bytes` of memory."""

    mode: PlayMode = PlayMode.OPEN
    games_per_minute: float = 6.0
    games_burst: int = 10
    orders_per_minute: float = 600.0
    orders_burst: int = 60
    client_games: int = 20
    client_bytes: int = 20 * MIB
    folder_games: int = 2_000
    folder_bytes: int = 200 * MIB
    expire_seconds: float = 24 * 3600.0
    cache_games: int = 64
    cache_bytes: int = 64 * MIB


@dataclass(slots=True)
class _Game:
    """What the folder's index knows of one game: whose it is, its log's size, finished or
    not, and when it was last used (wall clock: the file's time after a restart)."""

    client: str
    size: int
    finished: bool
    used: float
    shown: str | None = None  # the side last shown (hot-seat's 'pass the device')


class PlayFullError(HTTPException):
    """A new game refused: the client's or the folder's caps are reached by games in progress."""


@dataclass(slots=True)
class PlayGames:
    """The games in progress: their logs in `folder`, an index of them, and a bounded cache of
    their sessions in memory (a session dropped from it is rebuilt from its log)."""

    folder: Path
    limits: PlayLimits = field(default_factory=PlayLimits)
    clock: Callable[[], float] = time.time
    cache: OrderedDict[str, PlaySession] = field(default_factory=OrderedDict)
    index: dict[str, _Game] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    new_games: RateLimit = field(init=False)
    orders: RateLimit = field(init=False)
    _sizes: dict[str, int] = field(default_factory=dict)  # cached game: its memory, reckoned

    def __post_init__(self) -> None:
        self.new_games = RateLimit(self.limits.games_per_minute, self.limits.games_burst)
        self.orders = RateLimit(self.limits.orders_per_minute, self.limits.orders_burst)
        if self.folder.is_dir():  # a restarted server: the games it had, nobody's in particular
            for path in self.folder.glob("*.tmp"):
                path.unlink(missing_ok=True)
            for path in self.folder.glob("*.jsonl"):
                if _GAME_ID.match(path.stem):
                    st = path.stat()
                    self.index[path.stem] = _Game("", st.st_size, True, st.st_mtime)

    def path(self, gid: str) -> Path:
        if not _GAME_ID.match(gid):
            raise HTTPException(404, "there is no such game here")
        return self.folder / f"{gid}.jsonl"

    # --- the caps ---------------------------------------------------------------------------

    def folder_bytes(self) -> int:
        """The bytes of every game's log in the folder, as the index counts them."""
        return sum(g.size for g in self.index.values())

    def cached_bytes(self) -> int:
        """The memory the cached sessions are reckoned to take."""
        return sum(self._sizes.values())

    def _expired(self, g: _Game, now: float) -> bool:
        return now - g.used > self.limits.expire_seconds

    def sweep(self) -> None:
        """Remove every game nobody has used for `expire_seconds`."""
        now = self.clock()
        for gid in [k for k, g in self.index.items() if self._expired(g, now)]:
            self.remove(gid)

    def remove(self, gid: str) -> None:
        """Forget a game and delete its log."""
        self.index.pop(gid, None)
        self._uncache(gid)
        self.path(gid).unlink(missing_ok=True)

    def _room(self, over: Callable[[], bool], mine: Callable[[_Game], bool], keep: str) -> bool:
        """Remove games of `mine` (oldest finished first, then expired ones) until `over` is
        false; False when it still is."""
        now = self.clock()
        for wanted in (lambda g: g.finished, lambda g: self._expired(g, now)):
            if not over():
                return True
            found = sorted(
                (g.used, gid)
                for gid, g in self.index.items()
                if gid != keep and mine(g) and wanted(g)
            )
            for _, gid in found:
                if not over():
                    break
                self.remove(gid)
        return not over()

    def make_room(self, client: str, size: int, keep: str = "") -> None:
        """Make room for `size` more bytes of `client` (a new game when `keep` is empty):
        refused (429) when only games in progress are left to remove."""
        lim, new = self.limits, 0 if keep else 1
        of = [lambda g: g.client == client, lambda g: True]

        def client_over() -> bool:
            games = [g for g in self.index.values() if g.client == client]
            return (
                len(games) + new > lim.client_games
                or sum(g.size for g in games) + size > lim.client_bytes
            )

        def folder_over() -> bool:
            return (
                len(self.index) + new > lim.folder_games
                or self.folder_bytes() + size > lim.folder_bytes
            )

        if not self._room(client_over, of[0], keep):
            raise PlayFullError(
                429,
                f"you have {sum(g.client == client for g in self.index.values())} games in "
                f"progress here, the most one device may keep ({lim.client_games} games, "
                f"{lim.client_bytes // MIB} MiB): finish one, or come back when one has "
                f"expired ({_hours(lim.expire_seconds)} without a move)",
            )
        if not self._room(folder_over, of[1], keep):
            raise PlayFullError(
                429,
                f"this server keeps {lim.folder_games} games, {lim.folder_bytes // MIB} MiB, "
                "and every one is in progress: try again when one has finished or expired",
            )

    # --- the cache --------------------------------------------------------------------------

    def _cache(self, gid: str, session: PlaySession, size: int) -> None:
        self._uncache(gid)
        self.cache[gid] = session
        self._sizes[gid] = size * MEMORY_PER_LOG_BYTE
        while len(self.cache) > 1 and (
            len(self.cache) > self.limits.cache_games
            or self.cached_bytes() > self.limits.cache_bytes
        ):
            self._uncache(next(iter(self.cache)))  # the least recently used

    def _uncache(self, gid: str) -> None:
        self.cache.pop(gid, None)
        self._sizes.pop(gid, None)

    # --- games ------------------------------------------------------------------------------

    def new(self, session: PlaySession, client: str = "") -> str:
        """Keep a new game of `client` (room made first, or refused with 429)."""
        gid = secrets.token_urlsafe(18)
        text = session.log_text()
        size = len(text.encode())
        self.sweep()
        self.make_room(client, size)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.index[gid] = _Game(client, 0, session.over, self.clock())
        self._write(gid, text)
        self._cache(gid, session, size)
        return gid

    def get(self, gid: str) -> PlaySession:
        path = self.path(gid)
        g = self.index.get(gid)
        if g is not None and self._expired(g, self.clock()):
            self.remove(gid)
            raise HTTPException(
                404, f"this game expired: nobody played it for {_hours(self.limits.expire_seconds)}"
            )
        session = self.cache.get(gid)
        if session is not None:
            self.cache.move_to_end(gid)
            return session
        if g is None:
            raise HTTPException(404, "there is no such game here")
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            self.index.pop(gid, None)
            raise HTTPException(404, "there is no such game here") from None
        session = PlaySession.resume(text)
        g.finished = session.over
        self._cache(gid, session, g.size)
        return session

    def save(self, gid: str) -> None:
        """Write the game's log, whole or not at all (a new file renamed over the old); the
        game grew: room is made for it (other games' finished logs go first)."""
        session = self.cache[gid]
        g = self.index[gid]
        text = session.log_text()
        size = len(text.encode())
        if size > g.size:
            try:
                self.make_room(g.client, size - g.size, keep=gid)
            except PlayFullError:
                self._uncache(gid)  # the order is not kept: the game is as its log left it
                raise
        g.finished, g.used = session.over, self.clock()
        self._write(gid, text)
        self._cache(gid, session, size)

    def _write(self, gid: str, text: str) -> None:
        path = self.path(gid)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        self.index[gid].size = len(text.encode())

    def shown(self, gid: str, side: str) -> str | None:
        """The side shown last time (None: none yet), and `side` kept as shown now."""
        g = self.index.get(gid)
        if g is None:
            return None
        last, g.shown = g.shown, side
        return last


def _hours(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:g} hour{'s' if hours != 1 else ''}"


def play_door(request: Request) -> None:
    """/play as the organizer set it (kolrami serve --play): open, for logged-in organizers
    only, or off; and each client's orders within their rate."""
    play: PlayGames = request.app.state.play
    if play.limits.mode == PlayMode.OFF:
        raise HTTPException(
            403, "playing in the browser is switched off on this server (kolrami serve --play)"
        )
    if play.limits.mode == PlayMode.LOGIN and current_organizer(request) is None:
        raise LoginRequiredError(request.url.path)


def _rate(limit: RateLimit, request: Request, what: str) -> None:
    wait = limit.take(client_key(request))
    if wait:
        raise HTTPException(
            429,
            f"too many {what} from this device: wait {wait_text(wait)} and send it again",
            headers={"Retry-After": str(wait)},
        )


router = APIRouter(tags=["play"], dependencies=[Depends(play_door)])


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


def _mines(session: PlaySession, side: str) -> list[dict[str, Any]]:
    """The mines `side` knows of: its own side's (those laid in play too) and the enemy's it
    has found (the scenario as the side sees it, ADV-MINE-03)."""
    out = []
    for f in session.view(side).scenario.terrain:
        if isinstance(f, Minefield):
            for x, y in f.mines:
                out.append({"x": x, "y": y, "owner": f.owner, "firing": bool(f.firing)})
    return out


def _menu(session: PlaySession) -> dict[str, Any] | None:
    """The decision's legal choices (the advanced game's, Peak Performance's returns), each an
    order the rules accept now: whole orders as buttons, ships' parts as a select each."""
    m = session.menu()
    d = session.decision
    if m is None or d is None or not m.choices:
        return None
    return {
        "head": m.head,
        "title": describe(d),
        "choices": [
            {"order": c.order, "label": c.label, "group": c.group, "item": c.item}
            for c in m.choices
        ],
    }


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
    last = play.shown(gid, side)
    pass_to = side if hot_seat and session.hides_anything() and last not in (None, side) else None
    seen = view_events(events, _default_view(session, side))  # what this side saw
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
        "mines": _mines(session, side),
        "side": side,
        "over": session.over,
        "result": None
        if session.result is None
        else {"winner": session.result.winner, "reason": session.result.reason},
        "ships": _ships(session, side),
        "decision": _decision(session),
        "choices": choices(session, d) if d is not None else [],
        "menu": _menu(session),
        "reach": _reach(session, side) if d is not None else [],
        "undoable": session.undoable(),
        "volleys": _volleys(seen),
        "narration": _narration(seen)[-60:],
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


#: a side's pasted fleet: bounded here, and past a fleet's own bound said under its field
PastedFleet = Annotated[str, Form(max_length=play_fleets.MAX_PASTE)]


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
    fleet_a_text: PastedFleet = "",
    fleet_b_text: PastedFleet = "",
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
            "fleet_a_text": play_fleets.echoed(fleet_a_text),
            "fleet_b_text": play_fleets.echoed(fleet_b_text),
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
    _rate(play.new_games, request, "new games")
    session = PlaySession(sc, fleets, number, (seat_a, seat_b))  # AI sides play here, unlocked
    with play.lock:
        gid = play.new(session, client_key(request))
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
    _rate(play.orders, request, "orders")
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
    _rate(play.orders, request, "orders")
    with play.lock:
        session = play.get(gid)
        try:
            taken = session.undo()
        except KolramiError as exc:
            return JSONResponse({"refused": str(exc), "rules": []}, status_code=409)
        play.save(gid)
        return JSONResponse({"undone": taken, **state(gid, request)})


def _default_view(session: PlaySession, side: str) -> str:
    """Whose view a page of the game shows unasked: the referee's once it is over (nothing is
    hidden any more) or when its rules hide nothing (FPF), else the one human's side against an
    AI, else the deciding `side`."""
    if session.over or not session.hides_anything():
        return REFEREE
    humans = [s for s, seat in zip(SIDES, session.seats, strict=True) if seat == HUMAN]
    return humans[0] if len(humans) == 1 else side


def _view(session: PlaySession, asked: str | None) -> str:
    """The view asked for (`?view=A|B|referee`), if the game lets it be seen now: a side's own
    view always; the other side's or the referee's only once the game is over, or, hot-seat
    (both players at one screen), a side's. 400 or 403 with the reason otherwise."""
    d = session.decision
    mine = _default_view(session, d.side if d is not None else "A")
    if asked is None or asked == "":
        return mine
    if asked not in VIEWS:
        raise HTTPException(400, f"view '{asked[:20]}': one of {', '.join(VIEWS)}")
    hot_seat = all(seat == HUMAN for seat in session.seats)
    if mine == REFEREE or asked == mine or (hot_seat and asked != REFEREE):
        return asked
    raise HTTPException(
        403,
        f"the {'referee' if asked == REFEREE else 'side ' + asked}'s view of this game opens "
        "when it is over: what it holds is hidden from you until then",
    )


@router.get("/play/{gid}/log.jsonl")
def game_log(gid: str, request: Request, view: str | None = None) -> PlainTextResponse:
    """The game's event log in a view (`?view=A|B|referee`, `_view`): the referee's re-runs
    with kolrami replay LOG --orders; a side's holds only what that side saw."""
    with games(request).lock:
        session = games(request).get(gid)
        shown = _view(session, view)
        text = (
            session.log_text()
            if shown == REFEREE
            else jsonl(view_events(session.battle.log.events(), shown))
        )
    suffix = "" if shown == REFEREE else f"-side-{shown}"
    return PlainTextResponse(
        text,
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="kolrami-{gid[:8]}{suffix}.jsonl"'},
    )


@router.get("/play/{gid}/replay", response_class=HTMLResponse)
def game_replay(gid: str, request: Request, view: str | None = None) -> HTMLResponse:
    """The replay of the game so far, in a view (`_view`): the page `kolrami battle --replay`
    writes, a side's holding only what that side saw."""
    with games(request).lock:
        session = games(request).get(gid)
        shown = _view(session, view)
        events = session.battle.log.events()
    return HTMLResponse(
        render_replay(events, view=shown), headers={"content-security-policy": REPLAY_CSP}
    )
