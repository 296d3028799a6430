"""Peak Performance at scale: seeded battles keep the scenario's promises, and the score check
agrees with every score they produce (PP-04..22)."""

from __future__ import annotations

import pytest

from kolrami.engine.battle import Battle
from kolrami.fleet import load_fleet
from kolrami.fleet import preset_names
from kolrami.rules import events as ev
from kolrami.scenarios.models import builtin_scenario
from kolrami.sim.play import simulate
from kolrami.sim.score_check import check_score

PEAK = builtin_scenario("peak-performance")
CAPTAINS = [
    ("random", "random"),
    ("aggressive", "random"),
    ("aggressive", "kiting"),
    ("kiting", "aggressive"),
]
SQUADRONS = [p for p in preset_names() if not p.endswith("-fleet")]


def battles(count: int) -> list[Battle]:
    out = []
    for seed in range(count):
        a = SQUADRONS[seed % len(SQUADRONS)]
        b = SQUADRONS[(seed // len(SQUADRONS) + 1) % len(SQUADRONS)]
        fleets = (load_fleet(a), load_fleet(b))
        out.append(simulate(PEAK, fleets, CAPTAINS[seed % len(CAPTAINS)], seed))
    return out


@pytest.mark.slow
@pytest.mark.rule("PP-04", "PP-10", "PP-11", "PP-12", "PP-16", "PP-17", "PP-20", "PP-21")
def test_battle_simulation_invariants(sample: int) -> None:
    resets_seen = 0
    for battle in battles(50 * sample):
        events = list(battle.events())
        assert not [e for e in events if isinstance(e, ev.ShipDestroyed)]
        resets = [e for e in events if isinstance(e, ev.ShipReset)]
        kills = [e for e in events if isinstance(e, ev.FleetPointsAwarded) and e.reason == "kill"]
        assert [e.ship for e in resets] == [e.ship for e in kills]
        resets_seen += len(resets)
        for ship in battle.ships.values():
            assert not ship.destroyed
            assert ship.tokens == sum(1 for e in resets if e.ship == ship.id)
        for e in events:
            if isinstance(e, ev.ShipReturned):
                tokens = sum(
                    1 for r in resets if r.ship == e.ship and events.index(r) < events.index(e)
                )
                # the starting value includes lasting card modifiers (PP-12)
                start = battle.ships[e.ship].max_shields
                assert e.shields == max(0, start - tokens)
        assert battle.result is not None
        assert battle.result.turns == PEAK.turn_limit
        total = {"A": 0, "B": 0}
        for e in events:
            if isinstance(e, ev.FleetPointsAwarded):
                total[e.side] += e.points
                assert e.total == total[e.side]
        assert total == battle.fleet_points
    assert resets_seen > 0  # the sample really exercises resets


@pytest.mark.slow
@pytest.mark.rule("PP-16", "PP-17", "PP-18", "PP-21")
def test_score_check_accepts_every_simulated_score(sample: int) -> None:
    for battle in battles(50 * sample):
        for side, fleet in zip("AB", battle.fleets, strict=True):
            scorer = "B" if side == "A" else "A"
            points = battle.fleet_points[scorer]
            verdict = check_score(fleet, points, PEAK.turn_limit)
            assert verdict.achievable, (side, points)
            assert verdict.kill_points + verdict.resource_points + verdict.bonus_points == points
