"""Whole simulated events: AI captains fly the fleets through the rounds of a real event.

The event lives in a real store (a temporary SQLite file unless one is given) and goes through
the same pairing, scoring and standings as an event at the counter; only the battles are played
by the engine instead of people.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from kolrami.engine.battle import Battle
from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.rules.module import Capability
from kolrami.scenarios.models import Scenario
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate
from kolrami.tournament import core
from kolrami.tournament.store import Store

NAMES = (
    "Mara",
    "Dev",
    "Ilse",
    "Tomas",
    "Ann",
    "Ben",
    "Cat",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lou",
    "Max",
)
DOCTRINES = ("aggressive", "kiting")


@dataclass(slots=True)
class PlayedGame:
    """A table of the simulated event: who, the result, and the battle itself."""

    round: int
    table: int
    a: str
    b: str | None
    winner: str | None = None
    fp: dict[str, int] = field(default_factory=dict)
    battle: Battle | None = None


@dataclass(slots=True)
class SimulatedEvent:
    """What a simulated event produced."""

    name: str
    seed: int
    players: dict[str, tuple[Fleet, str]]  # name: (fleet, captain)
    games: list[PlayedGame]
    standings: list[core.Standing]
    roll_offs: list[core.RollOff]
    store_url: str


def player_names(count: int) -> list[str]:
    """Names for simulated players: familiar ones first, then numbered."""
    return [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(count)]


def run_event(
    fleets: list[tuple[str, Fleet]],
    players: int,
    seed: int,
    scenario: str = "peak-performance",
    rounds: int = 3,
    store_url: str | None = None,
    on_event: Callable[[str, object], None] | None = None,
    captains: Sequence[str] = DOCTRINES,
) -> SimulatedEvent:
    """Play a whole event: register, pair, battle, record, for every round; then roll off.
    Players take the `captains` in turn (by name, or a module or file path)."""
    check_event(players, rounds, fleets)
    if not captains:
        raise InvalidInputError("name at least one captain")
    tell = on_event or (lambda kind, data: None)
    sc = load_scenario(scenario)
    if store_url is not None:
        return _play(
            Store(store_url), fleets, players, seed, (scenario, sc), rounds, tell, captains
        )
    # no store asked for: a temporary one, removed when the event is played
    with tempfile.TemporaryDirectory(prefix="kolrami-sim-") as folder:
        store = Store(f"sqlite:///{Path(folder) / 'event.db'}")
        try:
            played = _play(store, fleets, players, seed, (scenario, sc), rounds, tell, captains)
        finally:
            store.engine.dispose()  # close the file before its folder goes
        return dataclasses.replace(played, store_url="")


def check_event(players: int, rounds: int, fleets: list[tuple[str, Fleet]]) -> None:
    """Refuse an event that cannot be played, before anything is said or stored."""
    if players < 2:
        raise InvalidInputError(f"--players {players}: an event needs at least 2 players")
    if players > 256:
        raise InvalidInputError(f"--players {players}: simulate at most 256 players")
    if not 1 <= rounds <= 20:
        raise InvalidInputError(f"--rounds {rounds}: an event has 1 to 20 Battle Rounds (OP-01)")
    if not fleets:
        raise InvalidInputError("no fleets to fly: give presets or fleet files")


def _play(
    store: Store,
    fleets: list[tuple[str, Fleet]],
    players: int,
    seed: int,
    scenario_of: tuple[str, Scenario],
    rounds: int,
    tell: Callable[[str, object], None],
    captains: Sequence[str] = DOCTRINES,
) -> SimulatedEvent:
    scenario, sc = scenario_of
    store_url = store.url
    name = f"Simulated {sc.title or sc.name} (seed {seed})"
    store.create_event(name, sp_limit=300, scenario=scenario, rounds=rounds, seed=seed)
    roster: dict[str, tuple[Fleet, str]] = {}
    for i, pname in enumerate(player_names(players)):
        label, fleet = fleets[i % len(fleets)]
        captain = captains[i % len(captains)]
        store.add_player(name, pname, fleet, allow_illegal=True)
        roster[pname] = (fleet, captain)
        tell("player", (pname, label, captain))
    played: list[PlayedGame] = []
    for number in range(1, rounds + 1):
        pairing = store.pair_next_round(name)
        tell("pairing", pairing)
        for table, g in enumerate(pairing.games, start=1):
            game = PlayedGame(number, table, g.a, g.b)
            if g.b is None:
                played.append(game)
                continue
            (fa, ca), (fb, cb) = roster[g.a], roster[g.b]
            battle = simulate(sc, (fa, fb), (ca, cb), derive_seed(seed, "battle", number, table))
            result = battle.finish()
            points = (
                battle.fleet_points
                if Capability.SCORES_FLEET_POINTS in battle.rules.capabilities
                else {"A": battle.destroyed_value()["B"], "B": battle.destroyed_value()["A"]}
            )
            winner_side = result.winner or ("A" if points["A"] >= points["B"] else "B")
            game.winner = g.a if winner_side == "A" else g.b
            game.fp = {g.a: points["A"], g.b: points["B"]}
            game.battle = battle
            for pname in (g.a, g.b):
                store.record_result(
                    name, number, pname, pname == game.winner, game.fp[pname], who="simulation"
                )
            played.append(game)
            tell("game", game)
        tell("round", (number, store.state(name).standings()))
    rolls = store.roll_off_ties(name)
    state = store.state(name)
    final = state.standings()
    tell("final", final)
    return SimulatedEvent(name, seed, roster, played, final, rolls, store_url)
