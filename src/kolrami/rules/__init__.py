"""The rules: FPF (rules/fpf/, one module per clause group), Peak Performance (peak.py), cards
(cards.py) and the advanced game (rules/advanced/), bound by the engine's binder.

`new_battle` builds a battle with the modules its scenario and any extra rules switch on; the
explicit list of modules is rules/registry.py.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from functools import lru_cache
from typing import Any

from kolrami.catalog import ShipPack
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle, Result
from kolrami.engine.binder import Game
from kolrami.engine.chance import Dice
from kolrami.engine.driver import play
from kolrami.engine.events import OrderGiven
from kolrami.engine.orders import Decision, Order
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet, parse_fleet
from kolrami.rules import registry
from kolrami.rules.fpf.initiative import resume_initiative
from kolrami.rules.fpf.orders import (
    InitiativeDecision,
    InitiativeOrder,
    OrdersDecision,
    ReactionDecision,
    ReactionOrder,
    RepairDecision,
    RepairOrder,
    ReturnDecision,
    ReturnOrder,
    SquadronOrder,
)
from kolrami.rules.fpf.repairs import SIDES, FpfRepairs, repairs_from
from kolrami.rules.module import Capability, Phase, RuleModule, Ruleset, rules_of
from kolrami.rules.peak import BattleSimulation, return_ship, returns
from kolrami.scenarios.models import Scenario

#: Bump whenever a change can alter a battle's outcome for the same inputs (GUIDE 3.10).
RULES_VERSION = "fpf-3"

__all__ = [
    "RULES_VERSION",
    "Capability",
    "fork",
    "new_battle",
    "rebuild",
    "resume",
    "scenario_capabilities",
]


def new_battle(
    scenario: Scenario,
    fleets: tuple[Fleet, Fleet],
    seed: int,
    captains: tuple[str, str] = ("", ""),
    pack: ShipPack | None = None,
    extra_rules: tuple[str, ...] = (),
) -> Battle:
    """A battle of `scenario` between two fleets, with the modules the scenario (and any extra
    rules) switch on, deployed and ready to play."""
    rules = _bound(tuple(registry.select(scenario, extra_rules)))
    return Battle(scenario, fleets, seed, rules, RULES_VERSION, captains, pack)


@lru_cache(maxsize=64)
def _bound(names: tuple[str, ...]) -> Ruleset:
    """The named modules bound, once for each list of names: rule modules keep no state of
    their own (a battle's is on the battle), so battles share them, as a battle and its clones
    do."""
    return registry.bind(names)


def fork(battle: Battle, dice: Dice) -> tuple[Battle, Game, Decision | None]:
    """The battle again, at the same decision, to play forward with `dice` (a search's own).

    A turn driver is a running generator, which cannot be copied; so a fork rebuilds the battle
    from its header and replays the orders logged so far (the same seed gives the same past),
    then hands its chance to `dice`. Returns the fork, its game (send it orders) and the decision
    it now waits on (None if the battle is over). The fork's log and the original's agree up to
    this point, byte for byte; what follows is the fork's alone.
    """
    header = battle.header
    scenario, fleets, captains, seed, extra = rebuild(header)
    twin = new_battle(scenario, fleets, seed, captains, battle.pack, extra)
    game = play(twin)
    orders = [e.order for e in battle.log if isinstance(e, OrderGiven)]
    try:
        decision: Decision | None = next(game)
        for text in orders:
            decision = game.send(registry.parse_order(text))
    except StopIteration:
        decision = None
    twin.dice = dice
    return twin, game, decision


def resume(
    battle: Battle,
    decision: InitiativeDecision
    | OrdersDecision
    | ReactionDecision
    | RepairDecision
    | ReturnDecision,
    order: InitiativeOrder | SquadronOrder | ReactionOrder | RepairOrder | ReturnOrder,
    turns: int = 1,
) -> Generator[Decision, Order, Result | None]:
    """Play a copy of an FPF battle on from a side's repairs (FPF-REP-02), a roll-off
    winner's choice of who moves first (FPF-MOV-03), an activated squadron's orders, an enemy
    squadron's reaction to it (FPF-FIRE-11) or a reset ship's return (Peak Performance,
    PP-11), for a search's
    rollouts: `battle` is a clone taken at `decision` (`Battle.clone`, `BattleView.sample`),
    `order` answers it. The game yields the decisions that follow and receives their orders (as
    `engine.driver.play` does) through the rest of this turn and `turns` turns more (FPF's
    turn, FPF-TURN-02); it returns the battle's result if it ended by then, else None (a
    horizon reached, the battle still on). FPF's turn only: the advanced game's decisions are
    none of these."""
    rules = rules_of(battle)
    if isinstance(decision, ReturnDecision):
        # the rest of the start of the turn: the other ships' returns, then the start-of-turn
        # steps of the modules bound after Peak Performance's; the turn's repairs and initiative
        return_ship(battle, decision, order)
        yield from returns(battle, after=decision.ship)
        for step in _after(rules.hooks(RuleModule.start_of_turn), BattleSimulation):
            yield from step(battle)
        yield from rules.run(Phase.REPAIRS, battle)
        yield from rules.run(Phase.INITIATIVE, battle)
        over = battle.over()
    elif isinstance(decision, RepairDecision):
        # the rest of the repairs: this side's, the sides after it, control regained; then
        # the repairs of the modules bound after FPF's (a card's reserve team), the initiative
        yield from repairs_from(battle, SIDES[SIDES.index(decision.side) + 1 :], (decision, order))
        for step in _after(rules.hooks(RuleModule.repairs), FpfRepairs):
            yield from step(battle)
        yield from rules.run(Phase.INITIATIVE, battle)
        over = battle.over()
    else:
        over = yield from resume_initiative(battle, decision, order)
    more = turns
    while True:
        yield from rules.run(Phase.END_OF_TURN, battle)
        battle.log.record(ev.TurnEnded, battle.turn)
        if over or battle.turn >= battle.scenario.turn_limit or battle.over():
            yield from rules.run(Phase.END_OF_BATTLE, battle)
            return battle.finish()
        if more <= 0:
            return None
        more -= 1
        battle.turn += 1
        battle.log.record(ev.TurnStarted, battle.turn)
        yield from rules.run(Phase.START_OF_TURN, battle)
        yield from rules.run(Phase.REPAIRS, battle)
        yield from rules.run(Phase.INITIATIVE, battle)
        over = battle.over()


def _after(
    steps: list[Callable[[Battle], Iterator[Decision]]], module: type[RuleModule]
) -> list[Callable[[Battle], Iterator[Decision]]]:
    """A phase's `steps` bound after the step of `module` (the one a rollout resumed in):
    the rest of the phase; none when no such module is bound."""
    owners = [getattr(step, "__self__", None) for step in steps]
    later = [i for i, owner in enumerate(owners) if isinstance(owner, module)]
    return list(steps[later[0] + 1 if later else len(steps) :])


def scenario_capabilities(
    scenario: Scenario, extra_rules: Iterable[str] = ()
) -> frozenset[Capability]:
    """What the rule modules a scenario (and any extra rules) switch on make its battles do."""
    return registry.capabilities_of(registry.select(scenario, extra_rules))


def rebuild(
    header: dict[str, Any],
) -> tuple[Scenario, tuple[Fleet, Fleet], tuple[str, str], int, tuple[str, ...]]:
    """Scenario, fleets, captains, seed and extra rules from a log's BattleStarted header."""
    try:
        scenario = Scenario.model_validate(header["scenario"])
        fleets = tuple(parse_fleet(f, "log header") for f in header["fleets"])
        captains = tuple(header["captains"])
        seed = int(header["seed"])
        rules = list(header["rules"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInputError(f"the log's header is incomplete or damaged: {exc}") from None
    if len(fleets) != 2 or len(captains) != 2:
        raise InvalidInputError("the log's header must name two fleets and two captains")
    implied = {*registry.select(scenario)}
    extra = tuple(r for r in rules if r not in implied)
    return scenario, (fleets[0], fleets[1]), (captains[0], captains[1]), seed, extra
