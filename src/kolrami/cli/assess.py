"""`kolrami assess`: Monte Carlo sweeps of many seeded battles, with ratings and fair values.

The command as a person meets it: combatants from the options, a progress bar, Rich tables, JSON,
the HTML report, and a clean stop on Ctrl-C. The sweep itself (plan, runner, backends, statistics)
is kolrami.sim.assess and kolrami.sim.backends.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Annotated
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn
from rich.progress import MofNCompleteColumn
from rich.progress import Progress
from rich.progress import ProgressColumn
from rich.progress import Task
from rich.progress import TextColumn
from rich.progress import TimeElapsedColumn
from rich.progress import TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from kolrami.captains.registry import split_captains
from kolrami.cli.support import RulesOption
from kolrami.cli.support import TurnsOption
from kolrami.cli.support import captain
from kolrami.cli.support import check_seed
from kolrami.cli.support import command
from kolrami.cli.support import print_json
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.errors import quoted
from kolrami.fleet.fleetx import load_any
from kolrami.rules.registry import bind
from kolrami.rules.registry import describe
from kolrami.rules.registry import select
from kolrami.scenarios.models import load_scenario

if TYPE_CHECKING:
    from kolrami.sim.assess import Assessment
    from kolrami.sim.assess import Combatant
    from kolrami.sim.assess import Plan
    from kolrami.sim.assess import Record
    from kolrami.sim.assess import RecordStore


class BackendName(StrEnum):
    """Where the battles are played."""

    LOCAL = "local"
    RAY = "ray"


# the options of assess_cmd, named
MoreOption = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="FLEET",
        help="More fleets (same as --fleets), e.g. --fleets mine.json 'presets:*'.",
    ),
]
FleetsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--fleets",
        help="A combatant fleet: presets:NAME, a pattern like 'presets:*', or a FleetX file. "
        "Repeat it, or list more fleets after the options.",
    ),
]
ClassesOption = Annotated[
    str | None,
    typer.Option(
        help="Ship classes as combatants: 'all' (every class `kolrami ships` lists, house "
        "packs included) or names, comma separated. The default (the ten FPF classes) when "
        "no fleet is given."
    ),
]
PointsOption = Annotated[
    int | None,
    typer.Option(
        help="Field each class as a squadron at this many SP (as many ships as fit) instead "
        "of one ship against one."
    ),
]
ScenarioOption = Annotated[
    str, typer.Option(help="standard, peak-performance, or a scenario TOML file.")
]
CaptainsOption = Annotated[
    str,
    typer.Option(help="Captains, comma separated; every ordered pair plays, sides alternating."),
]
PrecisionOption = Annotated[
    float | None,
    typer.Option(
        help="Stop a matchup once its score's 95% interval is at most twice this wide "
        "(0.05: an interval 10 points wide, not always centred: Wilson's is lopsided near "
        "0 and 1), checked every 20 battles; --battles is then the most."
    ),
]
AgainstFieldOption = Annotated[
    bool,
    typer.Option(
        "--against-field",
        help="The first combatant (the first fleet given) plays each of the others, who do "
        "not play each other: one fleet against the field.",
    ),
]
SeedOption = Annotated[
    int, typer.Option(help="Master seed, 0 to 2**63 - 1; each battle's seed derives from it.")
]
WorkersOption = Annotated[
    int | None, typer.Option(help="Worker processes (Ray: CPUs); default all cores.")
]
BackendOption = Annotated[
    BackendName, typer.Option(case_sensitive=False, help="local processes or ray.")
]
AddressOption = Annotated[
    str | None,
    typer.Option(help="Ray cluster address; without it Ray starts a local instance."),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        help="Folder for the results (battles.jsonl, written as they arrive; "
        "assessment.json). Running again resumes."
    ),
]
ReportOption = Annotated[
    Path | None, typer.Option(help="Write an HTML report with the pictures here.")
]
VaryOption = Annotated[
    str | None,
    typer.Option(
        metavar="STAT=LO..HI",
        help="For one class (--classes NAME): its win rate against the field at each value "
        "of STAT (shields, weapon-strength, speed, damage-control, hull), e.g. "
        "shields=10..16.",
    ),
]
EvenOption = Annotated[
    str | None,
    typer.Option(
        metavar="CLASS",
        help="The SP cost at which CLASS wins half its games against the field at equal "
        "points (a bracketing search over costs), with its interval.",
    ),
]


def assess_cmd(
    more: MoreOption = None,
    fleets: FleetsOption = None,
    classes: ClassesOption = None,
    points: PointsOption = None,
    scenario: ScenarioOption = "standard",
    captains: CaptainsOption = "aggressive,kiting",
    battles: Annotated[int, typer.Option(help="Battles per matchup.")] = 200,
    precision: PrecisionOption = None,
    against_field: AgainstFieldOption = False,
    seed: SeedOption = 1,
    turns: TurnsOption = None,
    rules: RulesOption = None,
    workers: WorkersOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    out: OutOption = None,
    report: ReportOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print everything as JSON.")] = False,
    vary: VaryOption = None,
    even: EvenOption = None,
) -> None:
    """Play every pair of combatants many times; win rates, ratings and fair values.

    kolrami assess                                  # ten classes, one against one

    kolrami assess --points 180 --scenario peak-performance --report classes.html

    kolrami assess --fleets mine.json 'presets:*' --battles 500 --out runs/friday

    kolrami assess --vary shields=10..16 --classes reliant --report reliant.html

    kolrami assess --even reliant --report even.html
    """
    check_seed(seed)
    opts = AssessOptions(
        fleets=fleet_args(fleets, more),
        classes=classes,
        points=points,
        scenario=scenario,
        captains=captains,
        battles=battles,
        precision=precision,
        against_field=against_field,
        seed=seed,
        turns=turns,
        rules=rules,
        workers=workers,
        backend=backend.value,
        address=address,
        out=out,
        report=report,
        as_json=as_json,
    )
    if vary is not None and even is not None:
        raise InvalidInputError("--vary and --even are two questions: ask one at a time")
    if vary is not None:
        run_vary(opts, vary)
    elif even is not None:
        run_even(opts, even)
    else:
        run_assess(opts)


@dataclass(frozen=True, slots=True)
class AssessOptions:
    """What the command line asked for (the defaults are the options' own, in assess_cmd)."""

    fleets: tuple[str, ...]
    classes: str | None
    points: int | None
    scenario: str
    captains: str
    battles: int
    seed: int
    turns: int | None
    rules: str | None
    workers: int | None
    backend: str
    address: str | None
    out: Path | None
    report: Path | None
    as_json: bool
    precision: float | None = None
    against_field: bool = False


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def combatants_from(opts: AssessOptions) -> list[Combatant]:
    """Combatants the options name: classes (one against one or at --points), then fleets."""
    # kolrami.sim.assess brings numpy (about 100 ms): loaded when a sweep runs, not at start-up
    from kolrami.sim.assess import class_combatants
    from kolrami.sim.assess import fleet_combatants

    out: list[Combatant] = []
    if opts.points is not None and opts.points < 1:
        raise InvalidInputError(f"--points {opts.points}: a budget is 1 SP or more")
    wants_classes = opts.classes is not None or opts.points is not None or not opts.fleets
    if wants_classes:
        names = None
        if opts.classes is not None and opts.classes.strip().lower() == "all":
            # every class `kolrami ships` lists: the FPF ten and the house packs' (issue 47)
            from kolrami.catalog import builtin_pack

            names = [cls.id for cls in builtin_pack().ships]
        elif opts.classes is not None:
            names = _split(opts.classes)
            if not names:
                raise InvalidInputError("--classes needs 'all' or ship classes, comma separated")
        out += class_combatants(names, opts.points)
    if opts.fleets:
        out += fleet_combatants(opts.fleets)
    return out


def build_plan(opts: AssessOptions) -> Plan:
    """The plan the options describe (every input checked, nothing played yet)."""
    from kolrami.sim.assess import Plan  # numpy, about 100 ms: not at start-up

    scenario = load_scenario(opts.scenario)
    if opts.turns is not None:
        if not 1 <= opts.turns <= 200:
            raise InvalidInputError(f"--turns {opts.turns}: a battle lasts 1 to 200 turns")
        scenario = scenario.model_copy(update={"turn_limit": opts.turns})
    extra = tuple(_split(opts.rules)) if opts.rules else ()
    if extra:
        known = [row[0] for row in describe()]
        for name in extra:
            if name not in known:
                raise UnknownNameError("rule module", name, None, known)
        bind(select(scenario, extra))  # modules that conflict: refused before any battle
    captains = tuple(split_captains(opts.captains))
    return Plan(
        tuple(combatants_from(opts)),
        scenario,
        captains=captains,
        battles=opts.battles,
        seed=opts.seed,
        extra_rules=extra,
        precision=opts.precision,
        focus=0 if opts.against_field else None,
    )


class _RateColumn(ProgressColumn):
    """Battles per second over Rich's recent window."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(
            "-- battles/s" if speed is None else f"{speed_text(speed)} battles/s", style="cyan"
        )


def duration_text(seconds: float) -> str:
    """A time left as a person reads it: '40 s', '12 min', '3.5 h'."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def speed_text(per_second: float) -> str:
    """Battles a second as a person reads them: whole numbers from 10 on, else two figures
    (a searching captain plays a battle or so a second: '0 battles/s' would say nothing)."""
    if math.isnan(per_second):
        return "--"
    if per_second >= 10:
        return f"{per_second:,.0f}"
    return f"{per_second:.2g}" if per_second >= 0.01 else f"{per_second:.1g}"


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
        disable=not console.is_terminal,
    )


