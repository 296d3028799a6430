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
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

import networkx as nx

from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.rules.rolloff import attack_dice
from kolrami.rules.rolloff import count_roll_off

WIN_BP, BYE_BP, LOSS_BP = 2, 2, 1  # OP-18
DEFAULT_TITLES = ("Admiral", "Vice Admiral")  # OP-22; further titles are an event setting
ROLL_OFF_DICE = 5  # OP-24
_THROWS_KEPT = 16  # throws a roll-off's order value counts (level 16 times running: never)


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
    """A player's totals after some rounds.

    `rank` is shared by players level on Battle and Fleet Points whom no roll-off for that very
    tie has separated (OP-24); `tied` says so, `settled_by` names the roll-off that ordered him.
    """

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
    roll_off: int | None = None  # the order value of the roll-off that placed him (OP-24)
    tied: bool = False
    settled_by: str = ""
    dropped: bool = False


def standing_json(s: Standing) -> dict[str, object]:
    """A standing as JSON, in the documented shape (rank, title, player, points, byes, whether
    he is level with others at his rank and whether he has dropped)."""
    return {
        "rank": s.rank,
        "title": s.title,
        "player": s.player,
        "battle_points": s.battle_points,
        "fleet_points": s.fleet_points,
        "byes": s.byes,
        "fp_by_round": list(s.fp_by_round),
        "tied": s.tied,
        "dropped": s.dropped,
    }


def bye_fleet_points(games: Sequence[Game]) -> int:
    """A bye's Fleet Points: the mean of everyone else's that round, rounded up (OP-10)."""
    scores = [p for g in games if not g.bye for _, p in g.fp]
    return math.ceil(sum(scores) / len(scores)) if scores else 0


@dataclass(frozen=True, slots=True)
class RollOff:
    """One roll-off (OP-24): the tie it was rolled for (these players, level on these Battle and
    Fleet Points) and each player's throws, hits and criticals of five attack dice, in order
    (a second throw only while level with someone after the first, and so on).

    It settles that tie only: when a later round or a correction makes a different tie (other
    players, other points), the players are level again and roll again.
    """

    battle_points: int
    fleet_points: int
    throws: tuple[tuple[str, tuple[int, ...]], ...]
    source: str = ""
    after_round: int = 0

    @property
    def players(self) -> frozenset[str]:
        """The players of the tie."""
        return frozenset(p for p, _ in self.throws)

    def value(self, player: str) -> int:
        """An order value for the player's throws (higher places higher): each throw a digit."""
        throws = dict(self.throws)[player][:_THROWS_KEPT]
        return sum(n * (ROLL_OFF_DICE + 1) ** (_THROWS_KEPT - 1 - i) for i, n in enumerate(throws))

    def describe(self) -> str:
        """The throws, as the standings show them: 'Ann 3, Bob 3 then 1'."""
        return ", ".join(
            f"{p} {' then '.join(str(n) for n in t)}"
            for p, t in sorted(self.throws, key=lambda pt: -self.value(pt[0]))
        )


def check_throws(throws: dict[str, tuple[int, ...]]) -> None:
    """Refuse throws that cannot be a roll-off (OP-24): a throw shows 0 to 5 results (five
    dice); players level after a throw throw again, the others stop; nobody may end level."""
    if len(throws) < 2:
        raise InvalidInputError("a roll-off is between two or more level players")
    for p, t in throws.items():
        if not t:
            raise InvalidInputError(f"{p}'s roll-off: give the results of his throw")
        for n in t:
            if not 0 <= n <= ROLL_OFF_DICE:
                raise InvalidInputError(
                    f"{p}'s roll-off: {n} results; {ROLL_OFF_DICE} attack dice show 0 to "
                    f"{ROLL_OFF_DICE} hits and criticals (OP-24)"
                )
    pending = [sorted(throws)]
    depth = 0
    while pending:
        nxt = []
        for group in pending:
            missing = [p for p in group if len(throws[p]) <= depth]
            if missing:
                if depth == 0:
                    raise InvalidInputError(f"{missing[0]}'s roll-off: give his throw")
                level = ", ".join(group)
                raise InvalidInputError(
                    f"{level} are level after throw {depth}: they roll again (OP-24); enter "
                    "every throw, e.g. Ann=3,2"
                )
            by: dict[int, list[str]] = {}
            for p in group:
                by.setdefault(throws[p][depth], []).append(p)
            for n, members in by.items():
                if len(members) > 1:
                    nxt.append(members)
                else:
                    (p,) = members
                    if len(throws[p]) > depth + 1:
                        raise InvalidInputError(
                            f"{p}'s roll-off: his throw {depth + 1} ({n}) settled his place; "
                            "nobody throws again after that"
                        )
        pending = nxt
        depth += 1


