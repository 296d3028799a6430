"""The referee reads logs of both formats (engine/events.py LOG_FORMAT), and checks what
format 2 adds: a hit's mounts left and a card's changed values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from referee import referee

from kolrami.captains.scripted import logged_captains
from kolrami.engine.driver import run
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.registry import read_log

OLD = Path(__file__).parents[1] / "report" / "data" / "format1-peak-seed0.jsonl"


@pytest.fixture(scope="module")
def logs() -> tuple[str, str]:
    """The format 1 battle and the same battle logged now, from its header and orders."""
    old = OLD.read_text(encoding="utf-8")
    header = json.loads(old.splitlines()[0])["header"]
    scenario, fleets, names, seed, extra = rebuild(dict(header))
    battle = new_battle(scenario, fleets, seed, names, extra_rules=extra)
    run(battle, dict(logged_captains(read_log(old))))
    return old, battle.log.jsonl()


def events(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_both_formats_satisfy_the_referee(logs: tuple[str, str]) -> None:
    assert [referee(events(t)) for t in logs] == [[], []]


@pytest.mark.rule("FPF-DMG-07")
def test_logged_mounts_the_damage_does_not_leave_are_flagged(logs: tuple[str, str]) -> None:
    log = events(logs[1])
    hit = next(e for e in log if e["e"] == "hit_scored" and e.get("mounts"))
    mounts = hit["mounts"]
    assert isinstance(mounts, list)
    # the same total, on other mounts: the weakest working mount loses first
    hit["mounts"] = [*mounts[1:], mounts[0]] if len(set(mounts)) > 1 else [*mounts, 0]
    found = referee(log)
    assert any(v.clause == "FPF-DMG-07" and "mounts" in v.detail for v in found), found


def test_changes_that_contradict_a_cards_words_are_flagged(logs: tuple[str, str]) -> None:
    log = events(logs[1])
    card = next(e for e in log if e["e"] == "card_used" and e.get("changes"))
    changes = card["changes"]
    assert isinstance(changes, dict)
    card["changes"] = {k: v + 1 for k, v in changes.items()}
    assert any(v.clause == "LOG" for v in referee(log))