#: The most worker processes (or Ray CPUs) asked for: more than any machine here has cores.
MAX_WORKERS = 1024


def _announce(err: Console, opts: AssessOptions, plan: Plan, workers: int, known: int) -> None:
    """What is about to be played (and what is resumed), on stderr."""
    err.print(
        f"Assessing {len(plan.combatants)} combatants: {len(plan.matchups)} matchups x "
        f"{plan.battles} battles = {plan.total} battles, scenario {plan.scenario.name}, "
        f"captains {', '.join(plan.captains)}, seed {plan.seed}, {workers} worker"
        f"{'s' * (workers != 1)} ({opts.backend})"
        + (
            f"; each matchup stops once its score's 95% interval is at most "
            f"{2 * plan.precision:g} wide"
            if plan.precision is not None
            else ""
        ),
        soft_wrap=True,
    )
    if opts.classes is None and opts.points is None and not opts.fleets:
        err.print(
            "The ten FPF classes, one against one; --classes all adds the house packs' classes "
            "(every class `kolrami ships` lists).",
            soft_wrap=True,
        )
    if known:
        err.print(
            f"Resuming: {known} of {plan.total} battles are already in {opts.out}.",
            soft_wrap=True,
        )


def _warn_short(err: Console, assessment: Assessment) -> None:
    """Say which matchups --battles stopped before --precision was reached."""
    plan = assessment.plan
    short = assessment.precision_short()
    if short:
        need = max(n for _, n in short)
        err.print(
            f"[yellow]--precision {plan.precision:g}: {len(short)} of {len(plan.matchups)} "
            f"matchups reached --battles {plan.battles} with their interval still wider than "
            f"{2 * (plan.precision or 0):g}; about --battles {need} would reach it.[/yellow]",
            soft_wrap=True,
        )