def _tally(players: Iterable[str], rounds: Sequence[Sequence[Game]]) -> dict[str, Standing]:
    """Each player's totals of the reported games: Battle and Fleet Points, byes, wins.

    A bye counts once its round is complete: its Battle Points are the round's result, given
    at the end of the Battle Round (OP-18, OP-20), and its Fleet Points the mean of the
    round's others (OP-10), known only then. Counted at pairing, the bye put a player who lost
    round 1 first on 3 BP while round 2 was still being played (issue 47 item 19)."""
    table = {p: Standing(p) for p in players}
    for games in rounds:
        bye_fp = bye_fleet_points(games)
        over = all(g.complete for g in games)
        for g in games:
            for p in g.players:
                if p not in table:
                    raise InvalidInputError(f"round {g.round}: '{p}' is not a player of the event")
            if g.bye:
                if not over:  # OP-18, OP-20: at the end of the round
                    continue
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
    return table


def _settle_ties(
    table: dict[str, Standing], roll_offs: Sequence[RollOff] | dict[str, int] | None
) -> None:
    """Order the players level on Battle and Fleet Points by the roll-off for exactly that tie
    (a plain dict: when every player of the tie has a value)."""
    level: dict[tuple[int, int], list[Standing]] = {}
    for s in table.values():
        level.setdefault((s.battle_points, s.fleet_points), []).append(s)
    for (bp, fp), group in level.items():
        if len(group) < 2:
            continue
        names = frozenset(s.player for s in group)
        if isinstance(roll_offs, dict):
            if all(p in roll_offs for p in names):
                for s in group:
                    s.roll_off = roll_offs[s.player]
            continue
        found = next(
            (
                r
                for r in reversed(roll_offs or ())
                if r.players == names and (r.battle_points, r.fleet_points) == (bp, fp)
            ),
            None,
        )
        if found is not None:
            for s in group:
                s.roll_off = found.value(s.player)
                s.settled_by = f"roll-off after round {found.after_round}: {found.describe()}"


def standings(
    players: Iterable[str],
    rounds: Sequence[Sequence[Game]],
    roll_offs: Sequence[RollOff] | dict[str, int] | None = None,
    titles: Sequence[str] = DEFAULT_TITLES,
    dropped: Iterable[str] = (),
) -> list[Standing]:
    """Totals and ranks: Battle Points, then Fleet Points, then the roll-off (OP-18, OP-19, OP-20,
    OP-21, OP-22, OP-23, OP-24).

    A pure function of the results: the same games always give the same standings. Players
    level on Battle and Fleet Points share a rank unless a roll-off for exactly that tie (the
    same players on the same points) orders them; they are listed by name only for display.
    A roll-off given as a plain dict (a results file) orders a tie when every player of it has
    a value. No titles until a round is complete.
    """
    table = _tally(players, rounds)
    for p in dropped:
        if p in table:
            table[p].dropped = True
    played = rounds_complete(rounds)
    _settle_ties(table, roll_offs)
    ordered = sorted(
        table.values(),
        key=lambda s: (
            -s.battle_points,
            -s.fleet_points,
            -(s.roll_off if s.roll_off is not None else -1),
            s.player,
        ),
    )
    rank = 0
    for i, s in enumerate(ordered):
        before = ordered[i - 1] if i else None
        same = before is not None and (
            before.battle_points,
            before.fleet_points,
            before.roll_off,
        ) == (
            s.battle_points,
            s.fleet_points,
            s.roll_off,
        )
        if not same:
            rank = i + 1
        s.rank = rank
    counts: dict[int, int] = {}
    for s in ordered:
        counts[s.rank] = counts.get(s.rank, 0) + 1
    for s in ordered:
        shared = counts[s.rank] > 1
        s.tied = shared and played > 0
        # a shared rank gets no title until the roll-off; no titles before any round
        s.title = titles[s.rank - 1] if played and not shared and s.rank - 1 < len(titles) else ""
    return ordered


def rounds_complete(rounds: Sequence[Sequence[Game]]) -> int:
    """How many rounds have every result in (the standings are 'after' that many)."""
    return sum(1 for r in rounds if r and all(g.complete for g in r))


def tied_groups(table: Sequence[Standing]) -> list[list[str]]:
    """Players who share a rank after a played round: level on Battle and Fleet Points and not
    separated by a roll-off for that tie (OP-24), each group by name."""
    groups: dict[int, list[str]] = {}
    for s in table:
        if s.tied:
            groups.setdefault(s.rank, []).append(s.player)
    return [sorted(g) for _, g in sorted(groups.items())]


def tie_json(table: Sequence[Standing]) -> list[dict[str, object]]:
    """The tie groups as JSON: the shared rank, the points, the players."""
    by = {s.player: s for s in table}
    return [
        {
            "rank": by[g[0]].rank,
            "battle_points": by[g[0]].battle_points,
            "fleet_points": by[g[0]].fleet_points,
            "players": g,
        }
        for g in tied_groups(table)
    ]


