"""The advanced scenarios' surveys (scripts/field_battles.py, terrain_battles.py,
tactics_battles.py): many seeded battles, each failure counted and the first one shown, how
the battles ended, and how often each event of a module's kinds happened."""

from __future__ import annotations

import collections
import traceback
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from kolrami.engine.battle import Battle
from kolrami.fleet import Fleet
from kolrami.scenarios.models import Scenario
from kolrami.sim.play import simulate


@dataclass
class Tally:
    """What a survey of one scenario counted."""

    kinds: Collection[str]
    errors: int = 0
    ends: collections.Counter[str] = field(default_factory=collections.Counter)
    seen: collections.Counter[str] = field(default_factory=collections.Counter)

    def line(self, name: str, seeds: int, what: str = "events") -> str:
        """One line: the battles, the errors, the ends, the events counted."""
        return (
            f"{name}: {seeds} battles, {self.errors} errors, "
            f"results {dict(sorted(self.ends.items()))}, "
            f"{what} {dict(sorted(self.seen.items()))}"
        )


#: a survey's seed -> the fleets and captains of that seed's battle
Setup = Callable[[int], tuple[tuple[Fleet, Fleet], tuple[str, str]]]


def in_turn(fleets: tuple[Fleet, Fleet], pairings: Sequence[tuple[str, str]]) -> Setup:
    """The same fleets every seed, the captains' pairings in turn."""
    return lambda seed: (fleets, pairings[seed % len(pairings)])


def survey(
    scenario: Scenario,
    seeds: int,
    tally: Tally,
    setup: Setup,
) -> Iterator[tuple[tuple[str, str], Battle]]:
    """Play seeds 0 to `seeds` - 1 (each seed's fleets and captains from `setup`), counting in
    `tally`; each battle that finished is given with its captains for further counts."""
    for seed in range(seeds):
        fleets, captains = setup(seed)
        try:
            battle = simulate(scenario, fleets, captains, seed)
        except Exception:  # a count of failures is the point of a survey
            tally.errors += 1
            if tally.errors == 1:
                print(f"{scenario.name} seed {seed} ({captains}):")
                traceback.print_exc()
            continue
        result = battle.result
        tally.ends[(result.winner or "draw") if result else "unfinished"] += 1
        for event in battle.events():
            if event.kind in tally.kinds:
                tally.seen[event.kind] += 1
        yield captains, battle