def _advancer(err: Console, progress: Progress, todo: int) -> Callable[[int], None]:
    """What a sweep calls as battles finish: the progress bar moves on a terminal; with none (a
    log, a CI job), a plain line every tenth of the way, with the speed and the time left."""
    task = progress.add_task("battles", total=todo)
    start = time.perf_counter()
    counted = [0, 0]  # battles so far, the last tenth told

    def advance(n: int) -> None:
        progress.advance(task, n)
        if err.is_terminal or todo <= 0:
            return
        counted[0] += n
        tenth = counted[0] * 10 // todo
        if tenth > counted[1]:
            counted[1] = tenth
            took = time.perf_counter() - start
            left = (todo - counted[0]) * took / counted[0]
            err.print(
                f"played {counted[0]} of at most {todo} battles in {took:.0f} s "
                f"({speed_text(counted[0] / took)} battles/s"
                + (f", about {duration_text(left)} left)" if counted[0] < todo else ")")
                if took > 0
                else f"played {counted[0]}",
                soft_wrap=True,
            )

    return advance


def _play(
    plan: Plan,
    store: RecordStore | None,
    opts: AssessOptions,
    workers: int,
    err: Console,
    known: dict[tuple[str, int], Record],
) -> tuple[dict[tuple[str, int], Record], int]:
    """Play what of `plan` is not `known` yet, with progress, saving to the store; the records
    and how many were resumed. Ctrl-C exits 130, saying what is saved."""
    # (the worker pool: loaded only when a sweep runs, not at start-up)
    from kolrami.sim.backends import Interrupted
    from kolrami.sim.backends import run_plan

    progress = _progress(err)
    advance = _advancer(err, progress, plan.total - len(known))
    try:
        with progress:
            return run_plan(
                plan, store, opts.backend, workers, opts.address, advance, records=known
            )
    except Interrupted:
        # what is on disk is the truth (Ctrl-C may land between saving a batch and counting it)
        done = len(store.load(plan)) if store is not None else int(progress.tasks[0].completed)
        where = (
            f"saved in {opts.out}; run the same command again to resume"
            if store is not None
            else "not saved (no --out): add --out DIR to keep results across runs"
        )
        typer.echo(f"kolrami: interrupted: {done} of {plan.total} battles {where}", err=True)
        raise typer.Exit(130) from None


