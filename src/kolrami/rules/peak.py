"""Peak Performance (seed 000, the event PP-23): battle simulation mode and its scoring, as one
rule module.

The scenario (scenarios/data/peak-performance.toml) puts one planet at the table's centre before
deployment (PP-01) and deploys as the standard two-player game does (PP-02); the planet is an
ordinary one (PP-03): it blocks movement and fire like any planet (rules/fpf/movement.py,
rules/fpf/fire.py).

No ship is ever destroyed: at the moment it would be, it is reset (PP-04, PP-05, PP-06, PP-07,
PP-08, PP-09, PP-10) and returns at the start of the next turn in its owner's zone, with weaker
shields (PP-11, PP-12, PP-13, PP-14). Every would-be destruction scores the ship's Total SP for
the opponent, a fleet's resource scores once all its ships carry a token, and at the end each
token on the opponent's ships is worth 5 (PP-15, PP-16, PP-17, PP-18, PP-19, PP-20, PP-21).
Only the turn limit ends the battle (PP-20); most Fleet Points wins, a tie goes to a roll-off
of five attack dice (PP-22, OP-24).

Mapping from the kit's components onto ours: damage cards are the damage on the ship's
sheet (superstructure, shields, engines, weapons, systems); disabled upgrades are knocked-out
weapon mounts and systems; the Planning Phase is the start of the next turn; the time limit is the
scenario's turn limit; a ship's total points are its class value plus its cards.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Final

from kolrami.catalog.cards import card_cost
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.step import Step
from kolrami.rules import events as ev
from kolrami.rules.fpf.orders import ReturnDecision
from kolrami.rules.fpf.orders import ReturnOrder
from kolrami.rules.module import Capability
from kolrami.rules.module import RuleModule
from kolrami.rules.rolloff import attack_dice
from kolrami.rules.rolloff import count_roll_off
from kolrami.rules.steps import Each
from kolrami.rules.steps import Question

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState

BONUS_PER_TOKEN = 5  # PP-21
ROLL_OFF_DICE = 5  # PP-22, OP-24
SPOT_STEP_CM = 2.0  # grid of candidate return spots


def return_zone(battle: Battle, side: str) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a side's deployment zone: where its ships return (PP-11)."""
    sc = battle.scenario
    if side == "A":
        return 0.0, 0.0, sc.table_width_cm, sc.deployment_depth_cm
    return 0.0, sc.table_height_cm - sc.deployment_depth_cm, sc.table_width_cm, sc.table_height_cm


def return_problem(battle: Battle, ship: ShipState, x: float, y: float) -> str | None:
    """Why (x, y) is not a legal return spot for `ship`, or None when it is (PP-11)."""
    x0, y0, x1, y1 = return_zone(battle, ship.side)
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return f"({x:g}, {y:g}) is outside {ship.side}'s zone x {x0:g}-{x1:g}, y {y0:g}-{y1:g}"
    reach = battle.scenario.return_range_cm
    for other in battle.ships.values():
        if other is ship or not other.on_table:
            continue
        if (other.x - x) ** 2 + (other.y - y) ** 2 <= reach * reach:
            return f"({x:g}, {y:g}) is within Range 1 ({reach:g} cm) of {other.id}"
    r = battle.scenario.base_radius_cm
    for rock in battle.blockers:
        if (rock.x - x) ** 2 + (rock.y - y) ** 2 < (rock.radius_cm + r) ** 2:
            return f"({x:g}, {y:g}) is on the {rock.kind}"
    return None


def verify_return(battle: Battle, decision: ReturnDecision, order: object) -> None:
    """A RETURN order for the decision's ship to a legal spot and heading (PP-11)."""
    ship = battle.ships[decision.ship]
    if not isinstance(order, ReturnOrder) or order.ship != ship.id:
        raise IllegalOrderError(f"expected RETURN {ship.id} x y H<heading>, got '{order}'")
    problem = return_problem(battle, ship, order.x, order.y)
    if problem is not None:
        raise IllegalOrderError(f"{ship.id} cannot return there: {problem} (PP-11)")
    if not 0 <= order.heading < 6:
        raise IllegalOrderError(f"{ship.id}: heading {order.heading} is not 0-5")


