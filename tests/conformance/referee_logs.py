"""Hand-made battle logs for the referee's tests: one clean turn, and ways to break it.

The battle: two Chargers (A1 leading A2 in column, AS1) close on two Birds of Prey (B1 leading B2,
BS1). Turn 1: both sides at speed 20 roll off, A moves first. AS1 flies straight ahead; A1's
phasers fire at 22 cm, A2's at 24 cm as it ends its move. Then BS1 turns to port and flies on;
B1's one working phaser fires at A1 at 18 cm as it starts. Everything in it is legal.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any
from typing import TypeVar

import pytest
from _pytest.mark.structures import MarkDecorator
from _pytest.mark.structures import ParameterSet
from referee import referee

Event = dict[str, Any]
Log = list[Event]


def clauses(log: Log) -> set[str]:
    """The clauses the referee finds broken in a log."""
    return {v.clause for v in referee(log)}


SCENARIO: dict[str, Any] = {
    "name": "standard",
    "table_width_cm": 180.0,
    "table_height_cm": 120.0,
    "deployment_depth_cm": 20.0,
    "turn_limit": 1,
    "start_speed_cm": 20,
    "base_radius_cm": 2.5,
    "formation_spacing_cm": 6.0,
    "masking": "method-1",
    "movement": "squadron",
    "rules": [],
    "terrain": [],
    "return_range_cm": 10.0,
    "resource_repeat": False,
    "micro_warp_unit_cm": 2.54,
}
CORE = ["fpf-turn", "fpf-repairs", "fpf-initiative", "fpf-damage", "cards", "masking-stationary"]


def fleet(cls: str, count: int, resource: str | None = None) -> dict[str, Any]:
    ships: list[dict[str, Any]] = [
        {"id": cls, "squadron": 1, "captain": None, "admiral": None, "upgrades": {}}
        for _ in range(count)
    ]
    return {"spec": "fleetx", "ships": ships, "resource": resource}


def header(scenario: dict[str, Any] | None = None, rules: list[str] | None = None) -> Event:
    return {
        "e": "battle_started",
        "header": {
            "rules_version": "fpf-1",
            "seed": 1,
            "scenario": {**SCENARIO, **(scenario or {})},
            "rules": [*CORE, *(rules or [])],
            "fleets": [fleet("charger", 2), fleet("bird-of-prey", 2)],
            "captains": ["scripted", "scripted"],
        },
    }


def placed(ship: str, cls: str, x: float, y: float, heading: int) -> Event:
    side = ship[0]
    return {
        "e": "ship_placed",
        "ship": ship,
        "cls": cls,
        "side": side,
        "squadron": f"{side}S1",
        "x": x,
        "y": y,
        "heading": heading,
    }


def volley(
    ship: str, target: str, weapon: str, strength: int, shields: int, rng: float, rolls: list[int]
) -> Event:
    return {
        "e": "volley_fired",
        "ship": ship,
        "target": target,
        "weapon": weapon,
        "shots": len(rolls),
        "strength": strength,
        "shields": shields,
        "range_cm": rng,
        "rolls": rolls,
    }


def hit(
    ship: str,
    target: str,
    weapon: str,
    roll: int,
    location: str,
    damage: int,
    applied: str,
    superstructure: int,
    value: int,
) -> Event:
    return {
        "e": "hit_scored",
        "ship": ship,
        "target": target,
        "weapon": weapon,
        "location_roll": roll,
        "location": location,
        "damage": damage,
        "applied_to": applied,
        "superstructure": superstructure,
        "value": value,
    }


def moved(ship: str, path: list[list[float]], heading: int, speed: int, dist: float) -> Event:
    return {
        "e": "ship_moved",
        "ship": ship,
        "path": path,
        "heading": heading,
        "speed": speed,
        "distance": dist,
    }


def declared(ship: str, target: str, arc: str, reaction: bool = False) -> Event:
    return {"e": "fire_declared", "ship": ship, "target": target, "arc": arc, "reaction": reaction}


def order(side: str, text: str) -> Event:
    return {"e": "order_given", "side": side, "order": text}


def activated(squadron: str, forced_by: str | None = None) -> Event:
    return {"e": "squadron_activated", "squadron": squadron, "forced_by": forced_by}


def base_log(scenario: dict[str, Any] | None = None, rules: list[str] | None = None) -> list[Event]:
    """The clean turn described in the module's docstring."""
    return [
        header(scenario, rules),
        placed("A1", "charger", 90.0, 20.0, 0),
        placed("A2", "charger", 90.0, 14.0, 0),
        placed("B1", "bird-of-prey", 90.0, 58.0, 3),
        placed("B2", "bird-of-prey", 90.0, 64.0, 3),
        {"e": "turn_started", "turn": 1},
        order("A", "FIRST"),
        {"e": "initiative_rolled", "speed": 20, "rolls": [[7, 3]], "winner": "A", "first": "A"},
        order("A", "ACT AS1"),
        activated("AS1"),
        order("B", "REACT BS1 HOLD"),
        order("A", "AS1 SPD 20 T0 T0 FIRE A1:F@B1 A2:F@B1"),
        declared("A1", "B1", "F"),
        declared("A2", "B1", "F"),
        # A1 at (90, 36), B1 at (90, 58): 22 cm; needs 12 - 4 = 8
        volley("A1", "B1", "phaser", 4, 12, 22.0, [1, 2, 3, 8, 9, 10]),
        hit("A1", "B1", "phaser", 2, "shields", 1, "shields", 5, 11),
        hit("A1", "B1", "phaser", 3, "shields", 1, "shields", 4, 10),
        hit("A1", "B1", "phaser", 8, "phasers", 1, "phasers", 3, 1),
        # A2 ends its move at (90, 34): 24 cm, the phasers' range; needs 10 - 4 = 6
        volley("A2", "B1", "phaser", 4, 10, 24.0, [1, 5, 6, 7, 2, 3]),
        hit("A2", "B1", "phaser", 1, "shields", 1, "shields", 2, 9),
        hit("A2", "B1", "phaser", 4, "shields", 1, "shields", 1, 8),
        moved("A1", [[90.0, 20.0], [90.0, 30.0], [90.0, 40.0]], 0, 20, 20.0),
        moved("A2", [[90.0, 14.0], [90.0, 34.0]], 0, 20, 20.0),
        order("B", "ACT BS1"),
        activated("BS1"),
        order("B", "BS1 SPD 20 T+1 T0 FIRE B1:F@A1 B2:F@A1"),
        declared("B1", "A1", "F"),
        declared("B2", "A1", "F"),
        # B1 at its start, still facing A1: 18 cm; needs 14 - 2 = 12
        volley("B1", "A1", "phaser", 2, 14, 18.0, [4]),
        moved("B1", [[90.0, 58.0], [98.66, 53.0], [107.321, 48.0]], 4, 20, 20.0),
        moved("B2", [[90.0, 64.0], [90.0, 58.0], [102.124, 51.0]], 4, 20, 20.0),
        {"e": "turn_ended", "turn": 1},
        {
            "e": "battle_ended",
            "winner": None,
            "reason": "turn limit, 0 points destroyed each",
            "turns": 1,
            "destroyed_value": {"A": 0, "B": 0},
        },
    ]