def run_assess(opts: AssessOptions) -> None:
    """The whole command: plan, play (resuming), summarise, print, report."""
    # the sweep brings numpy and the worker pool (about 180 ms): loaded when a sweep runs, so
    # that `kolrami --help` and the other commands start fast
    from kolrami.sim.assess import RecordStore
    from kolrami.sim.assess import summarise

    workers = _check_run_options(opts)
    plan = build_plan(opts)
    store = RecordStore(opts.out) if opts.out is not None else None
    known: dict[tuple[str, int], Record] = {}
    if store is not None:
        store.open()
        known = store.load(plan)
    err = Console(stderr=True, highlight=False)
    out = Console(highlight=False)
    if not out.is_terminal:
        out.width = max(out.width, 120)
    _announce(err, opts, plan, workers, len(known))
    start = time.perf_counter()
    records, resumed = _play(plan, store, opts, workers, err, known)
    seconds = time.perf_counter() - start
    played = len(records) - resumed
    rate = played / seconds if seconds > 0 else math.nan
    if store is not None and store.skipped:
        err.print(f"[yellow]Skipped {store.skipped} unreadable line(s) in {store.path}.[/yellow]")
    summary = f"Played {played} battles in {seconds:.1f} s ({speed_text(rate)} battles/s)" + (
        f"; {resumed} were already in {opts.out}" if resumed else ""
    )
    err.print(summary)
    assessment = summarise(plan, records)
    _warn_short(err, assessment)
    data = json_safe(assessment.to_json())
    data["run"] = {
        "played": played,
        "resumed": resumed,
        "seconds": round(seconds, 3),
        "battles_per_second": None if math.isnan(rate) else round(rate, 1),
        "backend": opts.backend,
        "workers": workers,
    }
    if store is not None:
        store.write_summary(data)
    if opts.report is not None:
        from kolrami.sim.report import write_report  # matplotlib, about 500 ms: only for --report

        write_report(assessment, opts.report, {"timing": summary + "."})
    if opts.as_json:
        print_json(data)
    else:
        print_tables(out, assessment)
    if opts.report is not None:
        err.print(f"Wrote the report to {opts.report}")
    if store is not None:
        err.print(
            f"Results are in {store.path} and {store.folder / 'assessment.json'}", soft_wrap=True
        )


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x * 100:.1f}%"


