"""The tournament store: one transaction a command, migrations, corrections, crash safety."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy import inspect
from sqlalchemy import text
from store_kit import event

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.fleet.model import read_fleet
from kolrami.tournament.store import ConflictError
from kolrami.tournament.store import Store


def finish_round(store: Store, number: int) -> None:
    for g in store.games(None, number):
        if g["b"]:
            store.record_result(None, number, g["a"], True, 100)
            store.record_result(None, number, g["b"], False, 50)


def test_migrations_build_the_schema(db: str) -> None:
    store = Store(db)
    tables = set(inspect(store.engine).get_table_names())
    assert {
        "events",
        "players",
        "rounds",
        "games",
        "roll_offs",
        "corrections",
        "alembic_version",
    } <= tables
    with store.engine.connect() as c:
        assert c.execute(text("select version_num from alembic_version")).scalar() == "0007"
    Store(db)  # opening again is a no-op upgrade


@pytest.mark.rule("OP-11", "OP-13", "FBS-12")
def test_registration_checks_the_fleet(db: str) -> None:
    store = event(db, 0)
    big = read_fleet({"ships": [{"id": "enterprise"}, {"id": "enterprise"}]}, "big")
    with pytest.raises(InvalidInputError, match="not legal for Nov: ships: Total Build 360 SP"):
        store.add_player(None, "Eve", big)
    assert store.state().players == ()
    store.add_player(None, "Eve", load_fleet("klingon-raiders"))
    with pytest.raises(InvalidInputError, match="registered already"):
        store.add_player(None, "Eve", load_fleet("klingon-raiders"))


def test_a_refusal_names_the_field_it_is_about(db: str) -> None:
    """Forms put a store's message under the field its error names (issue 16)."""
    store = event(db, 0)

    def field_of(write: Callable[[], object]) -> str | None:
        with pytest.raises(InvalidInputError) as refused:
            write()
        return refused.value.field

    assert field_of(lambda: store.create_event("Dec", "2026-13-45")) == "date"
    assert field_of(lambda: store.create_event("Dec", sp_limit=0)) == "sp_limit"
    assert field_of(lambda: store.create_event("Dec", round_minutes=5000)) == "round_minutes"
    assert field_of(lambda: store.create_event("Nov")) == "name"
    big = read_fleet({"ships": [{"id": "enterprise"}, {"id": "enterprise"}]}, "big")
    assert field_of(lambda: store.add_player(None, "Eve", big)) == "fleet"
    assert field_of(lambda: store.add_player(None, "Eve", big, email="e" * 201)) == "email"
    store.add_player(None, "Eve", load_fleet("klingon-raiders"))
    assert field_of(lambda: store.add_player(None, "eve", load_fleet("klingon-raiders"))) == "name"
    store.add_player(None, "Fay", load_fleet("klingon-raiders"))
    store.pair_next_round()
    assert field_of(lambda: store.record_game(None, 1, 1, "Zed", {"Eve": 1, "Fay": 2}, "o")) == (
        "winner"
    )
    assert field_of(lambda: store.pair_next_round()) is None  # the whole request: no field


@pytest.mark.rule("OP-01", "OP-07", "OP-08", "OP-09", "OP-10")
def test_an_odd_event_with_byes_across_three_rounds(db: str) -> None:
    store = event(db, 5)
    byes = []
    for n in (1, 2, 3):
        pairing = store.pair_next_round()
        byes += [g.a for g in pairing.games if g.bye]
        finish_round(store, n)
    assert len(set(byes)) == 3  # three different players had the bye
    table = store.state().standings()
    for s in table:
        assert len(s.fp_by_round) == 3
    bye_rounds = [s for s in table if s.byes]
    for s in bye_rounds:
        assert 75 in s.fp_by_round  # (100 + 50 + 100 + 50) / 4 = 75
    with pytest.raises(InvalidInputError, match="has 3 rounds and all are paired"):
        store.pair_next_round()


def test_a_round_needs_the_previous_one_finished(db: str) -> None:
    store = event(db, 4)
    store.pair_next_round()
    with pytest.raises(InvalidInputError, match="round 1 is not finished"):
        store.pair_next_round()


@pytest.mark.rule("OP-12", "OP-17")
def test_drops_and_late_entries(db: str) -> None:
    store = event(db, 4)
    store.pair_next_round()
    finish_round(store, 1)
    store.drop_player(None, "P0")
    store.add_player(None, "Late", load_fleet("klingon-fleet"))
    state = store.state()
    assert "P0" not in state.active
    assert "Late" in state.active
    pairing = store.pair_next_round()
    seated = {p for g in pairing.games for p in g.players}
    assert "P0" not in seated
    assert "Late" in seated
    assert any("P0 dropped after round 1" in c["what"] for c in store.corrections())