def roll_off(players: Sequence[str], seed: int) -> dict[str, tuple[int, ...]]:
    """Five attack dice each; hits and criticals count; the level ones roll again (OP-24).

    Returns each player's throws in order, as check_throws accepts them.
    """
    dice = Dice(seed)
    result: dict[str, list[int]] = {p: [] for p in players}
    pending = [list(players)]
    while pending:  # a level group throws again; each throw parts it with good odds
        nxt: list[list[str]] = []
        for group in pending:
            counts = {p: count_roll_off(attack_dice(dice, ROLL_OFF_DICE)) for p in group}
            for p, n in counts.items():
                result[p].append(n)
            by: dict[int, list[str]] = {}
            for p, n in counts.items():
                by.setdefault(n, []).append(p)
            nxt += [g for g in by.values() if len(g) > 1]
        pending = nxt
    return {p: tuple(t) for p, t in result.items()}


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
    had_bye = bye_counts(previous)
    rng_order = _rng(seed, round_number, "order")
    rng_bye = _rng(seed, round_number, "bye")
    players = list(active)
    bye: str | None = None
    if len(players) % 2:
        if round_number == 1 or not previous:
            bye = rng_bye.choice(sorted(players))  # OP-08
        else:
            bye = _choose_bye(players, table, had_bye, rng_bye)
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
    had_bye: dict[str, int],
    rng: random.Random,
) -> str:
    """The bye as OP-09 gives it: the fewest Battle Points among those without a bye (then
    fewer Fleet Points, then at random, the catalogue's proposal). Once everyone has had one
    (more rounds than OP-09 foresees), the fewest byes first, then the same order: never a
    third bye while someone has one (issue 47 item 19). Whether the others can be paired
    without a rematch plays no part: the tables are paired afterwards, with an unavoidable
    rematch said so (OP-04)."""
    draw = {p: rng.random() for p in sorted(players)}
    order = sorted(
        players,
        key=lambda p: (had_bye.get(p, 0), table[p].battle_points, table[p].fleet_points, draw[p]),
    )
    return order[0]


def bye_counts(rounds: Sequence[Sequence[Game]]) -> dict[str, int]:
    """How many byes each player has had in `rounds` (players without one are absent)."""
    counts: dict[str, int] = {}
    for games in rounds:
        for g in games:
            if g.bye:
                counts[g.a] = counts.get(g.a, 0) + 1
    return counts


def bye_warnings(rounds: Sequence[Sequence[Game]]) -> list[str]:
    """Byes that OP-09 would not give: a bye to a player who had more byes already than
    another player of that round (who should have had it first), one line each, naming the
    round, the players and the rule. Empty for byes as Kolrami pairs them."""
    out = []
    for number, games in enumerate(rounds, start=1):
        before = bye_counts(rounds[: number - 1])
        playing = sorted({p for g in games if not g.bye for p in g.players})
        for g in games:
            if not g.bye or not before.get(g.a):
                continue
            fewer = [p for p in playing if before.get(p, 0) < before[g.a]]
            if fewer:
                had = before[g.a]
                shown = ", ".join(fewer[:3]) + (f" and {len(fewer) - 3} more" if fewer[3:] else "")
                none = all(not before.get(p) for p in fewer)
                out.append(
                    f"round {number}: {g.a} has a bye again (bye {had + 1}) while {shown} "
                    f"had {'none' if none else 'fewer'}; OP-09 gives the bye to a player who "
                    "has not had one"
                )
    return out


def stale_pairing_note(corrected: int, rounds: Sequence[Sequence[Game]], seed: int) -> str:
    """What a change to round `corrected`'s result means for the rounds paired after it, or ''
    when none is: they were paired on the old standings, and stay as paired. Names the next
    round's bye and, when the corrected standings would give it to someone else (OP-09), who.
    """
    if corrected >= len(rounds) or corrected < 1:
        return ""
    number = corrected + 1
    nxt = rounds[corrected]
    note = f"round {number} was paired on round {corrected}'s old result"
    bye = next((g.a for g in nxt if g.bye), None)
    if bye is not None and all(g.complete for r in rounds[:corrected] for g in r):
        players = [p for g in nxt for p in g.players]
        again = pair_round(number, players, rounds[:corrected], seed)
        now = next((g.a for g in again.games if g.bye), None)
        if now == bye:
            note += f": its bye ({bye}) goes to the same player on the corrected standings"
        else:
            note += (
                f": its bye went to {bye}; on the corrected standings it would go to {now} (OP-09)"
            )
    return note + (
        f"; its pairings stand (while round {number} is the latest and has no result in, "
        "`kolrami tournament cancel-round --repair` or the round page's 'Cancel and pair "
        f"round {number} again' pairs it on the corrected standings)"
        if number == len(rounds)
        else "; the later rounds' pairings stand"
    )


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