def print_tables(out: Console, a: Assessment) -> None:
    """Matchups, ratings and fair values as Rich tables."""
    # numpy, scipy: not at start-up
    from kolrami.sim.fairvalue import MARKS
    from kolrami.sim.fairvalue import flags as fair_flags
    from kolrami.sim.fairvalue import settle_text

    names = [c.label for c in a.plan.combatants]
    title = "Matchups (score: wins + half the draws, 95% Wilson interval)"
    if a.plan.simulating:
        title += "; a battle the roll-off decided is a draw, its roll-off shown apart"
    m = Table(title=title)
    for col in ("Combatant", "Opponent", "Battles", "W-D-L", "Score", "95% interval", "Margin"):
        m.add_column(col, justify="left" if col in ("Combatant", "Opponent") else "right")
    if a.plan.simulating:
        m.add_column("Fleet Points", justify="right")
        m.add_column("Roll-offs won", justify="right")
    for s in a.matchups:
        row = [
            names[s.matchup.x],
            names[s.matchup.y],
            str(s.battles),
            f"{s.wins}-{s.draws}-{s.losses}",
            _pct(s.score),
            f"{_pct(s.low)} - {_pct(s.high)}",
            f"{s.margin:+.1f}",
        ]
        if a.plan.simulating:
            row.append(
                "-"
                if s.fleet_points is None
                else f"{s.fleet_points[0]:.0f}:{s.fleet_points[1]:.0f}"
            )
            row.append(f"{s.rolloffs[0]}:{s.rolloffs[1]}")
        m.add_row(*row)
    out.print(m)

    elo = a.ratings.elo()
    lo, hi = a.ratings.elo_interval()
    r = Table(title="Ratings (Bradley-Terry, Elo scale, field mean 1500)")
    for col in ("#", "Combatant", "Cost SP", "Rating", "95% interval"):
        r.add_column(col, justify="left" if col == "Combatant" else "right")
    for rank, i in enumerate(a.order(), start=1):
        r.add_row(
            str(rank),
            names[i],
            str(a.plan.combatants[i].cost),
            f"{elo[i]:.0f}",
            f"{lo[i]:.0f} - {hi[i]:.0f}",
        )
    out.print(r)
    fit = a.ratings.fit
    if fit is not None and fit.df > 0:
        out.print(
            f"[dim]Fit of the ratings: deviance {fit.deviance:.1f}, Pearson's statistic "
            f"{fit.pearson:.1f}, on {fit.df} degrees of freedom ({fit.deviance / fit.df:.2f} and "
            f"{fit.pearson / fit.df:.2f} per degree; about 1 when the model holds): "
            f"{fit.verdict()}"
            + (f" (variance x{fit.dispersion:.2f})" if fit.dispersion > 1.0 else "")
            + ".[/dim]"
        )

    if a.fair.line is None:
        out.print(f"[dim]No fair values: {a.fair.reason}.[/dim]")
        return
    f = Table(title="Fair values (cost that puts each on the others' price line)")
    cols = ["Combatant", "Cost", "Fair cost", "95% interval", "If linear", "P(under)", "Verdict"]
    cols.append("More battles")
    if len(a.plan.captains) > 1:
        cols.append("By captain")
    for col in cols:
        f.add_column(
            col,
            justify="left"
            if col in ("Combatant", "Verdict", "By captain", "More battles")
            else "right",
        )
    for i in sorted(range(len(names)), key=lambda j: a.plan.combatants[j].cost):
        fv = a.fair.values[i]
        verdict = fv.verdict()
        style = {"underpriced": "green", "overpriced": "red"}.get(verdict, "")
        flags = fair_flags(fv, a.captains_disagree(i))
        cells: list[str | Text] = [
            names[i],
            str(fv.cost),
            "-" if fv.fair_cost is None else f"{fv.fair_cost:.0f}",
            "-" if fv.fair_low is None else f"{fv.fair_low:.0f} - {fv.fair_high:.0f}",
            "-" if fv.fair_cost_linear is None else f"{fv.fair_cost_linear:.0f}",
            "-" if fv.p_underpriced is None else f"{fv.p_underpriced:.2f}",
            Text(verdict + (f" ({', '.join(flags)})" if flags else ""), style=style),
            settle_text(fv) or "-",
        ]
        if len(a.plan.captains) > 1:
            cells.append(a.by_captain_text(i))
        f.add_row(*cells)
    out.print(f)
    out.print(f"[dim]Verdicts rest on {a.fair.basis}.[/dim]")
    out.print(f"[dim]{MARKS}[/dim]")


def fleet_args(fleets: Sequence[str] | None, more: Sequence[str] | None) -> tuple[str, ...]:
    """--fleets values and extra arguments, so that `--fleets a.json presets:*` works."""
    return tuple(fleets or ()) + tuple(more or ())


def json_safe(data: Any) -> Any:
    """NaN (an empty matchup) as null, so that the JSON is standard."""
    if isinstance(data, float) and math.isnan(data):
        return None
    if isinstance(data, dict):
        return {k: json_safe(v) for k, v in data.items()}
    if isinstance(data, list):
        return [json_safe(v) for v in data]
    return data


def register(app: typer.Typer) -> None:
    """Add `kolrami assess` to the main app."""
    command(app, "assess")(assess_cmd)
    command(app, "ladder")(ladder_cmd)


