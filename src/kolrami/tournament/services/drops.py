"""Drops: a player leaves the event; his results stay and he is not paired again."""

from __future__ import annotations

from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Players


def drop_player(s: Session, event_name: str | None, name: str, who: str = "organizer") -> None:
    """A player leaves: he is not paired from the next round on; his results stay."""
    e = Events(s).named(event_name)
    p = Players(s).named(e, name)
    if p.dropped_after is not None:
        raise InvalidInputError(f"{name} has dropped already (after round {p.dropped_after})")
    p.dropped_after = len(e.round_rows)
    Audit(s).log(e, who, f"{name} dropped after round {p.dropped_after}")
