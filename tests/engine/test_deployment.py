"""Deployment (Battle._deploy): worked out once for a scenario, its fleets and pack, placed by
every battle; each battle's ships are its own."""

from __future__ import annotations

from kolrami.catalog import WeaponKind
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")


def test_battles_of_one_deployment_share_no_mutable_state() -> None:
    scenario = builtin_scenario("standard")
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    first = new_battle(scenario, fleets, 1)
    for ship in first.ships.values():  # a battle that went badly for everyone
        ship.mounts[WeaponKind.PHASER] = ()
        ship.strength[WeaponKind.PHASER] = 0
        ship.ranges[WeaponKind.PHASER] = 0
        ship.cards.append("?")
        ship.x = -1.0
    for squadron in first.squadrons.values():
        squadron.trail.extend(0.0, 0.0, 1)
        squadron.offsets.clear()
    second = new_battle(scenario, fleets, 2)
    fresh = new_battle(
        builtin_scenario("standard"), (load_fleet(FLEETS[0]), load_fleet(FLEETS[1])), 2
    )
    assert second.log.jsonl() == fresh.log.jsonl()  # placed as a battle of new objects is
    for sid, ship in second.ships.items():
        other = fresh.ships[sid]
        assert ship.mounts == other.mounts
        assert ship.mounts is not first.ships[sid].mounts
        assert ship.strength == other.strength
        assert ship.ranges == other.ranges
        assert ship.cards == other.cards
        assert ship.x == other.x
    for qid, squadron in second.squadrons.items():
        assert squadron.trail.points == fresh.squadrons[qid].trail.points
        assert squadron.offsets == fresh.squadrons[qid].offsets
