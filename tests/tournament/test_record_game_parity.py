"""record_game's fast path (plain SQL statements, the revision bumped by hand) against its ORM
reference: the same entries, played through both on two stores, store the same rows, answer
the same way (the same warnings, the same refusals) and keep the same pages' snapshot."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import DateTime
from sqlalchemy import inspect
from sqlalchemy import text

from kolrami.errors import KolramiError
from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store
from web_helpers import FLEETS as ALL_FLEETS
from web_helpers import possible_points

FLEETS = ALL_FLEETS[:5]


def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, times masked (each path stamps its own moment)."""
    inspector = inspect(store.engine)
    columns = {
        t: [isinstance(col["type"], DateTime) for col in inspector.get_columns(t)]
        for t in inspector.get_table_names()
    }
    out = {}
    with store.engine.connect() as c:
        for t, timed in columns.items():
            out[t] = [
                tuple("<time>" if is_time else v for v, is_time in zip(r, timed, strict=True))
                for r in c.execute(text(f'SELECT * FROM "{t}" ORDER BY 1'))
            ]
    return out


def event(db: str, fast_path: bool, scenario: str) -> Store:
    store = Store(db, fast_path=fast_path)
    store.create_event("Nov", seed=11, scenario=scenario)
    for i in range(7):  # odd: round 1 has a bye
        store.add_player("Nov", f"P{i}", load_fleet(FLEETS[i % len(FLEETS)]))
    store.pair_next_round("Nov")
    return store


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """What a call answered, or the error it refused with (its class and message)."""
    try:
        return "ok", call()
    except KolramiError as exc:
        return type(exc).__name__, str(exc)


def entries(store: Store, rng: random.Random, n: int) -> list[tuple[str, dict[str, Any]]]:
    """A seeded mix of what the counter sends: results, the same again, corrections, stale
    versions, wrong winners and tables, impossible and negative scores, battle logs, players'
    reports and PIN confirmations in between (through the ORM on both stores)."""
    tables = store.games("Nov", 1)
    fleets = store.fleets("Nov")
    out: list[tuple[str, dict[str, Any]]] = []
    for g in tables[:3]:  # first the players' own results, PIN-confirmed: entries come over them
        if g["b"]:
            low = possible_points(fleets[g["a"]], 30)
            fp = {g["a"]: possible_points(fleets[g["b"]], max(50, low + 1)), g["b"]: low}
            out += [("report", {"table": g["table"], "reporter": g["a"], "fp": fp})]
            out += [("confirm", {"table": g["table"]})]
    for step in range(n):
        g = rng.choice(tables)
        a, b = g["a"], g["b"] or "P9"
        kind = rng.random()
        if kind < 0.2 and g["b"]:
            high, low = sorted((rng.randrange(0, 200), rng.randrange(0, 200)), reverse=True)
            out.append(("report", {"table": g["table"], "reporter": a, "fp": {a: high, b: low}}))
            continue
        if kind < 0.3:
            out.append(("confirm", {"table": g["table"]}))
            continue
        if not g["b"] and rng.random() < 0.8:  # the bye's table: now and then
            g = rng.choice([x for x in tables if x["b"]])
            a, b = g["a"], g["b"]
        winner = rng.choice([a, b] * 6 + ["P9"])
        loser = b if winner == a else a
        high = rng.choice([rng.randrange(0, 300)] * 8 + [4999, 0, -1])
        low = rng.randrange(0, max(high, 0) + 1) if rng.random() < 0.85 else high + 1  # PP-22
        points = {winner: high, loser: low} if winner in (a, b) else {a: high, b: low}
        if rng.random() < 0.03:
            points = {a: high}
        out.append(
            (
                "game",
                {
                    "event": rng.choice(["Nov"] * 6 + [None, "nov", "Nope"]),
                    "table": rng.choice([g["table"]] * 19 + [99]),
                    "winner": winner,
                    "points": points,
                    "who": rng.choice(["organizer mara", "desk", f"AI captains ({step})"]),
                    "version": rng.choice(["current"] * 4 + [None, "stale"]),
                    "log": rng.random() < 0.2,
                    "unless_warned": rng.random() < 0.5,
                },
            )
        )
    return out


def play(store: Store, kind: str, e: dict[str, Any], step: int) -> tuple[str, Any]:
    eid = store.event_id("Nov")
    store.snapshot(eid)  # kept, so a fast entry may follow it (Store._follow)
    g = next(x for x in store.games("Nov", 1) if x["table"] == e["table"] or e["table"] == 99)
    if kind == "report":
        return outcome(lambda: store.report_result("Nov", 1, e["reporter"], e["reporter"], e["fp"]))
    if kind == "confirm":
        waiting = [r for r in store.reports("Nov", 1) if r["status"] == "pending"]
        if not waiting:
            return "none", None
        r = waiting[-1]
        return outcome(lambda: store.confirm_report("Nov", r["id"], r["confirmer"]))
    version = {"current": g["version"], "stale": g["version"] - 1, None: None}[e["version"]]
    return outcome(
        lambda: store.record_game(
            e["event"],
            1,
            e["table"],
            e["winner"],
            e["points"],
            e["who"],
            expected_version=version,
            battle_log=("aggressive v kiting", f'{{"step": {step}}}\n') if e["log"] else None,
            unless_warned=e["unless_warned"],
        )
    )


@pytest.mark.parametrize(("scenario", "seed"), [("peak-performance", 1), ("standard", 2)])
def test_the_fast_path_stores_what_its_orm_reference_stores(
    new_db: Callable[[str], str], scenario: str, seed: int
) -> None:
    fast = event(new_db("fast"), True, scenario)
    orm = event(new_db("orm"), False, scenario)
    assert dump(fast) == dump(orm)
    played = entries(fast, random.Random(seed), 120)
    answers: dict[str, int] = {}
    for step, (kind, e) in enumerate(played):
        got = play(fast, kind, e, step), play(orm, kind, e, step)
        assert got[0] == got[1], f"step {step} {kind} {e}"
        answers[got[0][0]] = answers.get(got[0][0], 0) + 1
        assert dump(fast) == dump(orm), f"step {step} {kind} {e}: the stores differ"
        for store in (fast, orm):  # the kept snapshot is the one the database gives
            eid = store.event_id("Nov")
            kept = store.snapshot(eid)
            assert kept == store._read_snapshot(eid), f"step {step}: a stale snapshot"
    confirmed = [c for c in orm.corrections("Nov") if "confirmation of the earlier" in c["what"]]
    assert len(confirmed) >= 2, "the organizer's entries over PIN-confirmed results"
    # the mix reached every answer: recorded, refused as bad input, stale, held by the check
    assert answers.get("ok", 0) > 20, answers
    assert {"InvalidInputError", "ConflictError"} <= set(answers), answers
    if scenario == "peak-performance":
        assert "ScoreCheckError" in answers, answers
    assert fast.fast_path
    assert not orm.fast_path
