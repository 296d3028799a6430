"""The one rule binder: hooks run in module order, the last module deciding a
policy wins, and two optional modules that change one policy are refused, naming both."""

from __future__ import annotations

import pytest

from kolrami.engine.binder import Module
from kolrami.engine.binder import Rules
from kolrami.engine.binder import RulesConflictError
from kolrami.engine.binder import hook
from kolrami.engine.binder import policy
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario


class ToyGame(Module[object]):
    """A tiny game's base class, to show the kernel knows no game of its own."""

    @hook
    def on_start(self, log: list[str]) -> None:
        """Every module's start."""

    @policy
    def score(self, hits: int) -> int:
        """Points for `hits`."""
        raise NotImplementedError


class Base(ToyGame):
    name = "toy"
    base = True

    def on_start(self, log: list[str]) -> None:
        log.append("base")

    def score(self, hits: int) -> int:
        return hits


class Double(ToyGame):
    name = "double"

    def score(self, hits: int) -> int:
        return 2 * hits


class Triple(ToyGame):
    name = "triple"

    def on_start(self, log: list[str]) -> None:
        log.append("triple")

    def score(self, hits: int) -> int:
        return 3 * hits


def test_hooks_run_in_module_order_and_the_last_policy_wins() -> None:
    rules = Rules([Base(), Triple()])
    log: list[str] = []
    for fn in rules.hooks(ToyGame.on_start):
        fn(log)
    assert log == ["base", "triple"]
    assert rules.policy(ToyGame.score)(4) == 12
    owner = rules.provider(ToyGame.score)
    assert owner is not None
    assert owner.name == "triple"


def test_two_optional_modules_changing_one_policy_are_refused_by_name() -> None:
    with pytest.raises(RulesConflictError, match="'double' and 'triple' both change how 'score'"):
        Rules([Base(), Double(), Triple()])


def test_a_policy_nobody_provides_says_so_when_asked() -> None:
    rules = Rules([Double.__new__(Double)])
    assert rules.policy(ToyGame.score)(1) == 2
    empty = Rules([])
    with pytest.raises(RulesConflictError, match="provides 'score'"):
        empty.policy(ToyGame.score)(1)


def test_peak_performance_and_derelicts_cannot_both_decide_destruction() -> None:
    fleets = (load_fleet("presets:klingon-strike"), load_fleet("presets:klingon-strike"))
    scenario = builtin_scenario("peak-performance")
    with pytest.raises(RulesConflictError, match="'battle-simulation' and 'derelicts'"):
        new_battle(scenario, fleets, 1, extra_rules=("derelicts",))


class WithDefault(Module[object]):
    """A game whose policy's declaration is its default."""

    @policy
    def bonus(self, hits: int) -> int:
        """Extra points for `hits`: none unless an option says so."""
        return 0


class Plain(WithDefault):
    name = "plain"
    base = True


class Lucky(WithDefault):
    name = "lucky"

    def bonus(self, hits: int) -> int:
        return hits


def test_a_declaration_is_the_default_and_every_policy_is_an_attribute() -> None:
    plain = Rules([Plain()])
    assert plain.policy(WithDefault.bonus)(5) == 0
    assert plain.provider(WithDefault.bonus) is None  # no module decides: the declaration does
    lucky = Rules([Plain(), Lucky()])
    assert lucky.policy(WithDefault.bonus)(5) == 5
    assert getattr(lucky, "bonus") is lucky.policy(WithDefault.bonus)  # noqa: B009
    owner = lucky.provider(WithDefault.bonus)
    assert owner is not None
    assert owner.name == "lucky"


class Clashing(Module[object]):
    @policy
    def hooks(self) -> int:
        """A policy named like one of the bound rules' own methods."""
        return 0


def test_a_policy_that_would_hide_the_rules_own_attribute_is_refused() -> None:
    with pytest.raises(RulesConflictError, match="policy 'hooks' would hide"):
        Rules([Clashing()])
