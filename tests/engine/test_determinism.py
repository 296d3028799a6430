"""Determinism: one seed gives one battle, byte for byte, in this process and any other.

A battle is re-run from (scenario, fleets, seed, rules version, captains) and must give the same
log. The cross-process test runs the battle under other hash seeds too, so nothing in the engine
may depend on set or dict-of-object iteration order that changes between interpreters.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kolrami.captains import make_captain
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.engine.driver import run
from kolrami.fleet import load_fleet
from kolrami.rules import RULES_VERSION
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.registry import read_log
from kolrami.scenarios.models import Scenario
from kolrami.scenarios.models import builtin_scenario

ROOT = Path(__file__).resolve().parents[2]

#: (fleet A, fleet B, captain A, captain B, scenario overrides): cheap battles with fighting in them
SETUPS = {
    "doctrines": ("federation-fleet", "klingon-fleet", "aggressive", "kiting", {}),
    "random-method-2": (
        "federation-cruisers",
        "klingon-wolfpack",
        "random",
        "aggressive",
        {"masking": "method-2"},
    ),
    "random-individual": (
        "klingon-strike",
        "federation-venture",
        "random",
        "random",
        {"movement": "individual"},
    ),
}


def scenario(overrides: dict[str, str]) -> Scenario:
    """The standard scenario with overrides, validated."""
    base = builtin_scenario("standard")
    return Scenario.model_validate({**base.model_dump(mode="json"), **overrides})


def play(setup: str, seed: int) -> Battle:
    """Play one of the SETUPS with `seed`; each captain gets dice derived from the seed."""
    fleet_a, fleet_b, cap_a, cap_b, overrides = SETUPS[setup]
    battle = new_battle(
        scenario(overrides),
        (load_fleet(f"presets:{fleet_a}"), load_fleet(f"presets:{fleet_b}")),
        seed,
        captains=(cap_a, cap_b),
    )
    captains = {
        side: make_captain(name, Dice(derive_seed(seed, "captain", side)))
        for side, name in (("A", cap_a), ("B", cap_b))
    }
    run(battle, captains)
    return battle


#: The same battle as `play("doctrines", seed)`, written out for a fresh interpreter.
CHILD = """
import sys
from kolrami.captains import make_captain
from kolrami.engine.chance import Dice, derive_seed
from kolrami.engine.driver import run
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

seed = int(sys.argv[1])
battle = new_battle(
    builtin_scenario("standard"),
    (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet")),
    seed,
    captains=("aggressive", "kiting"),
)
captains = {
    side: make_captain(name, Dice(derive_seed(seed, "captain", side)))
    for side, name in (("A", "aggressive"), ("B", "kiting"))
}
run(battle, captains)
print(battle.log.sha256())
"""


@pytest.mark.parametrize("setup", list(SETUPS))
def test_the_same_seed_gives_the_same_log_byte_for_byte(setup: str) -> None:
    first, second = play(setup, 7), play(setup, 7)
    assert first.log.jsonl() == second.log.jsonl()
    assert first.log.sha256() == second.log.sha256()
    assert first.result == second.result
    assert len(first.log) > 100  # a real battle, not an empty log that trivially agrees


@pytest.mark.parametrize("hash_seed", ["0", "4242"])
def test_another_process_gives_the_same_log(hash_seed: str) -> None:
    here = play("doctrines", 11).log.sha256()
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "11"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == here


@pytest.mark.parametrize("setup", list(SETUPS))
def test_different_seeds_give_different_logs(setup: str) -> None:
    digests = {seed: play(setup, seed).log.sha256() for seed in (1, 2, 3, 4)}
    assert len(set(digests.values())) == len(digests), digests


@pytest.mark.parametrize("setup", list(SETUPS))
def test_the_header_says_how_to_play_the_battle_again(setup: str) -> None:
    fleet_a, fleet_b, cap_a, cap_b, overrides = SETUPS[setup]
    battle = play(setup, 21)
    events = list(battle.events())
    assert isinstance(events[0], ev.BattleStarted)
    assert sum(isinstance(e, ev.BattleStarted) for e in events) == 1
    header = events[0].header
    assert header["seed"] == 21
    assert header["captains"] == [cap_a, cap_b]
    assert header["fleets"] == [
        load_fleet(f"presets:{fleet_a}").model_dump(mode="json"),
        load_fleet(f"presets:{fleet_b}").model_dump(mode="json"),
    ]
    assert header["scenario"] == scenario(overrides).model_dump(mode="json")
    assert header["rules_version"] == RULES_VERSION
    assert {"kolrami", "data_version", "rules"} <= set(header)


@pytest.mark.parametrize("setup", list(SETUPS))
def test_the_header_alone_replays_the_battle(setup: str) -> None:
    battle = play(setup, 33)
    first = next(iter(battle.events()))
    assert isinstance(first, ev.BattleStarted)
    sc, fleets, (cap_a, cap_b), seed, extra = rebuild(first.header)
    again = new_battle(sc, fleets, seed, captains=(cap_a, cap_b), extra_rules=extra)
    captains = {
        side: make_captain(name, Dice(derive_seed(seed, "captain", side)))
        for side, name in (("A", cap_a), ("B", cap_b))
    }
    run(again, captains)
    assert again.log.jsonl() == battle.log.jsonl()


def test_the_jsonl_log_reads_back_to_the_same_events() -> None:
    battle = play("doctrines", 3)
    text = battle.log.jsonl()
    assert text.endswith("\n")
    assert text.count("\n") == len(battle.log)
    back = read_log(text)
    assert [e.to_json() for e in back] == [e.to_json() for e in battle.events()]
