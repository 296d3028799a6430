"""Captain strength and the searching captain's speed (issue 21), for `make bench`.

`captains`: the score of one captain against another with its 95% Wilson interval, mirror
battles of every FPF preset fleet with its cards, both FPF scenarios, sides swapped
(scripts/captain_strength.py, which measures any pairing with more battles). The admiral's rows
play BENCH_ADMIRAL_BATTLES battles each (the issue's 400; KOLRAMI_BENCH_ADMIRAL_BATTLES=N plays
fewer, for a quick look) at budget BENCH_BUDGET, on every core; the doctrines' rows play
DOCTRINE_BATTLES each. The admiral is deterministic for its seeds: its rows are the same
battles, and the same scores, as `captain_strength.py admiral aggressive --battles 400`.

`search_battle`: admiral battles per second on the standard benchmark battle (cruisers against
the wolfpack, the `battle` key's) against aggressive, and its time over a doctrine battle's;
`peak_performance`: the same fleets in Peak Performance at the default budget, where the admiral
also searches returns and reactions and every battle lasts its twelve turns.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from scripts.captain_strength import measure
from scripts.captain_strength import register_variants

from kolrami.fleet import load_fleet
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

#: The admiral's budget (rollouts a decision) and battles a pairing in the bench.
BENCH_BUDGET = 64  # the admiral's default (admiral.BUDGET)
BENCH_ADMIRAL_BATTLES_ENV = "KOLRAMI_BENCH_ADMIRAL_BATTLES"


def _admiral_battles() -> int:
    """The admiral rows' battles: the issue's 400, or KOLRAMI_BENCH_ADMIRAL_BATTLES."""
    text = os.environ.get(BENCH_ADMIRAL_BATTLES_ENV, "400")
    if not text.isdigit() or int(text) < 1:
        print(
            f"{BENCH_ADMIRAL_BATTLES_ENV}={text!r}: the admiral rows' battles must be a whole "
            f"number of at least 1 (e.g. {BENCH_ADMIRAL_BATTLES_ENV}=40)",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return int(text)


BENCH_ADMIRAL_BATTLES = _admiral_battles()
#: Battles a pairing of doctrines (cheap: some milliseconds each).
DOCTRINE_BATTLES = 200
#: Admiral battles timed for `search_battle`, and its budgets.
SEARCH_BATTLES = 3
SEARCH_BUDGETS = (32, 64)


def _row(
    first: str, second: str, battles: int, stats: bool = False, workers: int = 1
) -> dict[str, Any]:
    got = measure(first, second, battles, workers, stats)
    row = {k: got[k] for k in ("battles", "score", "wilson_95", "seconds", "load_average")}
    if stats:  # kiting's own style: how often it gave the aggressive doctrine's very orders
        row["same_orders_as_aggressive"] = got["rates"].get("same_as_aggressive")
    return row


def captain_figures() -> dict[str, Any]:
    """The strength table: admiral against both doctrines, the fixed doctrines against the
    old ones, with 95% intervals and the machine's load average when each row ended."""
    register_variants()
    admiral = f"admiral:budget={BENCH_BUDGET}"
    cores = os.cpu_count() or 1
    rows = {
        "admiral_vs_aggressive": _row(admiral, "aggressive", BENCH_ADMIRAL_BATTLES, workers=cores),
        "admiral_vs_kiting": _row(admiral, "kiting", BENCH_ADMIRAL_BATTLES, workers=cores),
        "aggressive_vs_old_aggressive": _row("aggressive", "old-aggressive", DOCTRINE_BATTLES),
        "kiting_vs_old_kiting": _row("kiting", "old-kiting", DOCTRINE_BATTLES),
        "kiting_vs_aggressive": _row("kiting", "aggressive", DOCTRINE_BATTLES, stats=True),
    }
    return {
        "admiral": admiral,
        "cpus": os.cpu_count(),
        "note": (
            f"admiral rows: {BENCH_ADMIRAL_BATTLES} battles each at budget {BENCH_BUDGET}, on "
            f"{cores} processes; mirror preset fleets with cards, both scenarios, sides "
            "swapped; a win 1, a draw 1/2"
        ),
        **rows,
    }


def search_battle_figures() -> dict[str, Any]:
    """Admiral battles per second and the ratio of an admiral battle's time to a doctrine
    battle's (aggressive against aggressive), on the standard benchmark battle, one core.

    Both are timed in this process's CPU seconds (`time.process_time`): the cost on one core,
    which a busy machine's other processes do not add to as they add to the wall clock (an
    admiral battle's tenth of a second is interrupted more often than a doctrine battle's
    millisecond). The doctrine battles are timed before and after the admiral's, and their
    mean taken, so that a machine that slows down in between does not move the ratio. Wall
    clock figures are given beside."""
    out: dict[str, Any] = _timed("standard", SEARCH_BUDGETS)
    out["timed_by"] = "CPU seconds of this process (one core); wall clock beside"
    out["peak_performance"] = _timed("peak-performance", (BENCH_BUDGET,))
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return out


def _timed(name: str, budgets: tuple[int, ...]) -> dict[str, Any]:
    """`search_battle_figures` in scenario `name`: the doctrine battle's time, and for each
    budget the admiral battle's rate and its ratio to the doctrine battle."""
    scenario = builtin_scenario(name)
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    simulate(scenario, fleets, ("aggressive", "aggressive"), 0)  # warm

    def doctrine_battle() -> tuple[float, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        n = 0
        while time.process_time() - cpu < 2.0:
            simulate(scenario, fleets, ("aggressive", "aggressive"), n)
            n += 1
        return (time.process_time() - cpu) / n, (time.perf_counter() - wall) / n

    before = doctrine_battle()
    admiral: dict[int, tuple[float, float]] = {}
    for budget in budgets:
        cpu, wall = time.process_time(), time.perf_counter()
        for seed in range(SEARCH_BATTLES):
            simulate(scenario, fleets, (f"admiral:budget={budget}", "aggressive"), seed)
        admiral[budget] = (
            (time.process_time() - cpu) / SEARCH_BATTLES,
            (time.perf_counter() - wall) / SEARCH_BATTLES,
        )
    after = doctrine_battle()
    doctrine = (before[0] + after[0]) / 2
    doctrine_wall = (before[1] + after[1]) / 2
    out: dict[str, Any] = {
        "doctrine_battle_ms": round(doctrine * 1000, 2),
        "doctrine_battle_wall_ms": round(doctrine_wall * 1000, 2),
    }
    for budget, (each, wall) in admiral.items():
        out[f"budget_{budget}"] = {
            "battles_per_second": round(1 / each, 3),
            "ratio_to_doctrine_battle": round(each / doctrine, 1),
            "wall_ratio_to_doctrine_battle": round(wall / doctrine_wall, 1),
        }
    return out
