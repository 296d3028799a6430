"""Pairing a round: every table of it or none (the pairing rules are core.py's), and reading a
round's tables."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.tournament import core
from kolrami.tournament.models import GameRow
from kolrami.tournament.models import RoundRow
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Rounds
from kolrami.tournament.services.standings import event_state


def pair_next_round(
    s: Session, event_name: str | None = None, who: str | None = "organizer"
) -> core.Pairing:
    """Pair the next round (OP-02, OP-03, OP-04, OP-05, OP-06, OP-07, OP-08, OP-09), all tables
    or none; a line of the event's audit, made by `who` (None: the caller logs it)."""
    e = Events(s).named(event_name)
    state = event_state(s, e)
    number = len(state.rounds) + 1
    if number > e.rounds:
        raise InvalidInputError(f"{e.name} has {e.rounds} rounds and all are paired")
    if state.rounds and not all(g.complete for g in state.rounds[-1]):
        missing = [g for g in state.rounds[-1] if not g.complete]
        gone = [p for g in missing for p in g.players if p in state.dropped]
        advice = (
            f"; {', '.join(gone)} dropped during the round: enter the table's result "
            "as it was played, or as a win for the opponent if it was not (e.g. "
            f"kolrami tournament result {number - 1} OPPONENT --win --fp N)"
            if gone
            else ""
        )
        raise InvalidInputError(
            f"round {number - 1} is not finished: results missing for "
            + ", ".join(f"{g.a} v {g.b}" for g in missing)
            + advice
        )
    pairing = core.pair_round(number, state.active, state.rounds, e.seed)
    ids = {p.name: p.id for p in e.players}
    r = RoundRow(
        event_id=e.id,
        number=number,
        seed=e.seed,
        rematches=json.dumps([list(x) for x in pairing.rematches]),
    )
    s.add(r)
    s.flush()
    for table, g in enumerate(pairing.games, start=1):
        s.add(GameRow(round_id=r.id, table=table, a_id=ids[g.a], b_id=ids[g.b] if g.b else None))
    if who is not None:
        tables = len(pairing.games)
        Audit(s).log(e, who, f"round {number} paired ({tables} table{'s' if tables > 1 else ''})")
    return pairing


def games(s: Session, name: str | None, round_number: int) -> list[dict[str, Any]]:
    """One round's tables with everything recorded on them."""
    e = Events(s).named(name)
    r = Rounds.numbered(e, round_number)
    names = {p.id: p.name for p in e.players}
    return [Rounds.game_row(g, names) for g in r.games]
