"""Results: a table's result entered by the organizer or played by the AI (record_game, in
plain SQL statements, and its ORM reference), a player's result and its correction
(record_result), the opponent's initials (verify), and the players' own reports, confirmed or
disputed with their PINs (OP-14, FBS-09, FBS-10, PP-22)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from typing import NamedTuple
from typing import cast

from sqlalchemy import Table
from sqlalchemy import delete
from sqlalchemy import select
from sqlalchemy import text
from sqlalchemy.orm import Session

from kolrami.errors import InvalidInputError
from kolrami.rules.module import Capability
from kolrami.tournament.database import ConflictError
from kolrami.tournament.models import BattleLogRow
from kolrami.tournament.models import CorrectionRow
from kolrami.tournament.models import EventRow
from kolrami.tournament.models import GameRow
from kolrami.tournament.models import PlayerRow
from kolrami.tournament.models import ResultReportRow
from kolrami.tournament.models import now
from kolrami.tournament.repositories import BUMPED
from kolrami.tournament.repositories import Events
from kolrami.tournament.repositories import Players
from kolrami.tournament.repositories import Results
from kolrami.tournament.repositories import Rounds
from kolrami.tournament.scoring import ScoreCheckError
from kolrami.tournament.scoring import capabilities_of
from kolrami.tournament.scoring import check_fleet_points
from kolrami.tournament.scoring import result_corrections
from kolrami.tournament.scoring import round_ceilings
from kolrami.tournament.scoring import score_check
from kolrami.tournament.scoring import winner_refusal


def _is_sqlite(s: Session) -> bool:
    return s.get_bind().dialect.name == "sqlite"


class TableChange(NamedTuple):
    """What Store.record_game changed of one table, between two revisions of its event."""

    event_id: int
    before: int
    after: int
    round: int
    table: int
    row: dict[str, Any]  # the table's new values, as in Store.games
    logged: bool = False  # a battle log was kept for it


class Entry(NamedTuple):
    """One table's result as Store.record_game is given it."""

    number: int
    table: int
    winner: str
    fleet_points: dict[str, int]
    who: str
    expected_version: int | None


#: Store.record_game's statements, plain SQL (named parameters, as SQLite and text() take them).
_GAME_AT_SQL = """
SELECT e.id, e.revision, e.scenario, g.id, g."table", g.winner_id, g.fp_a, g.fp_b, g.flag,
       g.version, a.id, a.name, a.fleet_json, b.id, b.name, b.fleet_json, e.max_resets,
       e.round_minutes, g.result_initials_a, g.result_initials_b, g.entered_by
FROM events e
JOIN rounds r ON r.event_id = e.id
JOIN games g ON g.round_id = r.id
JOIN players a ON a.id = g.a_id
JOIN players b ON b.id = g.b_id
WHERE e.name = :name AND r.number = :number AND g."table" = :table
"""
_SET_RESULT_SQL = (
    "UPDATE games SET winner_id = :w, fp_a = :a, fp_b = :b, flag = :flag, version = :v + 1, "
    "entered_by = :who, result_initials_a = '', result_initials_b = '' "
    "WHERE id = :id AND version = :v"
)
_OPEN_REPORTS_SQL = (
    "SELECT id, winner_id, fp_a, fp_b FROM result_reports WHERE game_id = :game "
    "AND status IN ('pending', 'disputed', 'flagged') ORDER BY id"
)
_CLOSE_REPORT_SQL = "UPDATE result_reports SET status = :status, resolved_by = :who WHERE id = :id"
WHO_LENGTH = cast(int, cast(Table, CorrectionRow.__table__).c.who.type.length)  # type: ignore[attr-defined]
_LOG_SQL = "INSERT INTO corrections (event_id, at, who, what) VALUES (:event, :at, :who, :what)"


