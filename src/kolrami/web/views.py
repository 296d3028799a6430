"""What the pages show, read from the store: an event's rounds, tables and standings.

Only reading and arranging: the standings, byes and their Fleet Points come from the store and
core.py, never computed here a second time.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from fastapi import HTTPException

from kolrami.tournament import core
from kolrami.tournament.store import OPEN_REPORTS
from kolrami.tournament.store import EventSnapshot
from kolrami.tournament.store import EventState
from kolrami.tournament.store import Store

OPEN = OPEN_REPORTS


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
    entered_by: str = ""  # who entered the result as it stands
    build_a: str = ""  # the opponent's initials on a's build (OP-14)
    build_b: str = ""  # a's initials on b's build

    @property
    def build_waiting(self) -> list[str]:
        """Players who have not initialled their opponent's build yet (OP-14)."""
        if self.b is None:
            return []
        return [who for who, done in ((self.a, self.build_b), (self.b, self.build_a)) if not done]

    def build_by(self, player: str) -> str:
        """The initials `player` put on his opponent's build, '' while he has not."""
        return self.build_b if player == self.a else self.build_a if player == self.b else ""

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
    def loser(self) -> str | None:
        """The player who lost, once a winner is in."""
        if self.winner is None or self.b is None:
            return None
        return self.b if self.winner == self.a else self.a

    @property
    def winner_fp(self) -> int | None:
        """The winner's Fleet Points: said first, beside his name."""
        return self.fp_a if self.winner == self.a else self.fp_b

    @property
    def loser_fp(self) -> int | None:
        """The loser's Fleet Points."""
        return self.fp_b if self.winner == self.a else self.fp_a

    @property
    def missing_fp(self) -> list[str]:
        """Players whose Fleet Points are not in yet (a result entered for one player only)."""
        if self.b is None:
            return []
        return [p for p, fp in ((self.a, self.fp_a), (self.b, self.fp_b)) if fp is None]

    @property
    def status(self) -> str:
        """One word for the table's state: bye, done, partial, reported, disputed, flagged,
        open."""
        if self.b is None:
            return "bye"
        if self.done:
            return "done"
        if self.winner is not None:
            return "partial"  # one player's result entered (the CLI's tournament result)
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

    @property
    def build_waiting(self) -> list[str]:
        """Every player of the round who has not initialled the opponent's build (OP-14)."""
        return [p for t in self.tables for p in t.build_waiting]

    @property
    def started(self) -> bool:
        """A result is in or reported at some table: the round can no longer be cancelled."""
        return any(
            t.winner is not None or t.report is not None for t in self.tables if t.b is not None
        )

    @property
    def by_name(self) -> list[tuple[str, int | None, str | None]]:
        """(player, table, opponent) of every player, by name, for players finding their name
        (the bye: table None, opponent None)."""
        rows: list[tuple[str, int | None, str | None]] = []
        for t in self.tables:
            if t.b is None:
                rows.append((t.a, None, None))
            else:
                rows += [(t.a, t.table, t.b), (t.b, t.table, t.a)]
        return sorted(rows, key=lambda r: (r[0].casefold(), r[0]))


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
    #: What the pages derive from this view (rendered fragments), kept as long as the view.
    memo: dict[Hashable, Any] = field(default_factory=dict, repr=False)

    def paired(self, number: int, say_event: bool = False) -> Round:
        """Round `number`, or a 404 when it is not paired yet (`say_event`: the message names
        the event, as its public pages do)."""
        if not 1 <= number <= len(self.rounds):
            of = f" of {self.name}" if say_event else ""
            raise HTTPException(404, f"round {number}{of} is not paired yet")
        return self.rounds[number - 1]

    def table(self, number: int, table: int) -> Table:
        """Table `table` of round `number`, or a 404 when there is no such table."""
        found = next((t for t in self.paired(number).tables if t.table == table), None)
        if found is None:
            raise HTTPException(404, f"round {number} has no table {table}")
        return found

    @property
    def standing_rows(self) -> list[tuple[str, str, str, int, int, str, int]]:
        """The standings table's rows as plain values (the standings_row macro's arguments):
        rank ('=2' when shared), title, player (marked when dropped, and provisional while
        his table has one side's report only), Battle Points, Fleet Points, Fleet Points by
        round, byes."""
        shared = {s.rank for s in self.standings if s.tied}
        waiting = {p for t in self.provisional for p in (t.a, t.b)}
        return [
            (
                f"={s.rank}" if s.rank in shared else str(s.rank),
                s.title,
                s.player
                + (" (dropped)" if s.dropped else "")
                + (" (provisional)" if s.player in waiting else ""),
                s.battle_points,
                s.fleet_points,
                " / ".join(str(fp) for fp in s.fp_by_round),
                s.byes,
            )
            for s in self.standings
        ]

    @property
    def provisional(self) -> list[Table]:
        """The current round's tables with one side's report or result only (issue 44): the
        standings leave it out until the other side confirms, so they are provisional."""
        current = self.current
        if current is None or current.complete:
            return []
        return [t for t in current.tables if t.status in ("reported", "partial")]

    @property
    def played(self) -> int:
        """Rounds with every result in."""
        return self.state.rounds_complete

    @property
    def settled_by(self) -> list[str]:
        """The roll-offs that order players in the standings, as they read."""
        return sorted({s.settled_by for s in self.standings if s.settled_by})

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
    """Everything the event's pages need: built once from the store's snapshot of the event and
    kept with it, so it is used only while the event's revision in the database is unchanged.

    Shared between requests: read it, never change it. `name` and `with_tables` are what the
    callers know and want; the snapshot is found by id and always has the tables.
    """
    snapshot = store.snapshot(event_id)
    view = snapshot.memo.get("view")
    if not isinstance(view, EventView):
        view = _build(snapshot)
        snapshot.memo["view"] = view  # two requests may both build it: the same view either way
    return view


def _build(snapshot: EventSnapshot) -> EventView:
    state = snapshot.state
    standings = state.standings()
    view = EventView(
        snapshot.id,
        snapshot.name,
        snapshot.settings,
        state,
        standings,
        core.tied_groups(standings) if state.settled else [],
        list(snapshot.players),
        list(snapshot.organizers),
        memo=snapshot.memo,
    )
    reports = {(r["round"], r["table"]): r for r in reversed(snapshot.open_reports)}
    for number, (games, rows) in enumerate(zip(state.rounds, snapshot.rounds, strict=True), 1):
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
                (number, g["table"]) in snapshot.logged,
                reports.get((number, g["table"])),
                g.get("entered_by", ""),
                g.get("build_initials_a", ""),
                g.get("build_initials_b", ""),
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
