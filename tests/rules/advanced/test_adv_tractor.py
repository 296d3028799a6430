"""Tractor beams (rules/advanced/tractor.py)."""

from __future__ import annotations

from collections import deque

import pytest

from kolrami.engine.chance import Dice
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import tractor as t


class Faces(Dice):
    """Dice showing the listed faces in order."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = deque(faces)

    def d(self, sides: int) -> int:
        return self.faces.popleft()


@pytest.mark.rule("ADV-TRAC-02")
def test_worked_example_tpa_45_half_power_3_full_power_5() -> None:
    assert t.cost(t.Level.HALF, 45) == 3
    assert t.cost(t.Level.FULL, 45) == 5
    assert t.level_needed(100, 50) is t.Level.HALF
    assert t.level_needed(100, 51) is t.Level.FULL
    assert t.level_needed(100, 101) is None


@pytest.mark.rule("ADV-TRAC-01")
@pytest.mark.rule("ADV-TRAC-06")
@pytest.mark.parametrize(
    ("hexes", "target", "level", "free", "reason"),
    [
        (3, 50, t.Level.FULL, 10, "ADV-TRAC-01"),
        (0, 50, t.Level.FULL, 10, "ADV-TRAC-01"),
        (2, 150, t.Level.FULL, 10, "ADV-TRAC-06"),
        (2, 80, t.Level.HALF, 10, "ADV-TRAC-02"),
        (2, 80, t.Level.FULL, 4, "ADV-TRAC-02"),
    ],
)
def test_engaging_a_beam(hexes: float, target: int, level: t.Level, free: int, reason: str) -> None:
    t.verify_tractor(1, 100, 50, t.Level.HALF, 3, 45)
    with pytest.raises(IllegalOrderError, match=reason):
        t.verify_tractor(hexes, 100, target, level, free, 45)


@pytest.mark.rule("ADV-TRAC-03")
@pytest.mark.rule("ADV-TRAC-05")
def test_a_held_ship_turns_but_without_impulse_cannot_try_to_escape() -> None:
    assert t.may_turn_when_held()
    assert t.escape_problem(0) is not None
    assert "ADV-TRAC-05" in str(t.escape_problem(0))
    assert t.escape_problem(1) is None


@pytest.mark.rule("ADV-TRAC-04")
@pytest.mark.rule("ADV-TRAC-06")
@pytest.mark.rule("ADV-TRAC-07")
def test_breaking_free_burns_crystals_until_the_holder_breaches() -> None:
    assert t.try_escape(Faces(), 200, 100, 3, 3) == t.Escape(0, 0, True, False)  # heavier
    assert t.try_escape(Faces(3, 5), 50, 100, 3, 3) == t.Escape(1, 0, False, False)
    assert t.try_escape(Faces(9, 10), 50, 100, 3, 2) == t.Escape(0, 1, False, False)
    assert t.try_escape(Faces(9, 10), 50, 100, 3, 1) == t.Escape(0, 1, True, True)
    assert t.exhausted(0)
    assert not t.exhausted(1)


@pytest.mark.rule("ADV-TRAC-08")
def test_holding_a_beam_rolls_for_burn_out_each_game_turn() -> None:
    assert t.upkeep_burns(Faces(10))
    assert not t.upkeep_burns(Faces(9))
