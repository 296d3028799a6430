#!/usr/bin/env python3
"""Referee many seeded battles and print the violations per clause as JSON.

The battles spread over every preset fleet, every captain (`kolrami captains`) and every
optional rule module (`kolrami rules`), in the standard scenario and Peak Performance; the
referee (tests/conformance/referee.py) reads each battle's event log and nothing else.

    python scripts/referee.py                        # 300 standard and 100 Peak Performance
    python scripts/referee.py --standard 50 --peak 0 --show   # every violation, one a line
    python scripts/referee.py --log battle.jsonl     # one log written by `kolrami battle --log`
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "conformance"))

from referee import play
from referee import read_log
from referee import referee
from referee import setups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--standard", type=int, default=300, help="standard battles")
    parser.add_argument("--peak", type=int, default=100, help="Peak Performance battles")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--log", type=Path, action="append", help="referee these logs instead")
    parser.add_argument("--show", action="store_true", help="print every violation to stderr")
    args = parser.parse_args()

    report: dict[str, object] = {}
    if args.log:
        found: Counter[str] = Counter()
        for path in args.log:
            for v in referee(read_log(path.read_text(encoding="utf-8"))):
                found[v.clause] += 1
                if args.show:
                    print(f"{path}: {v}", file=sys.stderr)
        report["logs"] = {"battles": len(args.log), "violations": dict(sorted(found.items()))}
    else:
        for scenario, count in (("standard", args.standard), ("peak-performance", args.peak)):
            if count <= 0:
                continue
            violations: Counter[str] = Counter()
            battles_with: Counter[str] = Counter()
            refused: list[str] = []
            for setup in setups(count, scenario, args.seed):
                events = play(setup)
                if events is None:
                    refused.append(setup.command())
                    continue
                found_here = referee(events)
                violations.update(v.clause for v in found_here)
                battles_with.update({v.clause for v in found_here})
                if args.show:
                    for v in found_here:
                        print(f"{setup.command()}: {v}", file=sys.stderr)
            report[scenario] = {
                "battles": count - len(refused),
                "refused": refused,
                "violations": dict(sorted(violations.items())),
                "battles_with": dict(sorted(battles_with.items())),
            }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
