"""Logs of every format stay readable (engine/events.py LOG_FORMAT).

data/format1-peak-seed0.jsonl is a Peak Performance battle as format 1 logged it, before
format 2, whose hits gave only a weapon's total left and whose cards said what they changed only
in words. (First a log of rules fpf-3; rules fpf-4 resolve its orders otherwise, so it was
re-made: the battle of its header played by its captains under fpf-4, format 2's fields and
fpf-4's `exchange` dropped; rules fpf-5 play it alike, so its header says fpf-5.) Played again
from its header and its logged orders, the same battle gives a format 2 log; the replay, the
narration and the referee must read both to the same story.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from kolrami.captains.scripted import logged_captains
from kolrami.catalog import builtin_pack
from kolrami.engine.driver import run
from kolrami.engine.events import LOG_FORMAT
from kolrami.report.narrate import Narrator
from kolrami.report.replay import replay_data
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.registry import read_log

OLD = Path(__file__).parent / "data" / "format1-peak-seed0.jsonl"


def told(events: Sequence[ev.Event]) -> str:
    out = Console(record=True, width=200, file=io.StringIO())
    Narrator(out, builtin_pack(), verbose=True).tell(events)
    return out.export_text()


def replayed(text: str) -> str:
    """The battle of a log played again from its header and its logged orders, logged now."""
    events = read_log(text)
    header: dict[str, Any] = json.loads(text.splitlines()[0])["header"]
    scenario, fleets, names, seed, extra = rebuild(dict(header))
    battle = new_battle(scenario, fleets, seed, names, extra_rules=extra)
    run(battle, dict(logged_captains(events)))
    return battle.log.jsonl()


@pytest.fixture(scope="module")
def logs() -> tuple[str, str]:
    old = OLD.read_text(encoding="utf-8")
    return old, replayed(old)


def without_meta(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "meta"}


def test_the_old_log_is_format_1_and_the_new_one_says_its_format(logs: tuple[str, str]) -> None:
    old, new = (json.loads(t.splitlines()[0])["header"] for t in logs)
    assert "log_format" not in old
    assert new["log_format"] == LOG_FORMAT == 2


def test_the_same_battle_in_both_formats_gives_the_same_replay(logs: tuple[str, str]) -> None:
    old, new = (read_log(t) for t in logs)
    # the battle has what format 2 changed: weapons hits, lasting cards, resets and returns
    hits = [e for e in new if isinstance(e, ev.HitScored) and e.mounts is not None]
    cards = [e for e in new if isinstance(e, ev.CardUsed) and e.changes]
    assert hits
    assert cards
    assert any(isinstance(e, ev.ShipReset) for e in new)
    assert all(e.mounts is None for e in old if isinstance(e, ev.HitScored))
    assert without_meta(replay_data(old)) == without_meta(replay_data(new))


def test_only_the_new_fields_differ_between_the_formats(logs: tuple[str, str]) -> None:
    new_fields = {
        "hit_scored": ("mounts",),
        "card_used": ("changes",),
        "ship_reset": ("shields", "cards"),
        "ship_returned": ("speed",),
        "volley_fired": ("exchange",),  # rules fpf-4's, not format 2's: dropped from the old too
    }
    for a, b in zip(*(t.splitlines() for t in logs), strict=True):
        old, new = json.loads(a), json.loads(b)
        if new["e"] == "battle_started":
            new["header"].pop("log_format")
        for name in new_fields.get(new["e"], ()):
            new.pop(name)
        assert old == new


def test_both_formats_narrate_alike(logs: tuple[str, str]) -> None:
    old, new = (read_log(t) for t in logs)
    assert told(old) == told(new)
