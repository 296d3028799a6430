"""The rules: FPF (rules/fpf/, one module per clause group), Peak Performance (peak.py), cards
(cards.py) and the advanced game (rules/advanced/), bound by the engine's binder.

`new_battle` builds a battle with the modules its scenario and any extra rules switch on; the
explicit list of modules is rules/registry.py. Every game's turn is a state machine on the
battle (kolrami.engine.driver): `start(battle)` runs to its first decision, `apply(battle,
order)` answers the pending one and runs to the next, `verify` and `can` check an order against
it with the rules' own checks; `battle.clone(dice)` then `apply` is the one way to look ahead.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from kolrami.catalog import ShipPack
from kolrami.engine.battle import Battle
from kolrami.engine.driver import apply
from kolrami.engine.driver import can
from kolrami.engine.driver import start
from kolrami.engine.driver import verify
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import parse_fleet
from kolrami.rules import registry
from kolrami.rules.module import Capability
from kolrami.rules.module import Ruleset
from kolrami.scenarios.models import Scenario

#: Bump whenever a change can alter a battle's outcome for the same inputs.
RULES_VERSION = "fpf-5"

__all__ = [
    "RULES_VERSION",
    "Capability",
    "apply",
    "can",
    "new_battle",
    "rebuild",
    "scenario_capabilities",
    "start",
    "verify",
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
