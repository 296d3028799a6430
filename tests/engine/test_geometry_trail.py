"""The squadron trail (engine/geometry.py): the segment lengths it keeps beside its points.

A Trail keeps each segment's length instead of measuring it at every walk; these tests check
that after any sequence of its operations every kept length is the one its points give, with
the same hypot, to the last bit (a length out of date would move wingmen).
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kolrami.engine.geometry import Trail

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["extend", "face", "trim", "drop_front"]),
        st.floats(0.0, 30.0),
        st.integers(-2, 8),
    ),
    max_size=12,
)


def measured(trail: Trail) -> list[float]:
    """Each segment's length as its two points give it."""
    return [
        math.hypot(x0 - x1, y0 - y1)
        for (x0, y0), (x1, y1) in zip(trail.points, trail.points[1:], strict=False)
    ]


@given(steps=STEPS)
@settings(max_examples=200, deadline=None)
def test_every_kept_length_is_the_one_its_points_give(
    steps: list[tuple[str, float, int]],
) -> None:
    trail = Trail(90.0, 10.0, 0, 20.0)
    for op, amount, heading in steps:
        hx, hy = trail.points[0]
        if op == "extend":
            trail.extend(hx + amount * math.sin(heading), hy + amount * math.cos(heading), heading)
        elif op == "face":
            trail.face(hx, hy, heading)
        elif op == "trim":
            trail.trim(amount + 1.0)
        else:
            trail.drop_front(min(amount, sum(trail.lengths) / 2))
        assert len(trail.lengths) == len(trail.headings) == len(trail.points) - 1
        assert trail.lengths == measured(trail)
        assert trail.copy().lengths == trail.lengths


def test_a_walk_along_the_trail_reads_the_kept_lengths() -> None:
    trail = Trail(0.0, 0.0, 0, 10.0)  # from (0, -10) up to (0, 0)
    trail.extend(0.0, 5.0, 0)  # on along the same line: the head moves
    trail.extend(5.0 * math.cos(math.radians(30)), 7.5, 5)  # a turn to starboard, 5 cm on
    assert trail.lengths == measured(trail)
    x, y, heading = trail.point_at(7.0)  # 5 cm back to the corner, then 2 cm further
    assert (round(x, 9), round(y, 9), heading) == (0.0, 3.0, 0)