def at(events: list[Event], **match: Any) -> int:
    """The index of the first event with all these fields."""
    for i, e in enumerate(events):
        if all(e.get(k) == v for k, v in match.items()):
            return i
    raise LookupError(f"no event {match}")


def edited(events: list[Event], index: int, **changes: Any) -> list[Event]:
    """A copy with one event's fields changed."""
    out = copy.deepcopy(events)
    out[index].update(changes)
    return out


def inserted(events: list[Event], index: int, *new: Event) -> list[Event]:
    """A copy with events put in before `index`."""
    out = copy.deepcopy(events)
    out[index:index] = list(new)
    return out


def dropped(events: list[Event], *indices: int) -> list[Event]:
    """A copy without the events at these indices."""
    return [copy.deepcopy(e) for i, e in enumerate(events) if i not in indices]


def two_ship_header(
    a: str,
    b: str,
    scenario: dict[str, Any] | None = None,
    rules: list[str] | None = None,
    resource: str | None = None,
) -> Event:
    e = header(scenario, rules)
    e["header"]["fleets"] = [fleet(a, 1), fleet(b, 1, resource)]
    return e


def face_to_face(a: str, b: str, first: str, rolls: list[int]) -> list[Event]:
    """Turn 1 of a two-ship log up to its first volley: A1 (class `a`) at (90, 20) facing up,
    B1 (`b`) 12 cm ahead facing it; side `first` wins the roll-off at speed 20 (`rolls`: A's
    and B's d10s) and activates, the other side holds its reaction fire, and the first ship
    turns to port as it moves 20 cm and locks on the other through its forward arc."""
    other = "B" if first == "A" else "A"
    return [
        placed("A1", a, 90.0, 20.0, 0),
        placed("B1", b, 90.0, 32.0, 3),
        {"e": "turn_started", "turn": 1},
        {"e": "initiative_rolled", "speed": 20, "rolls": [rolls], "winner": first, "first": first},
        order(first, f"ACT {first}S1"),
        activated(f"{first}S1"),
        order(other, f"REACT {other}S1 HOLD"),
        order(first, f"{first}S1 SPD 20 T+1 T0 FIRE {first}1:F@{other}1"),
        declared(f"{first}1", f"{other}1", "F"),
    ]


