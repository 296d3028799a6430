"""Organized play as pure functions of the results (OP-01, OP-02, OP-03, OP-04, OP-05, OP-06, OP-07,
OP-08, OP-09, OP-10, OP-11, OP-12, OP-13, OP-14, OP-15, OP-16, OP-17, OP-18, OP-19, OP-20, OP-21,
OP-22, OP-23, OP-24): who plays whom, who has the bye,
what everyone has scored, and who ranks where.

Nothing here touches a database: the store (store.py) persists events and calls these functions,
the web app and the simulator call the same ones, so there is one implementation of the rules.
Everything random (round-1 pairings, byes, ties) draws from a generator seeded by the event's
seed and the round, so a round can always be derived again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from kolrami.engine.chance import Dice, derive_seed
from kolrami.errors import InvalidInputError
from kolrami.rules.rolloff import attack_dice, count_roll_off

WIN_BP, BYE_BP, LOSS_BP = 2, 2, 1  # OP-18
DEFAULT_TITLES = ("Admiral", "Vice Admiral")  # OP-22; further titles are an event setting
ROLL_OFF_DICE = 5  # OP-24


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a round: two players, or one player with the bye (b is None).

    `winner` is None until the result is in; Fleet Points are per player (OP-20).
    """

    round: int
    a: str
    b: str | None
    winner: str | None = None
    fp: tuple[tuple[str, int], ...] = ()

    @property
    def bye(self) -> bool:
        """A bye, not a game."""
        return self.b is None

    @property
    def players(self) -> tuple[str, ...]:
        """Who is at this table."""
        return (self.a,) if self.b is None else (self.a, self.b)

    def fleet_points(self, player: str) -> int | None:
        """The player's Fleet Points at this table, if reported."""
        return dict(self.fp).get(player)

    @property
    def complete(self) -> bool:
        """A bye is complete as soon as it is given; a game once it has a winner and both FP."""
        return self.bye or (self.winner is not None and len(self.fp) == 2)


@dataclass(slots=True)
class Standing:
    """A player's totals after some rounds."""

    player: str
    battle_points: int = 0
    fleet_points: int = 0
    byes: int = 0
    wins: int = 0
    losses: int = 0
    fp_by_round: list[int] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    rank: int = 0
    title: str = ""
    roll_off: int | None = None  # hits and criticals in the final roll-off (OP-24)


def standing_json(s: Standing) -> dict[str, object]:
    """A standing as JSON, in the documented shape (rank, title, player, points, byes)."""
    return {
        "rank": s.rank,
        "title": s.title,
        "player": s.player,
        "battle_points": s.battle_points,
        "fleet_points": s.fleet_points,
        "byes": s.byes,
        "fp_by_round": list(s.fp_by_round),
    }


def bye_fleet_points(games: Sequence[Game]) -> int:
    """A bye's Fleet Points: the mean of everyone else's that round, rounded up (OP-10)."""
    scores = [p for g in games if not g.bye for _, p in g.fp]
    return math.ceil(sum(scores) / len(scores)) if scores else 0