def ladder_cmd(
    captains: Annotated[
        list[str], typer.Argument(help="Two or more captains: names, module or file paths.")
    ],
    fleets: Annotated[
        str, typer.Option(help="Fleets each pairing plays as mirror matches, comma separated.")
    ] = "presets:federation-cruisers,presets:klingon-wolfpack,presets:federation-fleet",
    battles: Annotated[int, typer.Option(help="Battles per pairing and fleet.")] = 20,
    scenario: Annotated[str, typer.Option(help="standard, peak-performance, or a file.")] = (
        "standard"
    ),
    seed: Annotated[int, typer.Option(help="Master seed, 0 to 2**63 - 1.")] = 1,
    workers: Annotated[int | None, typer.Option(help="Worker processes; default all cores.")] = (
        None
    ),
    report: Annotated[Path | None, typer.Option(help="Write an HTML report here.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print everything as JSON.")] = False,
) -> None:
    """Captains against each other on a set of fleets, ranked with intervals.

    kolrami ladder aggressive kiting random docs/examples/brawler.py:Brawler --battles 40
    """
    # numpy and the worker pool (about 180 ms): loaded when a ladder runs, not at start-up
    from kolrami.sim.backends import default_workers
    from kolrami.sim.ladder import TIED_NOTE
    from kolrami.sim.ladder import LadderPlan
    from kolrami.sim.ladder import fleets_of
    from kolrami.sim.ladder import rank_text
    from kolrami.sim.ladder import run_ladder

    if report is not None and report.suffix.lower() not in (".html", ".htm"):
        raise InvalidInputError(f"--report '{report}' must end in .html")
    if report is not None and not report.parent.exists():
        raise InvalidInputError(f"cannot write --report '{report}': its folder does not exist")
    check_seed(seed)
    n_workers = default_workers() if workers is None else workers
    if not 1 <= n_workers <= 1024:
        raise InvalidInputError(f"--workers {n_workers}: use 1 to 1,024 workers")
    names = tuple(captain(c) for c in captains)
    plan = LadderPlan(
        names,
        fleets_of(_split(fleets), load_any),
        load_scenario(scenario),
        battles=battles,
        seed=seed,
    )
    err = Console(stderr=True, highlight=False)
    err.print(
        f"Ladder: {len(names)} captains, {len(plan.fleets)} fleets, {plan.total} battles, "
        f"{n_workers} worker{'s' * (n_workers != 1)}",
        soft_wrap=True,
    )
    ladder = run_ladder(plan, n_workers)
    data = ladder.to_json()
    if report is not None:
        report.write_text(ladder.html(), encoding="utf-8")
    if as_json:
        print_json(json_safe(data))
        return
    out = Console(highlight=False)

    def short(name: str) -> str:  # a captain by path, by its file's name and attribute
        where, colon, attr = name.rpartition(":")
        return f"{Path(where).name}:{attr}" if colon else name

    t = Table(title="Captain ladder (Bradley-Terry, Elo scale)")
    for col in ("#", "Captain", "Rating", "95% interval", "Cannot be told from"):
        t.add_column(col, justify="left" if col in ("Captain", "Cannot be told from") else "right")
    for r in data["ranking"]:
        lo, hi = r["rating_95"]
        t.add_row(
            rank_text(r),
            short(r["captain"]),
            f"{r['rating']:.0f}",
            f"{lo:.0f} - {hi:.0f}",
            ", ".join(short(c) for c in r["level_with"]) or "-",
        )
    out.print(t)
    if any(r["tied"] for r in data["ranking"]):
        out.print(TIED_NOTE)
    p = Table(title="Pairings (score of the first against the second)")
    for col in ("Captain", "Opponent", "Battles", "Score", "95% interval"):
        p.add_column(col, justify="left" if col in ("Captain", "Opponent") else "right")
    for row in data["pairings"]:
        lo, hi = row["score_95"]
        p.add_row(
            short(row["captain"]),
            short(row["opponent"]),
            str(row["battles"]),
            f"{row['score']:.3f}",
            f"{lo:.3f} - {hi:.3f}",
        )
    out.print(p)
    if report is not None:
        out.print(f"Wrote the report to {report}")


# --- the designer's questions: --vary and --even (kolrami.sim.design) ------------------------


