"""Transfer: a whole event as one JSON document (for the regional organizer, or a backup) and
the event made again from it."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.tournament import core
from kolrami.tournament.export_file import checked
from kolrami.tournament.models import CorrectionRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import GameRow
from kolrami.tournament.models import PlayerRow
from kolrami.tournament.models import RollOffRow
from kolrami.tournament.models import RoundRow
from kolrami.tournament.models import now
from kolrami.tournament.names import name_key
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.services.pairing import games
from kolrami.tournament.services.registration import fleets
from kolrami.tournament.services.registration import settings
from kolrami.tournament.services.standings import event_state


def export(s: Session, event_name: str | None = None) -> dict[str, Any]:
    """The whole event as one JSON document, read in one transaction."""
    e = Events(s).named(event_name)
    state = event_state(s, e)
    kept = fleets(s, e.name)
    players = [
        {
            "name": p.name,
            "email": p.email,
            "joined_round": p.joined_round,
            "dropped_after": p.dropped_after,
            "fleet": kept[p.name].model_dump(mode="json", exclude_none=True),
        }
        for p in e.players
    ]
    return {
        "kolrami": "event/1",
        "event": {
            **settings(s, e.name),
            "venue": e.venue,
            "self_registration": bool(e.self_registration),
        },
        "players": players,
        "rounds": [games(s, e.name, n) for n in range(1, len(state.rounds) + 1)],
        "roll_offs": [
            {
                "after_round": r.after_round,
                "battle_points": r.battle_points,
                "fleet_points": r.fleet_points,
                "throws": {p: list(t) for p, t in r.throws},
                "source": r.source,
            }
            for r in state.roll_offs
        ],
        "corrections": Audit(s).lines(e),
        "standings": [core.standing_json(x) for x in state.standings()],
        "timers": [_timer_json(r) for r in e.round_rows if r.timer_started_at is not None],
    }


def _time(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _timer_json(r: RoundRow) -> dict[str, Any]:
    """A round's timer in the export (UTC without a zone, as the store keeps it)."""
    return {
        "round": r.number,
        "started_at": _time(r.timer_started_at),
        "paused_at": _time(r.timer_paused_at),
        "paused_seconds": r.timer_paused_seconds,
        "added_minutes": r.timer_added_minutes,
    }


def standings_csv(s: Session, event_name: str | None = None) -> str:
    """The standings as CSV (one row a player, as the standings page ranks them), for a
    spreadsheet or the regional organizer."""
    e = Events(s).named(event_name)
    state = event_state(s, e)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            "rank",
            "title",
            "player",
            "battle_points",
            "fleet_points",
            "fp_by_round",
            "byes",
            "dropped",
            "shared_rank",
        ]
    )
    shared = {x.rank for x in state.standings() if x.tied}
    for x in state.standings():
        writer.writerow(
            [
                x.rank,  # a number; a shared rank is said in its own column, never as "=3"
                _cell(x.title),
                _cell(x.player),
                x.battle_points,
                x.fleet_points,
                " / ".join(str(fp) for fp in x.fp_by_round),
                x.byes,
                "yes" if x.dropped else "",
                "yes" if x.rank in shared else "",
            ]
        )
    return out.getvalue()


#: What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text as a spreadsheet cell: one that a spreadsheet would read as a formula (starting
    with = + - @, a tab or a carriage return) is prefixed with a quote, so it stays text."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _import_roll_offs(s: Session, event_id: int, ids: dict[str, int], rolls: Any) -> None:
    """An export's roll-offs (a list of ties and their throws; before roll-offs named their
    tie, a dict of each player's result); a bad one raises as import_event reads it."""
    if isinstance(rolls, dict):  # an export from before roll-offs named their tie
        for pname, result in rolls.items():
            s.add(
                RollOffRow(
                    event_id=event_id,
                    player_id=ids[pname],
                    result=int(result),
                    source="imported",
                )
            )
    else:
        for batch, r in enumerate(rolls, start=1):
            roll = core.RollOff(
                int(r["battle_points"]),
                int(r["fleet_points"]),
                tuple((pn, tuple(int(n) for n in t)) for pn, t in r["throws"].items()),
            )
            core.check_throws(dict(roll.throws))
            for pname, t in roll.throws:
                s.add(
                    RollOffRow(
                        event_id=event_id,
                        player_id=ids[pname],
                        result=roll.value(pname),
                        source=str(r.get("source", "imported"))[:100],
                        batch=batch,
                        after_round=int(r.get("after_round", 0)),
                        battle_points=roll.battle_points,
                        fleet_points=roll.fleet_points,
                        throws=json.dumps(list(t)),
                    )
                )


