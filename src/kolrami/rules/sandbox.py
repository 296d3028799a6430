"""Set up battle situations by hand: for tests, tutorials and designers trying a position.

    battle = sandbox([["reliant"]], [["ktroika"]])      # one squadron a side
    place(battle, "A1", 50, 40, heading=0, speed=20)
    place(battle, "B1", 50, 60, heading=3)

A leader placed by hand takes its formation with it: the trail is rebuilt straight behind it.
"""

from __future__ import annotations

from typing import Any

from kolrami.engine.battle import Battle
from kolrami.engine.events import ShipPlaced
from kolrami.engine.geometry import Trail
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario


def fleet_of(squadrons: list[list[str]], name: str = "sandbox") -> Fleet:
    """A fleet from lists of ship-class ids, one list per squadron."""
    ships = [FleetShip(id=c, squadron=i + 1) for i, sq in enumerate(squadrons) for c in sq]
    return Fleet(name=name, ships=tuple(ships))


def sandbox(
    side_a: list[list[str]],
    side_b: list[list[str]],
    seed: int = 1,
    rules: tuple[str, ...] = (),
    **scenario: Any,
) -> Battle:
    """A battle on the standard scenario (with `scenario` fields overridden)."""
    base = builtin_scenario("standard")
    sc = base.model_copy(update=scenario) if scenario else base
    sc = type(base).model_validate(sc.model_dump())  # re-validate the overrides
    return new_battle(sc, (fleet_of(side_a, "A"), fleet_of(side_b, "B")), seed, extra_rules=rules)


def place(
    battle: Battle,
    ship_id: str,
    x: float,
    y: float,
    heading: int,
    speed: int | None = None,
    **state: Any,
) -> None:
    """Put a ship at (x, y, heading); `speed` sets this and last turn's speed; other keyword
    arguments set ship fields directly (shields=3, engine_power=0 ...)."""
    ship = battle.ships[ship_id]
    ship.x, ship.y, ship.heading = x, y, heading % 6
    if speed is not None:
        ship.speed = ship.last_speed = speed
    for key, value in state.items():
        if not hasattr(ship, key):
            raise AttributeError(f"ShipState has no field '{key}'")
        setattr(ship, key, value)
    squadron = battle.squadrons[ship.squadron]
    if squadron.formation and squadron.formation[0] == ship_id:
        spacing = battle.scenario.formation_spacing_cm
        squadron.trail = Trail(x, y, heading, spacing * (len(squadron.formation) + 3))
        for i, sid in enumerate(squadron.formation):
            squadron.offsets[sid] = i * spacing
            wx, wy, wh = squadron.trail.point_at(i * spacing)
            w = battle.ships[sid]
            w.x, w.y, w.heading = wx, wy, wh
            if speed is not None:
                w.speed = w.last_speed = speed
    battle.note(
        ShipPlaced,
        ship_id,
        ship.cls.id,
        ship.side,
        ship.squadron,
        round(x, 3),
        round(y, 3),
        heading % 6,
    )
