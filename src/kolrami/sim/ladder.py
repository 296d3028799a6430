"""A captain ladder: captains against each other on a set of fleets, ranked with intervals.

Every pair of captains plays every fleet of the set as a mirror match (the same fleet on both
sides, so only the captains differ), `battles` times, sides alternating. The scores go through
the same statistics as an assessment (`kolrami.sim.stats`): Wilson intervals per pairing and a
Bradley-Terry rating per captain, its fit and dispersion-widened interval. Each battle's seed
derives from the master seed, the pairing, the fleet and the battle's index, so a ladder is the
same on any number of workers.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from kolrami.captains.registry import captain_factory
from kolrami.captains.registry import captain_version
from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.rules import RULES_VERSION
from kolrami.rules import events as ev
from kolrami.scenarios.models import Scenario
from kolrami.sim.play import simulate
from kolrami.sim.stats import Ratings
from kolrami.sim.stats import bradley_terry
from kolrami.sim.stats import wilson

#: At most this many battles in one ladder (a mistyped --battles must not run for days).
MAX_BATTLES = 200_000


@dataclass(frozen=True, slots=True)
class Game:
    """One battle of the ladder: captains i and j (i plays side A when not swapped)."""

    i: int
    j: int
    fleet: int
    k: int


@dataclass(frozen=True, slots=True)
class LadderPlan:
    """Captains, fleets (each played as a mirror match), battles per pairing and fleet."""

    captains: tuple[str, ...]
    fleets: tuple[tuple[str, Fleet], ...]  # (label, fleet)
    scenario: Scenario
    battles: int = 20
    seed: int = 1

    def __post_init__(self) -> None:
        if len(self.captains) < 2:
            raise InvalidInputError("a ladder needs at least two captains")
        if len(set(self.captains)) != len(self.captains):
            raise InvalidInputError("a ladder names each captain once")
        if not self.fleets:
            raise InvalidInputError("a ladder needs at least one fleet")
        if self.battles < 1:
            raise InvalidInputError(f"--battles {self.battles}: play at least 1")
        if self.total > MAX_BATTLES:
            raise InvalidInputError(
                f"{self.total:,} battles: a ladder plays at most {MAX_BATTLES:,}; lower --battles"
            )
        for c in self.captains:
            captain_factory(c)  # known, or one line saying why not

    @property
    def total(self) -> int:
        k = len(self.captains)
        return k * (k - 1) // 2 * len(self.fleets) * self.battles

    def games(self) -> list[Game]:
        k = len(self.captains)
        return [
            Game(i, j, f, b)
            for i in range(k)
            for j in range(i + 1, k)
            for f in range(len(self.fleets))
            for b in range(self.battles)
        ]

    def seed_of(self, g: Game) -> int:
        a, b = self.captains[g.i], self.captains[g.j]
        return derive_seed(self.seed, "ladder", a, b, self.fleets[g.fleet][0], g.k)


def play_game(plan: LadderPlan, g: Game) -> float:
    """What captain i scored in game g: 1 a win, 0 a loss, 1/2 a draw or a roll-off."""
    fleet = plan.fleets[g.fleet][1]
    swap = g.k % 2 == 1
    ci, cj = plan.captains[g.i], plan.captains[g.j]
    captains = (cj, ci) if swap else (ci, cj)
    battle = simulate(plan.scenario, (fleet, fleet), captains, plan.seed_of(g))
    result = battle.finish()
    mine = "B" if swap else "A"
    # a draw, or a win by roll-off (not a win on the table: PP-22, OP-24), counts half
    if result.winner is None or battle.log.count(ev.RollOff) > 0:
        return 0.5
    return 1.0 if result.winner == mine else 0.0


def _play_many(args: tuple[LadderPlan, list[Game]]) -> list[float]:
    plan, games = args
    return [play_game(plan, g) for g in games]


@dataclass(frozen=True, slots=True)
class Ladder:
    """A played ladder: every game's score for captain i, and the fit."""

    plan: LadderPlan
    scores: dict[Game, float]
    ratings: Ratings

    def table(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Scores and battles of row against column."""
        return _table(len(self.plan.captains), self.scores)

    def to_json(self) -> dict[str, Any]:
        plan = self.plan
        s, n = self.table()
        elo = self.ratings.elo()
        lo, hi = self.ratings.elo_interval()
        order = sorted(range(len(plan.captains)), key=lambda i: -self.ratings.theta[i])
        fit = self.ratings.fit
        # captains the ladder cannot tell apart: their 95% intervals overlap (issue 47 item 19:
        # two captains 3 Elo apart, +-124, were ranked first and second with no mark)
        level = {
            i: [plan.captains[j] for j in order if j != i and lo[j] <= hi[i] and lo[i] <= hi[j]]
            for i in order
        }
        pairings = []
        for i in range(len(plan.captains)):
            for j in range(i + 1, len(plan.captains)):
                low, high = wilson(s[i, j], int(n[i, j]))
                pairings.append(
                    {
                        "captain": plan.captains[i],
                        "opponent": plan.captains[j],
                        "battles": int(n[i, j]),
                        "score": s[i, j] / n[i, j] if n[i, j] else None,
                        "score_95": [low, high],
                    }
                )
        return {
            "settings": {
                "captains": list(plan.captains),
                "captain_versions": {c: captain_version(c) for c in plan.captains},
                "fleets": [label for label, _ in plan.fleets],
                "scenario": plan.scenario.name,
                "battles_per_pairing_and_fleet": plan.battles,
                "seed": plan.seed,
                "rules_version": RULES_VERSION,
                "battles": len(self.scores),
            },
            "ratings_fit": None
            if fit is None
            else {"deviance": fit.deviance, "df": fit.df, "dispersion": fit.dispersion},
            "ranking": [
                {
                    "rank": rank,
                    "captain": plan.captains[i],
                    "rating": float(elo[i]),
                    "rating_95": [float(lo[i]), float(hi[i])],
                    "level_with": level[i],
                    "tied": any(
                        plan.captains[j] in level[i] for j in order[max(rank - 2, 0) : rank + 1]
                    ),
                }
                for rank, i in enumerate(order, start=1)
            ],
            "pairings": pairings,
        }

    def html(self) -> str:
        data = self.to_json()
        esc = html.escape
        rows = "".join(
            f"<tr><td>{rank_text(r)}</td><td class='l'>{esc(r['captain'])}</td>"
            f"<td>{r['rating']:.0f}</td><td>{r['rating_95'][0]:.0f} to "
            f"{r['rating_95'][1]:.0f}</td><td class='l'>"
            f"{esc(', '.join(r['level_with'])) or 'none'}</td></tr>"
            for r in data["ranking"]
        )
        pairs = "".join(
            f"<tr><td class='l'>{esc(p['captain'])}</td><td class='l'>{esc(p['opponent'])}</td>"
            f"<td>{p['battles']}</td><td>{p['score']:.3f}</td><td>{p['score_95'][0]:.3f} to "
            f"{p['score_95'][1]:.3f}</td></tr>"
            for p in data["pairings"]
        )
        st = data["settings"]
        fit = data["ratings_fit"]
        fit_line = (
            ""
            if fit is None
            else f"<p>Fit: deviance {fit['deviance']:.1f} on {fit['df']} degrees of freedom; "
            f"intervals widened by the dispersion x{fit['dispersion']:.2f}.</p>"
        )
        return (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<title>Kolrami captain ladder</title><style>body{font-family:system-ui,sans-serif;"
            "max-width:900px;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}"
            "td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:right}"
            ".l{text-align:left}</style></head><body><h1>Captain ladder</h1>"
            f"<p>{st['battles']} battles: every pair of {len(st['captains'])} captains on "
            f"{len(st['fleets'])} fleets ({esc(', '.join(st['fleets']))}), each a mirror match, "
            f"{st['battles_per_pairing_and_fleet']} battles a pairing and fleet, sides "
            f"alternating; scenario {esc(st['scenario'])}, seed {st['seed']}, rules "
            f"{esc(st['rules_version'])}.</p>"
            "<h2>Ranking (Bradley-Terry, Elo scale)</h2><table><tr><th>#</th>"
            "<th class='l'>Captain</th><th>Rating</th><th>95% interval</th>"
            "<th class='l'>Cannot be told from</th></tr>"
            f"{rows}</table><p>{esc(TIED_NOTE)}</p>{fit_line}<h2>Pairings</h2>"
            "<table><tr><th class='l'>Captain</th>"
            "<th class='l'>Opponent</th><th>Battles</th><th>Score</th><th>95% interval</th>"
            f"</tr>{pairs}</table></body></html>\n"
        )


#: what the ranking's '=' means, printed under it (the CLI's table and the HTML report)
TIED_NOTE = (
    "= before a rank: the captain's 95% interval overlaps a neighbour's in the ranking, so the "
    "ladder cannot tell them apart at these battles (more --battles narrow the intervals); "
    "'cannot be told from' lists every captain whose interval overlaps."
)


def rank_text(row: dict[str, Any]) -> str:
    """A ranking row's place as shown: '=2' when it cannot be told from a neighbour."""
    return f"={row['rank']}" if row["tied"] else str(row["rank"])


def run_ladder(
    plan: LadderPlan, workers: int = 1, on_progress: Callable[[int], None] | None = None
) -> Ladder:
    """Play the whole ladder on `workers` processes; the same result on any number."""
    games = plan.games()
    tell = on_progress or (lambda n: None)
    scores: dict[Game, float] = {}
    size = max(1, min(25, len(games) // (workers * 8) or 1))
    batches = [games[a : a + size] for a in range(0, len(games), size)]
    if workers <= 1 or len(batches) <= 1:
        for batch in batches:
            for g, v in zip(batch, _play_many((plan, batch)), strict=True):
                scores[g] = v
            tell(len(batch))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for batch, values in zip(
                batches, pool.map(_play_many, [(plan, b) for b in batches]), strict=True
            ):
                for g, v in zip(batch, values, strict=True):
                    scores[g] = v
                tell(len(batch))
    return summarise_ladder(plan, scores)


def summarise_ladder(plan: LadderPlan, scores: dict[Game, float]) -> Ladder:
    """The ranking from the games' scores."""
    return Ladder(plan, dict(scores), bradley_terry(*_table(len(plan.captains), scores)))


def _table(k: int, scores: dict[Game, float]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    s, n = np.zeros((k, k)), np.zeros((k, k))
    for g, v in scores.items():
        s[g.i, g.j] += v
        s[g.j, g.i] += 1.0 - v
        n[g.i, g.j] += 1
        n[g.j, g.i] += 1
    return s, n


def fleets_of(refs: Sequence[str], loader: Callable[[str], Fleet]) -> tuple[tuple[str, Fleet], ...]:
    """(label, fleet) for each fleet reference."""
    return tuple((ref.removeprefix("presets:"), loader(ref)) for ref in refs)
