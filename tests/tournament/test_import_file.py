"""An event export is read as strictly as the forms: each way a crafted file broke the pages
(issue 44) is refused in one line naming the field, and nothing is stored."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store

FLEETS = ("federation-cruisers", "klingon-wolfpack", "federation-venture", "klingon-strike")


@pytest.fixture
def export(db: str) -> dict[str, Any]:
    store = Store(db)
    store.create_event("Nov", "2026-11-30", seed=3)
    for i, preset in enumerate(FLEETS):
        store.add_player("Nov", f"P{i}", load_fleet(preset))
    store.pair_next_round()
    for g in store.games(None, 1):
        store.record_result(None, 1, g["a"], True, 100)
        store.record_result(None, 1, g["b"], False, 50)
    doc: dict[str, Any] = json.loads(json.dumps(store.export(), default=str))
    return doc


def _set(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node: Any = out
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value
    return out


BAD = [
    ("event.seed", 10**30, "event.seed"),
    ("event.sp_limit", "abc", "event.sp_limit"),
    ("event.round_minutes", 10**12, "minutes a round"),
    ("event.round_minutes", -5, "minutes a round"),
    ("event.rounds", 0, "event.rounds"),
    ("event.scenario", "/etc/passwd", "not a built-in scenario"),
    ("event.titles", ["x" * 500], "event.titles"),
    ("players.0.fleet", {"x": 1}, "players[0].fleet"),
    ("players.1.name", "P0\u202e", "not a name registration keeps"),
    ("players.1.name", "P\u200b1", "not a name registration keeps"),
    ("players.1.name", "p0", "looks like 'P0'"),
    ("players.0.joined_round", "1", "players.0.joined_round"),
    ("rounds.0.0.fp_a", 10**12, "rounds.0.0.fp_a"),
    ("rounds.0.0.a", "Nobody", "not one of the export's players"),
    ("rounds.0.0.table", 10**30, "rounds.0.0.table"),
    ("event.venue", "v" * 201, "event.venue"),
    ("event.self_registration", "yes", "event.self_registration"),
    ("timers", [{"round": 1, "started_at": "9999-12-31T23:59:00"}], "a time from 2000"),
    ("timers", [{"round": 1, "started_at": "2026-11-30T19:00:00+05:00"}], "without a zone"),
    ("timers", [{"round": 1, "started_at": "soon"}], "timers.0.started_at"),
    ("timers", [{"round": 1, "started_at": "2026-11-30T19:00:00", "added_minutes": 10**6}], "le"),
    ("timers", [{"round": 2, "started_at": "2026-11-30T19:00:00"}], "not a paired round"),
    ("timers", [{"round": 1, "added_minutes": 5}], "never started"),
    (
        "timers",
        [{"round": 1, "started_at": "2026-11-30T19:00:00", "paused_at": "2026-11-30T18:00:00"}],
        "paused before it was started",
    ),
]


@pytest.mark.rule("OP-13", "OP-02")
@pytest.mark.parametrize(("path", "value", "message"), BAD)
def test_a_crafted_export_is_refused_in_one_line_and_nothing_is_stored(
    export: dict[str, Any], new_db: Callable[[str], str], path: str, value: Any, message: str
) -> None:
    other = Store(new_db("other"))
    with pytest.raises(InvalidInputError, match="export") as refused:
        other.import_event(_set(export, path, value))
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    assert other.events() == []


def test_the_good_export_still_imports(
    export: dict[str, Any], new_db: Callable[[str], str]
) -> None:
    other = Store(new_db("other"))
    assert other.import_event(export) == "Nov"
    assert [p["name"] for p in other.players("Nov")] == ["P0", "P1", "P2", "P3"]


def test_the_timer_venue_and_join_settings_round_trip(
    db: str, new_db: Callable[[str], str]
) -> None:
    """Issue 44: the export carries each round's timer, the venue and self-registration, and
    the import puts them back."""
    store = Store(db)
    store.create_event("Nov", "2026-11-30", seed=3)
    for i, preset in enumerate(FLEETS):
        store.add_player("Nov", f"P{i}", load_fleet(preset))
    store.pair_next_round()
    store.set_public_settings("Nov", "The Dice Tower", True, "organizer")
    store.start_timer("Nov", now=datetime(2026, 11, 30, 19, 0))
    store.pause_timer("Nov", now=datetime(2026, 11, 30, 19, 10))
    store.resume_timer("Nov", now=datetime(2026, 11, 30, 19, 15))
    store.add_time("Nov", 7, now=datetime(2026, 11, 30, 19, 20))
    doc = json.loads(json.dumps(store.export(), default=str))
    other = Store(new_db("other"))
    other.import_event(doc)
    assert other.public_settings("Nov") == {"venue": "The Dice Tower", "self_registration": True}
    at = datetime(2026, 11, 30, 19, 30)
    assert other.timer("Nov", now=at) == store.timer("Nov", now=at)
    assert other.export()["timers"] == store.export()["timers"] == doc["timers"]


def test_a_winner_must_have_played_at_the_table(
    export: dict[str, Any], new_db: Callable[[str], str]
) -> None:
    game = export["rounds"][0][0]
    elsewhere = next(
        p["name"] for p in export["players"] if p["name"] not in (game["a"], game["b"])
    )
    other = Store(new_db("other"))
    with pytest.raises(InvalidInputError, match="did not play at this table"):
        other.import_event(_set(export, "rounds.0.0.winner", elsewhere))
    assert other.events() == []
