"""What the pages show, read from the store: an event's rounds, tables and standings.

Only reading and arranging: the standings, byes and their Fleet Points come from the store and
core.py, never computed here a second time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kolrami.tournament import core
from kolrami.tournament.store import EventState, Store

OPEN = ("pending", "disputed", "flagged")


@dataclass(slots=True)
class Table:
    """A table of a round as the pages show it."""

    round: int
    table: int
    a: str
    b: str | None
    winner: str | None
    fp_a: int | None
    fp_b: int | None
    version: int
    flag: str
    confirmed: bool
    replay: bool
    report: dict[str, Any] | None = None  # the open report, if any

    @property
    def bye(self) -> bool:
        """The bye, not a game."""
        return self.b is None

    @property
    def done(self) -> bool:
        """The result is in (a bye is done as soon as it is given)."""
        return self.b is None or (
            self.winner is not None and self.fp_a is not None and self.fp_b is not None
        )

    @property
    def status(self) -> str:
        """One word for the table's state: bye, done, reported, disputed, flagged, open."""
        if self.b is None:
            return "bye"
        if self.done:
            return "done"
        if self.report is not None:
            status = str(self.report["status"])
            return "reported" if status == "pending" else status
        return "open"


@dataclass(slots=True)
class Round:
    """A paired round: its tables, its bye and the bye's Fleet Points (OP-10)."""

    number: int
    tables: list[Table]
    bye: str | None
    bye_fp: int
    complete: bool


@dataclass(slots=True)
class EventView:
    """An event as the pages show it."""

    id: int
    name: str
    settings: dict[str, Any]
    state: EventState
    standings: list[core.Standing]
    ties: list[list[str]]
    players: list[dict[str, Any]]
    organizers: list[int]
    rounds: list[Round] = field(default_factory=list)

    @property
    def current(self) -> Round | None:
        """The latest paired round."""
        return self.rounds[-1] if self.rounds else None

    @property
    def started(self) -> bool:
        """Round 1 is paired: fleets are public from now on."""
        return bool(self.state.rounds)

    @property
    def finished(self) -> bool:
        """Every round is paired and played."""
        rounds = self.state.rounds
        return len(rounds) == self.settings["rounds"] and all(g.complete for r in rounds for g in r)

    @property
    def can_pair(self) -> bool:
        """The next round can be paired."""
        rounds = self.state.rounds
        return len(rounds) < self.settings["rounds"] and (
            not rounds or all(g.complete for g in rounds[-1])
        )

    def player(self, pid: int) -> dict[str, Any] | None:
        """A player by id."""
        return next((p for p in self.players if p["id"] == pid), None)


def event_view(store: Store, event_id: int, name: str, with_tables: bool = True) -> EventView:
    """Everything the event's pages need, read from the store."""
    settings = store.settings(name)
    state = store.state(name)
    standings = state.standings()
    view = EventView(
        event_id,
        name,
        settings,
        state,
        standings,
        core.tied_groups(standings),
        store.players(name),
        store.organizers_of(name),
    )
    if not with_tables:
        return view
    reports = [r for r in store.reports(name) if r["status"] in OPEN]
    logged = store.battle_log_tables(name)
    for number, games in enumerate(state.rounds, start=1):
        rows = store.games(name, number)
        tables = [
            Table(
                number,
                g["table"],
                g["a"],
                g["b"],
                g["winner"],
                g["fp_a"],
                g["fp_b"],
                g["version"],
                g["flag"],
                bool(g["result_initials_a"] and g["result_initials_b"]),
                (number, g["table"]) in logged,
                next(
                    (r for r in reports if r["round"] == number and r["table"] == g["table"]),
                    None,
                ),
            )
            for g in rows
        ]
        bye = next((t.a for t in tables if t.bye), None)
        view.rounds.append(
            Round(
                number,
                tables,
                bye,
                core.bye_fleet_points(games),
                all(g.complete for g in games),
            )
        )
    return view
