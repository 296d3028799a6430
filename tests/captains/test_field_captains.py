"""The captains and the web, probe and jamming orders (modules adv-webs, adv-probes, adv-comms):
the random captain reaches every kind of order (the fuzzer must), and the doctrine uses them
where they help: Tholians weave webs, hunters send probes after cloaked ships."""

from __future__ import annotations

import collections

from kolrami.engine.events import OrderGiven
from kolrami.fleet import load_fleet
from kolrami.rules.advanced.field_events import ProbeLaunched
from kolrami.rules.advanced.field_events import ProbeSensed
from kolrami.rules.advanced.field_events import WebCast
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate

#: every kind of order the three modules add, as the log writes them
KINDS = {
    "WEB T",
    "WEB P",
    "WEB K",
    "WEB W",
    "WEB F",
    "PROBE L",
    "PROBE X",
    "JAM ship",
    "JAM probe",
    "JAM stop",
}


def kinds_of(order: str) -> set[str]:
    """The kinds of web, probe and jamming order in one logged order."""
    head, *tokens = order.split()
    if head not in ("WEB", "PROBE", "JAM") or tokens == ["NONE"]:
        return set()
    if head == "JAM":
        return {
            "JAM stop" if t.endswith(">-") else "JAM probe" if ">p" in t else "JAM ship"
            for t in tokens
        }
    return {f"{head} {t.split(':')[1][0]}" for t in tokens}


def _battles(name: str, pairings: tuple[tuple[str, str], ...], seeds: int):  # type: ignore[no-untyped-def]
    scenario = builtin_scenario(name)
    fleets = (load_fleet(scenario.fleets[0]), load_fleet(scenario.fleets[1]))
    for seed in range(seeds):
        yield simulate(scenario, fleets, pairings[seed % len(pairings)], seed)


def test_the_random_captain_reaches_every_web_probe_and_jamming_order() -> None:
    seen: collections.Counter[str] = collections.Counter()
    pairings = (("random", "aggressive"), ("aggressive", "random"))
    for name in ("web-trap", "probe-hunt"):
        for battle in _battles(name, pairings, 8):
            for event in battle.events():
                if isinstance(event, OrderGiven):
                    seen.update(kinds_of(event.order))
    missing = KINDS - set(seen)
    assert not missing, f"the random captain never chose: {sorted(missing)}"


def test_kinds_of_reads_each_order() -> None:
    assert kinds_of("WEB A1:T>B2 A2:K>B1") == {"WEB T", "WEB K"}
    assert kinds_of("JAM A1>B2 A2>p1 A3>-") == {"JAM ship", "JAM probe", "JAM stop"}
    assert kinds_of("PROBE A1:L4.5 A1:X0>p1") == {"PROBE L", "PROBE X"}
    assert kinds_of("WEB NONE") == set()


def test_doctrine_tholians_weave_webs() -> None:
    casts = [
        e
        for battle in _battles("web-trap", (("aggressive", "aggressive"),), 3)
        for e in battle.events()
        if isinstance(e, WebCast)
    ]
    assert casts
    assert {m[0] for e in casts for m in e.makers} == {"A"}


def test_doctrine_hunters_send_probes_that_find_the_cloaked_romulans() -> None:
    launched = found = 0
    for battle in _battles("probe-hunt", (("aggressive", "aggressive"),), 3):
        for e in battle.events():
            if isinstance(e, ProbeLaunched) and e.ship.startswith("A"):
                launched += 1
            if isinstance(e, ProbeSensed) and e.found and e.owner.startswith("A"):
                found += 1
    assert launched
    assert found