class _Plain:
    """Plain SQL in a Store transaction: on SQLite straight to the driver's connection (the
    session's own, so the same transaction and write lock), elsewhere through text()."""

    def __init__(self, session: Session, sqlite: bool) -> None:
        self._connection = session.connection()
        self._driver: Any = self._connection.connection.driver_connection if sqlite else None
        at = cast(Table, CorrectionRow.__table__).c.at.type
        # the dialect's own type: the generic DateTime has no bind processor (None), which
        # handed the driver a datetime to store in its own form
        dialect = self._connection.dialect
        self._at = at.dialect_impl(dialect).bind_processor(dialect)

    def all(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of a query."""
        if self._driver is not None:
            return list(self._driver.execute(sql, params).fetchall())
        return [tuple(r) for r in self._connection.execute(text(sql), params)]

    def first(self, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of a query, or None."""
        if self._driver is not None:
            found = self._driver.execute(sql, params).fetchone()
            return None if found is None else tuple(found)
        row = self._connection.execute(text(sql), params).first()
        return None if row is None else tuple(row)

    def run(self, sql: str, params: dict[str, Any]) -> int:
        """A write; returns how many rows it changed."""
        if self._driver is not None:
            return int(self._driver.execute(sql, params).rowcount)
        return int(self._connection.execute(text(sql), params).rowcount)

    def timestamp(self, when: datetime) -> Any:
        """A time as the ORM would store it in a DateTime column (on SQLite, its text form)."""
        return when if self._at is None else self._at(when)


def _stale(number: int, table: int) -> ConflictError:
    return ConflictError(
        f"round {number}, table {table} was changed by someone else "
        "a moment ago; reload it and enter the result again"
    )


def record_result(
    s: Session,
    event_name: str | None,
    number: int,
    player: str,
    won: bool,
    fleet_points: int,
    who: str = "organizer",
    expected_version: int | None = None,
    correct: bool = False,
    why: str = "",
) -> str:
    """A player's result and Fleet Points for a round; the opponent's result follows.

    Returns a warning when the Fleet Points cannot (or can hardly) be scored against the
    opponent's fleet (the Peak Performance score check), else ''. A result that disagrees
    with the one recorded (another winner, other Fleet Points for this player) or changes
    one the opponent initialled is refused unless it is an explicit correction (`correct`,
    with `why`), which is logged with who and why and clears the opponent's initials. With
    `expected_version` a stale edit is refused (ConflictError).
    """
    check_fleet_points(fleet_points)
    why = " ".join(why.split())[:300]
    if correct and not why:
        raise InvalidInputError("a correction says why: add --why 'what was wrong'", field="why")
    e = Events(s).named(event_name)
    p = Players(s).named(e, player)
    g = Rounds(s).game_of(e, number, p)
    if g.b_id is None:
        raise InvalidInputError(
            f"{p.name} has the bye in round {number}: nothing to "
            "report; its Fleet Points are the round's average"
        )
    if expected_version is not None and g.version != expected_version:
        raise _stale(number, g.table)
    opponent_id = g.b_id if p.id == g.a_id else g.a_id
    winner = p.id if won else opponent_id
    old_fp = g.fp_a if p.id == g.a_id else g.fp_b
    if (g.winner_id, old_fp) == (winner, fleet_points):
        return g.flag  # the same again: nothing to change
    initialled = bool(g.result_initials_a or g.result_initials_b)
    contradicts = (g.winner_id is not None and g.winner_id != winner) or (
        old_fp is not None and old_fp != fleet_points
    )
    if (contradicts or initialled) and not correct:
        recorded = _result_text(s, g)
        reason = "the opponent initialled it" if initialled else "this report disagrees"
        raise InvalidInputError(
            f"round {number} table {g.table} has a result already ({recorded}) and "
            f"{reason}: to change it, run the command again with --correct --why "
            "'what was wrong'"
        )
    _check_winner(s, e, g, winner, p.id, fleet_points)
    label = f"{who}: {why}" if correct else who
    warning = _apply_result(s, e, number, g, p, won, fleet_points, label)
    if correct:
        g.result_initials_a = g.result_initials_b = ""
        g.entered_by = who
    elif not g.entered_by:
        g.entered_by = who
    return warning


def _result_text(s: Session, g: GameRow) -> str:
    names = {
        pid: row.name
        for pid in (g.a_id, g.b_id)
        if pid is not None and (row := s.get(PlayerRow, pid)) is not None
    }
    won = f"{names[g.winner_id]} won" if g.winner_id else "no winner yet"
    fps = ", ".join(
        f"{names[pid]} {fp}"
        for pid, fp in ((g.a_id, g.fp_a), (g.b_id, g.fp_b))
        if pid is not None and fp is not None
    )
    return f"{won}, Fleet Points {fps}" if fps else won


def _check_winner(s: Session, e: EventRow, g: GameRow, winner: int, pid: int, points: int) -> None:
    """PP-22: in a scenario that scores Fleet Points the winner has at least as many as
    the loser (equal totals go to the roll-off, so either may have won)."""
    if Capability.SCORES_FLEET_POINTS not in capabilities_of(e.scenario):
        return
    fp = {g.a_id: g.fp_a, g.b_id: g.fp_b}
    fp[pid] = points
    loser = g.b_id if winner == g.a_id else g.a_id
    w, lo = fp.get(winner), fp.get(loser)
    if w is None or lo is None or w >= lo:
        return
    names = {x: row.name for x in (winner, loser) if (row := s.get(PlayerRow, x)) is not None}
    raise InvalidInputError(winner_refusal(names[winner], w, names[loser or 0], lo), field="winner")


def _apply_result(
    s: Session,
    e: EventRow,
    number: int,
    g: GameRow,
    p: PlayerRow,
    won: bool,
    fleet_points: int,
    who: str,
) -> str:
    """One player's result and Fleet Points on a game, inside the caller's transaction."""
    assert g.b_id is not None  # callers refuse byes
    opponent_id = g.b_id if p.id == g.a_id else g.a_id
    winner = p.id if won else opponent_id
    before = (g.winner_id, g.fp_a, g.fp_b)
    old_fp = g.fp_a if p.id == g.a_id else g.fp_b
    for what in result_corrections(
        number, g.table, p.name, won, g.winner_id, winner, old_fp, fleet_points
    ):
        s.add(CorrectionRow(event_id=e.id, who=who, what=what))
    g.winner_id = winner
    if p.id == g.a_id:
        g.fp_a = fleet_points
    else:
        g.fp_b = fleet_points
    warning = score_warning(s, e, opponent_id, fleet_points)
    g.flag = warning
    if before == (g.winner_id, g.fp_a, g.fp_b):
        g.version = g.version  # nothing changed; keep the version
    return warning


def score_warning(s: Session, e: EventRow, opponent_id: int, points: int) -> str:
    """The score check's warning for `points` scored against the opponent's fleet, or ''."""
    if Capability.SCORES_FLEET_POINTS not in capabilities_of(e.scenario):
        return ""
    opponent = s.get(PlayerRow, opponent_id)
    assert opponent is not None  # a game's player
    return score_check(
        e.scenario,
        opponent.fleet_json,
        opponent.name,
        points,
        round_ceilings(e.max_resets, e.round_minutes),
    )


def verify(
    s: Session, event_name: str | None, number: int, player: str, initials: str, stage: str
) -> None:
    """The opponent initials a player's build before the round or his result after it
    (OP-14, FBS-09, FBS-10). `player` is the one whose sheet is initialled."""
    if stage not in ("build", "result"):
        raise InvalidInputError(f"stage '{stage}': use build or result", field="stage")
    initials = initials.strip()
    if not initials or len(initials) > 10:
        raise InvalidInputError("initials are 1 to 10 characters", field="initials")
    e = Events(s).named(event_name)
    p = Players(s).named(e, player)
    g = Rounds(s).game_of(e, number, p)
    if g.b_id is None:
        raise InvalidInputError(f"{player} has the bye in round {number}: no opponent to initial")
    if stage == "result" and g.winner_id is None:
        raise InvalidInputError(f"round {number}: no result for {player} yet to confirm")
    side = "a" if p.id == g.a_id else "b"
    setattr(g, f"{stage}_initials_{side}", initials)


class _Table(NamedTuple):
    """What record_game reads of a table before it writes (the columns of _GAME_AT_SQL): the
    event's settings, the game's recorded result and both players (a the first at the table)."""

    event_id: int
    revision: int
    scenario: str
    game_id: int
    table: int
    winner_id: int | None
    fp_a: int | None
    fp_b: int | None
    flag: str
    version: int
    a_id: int
    a_name: str
    a_fleet: str
    b_id: int
    b_name: str
    b_fleet: str
    max_resets: int | None
    minutes: int
    initials_a: str
    initials_b: str
    entered_by: str


class _Entered(NamedTuple):
    """A table's new result, checked: the score check's flag, the new values, the log lines."""

    flag: str
    winner_id: int
    fp_a: int
    fp_b: int
    lines: list[str]


def _enter(t: _Table, entry: Entry, unless_warned: bool) -> _Entered:
    """record_game's checks and log lines, the same for both of its paths: the winner plays
    at the table, both Fleet Points are given, the page is not stale, the winner has at least
    the loser's points (PP-22), and each side's points pass the score check against the
    opponent's fleet (or refused with `unless_warned`)."""
    number, table, winner, fleet_points, who, expected_version = entry
    if winner not in (t.a_name, t.b_name):
        raise InvalidInputError(
            f"{winner} does not play at table {table} in round {number}", field="winner"
        )
    if set(fleet_points) != {t.a_name, t.b_name}:
        raise InvalidInputError(f"give the Fleet Points of both {t.a_name} and {t.b_name}")
    fp_a, fp_b = fleet_points[t.a_name], fleet_points[t.b_name]
    if expected_version is not None and t.version != expected_version:
        raise _stale(number, table)  # a stale page is told first: what it sends may be old
    loser = t.b_name if winner == t.a_name else t.a_name
    if Capability.SCORES_FLEET_POINTS in capabilities_of(t.scenario):
        won, lost = (fp_a, fp_b) if winner == t.a_name else (fp_b, fp_a)
        if won < lost:
            raise InvalidInputError(winner_refusal(winner, won, loser, lost), field="winner")
    ceiling = round_ceilings(t.max_resets, t.minutes)
    # each side's points are checked against the opponent's fleet
    flag = "; ".join(
        w
        for w in (
            score_check(t.scenario, t.b_fleet, t.b_name, fp_a, ceiling),
            score_check(t.scenario, t.a_fleet, t.a_name, fp_b, ceiling),
        )
        if w
    )
    if unless_warned and flag:
        raise ScoreCheckError(flag)
    winner_id = t.a_id if winner == t.a_name else t.b_id
    lines = [
        *result_corrections(
            number, table, t.a_name, winner == t.a_name, t.winner_id, winner_id, t.fp_a, fp_a
        ),
        # after a's line the winner is the new one: a change is logged once
        *result_corrections(
            number, table, t.b_name, winner == t.b_name, winner_id, winner_id, t.fp_b, fp_b
        ),
    ]
    lines.append(
        f"round {number} table {table}: {winner} beat {loser}, Fleet Points "
        f"{t.a_name} {fp_a}, {t.b_name} {fp_b}"
        + (" (entered again)" if t.winner_id is not None else "")
    )
    if t.initials_a or t.initials_b or t.entered_by.endswith("(PIN)"):
        # the players' confirmation was for the result they saw: it goes, and the
        # entry is the organizer's from now on
        lines.append(
            f"round {number} table {table}: entered by {who}; the players' "
            "confirmation of the earlier result no longer applies"
        )
    return _Entered(flag, winner_id, fp_a, fp_b, lines)


def _change(
    t: _Table, entry: Entry, done: _Entered, version: int, after: int, logged: bool
) -> TableChange:
    """The table's change as the pages' snapshot follows it."""
    row = {
        "winner": entry.winner,
        "fp_a": done.fp_a,
        "fp_b": done.fp_b,
        "flag": done.flag,
        "version": version,
        "entered_by": entry.who,
        "result_initials_a": "",
        "result_initials_b": "",
    }
    return TableChange(t.event_id, t.revision, after, entry.number, entry.table, row, logged)


def record_game_plain(
    s: Session,
    event_name: str | None,
    entry: Entry,
    battle_log: tuple[str, str] | None,
    unless_warned: bool,
) -> tuple[str, TableChange]:
    """record_game in plain SQL statements (the fast path), in the caller's transaction."""
    number, table, _, _, who, _ = entry
    sql = _Plain(s, _is_sqlite(s))
    if event_name is None:
        event_name = Events(s).named(None).name
    keys = {"name": event_name, "number": number, "table": table}
    found = sql.first(_GAME_AT_SQL, keys)  # under the write lock
    if found is None:  # the errors of the general lookups: no event, round, table; a bye
        e = Events(s).named(event_name)
        Rounds(s).players_at(Rounds(s).table(e, number, table))
        # the event named loosely ('nov' for Nov), as every other write takes it
        found = sql.first(_GAME_AT_SQL, {**keys, "name": e.name})
        if found is None:
            raise InvalidInputError(f"round {number} of {e.name} has no table {table}")
    t = _Table(*found)
    done = _enter(t, entry, unless_warned)
    version = t.version
    old = (t.winner_id, t.fp_a, t.fp_b, t.flag, t.entered_by, t.initials_a, t.initials_b)
    if old != (done.winner_id, done.fp_a, done.fp_b, done.flag, who, "", ""):
        changed = sql.run(
            _SET_RESULT_SQL,
            {
                "w": done.winner_id,
                "a": done.fp_a,
                "b": done.fp_b,
                "flag": done.flag,
                "id": t.game_id,
                "v": t.version,
                "who": who,
            },
        )
        if changed != 1:  # another connection changed the table since it was read
            raise ConflictError(
                "this table was changed by someone else a moment ago; reload it and "
                "enter the result again"
            )
        version += 1
    for report_id, r_winner, r_a, r_b in sql.all(_OPEN_REPORTS_SQL, {"game": t.game_id}):
        same = (r_winner, r_a, r_b) == (done.winner_id, done.fp_a, done.fp_b)
        status = "accepted" if same else "overridden"
        sql.run(_CLOSE_REPORT_SQL, {"status": status, "who": who, "id": report_id})
    if battle_log is not None:
        sql.run("DELETE FROM battle_logs WHERE game_id = :game", {"game": t.game_id})
        sql.run(
            "INSERT INTO battle_logs (game_id, captains, jsonl) VALUES (:game, :captains, :jsonl)",
            {"game": t.game_id, "captains": battle_log[0], "jsonl": battle_log[1]},
        )
    at = sql.timestamp(now())
    for what in done.lines:
        sql.run(_LOG_SQL, {"event": t.event_id, "at": at, "who": who, "what": what})
    after = _bump(s, sql, t.event_id, t.revision)
    return done.flag, _change(t, entry, done, version, after, battle_log is not None)


def record_game_orm(
    s: Session,
    event_name: str | None,
    entry: Entry,
    battle_log: tuple[str, str] | None,
    unless_warned: bool,
) -> tuple[str, TableChange]:
    """record_game through the ORM: the reference of the plain SQL path (the same checks
    and log lines, _enter; the same rows; the flush hook bumps the revision and the game's
    version_id_col refuses a lost update). Slower, so the web uses the fast path; a parity
    test plays the same entries through both and compares every row."""
    number, table, _, _, who, _ = entry
    e = Events(s).named(event_name)
    g = Rounds(s).table(e, number, table)
    a, b = Rounds(s).players_at(g)
    t = _Table(
        e.id,
        e.revision,
        e.scenario,
        g.id,
        g.table,
        g.winner_id,
        g.fp_a,
        g.fp_b,
        g.flag,
        g.version,
        a.id,
        a.name,
        a.fleet_json,
        b.id,
        b.name,
        b.fleet_json,
        e.max_resets,
        e.round_minutes,
        g.result_initials_a,
        g.result_initials_b,
        g.entered_by,
    )
    done = _enter(t, entry, unless_warned)
    # an unchanged value is no change: the ORM writes (and versions) only what differs
    g.winner_id, g.fp_a, g.fp_b, g.flag = done.winner_id, done.fp_a, done.fp_b, done.flag
    g.entered_by, g.result_initials_a, g.result_initials_b = who, "", ""
    for r in Results(s).open_reports(g):
        same = (r.winner_id, r.fp_a, r.fp_b) == (done.winner_id, done.fp_a, done.fp_b)
        r.status = "accepted" if same else "overridden"
        r.resolved_by = who
    if battle_log is not None:
        s.execute(delete(BattleLogRow).where(BattleLogRow.game_id == g.id))
        s.add(BattleLogRow(game_id=g.id, captains=battle_log[0], jsonl=battle_log[1]))
    at = now()
    s.add_all(CorrectionRow(event_id=e.id, at=at, who=who, what=what) for what in done.lines)
    s.flush()
    after = Events(s).revision(e.id)
    return done.flag, _change(t, entry, done, g.version, after, battle_log is not None)


def _bump(s: Session, sql: _Plain, event_id: int, revision: int) -> int:
    """Bump an event's revision for plain SQL writes, once per transaction as the flush
    hook does (it will not bump it again); returns the revision after it."""
    bumped: set[int] = s.info.setdefault(BUMPED, set())
    if event_id not in bumped:
        sql.run("UPDATE events SET revision = revision + 1 WHERE id = :id", {"id": event_id})
        bumped.add(event_id)
    if _is_sqlite(s):  # the revision read in this transaction, bumped once: nobody else
        return revision + 1  # writes in between (BEGIN IMMEDIATE)
    return Events(s).revision(event_id)


def report_result(
    s: Session,
    event_name: str | None,
    number: int,
    reporter: str,
    winner: str,
    fleet_points: dict[str, int],
) -> int:
    """A player reports his table's result; it waits for the opponent's PIN (OP-14).

    A new report by the same player replaces his earlier one; while one player's report
    waits, the other confirms or disputes it rather than reporting. Returns the report id.
    """
    for v in fleet_points.values():
        check_fleet_points(v)
    e = Events(s).named(event_name)
    p = Players(s).named(e, reporter)
    g = Rounds(s).game_of(e, number, p)
    a, b = Rounds(s).players_at(g)
    if winner not in (a.name, b.name):
        raise InvalidInputError(f"{winner} does not play at table {g.table}", field="winner")
    if set(fleet_points) != {a.name, b.name}:
        raise InvalidInputError(f"give the Fleet Points of both {a.name} and {b.name}")
    if g.winner_id is not None and g.fp_a is not None and g.fp_b is not None:
        raise InvalidInputError(
            f"table {g.table}'s result is recorded already; ask the organizer to correct it"
        )
    if Capability.SCORES_FLEET_POINTS in capabilities_of(e.scenario):
        loser = b.name if winner == a.name else a.name
        if fleet_points[winner] < fleet_points[loser]:
            raise InvalidInputError(
                winner_refusal(winner, fleet_points[winner], loser, fleet_points[loser]),
                field="winner",
            )
    for r in Results(s).open_reports(g):
        if r.reporter_id != p.id:
            other = a.name if r.reporter_id == a.id else b.name
            raise InvalidInputError(
                f"{other} has reported table {g.table} already: confirm that report "
                "with your PIN, or dispute it"
            )
        if r.status != "pending":  # disputed or flagged: the organizer settles it
            raise InvalidInputError(
                f"your report of table {g.table} is {r.status}: the organizer settles "
                "it with you both; it cannot be reported again"
            )
        r.status = "superseded"
    row = ResultReportRow(
        game_id=g.id,
        reporter_id=p.id,
        winner_id=a.id if winner == a.name else b.id,
        fp_a=fleet_points[a.name],
        fp_b=fleet_points[b.name],
        status="pending",
    )
    s.add(row)
    opponent = b.name if p.id == a.id else a.name
    s.add(
        CorrectionRow(
            event_id=e.id,
            who=f"{reporter} (PIN)",
            what=f"round {number} table {g.table}: {reporter} reports {winner} won, "
            f"Fleet Points {a.name} {fleet_points[a.name]}, {b.name} "
            f"{fleet_points[b.name]}; waiting for {opponent}'s PIN",
        )
    )
    s.flush()
    return row.id


def _opponents_turn(
    s: Session, e: EventRow, report_id: int, name: str, verb: str
) -> tuple[ResultReportRow, GameRow, PlayerRow, PlayerRow]:
    """A pending report that `name`, the reporter's opponent, may now confirm or dispute."""
    r, g = Results(s).report(e, report_id)
    a, b = Rounds(s).players_at(g)
    me = Players(s).named(e, name)
    if r.status != "pending":
        raise InvalidInputError(f"this report is {r.status} already")
    if me.id == r.reporter_id or me.id not in (a.id, b.id):
        raise InvalidInputError(
            f"only the opponent of the player who reported {verb} table {g.table}"
        )
    return r, g, a, b


def confirm_report(s: Session, event_name: str | None, report_id: int, confirmer: str) -> str:
    """The opponent confirms a report with his PIN: the result is recorded and each sheet
    initialled by the other player (FBS-10). When the score check fails the report waits
    for the organizer instead (status flagged) and the warning is returned."""
    e = Events(s).named(event_name)
    r, g, a, b = _opponents_turn(s, e, report_id, confirmer, "confirms")
    who = f"{confirmer} (PIN)"
    number = g.round.number
    warning = "; ".join(
        w
        for w in (
            score_warning(s, e, b.id, r.fp_a),
            score_warning(s, e, a.id, r.fp_b),
        )
        if w
    )
    if warning:
        r.status = "flagged"
        r.note = warning
        r.resolved_by = who
        s.add(
            CorrectionRow(
                event_id=e.id,
                who=who,
                what=f"round {number} table {g.table}: {confirmer} confirms, but the score "
                f"check fails ({warning}); the organizer decides",
            )
        )
        return warning
    _apply_result(s, e, number, g, a, r.winner_id == a.id, r.fp_a, who)
    _apply_result(s, e, number, g, b, r.winner_id == b.id, r.fp_b, who)
    g.flag = ""
    g.result_initials_a = initials(b.name)
    g.result_initials_b = initials(a.name)
    g.entered_by = who
    r.status = "confirmed"
    r.resolved_by = who
    winner = a.name if r.winner_id == a.id else b.name
    s.add(
        CorrectionRow(
            event_id=e.id,
            who=who,
            what=f"round {number} table {g.table}: {confirmer} confirms {winner} won, "
            f"Fleet Points {a.name} {r.fp_a}, {b.name} {r.fp_b}",
        )
    )
    return ""


def dispute_report(
    s: Session, event_name: str | None, report_id: int, disputer: str, note: str = ""
) -> None:
    """The opponent says a report is wrong: it goes to the organizer."""
    note = note.strip()[:500]
    e = Events(s).named(event_name)
    r, g, _, _ = _opponents_turn(s, e, report_id, disputer, "disputes")
    r.status = "disputed"
    r.note = note
    r.resolved_by = f"{disputer} (PIN)"
    s.add(
        CorrectionRow(
            event_id=e.id,
            who=f"{disputer} (PIN)",
            what=f"round {g.round.number} table {g.table}: {disputer} disputes the "
            "report; the organizer decides" + (f" ({note})" if note else ""),
        )
    )


def reports(s: Session, event_name: str | None, number: int | None = None) -> list[dict[str, Any]]:
    """Players' reports, oldest first (of one round when `number` is given)."""
    e = Events(s).named(event_name)
    names = {p.id: p.name for p in e.players}
    out = []
    for r in e.round_rows:
        if number is not None and r.number != number:
            continue
        games = {g.id: g for g in r.games}
        rows = s.scalars(
            select(ResultReportRow)
            .where(ResultReportRow.game_id.in_(list(games)))
            .order_by(ResultReportRow.id)
        )
        for row in rows:
            g = games[row.game_id]
            a, b = names[g.a_id], names[g.b_id] if g.b_id else ""
            out.append(
                {
                    "id": row.id,
                    "round": r.number,
                    "table": g.table,
                    "reporter": names[row.reporter_id],
                    "confirmer": b if row.reporter_id == g.a_id else a,
                    "winner": names[row.winner_id],
                    "fp": {a: row.fp_a, b: row.fp_b},
                    "status": row.status,
                    "note": row.note,
                    "resolved_by": row.resolved_by,
                }
            )
    return out


def battle_log(s: Session, event_name: str | None, number: int, table: int) -> str | None:
    """The JSONL log of a game the AI played, or None."""
    g = Rounds(s).table(Events(s).named(event_name), number, table)
    row = s.scalars(select(BattleLogRow).where(BattleLogRow.game_id == g.id)).first()
    return None if row is None else row.jsonl


def battle_log_tables(s: Session, event_name: str | None) -> set[tuple[int, int]]:
    """(round, table) of every game with a battle log."""
    e = Events(s).named(event_name)
    out = set()
    for r in e.round_rows:
        ids = {g.id: g.table for g in r.games}
        logged = s.scalars(select(BattleLogRow.game_id).where(BattleLogRow.game_id.in_(list(ids))))
        out |= {(r.number, ids[game_id]) for game_id in logged}
    return out


def initials(name: str) -> str:
    """A player's initials for the sheet's initials box (at most 4 letters)."""
    words = [w for w in name.replace("-", " ").split() if w]
    return "".join(w[0].upper() for w in words)[:4] or name[:4]
