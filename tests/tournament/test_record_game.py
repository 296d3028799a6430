"""Store.record_game, the organizer's result entry, written with plain SQL statements: what it
stores and logs, what it refuses (leaving the store as it was), and a change by another
connection between its read and its write (a conflict, never a lost update)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import inspect
from sqlalchemy import text

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament.services import results
from kolrami.tournament.store import ConflictError
from kolrami.tournament.store import ScoreCheckError
from kolrami.tournament.store import Store

FLEETS = ["federation-cruisers", "klingon-wolfpack", "federation-venture", "klingon-strike"]


def paired(db: str, players: int = 5, name: str = "Nov", scenario: str = "") -> Store:
    store = Store(db)
    if scenario:
        store.create_event(name, seed=3, scenario=scenario)
    else:
        store.create_event(name, seed=3)
    for i in range(players):
        store.add_player(name, f"P{i}", load_fleet(FLEETS[i % len(FLEETS)]))
    store.pair_next_round(name)
    return store


def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the store's tables (the whole stored state), on SQLite or PostgreSQL."""
    tables = inspect(store.engine).get_table_names()
    with store.engine.connect() as c:
        return {
            t: [tuple(r) for r in c.execute(text(f'SELECT * FROM "{t}" ORDER BY 1'))]
            for t in tables
        }


def game(store: Store, table: int, name: str = "Nov") -> dict[str, Any]:
    return next(g for g in store.games(name, 1) if g["table"] == table)


def test_entries_corrections_and_versions(db: str) -> None:
    store = paired(db)
    g = next(g for g in store.games("Nov", 1) if g["b"])
    t, a, b = g["table"], g["a"], g["b"]
    eid = store.event_id("Nov")

    def revision() -> int:
        head = store.event_revision(eid)
        assert head is not None
        return head[1]

    start = revision()
    store.record_game("Nov", 1, t, a, {a: 4, b: 3}, "organizer mara", expected_version=1)
    assert (game(store, t)["winner"], game(store, t)["version"]) == (a, 2)
    assert revision() == start + 1
    store.record_game("Nov", 1, t, a, {a: 4, b: 3}, "organizer mara", expected_version=2)
    assert game(store, t)["version"] == 2, "the same result again keeps the version"
    assert revision() == start + 2, "but it is logged, so the event changed"
    store.record_game("Nov", 1, t, b, {a: 3, b: 5}, "organizer jon")
    assert (game(store, t)["winner"], game(store, t)["fp_a"], game(store, t)["version"]) == (
        b,
        3,
        3,
    )
    log = store.corrections("Nov")[-6:-1]
    assert [(x["who"], x["what"]) for x in log] == [
        ("organizer mara", f"round 1 table {t}: {a} beat {b}, Fleet Points {a} 4, {b} 3"),
        (
            "organizer mara",
            f"round 1 table {t}: {a} beat {b}, Fleet Points {a} 4, {b} 3 (entered again)",
        ),
        ("organizer jon", f"round 1 table {t}: winner changed to the opponent of {a}"),
        ("organizer jon", f"round 1 table {t}: {a}'s Fleet Points 4 -> 3"),
        ("organizer jon", f"round 1 table {t}: {b}'s Fleet Points 3 -> 5"),
    ]
    whole = store.corrections("Nov")
    assert whole[-1]["what"].endswith("(entered again)")
    assert whole[-1]["what"].startswith(f"round 1 table {t}: {b} beat {a}")
    for x in whole:  # every line has its time, stored as the ORM stores it
        datetime.fromisoformat(x["at"])


def test_its_log_lines_are_stored_in_the_text_form_the_orm_writes(db: str) -> None:
    store = paired(db)
    g = next(g for g in store.games("Nov", 1) if g["b"])
    a, b = g["a"], g["b"]
    store.report_result("Nov", 1, a, a, {a: 4, b: 3})  # a line written through the ORM
    store.record_game("Nov", 1, g["table"], a, {a: 4, b: 3}, "organizer mara")
    with store.engine.connect() as c:
        *_, orm, plain = (  # registering and pairing are lines before them
            str(r[0]) for r in c.execute(text("SELECT at FROM corrections ORDER BY id"))
        )
    # one form in the column (no "+00:00" on some lines only), and no datetime handed to the
    # sqlite3 driver's default adapter, deprecated since Python 3.12
    assert len(plain) == len(orm), (orm, plain)
    assert datetime.fromisoformat(plain).tzinfo is None


