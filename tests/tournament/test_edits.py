"""Edits before and during an event (issue 17): players and fleets before round 1 (OP-12), a
drop undone, a round cancelled and paired again, pairings swapped by hand (OP-04, OP-08,
OP-09 warnings), co-organizers, and the standings as CSV. Each refusal leaves the store as
it was."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.tournament.store import Store

PRESETS = (
    "klingon-strike",
    "federation-fleet",
    "klingon-raiders",
    "federation-venture",
    "federation-cruisers",
)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(str(tmp_path / "edits.db"))
    s.create_event("Cup", "2026-11-30", 300, "peak-performance", 3, 60, 7, ("Admiral",))
    for i, preset in enumerate(PRESETS):
        s.add_player("Cup", f"P{i}", load_fleet(f"presets:{preset}"))
    return s


def _everything(store: Store) -> Any:
    return store.export("Cup")


def _play_round(store: Store, number: int) -> None:
    for g in store.state("Cup").rounds[number - 1]:
        if g.b is not None:
            store.record_result("Cup", number, g.a, True, 50)
            store.record_result("Cup", number, g.b, False, 20)


@pytest.mark.rule("OP-12")
def test_rename_remove_and_fleet_before_round_1_only(store: Store) -> None:
    assert store.rename_player("Cup", "P0", "Ann", "organizer mara") == "Ann"
    store.change_fleet("Cup", "Ann", load_fleet("presets:federation-cruisers"), "organizer mara")
    store.remove_player("Cup", "P4", "organizer mara")
    assert [p["name"] for p in store.players("Cup")] == ["Ann", "P1", "P2", "P3"]
    assert store.fleets("Cup")["Ann"].name == load_fleet("presets:federation-cruisers").name
    log = [(c["who"], c["what"]) for c in store.corrections("Cup")]
    assert ("organizer mara", "P0 renamed Ann") in log
    assert ("organizer mara", "P4 removed from Cup before round 1") in log
    store.pair_next_round("Cup")
    before = _everything(store)
    for attempt in (
        lambda: store.rename_player("Cup", "Ann", "Anna", "organizer mara"),
        lambda: store.remove_player("Cup", "P1", "organizer mara"),
        lambda: store.change_fleet("Cup", "P1", load_fleet("presets:klingon-strike"), "x"),
    ):
        with pytest.raises(InvalidInputError, match=r"locked once round 1 is paired \(OP-12\)"):
            attempt()
    assert _everything(store) == before


def test_rename_refuses_a_name_taken(store: Store) -> None:
    with pytest.raises(InvalidInputError, match="registered already"):
        store.rename_player("Cup", "P0", "p1", "organizer mara")
    assert [p["name"] for p in store.players("Cup")][:2] == ["P0", "P1"]


def test_an_illegal_new_fleet_is_refused(store: Store, tmp_path: Path) -> None:
    big = Store(str(tmp_path / "small.db"))
    big.create_event("Tiny", "", 50, "peak-performance", 3, 60, 1, ("Admiral",))
    big.add_player("Tiny", "A", load_fleet("presets:klingon-strike"), allow_illegal=True)
    with pytest.raises(InvalidInputError, match="not legal for Tiny"):
        big.change_fleet("Tiny", "A", load_fleet("presets:federation-fleet"), "x")


def test_undo_a_drop_and_its_limits(store: Store) -> None:
    store.drop_player("Cup", "P3")
    store.undo_drop("Cup", "P3", "organizer mara")
    assert "P3" in store.state("Cup").active
    with pytest.raises(InvalidInputError, match="has not dropped"):
        store.undo_drop("Cup", "P3", "organizer mara")
    store.drop_player("Cup", "P3")
    store.pair_next_round("Cup")  # round 1 without P3
    with pytest.raises(InvalidInputError, match="cancel round 1 first"):
        store.undo_drop("Cup", "P3", "organizer mara")
    store.cancel_round("Cup", "organizer mara")
    store.undo_drop("Cup", "P3", "organizer mara")
    assert any("P3" in g.players for g in store.pair_next_round("Cup").games)


def test_cancel_and_pair_again_before_any_result(store: Store) -> None:
    store.pair_next_round("Cup")
    store.drop_player("Cup", "P2")  # he leaves before the round starts
    pairing = store.repair_round("Cup", "organizer mara")
    assert pairing.round == 1
    assert all("P2" not in g.players for g in pairing.games)
    log = [c["what"] for c in store.corrections("Cup")]
    assert "round 1 cancelled before any result (P2 stays dropped)" in log
    assert "round 1 paired again" in log
    first = next(g for g in store.state("Cup").rounds[0] if g.b is not None)
    store.record_result("Cup", 1, first.a, True, 50)
    before = _everything(store)
    with pytest.raises(InvalidInputError, match="cancelled only before any result"):
        store.cancel_round("Cup", "organizer mara")
    with pytest.raises(InvalidInputError, match="cancelled only before any result"):
        store.repair_round("Cup", "organizer mara")
    assert _everything(store) == before


@pytest.mark.rule("OP-04")
def test_a_swap_that_makes_a_rematch_is_warned_not_refused(store: Store) -> None:
    store.remove_player("Cup", "P4", "x")  # four players: no bye
    store.pair_next_round("Cup")
    _play_round(store, 1)
    met = {frozenset(g.players) for g in store.state("Cup").rounds[0]}
    store.pair_next_round("Cup")
    r2 = store.state("Cup").rounds[1]
    (a, b), (c, d) = (g.players for g in r2)
    # one of the two swaps across the tables brings back a round-1 pair
    swap = next(
        (x, y)
        for x, y in ((b, c), (b, d))
        if frozenset((a, y)) in met or frozenset((x, {c: d, d: c}[y])) in met
    )
    warnings = store.swap_players("Cup", swap[0], swap[1], "organizer mara")
    assert warnings
    assert all("rematch" in w and "(OP-04)" in w for w in warnings)
    assert store.games("Cup", 2)  # the swap is stored
    after = {frozenset(g.players) for g in store.state("Cup").rounds[1]}
    assert after & met
    assert any("swapped by hand; warning" in c["what"] for c in store.corrections("Cup"))


@pytest.mark.rule("OP-09")
def test_a_swap_that_gives_a_second_bye_is_warned(store: Store) -> None:
    store.pair_next_round("Cup")
    r1 = store.state("Cup").rounds[0]
    first_bye = next(g.a for g in r1 if g.bye)
    _play_round(store, 1)
    store.pair_next_round("Cup")
    r2 = store.state("Cup").rounds[1]
    bye = next(g.a for g in r2 if g.bye)
    warnings = store.swap_players("Cup", bye, first_bye, "organizer mara")
    assert any("had a bye already" in w and "(OP-09)" in w for w in warnings)
    assert next(g.a for g in store.state("Cup").rounds[1] if g.bye) == first_bye


@pytest.mark.rule("OP-08")
def test_a_round_1_bye_moved_by_hand_is_said(store: Store) -> None:
    store.pair_next_round("Cup")
    r1 = store.state("Cup").rounds[0]
    bye = next(g.a for g in r1 if g.bye)
    other = next(g.a for g in r1 if not g.bye)
    warnings = store.swap_players("Cup", bye, other, "organizer mara")
    assert any("(OP-08)" in w for w in warnings)


def test_bad_swaps_are_refused_and_change_nothing(store: Store) -> None:
    store.pair_next_round("Cup")
    r1 = store.state("Cup").rounds[0]
    g = next(x for x in r1 if x.b is not None)
    assert g.b is not None
    before = _everything(store)
    for first, second, message in (
        ("P0", "Nobody", "no player 'Nobody'"),
        ("P0", "P0", "two different players"),
        (g.a, g.b, "play each other"),
    ):
        with pytest.raises(InvalidInputError, match=message):
            store.swap_players("Cup", first, second, "x")
    assert _everything(store) == before


def test_co_organizers_share_and_remove(store: Store) -> None:
    mara = store.create_organizer("mara", "hash")
    lee = store.create_organizer("lee", "hash")
    store.adopt_event("Cup", mara, "organizer mara")
    assert store.share_event("Cup", "lee", "organizer mara") == "lee"
    assert sorted(store.organizers_of("Cup")) == sorted([mara, lee])
    assert [o["username"] for o in store.co_organizers("Cup")] == ["lee", "mara"]
    with pytest.raises(InvalidInputError, match="runs Cup already"):
        store.share_event("Cup", "lee", "organizer mara")
    with pytest.raises(InvalidInputError, match="no organizer account 'zed'"):
        store.share_event("Cup", "zed", "organizer mara")
    store.hand_over("Cup", "lee", "organizer mara", mara)
    store.unshare_event("Cup", "mara", "organizer lee", lee)
    with pytest.raises(InvalidInputError, match="only organizer"):
        store.unshare_event("Cup", "lee", "organizer lee", lee)
    log = [(c["who"], c["what"]) for c in store.corrections("Cup")]
    assert ("organizer mara", "organizer mara shared Cup with organizer lee") in log
    assert ("organizer mara", "organizer mara handed Cup over to organizer lee") in log
    assert ("organizer lee", "organizer lee removed organizer mara from Cup") in log


def test_the_owner_is_removed_only_by_himself_or_after_handing_over(store: Store) -> None:
    """Issue 44: a co-organizer cannot remove the event's owner nor take it over."""
    mara = store.create_organizer("mara", "hash")
    lee = store.create_organizer("lee", "hash")
    kim = store.create_organizer("kim", "hash")
    store.adopt_event("Cup", mara, "organizer mara")
    store.share_event("Cup", "lee", "organizer mara")
    store.share_event("Cup", "kim", "organizer mara")
    assert [o["username"] for o in store.co_organizers("Cup") if o["owner"]] == ["mara"]
    before = _everything(store)
    with pytest.raises(InvalidInputError, match="'mara' owns Cup: only mara can leave it"):
        store.unshare_event("Cup", "mara", "organizer lee", lee)
    with pytest.raises(InvalidInputError, match="only the owner of Cup can hand it over"):
        store.hand_over("Cup", "lee", "organizer lee", lee)
    with pytest.raises(InvalidInputError, match="'zed' is not an organizer of Cup"):
        store.hand_over("Cup", "zed", "organizer mara", mara)
    assert _everything(store) == before
    assert sorted(store.organizers_of("Cup")) == sorted([mara, lee, kim])
    store.unshare_event("Cup", "kim", "organizer lee", lee)  # a co-organizer: anyone running it
    store.unshare_event("Cup", "mara", "organizer mara", mara)  # himself: the next one owns it
    assert [(o["username"], o["owner"]) for o in store.co_organizers("Cup")] == [("lee", True)]
    assert "lee owns Cup now" in [c["what"] for c in store.corrections("Cup")]


