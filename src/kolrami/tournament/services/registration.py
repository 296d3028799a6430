"""Registration: an event and its settings (OP-01, OP-02, OP-13), its players and their fleets
(OP-11, FBS-12), and the PINs players report with."""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection
from typing import Any

from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import read_fleet
from kolrami.scenarios.models import load_scenario
from kolrami.tournament import core
from kolrami.tournament.models import EventOrganizerRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import PlayerRow
from kolrami.tournament.names import clean_name
from kolrami.tournament.names import name_key
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Players
from kolrami.tournament.repositories import Rounds
from kolrami.tournament.scoring import check_event_settings


def create_event(
    s: Session,
    name: str,
    date: str = "",
    sp_limit: int = 300,
    scenario: str = "peak-performance",
    rounds: int = 3,
    round_minutes: int = 60,
    seed: int | None = None,
    titles: tuple[str, ...] = core.DEFAULT_TITLES,
    faction_surcharge: int = 0,
    owner: int | None = None,
    max_resets: int | None = None,
) -> None:
    """A new event (OP-01: three rounds unless the organizer says otherwise); `owner` is
    the web app organizer who runs it; `max_resets` the most resets of one ship in a round
    that a score may need before it is called implausible (None: the default for the
    round's length)."""
    name = clean_name(name, "an event")
    check_event_settings(date, sp_limit, rounds, round_minutes, seed, max_resets, faction_surcharge)
    load_scenario(scenario)  # a clear error now rather than at the first battle
    if seed is None:
        seed = secrets.randbelow(2**31)
    if Events(s).exists(name):
        raise InvalidInputError(
            f"an event '{name}' exists already; pick another name", field="name"
        )
    row = EventRow(
        name=name,
        date=date,
        sp_limit=sp_limit,
        scenario=scenario,
        rounds=rounds,
        round_minutes=round_minutes,
        seed=seed,
        titles=json.dumps(list(titles)),
        faction_surcharge=faction_surcharge,
        max_resets=max_resets,
    )
    s.add(row)
    if owner is not None:
        s.flush()
        s.add(EventOrganizerRow(event_id=row.id, organizer_id=owner, owner=True))


def add_player(
    s: Session,
    event_name: str | None,
    name: str,
    fleet: Fleet,
    email: str = "",
    allow_illegal: bool = False,
    pin_hash: str | None = None,
    who: str | None = "organizer",
) -> list[str]:
    """Register a player and his fleet (OP-11); a late entry joins at the next round. The
    registration is a line of the event's audit, made by `who` (None: the caller logs it).

    The name is kept cleaned (names.py) and refused when it looks like a registered one.
    The fleet must be legal for the event (FBS-12) unless `allow_illegal`; returns the
    problems found (empty when legal). The cost does not grow with the event: the name is
    looked up by its key, the rounds counted, nothing else of the event is read.
    """
    name = clean_name(name)
    key = name_key(name)
    if len(email) > 200:
        raise InvalidInputError("an email address is at most 200 characters", field="email")
    e = Events(s).named(event_name)
    same = Players(s).same_name(e, name, key)
    if same == name:
        raise InvalidInputError(f"'{name}' is registered already in {e.name}", field="name")
    if same is not None:
        raise InvalidInputError(
            f"'{name}' looks like '{same}', registered already in {e.name}: names must "
            "differ by more than case, accents, invisible characters or look-alike "
            "letters; add an initial or a surname",
            field="name",
        )
    report = validate(fleet, e.sp_limit, EventSettings(e.sp_limit, e.faction_surcharge))
    problems = [f"{err.path}: {err.message}" for err in report.errors]
    if problems and not allow_illegal:
        raise InvalidInputError(
            f"{name}'s fleet is not legal for {e.name}: "
            f"{problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
            field="fleet",
        )
    joined = Rounds(s).paired(e) + 1
    if joined > e.rounds:
        raise InvalidInputError(f"{e.name} has played all its {e.rounds} rounds")
    s.add(
        PlayerRow(
            event_id=e.id,
            name=name,
            name_key=key,
            email=email,
            fleet_json=fleet.model_dump_json(),
            joined_round=joined,
            pin_hash=pin_hash,
        )
    )
    if who is not None:
        late = f", a late entry from round {joined}" if joined > 1 else ""
        Audit(s).log(
            e, who, f"{name} registered{late}" + (" (fleet not legal)" if problems else "")
        )
    return problems


def events(s: Session) -> list[str]:
    """Every event's name, newest last."""
    return Events(s).names()


def settings(s: Session, name: str | None = None) -> dict[str, Any]:
    """The event's settings."""
    return Events.settings(Events(s).named(name))


def event_list(s: Session) -> list[dict[str, Any]]:
    """Every event: id, name, date, rounds planned and paired, players, organizer ids."""
    owners = Events(s).owners()
    return [
        {
            "id": e.id,
            "name": e.name,
            "date": e.date,
            "scenario": e.scenario,
            "rounds": e.rounds,
            "paired": len(e.round_rows),
            "players": len(e.players),
            "organizers": owners.get(e.id, []),
        }
        for e in Events(s).all()
    ]


def event_name(s: Session, event_id: int) -> str:
    """The name of the event with this id."""
    return Events(s).by_id(event_id).name


def event_id(s: Session, event_name: str | None) -> int:
    """The id of an event (the latest when None)."""
    return Events(s).named(event_name).id


def organizers_of(s: Session, event_name: str | None) -> list[int]:
    """Ids of the organizers who run an event in the web app (empty: made by the CLI)."""
    return Events(s).organizers(Events(s).named(event_name))


def players(s: Session, event_name: str | None = None) -> list[dict[str, Any]]:
    """The registered players: id, name, email, joined and dropped rounds, has a PIN."""
    return [Players.row(p) for p in Events(s).named(event_name).players]


def fleets(
    s: Session, name: str | None = None, only: Collection[str] | None = None
) -> dict[str, Fleet]:
    """Each player's registered fleet (only those of the players named in `only`: reading
    a fleet is most of the cost, a tenth of a millisecond each)."""
    return {
        p.name: read_fleet(json.loads(p.fleet_json), p.name)
        for p in Events(s).named(name).players
        if only is None or p.name in only
    }


def pin_hash(s: Session, event_name: str | None, player: str) -> str | None:
    """The stored hash of a player's PIN (None: he has none)."""
    return Players(s).named(Events(s).named(event_name), player).pin_hash


def set_pin_hash(s: Session, event_name: str | None, player: str, pin_hash: str, who: str) -> None:
    """Give a player a new PIN (arriving hashed), logged."""
    e = Events(s).named(event_name)
    Players(s).named(e, player).pin_hash = pin_hash
    Audit(s).log(e, who, f"new PIN for {player}")
