"""Standings from a results file, for audits and other tools (the same rules as the store)."""

from __future__ import annotations

from typing import Any

from kolrami.errors import InvalidInputError
from kolrami.tournament import core


def _fail(where: str, message: str) -> InvalidInputError:
    return InvalidInputError(f"{where}: {message}")


def parse_results(doc: Any) -> tuple[list[str], list[list[core.Game]], dict[str, int]]:
    """Players, rounds and roll-offs from {"players": [...], "rounds": [[game, ...], ...],
    "rolloffs": {...}}; every problem is named with its place in the file."""
    if not isinstance(doc, dict):
        raise _fail("results", "the file must hold a JSON object with players and rounds")
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise _fail("players", "a list of player names is required")
    if len(set(players)) != len(players):
        dup = next(p for p in players if players.count(p) > 1)
        raise _fail("players", f"'{dup}' is listed twice")
    known = set(players)
    rounds_in = doc.get("rounds")
    if not isinstance(rounds_in, list):
        raise _fail("rounds", "a list of rounds (each a list of games) is required")
    rounds: list[list[core.Game]] = []
    for r, games_in in enumerate(rounds_in, start=1):
        where_r = f"rounds[{r - 1}]"
        if not isinstance(games_in, list):
            raise _fail(where_r, "a round is a list of games")
        seen: dict[str, int] = {}
        games: list[core.Game] = []
        for i, g in enumerate(games_in):
            where = f"{where_r}[{i}]"
            if not isinstance(g, dict):
                raise _fail(where, 'a game is an object like {"a", "b", "winner", "fp"}')
            names = [g["bye"]] if "bye" in g else [g.get("a"), g.get("b")]
            for name in names:
                if not isinstance(name, str) or name not in known:
                    raise _fail(where, f"unknown player {name!r}; players: {', '.join(players)}")
                if name in seen:
                    raise _fail(
                        where, f"{name} plays twice in round {r} (also in game {seen[name]})"
                    )
                seen[name] = i
            if "bye" in g:
                games.append(core.Game(r, g["bye"], None))
                continue
            a, b = str(names[0]), str(names[1])  # both checked above
            if a == b:
                raise _fail(where, f"{a} cannot play himself")
            winner = g.get("winner")
            if winner not in (a, b):
                raise _fail(where, f"winner {winner!r} did not play this game ({a} v {b})")
            fp = g.get("fp")
            if not isinstance(fp, dict) or set(fp) != {a, b}:
                raise _fail(where, f"fp must give the Fleet Points of {a} and {b}")
            for name, points in fp.items():
                if not isinstance(points, int) or isinstance(points, bool) or points < 0:
                    raise _fail(where, f"{name}'s Fleet Points must be a whole number >= 0")
            games.append(core.Game(r, a, b, winner, ((a, fp[a]), (b, fp[b]))))
        rounds.append(games)
    rolls = doc.get("rolloffs", {}) or {}
    if not isinstance(rolls, dict):
        raise _fail("rolloffs", "an object of player: hits and criticals")
    for name, n in rolls.items():
        if name not in known:
            raise _fail("rolloffs", f"unknown player {name!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise _fail("rolloffs", f"{name}: the roll-off result is a whole number >= 0")
    return players, rounds, rolls


def standings_json(doc: Any, titles: tuple[str, ...] = core.DEFAULT_TITLES) -> dict[str, Any]:
    """The standings a results file gives, in the documented shape, with `warnings`: the byes
    OP-09 would not give (a second bye while another player of the round had none)."""
    players, rounds, rolls = parse_results(doc)
    table = core.standings(players, rounds, rolls, titles)
    return {
        "standings": [core.standing_json(s) for s in table],
        "ties": core.tied_groups(table),
        "tie_groups": core.tie_json(table),
        "warnings": core.bye_warnings(rounds),
    }
