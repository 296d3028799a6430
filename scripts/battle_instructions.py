#!/usr/bin/env python3
"""Instructions per benchmark battle, counted by valgrind: a figure a busy machine leaves alone.

Wall time on a shared 2-core machine moves by several percent from run to run; the number of
instructions a battle executes does not. This plays the benchmark battle of `make bench`
(standard scenario, federation-cruisers against klingon-wolfpack, aggressive against aggressive,
seeds 0..N-1) under `valgrind --tool=callgrind`, counting only while the battles play (after the
imports and a warm-up battle), and prints the count divided by N. PYTHONHASHSEED is pinned:
dict layouts otherwise move the count from run to run.

    python scripts/battle_instructions.py                 # 20 battles under callgrind
    python scripts/battle_instructions.py --battles 5
    python scripts/battle_instructions.py --keep /tmp/cg.out   # then callgrind_annotate it
    python scripts/battle_instructions.py --profile       # cProfile of the same battles instead
    python scripts/battle_instructions.py --play 20       # just play them (what valgrind runs)
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import re
import subprocess
import sys
import tempfile
from itertools import starmap
from pathlib import Path

from kolrami.fleet import load_fleet
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def play(battles: int) -> None:
    """One warm-up battle (imports, catalogue and caches), then `battles` benchmark battles."""
    scenario = builtin_scenario("standard")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    simulate(scenario, fleets, ("aggressive", "aggressive"), 0)
    gc.freeze()  # as a sweep and `make bench` play them (sim.backends)
    # through starmap, so that callgrind counts only inside its `starmap_next` (the engine
    # never calls starmap): the imports and the warm-up battle stay out of the count
    games = [(scenario, fleets, ("aggressive", "aggressive"), seed) for seed in range(battles)]
    for _ in starmap(simulate, games):
        pass


def instructions(battles: int, keep: Path | None = None) -> int:
    """Instructions that `battles` battles execute (after the warm-up), counted by callgrind;
    `keep`: where to leave callgrind's output file (for callgrind_annotate)."""
    with tempfile.TemporaryDirectory(prefix="kolrami-cg-") as tmp:
        out = keep or Path(tmp) / "out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=starmap_next",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--play",
                str(battles),
            ],
            env=dict(os.environ, PYTHONHASHSEED="0"),
            capture_output=True,
            text=True,
            check=True,
        )
    found = COLLECTED.search(done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{done.stderr}")
    return int(found.group(1))


def profile(battles: int) -> None:
    """cProfile of the battles, the 60 costliest functions by their own time."""
    scenario = builtin_scenario("standard")
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    simulate(scenario, fleets, ("aggressive", "aggressive"), 0)
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(battles):
        simulate(scenario, fleets, ("aggressive", "aggressive"), seed)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=20, help="benchmark battles to count")
    parser.add_argument("--play", type=int, metavar="N", help="only play N battles")
    parser.add_argument("--profile", action="store_true", help="cProfile instead of valgrind")
    parser.add_argument("--keep", type=Path, metavar="FILE", help="keep callgrind's output here")
    args = parser.parse_args()
    if args.play is not None:
        play(args.play)
    elif args.profile:
        profile(args.battles)
    else:
        count = instructions(args.battles, args.keep)
        print(f"{count / args.battles / 1e6:.3f} M instructions per battle")


if __name__ == "__main__":
    main()
