"""Frozen per-side views: a captain reads snapshots and can change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kolrami.captains.base import Captain
from kolrami.captains.registry import make_captain
from kolrami.catalog import WeaponKind
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.driver import apply
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.engine.driver import start
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.fpf.view import BattleView
from kolrami.rules.registry import parse_order
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


def future_d10s(dice: Dice, n: int) -> list[int]:
    """The next `n` d10s `dice` will roll, read off a copy of its generator's state (the test's
    own look: `dice` itself rolls nothing)."""
    rng = random.Random()
    rng.setstate(dice._generator().getstate())
    probe = Dice(0)
    probe._rng, probe._bits = rng, rng.getrandbits
    return [probe.d10() for _ in range(n)]


def reachable(holder: object) -> list[object]:
    """Every attribute of `holder`, private ones included, whether the class is plain Python
    (slots or a dict) or compiled (no `__slots__` or `__dict__` to list: `dir` names them)."""
    names = set(getattr(type(holder), "__slots__", ())) | set(getattr(holder, "__dict__", {}))
    names |= {n for n in dir(holder) if not (n.startswith("__") and n.endswith("__"))}
    found = []
    for name in sorted(names):
        try:
            found.append(getattr(holder, name))
        except Exception:  # a property that cannot answer on a copy
            continue
    return found


class Foreteller:
    """The rebuild-and-replay attack (issue 46): at every decision it takes a sample of the
    battle (`view.sample`), rebuilds a battle from the sample's header (or its seed), replays the
    sample's logged orders on it, and reads the rebuilt battle's next dice as its forecast of the
    real battle's. It also reads whatever private attributes of the sample and its ships it can
    reach. Then it gives the orders an honest captain would."""

    name = "foreteller"

    def __init__(self, honest: Captain, real: list[Battle]) -> None:
        self.honest = honest
        self.real = real  # the test's own hold on the battle, to score the forecasts: never read
        self.rebuilt = 0
        self.forecasts: list[tuple[list[int], list[int]]] = []
        self.reached: list[object] = []

    def decide(self, view: BattleView, decision: Decision) -> Order:
        copy = view.sample(Dice(7))
        header = next(iter(copy.events()))
        assert isinstance(header, ev.BattleStarted)
        forecast = self._forecast(copy, header.header)
        self.forecasts.append((forecast, future_d10s(self.real[0].dice, len(forecast))))
        # private attributes through the copy: anything that is the battle's own
        for holder in (copy, *copy.ships.values(), copy.log):
            self.reached += reachable(holder)
        self.reached += [getattr(copy, "_battle", None), getattr(copy.log, "_battle", None)]
        return self.honest.decide(view, decision)

    def _forecast(self, copy: Battle, header: dict[str, Any]) -> list[int]:
        scenario, fleets, captains, seed, extra = rebuild(header)
        assert seed == copy.seed  # the sample's seed and header agree: both are the copy's
        battle = new_battle(scenario, fleets, seed, captains, extra_rules=extra)
        orders = [e for e in copy.events() if isinstance(e, ev.OrderGiven)]
        pending = start(battle)
        for given in orders:
            if pending is None:
                break
            try:
                apply(battle, parse_order(given.order))
            except IllegalOrderError:
                break  # the rebuilt battle went another way: its dice are the best guess left
            pending = battle.pending
        self.rebuilt += 1
        return [battle.dice.d10() for _ in range(8)]


@pytest.mark.rule("OP-24")
def test_a_captain_cannot_foretell_the_dice_from_a_sample_of_the_battle() -> None:
    """GUIDE 3.6: a sample of the battle (`view.sample`) carries no seed, header or generator
    from which the battle's future rolls follow. Rebuilt from the sample's header with its orders
    replayed, a battle rolls dice that match the real battle's next ones no more often than
    chance (1 in 10 for a d10), where before the copy's header named the battle's own seed and
    the forecasts all came true."""
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    real: list[Battle] = []
    battle = new_battle(builtin_scenario("standard"), fleets, 911, ("aggressive", "aggressive"))
    real.append(battle)
    honest = {s: make_captain("aggressive", captain_dice(911, s)) for s in ("A", "B")}
    foreteller = Foreteller(honest["A"], real)
    run(battle, {"A": foreteller, "B": honest["B"]})
    assert foreteller.rebuilt >= 20  # the attack played: every rebuild replayed its orders
    pairs = [
        pair
        for forecast, truth in foreteller.forecasts
        for pair in zip(forecast, truth, strict=True)
    ]
    hits = sum(p == t for p, t in pairs)
    # chance gives 1 in 10; 2 in 10 lies many standard deviations above it for these counts
    assert len(pairs) >= 160
    assert hits < 0.2 * len(pairs), f"{hits} of {len(pairs)} forecast dice came true"
    # nothing reached through the copy is the battle, its dice, its log or its header
    own = {id(battle), id(battle.dice), id(battle.log), id(battle.header)}
    assert not [x for x in foreteller.reached if id(x) in own]
    assert battle.seed not in [x for x in foreteller.reached if isinstance(x, int)]
    # the fair battle is the one played: the attack changed nothing
    fair = new_battle(builtin_scenario("standard"), fleets, 911, ("aggressive", "aggressive"))
    run(fair, {s: make_captain("aggressive", captain_dice(911, s)) for s in ("A", "B")})
    assert fair.log.sha256() == battle.log.sha256()
