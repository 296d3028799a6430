#!/usr/bin/env python3
"""How often one captain beats another, with a 95% Wilson interval (issue 21).

Mirror battles: every FPF preset fleet in turn on both sides (with its cards: `fpf_preset_names`,
the eight fleets of the seeds' classes; the house presets are advanced-game fleets, and a base
or a Borg cube against its mirror cannot be destroyed in twelve turns), the standard and the
Peak Performance scenarios in turn, each seed played twice with the sides swapped, so neither the
deployment edge nor the fleet favours either captain. A win scores 1, a draw 1/2.

    python scripts/captain_strength.py aggressive old-aggressive --battles 400
    python scripts/captain_strength.py admiral:budget=48 aggressive --battles 100 --workers 2
    python scripts/captain_strength.py kiting old-kiting --stats     # and the blunder counts
    python scripts/captain_strength.py admiral aggressive --battles 200 --start 200 --jsonl b.jsonl

`--jsonl FILE` writes each battle's record as it ends (its number, scenario, fleet, seed, the
measured captain's side, its points, the result's reason, and its luck: what the fire's
penetration rolls took from the measured side, in points, against their exact odds, the
admiral's control variate `captains.admiral.luck` over the whole battle; positive is unlucky):
two versions of a captain can be compared battle by battle, since battle N is the same fleet,
scenario, seed and side whoever plays it. `--start N` plays battles N, N+1 ... (a run split
across processes, or resumed).

Besides the built-in captains it knows the doctrines as they were before issue 21 (`old-aggressive`,
`old-kiting`: every fix switched off, which plays the old logs bit for bit) and the old doctrine
with one fix switched on (`old-aggressive+unit_fire`, `+full_path`, `+initiative`, `+withdraw`,
`old-kiting+hold_range`), so that each change is measured on its own.

`--stats` counts, over the first captain's decisions: fire held while a firer had an enemy in an
armed arc and in range where it stood (thrown-away opportunities), declared locks that never
fired, how often it chose to move first, and (for kiting) how often the aggressive doctrine
would have given the same orders.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from kolrami.captains.admiral import luck
from kolrami.captains.base import BattleView
from kolrami.captains.base import Captain
from kolrami.captains.doctrines import AggressiveCaptain
from kolrami.captains.doctrines import KitingCaptain
from kolrami.captains.doctrines import ScoredCaptain
from kolrami.captains.registry import captain_names
from kolrami.captains.registry import make_captain
from kolrami.captains.registry import register_captain
from kolrami.captains.scoring import Weights
from kolrami.engine.chance import Dice
from kolrami.engine.geometry import arc_to
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.fleet import fpf_preset_names
from kolrami.fleet import load_fleet
from kolrami.rules import events as rev
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import InitiativeOrder
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import SquadronOrder
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate
from kolrami.sim.stats import wilson

SCENARIOS = ("standard", "peak-performance")
_COUNTS: Counter[str] = Counter()  # the counts of the battle being played
FIXES = ("unit_fire", "full_path", "initiative", "withdraw", "hold_range")
OLD_WEIGHTS = {
    "aggressive": Weights(threat=0.3, closing=0.08, keep_out=False, react=True, jumps=True),
    "kiting": Weights(threat=1.0, closing=0.03, keep_out=True, react=True),
}


def _doctrine(name: str, base: type[ScoredCaptain], weights: Weights) -> type[ScoredCaptain]:
    return type(name, (base,), {"name": name, "weights": weights})


def register_variants() -> None:
    """The old doctrines and the old ones with one fix each, by name."""
    new = {"aggressive": AggressiveCaptain, "kiting": KitingCaptain}
    for doctrine, old in OLD_WEIGHTS.items():
        base = new[doctrine]
        name = f"old-{doctrine}"
        if name in captain_names():
            return
        register_captain(name, _doctrine(name, base, old))
        for fix in FIXES:
            value = getattr(base.weights, fix)
            changes: dict[str, Any] = {fix: value}
            if fix == "hold_range":  # kiting's style: its own closing weight, no 30 cm rule
                changes |= {"closing": base.weights.closing, "keep_out": base.weights.keep_out}
            variant = f"{name}+{fix}"
            register_captain(variant, _doctrine(variant, base, dataclasses.replace(old, **changes)))


class Probe:
    """A captain that plays as `inner` and counts what `--stats` reports."""

    def __init__(self, inner: Captain, counts: Counter[str]) -> None:
        self.inner, self.counts, self.name = inner, counts, inner.name
        # the aggressive doctrine of its own generation, to compare kiting's orders with
        old = inner.name.startswith("old-")
        self.other = make_captain("old-aggressive" if old else "aggressive", Dice(0))

    def decide(self, view: BattleView, decision: Decision) -> Order:
        order = self.inner.decide(view, decision)
        c = self.counts
        if isinstance(decision, InitiativeDecision):
            assert isinstance(order, InitiativeOrder)
            c["initiative_decisions"] += 1
            c["chose_first"] += order.first
        if isinstance(decision, OrdersDecision) and isinstance(order, SquadronOrder):
            c["orders"] += 1
            if self.inner.name.endswith("kiting") or "kiting" in self.inner.name:
                c["same_as_aggressive"] += str(self.other.decide(view, decision)) == str(order)
            if decision.firers:
                c["fire_opportunities"] += 1
                if order.fire is None and _in_reach(view, decision.firers):
                    c["held_with_a_target_in_reach"] += 1
        return order


def _in_reach(view: BattleView, firers: tuple[str, ...]) -> bool:
    enemies = view.enemies()
    for sid in firers:
        s = view.ship(sid)
        for e in enemies:
            arc = arc_to(s.x, s.y, s.heading, e.x, e.y)
            d = math.hypot(e.x - s.x, e.y - s.y)
            for kind in s.bears(arc):
                if d <= s.range_of(kind):
                    return True
    return False


def _locks(battle: Any, side: str, counts: Counter[str]) -> None:
    """Declared (not reaction) locks of `side` and how many never fired in their activation."""
    pending: set[str] = set()
    for e in battle.log:
        if isinstance(e, rev.SquadronActivated):
            counts["locks_never_fired"] += len(pending)
            pending = set()
        elif isinstance(e, rev.FireDeclared) and not e.reaction and e.ship[0] == side:
            counts["locks_declared"] += 1
            pending.add(e.ship)
        elif isinstance(e, rev.VolleyFired):
            pending.discard(e.ship)
    counts["locks_never_fired"] += len(pending)


#: One battle's outcome: the first captain's points, its counts, its record (`--jsonl`).
Outcome = tuple[float, dict[str, int], dict[str, Any]]


def play_one(job: tuple[str, str, int, bool]) -> Outcome:
    """One battle: the first captain's points, its counts and the battle's record."""
    first, second, index, stats = job
    register_variants()
    pair, swap = divmod(index, 2)
    scenario = builtin_scenario(SCENARIOS[pair % len(SCENARIOS)])
    presets = fpf_preset_names()
    preset = presets[(pair // len(SCENARIOS)) % len(presets)]
    fleet = load_fleet(f"presets:{preset}")
    side = "B" if swap else "A"
    counts = _COUNTS
    counts.clear()
    name = first
    if stats:
        name = f"probe:{first}"
        if name not in captain_names():
            register_captain(name, lambda dice: Probe(make_captain(first, dice), _COUNTS))
    captains = (second, name) if swap else (name, second)
    battle = simulate(scenario, (fleet, fleet), captains, pair)
    result = battle.result
    assert result is not None
    if stats:
        _locks(battle, side, counts)
    points = 1.0 if result.winner == side else 0.5 if result.winner is None else 0.0
    record = {
        "battle": index,
        "scenario": SCENARIOS[pair % len(SCENARIOS)],
        "fleet": preset,
        "seed": pair,
        "side": side,
        "points": points,
        "reason": result.reason,
        "luck": round(luck(battle, side, 0), 1),
    }
    return points, dict(counts), record


def _init(stats: bool) -> None:
    register_variants()


def measure(
    first: str,
    second: str,
    battles: int,
    workers: int,
    stats: bool,
    every: int = 0,
    first_battle: int = 0,
    jsonl: Path | None = None,
) -> dict[str, Any]:
    """The first captain's score against the second over `battles` battles (numbered from
    `first_battle`); with `every`, a running score line on stderr after every `every` battles
    (in order, so each line is the score of the first battles, both scenarios and sides
    balanced when `every` is a multiple of four); with `jsonl`, each battle's record written
    there as it ends."""
    jobs = [(first, second, i, stats) for i in range(first_battle, first_battle + battles)]
    start = time.perf_counter()
    results: list[Outcome] = []
    with ExitStack() as stack:
        out_file = stack.enter_context(jsonl.open("w", encoding="utf-8")) if jsonl else None
        if workers > 1:
            pool = stack.enter_context(
                ProcessPoolExecutor(workers, initializer=_init, initargs=(stats,))
            )
            outcomes = pool.map(play_one, jobs, chunksize=1 if every or jsonl else 4)
        else:
            outcomes = map(play_one, jobs)
        for got in outcomes:
            results.append(got)
            if out_file is not None:
                out_file.write(json.dumps(got[2]) + "\n")
                out_file.flush()
            _running(results, every, start)
    seconds = time.perf_counter() - start
    points = sum(p for p, _, _ in results)
    low, high = wilson(points, battles)
    out: dict[str, Any] = {
        "captain": first,
        "against": second,
        "battles": battles,
        "points": points,
        "score": round(points / battles, 3),
        "wilson_95": [round(low, 3), round(high, 3)],
        "seconds": round(seconds, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if stats:
        total: Counter[str] = Counter()
        for _, c, _ in results:
            total.update(c)
        out["counts"] = dict(total)
        rates = {}
        for key, of in (
            ("held_with_a_target_in_reach", "fire_opportunities"),
            ("locks_never_fired", "locks_declared"),
            ("chose_first", "initiative_decisions"),
            ("same_as_aggressive", "orders"),
        ):
            if total[of]:
                rates[key] = round(total[key] / total[of], 3)
        out["rates"] = rates
    return out


def _running(results: list[Outcome], every: int, start: float) -> None:
    """The running score after every `every` battles, on stderr."""
    n = len(results)
    if every and n % every == 0:
        points = sum(p for p, _, _ in results)
        low, high = wilson(points, n)
        took = time.perf_counter() - start
        print(
            f"{n} battles: {points / n:.3f} [{low:.3f}, {high:.3f}] in {took:.0f} s",
            file=sys.stderr,
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="the captain measured")
    parser.add_argument("second", help="its opponent")
    parser.add_argument("--battles", type=int, default=400, help="battles (even: sides swap)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--stats", action="store_true", help="count the doctrines' blunders")
    parser.add_argument(
        "--every", type=int, default=0, help="print the running score every N battles (stderr)"
    )
    parser.add_argument(
        "--start", type=int, default=0, help="the first battle's number (split or resume a run)"
    )
    parser.add_argument("--jsonl", type=Path, help="write each battle's record here as it ends")
    args = parser.parse_args()
    if args.battles < 1 or args.start < 0:
        parser.error("--battles must be at least 1 and --start at least 0")
    register_variants()
    got = measure(
        args.first,
        args.second,
        args.battles,
        args.workers,
        args.stats,
        args.every,
        args.start,
        args.jsonl,
    )
    print(json.dumps(got))


if __name__ == "__main__":
    main()