def test_open_reports_are_closed_and_battle_logs_replaced(db: str) -> None:
    store = paired(db)
    g1, g2 = (g for g in store.games("Nov", 1) if g["b"])
    a, b = g1["a"], g1["b"]
    rid = store.report_result("Nov", 1, a, a, {a: 7, b: 2})
    store.record_game("Nov", 1, g1["table"], a, {a: 7, b: 2}, "organizer mara")
    (report,) = [r for r in store.reports("Nov") if r["id"] == rid]
    assert (report["status"], report["resolved_by"]) == ("accepted", "organizer mara")
    c, d = g2["a"], g2["b"]
    rid = store.report_result("Nov", 1, d, d, {c: 1, d: 9})  # d reports he won
    store.record_game("Nov", 1, g2["table"], c, {c: 4, d: 1}, "organizer mara")
    (report,) = [r for r in store.reports("Nov") if r["id"] == rid]
    assert report["status"] == "overridden"
    for n, log in enumerate(("{}\n", '{"again": 1}\n')):
        store.record_game(
            "Nov", 1, g1["table"], b, {a: n, b: 3}, "AI", battle_log=("aggressive v kiting", log)
        )
        assert store.battle_log("Nov", 1, g1["table"]) == log
    assert store.battle_log_tables("Nov") == {(1, g1["table"])}


def test_refusals_leave_the_store_as_it_was(db: str) -> None:
    store = paired(db)
    g = next(g for g in store.games("Nov", 1) if g["b"])
    bye = next(g for g in store.games("Nov", 1) if not g["b"])
    t, a, b = g["table"], g["a"], g["b"]
    store.record_game("Nov", 1, t, a, {a: 4, b: 3}, "organizer mara")
    before = dump(store)
    refusals: list[tuple[type[Exception], str, dict[str, Any]]] = [
        (InvalidInputError, "does not play", {"winner": "P9"}),
        (InvalidInputError, "of both", {"points": {a: 1}}),
        (InvalidInputError, "start at 0", {"points": {a: -1, b: 2}}),
        (ConflictError, "changed by someone else", {"expected_version": 1}),
        (InvalidInputError, "no table 99", {"table": 99}),
        (InvalidInputError, "no round 2", {"number": 2}),
        (InvalidInputError, "is a bye", {"table": bye["table"]}),
        (InvalidInputError, "Nope", {"name": "Nope"}),
    ]
    for error, message, change in refusals:
        kw: dict[str, Any] = {
            "name": "Nov",
            "number": 1,
            "table": t,
            "winner": b,
            "points": {a: 5, b: 6},
            "expected_version": 2,
            **change,
        }
        with pytest.raises(error, match=message):
            store.record_game(
                kw["name"],
                kw["number"],
                kw["table"],
                kw["winner"],
                kw["points"],
                "organizer mara",
                expected_version=kw["expected_version"],
            )
        assert dump(store) == before, f"{message}: the store changed"
    store.record_game(None, 1, t, b, {a: 5, b: 6}, "desk", expected_version=2)  # the latest event
    assert game(store, t)["winner"] == b


def test_a_score_the_check_rejects_is_held_then_recorded_flagged(db: str) -> None:
    store = paired(db, players=4, name="Peak", scenario="peak-performance")
    g = store.games("Peak", 1)[0]
    a, b = g["a"], g["b"]
    before = dump(store)
    with pytest.raises(ScoreCheckError, match="cannot be scored against"):
        store.record_game("Peak", 1, g["table"], a, {a: 4999, b: 0}, "desk", unless_warned=True)
    assert dump(store) == before
    flag = store.record_game("Peak", 1, g["table"], a, {a: 4999, b: 0}, "desk")
    assert "cannot be scored against" in flag
    assert game(store, g["table"], "Peak")["flag"] == flag


def test_a_change_between_the_read_and_the_write_is_a_conflict(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the database lets another connection write between record_game's read and its
    update (SQLite's BEGIN IMMEDIATE does not), the update names the version it read: it
    changes nothing and the entry is refused, never a lost update."""
    store = paired(db)
    g = next(g for g in store.games("Nov", 1) if g["b"])
    t, a, b = g["table"], g["a"], g["b"]
    first = results._Plain.first

    def raced(self: Any, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        found = first(self, sql, params)
        if sql is results._GAME_AT_SQL:  # someone else enters the table meanwhile
            assert found is not None
            self.run("UPDATE games SET version = version + 1 WHERE id = :id", {"id": found[3]})
        return found

    monkeypatch.setattr(results._Plain, "first", raced)
    before = dump(store)
    with pytest.raises(ConflictError, match="changed by someone else"):
        store.record_game("Nov", 1, t, a, {a: 4, b: 3}, "desk")
    assert dump(store) == before
