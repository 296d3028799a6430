"""The FPF turn driver and the battle runner.

`play(battle)` is a generator: it yields each Decision the rules need and receives the Order
that answers it, so the same battle can be driven by AI captains (`run`), a human at a prompt,
a web page, or an RL loop one step at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING, Any

from kolrami.engine import events as ev
from kolrami.engine.battle import Battle, Result
from kolrami.engine.chance import Dice, derive_seed
from kolrami.engine.orders import Decision, Order
from kolrami.errors import InvalidInputError, UnknownNameError
from kolrami.fleet.model import Fleet
from kolrami.rules.registry import Phase
from kolrami.scenarios.models import Scenario

if TYPE_CHECKING:
    from kolrami.captains.base import Captain

Game = Generator[Decision, Order, Result]
#: A turn driver: plays a battle's turns, yielding decisions; returns the result.
Driver = Callable[[Battle], Game]
#: Turn drivers by name: FPF's ("fpf", below) and any a rule set registers (the advanced game's).
DRIVERS: dict[str, Driver] = {}


def register_driver(name: str, driver: Driver) -> None:
    """Make a turn driver available to scenarios (`driver = "name"`) and rule modules."""
    known = DRIVERS.get(name)
    if known is not None and known is not driver:
        raise ValueError(f"two turn drivers are called '{name}'")
    DRIVERS[name] = driver


def driver_of(battle: Battle) -> Driver:
    """The battle's turn driver: the one its rule modules need, else its scenario's."""
    wanted = sorted({m.driver for m in battle.rules.modules if m.driver})
    if len(wanted) > 1:
        raise InvalidInputError(
            f"rule modules need different turn drivers ({', '.join(wanted)}); switch on modules "
            "of one game"
        )
    name = wanted[0] if wanted else battle.scenario.driver
    driver = DRIVERS.get(name)
    if driver is None:
        import difflib

        close = difflib.get_close_matches(name, list(DRIVERS), n=1)
        raise UnknownNameError("turn driver", name, close[0] if close else None, sorted(DRIVERS))
    return driver


def play(battle: Battle) -> Game:
    """Play `battle` to its end, logging every order it receives (OrderGiven)."""
    turns = driver_of(battle)(battle)
    try:
        decision = next(turns)
        while True:
            order = yield decision
            battle.log.record(ev.OrderGiven, decision.side, order)  # text made on demand
            decision = turns.send(order)
    except StopIteration as stop:
        result: Result = stop.value
        return result


def _turns(battle: Battle) -> Game:
    """Start, then turns of repairs and initiative until the end (FPF-TURN-02)."""
    rules = battle.rules
    yield from rules.run(Phase.START_OF_BATTLE, battle)
    while battle.turn < battle.scenario.turn_limit and not battle.over():
        battle.turn += 1
        battle.log.record(ev.TurnStarted, battle.turn)
        yield from rules.run(Phase.START_OF_TURN, battle)
        yield from rules.run(Phase.REPAIRS, battle)
        yield from rules.run(Phase.INITIATIVE, battle)
        yield from rules.run(Phase.END_OF_TURN, battle)
        battle.log.record(ev.TurnEnded, battle.turn)
    yield from rules.run(Phase.END_OF_BATTLE, battle)
    return battle.finish()


register_driver("fpf", _turns)


def run(battle: Battle, captains: Mapping[str, Captain]) -> Result:
    """Play a battle with one captain per side and return the result."""
    from kolrami.captains.base import BattleView

    views = {side: BattleView(battle, side) for side in ("A", "B")}
    game = play(battle)
    try:
        decision = next(game)
        while True:
            order = captains[decision.side].decide(views[decision.side], decision)
            decision = game.send(order)
    except StopIteration as stop:
        result: Result = stop.value
        return result


def captain_dice(seed: int, side: str) -> Dice:
    """Each captain's own generator: derived from the battle seed, never the battle's dice."""
    return Dice(derive_seed(seed, "captain", side))


def simulate(
    scenario: Scenario,
    fleets: tuple[Fleet, Fleet],
    captains: tuple[str, str],
    seed: int,
    extra_rules: tuple[str, ...] = (),
) -> Battle:
    """Build and play a battle between two named captains; returns the finished battle."""
    from kolrami.captains.base import make_captain

    battle = Battle(scenario, fleets, seed, captains, extra_rules=extra_rules)
    players = {
        side: make_captain(name, captain_dice(seed, side))
        for side, name in zip(("A", "B"), captains, strict=True)
    }
    run(battle, players)
    return battle


def rebuild(
    header: dict[str, Any],
) -> tuple[Scenario, tuple[Fleet, Fleet], tuple[str, str], int, tuple[str, ...]]:
    """Scenario, fleets, captains, seed and extra rules from a log's BattleStarted header."""
    from kolrami.fleet.model import parse_fleet
    from kolrami.rules import fpf

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
    implied = {*fpf.CORE_MODULES, *fpf.mode_modules(scenario), *scenario.rules}
    extra = tuple(r for r in rules if r not in implied)
    return scenario, (fleets[0], fleets[1]), (captains[0], captains[1]), seed, extra
