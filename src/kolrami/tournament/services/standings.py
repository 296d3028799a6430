"""Standings: the event as the rules see it (players, rounds, roll-offs) and the roll-offs that
settle its ties (OP-24)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlalchemy import select
from sqlalchemy.orm import Session

from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.tournament import core
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import RollOffRow
from kolrami.tournament.repositories import Audit
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Players


@dataclass(frozen=True, slots=True)
class EventState:
    """An event as the rules see it: players and their status, rounds as core.Game lists."""

    name: str
    seed: int
    rounds_planned: int
    players: tuple[str, ...]
    active: tuple[str, ...]  # may be paired in the next round
    rounds: tuple[tuple[core.Game, ...], ...]
    roll_offs: tuple[core.RollOff, ...]
    titles: tuple[str, ...]
    dropped: tuple[str, ...] = ()

    def standings(self) -> list[core.Standing]:
        """The standings from the results so far (a pure function of them)."""
        return core.standings(self.players, self.rounds, self.roll_offs, self.titles, self.dropped)

    @property
    def rounds_complete(self) -> int:
        """Rounds with every result in."""
        return core.rounds_complete(self.rounds)

    @property
    def settled(self) -> bool:
        """At least one round is played and every paired round has all its results: ties now
        are ties after a Battle Round (OP-24), to be rolled off."""
        return bool(self.rounds) and self.rounds_complete == len(self.rounds)


def roll_offs(rows: Iterable[Any], names: Mapping[int, str]) -> tuple[core.RollOff, ...]:
    """Roll-offs from their rows (ORM rows or result rows with batch, after_round,
    battle_points, fleet_points, throws, player_id and source), one per batch in the order
    recorded; rows without a batch (recorded before migration 0004) settle no tie."""
    batches: dict[int, list[Any]] = {}
    for row in rows:
        if row.batch is not None and row.throws is not None:
            batches.setdefault(row.batch, []).append(row)
    out = []
    for _, members in sorted(batches.items()):
        first = members[0]
        out.append(
            core.RollOff(
                int(first.battle_points or 0),
                int(first.fleet_points or 0),
                tuple((names[m.player_id], tuple(json.loads(m.throws or "[]"))) for m in members),
                first.source,
                int(first.after_round or 0),
            )
        )
    return tuple(out)


def event_state(s: Session, e: EventRow) -> EventState:
    """An event's state from its rows."""
    names = {p.id: p.name for p in e.players}
    rounds = []
    for r in e.round_rows:
        games = []
        for g in r.games:
            fp: list[tuple[str, int]] = []
            if g.fp_a is not None:
                fp.append((names[g.a_id], g.fp_a))
            if g.b_id is not None and g.fp_b is not None:
                fp.append((names[g.b_id], g.fp_b))
            games.append(
                core.Game(
                    r.number,
                    names[g.a_id],
                    names[g.b_id] if g.b_id else None,
                    names[g.winner_id] if g.winner_id else None,
                    tuple(fp),
                )
            )
        rounds.append(tuple(games))
    next_round = len(rounds) + 1
    active = tuple(
        p.name
        for p in e.players
        if p.joined_round <= next_round
        and (p.dropped_after is None or p.dropped_after >= next_round)
    )
    rolls = roll_offs(
        s.scalars(select(RollOffRow).where(RollOffRow.event_id == e.id).order_by(RollOffRow.id)),
        names,
    )
    return EventState(
        e.name,
        e.seed,
        e.rounds,
        tuple(p.name for p in e.players),
        active,
        tuple(rounds),
        rolls,
        tuple(json.loads(e.titles)),
        tuple(p.name for p in e.players if p.dropped_after is not None),
    )


def state(s: Session, name: str | None = None) -> EventState:
    """The event as core.py sees it."""
    return event_state(s, Events(s).named(name))


def corrections(s: Session, name: str | None = None) -> list[dict[str, str]]:
    """The corrections log, oldest first."""
    return Audit(s).lines(Events(s).named(name))


def record_roll_off(
    s: Session,
    event_name: str | None,
    throws: dict[str, tuple[int, ...]],
    source: str,
    who: str = "organizer",
) -> core.RollOff:
    """A roll-off for one tie (OP-24): every player of a group who share a rank after a
    complete round, with each throw's hits and criticals. Refused before any round is
    played, while a round's results are missing, for players who are not level, and for
    throws that cannot be (more than five results) or leave players level. Logged."""
    core.check_throws(throws)
    e = Events(s).named(event_name)
    players = Players(s)
    now = event_state(s, e)
    if not now.settled:
        if not now.rounds or now.rounds_complete == 0:
            raise InvalidInputError(
                "no round has been played yet: a roll-off settles a tie after a Battle "
                "Round (OP-24)"
            )
        raise InvalidInputError(
            f"round {len(now.rounds)} has results missing: roll off once every "
            "table is in, when the tie is final (OP-24)"
        )
    rows = {players.named(e, n).name: n for n in throws}
    given = {rows_name: throws[n] for rows_name, n in rows.items()}
    table = now.standings()
    groups = core.tied_groups(table)
    group = next((g for g in groups if set(g) == set(given)), None)
    if group is None:
        level = "; ".join(", ".join(g) for g in groups) or "nobody"
        raise InvalidInputError(
            f"{', '.join(sorted(given))} are not one tie of the standings: level now "
            f"(and to roll off together): {level} (OP-24)"
        )
    by = {x.player: x for x in table}
    first = by[group[0]]
    batch = (
        s.scalars(select(func.max(RollOffRow.batch)).where(RollOffRow.event_id == e.id)).one() or 0
    ) + 1
    roll = core.RollOff(
        first.battle_points,
        first.fleet_points,
        tuple(sorted(given.items())),
        source[:100],
        now.rounds_complete,
    )
    for pname, t in given.items():
        s.add(
            RollOffRow(
                event_id=e.id,
                player_id=players.named(e, pname).id,
                result=roll.value(pname),
                source=source[:100],
                batch=batch,
                after_round=now.rounds_complete,
                battle_points=first.battle_points,
                fleet_points=first.fleet_points,
                throws=json.dumps(list(t)),
            )
        )
    Audit(s).log(
        e,
        who,
        f"roll-off after round {now.rounds_complete} for the tie on "
        f"{first.battle_points} BP and {first.fleet_points} FP ({source}): {roll.describe()}",
    )
    return roll


def roll_off_ties(
    s: Session, event_name: str | None = None, who: str = "Kolrami"
) -> list[core.RollOff]:
    """Roll off every group that shares a rank after a complete round, seeded and
    recorded (OP-24); nothing when no round is complete or nobody is level."""
    now = state(s, event_name)
    if not now.settled:
        return []
    groups = core.tied_groups(now.standings())
    done = []
    for n, group in enumerate(groups):
        seed = derive_seed(now.seed, "roll-off", len(now.rounds), n, *group)
        done.append(
            record_roll_off(
                s,
                now.name,
                core.roll_off(group, seed),
                f"rolled by Kolrami after round {len(now.rounds)}",
                who,
            )
        )
        s.flush()  # the next group's roll-off counts this one's batch
    return done
