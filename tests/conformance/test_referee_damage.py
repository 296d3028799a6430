"""The referee catches damage, repair and scoring faults in hand-edited logs, and passes the
clean ones."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import referee_logs as logs
from referee import referee
from referee_logs import Event
from referee_logs import Log
from referee_logs import at
from referee_logs import base_log
from referee_logs import clauses
from referee_logs import drift_log
from referee_logs import edited
from referee_logs import inserted
from referee_logs import kill_log


def _a1_volley(log: Log) -> int:
    return at(log, e="volley_fired", ship="A1")


def _first_hit(log: Log) -> int:
    return at(log, e="hit_scored", ship="A1")


# --- damage (base and drift logs) ---


CASES = logs.Falsifiers(base_log)
REPAIRS = logs.Falsifiers()
PEAK = logs.Falsifiers(None)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-03"))
def too_few_shots(log: Log) -> Log:
    return edited(log, _a1_volley(log), shots=5, rolls=[1, 2, 3, 8, 9])


@CASES.falsifies(pytest.mark.rule("FPF-DMG-01"))
def wrong_strength(log: Log) -> Log:
    return edited(log, _a1_volley(log), strength=5)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-01"))
def a_hit_missing(log: Log) -> Log:
    return logs.dropped(log, _first_hit(log))


@CASES.falsifies(pytest.mark.rule("FPF-DMG-02"), lambda: natural_ten_lands(base_log()))
def natural_ten(log: Log) -> Log:
    """B1's one beam needs 12 on the d10 against A1: a natural 10 still gets through."""
    return edited(log, at(log, e="volley_fired", ship="B1"), rolls=[10])


def natural_ten_lands(log: Log) -> Log:
    bad = natural_ten(log)
    i = at(bad, e="volley_fired", ship="B1")
    return inserted(bad, i + 1, logs.hit("B1", "A1", "phaser", 4, "shields", 1, "shields", 17, 13))


@CASES.falsifies(pytest.mark.rule("FPF-DMG-10"))
def stale_shields(log: Log) -> Log:
    return edited(log, at(log, e="volley_fired", ship="A2"), shields=12)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-06"))
def wrong_location(log: Log) -> Log:
    return edited(log, _first_hit(log), location="engine_power")


@CASES.falsifies(pytest.mark.rule("FPF-DMG-04"))
def heavy_beam(log: Log) -> Log:
    return edited(log, _first_hit(log), damage=2, superstructure=4, value=10)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-05"), drift_log)
def heavy_torpedo(log: Log) -> Log:
    return edited(
        log, at(log, e="hit_scored", weapon="photon"), damage=7, value=-4, superstructure=11
    )


@CASES.falsifies(pytest.mark.rule("FPF-DMG-07"))
def hull_wrong(log: Log) -> Log:
    return edited(log, _first_hit(log), superstructure=4)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-08"))
def shields_ignored(log: Log) -> Log:
    return edited(log, _first_hit(log), applied_to="superstructure", value=5)


def aft_launcher_hit(log: Log) -> Log:
    """A1 hits B1 from ahead on location 9: the Bird of Prey's photons fire aft only, so the
    damage goes to superstructure alone (FPF-DMG-09)."""
    i = at(log, e="hit_scored", ship="A1", location="phasers")
    return edited(log, i, location_roll=9, location="photons", applied_to="superstructure")


@CASES.falsifies(pytest.mark.rule("FPF-DMG-09"), lambda: aft_launcher_hit(base_log()))
def aft_launcher_damaged(log: Log) -> Log:
    good = aft_launcher_hit(log)
    i = at(good, e="hit_scored", ship="A1", location="photons")
    return edited(good, i, applied_to="photons", value=0)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-14"), drift_log)
def systems_below_the_floor(log: Log) -> Log:
    return edited(log, at(log, e="hit_scored", location="computer"), value=-4)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-11"))