#: `base_log`'s orders for squadron AS1.
AS1_ORDERS = "AS1 SPD 20 T0 T0 FIRE A1:F@B1 A2:F@B1"


def as1_orders(log: Log) -> int:
    """Where `base_log` gives squadron AS1 its orders."""
    return at(log, e="order_given", order=AS1_ORDERS)


def as1_ordered(log: Log, order: str) -> Log:
    """`base_log` with AS1 given `order` instead."""
    return edited(log, as1_orders(log), order=order)


def drift_log(turns: int = 1) -> list[Event]:
    """A K'T'Roika (B1) moves first and knocks out the Systems of a Charger (A1) with a photon
    torpedo; A1, out of control, drifts straight ahead at its speed (FPF-MOV-12). With
    turns=2, A1 repairs at the start of turn 2 (Systems -3 -> -1, engines back to 16), is still
    out of control and drifts again."""
    out = [
        two_ship_header("charger", "ktroika", {"turn_limit": turns}),
        *face_to_face("charger", "ktroika", "B", [2, 8]),
        # at B1's start, 12 cm: phasers (22 cm) first, then photons (14 cm)
        volley("B1", "A1", "phaser", 4, 14, 12.0, [1, 1, 1, 1, 1, 1]),
        volley("B1", "A1", "photon", 9, 14, 12.0, [10, 10]),
        hit("B1", "A1", "photon", 10, "computer", 6, "computer", 12, -3),
        hit("B1", "A1", "photon", 5, "engine_power", 3, "engine_power", 9, 13),
        {"e": "control_changed", "ship": "A1", "in_control": False},
        moved("B1", [[90.0, 32.0], [98.66, 27.0], [107.321, 22.0]], 4, 20, 20.0),
        order("A", "ACT AS1"),
        activated("AS1"),
        moved("A1", [[90.0, 20.0], [90.0, 40.0]], 0, 20, 20.0),
        {"e": "turn_ended", "turn": 1},
    ]
    if turns == 2:
        out += [
            {"e": "turn_started", "turn": 2},
            order("A", "REPAIR A1:computer A1:engine_power"),
            {"e": "repaired", "ship": "A1", "item": "computer", "value": -2},
            {"e": "repaired", "ship": "A1", "item": "engine_power", "value": 16},
            {"e": "initiative_rolled", "speed": 20, "rolls": [[5, 2]], "winner": "A", "first": "A"},
            order("A", "ACT AS1"),
            activated("AS1"),
            moved("A1", [[90.0, 40.0], [90.0, 60.0]], 0, 20, 20.0),
            order("B", "ACT BS1"),
            activated("BS1"),
            order("B", "BS1 SPD 20 T0 T0 HOLD"),
            moved("B1", [[107.321, 22.0], [115.981, 17.0], [124.641, 12.0]], 4, 20, 20.0),
            {"e": "turn_ended", "turn": 2},
        ]
    out.append(
        {
            "e": "battle_ended",
            "winner": None,
            "reason": "turn limit, 0 points destroyed each",
            "turns": turns,
            "destroyed_value": {"A": 0, "B": 0},
        }
    )
    return out


PEAK: dict[str, Any] = {
    "name": "peak-performance",
    "turn_limit": 2,
    "rules": ["battle-simulation"],
    "terrain": [{"kind": "planet", "x": 90.0, "y": 60.0, "radius_cm": 6.0}],
}


