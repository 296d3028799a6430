"""The compiled build of the hot modules (kolrami.COMPILED, scripts/compile.py) and the
pure-Python modules give the same battles, bit for bit, and the program says which one runs.

Each side plays in its own process: which build runs is chosen once, as kolrami is imported.
Where no compiled build is there (no C compiler), both sides run the pure-Python modules and the
logs still have to agree; the test of the compiled side's own modules is then skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import kolrami
from kolrami import COMPILED
from kolrami import PURE_ENV

#: Plays seeded battles of both FPF scenarios (the doctrines, and the admiral with a small
#: budget) and one of the advanced game's, and prints, as JSON, which build ran, where the
#: hot modules were loaded from, and the SHA-256 of every log.
PROBE = """
import importlib, json, sys
import kolrami
from kolrami.fleet import load_fleet
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
logs = []
for name in ("standard", "peak-performance"):
    scenario = builtin_scenario(name)
    for captains in (("aggressive", "aggressive"), ("kiting", "random")):
        for seed in range(3):
            logs.append(simulate(scenario, fleets, captains, seed).log.sha256())
    # the search captain: its rollouts run the compiled engine and doctrines in one build
    logs.append(simulate(scenario, fleets, ("admiral:budget=8", "kiting"), 3).log.sha256())
# an advanced battle of a tactics scenario: the compiled event log keeps every rule set's events
boarding = (load_fleet("presets:gorn-hunters"), load_fleet("presets:klingon-wolfpack"))
logs.append(
    simulate(builtin_scenario("boarding-action"), boarding, ("aggressive", "aggressive"), 1)
    .log.sha256()
)
files = {m: importlib.import_module(m).__file__ for m in kolrami.COMPILED}
json.dump({"build": kolrami.engine_build(), "files": files, "logs": logs}, sys.stdout)
"""


def play(pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop(PURE_ENV, None)
    if pure:
        env[PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    out: dict[str, object] = json.loads(done.stdout)
    return out


@pytest.fixture(scope="module")
def both() -> tuple[dict[str, object], dict[str, object]]:
    return play(pure=True), play(pure=False)


def test_the_two_builds_give_the_same_logs(
    both: tuple[dict[str, object], dict[str, object]],
) -> None:
    pure, default = both
    assert isinstance(pure["logs"], list)
    assert len(pure["logs"]) == 15
    assert pure["logs"] == default["logs"]


def test_the_pure_build_runs_the_sources_when_asked(
    both: tuple[dict[str, object], dict[str, object]],
) -> None:
    pure, _ = both
    assert pure["build"] == f"pure Python ({PURE_ENV} is set)"
    files = pure["files"]
    assert isinstance(files, dict)
    assert set(files) == set(COMPILED)
    assert all(str(f).endswith(".py") for f in files.values())


def test_the_compiled_build_runs_where_it_is_built(
    both: tuple[dict[str, object], dict[str, object]],
) -> None:
    problem = kolrami.build_problem()
    if problem:
        pytest.skip(f"no compiled build here: {problem}")
    _, default = both
    assert default["build"] == f"compiled with mypyc ({len(COMPILED)} modules)"
    files = default["files"]
    assert isinstance(files, dict)
    assert not any(str(f).endswith(".py") for f in files.values())
