"""Ray plays the same battles as local processes: a local Ray instance, skipped without Ray."""

from __future__ import annotations

import pytest

from kolrami.scenarios.models import load_scenario
from kolrami.sim.assess import Plan
from kolrami.sim.assess import class_combatants
from kolrami.sim.assess import summarise
from kolrami.sim.backends import run_plan


@pytest.mark.slow
def test_ray_and_processes_give_identical_results(sample: int) -> None:
    ray = pytest.importorskip("ray")
    plan = Plan(
        tuple(class_combatants(["defender", "charger", "drakonath"])),
        load_scenario("standard"),
        captains=("aggressive", "kiting"),
        battles=4 * sample,
        seed=5,
    )
    local, _ = run_plan(plan, workers=2)
    try:
        on_ray, _ = run_plan(plan, backend="ray", workers=2)
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert on_ray == local
    assert summarise(plan, on_ray).to_json() == summarise(plan, local).to_json()
