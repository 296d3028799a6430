"""Where a rules test puts its ships: `place_all(battle, "A1 60,40 h0 v5; B1 90,60 h3")`, one
spot per ship, for the FPF tests (tests/rules/fpf) and the advanced ones (tests/rules/advanced)."""

from __future__ import annotations

import re

from kolrami.engine.battle import Battle
from kolrami.rules.sandbox import place

#: One ship's spot for `place_all`: "A1 90,40 h0 v20" is ship A1 at (90, 40) facing heading 0,
#: its speed 20 this and last turn (without "v..." its speed is left as it is).
_SPOT = re.compile(r"([A-Z]\d+) (-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?) h(-?\d+)(?: v(\d+))?")


def _number(text: str) -> float:
    return float(text) if "." in text else int(text)


def place_all(battle: Battle, spots: str) -> None:
    """Place ships with `kolrami.rules.sandbox.place`, one spot each, the spots separated by
    ';': "A1 60,40 h0 v5; B1 90,60 h3 v0"."""
    for spot in spots.split(";"):
        m = _SPOT.fullmatch(spot.strip())
        if m is None:
            raise ValueError(f"a spot reads like 'A1 90,40 h0 v20', not {spot.strip()!r}")
        ship, x, y, heading, speed = m.groups()
        at, then = (_number(x), _number(y)), None if speed is None else int(speed)
        place(battle, ship, *at, int(heading), speed=then)
