"""Players joining from their phones: the organizer opens an event to self-registration, a
player asks to join with his name and fleet, and the request waits until the organizer
approves it (the player is then registered through registration.add_player, with every check
of the organizer's own entry: the name, the fleet's legality, FBS-12) or refuses it. Also the
event's venue and the archive of past events by venue."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy import func
from sqlalchemy import select
from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import read_fleet
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import JoinRequestRow
from kolrami.tournament.models import now
from kolrami.tournament.names import clean_name
from kolrami.tournament.names import name_key
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Players
from kolrami.tournament.services.registration import add_player

#: The most requests an event keeps waiting at once: a form anyone can send must not be able
#: to fill the store.
MAX_PENDING = 200
VENUE_LENGTH = 200
#: Hours a request waits before it lapses: an evening's requests do not pile up for the next.
JOIN_HOURS = 12


def public_settings(s: Session, event_name: str | None) -> dict[str, Any]:
    """The event's venue and whether players may ask to join from their phones."""
    e = Events(s).named(event_name)
    return {"venue": e.venue, "self_registration": bool(e.self_registration)}


def set_public_settings(
    s: Session, event_name: str | None, venue: str, self_registration: bool, who: str
) -> None:
    """Set the venue and open or close self-registration; logged when it changes."""
    venue = " ".join(venue.split())
    if len(venue) > VENUE_LENGTH:
        raise InvalidInputError(
            f"a venue of {len(venue)} characters: at most {VENUE_LENGTH}", field="venue"
        )
    e = Events(s).named(event_name)
    if e.venue != venue:
        e.venue = venue
        Audit(s).log(e, who, f"venue set to '{venue}'" if venue else "venue cleared")
    if bool(e.self_registration) != self_registration:
        e.self_registration = self_registration
        Audit(s).log(e, who, "self-registration " + ("opened" if self_registration else "closed"))


def _finished(e: EventRow) -> bool:
    return len(e.round_rows) >= e.rounds and all(
        g.b_id is None or (g.winner_id is not None and g.fp_a is not None and g.fp_b is not None)
        for r in e.round_rows
        for g in r.games
    )


def request_join(
    s: Session, event_name: str | None, name: str, fleet: Fleet, email: str = ""
) -> int:
    """A player's request to join (pending); returns its id. Refused when the event is not
    open to self-registration, has paired all its rounds, or has the name registered already;
    a request sent again under the same name takes the place of the earlier one."""
    e = Events(s).named(event_name)
    if not e.self_registration:
        raise InvalidInputError(
            f"{e.name} does not take registrations from phones: ask the organizer to register "
            "you at the counter"
        )
    if len(e.round_rows) >= e.rounds:
        raise InvalidInputError(f"{e.name} has paired all its {e.rounds} rounds: it is too late")
    name = clean_name(name)
    key = name_key(name)
    email = email.strip()
    if len(email) > 200 or (email and "@" not in email):
        raise InvalidInputError("email: an address like ann@example.org, or nothing", field="email")
    same = Players(s).same_name(e, name, key)
    if same is not None:
        raise InvalidInputError(
            f"'{name}' is registered already in {e.name}"
            + ("" if same == name else f" (as '{same}')")
            + ": add an initial or a surname, or ask the organizer",
            field="name",
        )
    _lapse(s, e)
    waiting = select(JoinRequestRow).where(
        JoinRequestRow.event_id == e.id, JoinRequestRow.status == "pending"
    )
    for row in s.scalars(waiting):
        if name_key(row.name) == key:  # sent again (a corrected fleet): the new one counts,
            s.delete(row)  # and the old one is gone: re-sends leave one row, not hundreds
    s.flush()
    count = s.scalars(
        select(func.count(JoinRequestRow.id)).where(
            JoinRequestRow.event_id == e.id, JoinRequestRow.status == "pending"
        )
    ).one()
    if count >= MAX_PENDING:
        raise InvalidInputError(
            f"{e.name} has {count} requests waiting already: ask the organizer at the counter"
        )
    row = JoinRequestRow(event_id=e.id, name=name, email=email, fleet_json=fleet.model_dump_json())
    s.add(row)
    s.flush()
    return int(row.id)


