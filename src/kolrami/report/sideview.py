"""A battle's log as one side saw it: what a side's replay, narration and log download show.

The referee's view is the whole log. A side's view (`side_events(events, side)`) keeps what that
side could know at the time and nothing else (docs/rules.md, "Side views"):

- the other side's orders are left out (their outcomes, the moves and shots seen, stay);
- an enemy ship under its cloak (ADV-CLOAK) is out of sight: every event naming it is left out,
  except in a phase the side made it out (its probe sensed it, ADV-PROBE; a ship of its pinged it,
  ADV-CLOAK-03; a dispersal torpedo found it, ADV-CLOAK-08; it fired at the side's ships), when
  that phase's events about it stay. A ship that cloaks before its first move was deployed under
  its cloak: it is placed where the side first made it out, and a ship the side never made out
  is not in its view at all (no card, no placement, no line of the log);
- the enemy's probes are the enemy's (ADV-PROBE): their launches and readings are left out;
  the side's shots at one stay;
- the enemy's mines (ADV-MINE-03: none is found until a ship enters its hex) are only those
  the side found by the end of the log: a mine one of its ships rolled on, or that fired at or
  was shot by one of its ships. Mines the enemy lays in play are left out until then, and the
  header's minefields list only the found ones (each keeps its own key, `mine_keys`);
- the header's other fleet lists only the ships the side saw, without its maker's notes
  (`vendor`, which may describe the ships it hides).

Every event kept is the log's own, unchanged, but for a deployed-under-cloak ship's placement
(where it was first made out) and the header (the other fleet's unseen ships and unfound mines
left out), so a side's view reads like any log: the replay, the narrator and the JSONL writer take
it as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import fields
from dataclasses import replace
from typing import Any

from kolrami.catalog import builtin_pack
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine.events import Event
from kolrami.errors import KolramiError
from kolrami.rules import events as ev
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import field_events as fe
from kolrami.rules.advanced import terrain_events as tre

#: The views a log can be shown in: the referee's (everything) or one side's.
REFEREE = "referee"
VIEWS = (REFEREE, "A", "B")
#: The fields of an event that name a ship.
_SHIP_FIELDS = ("ship", "target", "of", "by", "owner", "on", "attacker", "holder", "base")

Phase = tuple[int, int]


def _ships_named(e: Event) -> list[str]:
    out = []
    for f in fields(e):
        if f.name in _SHIP_FIELDS:
            value = getattr(e, f.name)
            if isinstance(value, str):
                out.append(value)
    return out


def _revealed(e: Event, own: set[str]) -> str | None:
    """The enemy ship this event shows the side (`own` its ships) despite a cloak, or None."""
    if isinstance(e, fe.ProbeSensed) and e.found and e.owner in own:
        return e.target
    if isinstance(e, ae.CloakPinged) and e.pinged and e.ship in own:
        return e.target
    if isinstance(e, ae.DispersalRolled) and e.hit and e.ship in own:
        return e.target
    if isinstance(e, ae.AttackRolled | ae.DamageDealt) and e.target in own:
        return e.ship  # it fired at us: its shot shows where it is
    return None


def _has_cloak(cls: str) -> bool:
    """Whether a ship class carries a cloaking device in the advanced data."""
    try:
        ship = builtin_pack().get(cls)
    except KolramiError:  # a class this data does not know: nothing says it has one
        return False
    return advanced_pack().sheet(ship).cloak


def _mine_found(e: Event, own: set[str]) -> str | None:
    """The key of an enemy mine this event shows the side, or None."""
    if isinstance(e, tre.MineRolled | tre.MineFired | tre.MineShot) and e.ship in own:
        return e.mine
    return None


class _Sight:
    """What one side saw over a whole log: a first pass over it."""

    def __init__(self, events: Sequence[Event], side: str) -> None:
        self.side = side
        self.sides: dict[str, str] = {}
        self.perceived: dict[Phase, set[str]] = {}
        self.first_seen: dict[str, tuple[float, float, int]] = {}
        self.under_at_start: set[str] = set()  # cloaked before their first move
        self.mines: set[str] = set()
        self.enemy_probes: set[str] = set()
        self.enemy_mines: set[str] = set()  # laid in play by the enemy
        moved: set[str] = set()
        under: set[str] = set()
        phase: Phase = (0, 0)
        own: set[str] = set()
        for e in events:
            if isinstance(e, ev.ShipPlaced):
                self.sides[e.ship] = e.side
                if e.side == side:
                    own.add(e.ship)
            elif isinstance(e, ev.TurnStarted):
                phase = (e.turn, 0)
            elif isinstance(e, ae.PhaseStarted):
                phase = (e.turn, e.phase)
            elif isinstance(e, ev.ShipMoved):
                moved.add(e.ship)
            elif isinstance(e, ae.CloakChanged) and self.enemy(e.ship):
                if e.hidden:
                    under.add(e.ship)
                    if e.ship not in moved and e.ship not in self.first_seen:
                        self.under_at_start.add(e.ship)
                else:
                    under.discard(e.ship)
            elif isinstance(e, fe.ProbeLaunched) and self.enemy(e.ship):
                self.enemy_probes.add(e.probe)
            elif isinstance(e, tre.MineLaid) and self.enemy(e.ship):
                self.enemy_mines.add(e.mine)
            ship = _revealed(e, own)
            if ship is not None and self.enemy(ship):
                self.perceived.setdefault(phase, set()).add(ship)
            mine = _mine_found(e, own)
            if mine is not None:
                self.mines.add(mine)
        # where each deployed-under-cloak ship was first made out: a second look, in order
        where: dict[str, tuple[float, float, int]] = {}
        for e in events:
            if isinstance(e, ev.ShipPlaced):
                where[e.ship] = (e.x, e.y, e.heading)
            elif isinstance(e, ev.ShipMoved):
                x, y = e.path[-1]
                where[e.ship] = (x, y, e.heading)
            ship = _revealed(e, own)
            if ship in self.under_at_start and ship not in self.first_seen:
                self.first_seen[ship] = where[ship]

    def enemy(self, ship: str) -> bool:
        side = self.sides.get(ship)
        return side is not None and side != self.side

    def never_seen(self, ship: str) -> bool:
        return ship in self.under_at_start and ship not in self.first_seen


def _header(header: dict[str, Any], sight: _Sight, placed: list[str]) -> dict[str, Any]:
    """The header as the side knows it: the other fleet without its unseen ships, the other
    side's minefields with only the mines found."""
    out = dict(header)
    fleets = list(header.get("fleets", []))
    other = 1 if sight.side == "A" else 0
    if len(fleets) == 2 and isinstance(fleets[other], dict):
        fleet = dict(fleets[other])
        ships = sorted(fleet.get("ships", []), key=lambda s: int(s.get("squadron", 1)))
        prefix = "B" if sight.side == "A" else "A"
        ids = [f"{prefix}{n}" for n in range(1, len(ships) + 1)]
        fleet["ships"] = [s for s, sid in zip(ships, ids, strict=False) if sid in placed]
        fleet.pop("vendor", None)  # its maker's notes may list the ships it hides
        fleets[other] = fleet
        out["fleets"] = fleets
    scenario = dict(header.get("scenario", {}))
    terrain = []
    for number, t in enumerate(scenario.get("terrain", []), start=1):
        if t.get("kind") == "minefield" and t.get("owner") not in (None, sight.side):
            keys = [f"{number}.{k}" for k in range(1, len(t.get("mines", [])) + 1)]
            found = [
                (key, mine)
                for key, mine in zip(keys, t.get("mines", []), strict=False)
                if key in sight.mines
            ]
            t = {**t, "mines": [m for _, m in found], "mine_keys": [k for k, _ in found]}
        terrain.append(t)
    if "terrain" in scenario:
        scenario["terrain"] = terrain
        out["scenario"] = scenario
    out["view"] = sight.side
    return out