def standings(
    players: Iterable[str],
    rounds: Sequence[Sequence[Game]],
    roll_offs: dict[str, int] | None = None,
    titles: Sequence[str] = DEFAULT_TITLES,
) -> list[Standing]:
    """Totals and ranks: Battle Points, then Fleet Points, then the roll-off (OP-18, OP-19, OP-20,
    OP-21, OP-22, OP-23, OP-24).

    A pure function of the results: the same games always give the same standings. Players
    still level after Battle Points, Fleet Points and any roll-off keep a stable order by name;
    `tied_groups` names them so the organizer can roll off.
    """
    table = {p: Standing(p) for p in players}
    for games in rounds:
        bye_fp = bye_fleet_points(games)
        for g in games:
            for p in g.players:
                if p not in table:
                    raise InvalidInputError(f"round {g.round}: '{p}' is not a player of the event")
            if g.bye:
                s = table[g.a]
                s.battle_points += BYE_BP
                s.byes += 1
                s.fleet_points += bye_fp
                s.fp_by_round.append(bye_fp)
                continue
            if g.winner is None:
                continue  # not reported yet
            for p in g.players:
                s = table[p]
                won = p == g.winner
                s.battle_points += WIN_BP if won else LOSS_BP
                s.wins += won
                s.losses += not won
                fp = g.fleet_points(p) or 0
                s.fleet_points += fp
                s.fp_by_round.append(fp)
                s.opponents.append(g.b if p == g.a else g.a)  # type: ignore[arg-type]
    rolls = roll_offs or {}
    for p, n in rolls.items():
        if p in table:
            table[p].roll_off = n
    ordered = sorted(
        table.values(),
        key=lambda s: (
            -s.battle_points,
            -s.fleet_points,
            -(s.roll_off if s.roll_off is not None else -1),
            s.player,
        ),
    )
    for i, s in enumerate(ordered, start=1):
        s.rank = i
        s.title = titles[i - 1] if i - 1 < len(titles) else ""
    return ordered


def tied_groups(table: Sequence[Standing]) -> list[list[str]]:
    """Players level on Battle and Fleet Points and not separated by a roll-off (OP-24)."""
    groups: dict[tuple[int, int, int | None], list[str]] = {}
    for s in table:
        groups.setdefault((s.battle_points, s.fleet_points, s.roll_off), []).append(s.player)
    return [g for g in groups.values() if len(g) > 1]


def roll_off(players: Sequence[str], seed: int) -> dict[str, int]:
    """Five attack dice each; hits and criticals count; the level ones roll again (OP-24).

    Each player's value keeps every throw he made as a digit, up to six throws: 3 hits and
    criticals, then 2 on the re-roll, is 320000. Higher is better, so the values order the
    players exactly as the roll-off did. (A roll-off entered by hand is the count of one throw.)
    """
    dice = Dice(seed)
    result = dict.fromkeys(players, 0)
    pending = [list(players)]
    weight = 10**5
    while pending and weight >= 1:
        nxt: list[list[str]] = []
        for group in pending:
            counts = {p: count_roll_off(attack_dice(dice, ROLL_OFF_DICE)) for p in group}
            for p, n in counts.items():
                result[p] += n * weight
            by: dict[int, list[str]] = {}
            for p, n in counts.items():
                by.setdefault(n, []).append(p)
            nxt += [g for g in by.values() if len(g) > 1]
        pending = nxt
        weight //= 10
    return result


# --- pairing ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables, the bye, and any rematch that could not be avoided."""

    round: int
    games: tuple[Game, ...]
    rematches: tuple[tuple[str, str], ...] = ()


def _rng(seed: int, round_number: int, purpose: str) -> random.Random:
    return random.Random(derive_seed(seed, "round", round_number, purpose))


