"""The referee catches fire faults (timing, locks, arcs, ranges, reaction fire, volley order,
masking) in hand-edited logs, and passes the clean ones."""

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


def _a1_volley(log: Log) -> int:
    return at(log, e="volley_fired", ship="A1")


CASES = logs.Falsifiers(base_log)


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-02"))
def no_lock(log: Log) -> Log:
    return logs.dropped(log, at(log, e="fire_declared", ship="A1"))


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-04"))
def twice(log: Log) -> Log:
    i = at(log, e="volley_fired", ship="A2")
    return inserted(log, i, logs.volley("A1", "B1", "phaser", 4, 10, 22.0, [1, 1, 1, 1, 1, 1]))


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-05"))
def other_target(log: Log) -> Log:
    return edited(log, _a1_volley(log), target="B2", range_cm=22.0)


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-01"))
def at_own_ship(log: Log) -> Log:
    return edited(log, at(log, e="fire_declared", ship="A1"), target="A2")


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-10"))
def outside_activation(log: Log) -> Log:
    """A1's volley (and its hits) moved into BS1's activation: A1 stands at (90, 40), B1 starts
    its move 18 cm away."""
    i = _a1_volley(log)
    shots = log[i : i + 4]
    shots[0] = {**shots[0], "range_cm": 18.0}
    rest = [e for k, e in enumerate(log) if not i <= k < i + 4]
    j = at(rest, e="volley_fired", ship="B1")
    return rest[:j] + shots + rest[j:]


def reaction_log() -> Log:
    """B1 and B2 react to AS1's move: B1's phaser fires at A1 as it ends its move 18 cm ahead."""
    log = base_log()
    log = edited(
        log, at(log, e="order_given", order="REACT BS1 HOLD"), order="REACT BS1 B1:F@A1 B2:F@A1"
    )
    i = logs.as1_orders(log)
    log = inserted(
        log, i, logs.declared("B1", "A1", "F", True), logs.declared("B2", "A1", "F", True)
    )
    j = at(log, e="ship_moved", ship="A1")
    log = inserted(log, j, logs.volley("B1", "A1", "phaser", 2, 14, 18.0, [4]))
    k = at(log, e="order_given", order="BS1 SPD 20 T+1 T0 FIRE B1:F@A1 B2:F@A1")
    log = edited(log, k, order="BS1 SPD 20 T+1 T0 HOLD")
    drop = [at(log, e="fire_declared", ship=s, reaction=False) for s in ("B1", "B2")]
    drop.append(len(log) - 1 - [e.get("e") for e in reversed(log)].index("volley_fired"))
    return logs.dropped(log, *drop)


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-11"), reaction_log)
def reaction_from_the_side(log: Log) -> Log:
    return edited(log, at(log, e="fire_declared", ship="B1", reaction=True), arc="P")


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-11"), reaction_log)
def reaction_after_the_move(log: Log) -> Log:
    i = at(log, e="volley_fired", ship="B1")
    shot = log[i]
    rest = logs.dropped(log, i)
    j = at(rest, e="ship_moved", ship="B1")
    return inserted(rest, j, {**shot, "range_cm": 18.0})


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-11"), reaction_log)
def reaction_at_a_still_target(log: Log) -> Log:
    log = logs.as1_ordered(log, "AS1 SPD 0 T0 T0 FIRE A1:F@B1 A2:F@B1")
    for ship, p in (("A1", [90.0, 20.0]), ("A2", [90.0, 14.0])):
        log = edited(log, at(log, e="ship_moved", ship=ship), path=[p, p], speed=0, distance=0.0)
    return edited(log, at(log, e="volley_fired", ship="B1"), range_cm=38.0)


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-13"))
def not_as_a_unit(log: Log) -> Log:
    i = at(log, e="volley_fired", ship="A2")
    return logs.dropped(log, at(log, e="fire_declared", ship="A2"), i, i + 1, i + 2)


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-15"))
def beyond_range(log: Log) -> Log:
    return edited(log, _a1_volley(log), range_cm=25.0)