def _check_run_options(opts: AssessOptions) -> int:
    """Workers, backend and --report checked before anything is planned or played; the workers."""
    # (numpy and the simulation: loaded only for this command, not at start-up)
    from kolrami.sim.backends import default_workers
    from kolrami.sim.backends import ray_module

    workers = default_workers() if opts.workers is None else opts.workers
    if not 1 <= workers <= MAX_WORKERS:
        raise InvalidInputError(
            f"--workers {quoted(workers, 20)}: use 1 to {MAX_WORKERS} workers (this machine has "
            f"{default_workers()} cores)"
        )
    if opts.backend not in ("local", "ray"):
        raise InvalidInputError(f"--backend {opts.backend}: use local or ray")
    if opts.address is not None and opts.backend != "ray":
        raise InvalidInputError("--address belongs to --backend ray")
    if opts.report is not None:
        if opts.report.suffix.lower() not in (".html", ".htm"):
            raise InvalidInputError(f"--report '{quoted(opts.report)}' must end in .html")
        if not opts.report.parent.exists():
            raise InvalidInputError(
                f"cannot write --report '{quoted(opts.report)}': folder "
                f"'{quoted(opts.report.parent)}' does not exist"
            )
    if opts.backend == "ray":
        ray_module()
    return workers


def _design_base(opts: AssessOptions) -> dict[str, Any]:
    """The plan settings --vary and --even share with a sweep (scenario, captains, battles)."""
    if opts.fleets:
        raise InvalidInputError("--vary and --even play ship classes: leave out --fleets")
    probe = build_plan(
        AssessOptions(
            fleets=(),
            classes="reliant,enterprise",
            points=None,
            scenario=opts.scenario,
            captains=opts.captains,
            battles=opts.battles,
            seed=opts.seed,
            turns=opts.turns,
            rules=opts.rules,
            workers=opts.workers,
            backend=opts.backend,
            address=opts.address,
            out=None,
            report=None,
            as_json=False,
            precision=opts.precision,
        )
    )
    return {
        "scenario": probe.scenario,
        "captains": probe.captains,
        "battles": probe.battles,
        "seed": probe.seed,
        "extra_rules": probe.extra_rules,
        "precision": probe.precision,
    }


def _runner(opts: AssessOptions, workers: int, err: Console) -> Any:
    """A function that plays a plan with a progress bar (plain lines without a terminal),
    saving to --out when given; Ctrl-C exits 130 with what is saved."""
    # (numpy and the simulation: loaded only for this command, not at start-up)
    from kolrami.sim.assess import RecordStore

    store = RecordStore(opts.out) if opts.out is not None else None
    totals = [0]

    def run(plan: Plan) -> dict[tuple[str, int], Record]:
        known = store.load(plan) if store is not None else {}
        if store is not None:
            store.open()
        records, _ = _play(plan, store, opts, workers, err, known)
        totals[0] += len(records)
        return records

    run.totals = totals  # type: ignore[attr-defined]
    return run


def _one_class(opts: AssessOptions) -> str:
    names = _split(opts.classes or "")
    if len(names) != 1 or names[0].lower() == "all":
        raise InvalidInputError(
            "--vary takes one class: name it with --classes NAME (e.g. --vary shields=10..16 "
            "--classes reliant)"
        )
    return names[0]


def run_vary(opts: AssessOptions, text: str) -> None:
    """`kolrami assess --vary STAT=LO..HI --classes NAME`: the class's score against the field
    at each value, with intervals, printed and (with --report) plotted."""
    # (numpy and the simulation: loaded only for this command, not at start-up)
    from kolrami.catalog import builtin_pack
    from kolrami.sim.design import check_vary
    from kolrami.sim.design import field_of
    from kolrami.sim.design import parse_vary
    from kolrami.sim.design import vary_plan
    from kolrami.sim.design import vary_points

    vary = parse_vary(text)
    cls = builtin_pack().get(_one_class(opts))
    check_vary(cls, vary)
    workers = _check_run_options(opts)
    base = _design_base(opts)
    field = field_of(cls)
    plan = vary_plan(cls, vary, field, **base)
    err = Console(stderr=True, highlight=False)
    out = Console(highlight=False)
    err.print(
        f"Varying {cls.name}'s {vary.stat} over {', '.join(map(str, vary.values))}: each value "
        f"against {len(field)} classes ({', '.join(f.name for f in field)}), {plan.battles} "
        f"battles each, {plan.total} battles, {workers} worker{'s' * (workers != 1)}",
        soft_wrap=True,
    )
    start = time.perf_counter()
    records = _runner(opts, workers, err)(plan)
    seconds = time.perf_counter() - start
    points = vary_points(cls, vary, plan, records)
    data = {
        "class": cls.name,
        "stat": vary.stat,
        "field": [f.name for f in field],
        "battles_per_matchup": plan.battles,
        "seconds": round(seconds, 3),
        "points": [
            {
                "value": p.value,
                "printed": p.printed,
                "battles": p.battles,
                "score": p.score,
                "score_95": [p.low, p.high],
            }
            for p in points
        ],
    }
    if opts.report is not None:
        from kolrami.sim.report import write_vary_report  # matplotlib: only for --report

        write_vary_report(data, opts.report)
    if opts.as_json:
        print_json(json_safe(data))
    else:
        t = Table(
            title=f"{cls.name} against the field by {vary.stat} (score: wins + half the draws, "
            "95% Wilson interval, pooled over the field)"
        )
        for col in (vary.stat, "Battles", "Score", "95% interval"):
            t.add_column(col, justify="right")
        for p in points:
            t.add_row(
                f"{p.value}" + (" (printed)" if p.printed else ""),
                str(p.battles),
                _pct(p.score),
                f"{_pct(p.low)} - {_pct(p.high)}",
            )
        out.print(t)
        lo, hi = points[0], points[-1]
        out.print(
            f"From {vary.stat} {lo.value} to {hi.value} the score moves "
            f"{(hi.score - lo.score) * 100:+.1f} points ({_pct(lo.score)} to {_pct(hi.score)})."
        )
    err.print(f"Played {plan.total} battles in {seconds:.1f} s.")
    if opts.report is not None:
        err.print(f"Wrote the report to {opts.report}")