def return_spots(battle: Battle, ship: ShipState) -> list[tuple[float, float]]:
    """Legal return spots on a 2 cm grid over the zone (empty: the return waits a turn): the
    spots `return_problem` passes, found row by row. A search asks this at every start of a
    turn its rollouts play, so a row checks only the ships and planets near enough to it, and
    of its spots only those near enough to them, with `return_problem`'s own sums: the same
    spots, as the same floats."""
    xs, ys = _grid(battle, ship.side)
    reach = battle.scenario.return_range_cm
    limit = reach * reach
    r = battle.scenario.base_radius_cm
    # (x, y, the squared distance a spot must keep, whether exactly that distance is allowed)
    keep = [(o.x, o.y, limit, False) for o in battle.ships.values() if o is not ship and o.on_table]
    keep += [(k.x, k.y, (k.radius_cm + r) ** 2, True) for k in battle.blockers]
    spots: list[tuple[float, float]] = []
    for y in ys:
        blocked: set[int] = set()
        for ox, oy, far, edge in keep:
            dy = (oy - y) ** 2
            # the sum of two squares is never below either of them: a ship or planet at least
            # `far` from the row's line, or a spot more than its reach (and a cm) along the
            # row, is out of reach
            if dy > far or (edge and dy == far):
                continue
            span = math.sqrt(far) + 1.0
            for i in range(bisect_left(xs, ox - span), bisect_right(xs, ox + span)):
                d = (ox - xs[i]) ** 2 + dy
                if d < far or (d == far and not edge):
                    blocked.add(i)
        if blocked:
            spots += [(x, y) for i, x in enumerate(xs) if i not in blocked]
        else:
            spots += [(x, y) for x in xs]
    return spots


#: each zone's grid of return spots, (xs, ys), by the zone and the base radius
_GRIDS: dict[tuple[float, float, float, float, float], tuple[list[float], list[float]]] = {}


def _grid(battle: Battle, side: str) -> tuple[list[float], list[float]]:
    """The x and y of a side's grid of return spots: every SPOT_STEP_CM from a base radius
    inside its zone's edges (each the sum of the steps before it, as a spot was always made)."""
    x0, y0, x1, y1 = return_zone(battle, side)
    r = battle.scenario.base_radius_cm
    key = (x0, y0, x1, y1, r)
    found = _GRIDS.get(key)
    if found is None:
        if len(_GRIDS) >= 64:  # (a bound for long sessions of scenarios made on the fly)
            _GRIDS.clear()
        xs, ys = [], []
        x = x0 + r
        while x <= x1 - r + 1e-9:
            xs.append(x)
            x += SPOT_STEP_CM
        y = y0 + r
        while y <= y1 - r + 1e-9:
            ys.append(y)
            y += SPOT_STEP_CM
        found = _GRIDS[key] = (xs, ys)
    return found


def reset_ship(battle: Battle, ship: ShipState, by: ShipState | None) -> None:
    """PP-05, PP-06, PP-07, PP-08, PP-09, PP-10: off the table, damage cleared, cards sorted out,
    one more token."""
    # PP-06, PP-07, PP-13: all damage goes, knocked-out items work again (ShipReset.apply)
    # PP-08, PP-09, PP-14: only cards it started with and still owns come back
    lost = battle.lost_cards.get(ship.id, set())
    cards = [c for c in ship.start_cards if c not in lost]
    tokens = ship.tokens + 1  # PP-10
    # what it returns with: its starting shields, cards included, less a point a token (PP-12)
    shields = max(0, ship.max_shields - tokens)  # (BattleSimulation.shield_ceiling)
    battle.record(ev.ShipReset(ship.id, by.id if by else "", tokens, shields, cards))


def award(battle: Battle, side: str, points: int, reason: str, ship: str) -> None:
    """Add Fleet Points to a side's running tally (PP-15)."""
    battle.fleet_points[side] += points
    battle.note(ev.FleetPointsAwarded, side, points, reason, ship, battle.fleet_points[side])