def destroyed_with_hull_left(log: Log) -> Log:
    i = at(log, e="volley_fired", ship="A2")
    destroyed = {"e": "ship_destroyed", "ship": "B1", "by": "A2", "derelict": False}
    return inserted(log, i, destroyed)


@CASES.falsifies(pytest.mark.rule("FPF-DMG-11"))
def wrong_winner(log: Log) -> Log:
    return edited(log, at(log, e="battle_ended"), winner="A")


@CASES.falsifies(pytest.mark.rule("FPF-DMG-13"), drift_log)
def control_kept(log: Log) -> Log:
    return logs.dropped(log, at(log, e="control_changed"))


@CASES.falsifies(pytest.mark.rule("FPF-DMG-13"))
def control_lost_for_nothing(log: Log) -> Log:
    i = at(log, e="volley_fired", ship="A2")
    return inserted(log, i, {"e": "control_changed", "ship": "A1", "in_control": False})


# --- repairs (two-turn drift log) ---


def _repair(log: Log, item: str) -> int:
    return at(log, e="repaired", item=item)


def repair(ship: str, item: str, value: int) -> Event:
    return {"e": "repaired", "ship": ship, "item": item, "value": value}


@REPAIRS.falsifies(pytest.mark.rule("FPF-REP-01"))
def too_many_repairs(log: Log) -> Log:
    return inserted(log, _repair(log, "engine_power") + 1, repair("A1", "computer", -1))


@REPAIRS.falsifies(pytest.mark.rule("FPF-REP-02"))
def repair_in_the_move(log: Log) -> Log:
    i = _repair(log, "engine_power")
    shot = log[i]
    rest = logs.dropped(log, i)
    return inserted(rest, at(rest, e="turn_ended", turn=2), shot)


@REPAIRS.falsifies(pytest.mark.rule("FPF-REP-05"))
def systems_jump(log: Log) -> Log:
    return edited(log, _repair(log, "computer"), value=-1)


@REPAIRS.falsifies(pytest.mark.rule("FPF-REP-04"))
def engines_half_mended(log: Log) -> Log:
    return edited(log, _repair(log, "engine_power"), value=15)


@REPAIRS.falsifies(pytest.mark.rule("FPF-REP-07"))
def nothing_to_mend(log: Log) -> Log:
    return inserted(log, _repair(log, "engine_power") + 1, repair("B1", "shields", 14))


@REPAIRS.falsifies(pytest.mark.rule("FPF-REP-03"))
def patched_hull(log: Log) -> Log:
    card = {
        "e": "card_used",
        "card": "reinforcements-sideboard",
        "ship": "A1",
        "on": "A1",
        "detail": "superstructure back to 14",
    }
    return inserted(log, _repair(log, "computer"), card)


def bird_of_prey_repairs(log: Log) -> Log:
    i = at(log, e="turn_started", turn=1)
    return inserted(log, i + 1, repair("B1", "shields", 12))


@pytest.mark.parametrize(("clause", "breaks", "keeps"), CASES.rows)
def test_the_referee_catches_wrong_damage_and_passes_the_right_one(
    clause: str, breaks: Callable[[Log], Log], keeps: Callable[[], Log]
) -> None:
    source = drift_log() if keeps is drift_log else base_log()
    assert clause in clauses(breaks(source))
    assert clause not in clauses(keeps())


@pytest.mark.parametrize(("clause", "breaks"), REPAIRS.rows)
def test_the_referee_catches_wrong_repairs(clause: str, breaks: Callable[[Log], Log]) -> None:
    assert clause not in clauses(drift_log(2))
    assert clause in clauses(breaks(drift_log(2)))


@pytest.mark.rule("FPF-REP-06")
def test_a_ship_without_damage_control_repairs_nothing() -> None:
    assert "FPF-REP-06" in clauses(bird_of_prey_repairs(base_log()))
    assert "FPF-REP-06" not in clauses(base_log())


@pytest.mark.rule("FPF-REP-02", "FPF-REP-05", "FPF-MOV-12")
def test_the_two_turn_repair_log_is_clean() -> None:
    assert [str(v) for v in referee(drift_log(2))] == []


