"""The referee catches movement and initiative faults in hand-edited logs, and passes the clean
ones (tests/conformance/referee_logs.py tells the clean battle)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import referee_logs as logs
from referee import referee
from referee_logs import Log
from referee_logs import at
from referee_logs import base_log
from referee_logs import clauses
from referee_logs import drift_log
from referee_logs import edited
from referee_logs import inserted
from referee_logs import kill_log


def _a1_move(log: Log) -> int:
    return at(log, e="ship_moved", ship="A1")


CASES = logs.Falsifiers(base_log)


@CASES.falsifies(pytest.mark.rule("FPF-MOV-06"))
def too_far(log: Log) -> Log:
    return edited(log, _a1_move(log), path=[[90, 20], [90, 41], [90, 62]], speed=42, distance=42)


@CASES.falsifies(pytest.mark.rule("FPF-TURN-03"))
def wrong_speed(log: Log) -> Log:
    return edited(log, _a1_move(log), speed=25)


@CASES.falsifies(pytest.mark.rule("FPF-MOV-07"))
def uneven_halves(log: Log) -> Log:
    return edited(log, _a1_move(log), path=[[90, 20], [90, 32], [90, 40]])


@CASES.falsifies(pytest.mark.rule("FPF-MOV-13"))
def pivot_on_the_move(log: Log) -> Log:
    return logs.as1_ordered(log, "AS1 SPD 10 PIV+3 T0 FIRE A1:F@B1 A2:F@B1")


@CASES.falsifies(pytest.mark.rule("FPF-MOV-13"))
def turn_twice_at_once(log: Log) -> Log:
    return edited(log, _a1_move(log), path=[[90, 20], [98.66, 15], [107.321, 10]], heading=4)


@CASES.falsifies(pytest.mark.rule("FPF-MOV-11"))
def over_engine_power(log: Log) -> Log:
    return logs.as1_ordered(log, "AS1 SPD 40 T0 T0 FIRE A1:F@B1 A2:F@B1")


@CASES.falsifies(pytest.mark.rule("FPF-MOV-08"))
def onto_a_ship(log: Log) -> Log:
    i = at(log, e="ship_moved", ship="B1")
    return edited(log, i, path=[[90, 58], [90, 50], [90, 42]], heading=3)


@CASES.falsifies(pytest.mark.rule("FPF-MOV-09"))
def wingman_overtakes(log: Log) -> Log:
    i = at(log, e="ship_moved", ship="B2")
    return edited(log, i, path=[[90, 64], [90, 58], [104.124, 49.846]], distance=22, speed=22)


@CASES.falsifies(pytest.mark.rule("FPF-MOV-02"), lambda: short_with_cause(base_log()))
def short_without_cause(log: Log) -> Log:
    return edited(log, _a1_move(log), path=[[90, 20], [90, 30], [90, 35]], speed=15, distance=15)


def short_with_cause(log: Log) -> Log:
    bad = short_without_cause(log)
    stop = {"e": "stopped_short", "ship": "A1", "of": "edge", "lost_cm": 5.0}
    return inserted(bad, logs.as1_orders(bad), stop)


@CASES.falsifies(pytest.mark.rule("FPF-MOV-01"))
def moved_out_of_turn(log: Log) -> Log:
    return inserted(log, _a1_move(log), logs.moved("B1", [[90, 58], [90, 58]], 3, 0, 0.0))


@CASES.falsifies(pytest.mark.rule("FPF-MOV-03"))
def no_roll_off(log: Log) -> Log:
    return logs.dropped(log, at(log, e="initiative_rolled"))


@CASES.falsifies(pytest.mark.rule("FPF-MOV-03"))
def loser_first(log: Log) -> Log:
    return edited(log, at(log, e="initiative_rolled"), first="B", winner="B", rolls=[[3, 7]])


@CASES.falsifies(pytest.mark.rule("FPF-MOV-10"))
def forced_without_pursuit(log: Log) -> Log:
    a = at(log, e="order_given", order="ACT AS1")
    b0 = at(log, e="order_given", order="ACT BS1")
    b1 = at(log, e="turn_ended")
    block = log[b0 + 1 : b1]
    block[0] = logs.activated("BS1", "AS1")
    rest = [e for i, e in enumerate(log) if not b0 <= i < b1]
    return rest[: a + 1] + block + rest[a + 1 :]


def drift_turns(log: Log) -> Log:
    i = at(log, e="ship_moved", ship="A1")
    return edited(log, i, path=[[90, 20], [90, 30], [81.34, 35]], heading=1)


def drift_slows(log: Log) -> Log:
    return edited(log, at(log, e="ship_moved", ship="A1"), path=[[90, 20], [90, 30]], distance=10)


def derelict_flies(log: Log) -> Log:
    end = at(log, e="battle_ended")
    return inserted(
        log,
        end,
        {"e": "turn_started", "turn": 2},
        logs.activated("BS1"),
        logs.moved("B1", [[90, 32], [90, 22]], 3, 10, 10.0),
        {"e": "turn_ended", "turn": 2},
    )


def into_the_planet(log: Log) -> Log:
    i = at(log, e="ship_moved", ship="B1")
    return edited(log, i, path=[[90, 110], [90, 90], [90, 64]], speed=40, distance=46)


def dead_squadron_activated(log: Log) -> Log:
    return inserted(log, at(log, e="turn_ended"), logs.activated("BS1"))


@pytest.mark.parametrize(("clause", "breaks", "keeps"), CASES.rows)
def test_the_referee_catches_a_broken_move_and_passes_a_legal_one(
    clause: str, breaks: Callable[[Log], Log], keeps: Callable[[], Log]
) -> None:
    assert clause in clauses(breaks(base_log()))
    assert clause not in clauses(keeps())


@pytest.mark.rule("FPF-MOV-12", "FPF-DMG-13")
def test_an_out_of_control_ship_drifts_straight_at_its_speed() -> None:
    assert clauses(drift_log()) == set()
    assert "FPF-MOV-12" in clauses(drift_turns(drift_log()))
    assert "FPF-MOV-12" in clauses(drift_slows(drift_log()))


@pytest.mark.rule("FPF-OPT-01", "FPF-MOV-01")
def test_a_derelict_never_flies_and_its_squadron_is_not_activated() -> None:
    log = kill_log(peak=False)
    assert clauses(log) == set()
    found = clauses(derelict_flies(log))
    assert {"FPF-OPT-01", "FPF-MOV-01"} <= found


@pytest.mark.rule("FPF-OPT-01")
def test_a_derelict_needs_the_option() -> None:
    log = kill_log(peak=False)
    log[0]["header"]["rules"].remove("derelicts")
    assert "FPF-OPT-01" in clauses(log)


@pytest.mark.rule("FPF-MOV-01")
def test_a_squadron_with_no_ship_in_play_is_not_activated() -> None:
    log = kill_log()
    end = at(log, e="turn_started", turn=2)
    assert "FPF-MOV-01" in clauses(inserted(log, end - 1, logs.activated("BS1")))
    assert "FPF-MOV-01" not in clauses(log)


@pytest.mark.rule("PP-03")
def test_no_ship_flies_into_the_planet() -> None:
    assert "PP-03" not in clauses(kill_log())
    assert "PP-03" in clauses(into_the_planet(kill_log()))


def test_the_clean_logs_are_clean() -> None:
    for log in (base_log(), drift_log(), drift_log(2), kill_log(), kill_log(peak=False)):
        assert [str(v) for v in referee(log)] == []