class _Returns(Question):
    """Every reset ship comes back, each where its owner chooses (PP-11), in the ships' order;
    a ship with no legal spot waits a turn more."""

    __slots__ = ()

    def ask(self, battle: Battle, item: str) -> Decision | None:
        ship = battle.ships[item]
        if not ship.out_of_play:
            return None
        spots = return_spots(battle, ship)
        if not spots:
            battle.note(ev.ReturnPostponed, ship.id)
            return None
        return ReturnDecision(ship.side, ship.id, tuple(spots))

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, ReturnDecision)
        verify_return(battle, decision, order)

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, ReturnDecision)
        return_ship(battle, decision, order)


RETURNS: Final = _Returns()


def return_ship(battle: Battle, decision: ReturnDecision, order: object) -> None:
    """The ship of `decision` back in play where `order` (verified) puts it, with its shields
    as they are (PP-11, PP-12) and the scenario's starting speed."""
    assert isinstance(order, ReturnOrder)
    ship = battle.ships[decision.ship]
    battle.record(
        ev.ShipReturned(
            ship.id,
            round(order.x, 3),
            round(order.y, 3),
            order.heading,
            ship.shields,
            0 if ship.cls.stationary else battle.scenario.start_speed_cm,
        )
    )


class BattleSimulation(RuleModule):
    """Peak Performance: ships are reset instead of destroyed, and Fleet Points are scored."""

    name = "battle-simulation"
    capabilities = frozenset({Capability.RESETS_DESTROYED, Capability.SCORES_FLEET_POINTS})
    clauses = tuple(f"PP-{n:02d}" for n in range(4, 23))
    summary = "Peak Performance: reset instead of destruction, returns, Fleet Points scoring."

    def shield_ceiling(self, battle: Battle, ship: ShipState) -> int:
        # PP-12: a returned ship's token-reduced shields are its shields now; repairs restore
        # shields only that far
        return max(0, ship.max_shields - ship.tokens)

    def return_spots(self, battle: Battle, ship: ShipState) -> list[tuple[float, float]]:
        return return_spots(battle, ship)  # PP-11

    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        reset_ship(battle, ship, by)
        opponent = "B" if ship.side == "A" else "A"
        # PP-16, PP-17: the ship's Total SP, every time, whoever caused it
        award(battle, opponent, ship.points, "kill", ship.id)
        fleet = battle.fleets[0 if ship.side == "A" else 1]
        resource = next(iter(fleet.resources()), None)
        if resource and all(s.tokens > 0 for s in battle.ships.values() if s.side == ship.side):
            already = battle.resource_scored[ship.side]
            if not already or battle.scenario.resource_repeat:  # PP-18, PP-19
                battle.resource_scored[ship.side] = True
                award(battle, opponent, card_cost(resource), "resource", resource)
        # off the table, out of its formation: logged after the reset and what it scored
        battle.leave_formation(ship)

    def start_of_turn(self, battle: Battle) -> Sequence[Step[Battle]]:
        return (Each(RETURNS, tuple(battle.ships)),)

    def end_of_battle(self, battle: Battle) -> None:
        for side in ("A", "B"):  # PP-21
            opponent = "B" if side == "A" else "A"
            tokens = sum(s.tokens for s in battle.ships.values() if s.side == opponent)
            if tokens:
                award(battle, side, BONUS_PER_TOKEN * tokens, "bonus", "")

    def battle_over(self, battle: Battle) -> bool:
        return False  # PP-20: only the turn limit ends it

    def result(self, battle: Battle) -> tuple[str | None, str]:
        a, b = battle.fleet_points["A"], battle.fleet_points["B"]
        if a != b:
            return ("A" if a > b else "B"), f"Fleet Points A {a} : B {b}"
        rolls: list[dict[str, list[str]]] = []
        while True:  # PP-22, OP-24: five attack dice each, hits and criticals; again if level
            faces = {side: attack_dice(battle.dice, ROLL_OFF_DICE) for side in ("A", "B")}
            rolls.append({side: [f.value for f in fs] for side, fs in faces.items()})
            ra, rb = count_roll_off(faces["A"]), count_roll_off(faces["B"])
            if ra != rb:
                winner = "A" if ra > rb else "B"
                battle.note(ev.RollOff, rolls, winner)
                return winner, f"Fleet Points level at {a}; {winner} wins the roll-off {ra}:{rb}"
