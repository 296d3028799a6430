"""Property tests over random events: pairing and standings keep their promises (OP-02..24)."""

from __future__ import annotations

import random

import pytest

from kolrami.tournament.core import Game
from kolrami.tournament.core import pair_round
from kolrami.tournament.core import standings


def _perfect_rematch_free_exists(players: list[str], played: set[frozenset[str]]) -> bool:
    """Brute force: can these players all be paired without a rematch?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in played
        and _perfect_rematch_free_exists(rest[:i] + rest[i + 1 :], played)
        for i, other in enumerate(rest)
    )


def random_event(rng: random.Random, seed: int) -> None:
    """Play a random event and check every round as it is paired."""
    n = rng.randint(2, 64 if rng.random() < 0.3 else 12)
    players = [f"P{i}" for i in range(n)]
    active = list(players)
    rounds: list[list[Game]] = []
    had_bye: set[str] = set()
    for number in range(1, 4):
        if len(active) < 2:
            break
        pairing = pair_round(number, active, rounds, seed)
        seats = [p for g in pairing.games for p in g.players]
        assert sorted(seats) == sorted(active)  # everyone exactly once (OP-02, OP-07)
        byes = [g.a for g in pairing.games if g.bye]
        assert len(byes) == len(active) % 2
        if byes and byes[0] in had_bye:
            # a second bye only when every active player has had one... or no other choice
            assert all(p in had_bye for p in active) or n <= 4
        had_bye.update(byes)
        played = {frozenset(g.players) for r in rounds for g in r if not g.bye}
        if pairing.rematches and len(active) <= 8:
            rest = [p for p in active if p not in byes]
            assert not _perfect_rematch_free_exists(rest, played)
        games = []
        for g in pairing.games:
            if g.bye:
                games.append(g)
                continue
            assert g.b is not None
            winner = rng.choice([g.a, g.b])
            games.append(
                Game(
                    number,
                    g.a,
                    g.b,
                    winner,
                    ((g.a, rng.randint(0, 400)), (g.b, rng.randint(0, 400))),
                )
            )
        rounds.append(games)
        if rng.random() < 0.2 and len(active) > 2:
            active.remove(rng.choice(active))  # a drop
    table = standings(players, rounds)
    again = standings(list(reversed(players)), [list(r) for r in rounds])
    assert table == again  # a pure function of the results
    keys = [(-s.battle_points, -s.fleet_points) for s in table]
    assert keys == sorted(keys)
    # a rank is shared exactly by players level on Battle and Fleet Points (no roll-offs here),
    # and is one more than the number of players ahead
    for i, s in enumerate(table):
        ahead = sum(
            1
            for t in table
            if (t.battle_points, t.fleet_points) > (s.battle_points, s.fleet_points)
        )
        assert s.rank == ahead + 1
        assert s.tied == any(t is not s and keys[j] == keys[i] for j, t in enumerate(table))


@pytest.mark.slow
@pytest.mark.rule("OP-02", "OP-04", "OP-07", "OP-09", "OP-22")
def test_random_events(sample: int) -> None:
    rng = random.Random(2026)
    for i in range(250 * sample):  # 5,000 events with --full
        random_event(rng, seed=i)