def pair_round(
    round_number: int,
    active: Sequence[str],
    previous: Sequence[Sequence[Game]],
    seed: int,
) -> Pairing:
    """Pair a round: the bye first (OP-07, OP-08, OP-09), then the tables (OP-03, OP-04, OP-21)."""
    if len(active) < 2:
        raise InvalidInputError(
            f"round {round_number} needs at least 2 active players, not {len(active)}"
        )
    if len(set(active)) != len(active):
        raise InvalidInputError("a player is listed twice")
    everyone = dict.fromkeys([*active, *(p for r in previous for g in r for p in g.players)])
    table = {s.player: s for s in standings(list(everyone), previous)}
    played: set[frozenset[str]] = {frozenset(g.players) for r in previous for g in r if not g.bye}
    had_bye = {g.a for r in previous for g in r if g.bye}
    rng_order = _rng(seed, round_number, "order")
    rng_bye = _rng(seed, round_number, "bye")
    players = list(active)
    bye: str | None = None
    if len(players) % 2:
        if round_number == 1 or not previous:
            bye = rng_bye.choice(sorted(players))  # OP-08
        else:
            bye = _choose_bye(players, table, had_bye, played, rng_bye)
        players.remove(bye)
    if round_number == 1 or not previous:
        rng_order.shuffle(players := sorted(players))  # OP-03
        pairs = [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
        rematches: list[tuple[str, str]] = []
    else:
        pairs, rematches = _swiss(players, table, played, rng_order)
    games = [Game(round_number, a, b) for a, b in pairs]
    if bye is not None:
        games.append(Game(round_number, bye, None))
    return Pairing(round_number, tuple(games), tuple(rematches))


def _order(players: Sequence[str], table: dict[str, Standing], rng: random.Random) -> list[str]:
    """Standings order: Battle Points, Fleet Points, then a seeded draw among the level."""
    draw = {p: rng.random() for p in sorted(players)}
    return sorted(players, key=lambda p: (-table[p].battle_points, -table[p].fleet_points, draw[p]))


def _choose_bye(
    players: list[str],
    table: dict[str, Standing],
    had_bye: set[str],
    played: set[frozenset[str]],
    rng: random.Random,
) -> str:
    """Lowest Battle Points without a bye, fewer Fleet Points, then at random (OP-09); only a
    candidate whose absence leaves everyone else pairable without a rematch, when one exists."""
    draw = {p: rng.random() for p in sorted(players)}
    order = sorted(
        players,
        key=lambda p: (p in had_bye, table[p].battle_points, table[p].fleet_points, draw[p]),
    )
    for candidate in order:
        rest = [p for p in players if p != candidate]
        if _perfect_without_rematch(rest, played):
            return candidate
    return order[0]


def _perfect_without_rematch(players: list[str], played: set[frozenset[str]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(
        (a, b)
        for i, a in enumerate(players)
        for b in players[i + 1 :]
        if frozenset((a, b)) not in played
    )
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(players)


def _swiss(
    players: list[str],
    table: dict[str, Standing],
    played: set[frozenset[str]],
    rng: random.Random,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Maximum-weight matching over allowed pairs, favouring equal records (OP-04, OP-21).

    Players are ordered by the standings; each may meet those within a window of places, which
    keeps the graph small (pairing 1,024 players stays fast); the window widens until everyone
    has a partner. Rematches are allowed only when no perfect pairing avoids them, and then with
    a penalty so that as few as possible happen.
    """
    order = _order(players, table, rng)
    place = {p: i for i, p in enumerate(order)}
    n = len(order)
    window = 8
    while True:
        wide = window >= n
        graph = nx.Graph()
        graph.add_nodes_from(order)
        for i, a in enumerate(order):
            for b in order[i + 1 : n if wide else i + 1 + window]:
                rematch = frozenset((a, b)) in played
                if rematch and not wide:
                    continue
                graph.add_edge(
                    a, b, weight=_weight(table[a], table[b], place[a], place[b], n, rematch)
                )
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == n:
            break
        window *= 2
    pairs = sorted(
        (tuple(sorted((a, b), key=place.__getitem__)) for a, b in matching),
        key=lambda ab: place[ab[0]],
    )
    rematches = [(a, b) for a, b in pairs if frozenset((a, b)) in played]
    return [(a, b) for a, b in pairs], rematches


def _weight(a: Standing, b: Standing, pa: int, pb: int, n: int, rematch: bool) -> int:
    """Higher for players with equal records and close places. A rematch costs more than all
    the record differences of a whole round together, so the matching takes one only when no
    pairing without it exists (OP-04)."""
    bp = abs(a.battle_points - b.battle_points)
    fp = min(abs(a.fleet_points - b.fleet_points), 10**5 - 1)
    w = bp * bp * 10**9 + abs(pa - pb) * 10**5 + fp
    rematch_cost = (n + 1) * 10**14 if rematch else 0
    return 10**18 * (n + 1) - w - rematch_cost
