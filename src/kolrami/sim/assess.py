"""Assessment: many seeded battles between combatants, summarised as win rates, ratings and
fair values.

A combatant is a fleet with a label and a cost: one ship of a class, a class fielded as a
squadron at a points budget, or a fleet (preset or FleetX file). Every pair of combatants is a
matchup; battle `k` of a matchup has the seed `derive_seed(master seed, matchup id, k)`, plays
the first combatant on side A when `k` is even and on side B when odd, and cycles through the
ordered pairs of captains. Nothing about a battle depends on who plays it, where, or when, so
results are the same on any backend with any number of workers.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import math
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

from kolrami.captains.registry import BUILTIN
from kolrami.captains.registry import captain_factory
from kolrami.captains.registry import captain_names
from kolrami.captains.registry import captain_version
from kolrami.captains.registry import is_path
from kolrami.catalog import ShipPack
from kolrami.catalog import builtin_pack
from kolrami.catalog.loader import fpf_pack
from kolrami.engine.chance import derive_seed
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.errors import quoted
from kolrami.fleet.legality import MAX_SQUADRON
from kolrami.fleet.legality import validate
from kolrami.fleet.model import PRESET_PREFIX
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.fleet.model import load_fleet
from kolrami.fleet.model import preset_names
from kolrami.rules import RULES_VERSION
from kolrami.rules import events as ev
from kolrami.rules import scenario_capabilities
from kolrami.rules.module import Capability
from kolrami.scenarios.models import Scenario
from kolrami.sim.fairvalue import FairValues
from kolrami.sim.fairvalue import disagree
from kolrami.sim.fairvalue import fair_values
from kolrami.sim.fairvalue import flags as fair_flags
from kolrami.sim.fairvalue import settle_text
from kolrami.sim.play import simulate
from kolrami.sim.stats import Ratings
from kolrami.sim.stats import bradley_terry
from kolrami.sim.stats import mean_and_se
from kolrami.sim.stats import wilson
from kolrami.sim.stats import z_value

#: Captains a default assessment uses: the two AI doctrines (random is the fuzzer).
DEFAULT_CAPTAINS = ("aggressive", "kiting")
#: Battles between two checks of an assessment's --precision.
PRECISION_STEP = 20
#: The record file inside an --out folder.
RECORDS_FILE = "battles.jsonl"


class KindOf:
    """The kinds of combatant."""

    CLASS = "class"
    SQUADRON = "squadron"
    FLEET = "fleet"


@dataclass(frozen=True, slots=True)
class Combatant:
    """One side of a matchup: a fleet, its label, its SP cost and where it came from."""

    key: str  # stable and unique: 'class:reliant', 'squadron:reliant@180', 'preset:...'
    label: str
    kind: str
    fleet: Fleet
    cost: int
    ship_class: str | None = None
    ships: int = 1

    def to_json(self) -> dict[str, Any]:
        """The combatant as JSON (the fleet by its ships)."""
        return {
            "key": self.key,
            "label": self.label,
            "kind": self.kind,
            "cost": self.cost,
            "ship_class": self.ship_class,
            "ships": self.ships,
        }


def fleet_cost(fleet: Fleet, pack: ShipPack | None = None) -> int:
    """Total Build SP of a fleet: ships, cards and resource, as the build sheet adds them."""
    return validate(fleet, limit=None, pack=pack).total_build


def _squadrons(class_id: str, count: int, name: str) -> Fleet:
    ships = tuple(FleetShip(id=class_id, squadron=i // MAX_SQUADRON + 1) for i in range(count))
    return Fleet(name=name, ships=ships)


#: The most ships one side of an assessment battle fields (--points): 60 Birds of Prey a side
#: play a battle in about a second; a thousand took a minute a battle with no sign of progress.
MAX_SHIPS_A_SIDE = 60
#: The most battles a matchup: 200 give win rates within about 7 points; a hundred thousand
#: take hours a matchup on one core. (A number of thirty digits went on to exhaust memory.)
MAX_BATTLES = 100_000


def class_combatants(
    names: Sequence[str] | None, points: int | None = None, pack: ShipPack | None = None
) -> list[Combatant]:
    """Ship classes (when `names` is None: every class of `pack`, or of the FPF pack when no
    pack is given, as before the house pack; name house classes to assess them): one ship
    each, or as many as `points` buys."""
    if names is None:
        classes = list((pack or fpf_pack()).ships)
    else:
        classes = [(pack or builtin_pack()).get(n) for n in names]
    out = []
    for cls in classes:
        if points is None:
            fleet = _squadrons(cls.id, 1, cls.name)
            out.append(
                Combatant(f"class:{cls.id}", cls.name, KindOf.CLASS, fleet, cls.value, cls.id)
            )
            continue
        count = points // cls.value
        if count > MAX_SHIPS_A_SIDE:
            most = MAX_SHIPS_A_SIDE * cls.value
            raise InvalidInputError(
                f"--points {points} fields {count} x {cls.name} a side; an assessment battle has "
                f"at most {MAX_SHIPS_A_SIDE} ships a side: use --points {most} or less, or leave "
                f"{cls.name} out with --classes"
            )
        if count < 1:
            raise InvalidInputError(
                f"{cls.name} costs {cls.value} SP, more than --points {points}: raise --points to "
                f"{cls.value} or more, or leave {cls.name} out with --classes"
            )
        label = f"{count} x {cls.name}" if count > 1 else cls.name
        fleet = _squadrons(cls.id, count, label)
        out.append(
            Combatant(
                f"squadron:{cls.id}@{points}",
                label,
                KindOf.SQUADRON,
                fleet,
                count * cls.value,
                cls.id,
                count,
            )
        )
    return out


def expand_fleet_refs(refs: Iterable[str]) -> list[str]:
    """Fleet references with 'presets:*' style patterns expanded to the matching presets."""
    out: list[str] = []
    for ref in refs:
        name = ref.removeprefix(PRESET_PREFIX)
        if any(ch in name for ch in "*?[") and not Path(ref).exists():
            matched = [n for n in preset_names() if fnmatch.fnmatchcase(n, name)]
            if not matched:
                raise InvalidInputError(
                    f"no preset fleet matches '{ref}'; presets: {', '.join(preset_names())}"
                )
            out += [PRESET_PREFIX + n for n in matched]
        else:
            out.append(ref)
    return out


def fleet_combatants(refs: Sequence[str], pack: ShipPack | None = None) -> list[Combatant]:
    """Fleets from presets ('presets:NAME', patterns like 'presets:*') and FleetX files."""
    pack = pack or builtin_pack()
    out = []
    for ref in expand_fleet_refs(refs):
        fleet = load_fleet(ref, pack)
        name = ref.removeprefix(PRESET_PREFIX)
        if ref.startswith(PRESET_PREFIX) or not Path(ref).exists():
            key, label = f"preset:{name}", name
        else:
            digest = hashlib.blake2b(_canonical(fleet.model_dump(mode="json")), digest_size=4)
            key, label = f"file:{Path(ref).name}:{digest.hexdigest()}", fleet.name
        out.append(Combatant(key, label, KindOf.FLEET, fleet, fleet_cost(fleet, pack)))
    return out


def check_unique(combatants: Sequence[Combatant]) -> None:
    """Every combatant once; at least two of them."""
    seen: set[str] = set()
    for c in combatants:
        if c.key in seen:
            raise InvalidInputError(f"combatant '{c.label}' is listed twice; list it once")
        seen.add(c.key)
    labels = [c.label for c in combatants]
    for c in combatants:
        if labels.count(c.label) > 1:
            raise InvalidInputError(
                f"two combatants are called '{c.label}'; give the fleets different names"
            )
    if len(combatants) < 2:
        raise InvalidInputError(
            f"an assessment needs at least two combatants, got {len(combatants)}: add --fleets "
            "or --classes"
        )


def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


# --- the plan --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Matchup:
    """Two combatants (indices into the plan's list, x before y) and the matchup's id."""

    id: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker needs to play any battle of an assessment (small, picklable)."""

    seed: int
    scenario: Scenario
    fleets: tuple[Fleet, ...]
    pairs: tuple[tuple[str, str], ...]  # ordered (captain of x, captain of y)
    extra_rules: tuple[str, ...]
    matchups: tuple[Matchup, ...]
    pack: ShipPack | None = None  # the built-in ships when None; else with variant classes


#: A unit of work: a matchup's number in the job and the battle indices to play.
Chunk = tuple[int, tuple[int, ...]]
Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Plan:
    """An assessment to run: combatants, scenario, captains, battles per matchup, master seed."""

    combatants: tuple[Combatant, ...]
    scenario: Scenario
    captains: tuple[str, ...] = DEFAULT_CAPTAINS
    battles: int = 200
    seed: int = 1
    extra_rules: tuple[str, ...] = ()
    #: stop a matchup once its score's 95% interval is at most this wide either side (None:
    #: play every battle); checked every PRECISION_STEP battles, so the battles used are the
    #: same on any backend, with any number of workers, resumed or not
    precision: float | None = None
    #: play only this combatant against each of the others (one fleet against the field)
    focus: int | None = None
    #: the first `challengers` combatants each play every other combatant, not each other (a
    #: class's variants against a field, kolrami.sim.design); 0: everyone plays everyone
    challengers: int = 0
    #: the ships the fleets are drawn from (None: the built-in pack), e.g. with variant classes
    pack: ShipPack | None = None
    matchups: tuple[Matchup, ...] = field(init=False)

    def __post_init__(self) -> None:
        check_unique(self.combatants)
        if self.precision is not None and not 0.0 < self.precision < 0.5:
            raise InvalidInputError(
                f"--precision {self.precision}: give a half-width between 0 and 0.5 (0.05: the "
                "score known to within 5 points either way)"
            )
        if self.focus is not None and not 0 <= self.focus < len(self.combatants):
            raise InvalidInputError(f"focus {self.focus}: no such combatant")
        if not 1 <= self.battles <= MAX_BATTLES:
            raise InvalidInputError(
                f"--battles {quoted(self.battles, 20)}: play 1 to {MAX_BATTLES:,} battles a matchup"
            )
        if self.seed < 0:
            raise InvalidInputError(f"seed {self.seed} is negative; use 0 or more")
        if not self.captains:
            raise InvalidInputError("name at least one captain")

        known = captain_names()
        for name in self.captains:
            if is_path(name):
                captain_factory(name)  # loads it, or says in one line why it cannot
            elif name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                raise UnknownNameError("captain", name, close[0] if close else None, known)
        matchups = []
        for i in range(len(self.combatants)):
            for j in range(i + 1, len(self.combatants)):
                if i < self.challengers <= j or (
                    not self.challengers and (self.focus is None or self.focus in (i, j))
                ):
                    matchups.append(Matchup(self._matchup_id(i, j), i, j))
        object.__setattr__(self, "matchups", tuple(matchups))

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every ordered pair of captains (captain of x, captain of y)."""
        return tuple((x, y) for x, y in product(self.captains, repeat=2))

    @property
    def simulating(self) -> bool:
        """Whether the scenario scores Fleet Points (Peak Performance's battle simulation)."""
        capabilities = scenario_capabilities(self.scenario, self.extra_rules)
        return Capability.SCORES_FLEET_POINTS in capabilities

    def _captain_versions(self) -> dict[str, dict[str, str]]:
        """The code version of every captain not built in (so stored results of a captain
        whose code changed are not reused); nothing for built-in captains alone."""
        versions = {c: captain_version(c) for c in self.captains if c not in BUILTIN}
        return {"captain_versions": versions} if versions else {}

    def _matchup_id(self, i: int, j: int) -> str:
        """A digest of everything that decides the matchup's battles (so stale records in an
        --out folder are never mistaken for this matchup's)."""
        spec = {
            "seed": self.seed,
            "rules_version": RULES_VERSION,
            "data_version": builtin_pack().data_version,
            "scenario": self.scenario.model_dump(mode="json"),
            "extra_rules": list(self.extra_rules),
            "captains": list(self.captains),
            **self._captain_versions(),
            "x": self.combatants[i].fleet.model_dump(mode="json"),
            "y": self.combatants[j].fleet.model_dump(mode="json"),
        }
        if self.pack is not None:  # variant classes: their numbers decide the battles too
            used = {s.id for c in (i, j) for s in self.combatants[c].fleet.ships}
            spec["classes"] = [s.model_dump(mode="json") for s in self.pack.ships if s.id in used]
        return hashlib.blake2b(_canonical(spec), digest_size=8).hexdigest()

    @property
    def total(self) -> int:
        """Battles in the whole assessment."""
        return len(self.matchups) * self.battles

    def job(self) -> Job:
        """The picklable part a worker needs."""
        return Job(
            seed=self.seed,
            scenario=self.scenario,
            fleets=tuple(c.fleet for c in self.combatants),
            pairs=self.pairs,
            extra_rules=self.extra_rules,
            matchups=self.matchups,
            pack=self.pack,
        )

    def chunks(
        self, done: Mapping[tuple[str, int], Record], size: int, upto: int | None = None
    ) -> list[Chunk]:
        """Battles still to play (below index `upto`, and only of matchups not stopped by
        `precision`), in matchup order, in chunks of at most `size`."""
        out: list[Chunk] = []
        for number, m in enumerate(self.matchups):
            if self.stop_point(m, done) is not None:
                continue
            end = self.battles if upto is None else min(upto, self.battles)
            todo = [k for k in range(end) if (m.id, k) not in done]
            for start in range(0, len(todo), size):
                out.append((number, tuple(todo[start : start + size])))
        return out

    def checkpoints(self) -> list[int]:
        """The battle counts at which `precision` is checked (the last: every battle)."""
        if self.precision is None:
            return [self.battles]
        return [*range(PRECISION_STEP, self.battles, PRECISION_STEP), self.battles]

    def stop_point(self, m: Matchup, records: Mapping[tuple[str, int], Record]) -> int | None:
        """The battles of matchup `m` that count: the first checkpoint at which all its battles
        so far are in and the score's interval is narrow enough; None while it must go on.
        Without `precision`, None until every battle is in."""
        for n in self.checkpoints():
            recs = [records.get((m.id, k)) for k in range(n)]
            if any(r is None for r in recs):
                return None
            if n == self.battles:
                return n
            assert self.precision is not None
            low, high = wilson(sum(_score_x(r) for r in recs), n)
            if (high - low) / 2 <= self.precision:
                return n
        return None


# --- playing ---------------------------------------------------------------------------------


def play_battle(job: Job, number: int, k: int) -> Record:
    """Play battle `k` of matchup `number` and return its record (from x's point of view)."""
    m = job.matchups[number]
    seed = derive_seed(job.seed, m.id, k)
    swap = k % 2 == 1
    cap_x, cap_y = job.pairs[(k // 2) % len(job.pairs)]
    fx, fy = job.fleets[m.x], job.fleets[m.y]
    fleets, captains = ((fy, fx), (cap_y, cap_x)) if swap else ((fx, fy), (cap_x, cap_y))
    battle = simulate(job.scenario, fleets, captains, seed, job.extra_rules, job.pack)
    result = battle.finish()
    xs, ys = ("B", "A") if swap else ("A", "B")
    winner = None if result.winner is None else ("x" if result.winner == xs else "y")
    lost = result.destroyed_value
    fp = battle.fleet_points
    simulating = Capability.SCORES_FLEET_POINTS in battle.rules.capabilities
    margin = fp[xs] - fp[ys] if simulating else lost[ys] - lost[xs]
    rng_state = repr(battle.dice.getstate()).encode()
    return {
        "m": m.id,
        "i": k,
        "seed": seed,
        "x_side": xs,
        "captains": [cap_x, cap_y],
        "winner": winner,
        # decided by the roll-off, not on the table (PP-22, OP-24): counted as a draw
        "rolloff": battle.log.count(ev.RollOff) > 0,
        "reason": result.reason,
        "turns": result.turns,
        "margin": margin,
        "fp": [fp[xs], fp[ys]],
        "lost": [lost[xs], lost[ys]],
        "dice": battle.dice.rolls,
        "dice_state": hashlib.blake2b(rng_state, digest_size=8).hexdigest(),
    }


def play_chunk(job: Job, chunk: Chunk) -> list[Record]:
    """Play every battle of a chunk, in order."""
    number, indices = chunk
    return [play_battle(job, number, k) for k in indices]


# --- the record file -------------------------------------------------------------------------


class RecordStore:
    """Battle records in DIR/battles.jsonl: one JSON line per battle, appended as they arrive.

    Reading skips lines it cannot parse (a line cut short when a run was killed), so a folder
    is always usable for resuming. Records of other assessments may share the file: a record is
    used only where its matchup id and index belong to the plan.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / RECORDS_FILE
        self.skipped = 0

    def open(self) -> None:
        """Create the folder if needed; fail early, naming the problem, if it cannot be used."""
        if self.folder.exists() and not self.folder.is_dir():
            raise InvalidInputError(f"--out {self.folder} is a file; name a folder")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise InvalidInputError(
                f"cannot write to --out {quoted(self.folder)}: {exc.strerror}"
            ) from None

    def load(self, plan: Plan) -> dict[tuple[str, int], Record]:
        """Records of `plan`'s battles already in the file."""
        wanted = {m.id for m in plan.matchups}
        out: dict[tuple[str, int], Record] = {}
        if not self.path.exists():
            return out
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                    key = (rec["m"], int(rec["i"]))
                except (ValueError, KeyError, TypeError):
                    self.skipped += 1
                    continue
                if key[0] in wanted and 0 <= key[1] < plan.battles:
                    out[key] = rec
        return out

    def append(self, records: Sequence[Record]) -> None:
        """Add records: one write of whole lines, flushed, so an interrupt never splits one."""
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(text)
            f.flush()

    def write_summary(self, data: Mapping[str, Any]) -> Path:
        """The assessment's JSON beside the records."""
        path = self.folder / "assessment.json"
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return path


# --- summary ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchupSummary:
    """Results of one matchup from x's point of view."""

    matchup: Matchup
    battles: int
    wins: int  # on the table: a battle the roll-off decided is a draw here
    draws: int
    losses: int
    score: float  # (wins + draws / 2) / battles
    rolloffs: tuple[int, int]  # roll-off-decided battles x won, and y won (counted in draws)
    low: float
    high: float
    margin: float
    margin_se: float
    fleet_points: tuple[float, float] | None
    by_captains: dict[tuple[str, str], tuple[int, float]]  # pair -> (battles, score)
    side_a_score: float  # share of the points that went to side A, whoever played it


@dataclass(frozen=True, slots=True)
class Assessment:
    """Everything an assessment found."""

    plan: Plan
    matchups: tuple[MatchupSummary, ...]
    ratings: Ratings
    fair: FairValues
    battles: int
    #: with more than one captain: the fair values from the battles each captain played on
    #: both sides (the verdicts can depend on who plays, issue 22)
    by_captain: dict[str, FairValues] = field(default_factory=dict)

    def verdicts_by_captain(self, i: int) -> dict[str, str]:
        """Combatant i's verdict under each captain alone."""
        return {c: fv.values[i].verdict() for c, fv in self.by_captain.items()}

    def fair_costs_by_captain(self, i: int) -> dict[str, float | None]:
        """Combatant i's fair cost under each captain alone (None where it has none)."""
        return {c: fv.values[i].fair_cost for c, fv in self.by_captain.items()}

    def by_captain_text(self, i: int) -> str:
        """Combatant i's verdict and fair cost under each captain alone, for a table cell
        ('aggressive: underpriced, fair 163 SP; kiting: can't tell, fair 171 SP')."""
        fair = self.fair_costs_by_captain(i)
        verdicts = self.verdicts_by_captain(i)
        parts = []
        for c in self.plan.captains if len(self.plan.captains) > 1 else ():
            if c not in verdicts:
                # the ordered pairs of captains take turns, two battles each: a captain's own
                # battles (it on both sides) come round once every 2 x captains^2 battles
                need = 2 * len(self.plan.captains) ** 2
                parts.append(f"{c}: no battles of its own on both sides (--battles {need} or more)")
                continue
            parts.append(
                f"{c}: {verdicts[c]}" + ("" if fair[c] is None else f", fair {fair[c]:.0f} SP")
            )
        return "; ".join(parts)

    def captains_disagree(self, i: int) -> bool:
        """Whether captains playing alone reach different firm verdicts on combatant i, or
        fair costs a factor 1.5 or more apart (fairvalue.DISAGREE_RATIO)."""
        return disagree([fv.values[i] for fv in self.by_captain.values()])

    def precision_short(self) -> list[tuple[MatchupSummary, int]]:
        """With --precision: the matchups that played every battle allowed and still have an
        interval wider than asked, each with about the battles that would narrow it enough."""
        p = self.plan.precision
        if p is None:
            return []
        z = z_value()
        out = []
        for s in self.matchups:
            if s.battles >= self.plan.battles and (s.high - s.low) / 2 > p:
                var = max(s.score * (1.0 - s.score), 0.01)
                out.append(
                    (s, max(self.plan.battles + 20, math.ceil(var * (z / p) ** 2 / 20) * 20))
                )
        return out

    def score_table(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Score of row against column (NaN on the diagonal)."""
        k = len(self.plan.combatants)
        table = np.full((k, k), np.nan)
        for s in self.matchups:
            table[s.matchup.x, s.matchup.y] = s.score
            table[s.matchup.y, s.matchup.x] = 1.0 - s.score
        return table

    def order(self) -> list[int]:
        """Combatants from the highest rating to the lowest."""
        return sorted(range(len(self.plan.combatants)), key=lambda i: -self.ratings.theta[i])

    def to_json(self) -> dict[str, Any]:
        """The whole assessment as JSON: settings, matchups, ratings and fair values."""
        plan = self.plan
        elo = self.ratings.elo()
        lo, hi = self.ratings.elo_interval()
        names = [c.label for c in plan.combatants]
        return {
            "settings": {
                "scenario": plan.scenario.name,
                "captains": list(plan.captains),
                "battles_per_matchup": plan.battles,
                "precision": plan.precision,
                "precision_not_reached": [
                    {"x": names[s.matchup.x], "y": names[s.matchup.y], "battles_needed": n}
                    for s, n in self.precision_short()
                ],
                "against_field": None if plan.focus is None else plan.combatants[plan.focus].label,
                "seed": plan.seed,
                "extra_rules": list(plan.extra_rules),
                "rules_version": RULES_VERSION,
                "data_version": builtin_pack().data_version,
                "battles": self.battles,
            },
            "combatants": [c.to_json() for c in plan.combatants],
            "matchups": [
                {
                    "id": s.matchup.id,
                    "x": names[s.matchup.x],
                    "y": names[s.matchup.y],
                    "battles": s.battles,
                    "wins": s.wins,
                    "draws": s.draws,
                    "rolloffs": {"x_won": s.rolloffs[0], "y_won": s.rolloffs[1]},
                    "losses": s.losses,
                    "score": s.score,
                    "score_95": [s.low, s.high],
                    "mean_margin": s.margin,
                    "margin_se": s.margin_se,
                    "mean_fleet_points": list(s.fleet_points) if s.fleet_points else None,
                    "side_a_score": s.side_a_score,
                    "by_captains": [
                        {"captains": list(pair), "battles": n, "score": sc}
                        for pair, (n, sc) in s.by_captains.items()
                    ],
                }
                for s in self.matchups
            ],
            "ratings_fit": None
            if self.ratings.fit is None
            else {
                "deviance": self.ratings.fit.deviance,
                "pearson": self.ratings.fit.pearson,
                "df": self.ratings.fit.df,
                "deviance_per_df": self.ratings.fit.deviance_per_df,
                "dispersion": self.ratings.fit.dispersion,
                "verdict": self.ratings.fit.verdict(),
            },
            "ratings": [
                {
                    "combatant": names[i],
                    "rank": rank,
                    "rating": float(elo[i]),
                    "rating_95": [float(lo[i]), float(hi[i])],
                    "logit": float(self.ratings.theta[i]),
                    "logit_se": float(self.ratings.se[i]),
                }
                for rank, i in enumerate(self.order(), start=1)
            ],
            "fair_values": self._fair_json(names),
        }

    def _fair_json(self, names: list[str]) -> dict[str, Any]:
        """The fair values as JSON: the price line and each combatant's fair cost."""
        plan = self.plan
        return {
            "price_line": None
            if self.fair.line is None
            else {"intercept": self.fair.line.intercept, "slope": self.fair.line.slope},
            "note": self.fair.reason,
            "line_scatter_logits": self.fair.scatter,
            "rests_on": self.fair.basis,
            "combatants": [
                {
                    "combatant": names[i],
                    "cost": fv.cost,
                    "residual_rating": fv.residual_elo,
                    "fair_cost": fv.fair_cost,
                    "fair_cost_95": None if fv.fair_low is None else [fv.fair_low, fv.fair_high],
                    "change": fv.change,
                    "p_underpriced": fv.p_underpriced,
                    "verdict": fv.verdict(),
                    "extrapolated": fv.extrapolated,
                    "fair_cost_if_linear": fv.fair_cost_linear,
                    "verdict_by_captain": self.verdicts_by_captain(i),
                    "fair_cost_by_captain": self.fair_costs_by_captain(i),
                    "by_captain": self.by_captain_text(i),
                    "captains_disagree": self.captains_disagree(i),
                    "marks": fair_flags(fv, self.captains_disagree(i)),
                    "cost_outside_field": fv.cost_outside,
                    "battles_needed": fv.battles_needed,
                    "more_battles": settle_text(fv),
                    "fair_ship_cost": None
                    if fv.fair_cost is None or plan.combatants[i].ship_class is None
                    else fv.fair_cost / plan.combatants[i].ships,
                }
                for i, fv in enumerate(self.fair.values)
            ],
        }


def _score_x(r: Record | None) -> float:
    """What x scored in one battle: 1 for a win on the table, 0 for a loss, 1/2 otherwise
    (a draw, or a battle the roll-off decided)."""
    assert r is not None
    won = None if r.get("rolloff") else r["winner"]
    return 1.0 if won == "x" else 0.0 if won == "y" else 0.5


def summarise(plan: Plan, records: Mapping[tuple[str, int], Record]) -> Assessment:
    """Win rates, ratings and fair values from the plan's battle records."""
    k = len(plan.combatants)
    scores = np.zeros((k, k))
    games = np.zeros((k, k))
    summaries = []
    total = 0
    # each captain's own table, from the battles it played on both sides
    mirror = (
        {c: (np.zeros((k, k)), np.zeros((k, k))) for c in plan.captains}
        if len(plan.captains) > 1
        else {}
    )
    for m in plan.matchups:
        # with --precision, only the battles up to the matchup's stop point count
        upto = plan.stop_point(m, records) if plan.precision is not None else None
        recs = [records[m.id, i] for i in range(upto or plan.battles) if (m.id, i) in records]
        n = len(recs)
        total += n
        # a win by roll-off is not a win on the table: such a battle counts as a draw
        rolled = [r for r in recs if r.get("rolloff")]
        rolloffs = (
            sum(r["winner"] == "x" for r in rolled),
            sum(r["winner"] == "y" for r in rolled),
        )
        wins = sum(r["winner"] == "x" and not r.get("rolloff") for r in recs)
        losses = sum(r["winner"] == "y" and not r.get("rolloff") for r in recs)
        draws = n - wins - losses
        points = wins + draws / 2
        low, high = wilson(points, n)
        margin, margin_se = mean_and_se([float(r["margin"]) for r in recs])
        fp = None
        if plan.simulating and n:
            fp = (sum(r["fp"][0] for r in recs) / n, sum(r["fp"][1] for r in recs) / n)
        by: dict[tuple[str, str], list[float]] = {pair: [] for pair in plan.pairs}
        side_a = 0.0
        for r in recs:
            won = None if r.get("rolloff") else r["winner"]
            s = 1.0 if won == "x" else 0.0 if won == "y" else 0.5
            by[r["captains"][0], r["captains"][1]].append(s)
            side_a += s if r["x_side"] == "A" else 1.0 - s
        summaries.append(
            MatchupSummary(
                matchup=m,
                battles=n,
                wins=wins,
                draws=draws,
                losses=losses,
                score=points / n if n else math.nan,
                rolloffs=rolloffs,
                low=low,
                high=high,
                margin=margin,
                margin_se=margin_se,
                fleet_points=fp,
                by_captains={
                    p: (len(v), sum(v) / len(v) if v else math.nan) for p, v in by.items()
                },
                side_a_score=side_a / n if n else math.nan,
            )
        )
        scores[m.x, m.y] += points
        scores[m.y, m.x] += n - points
        games[m.x, m.y] += n
        games[m.y, m.x] += n
        for c in mirror:
            got = by[c, c]
            mirror[c][0][m.x, m.y] += sum(got)
            mirror[c][0][m.y, m.x] += len(got) - sum(got)
            mirror[c][1][m.x, m.y] += len(got)
            mirror[c][1][m.y, m.x] += len(got)
    costs = [c.cost for c in plan.combatants]
    ratings = bradley_terry(scores, games)
    per = total // len(plan.matchups) if plan.matchups else 0
    fair = fair_values(costs, ratings, seed=plan.seed, battles=per)
    by_captain = {
        c: fair_values(costs, bradley_terry(sc, gm), seed=plan.seed)
        for c, (sc, gm) in mirror.items()
        if gm.sum() > 0
    }
    return Assessment(plan, tuple(summaries), ratings, fair, total, by_captain)