def _at(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def import_event(s: Session, doc: dict[str, Any], source: str = "the event export") -> str:
    """Recreate an exported event, in one transaction; returns its name. The file is read
    through the same rules as the forms (kolrami.tournament.export_file) first: a file that
    breaks one is refused in one line, and nothing is stored."""
    doc = checked(doc, source)
    name = doc["event"]["name"]
    if Events(s).exists(name):
        raise InvalidInputError(
            f"an event '{name}' exists already in this store: import it into another store, or "
            "rename it in the file"
        )
    try:
        ev = doc["event"]
        e = EventRow(
            name=name,
            date=ev.get("date", ""),
            sp_limit=ev["sp_limit"],
            scenario=ev["scenario"],
            rounds=ev["rounds"],
            round_minutes=ev.get("round_minutes", 60),
            seed=ev["seed"],
            titles=json.dumps(ev.get("titles", list(core.DEFAULT_TITLES))),
            faction_surcharge=ev.get("faction_surcharge", 0),
            max_resets=ev.get("max_resets"),
            venue=ev.get("venue", ""),
            self_registration=ev.get("self_registration", False),
        )
        s.add(e)
        s.flush()
        ids = {}
        for p in doc["players"]:
            row = PlayerRow(
                event_id=e.id,
                name=p["name"],
                name_key=name_key(p["name"]),
                email=p.get("email", ""),
                fleet_json=json.dumps(p["fleet"]),
                joined_round=p.get("joined_round", 1),
                dropped_after=p.get("dropped_after"),
            )
            s.add(row)
            s.flush()
            ids[p["name"]] = row.id
        timers = {t["round"]: t for t in doc.get("timers", [])}
        for number, games in enumerate(doc["rounds"], start=1):
            t = timers.get(number, {})
            r = RoundRow(
                event_id=e.id,
                number=number,
                seed=ev["seed"],
                timer_started_at=_at(t.get("started_at")),
                timer_paused_at=_at(t.get("paused_at")),
                timer_paused_seconds=t.get("paused_seconds", 0),
                timer_added_minutes=t.get("added_minutes", 0),
            )
            s.add(r)
            s.flush()
            for g in games:
                s.add(
                    GameRow(
                        round_id=r.id,
                        table=g["table"],
                        a_id=ids[g["a"]],
                        b_id=ids[g["b"]] if g.get("b") else None,
                        winner_id=ids[g["winner"]] if g.get("winner") else None,
                        fp_a=g.get("fp_a"),
                        fp_b=g.get("fp_b"),
                        build_initials_a=g.get("build_initials_a", ""),
                        build_initials_b=g.get("build_initials_b", ""),
                        result_initials_a=g.get("result_initials_a", ""),
                        result_initials_b=g.get("result_initials_b", ""),
                        flag=g.get("flag", ""),
                        entered_by=g.get("entered_by", ""),
                    )
                )
        _import_roll_offs(s, e.id, ids, doc.get("roll_offs", []))
        for c in doc.get("corrections", []):
            at = c.get("at")
            s.add(
                CorrectionRow(
                    event_id=e.id,
                    who=c["who"],
                    what=c["what"],
                    # the time it was made, not the time of the import
                    at=datetime.fromisoformat(at) if isinstance(at, str) else now(),
                )
            )
        s.flush()  # a duplicate row is refused here, inside the import's savepoint
        return str(name)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInputError(f"not a Kolrami event export: missing or bad {exc}") from None
    except IntegrityError:
        raise InvalidInputError(
            "not a Kolrami event export: it names a player or a table twice; export the event "
            "again (kolrami tournament export)"
        ) from None
