"""The event's revision and the store's kept snapshots: every write to an event changes its
revision in the database, whichever Store (process) writes; a read changes nothing; a snapshot is
handed out again only while the revision is the one it was read at, and it always says what the
store's own readers say."""

from __future__ import annotations

import pytest
import store_kit
from sqlalchemy import text

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament import repositories
from kolrami.tournament.models import Base
from kolrami.tournament.models import EventRow
from kolrami.tournament.store import ConflictError
from kolrami.tournament.store import Store

FLEETS = ["federation-cruisers", "klingon-wolfpack", "federation-venture", "klingon-strike"]


def event(db: str, players: int = 5, name: str = "Nov") -> Store:
    return store_kit.event(db, players, name, FLEETS)


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
        *repositories.BY_EVENT_ID,
        *repositories.BY_ROUND,
        *repositories.BY_GAME,
        *repositories.NO_EVENT,
    }
    assert {m.class_ for m in Base.registry.mappers} == known


def test_every_write_bumps_the_revision_and_reads_do_not(db: str) -> None:
    store = event(db)
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
    # a disputed report waits for the organizer: he settles the table
    store.record_game(
        "Nov", 1, second["table"], second["b"], {second["a"]: 0, second["b"]: 0}, "organizer"
    )
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


def test_other_events_keep_their_revision(db: str) -> None:
    store = event(db)
    store.create_event("Dec", seed=1)
    store.add_player("Dec", "Q", load_fleet(FLEETS[0]))
    before = revision(store, "Dec")
    store.add_player("Nov", "P9", load_fleet(FLEETS[1]))
    store.pair_next_round("Nov")
    assert revision(store, "Dec") == before


def test_a_snapshot_is_kept_while_the_revision_stands(db: str) -> None:
    store = event(db)
    eid = store.event_id("Nov")
    kept = store.snapshot(eid)
    assert store.snapshot(eid) is kept
    store.pair_next_round("Nov")
    fresh = store.snapshot(eid)
    assert fresh is not kept
    assert len(fresh.state.rounds) == 1
    assert not kept.state.rounds


def test_a_write_by_another_store_is_seen_at_once(db: str) -> None:
    """Two Store objects on one file: another process (the CLI, a second web worker)."""
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


def test_the_revision_alone_decides_whether_a_snapshot_is_kept(db: str) -> None:
    """Why every write must bump it: a bare SQL change that does not is not seen (the kept
    snapshot is handed out), and the bump alone brings the change in."""
    store = event(db)
    eid = store.event_id("Nov")
    kept = store.snapshot(eid)
    with store.engine.begin() as c:
        c.execute(text("update events set date = '2027-01-01' where id = :id"), {"id": eid})
    assert store.snapshot(eid) is kept  # same revision: kept, as designed
    with store.engine.begin() as c:
        c.execute(text("update events set revision = revision + 1 where id = :id"), {"id": eid})
    assert store.snapshot(eid).settings["date"] == "2027-01-01"


def test_unknown_events_are_refused(db: str) -> None:
    store = event(db)
    assert store.event_revision(999) is None
    with pytest.raises(InvalidInputError, match="no event #999"):
        store.snapshot(999)


def test_a_result_entered_here_moves_the_kept_snapshot_exactly(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After record_game, the store keeps a snapshot made from the one it had and the change,
    without reading the event again; it equals the event read afresh, field by field."""
    store = event(db, players=7, name="Nov")
    store.create_event("Peak", seed=5)  # the score check flags impossible Fleet Points
    for i in range(4):
        store.add_player("Peak", f"Q{i}", load_fleet(FLEETS[i]))
    store.pair_next_round("Nov")
    store.pair_next_round("Peak")
    reads: list[int] = []
    read = store._read_snapshot

    def counted(event_id: int) -> object:
        reads.append(event_id)
        return read(event_id)

    monkeypatch.setattr(store, "_read_snapshot", counted)

    def entered(name: str, at: dict[str, object], **kw: object) -> None:
        eid = store.event_id(name)
        store.snapshot(eid)  # kept before the write
        count = len(reads)
        a, b = str(at["a"]), str(at["b"])
        points = kw.pop("points", {a: 5, b: 9})
        store.record_game(name, 1, int(str(at["table"])), b, points, "desk", **kw)  # type: ignore[arg-type]
        kept = store.snapshot(eid)
        assert len(reads) == count, "the event was read again"
        fresh = read(eid)
        for f in ("revision", "settings", "state", "players", "rounds", "open_reports"):
            assert getattr(kept, f) == getattr(fresh, f), f
        assert kept.logged == fresh.logged
        assert kept.organizers == fresh.organizers

    nov = [g for g in store.games("Nov", 1) if g["b"]]
    rid = store.report_result("Nov", 1, nov[0]["a"], nov[0]["a"], {nov[0]["a"]: 2, nov[0]["b"]: 1})
    assert store.snapshot(store.event_id("Nov")).open_reports[0]["id"] == rid
    entered("Nov", nov[0])  # closes the open report (overridden)
    entered("Nov", nov[0])  # the same again: version kept, revision moves
    entered("Nov", nov[1], battle_log=("aggressive v kiting", "{}\n"))
    peak = [g for g in store.games("Peak", 1) if g["b"]]
    entered("Peak", peak[0], points={peak[0]["a"]: 0, peak[0]["b"]: 4999})
    assert store.snapshot(store.event_id("Peak")).rounds[0][0]["flag"]


def test_no_snapshot_is_moved_over_another_processes_write(db: str) -> None:
    """A write by another Store between the kept snapshot and this store's write: the kept
    snapshot is not the one the write started from, so the event is read again."""
    store = event(db)
    store.pair_next_round("Nov")
    eid = store.event_id("Nov")
    g1, g2 = (g for g in store.games("Nov", 1) if g["b"])
    store.snapshot(eid)
    Store(db).record_game("Nov", 1, g1["table"], g1["a"], {g1["a"]: 4, g1["b"]: 3}, "cli")
    store.record_game("Nov", 1, g2["table"], g2["b"], {g2["a"]: 6, g2["b"]: 7}, "desk")
    kept = store.snapshot(eid)
    assert kept.state == store._read_snapshot(eid).state
    assert {(x["table"], x["winner"]) for x in kept.rounds[0]} >= {
        (g1["table"], g1["a"]),
        (g2["table"], g2["b"]),
    }
