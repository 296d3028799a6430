"""Print benchmark figures as JSON on stdout. Figures are measured here, never asserted in tests.

Each timing is the median of several cold runs: the odds caches are cleared before every run, so
the figure is what a user's first query costs, not a cache hit.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.assess_speed import assess_figures
from benchmarks.captains import captain_figures
from benchmarks.captains import search_battle_figures
from benchmarks.rl_speed import rl_figures
from benchmarks.web_load import web_figures
from kolrami import __version__
from kolrami import engine_build
from kolrami.captains.registry import make_captain
from kolrami.catalog import Arc
from kolrami.catalog import WeaponKind
from kolrami.catalog import builtin_pack
from kolrami.catalog.loader import builtin_pack as cached_pack
from kolrami.engine import driver
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.driver import apply
from kolrami.engine.driver import captain_dice
from kolrami.engine.orders import Order
from kolrami.fleet import load_fleet
from kolrami.rules import exact
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim import odds
from kolrami.sim.duel import Duel
from kolrami.sim.duel import exact_duel
from kolrami.sim.odds import WeaponGroup
from kolrami.sim.odds import ship_volley
from kolrami.sim.odds import volley_odds
from kolrami.sim.play import simulate

REPEATS = 15


def clear_caches() -> None:
    """Forget every memoised distribution so each run starts cold."""
    for fn in (
        odds._damage_power,
        odds._group_damage,
        odds._group_joint,
        exact.shot_damage_die,
        exact.penetration_die,
    ):
        fn.cache_clear()


def median_ms(work: Callable[[], object], cold: bool = True) -> float:
    times = []
    for _ in range(REPEATS):
        if cold:
            clear_caches()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 3)


def odds_figures() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in WeaponKind:
        for shots in (1, 10, 20):
            groups = [WeaponGroup(kind, 5, shots)]
            out[f"{kind.value}_{shots}_shots_ms"] = median_ms(partial(volley_odds, groups, 12))
    pack = builtin_pack()
    for firer, target in (("Reliant", "K'T'Roika"), ("Enterprise", "Drakonath")):
        a, b = pack.get(firer), pack.get(target)
        key = f"{a.id}_vs_{b.id}_front_volley_ms"
        out[key] = median_ms(partial(volley_odds, ship_volley(a, Arc.F, b), b.shields))
    return out


def duel_figures() -> dict[str, Any]:
    """The exact static duel (kolrami.sim.duel): Bird of Prey against Star Hawk, front arcs,
    12 cm, 12 turns, both firing at once; the whole table is scripts/duel_table.py."""
    pack = builtin_pack()
    duel = Duel(pack.get("bird-of-prey"), Arc.F, pack.get("star-hawk"), Arc.F, 12, 12)
    return {"bird_of_prey_vs_star_hawk_duel_ms": median_ms(partial(exact_duel, duel), cold=False)}


BATTLE_SECONDS = 4.0
#: The FPF figure is measured in rounds that alternate with the reference loop, so that both
#: see the same machine; the medians are reported (a busy neighbour moves one round, not all).
BATTLE_ROUNDS = 3


def battle_figures() -> dict[str, Any]:
    """The standard benchmark battle: cruisers vs wolfpack, aggressive vs aggressive, 12 turns."""
    scenario = builtin_scenario("standard")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    simulate(scenario, fleets, ("aggressive", "aggressive"), 0)  # imports and caches warm
    # as a sweep plays its battles (sim.backends: run_serial, and run_processes' workers): the
    # objects that outlive every battle frozen, out of the collector's way
    gc.freeze()
    n = events = dice = candidates = 0
    ours: list[float] = []
    refs: list[float] = []
    ratios: list[float] = []
    seconds = BATTLE_SECONDS / BATTLE_ROUNDS
    for _ in range(BATTLE_ROUNDS):
        ref = reference_loop(seconds)
        start = time.perf_counter()
        done = 0
        while time.perf_counter() - start < seconds:
            battle = simulate(scenario, fleets, ("aggressive", "aggressive"), n)
            events += len(battle.log)
            dice += battle.dice.rolls
            candidates += battle.stats.candidates
            n += 1
            done += 1
        ours.append(done / (time.perf_counter() - start))
        if ref:
            refs.append(ref)
            ratios.append(ours[-1] / ref)
    out: dict[str, Any] = {
        "battles": n,
        "battles_per_second": round(statistics.median(ours), 1),
        "events_per_battle": round(events / n, 1),
        "dice_per_battle": round(dice / n, 1),
        "candidate_manoeuvres_per_battle": round(candidates / n, 1),
        "rounds": BATTLE_ROUNDS,
    }
    out["reference_battles_per_second"] = round(statistics.median(refs), 1) if refs else None
    out["ratio_to_reference"] = round(statistics.median(ratios), 4) if ratios else None
    out["engine"] = engine_build()
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]  # 1, 5, 15 min, as it ended
    gc.unfreeze()
    return out


def advanced_battle_figures() -> dict[str, Any]:
    """The same fleets and captains in the advanced game (8 turns of 5 phases)."""
    scenario = builtin_scenario("advanced")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    n = events = dice = 0
    start = time.perf_counter()
    while time.perf_counter() - start < BATTLE_SECONDS:
        battle = simulate(scenario, fleets, ("aggressive", "aggressive"), n)
        events += len(battle.log)
        dice += battle.dice.rolls
        n += 1
    seconds = time.perf_counter() - start
    return {
        "battles": n,
        "battles_per_second": round(n / seconds, 1),
        "events_per_battle": round(events / n, 1),
        "dice_per_battle": round(dice / n, 1),
    }


def reference_loop(seconds: float = BATTLE_SECONDS) -> float | None:
    """The shared reference loop (../shared/tools/ref_battle.py), measured in the same run."""
    here = Path(__file__).resolve().parent.parent
    script = here.parent / "shared" / "tools" / "ref_battle.py"
    if not script.exists():
        return None
    done = subprocess.run(
        [sys.executable, str(script), "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return None
    return float(json.loads(done.stdout)["battles_per_second"])


def pairing_figures() -> dict[str, Any]:
    """Swiss pairing time for a third round (results random but seeded), by event size."""
    import random

    from kolrami.tournament.core import Game
    from kolrami.tournament.core import pair_round

    out: dict[str, Any] = {}
    for n in (32, 256, 1024):
        players = [f"P{i}" for i in range(n)]
        rng = random.Random(n)
        rounds: list[list[Game]] = []
        for number in (1, 2):
            games = []
            for g in pair_round(number, players, rounds, 1).games:
                if g.b is None:
                    games.append(g)
                else:
                    fp = ((g.a, rng.randint(0, 300)), (g.b, rng.randint(0, 300)))
                    games.append(Game(number, g.a, g.b, rng.choice([g.a, g.b]), fp))
            rounds.append(games)
        start = time.perf_counter()
        pair_round(3, players, rounds, 1)
        out[f"pair_round_3_{n}_players_ms"] = round((time.perf_counter() - start) * 1000, 1)
    return out


def dice_figures() -> dict[str, Any]:
    dice = Dice(1)
    n = 200_000
    start = time.perf_counter()
    for _ in range(n):
        dice.d10()
    return {"d10_rolls_per_second": round(n / (time.perf_counter() - start))}


def pack_figures() -> dict[str, Any]:
    def load() -> object:
        cached_pack.cache_clear()
        return cached_pack()

    return {"builtin_pack_load_ms": median_ms(load, cold=False)}


def search_figures() -> dict[str, Any]:
    """What a search captain pays to try a line of play: a clone of a battle mid-game (its
    state and its agenda), a clone with one order applied (`apply`, to the next decision), and
    a rollout (a clone played by the doctrine to the end of the next turn, its horizon)."""
    scenario = builtin_scenario("standard")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    for seed in range(7, 100):  # the first seed whose battle is still on after 60 decisions
        battle = new_battle(scenario, fleets, seed, ("aggressive", "aggressive"))
        players = {s: make_captain("aggressive", captain_dice(seed, s)) for s in ("A", "B")}
        views = {s: battle.rules.view(battle, s) for s in ("A", "B")}
        decision = driver.start(battle)
        for _ in range(60):  # well into the battle: turn 4 or so
            if decision is None:
                break
            side = decision.side
            decision = apply(battle, players[side].decide(views[side], decision))
        if decision is not None:
            break
    assert decision is not None
    order = players[decision.side].decide(views[decision.side], decision)
    dice = Dice(1)
    clones = 2000
    start = time.perf_counter()
    for _ in range(clones):
        battle.clone(dice)
    clone_us = (time.perf_counter() - start) / clones * 1e6
    return {
        "turn": battle.turn,
        "events_so_far": len(battle.log),
        "clone_us": round(clone_us, 1),
        "clone_apply_us": round(
            median_ms(lambda: apply(battle.clone(dice), order), cold=False) * 1000, 1
        ),
        "rollout_ms": median_ms(lambda: _rollout(battle, order, dice), cold=False),
    }


def _step(battle: Battle, order: Order, dice: Dice) -> None:
    """A clone of `battle` given `order`, run to its next decision."""
    apply(battle.clone(dice), order)


def _rollout(battle: Battle, order: Order, dice: Dice) -> None:
    """A clone of `battle` given `order`, then played by the aggressive doctrine on both sides
    through the rest of the turn and the next (a search's rollout)."""
    copy = battle.clone(dice)
    copy.horizon = copy.turn + 1
    players = {s: make_captain("aggressive", captain_dice(7, s)) for s in ("A", "B")}
    views = {s: copy.rules.view(copy, s) for s in ("A", "B")}
    asked = apply(copy, order)
    while asked is not None:
        asked = apply(copy, players[asked.side].decide(views[asked.side], asked))


def main() -> None:
    figures = {
        "kolrami": __version__,
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "repeats": REPEATS,
        "odds": odds_figures(),
        "duel": duel_figures(),
        "battle": battle_figures(),
        "advanced_battle": advanced_battle_figures(),
        "search": search_figures(),
        "search_battle": search_battle_figures(),
        "captains": captain_figures(),
        "dice": dice_figures(),
        "pairing": pairing_figures(),
        "data": pack_figures(),
        "web": web_figures(),
        "assess": assess_figures(),
        "rl": rl_figures(),
    }
    json.dump(figures, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