class LiveView:
    """One side's view of a battle as it is played, event by event (`keep`), from what is known
    so far: the narration at the table (kolrami play). `side_events` reads a whole log by the
    same rules with the log's look-ahead (`sight`: a ship made out later in a phase, the mines
    found by the end)."""

    def __init__(self, side: str, sight: _Sight | None = None) -> None:
        self.side = side
        self.sight = sight
        self.sides: dict[str, str] = {}
        self.own: set[str] = set()
        self.under: set[str] = set()  # enemy ships out of sight under their cloaks
        self.moved: set[str] = set()
        self.phase: Phase = (0, 0)
        self.seen: set[str] = set()  # enemy ships made out this phase, so far
        self.ever: set[str] = set()  # made out at some time, so far
        self.probes: set[str] = set()  # the enemy's
        self.laid: set[str] = set()  # mines the enemy laid in play
        self.found: set[str] = set()  # enemy mines found so far
        self.cloaks = False  # the battle plays adv-cloak
        #: enemy ships with a cloak not yet seen to move: they may be deployed under it (a
        #: whole log's `sight` knows which are)
        self.pending: set[str] = set()

    def enemy(self, ship: str) -> bool:
        side = self.sides.get(ship)
        return side is not None and side != self.side

    def keep(self, e: Event) -> bool:
        """Whether the side sees `e` (each event once, in log order)."""
        if isinstance(e, ev.BattleStarted):
            self.cloaks = "adv-cloak" in e.header.get("rules", [])
            return True
        if isinstance(e, ev.ShipPlaced):
            self.sides[e.ship] = e.side
            if e.side == self.side:
                self.own.add(e.ship)
            elif self.sight is None and self.cloaks and _has_cloak(e.cls):
                self.pending.add(e.ship)
            return True
        if isinstance(e, ev.TurnStarted | ae.PhaseStarted):
            self.phase = (e.turn, e.phase if isinstance(e, ae.PhaseStarted) else 0)
            self.seen = set()
        elif isinstance(e, ev.ShipMoved):
            self.moved.add(e.ship)
            if e.ship not in self.under:
                self.pending.discard(e.ship)
        if isinstance(e, ev.OrderGiven):
            return e.side == self.side
        ship = _revealed(e, self.own)
        if ship is not None and self.enemy(ship):
            self.seen.add(ship)
            self.ever.add(ship)
            self.pending.discard(ship)
        mine = _mine_found(e, self.own)
        if mine is not None:
            self.found.add(mine)
        if isinstance(e, ae.CloakChanged) and self.enemy(e.ship):
            if not e.hidden:
                self.under.discard(e.ship)
                self.pending.discard(e.ship)
                return True
            if e.ship in self.under:
                return False  # out of sight already
            self.under.add(e.ship)
            # one that cloaks before its first move was deployed under its cloak: unseen
            return e.ship in self.moved or e.ship in self.ever
        if isinstance(e, fe.ProbeLaunched) and self.enemy(e.ship):
            self.probes.add(e.probe)
            return False
        if getattr(e, "probe", None) in self.probes and not isinstance(e, fe.ProbeFiredAt):
            return False
        if isinstance(e, tre.MineLaid) and self.enemy(e.ship):
            self.laid.add(e.mine)
            return False
        found = self.sight.mines if self.sight is not None else self.found
        if getattr(e, "mine", None) in self.laid - found:
            return False
        seen = self.sight.perceived.get(self.phase, set()) if self.sight else self.seen
        named = _ships_named(e)
        if any(s in self.pending for s in named):
            return False
        return not any(s in self.under and s not in seen for s in named)


