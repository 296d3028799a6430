"""A trained policy as a captain (kolrami.captains.policy) and the training example of
docs/research.md (docs/examples/linear_policy.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from kolrami.captains.macro import N_ACTIONS
from kolrami.captains.policy import policy_captain
from kolrami.captains.registry import make_captain
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "linear_policy.py"
FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")


def battle_log(captain_a: object, scenario: str = "standard") -> str:
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    sc = builtin_scenario(scenario).model_copy(update={"turn_limit": 2})
    battle = new_battle(sc, fleets, 6, ("aggressive", "aggressive"))
    b = make_captain("aggressive", captain_dice(6, "B"))
    run(battle, {"A": captain_a, "B": b})  # type: ignore[dict-item]
    return str(battle.log.sha256())


@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
def test_a_policy_of_the_first_offered_action_plays_as_the_aggressive_doctrine(
    scenario: str,
) -> None:
    first = policy_captain(lambda obs, mask: int(np.flatnonzero(mask)[0]), "first")
    aggressive = make_captain("aggressive", captain_dice(6, "A"))
    assert battle_log(first(captain_dice(6, "A")), scenario) == battle_log(aggressive, scenario)


def test_a_policy_choosing_an_action_not_offered_is_refused_in_one_line() -> None:
    bad = policy_captain(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]), "bad")
    with pytest.raises(InvalidInputError, match="not offered") as refused:
        battle_log(bad(captain_dice(6, "A")))
    assert "\n" not in str(refused.value)


def test_the_training_example_trains_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location("linear_policy_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    w = module.train(episodes=2)
    assert w.shape[1] == N_ACTIONS
    assert np.isfinite(w).all()
    monkeypatch.chdir(tmp_path)
    np.save(module.WEIGHTS, w)
    module.weights.cache_clear()
    battle_log(module.Linear(captain_dice(6, "A")))
