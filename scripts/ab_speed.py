#!/usr/bin/env python3
"""A/B speed check: the committed code (HEAD, or --base REV) against the working tree.

Each side plays the standard benchmark battle 300 times in a fresh process and reports the CPU
milliseconds a battle takes (`time.process_time`, so a busy neighbour matters less than it does
to wall time). The two sides alternate, five rounds each by default, and the medians are
compared. On a 2-core machine this resolves a change of about 1%, where `make bench`'s single
figure moves by 3% from run to run. Pair it with scripts/log_fingerprint.py: a speed change must
leave the fingerprint alone.

    python scripts/ab_speed.py                 # HEAD against the working tree
    python scripts/ab_speed.py --base HEAD~3 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in each side's process: warm up, then time 300 battles.
PROBE = """
import time
try:
    from kolrami.sim.play import simulate
except ImportError:  # a revision from before sim/play.py
    import kolrami.engine.driver as old_driver
    simulate = old_driver.simulate
from kolrami.fleet import load_fleet
from kolrami.scenarios.models import builtin_scenario
scenario = builtin_scenario("standard")
fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
for seed in range(5):
    simulate(scenario, fleets, ("aggressive", "aggressive"), seed)
start = time.process_time()
for seed in range(300):
    simulate(scenario, fleets, ("aggressive", "aggressive"), seed)
print((time.process_time() - start) / 300 * 1000)
"""


def cpu_ms(src: Path) -> float:
    """CPU ms per battle with the package found in `src` first."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="the revision to compare against")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each side")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kolrami-ab-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(base), args.base],
            check=True,
        )
        try:
            before: list[float] = []
            after: list[float] = []
            for _ in range(args.rounds):
                before.append(cpu_ms(base / "src"))
                after.append(cpu_ms(ROOT / "src"))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True
            )
    a, b = statistics.median(before), statistics.median(after)
    print(f"{args.base:>12}: {' '.join(f'{x:.3f}' for x in before)}  median {a:.3f} ms")
    print(f"{'working tree':>12}: {' '.join(f'{x:.3f}' for x in after)}  median {b:.3f} ms")
    print(f"change: {100 * (b / a - 1):+.1f}%")


if __name__ == "__main__":
    main()
