"""Search support: a battle's clone plays forward with its own dice (never the battle's future
rolls) and never touches the battle it came from."""

from __future__ import annotations

from dataclasses import fields

import pytest

from kolrami.captains.base import Captain
from kolrami.captains.registry import make_captain
from kolrami.catalog import Arc
from kolrami.catalog import WeaponKind
from kolrami.engine.battle import Battle
from kolrami.engine.battle import Lock
from kolrami.engine.battle import ShipState
from kolrami.engine.chance import Dice
from kolrami.engine.driver import apply
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import start
from kolrami.engine.orders import Decision
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules.advanced.state import KEY
from kolrami.rules.events import VolleyFired
from kolrami.rules.fpf.damage import apply_damage
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")
CAPTAINS = ("aggressive", "kiting")


def fresh(scenario: str = "standard", seed: int = 5) -> Battle:
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    return new_battle(builtin_scenario(scenario), fleets, seed, CAPTAINS)


def test_a_clone_is_its_own_battle() -> None:
    battle = fresh()
    rolls = battle.dice.rolls
    before = battle.log.sha256()
    twin = battle.clone(Dice(99))
    ship = twin.ships["B1"]
    apply_damage(twin, ship, 1, 6, Arc.F, twin.ships["A1"], "photon")
    twin.dice.d10()
    assert battle.ships["B1"].superstructure == battle.ships["B1"].cls.superstructure
    assert ship.superstructure < ship.cls.superstructure
    assert battle.dice.rolls == rolls  # the clone rolled its own dice
    assert battle.log.sha256() == before
    assert len(twin.log) > len(battle.log)
    assert twin.scenario is battle.scenario
    assert twin.ships["A1"].cls is battle.ships["A1"].cls


def drive_to(battle: Battle, decisions: int) -> tuple[Decision, dict[str, Captain]]:
    """Play `battle` with the captains up to its `decisions`-th decision (unanswered)."""
    captains = {
        s: make_captain(n, captain_dice(battle.seed, s))
        for s, n in zip("AB", CAPTAINS, strict=True)
    }
    views = {s: battle.rules.view(battle, s) for s in "AB"}
    decision = start(battle)
    for _ in range(decisions):
        assert decision is not None
        decision = apply(battle, captains[decision.side].decide(views[decision.side], decision))
    assert decision is not None
    return decision, captains


@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
def test_a_clone_played_on_with_its_own_dice_leaves_the_battle_as_it_would_have_been(
    scenario: str,
) -> None:
    reference = fresh(scenario)
    drive_to(reference, 30)
    battle = fresh(scenario)
    decision, captains = drive_to(battle, 30)
    twin = battle.clone(Dice(12345))
    assert twin.pending == decision
    views = {s: twin.rules.view(twin, s) for s in "AB"}
    at: Decision | None = decision
    while at is not None:  # the clone's future: its own rolls, to its end
        at = apply(twin, captains[at.side].decide(views[at.side], at))
    assert twin.result is not None
    assert battle.dice.getstate() == reference.dice.getstate()
    assert battle.log.sha256() == reference.log.sha256()
    assert battle.pending == reference.pending


def attributes(battle: Battle) -> dict[str, object]:
    """A battle's attributes by name: its instance dict in the pure-Python build; a compiled
    Battle has none, and names its attributes in `__mypyc_attrs__`."""
    names: tuple[str, ...] | None = getattr(battle, "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(battle))
    return {n: getattr(battle, n) for n in names if hasattr(battle, n)}


def test_a_clone_shares_no_mutable_state() -> None:
    battle = fresh("peak-performance")
    drive_to(battle, 25)
    twin = battle.clone(Dice(3))
    found = attributes(battle)
    assert len(found) > 20  # (every attribute is looked at)
    assert "ships" in found
    for name, value in found.items():
        if isinstance(value, (list, dict, set)) and name != "header":
            assert getattr(twin, name) is not value, name
    for sid, ship in battle.ships.items():
        copy = twin.ships[sid]
        assert copy is not ship
        assert copy.mounts is not ship.mounts  # (the mounts in it are tuples: shared)
        assert copy.cards is not ship.cards


def test_an_advanced_clone_sees_through_its_own_state() -> None:
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    battle = new_battle(
        builtin_scenario("advanced"), fleets, 2, CAPTAINS, extra_rules=("adv-cloak",)
    )
    drive_to(battle, 20)
    twin = battle.clone(Dice(4))
    assert battle.sight is not None
    assert twin.sight is not None
    state, copied = battle.extensions[KEY], twin.extensions[KEY]
    assert copied is not state
    assert twin.sight.__self__ is copied  # type: ignore[attr-defined]
    assert all(copied.ships[s].ship is twin.ships[s] for s in twin.ships)


def test_a_ship_s_copy_has_every_field_and_its_own_containers() -> None:
    battle = fresh()
    ship = battle.ships["A1"]
    # every field away from its default, so that one left out of the copy shows
    ship.destroyed = True
    ship.tokens, ship.evasion, ship.detached, ship.fired, ship.moved = 2, 1, True, True, True
    ship.in_control = False
    ship.cards.append("card")
    ship.lock = Lock("B1", Arc.F, [WeaponKind.PHASER], "B")
    other = ship.copy()
    for f in fields(ShipState):
        if f.name != "lock":  # (a Lock compares by identity)
            assert getattr(other, f.name) == getattr(ship, f.name), f.name
    assert not other.alive
    assert not other.on_table
    for name in ("mounts", "cards", "strength", "ranges", "lock"):
        assert getattr(other, name) is not getattr(ship, name), name
    assert other.lock is not None
    assert ship.lock is not None
    assert other.lock.pending is not ship.lock.pending
    assert [getattr(other.lock, f.name) for f in fields(Lock)] == ["B1", Arc.F, ["phaser"], "B"]


def test_a_search_reads_a_rollouts_volleys_without_building_them() -> None:
    """`EventLog.fields_since` gives the fields `since` would, in the order asked."""
    battle = simulate(
        builtin_scenario("standard"), (load_fleet(FLEETS[0]), load_fleet(FLEETS[1])), CAPTAINS, 3
    )
    start = len(battle.log) // 2
    built = [(v.rolls, v.target, v.shots) for v in battle.log.since(start, VolleyFired)]
    read = list(battle.log.fields_since(start, VolleyFired, "rolls", "target", "shots"))
    assert built
    assert read == built
    assert list(battle.log.fields_since(len(battle.log), VolleyFired, "target")) == []