def side_events(events: Iterable[Event], side: str) -> list[Event]:
    """The log as `side` ('A' or 'B') saw it (the module docstring); the referee's view is the
    log itself (`view_events`)."""
    events = list(events)
    sight = _Sight(events, side)
    placed = [
        e.ship for e in events if isinstance(e, ev.ShipPlaced) and not sight.never_seen(e.ship)
    ]
    live = LiveView(side, sight)
    out: list[Event] = []
    for e in events:
        if isinstance(e, ev.BattleStarted):
            out.append(replace(e, header=_header(e.header, sight, placed)))
            continue
        kept = live.keep(e)
        if isinstance(e, ev.ShipPlaced) and e.ship in sight.under_at_start:
            if e.ship in sight.first_seen:
                x, y, heading = sight.first_seen[e.ship]
                out.append(replace(e, x=x, y=y, heading=heading))
                # placed out of sight: drawn only once it is made out
                out.append(ae.CloakChanged(e.ship, True, "deployed under its cloak"))
                live.under.add(e.ship)
            continue
        if kept and not any(sight.never_seen(s) for s in _ships_named(e)):
            out.append(e)
    return out


def view_events(events: Iterable[Event], view: str) -> list[Event]:
    """The log in `view`: the referee's (all of it) or a side's (`side_events`)."""
    if view not in VIEWS:
        raise ValueError(f"view '{view}': one of {', '.join(VIEWS)}")
    return list(events) if view == REFEREE else side_events(events, view)


def jsonl(events: Iterable[Event]) -> str:
    """Events as JSON lines, as a battle's log writes them (kolrami.engine.eventlog)."""
    return "".join(
        json.dumps(e.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n" for e in events
    )
