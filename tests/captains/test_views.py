"""Frozen per-side views: a captain reads snapshots and can change nothing."""

from __future__ import annotations

import pytest

from kolrami.captains.base import Captain
from kolrami.captains.registry import make_captain
from kolrami.catalog import WeaponKind
from kolrami.engine import events as ev
from kolrami.engine.driver import captain_dice, run
from kolrami.engine.orders import Decision, Order
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.fpf.view import BattleView
from kolrami.scenarios.models import builtin_scenario

FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")


class Cheater:
    """Tries to strip the enemy's shields and weapons and to heal its own ships through its
    view at every decision, then gives the orders an honest captain would."""

    name = "cheater"

    def __init__(self, honest: Captain) -> None:
        self.honest = honest
        self.refused = 0

    def decide(self, view: BattleView, decision: Decision) -> Order:
        for enemy in view.enemies():
            try:
                enemy.shields = 0
            except AttributeError:
                self.refused += 1
            try:
                enemy.mounts[WeaponKind.PHASER][0] = 0  # type: ignore[index]
            except TypeError:
                self.refused += 1
            try:
                enemy.strength[WeaponKind.PHASER] = 0
            except TypeError:
                self.refused += 1
        for own in view.own_ships():
            enemy_squadron = view.squadron(own.squadron)
            try:
                own.cards.append("?")  # type: ignore[attr-defined]
            except AttributeError:
                self.refused += 1
            try:
                enemy_squadron.formation.clear()  # type: ignore[attr-defined]
            except AttributeError:
                self.refused += 1
        return self.honest.decide(view, decision)


def battle_log(cheat: bool) -> tuple[str, int]:
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    battle = new_battle(builtin_scenario("standard"), fleets, 11, ("aggressive", "aggressive"))
    honest = {s: make_captain("aggressive", captain_dice(11, s)) for s in ("A", "B")}
    cheater = Cheater(honest["A"])
    run(battle, {"A": cheater if cheat else honest["A"], "B": honest["B"]})
    return battle.log.sha256(), cheater.refused


def test_a_captain_cannot_change_the_battle_through_its_view() -> None:
    fair, _ = battle_log(cheat=False)
    cheated, refused = battle_log(cheat=True)
    assert refused > 0  # every attempt was refused ...
    assert cheated == fair  # ... and the battle is the one an honest captain plays


def test_a_snapshot_is_taken_at_the_decision_and_kept_apart_from_the_battle() -> None:
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    battle = new_battle(builtin_scenario("standard"), fleets, 2)
    view = BattleView(battle, "A")
    seen = view.ship("B1")
    with pytest.raises(AttributeError):
        seen.shields = 0
    battle.ships["B1"].shields -= 3  # the battle goes on: a change, with its event
    battle.record(ev.ControlChanged("B1", True))
    assert seen.shields == battle.ships["B1"].cls.shields  # the old snapshot stands
    assert view.ship("B1").shields == battle.ships["B1"].cls.shields - 3  # a new one is taken
