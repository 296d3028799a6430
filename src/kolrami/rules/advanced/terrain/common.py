"""What every kind of terrain shares (module adv-terrain): the module's state during a battle,
distances in hexes, and the one door through which terrain damages or moves a ship.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from kolrami.engine import events as ev
from kolrami.rules.advanced.state import KEY as STATE_KEY
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.terrain_events import TerrainDamage
from kolrami.rules.advanced.terrain_events import TerrainMoved
from kolrami.rules.module import rules_of

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

#: The three shield facings toward the direction of travel.
LEADING_FACINGS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Mine:
    """One mine of a scenario's minefield: its key ('2.1': feature 2, mine 1), place, owner."""

    key: str
    x: float
    y: float
    owner: str
    damage: int
    cloaked: bool
    firing: bool = False  # the kind that fires weakly and can be shot (ADV-MINE-09)


@dataclass(slots=True)
class TerrainState:
    """What the terrain module keeps during a battle (under battle.extensions['terrain'])."""

    mines: dict[str, Mine]
    #: mines gone off (the hex counts as clear, ADV-MINE-06)
    cleared: set[str] = field(default_factory=set)
    #: mines each side has found (ADV-MINE-03); a side always knows its own
    found: dict[str, set[str]] = field(default_factory=lambda: {"A": set(), "B": set()})
    #: (ship, mine) -> (phases the ship has stayed in the mined hex, the facing that entered)
    inside: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    #: where each ship was at the last terrain check (to see what it passed through)
    last: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: sides whose every ship is in a nebula and failed this phase's sensing (ADV-NEB-02)
    blind: set[str] = field(default_factory=set)
    #: ships laying a mine this phase: they hold their fire (ADV-MINE-02)
    laying: set[str] = field(default_factory=set)
    #: ships that have tried their one clever escape from an event horizon (ADV-BH-10)
    escaped: set[str] = field(default_factory=set)
    #: (ship, mine) for a mine a ship laid where it stands, until it leaves that hex
    clear_of: set[tuple[str, str]] = field(default_factory=set)


def terrain_for(state: AdvancedState) -> TerrainState | None:
    """The terrain state kept beside an advanced state (set when the first turn starts)."""
    return state.terrain if isinstance(state.terrain, TerrainState) else None


def terrain_of(battle: Battle) -> TerrainState | None:
    """The battle's terrain state, when the module plays an advanced battle."""
    found = battle.extensions.get(STATE_KEY)
    return terrain_for(found) if isinstance(found, AdvancedState) else None


def segment_gap(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Shortest distance from the point P to the segment AB."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def strike(battle: Battle, adv: AdvShip, source: str, facing: int, damage: int) -> None:
    """Terrain deals `damage` to a facing (its shields, if up and working, absorb first) or,
    with facing 0, straight to the superstructure; a ship brought to 0 is destroyed."""
    if not adv.alive or damage <= 0:
        return
    ship = adv.ship
    reinf = base = absorbed = 0
    if facing:
        reinf, base = adv.reinforcement[facing - 1], adv.base[facing - 1]
        if adv.shielded:
            from_reinf = min(reinf, damage)
            from_base = min(base, damage - from_reinf)
            reinf, base = reinf - from_reinf, base - from_base
            absorbed = from_reinf + from_base
    left = ship.superstructure - (damage - absorbed)
    battle.record(TerrainDamage(adv.id, source, facing, damage, absorbed, base, reinf, left))
    if ship.superstructure <= 0 and ship.alive:
        rules_of(battle).destroyed(battle, ship, None)


def shift(battle: Battle, adv: AdvShip, cause: str, x: float, y: float) -> None:
    """Terrain moves a ship to (x, y) (a drag, a pull, an orbit), logged as a move too."""
    ship = adv.ship
    start = [ship.x, ship.y]
    battle.record(TerrainMoved(adv.id, cause, round(x, 3), round(y, 3)))
    battle.change(ev.ShipMoved, ship.id, [start, [ship.x, ship.y]], ship.heading, ship.speed, 0.0)


def toward(adv: AdvShip, cx: float, cy: float, cm: float) -> tuple[float, float]:
    """The point `cm` from the ship toward (cx, cy) (never past it)."""
    x, y = adv.ship.x, adv.ship.y
    d = math.hypot(cx - x, cy - y)
    if d <= cm or d == 0:
        return cx, cy
    return x + (cx - x) * cm / d, y + (cy - y) * cm / d


def allowance_used(adv: AdvShip) -> int:
    """Hexes the ship moved this phase (the whole of its phase share when it moved)."""
    if not adv.moved_last:
        return 0
    return max(1, adv.moves // PHASES)