@CASES.falsifies(pytest.mark.rule("FPF-TURN-01"))
def nowhere_on_the_path(log: Log) -> Log:
    return edited(log, _a1_volley(log), range_cm=10.0)


@CASES.falsifies(pytest.mark.rule("FPF-ARC-01"))
def wrong_arc(log: Log) -> Log:
    return edited(log, at(log, e="fire_declared", ship="A1"), arc="P")


@CASES.falsifies(pytest.mark.rule("FPF-ARC-04"))
def arc_without_weapons(log: Log) -> Log:
    return edited(log, at(log, e="fire_declared", ship="A1"), arc="S")


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-08"), drift_log)
def photons_first(log: Log) -> Log:
    i = at(log, e="volley_fired", weapon="phaser", ship="B1")
    out = list(log)
    out[i], out[i + 1] = out[i + 1], out[i]
    return out


@CASES.falsifies(pytest.mark.rule("FPF-FIRE-09"))
def before_the_damage_lands(log: Log) -> Log:
    i = _a1_volley(log)
    j = at(log, e="volley_fired", ship="A2")
    out = list(log)
    shot = {**out.pop(j), "shields": 12}
    out.insert(i + 1, shot)
    return out


@CASES.falsifies(pytest.mark.rule("FPF-MASK-03"))
def standing_still(log: Log) -> Log:
    """BS1 stands still, as it did before the battle (the battle starts at speed 0): A2's shot at
    B1, before B1 has moved this turn, crosses A1's base. (Other clauses this edit breaks, such
    as A's speeds from a standing start, are not this test's.)"""
    log[0]["header"]["scenario"]["start_speed_cm"] = 0
    i = at(log, e="order_given", order="BS1 SPD 20 T+1 T0 FIRE B1:F@A1 B2:F@A1")
    log = edited(log, i, order="BS1 SPD 0 T0 T0 FIRE B1:F@A1 B2:F@A1")
    for ship, p in (("B1", [90.0, 58.0]), ("B2", [90.0, 64.0])):
        log = edited(
            log, at(log, e="ship_moved", ship=ship), path=[p, p], heading=3, speed=0, distance=0.0
        )
    return log


@CASES.falsifies(pytest.mark.rule("FPF-OPT-05"))
def jumping_phasers(log: Log) -> Log:
    log[0]["header"]["rules"].append("micro-warp-jump")
    return logs.as1_ordered(log, "AS1 JMP 102 T0 T0 FIRE A1:F@B1 A2:F@B1")


@pytest.mark.parametrize(("clause", "breaks", "keeps"), CASES.rows)
def test_the_referee_catches_a_broken_volley_and_passes_a_legal_one(
    clause: str, breaks: Callable[[Log], Log], keeps: Callable[[], Log]
) -> None:
    assert clause not in clauses(keeps())
    assert clause in clauses(breaks(keeps()))


@pytest.mark.rule("FPF-FIRE-11")
def test_the_reaction_log_is_clean() -> None:
    assert [str(v) for v in referee(reaction_log())] == []


@pytest.mark.rule("FPF-MASK-06", "FPF-MASK-03")
def test_masking_method_2_masks_nothing() -> None:
    log = standing_still(base_log())
    log[0]["header"]["scenario"]["masking"] = "method-2"
    assert "FPF-MASK-03" not in clauses(log)


@pytest.mark.rule("FPF-DMG-13")
def test_an_out_of_control_ship_does_not_declare_fire() -> None:
    log = drift_log()
    i = at(log, e="squadron_activated", squadron="AS1")
    bad = inserted(log, i + 1, logs.order("A", "AS1 FIRE A1:F@B1"), logs.declared("A1", "B1", "F"))
    assert "FPF-DMG-13" in clauses(bad)
    assert "FPF-DMG-13" not in clauses(log)