def run_even(opts: AssessOptions, name: str) -> None:
    """`kolrami assess --even CLASS`: the cost at which the class wins half against the field
    at equal points, by a bracketing search, with its interval."""
    # (numpy and the simulation: loaded only for this command, not at start-up)
    from kolrami.catalog import builtin_pack
    from kolrami.sim.design import even_search
    from kolrami.sim.design import field_of

    cls = builtin_pack().get(name)
    workers = _check_run_options(opts)
    base = _design_base(opts)
    others = _split(opts.classes) if opts.classes and opts.classes.lower() != "all" else None
    field = field_of(cls, others)
    if not field:
        raise InvalidInputError(f"--even {cls.name}: the field is empty; name --classes to meet")
    points = opts.points or max(f.value for f in field)
    err = Console(stderr=True, highlight=False)
    out = Console(highlight=False)
    err.print(
        f"Searching the cost at which {cls.name} (printed {cls.value} SP) wins half against "
        f"{len(field)} classes, each fielded at about {points} SP and met with as many "
        f"{cls.name}s as those points buy at the cost tried; {base['battles']} battles a "
        "matchup",
        soft_wrap=True,
    )
    start = time.perf_counter()
    result = even_search(cls, field, points, _runner(opts, workers, err), **base)
    seconds = time.perf_counter() - start
    data = {
        "class": cls.name,
        "printed_cost": cls.value,
        "points": points,
        "field": [f.name for f in field],
        "even_cost": result.cost,
        "even_cost_95": None if result.low is None else [result.low, result.high],
        "note": result.note,
        "seconds": round(seconds, 3),
        "steps": [
            {"cost": s.cost, "battles": s.battles, "score": s.score, "score_95": [s.low, s.high]}
            for s in result.steps
        ],
    }
    if opts.report is not None:
        from kolrami.sim.report import write_even_report  # matplotlib: only for --report

        write_even_report(data, opts.report)
    if opts.as_json:
        print_json(json_safe(data))
    else:
        t = Table(title=f"{cls.name} against the field at equal points, by the cost tried")
        for col in ("Cost (SP)", "Battles", "Score", "95% interval"):
            t.add_column(col, justify="right")
        for s in result.steps:
            t.add_row(
                f"{s.cost:.0f}", str(s.battles), _pct(s.score), f"{_pct(s.low)} - {_pct(s.high)}"
            )
        out.print(t)
        if result.cost is None:
            out.print(f"No even cost found: {result.note}.")
        else:
            span = (
                "-"
                if result.low is None or result.high is None
                else f"{result.low:.0f} to {result.high:.0f}"
            )
            out.print(
                f"{cls.name} would be even at about {result.cost:.0f} SP (printed {cls.value}); "
                f"95% interval {span}" + (f" ({result.note})" if result.note else "") + "."
            )
    err.print(f"Took {seconds:.1f} s.")
    if opts.report is not None:
        err.print(f"Wrote the report to {opts.report}")
