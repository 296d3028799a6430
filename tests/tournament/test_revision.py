"""The event's revision and the store's kept snapshots: every write to an event changes its
revision in the database, whichever Store (process) writes; a read changes nothing; a snapshot is
handed out again only while the revision is the one it was read at, and it always says what the
store's own readers say."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament import store as store_module
from kolrami.tournament.models import Base, EventRow
from kolrami.tournament.store import ConflictError, Store

FLEETS = ["federation-cruisers", "klingon-wolfpack", "federation-venture", "klingon-strike"]


def event(db: str, players: int = 5, name: str = "Nov") -> Store:
    store = Store(db)
    store.create_event(name, "2026-11-30", seed=3)
    for i in range(players):
        store.add_player(name, f"P{i}", load_fleet(FLEETS[i % len(FLEETS)]))
    return store


def revision(store: Store, name: str = "Nov") -> int:
    head = store.event_revision(store.event_id(name))
    assert head is not None
    return head[1]


def same_as_readers(store: Store, name: str = "Nov") -> None:
    """The snapshot says what each of the store's readers says, at this moment."""
    snap = store.snapshot(store.event_id(name))
    assert snap.name == name
    assert snap.settings == store.settings(name)
    assert snap.state == store.state(name)
    assert list(snap.players) == store.players(name)
    assert [list(r) for r in snap.rounds] == [
        store.games(name, n) for n in range(1, len(snap.state.rounds) + 1)
    ]
    assert list(snap.open_reports) == [
        r for r in store.reports(name) if r["status"] in ("pending", "disputed", "flagged")
    ]
    assert snap.logged == store.battle_log_tables(name)
    assert sorted(snap.organizers) == sorted(store.organizers_of(name))


def test_every_table_says_which_event_its_rows_belong_to() -> None:
    known = {
        EventRow,
        *store_module._BY_EVENT_ID,
        *store_module._BY_ROUND,
        *store_module._BY_GAME,
        *store_module.NO_EVENT,
    }
    assert {m.class_ for m in Base.registry.mappers} == known


def test_every_write_bumps_the_revision_and_reads_do_not(tmp_path: Path) -> None:
    store = event(str(tmp_path / "e.db"))
    seen = [revision(store)]

    def bumped() -> None:
        now = revision(store)
        assert now > seen[-1], "a write left the revision as it was"
        seen.append(now)
        same_as_readers(store)

    org = store.create_organizer("mara", "not-a-real-hash")
    store.adopt_event("Nov", org, "organizer mara")
    bumped()
    store.add_player("Nov", "P5", load_fleet(FLEETS[0]))
    bumped()
    store.set_pin_hash("Nov", "P5", "another-hash", "organizer mara")
    bumped()
    store.drop_player("Nov", "P5")
    bumped()
    store.pair_next_round("Nov")
    bumped()
    games = [g for g in store.games("Nov", 1) if g["b"]]
    first, second = games[0], games[1]
    store.record_result("Nov", 1, first["a"], True, 0)
    bumped()
    store.verify("Nov", 1, first["a"], "XY", "result")
    bumped()
    rid = store.report_result("Nov", 1, second["a"], second["a"], {second["a"]: 0, second["b"]: 0})
    bumped()
    store.dispute_report("Nov", rid, second["b"], "not so")
    bumped()
    rid = store.report_result("Nov", 1, second["a"], second["b"], {second["a"]: 0, second["b"]: 0})
    bumped()
    store.confirm_report("Nov", rid, second["b"])
    bumped()
    store.record_game(
        "Nov",
        1,
        first["table"],
        first["b"],
        {first["a"]: 0, first["b"]: 0},
        "AI captains",
        battle_log=("aggressive v kiting", "{}\n"),
    )
    bumped()
    store.record_roll_off("Nov", {first["a"]: 3}, "entered")
    bumped()

    # reads, and writes refused, leave it as it was
    store.snapshot(store.event_id("Nov"))
    store.export("Nov")
    store.corrections("Nov")
    with pytest.raises(InvalidInputError):
        store.record_result("Nov", 1, "nobody", True, 0)
    with pytest.raises(ConflictError):
        store.record_game(
            "Nov", 1, first["table"], first["a"], {first["a"]: 0, first["b"]: 0}, "x", 1
        )
    assert revision(store) == seen[-1]


def test_other_events_keep_their_revision(tmp_path: Path) -> None:
    store = event(str(tmp_path / "e.db"))
    store.create_event("Dec", seed=1)
    store.add_player("Dec", "Q", load_fleet(FLEETS[0]))
    before = revision(store, "Dec")
    store.add_player("Nov", "P9", load_fleet(FLEETS[1]))
    store.pair_next_round("Nov")
    assert revision(store, "Dec") == before


def test_a_snapshot_is_kept_while_the_revision_stands(tmp_path: Path) -> None:
    store = event(str(tmp_path / "e.db"))
    eid = store.event_id("Nov")
    kept = store.snapshot(eid)
    assert store.snapshot(eid) is kept
    store.pair_next_round("Nov")
    fresh = store.snapshot(eid)
    assert fresh is not kept
    assert len(fresh.state.rounds) == 1
    assert not kept.state.rounds


def test_a_write_by_another_store_is_seen_at_once(tmp_path: Path) -> None:
    """Two Store objects on one file: another process (the CLI, a second web worker)."""
    db = str(tmp_path / "e.db")
    server = event(db)
    eid = server.event_id("Nov")
    server.pair_next_round("Nov")
    before = server.snapshot(eid)
    g = next(g for g in before.rounds[0] if g["b"])

    cli = Store(db)
    cli.record_result("Nov", 1, g["a"], True, 120)
    after = server.snapshot(eid)
    assert after is not before
    row = next(x for x in after.rounds[0] if x["table"] == g["table"])
    assert (row["winner"], row["fp_a"]) == (g["a"], 120)
    assert row["version"] > g["version"]
    same_as_readers(server)

    cli.drop_player("Nov", "P0")
    dropped = next(p for p in server.snapshot(eid).players if p["name"] == "P0")
    assert dropped["dropped_after"] == 1


def test_the_revision_alone_decides_whether_a_snapshot_is_kept(tmp_path: Path) -> None:
    """Why every write must bump it: a bare SQL change that does not is not seen (the kept
    snapshot is handed out), and the bump alone brings the change in."""
    db = str(tmp_path / "e.db")
    store = event(db)
    eid = store.event_id("Nov")
    kept = store.snapshot(eid)
    with store.engine.begin() as c:
        c.execute(text("update events set date = '2027-01-01' where id = :id"), {"id": eid})
    assert store.snapshot(eid) is kept  # same revision: kept, as designed
    with store.engine.begin() as c:
        c.execute(text("update events set revision = revision + 1 where id = :id"), {"id": eid})
    assert store.snapshot(eid).settings["date"] == "2027-01-01"


def test_unknown_events_are_refused(tmp_path: Path) -> None:
    store = event(str(tmp_path / "e.db"))
    assert store.event_revision(999) is None
    with pytest.raises(InvalidInputError, match="no event #999"):
        store.snapshot(999)