# --- Peak Performance ---


@PEAK.falsifies(pytest.mark.rule("PP-04"))
def destroyed_not_reset(log: Log) -> Log:
    i = at(log, e="ship_reset")
    return edited(log, i, e="ship_destroyed", derelict=False)


@PEAK.falsifies(pytest.mark.rule("PP-10"))
def two_tokens(log: Log) -> Log:
    return edited(log, at(log, e="ship_reset"), tokens=2)


@PEAK.falsifies(pytest.mark.rule("PP-16"))
def short_kill(log: Log) -> Log:
    i = at(log, e="fleet_points_awarded", reason="kill")
    return edited(log, i, points=70, total=70)


@PEAK.falsifies(pytest.mark.rule("PP-16", "PP-17"))
def no_kill_points(log: Log) -> Log:
    return logs.dropped(log, at(log, e="fleet_points_awarded", reason="kill"))


@PEAK.falsifies(pytest.mark.rule("PP-18"), "reinforcements-sideboard")
def no_resource(log: Log) -> Log:
    return logs.dropped(log, at(log, e="fleet_points_awarded", reason="resource"))


@PEAK.falsifies(pytest.mark.rule("PP-11"))
def back_in_the_middle(log: Log) -> Log:
    return edited(log, at(log, e="ship_returned"), y=60.0, x=40.0)


@PEAK.falsifies(pytest.mark.rule("PP-12"))
def full_shields(log: Log) -> Log:
    return edited(log, at(log, e="ship_returned"), shields=15)


@PEAK.falsifies(pytest.mark.rule("PP-12"))
def shields_mended_past_the_tokens(log: Log) -> Log:
    i = at(log, e="ship_returned")
    return inserted(log, i + 1, repair("B1", "shields", 15))


@PEAK.falsifies(pytest.mark.rule("PP-21"))
def big_bonus(log: Log) -> Log:
    i = at(log, e="fleet_points_awarded", reason="bonus")
    return edited(log, i, points=10, total=85)


@PEAK.falsifies(pytest.mark.rule("PP-22"))
def wrong_peak_winner(log: Log) -> Log:
    return edited(log, at(log, e="battle_ended"), winner="B")


@PEAK.falsifies(pytest.mark.rule("PP-20"))
def early_end(log: Log) -> Log:
    return edited(log, at(log, e="battle_ended"), turns=1)


@PEAK.falsifies(pytest.mark.rule("PP-15"))
def bad_tally(log: Log) -> Log:
    return edited(log, at(log, e="fleet_points_awarded", reason="kill"), total=80)


@PEAK.falsifies(pytest.mark.rule("PP-05"))
def shot_while_away(log: Log) -> Log:
    i = at(log, e="ship_moved", ship="A1")
    shot = {
        "e": "volley_fired",
        "ship": "A1",
        "target": "B1",
        "weapon": "phaser",
        "shots": 6,
        "strength": 4,
        "shields": 14,
        "range_cm": 12.0,
        "rolls": [1, 1, 1, 1, 1, 1],
    }
    return inserted(log, i, shot)


@pytest.mark.parametrize(("clause", "breaks", "resource"), PEAK.rows)
def test_the_referee_catches_peak_performance_faults(
    clause: str, breaks: Callable[[Log], Log], resource: str | None
) -> None:
    assert clause not in clauses(kill_log(resource=resource))
    assert clause in clauses(breaks(kill_log(resource=resource)))


@pytest.mark.rule("PP-18", "PP-19")
def test_the_resource_scores_once_every_ship_carries_a_token() -> None:
    log = kill_log(resource="reinforcements-sideboard")
    assert [str(v) for v in referee(log)] == []
    extra = inserted(
        log,
        at(log, e="turn_ended", turn=1),
        logs.points("A", 10, "resource", "reinforcements-sideboard", 95),
    )
    assert "PP-18" in clauses(extra)
