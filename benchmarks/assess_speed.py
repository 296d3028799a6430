"""Assessment throughput: battles per second with one worker, all workers and Ray.

Every figure is a whole sweep timed from the command's point of view (pool start-up included),
on the default combatants: the ten ship classes one against one, captains aggressive and kiting.
"""

from __future__ import annotations

import importlib.util
import logging
import time
from typing import Any

from kolrami.scenarios.models import load_scenario
from kolrami.sim.assess import Plan
from kolrami.sim.assess import class_combatants
from kolrami.sim.backends import default_workers
from kolrami.sim.backends import run_plan

#: Battles per matchup for the timed sweeps: 45 matchups, so 2250 battles a sweep.
BATTLES = 50


def _plan(battles: int) -> Plan:
    return Plan(tuple(class_combatants(None)), load_scenario("standard"), battles=battles)


def _rate(plan: Plan, backend: str, workers: int) -> tuple[float, float]:
    start = time.perf_counter()
    records, _ = run_plan(plan, backend=backend, workers=workers)
    seconds = time.perf_counter() - start
    return len(records) / seconds, seconds


def assess_figures() -> dict[str, Any]:
    """Battles per second by backend and workers, the speed-up, and the default sweep's time."""
    plan = _plan(BATTLES)
    workers = default_workers()
    one, _ = _rate(plan, "local", 1)
    many, _ = _rate(plan, "local", workers)
    out: dict[str, Any] = {
        "sweep_battles": plan.total,
        "workers": workers,
        "battles_per_second_1_worker": round(one, 1),
        f"battles_per_second_{workers}_workers": round(many, 1),
        "speedup": round(many / one, 2),
    }
    default = _plan(200)  # what `kolrami assess` plays with no options
    _, seconds = _rate(default, "local", workers)
    out["default_sweep_battles"] = default.total
    out["default_sweep_seconds"] = round(seconds, 1)
    if importlib.util.find_spec("ray") is None:
        out["ray"] = None
        return out
    import ray

    start = time.perf_counter()
    ray.init(
        num_cpus=workers,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    started = time.perf_counter() - start
    try:
        rate, _ = _rate(plan, "ray", workers)
    finally:
        ray.shutdown()
    out["ray"] = {"start_seconds": round(started, 1), "battles_per_second": round(rate, 1)}
    return out