@pytest.mark.rule("OP-14", "FBS-09", "FBS-10")
def test_initials_before_and_after(db: str) -> None:
    store = event(db, 2)
    store.pair_next_round()
    store.verify(None, 1, "P0", "JB", "build")
    with pytest.raises(InvalidInputError, match="no result for P0 yet"):
        store.verify(None, 1, "P0", "JB", "result")
    store.record_result(None, 1, "P0", True, 120)
    store.verify(None, 1, "P0", "JB", "result")
    (game,) = store.games(None, 1)
    side = "a" if game["a"] == "P0" else "b"
    assert game[f"build_initials_{side}"] == "JB"
    assert game[f"result_initials_{side}"] == "JB"


def test_corrections_are_logged_and_stale_edits_refused(db: str) -> None:
    store = event(db, 2)
    store.pair_next_round()
    store.record_result(None, 1, "P0", True, 120)
    version = store.games(None, 1)[0]["version"]
    with pytest.raises(InvalidInputError, match=r"has a result already .* --correct"):
        store.record_result(None, 1, "P0", True, 130, who="Mara", expected_version=version)
    store.record_result(
        None, 1, "P0", True, 130, who="Mara", expected_version=version, correct=True, why="typo"
    )
    with pytest.raises(ConflictError, match="changed by someone else"):
        store.record_result(
            None, 1, "P0", False, 90, expected_version=version, correct=True, why="x"
        )
    what = [c["what"] for c in store.corrections()]
    assert any("Fleet Points 120 -> 130" in w for w in what)
    assert (
        store.games(None, 1)[0]["fp_a" if store.games(None, 1)[0]["a"] == "P0" else "fp_b"] == 130
    )


@pytest.mark.rule("PP-16", "PP-21")
def test_an_impossible_score_is_flagged(db: str) -> None:
    store = event(db, 2)
    (g,) = store.pair_next_round().games
    warning = store.record_result(None, 1, g.a, True, 212)
    opponent = g.b
    assert f"cannot be scored against {opponent}'s fleet" in warning
    assert store.games(None, 1)[0]["flag"] == warning
    assert store.record_result(None, 1, g.a, True, 0, correct=True, why="typo") == ""


def test_export_and_import_round_trip(db: str, new_db: Callable[[str], str]) -> None:
    store = event(db, 5)
    for n in (1, 2):
        store.pair_next_round()
        finish_round(store, n)
    doc = store.export()
    other = Store(new_db("other"))
    name = other.import_event(json.loads(json.dumps(doc, default=str)))
    assert name == "Nov"
    assert other.state().standings() == store.state().standings()
    with pytest.raises(InvalidInputError, match="exists already"):
        other.import_event(doc)
    with pytest.raises(InvalidInputError, match="not a Kolrami event export"):
        other.import_event({"event": {}})


CRASH = """
import sys
from kolrami.tournament.store import Store
store = Store(sys.argv[1])
print("ready", flush=True)
store.pair_next_round()
print("done", flush=True)
"""


def write_locked(db: str) -> bool:
    """Another connection holds the database's write lock (is inside a writing transaction)."""
    probe = sqlite3.connect(db, timeout=0, isolation_level=None)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        probe.close()


@pytest.mark.sqlite_only(
    "a process killed inside SQLite's write lock; PostgreSQL's own crash safety is its server's"
)
def test_a_killed_process_leaves_a_whole_round_or_none(tmp_path: Path) -> None:
    db = str(tmp_path / "event.db")
    store = event(db, 8)
    env = {**os.environ, "KOLRAMI_TEST_PAUSE_IN_TRANSACTION": "30"}
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH, db], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    # wait until the round's rows are written (flushed) inside the open transaction
    engine = create_engine(f"sqlite:///{db}")
    deadline = time.time() + 20
    mid_transaction = False
    while time.time() < deadline and not mid_transaction:
        time.sleep(0.1)
        mid_transaction = write_locked(db)
    assert mid_transaction, "the child never got inside its transaction"
    time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with engine.connect() as c:
        rounds = c.execute(text("select count(*) from rounds")).scalar()
        games = c.execute(text("select count(*) from games")).scalar()
    assert (rounds, games) == (0, 0)  # nothing of the half-written round
    pairing = store.pair_next_round()  # and the store still works
    assert len(pairing.games) == 4
    with engine.connect() as c:
        assert c.execute(text("select count(*) from games")).scalar() == 4
