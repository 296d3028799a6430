"""The bounds the scoring kernel tests before a hypot call (captains/scoring.py): a move is ruled
in or out on them only where hypot itself would give the same answer, so they must hold for
every pair of floats, the near-ties and the exact lengths included."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kolrami.captains.scoring import hypot_bounds

COORDINATE = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


ANY_FLOAT = st.floats(allow_nan=False, allow_infinity=False)
TINY_OR_HUGE = st.one_of(
    st.floats(-1e-150, 1e-150), st.floats(1e149, 1e160), st.floats(-1e160, -1e149)
)


@given(
    dx=st.one_of(COORDINATE, ANY_FLOAT, TINY_OR_HUGE),
    dy=st.one_of(COORDINATE, ANY_FLOAT, TINY_OR_HUGE),
)
@settings(max_examples=4000)
def test_the_snug_bounds_hold_hypot_between_them(dx: float, dy: float) -> None:
    lower, upper = hypot_bounds(dx, dy)
    length = math.hypot(dx, dy)
    assert lower <= length <= upper


@given(side=st.floats(1e-3, 1e3), scale=st.sampled_from([(3, 4), (5, 12), (8, 15), (1, 1)]))
def test_the_bounds_hold_for_whole_lengths_and_diagonals(
    side: float, scale: tuple[int, int]
) -> None:
    a, b = scale
    for dx, dy in ((side * a, side * b), (float(a), float(b)), (-side * a, side * b)):
        lower, upper = hypot_bounds(dx, dy)
        assert lower <= math.hypot(dx, dy) <= upper


def test_the_snug_bounds_are_a_hair_apart() -> None:
    for degrees in range(0, 91, 3):
        dx, dy = math.cos(math.radians(degrees)) * 50, math.sin(math.radians(degrees)) * 50
        lower, upper = hypot_bounds(dx, dy)
        assert 50 - 1e-9 < lower <= upper < 50 + 1e-9
    assert hypot_bounds(0.0, 0.0) == (-1e-150, 1e-150)
