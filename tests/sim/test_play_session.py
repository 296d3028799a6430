"""The PlaySession behind `kolrami play` and /play: orders checked by the rules before they go in,
undo of the last decision (noted in the log once its dice were seen), a log that resumes and
re-runs identically, odds that are `kolrami odds`'s, and AI seats that see their own side's
view only."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami.captains.doctrines import RandomCaptain
from kolrami.captains.scripted import logged_captains
from kolrami.catalog import Arc
from kolrami.catalog import builtin_pack
from kolrami.engine.chance import Dice
from kolrami.engine.driver import run
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.fleet.model import load_fleet
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.registry import read_log
from kolrami.scenarios.models import load_scenario
from kolrami.sim.odds import ship_volley
from kolrami.sim.odds import volley_odds
from kolrami.sim.session import HUMAN
from kolrami.sim.session import PlaySession
from kolrami.sim.session import rule_ids
from kolrami.sim.session import rule_reading
from play_kit import until_dice_follow


def _session(seats: tuple[str, str] = (HUMAN, "aggressive"), turns: int = 2) -> PlaySession:
    pack = builtin_pack()
    sc = load_scenario("standard").model_copy(update={"turn_limit": turns})
    fleets = (
        load_fleet("presets:federation-cruisers", pack),
        load_fleet("presets:klingon-wolfpack", pack),
    )
    return PlaySession(sc, fleets, 7, seats)


def _play_out(session: PlaySession) -> None:
    """Random legal orders for the human seats, from their own views, to the end."""
    captain = RandomCaptain(Dice(99))
    while not session.over:
        d = session.decision
        assert d is not None
        assert session.submit(str(captain.decide(session.view(d.side), d))) is None


def test_a_played_log_resumes_and_reruns_identically() -> None:
    session = _session()
    _play_out(session)
    text = session.log_text()
    assert PlaySession.resume(text).log_text() == text
    events = read_log(text)
    scenario, fleets, captains, seed, extra = rebuild(events[0].header)  # type: ignore[attr-defined]
    assert captains == (HUMAN, "aggressive")
    again = new_battle(scenario, fleets, seed, captains, extra_rules=extra)
    run(again, logged_captains(events))
    assert again.log.jsonl() == text


@pytest.mark.rule("FPF-MOV-06")
def test_an_illegal_order_is_refused_with_its_clause_and_changes_nothing() -> None:
    session = _session((HUMAN, HUMAN))
    while not isinstance(session.decision, OrdersDecision):
        d = session.decision
        assert d is not None
        order = "FIRST" if isinstance(d, InitiativeDecision) else None
        if order is None:
            order = str(RandomCaptain(Dice(1)).decide(session.view(d.side), d))
        assert session.submit(order) is None
    before = session.log_text()
    refusal = session.submit(f"{session.decision.squadron} SPD 99 T0 T0 HOLD")
    assert refusal is not None
    assert "FPF-MOV-06" in refusal.rules
    assert session.log_text() == before
    syntax = session.submit("AS1 ZOOM")
    assert syntax is not None
    assert syntax.rules == ()
    assert session.log_text() == before


def test_undo_takes_back_the_last_decision_however_it_was_followed() -> None:
    # issue 47, item 2: hot-seat, the roll-off, an activation, the other side's reaction
    session = _session((HUMAN, HUMAN))
    assert isinstance(session.decision, InitiativeDecision)  # the roll-off's dice are rolled
    assert session.undoable() == 0
    with pytest.raises(Exception, match="nothing to undo"):
        session.undo()
    side = session.decision.side
    assert session.submit("FIRST") is None
    log = session.log_text()
    assert session.undo() == "FIRST"
    assert isinstance(session.decision, InitiativeDecision)
    assert session.submit("FIRST") is None
    assert session.log_text() == log  # the same dice again: nothing was learnt by undoing
    activation = session.decision
    assert activation is not None
    squadron = activation.squadrons[0]  # type: ignore[attr-defined]
    assert session.submit(f"ACT {squadron}") is None
    assert session.decision is not None
    assert session.decision.side != side  # the other side is asked: still undoable
    assert session.undo() == f"ACT {squadron}"
    assert session.log_text() == log
    assert session.undone == []  # no die had rolled: nothing to note


def test_undo_against_the_ai_takes_its_answers_back_too() -> None:
    session = _session((HUMAN, "aggressive"))
    while not session.orders() or session.orders()[-1][0] != "B":
        d = session.decision
        assert d is not None
        order = "SECOND" if isinstance(d, InitiativeDecision) else None
        order = order or str(RandomCaptain(Dice(2)).decide(session.view(d.side), d))
        assert session.submit(order) is None
    k, side, text, answers = session.last_undoable() or (0, "", "", [])
    assert side == "A"
    assert answers
    assert all(who == "B" for who, _ in answers)
    before = session.orders()[:k]
    assert session.undo() == text
    assert session.orders() == before


def test_an_undo_after_dice_were_seen_is_in_the_log_and_survives_resume_and_replay() -> None:
    session = _session((HUMAN, "aggressive"))
    k = until_dice_follow(session)
    seen = session.dice_seen(k)
    text = session.orders()[k][1]
    assert session.undo() == text
    assert session.undone == [{"side": "A", "order": text, "after": k, "dice_seen": seen}]
    log = session.log_text()
    header = read_log(log)[0].header  # type: ignore[attr-defined]
    assert header["undone"] == session.undone
    again = PlaySession.resume(log)
    assert again.log_text() == log
    assert again.undone == session.undone
    _play_out(again)
    final = again.log_text()
    assert read_log(final)[0].header["undone"] == session.undone  # type: ignore[attr-defined]


def test_a_tournament_game_forbids_an_undo_whose_dice_were_seen() -> None:
    pack = builtin_pack()
    sc = load_scenario("standard").model_copy(update={"turn_limit": 2})
    fleets = (
        load_fleet("presets:federation-cruisers", pack),
        load_fleet("presets:klingon-wolfpack", pack),
    )
    session = PlaySession(sc, fleets, 7, (HUMAN, "aggressive"), undo="unseen")
    k = until_dice_follow(session)
    log = session.log_text()
    with pytest.raises(Exception, match=r"stands: .* rolled since it was given"):
        session.undo()
    assert session.log_text() == log
    assert read_log(log)[0].header["undo"] == "unseen"  # type: ignore[attr-defined]
    assert PlaySession.resume(log).undo_policy == "unseen"
    assert session.undoable() < len([o for o in session.orders() if o[0] == "A"])
    assert k >= 0


@pytest.mark.rule("FPF-FIRE-08")
def test_the_odds_are_those_of_kolrami_odds_for_undamaged_ships() -> None:
    session = _session((HUMAN, HUMAN))
    view = session.view("A")
    a2, b1 = view.ship("A2"), view.ship("B1")
    # (kolrami odds reads the class's sheet; the session reads the ship, cards and all: A2's
    # cards leave its weapons as the sheet has them)
    assert a2.strength == {k: w.strength for k, w in a2.cls.weapons()}
    with pytest.raises(Exception, match="FPF-FIRE-15"):
        session.odds("A", "A2", Arc.F, "B1")  # far apart: nothing reaches
    ours = session.odds("A", "A2", Arc.F, "B1", anywhere=True)
    theirs = volley_odds(ship_volley(a2.cls, Arc.F, b1.cls), b1.shields, b1.cls.hit_locations)
    assert ours.damage == theirs.damage
    assert ours.expected_damage == theirs.expected_damage


class _Spy:
    """A captain that records the side of every view it is handed."""

    name = "spy"

    def __init__(self) -> None:
        self.sides: list[str] = []
        self.inner = RandomCaptain(Dice(3))

    def decide(self, view: Any, decision: Decision) -> Order:
        self.sides.append(view.side)
        assert decision.side == view.side
        return self.inner.decide(view, decision)


def test_the_ai_seat_gets_its_own_view_only() -> None:
    session = _session((HUMAN, "random"))
    spy = _Spy()
    session.captains["B"] = spy
    _play_out(session)
    assert spy.sides
    assert set(spy.sides) == {"B"}


def test_refusals_name_their_clauses_and_the_readings_are_found() -> None:
    assert rule_ids("may move 4-36 cm, not 90 (FPF-MOV-06, FPF-MOV-11)") == [
        "FPF-MOV-06",
        "FPF-MOV-11",
    ]
    found = rule_reading("FPF-MOV-07")
    assert found is not None
    assert "FPF-MOV-07" in found[0]
    assert rule_reading("FPF-NOPE-01") is None


def test_the_end_points_of_the_manoeuvres_are_where_the_move_ends() -> None:
    session = _session((HUMAN, HUMAN))
    while not isinstance(session.decision, OrdersDecision):
        d = session.decision
        assert d is not None
        order = (
            "FIRST"
            if isinstance(d, InitiativeDecision)
            else str(RandomCaptain(Dice(1)).decide(session.view(d.side), d))
        )
        assert session.submit(order) is None
    d = session.decision
    ends = session.end_positions(d.side)["formation"]
    move, x, y, heading = next(e for e in ends if e[0].endswith("T0 T0") and " 0 " not in e[0])
    leader = session.view(d.side).mover_position(None, d.squadron)
    assert session.submit(f"{d.squadron} {move} HOLD") is None
    after = session.battle.ships[leader.id]
    assert (round(after.x, 6), round(after.y, 6), after.heading) == (
        round(x, 6),
        round(y, 6),
        heading,
    )
