"""Nothing wrong gets recorded (issue 16): roll-offs settle only their own tie, contradictions
and changes to confirmed results need a correction, winners have the most Fleet Points, the score
check tells implausible from impossible, disputes stay, byes follow OP-09, names are compared as
people read them, and old databases upgrade."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.fleet.model import fpf_preset_names
from kolrami.tournament import core
from kolrami.tournament.core import Game
from kolrami.tournament.core import RollOff
from kolrami.tournament.core import pair_round
from kolrami.tournament.core import standings
from kolrami.tournament.store import MIGRATIONS
from kolrami.tournament.store import Store


def won(r: int, a: str, b: str, fa: int, fb: int) -> Game:
    return Game(r, a, b, a, ((a, fa), (b, fb)))


@pytest.mark.rule("OP-24")
def test_a_roll_off_settles_only_the_tie_it_was_rolled_for() -> None:
    one = [won(1, "A", "B", 10, 0), won(1, "C", "D", 10, 0)]  # A, C level; B, D level
    rolls = [
        RollOff(2, 10, (("A", (3,)), ("C", (1,))), after_round=1),
        RollOff(1, 0, (("B", (2,)), ("D", (4,))), after_round=1),
    ]
    after_one = standings("ABCD", [one], rolls)
    assert [(s.player, s.rank, s.tied) for s in after_one] == [
        ("A", 1, False),
        ("C", 2, False),
        ("D", 3, False),
        ("B", 4, False),
    ]
    assert after_one[0].settled_by == "roll-off after round 1: A 3, C 1"
    two = [won(2, "A", "C", 10, 0), won(2, "D", "B", 10, 0)]  # C and D: 3 BP, 10 FP each
    table = standings("ABCD", [one, two], rolls)
    by = {s.player: s for s in table}
    assert (by["C"].rank, by["D"].rank) == (2, 2)  # shared: the old roll-offs do not decide it
    assert by["C"].tied
    assert by["D"].tied
    assert by["C"].title == by["D"].title == ""  # a shared rank carries no title
    assert core.tied_groups(table) == [["C", "D"]]
    assert core.tie_json(table) == [
        {"rank": 2, "battle_points": 3, "fleet_points": 10, "players": ["C", "D"]}
    ]


@pytest.mark.rule("OP-22")
def test_no_titles_and_no_ties_before_a_round_is_played() -> None:
    table = standings("ABC", [])
    assert {s.title for s in table} == {""}
    assert {s.rank for s in table} == {1}
    assert core.tied_groups(table) == []


@pytest.mark.rule("OP-24")
@pytest.mark.parametrize(
    ("throws", "message"),
    [
        ({"A": (9,), "B": (2,)}, "5 attack dice show 0 to 5"),
        ({"A": (3,), "B": (3,)}, "level after throw 1: they roll again"),
        ({"A": (3, 1), "B": (2,)}, "settled his place; nobody throws again"),
        ({"A": (3,)}, "two or more level players"),
    ],
)
def test_impossible_roll_offs_are_refused(throws: dict[str, tuple[int, ...]], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        core.check_throws(throws)


@pytest.mark.rule("OP-04", "OP-09")
def test_the_bye_goes_to_the_fewest_battle_points_even_if_a_rematch_follows() -> None:
    previous = [
        [won(1, "A", "B", 50, 10), won(1, "C", "D", 50, 40)],
        [won(2, "A", "C", 50, 30), won(2, "B", "D", 50, 0)],
    ]  # A 4 BP; B and C 3 BP (B fewer FP); D dropped
    for seed in range(20):
        pairing = pair_round(3, ["A", "B", "C"], previous, seed)
        bye = next(g.a for g in pairing.games if g.bye)
        assert bye == "B"  # never the leader, A, to dodge the A v C rematch
        assert pairing.rematches == (("A", "C"),)


def event(db: str, players: int = 4, scenario: str = "peak-performance") -> Store:
    store = Store(db)
    store.create_event("Nov", "2026-11-30", seed=3, scenario=scenario)
    for i, preset in enumerate(fpf_preset_names()[:players]):
        store.add_player("Nov", f"P{i}", load_fleet(f"presets:{preset}"))
    return store


def test_roll_offs_in_the_store_are_checked_logged_and_shown(db: str) -> None:
    store = event(db)
    with pytest.raises(InvalidInputError, match="no round has been played yet"):
        store.record_roll_off("Nov", {"P0": (3,), "P1": (2,)}, "entered")
    games = store.pair_next_round("Nov").games
    with pytest.raises(InvalidInputError, match="no round has been played yet"):
        store.record_roll_off("Nov", {"P0": (3,), "P1": (2,)}, "entered")
    for g in games:
        assert g.b is not None
        store.record_game("Nov", 1, 1 + games.index(g), g.a, {g.a: 10, g.b: 0}, "desk")
    winners, losers = [g.a for g in games], [str(g.b) for g in games]
    with pytest.raises(InvalidInputError, match="are not one tie"):
        store.record_roll_off("Nov", {winners[0]: (3,), losers[0]: (2,)}, "entered")
    with pytest.raises(InvalidInputError, match="show 0 to 5"):
        store.record_roll_off("Nov", {winners[0]: (9,), winners[1]: (2,)}, "entered")
    before = store.export("Nov")
    with pytest.raises(InvalidInputError, match="roll again"):
        store.record_roll_off("Nov", {winners[0]: (3,), winners[1]: (3,)}, "entered")
    assert store.export("Nov") == before  # refusals change nothing
    roll = store.record_roll_off("Nov", {winners[0]: (3, 1), winners[1]: (3, 4)}, "entered")
    assert roll.describe() == f"{winners[1]} 3 then 4, {winners[0]} 3 then 1"
    table = store.state("Nov").standings()
    assert [s.player for s in table[:2]] == [winners[1], winners[0]]
    assert table[0].title == "Admiral"
    assert "roll-off after round 1" in store.corrections("Nov")[-1]["what"]
    assert core.tied_groups(table) == [sorted(losers)]  # the losers still share a rank
    rolled = store.roll_off_ties("Nov")
    assert [r.players for r in rolled] == [frozenset(losers)]
    assert core.tied_groups(store.state("Nov").standings()) == []


def test_contradictions_and_initialled_results_need_a_correction(db: str) -> None:
    store = event(db, 2)
    (g,) = store.pair_next_round("Nov").games
    a, b = g.a, g.b
    assert b is not None
    store.record_result("Nov", 1, a, True, 85)
    with pytest.raises(InvalidInputError, match=r"has a result already .* disagrees"):
        store.record_result("Nov", 1, b, True, 84)  # both claim the win
    store.record_result("Nov", 1, b, False, 84)
    with pytest.raises(InvalidInputError, match="--correct"):
        store.record_result("Nov", 1, a, False, 200)
    store.verify("Nov", 1, a, "XY", "result")
    with pytest.raises(InvalidInputError, match="the opponent initialled it"):
        store.record_result("Nov", 1, a, True, 90)
    with pytest.raises(InvalidInputError, match="says why"):
        store.record_result("Nov", 1, a, True, 90, correct=True)
    store.record_result("Nov", 1, a, True, 90, who="organizer mara", correct=True, why="typo")
    (t,) = store.games("Nov", 1)
    assert (t["result_initials_a"], t["result_initials_b"]) == ("", "")
    assert t["entered_by"] == "organizer mara"
    assert store.corrections("Nov")[-1]["who"] == "organizer mara: typo"


@pytest.mark.rule("PP-22")
def test_a_winner_with_fewer_fleet_points_is_refused(db: str) -> None:
    store = event(db, 2)
    (g,) = store.pair_next_round("Nov").games
    assert g.b is not None
    before = store.export("Nov")
    with pytest.raises(InvalidInputError, match=r"cannot have won with 0 .*\(PP-22\)"):
        store.record_game("Nov", 1, 1, g.a, {g.a: 0, g.b: 108}, "desk")
    with pytest.raises(InvalidInputError, match="PP-22"):
        store.report_result("Nov", 1, g.a, g.a, {g.a: 0, g.b: 108})
    store.record_result("Nov", 1, g.a, True, 0)
    with pytest.raises(InvalidInputError, match="PP-22"):
        store.record_result("Nov", 1, g.b, False, 108)
    store.record_game("Nov", 1, 1, g.b, {g.a: 40, g.b: 40}, "desk")  # level: the roll-off
    assert before["rounds"] != store.export("Nov")["rounds"]


@pytest.mark.rule("PP-20", "OP-02")
def test_absurd_scores_are_flagged_against_every_preset(db: str) -> None:
    store = Store(db)
    for n, preset in enumerate(fpf_preset_names()):
        name = f"E{n}"
        store.create_event(name, seed=1)
        store.add_player(name, "Scored", load_fleet(f"presets:{preset}"))
        store.add_player(name, "Scorer", load_fleet("presets:federation-cruisers"))
        store.pair_next_round(name)
        flag = store.record_game(name, 1, 1, "Scorer", {"Scorer": 999, "Scored": 0}, "desk")
        assert "impossible" in flag or "cannot be scored" in flag or "implausible" in flag, preset
        near = [int(x) for x in flag.split("nearest plausible: ")[-1].split(" or ")]
        assert all(x <= 650 for x in near), flag  # never an implausible neighbour
    store.create_event("Short", seed=1, max_resets=1, round_minutes=60)
    store.add_player("Short", "Scored", load_fleet("presets:klingon-fleet"))
    store.add_player("Short", "Scorer", load_fleet("presets:federation-cruisers"))
    store.pair_next_round("Short")
    flag = store.record_game("Short", 1, 1, "Scorer", {"Scorer": 600, "Scored": 0}, "desk")
    assert "implausible" in flag
    assert "1 resets of a ship" in flag


def test_a_disputed_report_stays_until_the_organizer_settles_it(db: str) -> None:
    store = event(db, 2)
    (g,) = store.pair_next_round("Nov").games
    assert g.b is not None
    rid = store.report_result("Nov", 1, g.a, g.a, {g.a: 30, g.b: 10})
    store.dispute_report("Nov", rid, g.b, "I won")
    with pytest.raises(InvalidInputError, match="is disputed: the organizer settles it"):
        store.report_result("Nov", 1, g.a, g.a, {g.a: 30, g.b: 10})
    assert [r["status"] for r in store.reports("Nov")] == ["disputed"]


@pytest.mark.rule("OP-17")
def test_standings_mark_dropped_players_and_say_what_to_do(db: str) -> None:
    store = event(db, 4)
    store.pair_next_round("Nov")
    store.drop_player("Nov", "P0")
    with pytest.raises(InvalidInputError, match="P0 dropped during the round: enter the table"):
        store.pair_next_round("Nov")
    by = {s.player: s for s in store.state("Nov").standings()}
    assert by["P0"].dropped
    assert core.standing_json(by["P0"])["dropped"] is True


def test_look_alike_names_are_refused(db: str) -> None:
    store = event(db, 0)
    fleet = load_fleet("presets:klingon-raiders")
    store.add_player("Nov", "Jos\u00e9", fleet)
    store.add_player("Nov", "Ann", fleet)
    store.add_player("Nov", "a", fleet)
    for name in ("Jose\u0301", "Ann\u200b", "A", "\u0410nn", " ann ", "Jose"):
        with pytest.raises(InvalidInputError, match="registered already"):
            store.add_player("Nov", name, fleet)
    assert store.state("Nov").players == ("Jos\u00e9", "Ann", "a")
    with pytest.raises(InvalidInputError, match="needs a name"):
        store.add_player("Nov", "\u200b\u200b", fleet)


def test_an_import_keeps_the_times_of_the_corrections(
    db: str, new_db: Callable[[str], str]
) -> None:
    store = event(db, 2)
    store.pair_next_round("Nov")
    store.drop_player("Nov", "P0")
    doc = json.loads(json.dumps(store.export("Nov"), default=str))
    doc["event"]["name"] = "Copy"
    other = Store(new_db("other"))
    other.import_event(doc)
    assert [c["at"] for c in other.corrections("Copy")] == [
        c["at"] for c in store.corrections("Nov")
    ]


def _database_at(tmp_path: Path, revision: str) -> Path:
    """A SQLite store built by the migrations up to `revision` only."""
    db = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{db}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return db


@pytest.mark.sqlite_only("builds a 0003 database with SQLite's own statements")
def test_a_database_from_before_upgrades(tmp_path: Path) -> None:
    db = _database_at(tmp_path, "0003")
    fleet = load_fleet("presets:klingon-raiders").model_dump_json()
    with sqlite3.connect(db) as c:
        c.execute(
            "INSERT INTO events (id, name, date, sp_limit, scenario, rounds, round_minutes, seed,"
            " titles, faction_surcharge, created_at) VALUES (1, 'Old', '', 300,"
            " 'peak-performance', 3, 60, 1, '[\"Admiral\"]', 0, '2026-01-01 00:00:00')"
        )
        for pid, name in ((1, "Ann\u200b"), (2, "Bob")):
            c.execute(
                "INSERT INTO players (id, event_id, name, email, fleet_json, joined_round,"
                " created_at) VALUES (?, 1, ?, '', ?, 1, '2026-01-01 00:00:00')",
                (pid, name, fleet),
            )
        c.execute(
            "INSERT INTO roll_offs (event_id, player_id, result, source) VALUES (1, 1, 300000, 'x')"
        )
    store = Store(str(db))
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT version_num FROM alembic_version").fetchone() == ("0007",)
        keys = c.execute("SELECT name_key FROM players ORDER BY id").fetchall()
    assert keys == [("ann",), ("bob",)]
    assert store.state("Old").roll_offs == ()  # an old roll-off names no tie: it settles none
    with pytest.raises(InvalidInputError, match="looks like"):
        store.add_player("Old", "ANN", load_fleet("presets:klingon-raiders"))


@pytest.mark.sqlite_only("builds a 0006a database with SQLite's own statements")
def test_events_shared_before_0007_are_owned_by_their_first_account(tmp_path: Path) -> None:
    db = _database_at(tmp_path, "0006a")
    with sqlite3.connect(db) as c:
        for eid, name in ((1, "Old"), (2, "Other")):
            c.execute(
                "INSERT INTO events (id, name, date, sp_limit, scenario, rounds, round_minutes,"
                " seed, titles, faction_surcharge, created_at) VALUES (?, ?, '', 300,"
                " 'peak-performance', 3, 60, 1, '[\"Admiral\"]', 0, '2026-01-01 00:00:00')",
                (eid, name),
            )
        for oid, name in ((1, "ann"), (2, "bob"), (3, "cy")):
            c.execute(
                "INSERT INTO organizers (id, username, password_hash, created_at)"
                " VALUES (?, ?, 'x', '2026-01-01 00:00:00')",
                (oid, name),
            )
        for eid, oid in ((1, 2), (1, 3), (2, 1), (2, 3)):
            c.execute("INSERT INTO event_organizers VALUES (?, ?)", (eid, oid))
    store = Store(str(db))
    owners = {
        name: [o["username"] for o in store.co_organizers(name) if o["owner"]]
        for name in ("Old", "Other")
    }
    assert owners == {"Old": ["bob"], "Other": ["ann"]}
