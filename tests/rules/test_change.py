"""`Battle.change`: a change given as its field values does to the battle and its log exactly
what recording the built event does (`Battle.record`), for the kinds that make themselves
straight from their values (rules/events.py, `apply_values`)."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.fleet import load_fleet
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario


def battle() -> Battle:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    return new_battle(builtin_scenario("standard"), fleets, 1)


def numbers(b: Battle) -> list[tuple[Any, ...]]:
    return [
        (
            s.superstructure,
            s.shields,
            s.engine_power,
            s.systems,
            dict(s.mounts),
            s.max_shields,
            s.evasion,
            dict(s.strength),
            dict(s.ranges),
        )
        for s in b.all_ships
    ]


CHANGES: list[tuple[type[ev.Change[Battle]], tuple[Any, ...]]] = [
    (ev.HitScored, ("B1", "A1", "photon", 3, "shields", 4, "shields", 10, 2, None)),
    (ev.HitScored, ("B1", "A1", "phaser", 5, "engine_power", 1, "engine_power", 9, 3, None)),
    (ev.HitScored, ("B1", "A1", "phaser", 7, "computer", 1, "computer", 8, 1, None)),
    (ev.HitScored, ("B1", "A1", "phaser", 9, "phasers", 1, "phasers", 7, 1, [1, 0])),
    (ev.HitScored, ("B1", "A1", "phaser", 2, "hull", 1, "superstructure", 6, 6, None)),
    (ev.Repaired, ("A1", "shields", 4)),
    (ev.Repaired, ("A1", "phasers.1", 1)),
    (ev.CardUsed, ("x", "A1", "A2", "shields 9", {"shields": 9, "max_shields": 9})),
    (ev.CardUsed, ("x", "A1", "A2", "phasers", {"strength:phaser": 5, "range:phaser": 30})),
    (ev.CardUsed, ("x", "A1", "A2", "re-rolled a 2: 7", {})),
]


@pytest.mark.parametrize(("kind", "values"), CHANGES)
def test_a_change_from_its_values_is_the_recorded_event(
    kind: type[ev.Change[Battle]], values: tuple[Any, ...]
) -> None:
    by_values, by_event = battle(), battle()
    by_values.change(kind, *values)
    by_event.record(kind(*values))
    assert numbers(by_values) == numbers(by_event)
    # (every kind here changes a number, but a re-roll's card use)
    assert (numbers(by_values) != numbers(battle())) == (values[-1] != {})
    assert by_values.log.jsonl() == by_event.log.jsonl()
    # and the event, built from the log, applies the same to a copy of the battle before it
    again = battle().clone(Dice(0))
    [*_, last] = by_values.events()
    assert isinstance(last, kind)
    last.apply(again)
    assert numbers(again) == numbers(by_values)