def kill_log(peak: bool = True, resource: str | None = None) -> list[Event]:
    """A K'T'Roika (A1) brings a Sting (B1) to 0 superstructure in its first move. In Peak
    Performance the Sting is reset (one token; A scores its 75 SP), returns at the start of
    turn 2 in B's zone with shields 15 - 1, both fly, and A adds 5 for the token at the end. With
    peak=False (and the derelicts option) it is left a derelict and the battle ends."""
    rules = ["battle-simulation"] if peak else ["derelicts"]
    out = [
        two_ship_header("ktroika", "sting", PEAK if peak else None, rules, resource),
        *face_to_face("ktroika", "sting", "A", [9, 1]),
        volley("A1", "B1", "phaser", 4, 15, 12.0, [10, 10, 10, 10, 10, 10]),
        *(
            hit("A1", "B1", "phaser", 1, "shields", 1, "shields", 13 - k, 15 - k)
            for k in range(1, 7)
        ),
        volley("A1", "B1", "photon", 9, 9, 12.0, [5, 6]),
        hit("A1", "B1", "photon", 2, "shields", 4, "shields", 3, 5),
        hit("A1", "B1", "photon", 5, "engine_power", 3, "engine_power", 0, 12),
    ]
    if peak:
        extra = [{"e": "ship_reset", "ship": "B1", "by": "A1", "tokens": 1}]
        extra.append(points("A", 75, "kill", "B1", 75))
        if resource:
            extra.append(points("A", 10, "resource", resource, 85))
        out += extra
    else:
        out.append({"e": "ship_destroyed", "ship": "B1", "by": "A1", "derelict": True})
    out += [
        moved("A1", [[90.0, 20.0], [81.34, 25.0], [72.679, 30.0]], 1, 20, 20.0),
        {"e": "turn_ended", "turn": 1},
    ]
    if not peak:
        out.append(
            {
                "e": "battle_ended",
                "winner": "A",
                "reason": "enemy fleet destroyed",
                "turns": 1,
                "destroyed_value": {"A": 0, "B": 75},
            }
        )
        return out
    total = 85 if resource else 75
    out += [
        {"e": "turn_started", "turn": 2},
        order("B", "RETURN B1 90.0 110.0 H3"),
        {"e": "ship_returned", "ship": "B1", "x": 90.0, "y": 110.0, "heading": 3, "shields": 14},
        {"e": "initiative_rolled", "speed": 20, "rolls": [[6, 4]], "winner": "A", "first": "A"},
        order("A", "ACT AS1"),
        activated("AS1"),
        order("B", "REACT BS1 HOLD"),
        order("A", "AS1 SPD 20 T-1 T0 HOLD"),
        moved("A1", [[72.679, 30.0], [72.679, 40.0], [72.679, 50.0]], 0, 20, 20.0),
        order("B", "ACT BS1"),
        activated("BS1"),
        order("B", "BS1 B1=SPD 20 T0 T0 HOLD"),
        moved("B1", [[90.0, 110.0], [90.0, 100.0], [90.0, 90.0]], 3, 20, 20.0),
        {"e": "turn_ended", "turn": 2},
        points("A", 5, "bonus", "", total + 5),
        {
            "e": "battle_ended",
            "winner": "A",
            "reason": f"Fleet Points A {total + 5} : B 0",
            "turns": 2,
            "destroyed_value": {"A": 0, "B": 0},
        },
    ]
    return out


def points(side: str, pts: int, reason: str, ship: str, total: int) -> Event:
    return {
        "e": "fleet_points_awarded",
        "side": side,
        "points": pts,
        "reason": reason,
        "ship": ship,
        "total": total,
    }


F = TypeVar("F", bound=Callable[..., Any])


class Falsifiers:
    """A parametrize table of log falsifiers, each entered where it is written, tagged with the
    clauses its falsified log breaks: `@TABLE.falsifies(pytest.mark.rule("FPF-DMG-03"))`. A row
    is (the mark's first clause, the falsifier, then `values`, or the table's `defaults`)."""

    def __init__(self, *defaults: object) -> None:
        self.defaults = defaults
        self.rows: list[ParameterSet] = []

    def falsifies(self, mark: MarkDecorator, *values: object) -> Callable[[F], F]:
        def enter(falsifier: F) -> F:
            row = (mark.args[0], falsifier, *(values or self.defaults))
            self.rows.append(pytest.param(*row, marks=mark))
            return falsifier

        return enter
