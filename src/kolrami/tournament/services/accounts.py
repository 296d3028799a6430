"""Accounts: organizers of the web app, their logged-in sessions, and who runs which event."""

from __future__ import annotations

import re
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.tournament.models import EventOrganizerRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.repositories import Accounts
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events

_USERNAME = re.compile(r"[A-Za-z0-9_.@-]{2,80}")


def _username(username: str) -> str:
    username = username.strip()
    if not _USERNAME.fullmatch(username):
        raise InvalidInputError(
            "a user name is 2 to 80 letters, digits or . _ @ - (no spaces)", field="username"
        )
    return username


def create_organizer(s: Session, username: str, password_hash: str) -> int:
    """A web app organizer account (the password arrives hashed); returns its id."""
    username = _username(username)
    accounts = Accounts(s)
    if accounts.by_name(username) is not None:
        raise InvalidInputError(
            f"the user name '{username}' is taken; pick another", field="username"
        )
    return accounts.add(username, password_hash)


def create_first_organizer(s: Session, username: str, password_hash: str) -> int | None:
    """The store's first organizer account, only while it has none, checked and made in one
    write transaction (simultaneous set-ups make one account); None when one exists."""
    username = _username(username)
    accounts = Accounts(s)
    if accounts.ids():
        return None
    return accounts.add(username, password_hash)


def organizer(s: Session, username: str) -> tuple[int, str] | None:
    """(id, password hash) of an organizer account, or None."""
    row = Accounts(s).by_name(username.strip())
    return None if row is None else (row.id, row.password_hash)


def organizer_count(s: Session) -> int:
    """How many organizer accounts exist."""
    return len(Accounts(s).ids())


def start_web_session(s: Session, organizer_id: int) -> str:
    """A new logged-in session of an organizer: returns its random token (for the cookie);
    only a hash of it is kept, so the database does not hold working cookies. Sessions past
    their lifetime are cleared on the way."""
    token = secrets.token_urlsafe(32)
    Accounts(s).start_session(organizer_id, token)
    return token


def end_web_session(s: Session, token: str) -> None:
    """Log a session out: its cookie no longer works, wherever a copy of it is."""
    Accounts(s).end_session(token)


def end_web_sessions(s: Session, organizer_id: int) -> int:
    """Log an organizer out everywhere; returns how many sessions ended."""
    return Accounts(s).end_sessions(organizer_id)


def web_sessions(s: Session, organizer_id: int) -> int:
    """How many live sessions an organizer has."""
    return Accounts(s).live_sessions(organizer_id)


def set_password_hash(s: Session, organizer_id: int, password_hash: str) -> None:
    """A new password for an account (hashed already); every session of it ends, so
    whoever knew the old password and logged in with it is out."""
    accounts = Accounts(s)
    row = accounts.get(organizer_id)
    if row is None:
        raise InvalidInputError("this account was removed; log in with another one")
    row.password_hash = password_hash
    accounts.end_sessions(organizer_id)


def remove_organizer(s: Session, organizer_id: int) -> list[str]:
    """Remove an organizer account with its sessions; never the last one (the store would
    have nobody to log in). Only the account itself asks (its own account page), so an event
    it owns with others passes to the next of them (the lowest id). The events it ran alone
    are run by nobody in the web app until another organizer takes them over; returns their
    names."""
    accounts = Accounts(s)
    row = accounts.get(organizer_id)
    if row is None:
        raise InvalidInputError("this account was removed already")
    if not [i for i in accounts.ids() if i != organizer_id]:
        raise InvalidInputError(
            f"'{row.username}' is the only organizer account: add another one "
            "(Add another organizer account) before removing this one"
        )
    left: list[str] = []
    for link in list(
        s.scalars(select(EventOrganizerRow).where(EventOrganizerRow.organizer_id == organizer_id))
    ):
        e = s.get(EventRow, link.event_id)
        others = s.scalars(
            select(EventOrganizerRow)
            .where(
                EventOrganizerRow.event_id == link.event_id,
                EventOrganizerRow.organizer_id != organizer_id,
            )
            .order_by(EventOrganizerRow.organizer_id)
        ).first()
        if e is not None and others is not None and link.owner:  # he leaves: the next one owns
            others.owner = True
            successor = accounts.get(others.organizer_id)
            Audit(s).log(
                e,
                f"organizer {row.username}",
                f"organizer {row.username}'s account was removed; "
                f"{successor.username if successor else 'another organizer'} owns {e.name} now",
            )
        if e is not None and others is None:
            left.append(e.name)
            Audit(s).log(
                e,
                f"organizer {row.username}",
                f"organizer {row.username}'s account was removed; "
                "another organizer can take the event over",
            )
        s.delete(link)
    accounts.end_sessions(organizer_id)
    s.delete(row)
    return left


def adopt_event(s: Session, event_name: str | None, organizer_id: int, who: str) -> None:
    """An organizer takes over an event nobody runs in the web app (one made by the CLI)."""
    events = Events(s)
    e = events.named(event_name)
    if events.organizers(e):
        raise InvalidInputError(f"{e.name} is run by another organizer already")
    s.add(EventOrganizerRow(event_id=e.id, organizer_id=organizer_id, owner=True))
    Audit(s).log(e, who, f"{who} runs {e.name} from now on")
