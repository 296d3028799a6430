"""CPU seconds of the exact duel for every pair of small ships (the table in docs/assessment.md).

Each pair fires front arc against front arc at 12 cm for 12 turns, both firing at once
(`exchange`), in a fresh Python process (no warm caches), timed with `time.process_time`.

    .venv/bin/python scripts/duel_table.py [--timeout SECONDS] [--ships a,b,...]

Prints one Markdown row a pair: the ships, the CPU seconds and the answer (A's chance to win) or
the first line of the refusal. A pair still running after `--timeout` seconds of wall time is
stopped and shown as such.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys

SMALL = ("bird-of-prey", "star-hawk", "sting", "defender")

ONE = """
import json, sys, time
from kolrami.catalog import Arc, builtin_pack
from kolrami.errors import InvalidInputError
from kolrami.sim.duel import Duel, exact_duel
pack = builtin_pack()
a, b = sys.argv[1], sys.argv[2]
start = time.process_time()
try:
    out = exact_duel(Duel(pack.get(a), Arc.F, pack.get(b), Arc.F, 12, 12))
    answer = {"a_wins": out.a_wins, "b_wins": out.b_wins}
except InvalidInputError as e:
    answer = {"refused": str(e).splitlines()[0]}
answer["cpu_s"] = time.process_time() - start
print(json.dumps(answer))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--ships", default=",".join(SMALL))
    args = parser.parse_args()
    ships = args.ships.split(",")
    print("| A | B | CPU s | P(A wins) / refusal |")
    print("|---|---|---:|---|")
    for a, b in itertools.combinations_with_replacement(ships, 2):
        try:
            done = subprocess.run(
                [sys.executable, "-c", ONE, a, b],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=True,
            )
        except subprocess.TimeoutExpired:
            print(f"| {a} | {b} | > {args.timeout:g} (wall) | stopped |", flush=True)
            continue
        answer = json.loads(done.stdout)
        said = answer.get("refused") or f"{answer['a_wins']:.6f}"
        print(f"| {a} | {b} | {answer['cpu_s']:.2f} | {said} |", flush=True)


if __name__ == "__main__":
    main()
