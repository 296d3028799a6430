"""The replay shows the battle's hull for every ship: its state, built from the log's facts
alone, agrees with the battle's at decisions spread over 60 advanced battles (random captains,
so evasions, hull bonuses and terrain all come up)."""

from __future__ import annotations

import pytest

from kolrami import rules
from kolrami.captains.registry import make_captain
from kolrami.engine.driver import captain_dice
from kolrami.fleet import load_fleet
from kolrami.report.replay import replay_data
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

SCENARIOS = ("advanced", "nebula-ambush", "minefield", "web-trap", "boarding-action", "black-hole")
FLEETS = {
    "web-trap": ("tholian-weavers", "federation-cruisers"),
    "boarding-action": ("gorn-hunters", "klingon-wolfpack"),
}


@pytest.mark.rule("ADV-EVA-01", "ADV-OFF-03")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_replay_shows_the_battles_hull_at_every_checked_decision(scenario: str) -> None:
    a, b = FLEETS.get(scenario, ("federation-cruisers", "klingon-wolfpack"))
    fleets = (load_fleet(f"presets:{a}"), load_fleet(f"presets:{b}"))
    checked = 0
    for seed in range(10):  # 6 scenarios x 10 seeds: 60 battles
        battle = new_battle(builtin_scenario(scenario), fleets, seed, ("random", "random"))
        captains = {s: make_captain("random", captain_dice(seed, s)) for s in "AB"}
        views = {s: battle.rules.view(battle, s) for s in "AB"}
        decisions = 0
        decision = rules.start(battle)
        while True:
            if decision is None or decisions % 37 == 11:
                shown = replay_data(battle.events())["steps"][-1]["state"]
                hulls = [st[3] for st in shown]
                real = [s.superstructure for s in battle.ships.values()]
                assert hulls == real, f"{scenario} seed {seed}, decision {decisions}"
                checked += 1
            if decision is None:
                break
            order = captains[decision.side].decide(views[decision.side], decision)
            decision = rules.apply(battle, order)
            decisions += 1
    assert checked >= 30
