"""Players joining from their phones (issue 17): a request waits for the organizer; approving
it registers the player through the organizer's own checks (a fleet not legal for the event
is refused in one line, nothing changes); the venue and the archive of past events."""

from __future__ import annotations

import pytest

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.fleet.model import read_fleet
from kolrami.tournament.store import Store

FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack", "presets:federation-venture")
TOO_BIG = {"ships": [{"id": "enterprise"}, {"id": "enterprise"}]}  # 360 SP of a 300 limit


def event(db: str, name: str = "Nov") -> Store:
    store = Store(db)
    store.create_event(name, "2026-11-30", seed=3)
    return store


def test_requests_wait_until_the_organizer_opens_and_approves(db: str) -> None:
    store = event(db)
    fleet = load_fleet(FLEETS[0])
    with pytest.raises(InvalidInputError, match="does not take registrations from phones"):
        store.request_join("Nov", "Ann", fleet)
    store.set_public_settings("Nov", "Warp Core Games", True, "organizer mara")
    rid = store.request_join("Nov", "Ann", fleet, "ann@example.org")
    assert store.players("Nov") == []  # pending: nobody registered yet
    waiting = store.join_requests("Nov")
    assert [(r["id"], r["name"], r["problems"]) for r in waiting] == [(rid, "Ann", [])]
    assert store.approve_join("Nov", rid, "hash", "organizer mara") == "Ann"
    assert [p["name"] for p in store.players("Nov")] == ["Ann"]
    assert store.join_requests("Nov") == []
    with pytest.raises(InvalidInputError, match="was approved already"):
        store.approve_join("Nov", rid, "hash", "organizer mara")
    with pytest.raises(InvalidInputError, match=r"'ann' is registered already in Nov \(as 'Ann'\)"):
        store.request_join("Nov", "ann", fleet)


@pytest.mark.rule("FBS-12")
def test_approving_an_illegal_fleet_is_refused_and_changes_nothing(db: str) -> None:
    store = event(db)
    store.set_public_settings("Nov", "", True, "organizer mara")
    rid = store.request_join("Nov", "Bob", read_fleet(TOO_BIG, "big"))
    assert "Total Build 360 SP" in store.join_requests("Nov")[0]["problems"][0]
    log = len(store.corrections("Nov"))
    with pytest.raises(InvalidInputError, match="Bob's fleet is not legal for Nov") as caught:
        store.approve_join("Nov", rid, "hash", "organizer mara")
    assert "\n" not in str(caught.value)
    assert store.players("Nov") == []
    assert [r["id"] for r in store.join_requests("Nov")] == [rid]  # still waiting
    assert len(store.corrections("Nov")) == log
    # sent again with a legal fleet: the new request takes the old one's place
    again = store.request_join("Nov", "Bob", load_fleet(FLEETS[1]))
    assert [r["id"] for r in store.join_requests("Nov")] == [again]
    store.approve_join("Nov", again, "hash", "organizer mara")
    assert [p["name"] for p in store.players("Nov")] == ["Bob"]


def test_refused_requests_register_nobody_and_the_venue_is_checked(db: str) -> None:
    store = event(db)
    store.set_public_settings("Nov", "  Warp   Core Games ", True, "organizer mara")
    assert store.public_settings("Nov") == {"venue": "Warp Core Games", "self_registration": True}
    rid = store.request_join("Nov", "Cy", load_fleet(FLEETS[2]))
    assert store.refuse_join("Nov", rid, "organizer mara") == "Cy"
    assert store.players("Nov") == []
    assert store.join_requests("Nov") == []
    with pytest.raises(InvalidInputError, match="at most 200"):
        store.set_public_settings("Nov", "x" * 201, False, "organizer mara")
    assert store.public_settings("Nov")["self_registration"] is True


def test_the_archive_lists_finished_events_by_venue(db: str) -> None:
    store = event(db)
    store.create_event("Dec", "2026-12-28", rounds=1, seed=4)
    store.set_public_settings("Dec", "Warp Core Games", False, "organizer mara")
    for i, fleet in enumerate(FLEETS[:2]):
        store.add_player("Dec", f"P{i}", load_fleet(fleet))
    assert store.archive() == []
    store.pair_next_round("Dec")
    assert store.archive() == []  # paired, not played
    store.record_result("Dec", 1, "P0", True, 100)
    store.record_result("Dec", 1, "P1", False, 50)
    assert [(e["name"], e["venue"]) for e in store.archive()] == [("Dec", "Warp Core Games")]
