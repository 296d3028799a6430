"""`learned` (kolrami.captains.learned, by module path while it is below the issue's bar): the
shipped network plays whole battles with numpy alone, the same battle for the same seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from kolrami.captains import learned
from kolrami.captains.registry import make_captain
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")
LEARNED = "kolrami.captains.learned:LearnedCaptain"


def battle(scenario: str, seed: int) -> tuple[str, object]:
    fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
    sc = builtin_scenario(scenario).model_copy(update={"turn_limit": 2})
    b = new_battle(sc, fleets, seed, (LEARNED, "aggressive"))
    captains = {
        "A": make_captain(LEARNED, captain_dice(seed, "A")),
        "B": make_captain("aggressive", captain_dice(seed, "B")),
    }
    result = run(b, captains)
    return str(b.log.sha256()), result


@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
def test_learned_plays_a_whole_battle_the_same_for_the_same_seed(scenario: str) -> None:
    first, result = battle(scenario, 4)
    assert result is not None
    assert battle(scenario, 4)[0] == first


def test_its_weights_ship_small_and_it_needs_numpy_alone() -> None:
    with learned.WEIGHTS.open("rb") as f:
        assert len(f.read()) < 5 * 1024 * 1024
    source = Path(learned.__file__ or "")
    text = source.read_text(encoding="utf-8") if source.suffix == ".py" else ""
    assert "import torch" not in text