def test_an_owner_removing_his_account_leaves_the_event_owned(store: Store) -> None:
    mara = store.create_organizer("mara", "hash")
    store.create_organizer("lee", "hash")
    store.adopt_event("Cup", mara, "organizer mara")
    store.share_event("Cup", "lee", "organizer mara")
    store.remove_organizer(mara)
    assert [(o["username"], o["owner"]) for o in store.co_organizers("Cup")] == [("lee", True)]


def test_standings_as_csv(store: Store) -> None:
    store.rename_player("Cup", "P0", "=cmd", "x")
    store.pair_next_round("Cup")
    _play_round(store, 1)
    rows = list(csv.reader(io.StringIO(store.standings_csv("Cup"))))
    assert rows[0][:5] == ["rank", "title", "player", "battle_points", "fleet_points"]
    assert len(rows) == 6
    players = [r[2] for r in rows[1:]]
    assert "'=cmd" in players  # not a formula in a spreadsheet
    top = store.state("Cup").standings()[0]
    assert rows[1][2:5] == [
        top.player.replace("=", "'=", 1),
        str(top.battle_points),
        str(top.fleet_points),
    ]


def test_registering_and_pairing_are_audit_lines(tmp_path: Path) -> None:
    """Issue 44: the corrections log says who registered each player and paired each round."""
    store = Store(str(tmp_path / "audit.db"))
    store.create_event("Cup", seed=3)
    for i, preset in enumerate(PRESETS[:4]):
        store.add_player("Cup", f"P{i}", load_fleet(f"presets:{preset}"), who="organizer mara")
    store.pair_next_round("Cup", "organizer lee")
    store.add_player("Cup", "Late", load_fleet(f"presets:{PRESETS[0]}"), who="organizer mara")
    log = [(c["who"], c["what"]) for c in store.corrections("Cup")]
    assert log == [
        *(("organizer mara", f"P{i} registered") for i in range(4)),
        ("organizer lee", "round 1 paired (2 tables)"),
        ("organizer mara", "Late registered, a late entry from round 2"),
    ]
