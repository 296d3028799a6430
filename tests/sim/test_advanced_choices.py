"""The advanced game's decisions by hand: every choice offered is an order the rules accept
(over every advanced scenario and many seeds), numbers pick and combine them, a refusal names
its rule, and a battle played from the numbered choices re-runs identically from its log."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from kolrami.captains.registry import make_captain
from kolrami.captains.scripted import logged_captains
from kolrami.engine.driver import apply
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.engine.driver import start
from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.advanced.choices import CHOOSERS
from kolrami.rules.advanced.choices import menu
from kolrami.rules.advanced.field_orders import FIELD_FITS
from kolrami.rules.advanced.orders import FITS
from kolrami.rules.registry import parse_order
from kolrami.rules.registry import read_log
from kolrami.scenarios.models import BUILTIN
from kolrami.scenarios.models import builtin_scenario
from kolrami.scenarios.models import load_scenario
from kolrami.sim.session import HUMAN
from kolrami.sim.session import PlaySession
from kolrami.sim.session import choices
from play_kit import CLOSE_QUARTERS
from play_kit import by_hand

ADVANCED = tuple(n for n in BUILTIN if builtin_scenario(n).driver == "advanced")
FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")


def test_every_advanced_decision_type_has_its_choices() -> None:
    assert set(FITS) | set(FIELD_FITS) <= set(CHOOSERS)


def _offered(scenario_name: str, seeds: range) -> Counter[str]:
    """Play whole battles with the built-in captains, checking every menu on the way."""
    sc = load_scenario(scenario_name)
    a, b = sc.fleets or FLEETS
    fleets = (load_fleet(a), load_fleet(b))
    kinds: Counter[str] = Counter()
    for seed in seeds:
        battle = new_battle(sc, fleets, seed)
        name = "random" if seed % 2 else "aggressive"
        captains = {s: make_captain(name, captain_dice(seed, s)) for s in "AB"}
        views = {s: battle.rules.view(battle, s) for s in "AB"}
        d = start(battle)
        while d is not None:
            view = views[d.side]
            m = menu(view, d)
            if m is not None:
                assert m.choices, f"{type(d).__name__} offers nothing"
                kinds[type(d).__name__] += 1
                for c in m.choices:
                    order = parse_order(c.order)
                    assert str(order) == c.order
                    assert view.can(order), (scenario_name, seed, c)
                    if c.item:
                        assert m.combine([c]) == c.order
            d = apply(battle, captains[d.side].decide(view, d))
    return kinds


@pytest.mark.rule("ADV-SEQ-03")
@pytest.mark.parametrize("name", ADVANCED)
def test_every_choice_offered_is_accepted_by_the_rules(name: str) -> None:
    kinds = _offered(name, range(4))
    assert kinds["MoveDecision"]
    assert kinds["PowerDecision"]


@pytest.mark.rule("PP-11")
def test_peak_performance_returns_offer_legal_spots() -> None:
    assert _offered("peak-performance", range(3))["ReturnDecision"]


@pytest.mark.rule("ADV-MINE-02", "ADV-MINE-09", "ADV-TRAC-01")
def test_close_quarters_offers_tactics_and_terrain_orders_by_number() -> None:
    session = PlaySession(
        load_scenario(CLOSE_QUARTERS),
        (load_fleet(FLEETS[0]), load_fleet(FLEETS[1])),
        0,
        (HUMAN, "aggressive"),
    )
    given: list[str] = []
    while not session.over:
        d = session.decision
        assert d is not None
        m = session.menu()
        assert m is not None
        listed = [(i, c.item or c.order, c.label) for i, c in enumerate(m.choices, 1)]
        lines = choices(session, d)
        assert any(line.strip().startswith("1. ") for line in lines)
        text = session.pick(by_hand(type(d).__name__, getattr(d, "ships", ()), listed))
        assert text is not None
        assert session.submit(text) is None, text
        given.append(text)
    assert any(t.startswith("LAY A") for t in given)
    assert any(">M" in t for t in given)  # a firing mine shot at
    assert any(t.startswith("TACTICS") and t != "TACTICS NONE" for t in given)
    text = session.log_text()
    assert PlaySession.resume(text).log_text() == text
    events = read_log(text)
    scenario, fleets, captains, seed, extra = rebuild(events[0].header)  # type: ignore[attr-defined]
    again = new_battle(scenario, fleets, seed, captains, extra_rules=extra)
    run(again, logged_captains(events))
    assert again.log.jsonl() == text  # the log re-runs identically from its orders


def test_numbers_pick_and_combine_and_bad_ones_are_refused() -> None:
    sc = builtin_scenario("advanced")
    session = PlaySession(sc, (load_fleet(FLEETS[0]), load_fleet(FLEETS[1])), 2, (HUMAN, HUMAN))
    while type(session.decision).__name__ != "PowerDecision":
        m = session.menu()
        assert m is not None
        assert session.submit(m.choices[0].order) is None
    m = session.menu()
    assert m is not None
    assert session.pick("1") == "POWER NONE"
    first: dict[str, int] = {}
    for i, c in enumerate(m.choices, 1):
        if c.item:
            first.setdefault(c.group, i)
    a, b = list(first.values())[:2]
    both = session.pick(f"{a} {b}")
    assert both == f"POWER {m.choices[a - 1].item} {m.choices[b - 1].item}"
    assert session.pick("A1:M0") is None  # not numbers: an order's text
    with pytest.raises(InvalidInputError, match="from 1 to"):
        session.pick("999")
    with pytest.raises(InvalidInputError, match="one choice per ship"):
        session.pick(f"{a} {a + 1}")
    too_fast = re.sub(r":M\d+/", ":M99/", m.choices[a - 1].item)
    assert session.submit(f"POWER {too_fast}") is not None  # refused, the battle untouched
    assert session.submit(both) is None
    while type(session.decision).__name__ != "MoveDecision":
        m = session.menu()
        assert m is not None
        assert session.submit(m.choices[0].order) is None
    d = session.decision
    refusal = session.submit(f"MOVE {d.ship} 99 T0 T0")  # type: ignore[union-attr]
    assert refusal is not None
    assert "ADV-SEQ-02" in refusal.rules  # the refusal names its rule