def _lapse(s: Session, e: EventRow) -> None:
    """Requests waiting longer than JOIN_HOURS lapse: they are removed."""
    s.execute(
        delete(JoinRequestRow).where(
            JoinRequestRow.event_id == e.id,
            JoinRequestRow.status == "pending",
            JoinRequestRow.created_at < now() - timedelta(hours=JOIN_HOURS),
        )
    )


def join_requests(s: Session, event_name: str | None) -> list[dict[str, Any]]:
    """The event's requests waiting for the organizer, oldest first: id, name, email, fleet,
    its Total Build and its problems for the event (FBS-12). Those waiting longer than
    JOIN_HOURS have lapsed and are not shown."""
    e = Events(s).named(event_name)
    rows = s.scalars(
        select(JoinRequestRow)
        .where(
            JoinRequestRow.event_id == e.id,
            JoinRequestRow.status == "pending",
            JoinRequestRow.created_at >= now() - timedelta(hours=JOIN_HOURS),
        )
        .order_by(JoinRequestRow.id)
    )
    limits = EventSettings(e.sp_limit, e.faction_surcharge)
    found = []
    for r in rows:
        fleet = read_fleet(json.loads(r.fleet_json), r.name)
        report = validate(fleet, e.sp_limit, limits)
        found.append(
            {
                "id": r.id,
                "name": r.name,
                "email": r.email,
                "fleet": fleet,
                "total_build": report.total_build,
                "problems": [f"{err.path}: {err.message}" for err in report.errors],
                "at": r.created_at,
            }
        )
    return found


def _pending(s: Session, e: EventRow, request_id: int) -> JoinRequestRow:
    row = s.get(JoinRequestRow, request_id)
    if row is None or row.event_id != e.id:
        raise InvalidInputError(f"no request #{request_id} to join {e.name}")
    if row.status != "pending":
        raise InvalidInputError(f"{row.name}'s request was {row.status} already")
    return row


def approve_join(
    s: Session, event_name: str | None, request_id: int, pin_hash: str, who: str
) -> str:
    """Register the player of a request (every check of registration.add_player: a fleet
    that is not legal for the event is refused, FBS-12); returns his name."""
    e = Events(s).named(event_name)
    row = _pending(s, e, request_id)
    fleet = read_fleet(json.loads(row.fleet_json), row.name)
    add_player(s, e.name, row.name, fleet, row.email, pin_hash=pin_hash, who=None)
    row.status = "approved"
    Audit(s).log(e, who, f"{row.name} registered from a phone request")
    return row.name


def refuse_join(s: Session, event_name: str | None, request_id: int, who: str) -> str:
    """Refuse a request (the player is not registered); returns his name."""
    e = Events(s).named(event_name)
    row = _pending(s, e, request_id)
    row.status = "refused"
    Audit(s).log(e, who, f"{row.name}'s request to join refused")
    return row.name


def refuse_all_joins(s: Session, event_name: str | None, who: str) -> int:
    """Refuse every request waiting (a flood of them, or the doors closing); returns how
    many. Logged as one line."""
    e = Events(s).named(event_name)
    rows = list(
        s.scalars(
            select(JoinRequestRow).where(
                JoinRequestRow.event_id == e.id, JoinRequestRow.status == "pending"
            )
        )
    )
    for row in rows:
        row.status = "refused"
    if rows:
        Audit(s).log(e, who, f"all {len(rows)} waiting requests to join refused")
    return len(rows)


def archive(s: Session) -> list[dict[str, Any]]:
    """Every event that has played all its rounds, newest first: id, name, date, venue,
    players."""
    return [
        {
            "id": e.id,
            "name": e.name,
            "date": e.date,
            "venue": e.venue,
            "players": len(e.players),
            "rounds": e.rounds,
        }
        for e in reversed(Events(s).all())
        if _finished(e)
    ]
