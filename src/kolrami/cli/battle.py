"""`kolrami battle`, `kolrami replay`, `kolrami captains` and `kolrami rules`: play a battle with
AI captains, re-run one from its log, and list what a battle can be made of."""

from __future__ import annotations

import inspect
import secrets
from pathlib import Path
from typing import Annotated
from typing import Any

import typer
from rich.table import Table

from kolrami.captains.registry import captain_names
from kolrami.captains.registry import make_captain
from kolrami.catalog import builtin_pack
from kolrami.cli.support import AsJson
from kolrami.cli.support import RulesOption
from kolrami.cli.support import ScenarioOption
from kolrami.cli.support import SeedOption
from kolrami.cli.support import TurnsOption
from kolrami.cli.support import captain
from kolrami.cli.support import check_seed
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.cli.support import rule_modules
from kolrami.engine.battle import Battle
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import play
from kolrami.engine.driver import run
from kolrami.engine.events import BattleEnded
from kolrami.engine.events import BattleStarted
from kolrami.engine.events import Event
from kolrami.engine.events import OrderGiven
from kolrami.engine.events import TurnStarted
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.errors import quoted
from kolrami.errors import read_text
from kolrami.fleet.model import load_fleet
from kolrami.report.narrate import Narrator
from kolrami.report.narrate import ship_state
from kolrami.report.narrate import status_table
from kolrami.rules import RULES_VERSION
from kolrami.rules import events as ev
from kolrami.rules import new_battle
from kolrami.rules import rebuild
from kolrami.rules.advanced.driver import ADVANCED_RULES_VERSION
from kolrami.rules.module import Capability
from kolrami.rules.registry import describe
from kolrami.rules.registry import read_log
from kolrami.rules.registry import unwritten_options
from kolrami.scenarios.models import load_scenario

#: The most bytes of an event log `replay` reads: a 200-turn battle's log is under 100 KB.
MAX_LOG_BYTES = 64 * 1024 * 1024


def _seed_or_new(seed: int | None) -> int:
    if seed is None:
        return secrets.randbelow(10**6)
    check_seed(seed)
    return seed


def _battle_json(battle: Battle) -> dict[str, Any]:
    """What the text tells, as JSON: the result with its reason and the points each side
    destroyed, every ship's end state, and Peak Performance's score where it is played."""
    result = battle.finish()
    lost = result.destroyed_value  # each side's own value destroyed
    return {
        "seed": battle.seed,
        "rules_version": RULES_VERSION,
        "scenario": battle.scenario.name,
        "winner": result.winner,
        "reason": result.reason,
        "turns": result.turns,
        "points_destroyed": {"A": lost.get("B", 0), "B": lost.get("A", 0)},
        "ships": [
            {
                "id": s.id,
                "class": s.cls.id,
                "name": s.cls.name,
                "side": s.side,
                "superstructure": max(0, s.superstructure),
                "shields": s.shields,
                "engine_power": s.engine_power,
                "systems": max(0, s.systems),
                "state": ship_state(s),
                "destroyed": not s.alive,
            }
            for s in battle.ships.values()
        ],
        "log_sha256": battle.log.sha256(),
        **_peak_json(battle),
    }


def _scores_fleet_points(battle: Battle) -> bool:
    """True when a rule module (Peak Performance's battle simulation) scores Fleet Points."""
    return Capability.SCORES_FLEET_POINTS in battle.rules.capabilities


def _resets(battle: Battle) -> list[dict[str, Any]]:
    """Every reset with its turn and the points the opponent scored for it."""
    out: list[dict[str, Any]] = []
    turn = 0
    for e in battle.events():
        if isinstance(e, ev.TurnStarted):
            turn = e.turn
        elif isinstance(e, ev.ShipReset):
            out.append({"ship": e.ship, "turn": turn, "points_awarded": 0})
        elif isinstance(e, ev.FleetPointsAwarded) and e.reason == "kill":
            out[-1]["points_awarded"] = e.points
    return out


def _peak_json(battle: Battle) -> dict[str, Any]:
    """Peak Performance's score keys: only when the battle scores Fleet Points."""
    if not _scores_fleet_points(battle):
        return {}
    bonus = {"A": 0, "B": 0}
    resource = {"A": False, "B": False}
    for e in battle.events():
        if isinstance(e, ev.FleetPointsAwarded):
            if e.reason == "bonus":
                bonus[e.side] += e.points
            elif e.reason == "resource":
                resource[e.side] = True
    return {
        "fleet_points": dict(battle.fleet_points),
        "crit_tokens": {
            side: sum(s.tokens for s in battle.ships.values() if s.side == side)
            for side in ("A", "B")
        },
        "resource_scored": resource,
        "bonus": bonus,
        "resets": _resets(battle),
    }


def _score_sheet(battle: Battle) -> Table:
    """Peak Performance score sheet: per ship, resets and points given; totals."""
    table = Table(title="Score sheet (Peak Performance)", title_justify="left")
    for col in ("Ship", "Class", "Side", "Total SP", "Resets", "Tokens", "Points given"):
        table.add_column(col, justify="left" if col in ("Ship", "Class", "Side") else "right")
    given = dict.fromkeys(battle.ships, 0)
    resource_pts = {"A": 0, "B": 0}
    bonus = {"A": 0, "B": 0}
    for e in battle.events():
        if isinstance(e, ev.FleetPointsAwarded):
            if e.reason == "kill":
                given[e.ship] += e.points
            elif e.reason == "resource":
                resource_pts[e.side] += e.points
            else:
                bonus[e.side] += e.points
    for s in battle.ships.values():
        table.add_row(
            s.id, s.cls.name, s.side, str(s.points), str(s.tokens), str(s.tokens), str(given[s.id])
        )
    table.add_section()
    for side in ("A", "B"):
        kills = sum(given[s.id] for s in battle.ships.values() if s.side != side)
        table.add_row(
            f"Side {side}",
            "kills + resource + bonus",
            "",
            "",
            "",
            "",
            f"{kills} + {resource_pts[side]} + {bonus[side]} = {battle.fleet_points[side]}",
        )
    return table


def _write_log(battle: Battle, path: Path) -> None:
    try:
        path.write_text(battle.log.jsonl(), encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write the log '{quoted(path)}': {exc.strerror}") from None


#: The fleets a battle plays when neither the command nor the scenario names them.
DEFAULT_FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")


def battle_cmd(
    fleet_a: Annotated[
        str | None,
        typer.Option(
            help="Side A: a FleetX JSON file or presets:NAME (default: the scenario's, else "
            "presets:federation-cruisers)."
        ),
    ] = None,
    fleet_b: Annotated[
        str | None,
        typer.Option(
            help="Side B: a FleetX JSON file or presets:NAME (default: the scenario's, else "
            "presets:klingon-wolfpack)."
        ),
    ] = None,
    captain_a: Annotated[str, typer.Option(help="Side A's captain.")] = "aggressive",
    captain_b: Annotated[str, typer.Option(help="Side B's captain.")] = "aggressive",
    scenario: ScenarioOption = "standard",
    turns: TurnsOption = None,
    rules: RulesOption = None,
    seed: SeedOption = None,
    log: Annotated[Path | None, typer.Option(help="Write the event log (JSONL) here.")] = None,
    replay: Annotated[
        Path | None, typer.Option(help="Write the battle as a self-contained HTML replay here.")
    ] = None,
    tracks: Annotated[
        Path | None, typer.Option(help="Write a PNG of the ships' tracks here.")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Every move and order.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play one battle with AI captains and tell it turn by turn (or as JSON)."""
    # the replay writer (about 10 ms to load) only when a command writes one
    from kolrami.report.outputs import check_outputs
    from kolrami.report.outputs import write_outputs

    check_outputs(replay, tracks)
    pack = builtin_pack()
    sc = load_scenario(scenario)
    if turns is not None:
        if not 1 <= turns <= 200:
            raise InvalidInputError(f"--turns {turns}: a battle lasts 1 to 200 turns")
        sc = sc.model_copy(update={"turn_limit": turns})
    given = (*sc.fleets, *DEFAULT_FLEETS[len(sc.fleets) :])
    fleets = (load_fleet(fleet_a or given[0], pack), load_fleet(fleet_b or given[1], pack))
    real_seed = _seed_or_new(seed)
    names = (captain(captain_a), captain(captain_b))
    captains = {
        side: make_captain(n, captain_dice(real_seed, side))
        for side, n in zip(("A", "B"), names, strict=True)
    }
    extra = rule_modules(rules)
    battle = new_battle(sc, fleets, real_seed, names, pack, extra_rules=extra)
    run(battle, captains)
    if log is not None:
        _write_log(battle, log)
    pictures = write_outputs(battle.events(), replay, tracks, pack)
    if as_json:
        print_json(_battle_json(battle))
        return
    out = console()
    out.print(
        f"[bold]{fleets[0].name}[/bold] ({names[0]}) vs [bold]{fleets[1].name}[/bold] "
        f"({names[1]}), scenario {sc.name}, seed {real_seed}"
    )
    Narrator(out, pack, verbose).tell(battle.events())
    out.print(status_table(battle))
    if _scores_fleet_points(battle):
        out.print(_score_sheet(battle))
    if seed is None:
        out.print(f"[dim]Re-run this battle with --seed {real_seed}.[/dim]")
    if log is not None:
        out.print(f"Wrote the event log to {log}")
    for line in pictures:
        out.print(line)


def _named_captains(names: tuple[str, str], seed: int) -> dict[str, Any]:
    """The captains the log's header names, each with its side's dice."""
    try:
        return {
            side: make_captain(n, captain_dice(seed, side))
            for side, n in zip(("A", "B"), names, strict=True)
        }
    except KolramiError as exc:
        # a captain of the user's own that is not to be had here
        raise InvalidInputError(
            f"{exc}; supply that captain (run from its folder, or install its package), or "
            "replay the logged orders instead: kolrami replay LOG --orders"
        ) from None


def _first_difference(text: str, new: str) -> int:
    """The number of the first line where two logs differ (one a prefix of the other: the
    line after the shorter one)."""
    for number, (a, b) in enumerate(zip(text.splitlines(), new.splitlines(), strict=False), 1):
        if a != b:
            return number
    return min(len(text.splitlines()), len(new.splitlines())) + 1


# the options of replay_cmd, named
OrdersOption = Annotated[
    bool,
    typer.Option("--orders", help="Replay the logged orders instead of re-asking captains."),
]
HtmlOption = Annotated[
    Path | None, typer.Option("--html", help="Write the log as a self-contained HTML replay.")
]
TracksOption = Annotated[Path | None, typer.Option(help="Write a PNG of the ships' tracks here.")]
ViewOption = Annotated[
    str,
    typer.Option(
        "--view",
        help="Whose view --html, --tracks and --show draw: referee (everything), A or B (only "
        "what that side saw: no enemy orders, cloaked ships, unfound mines or enemy probes).",
    ),
]


def replay_cmd(
    log: Annotated[Path, typer.Argument(help="An event log written by kolrami battle --log.")],
    orders: OrdersOption = False,
    show: Annotated[bool, typer.Option("--show", help="Tell the battle turn by turn.")] = False,
    html: HtmlOption = None,
    tracks: TracksOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    view: ViewOption = "referee",
) -> None:
    """Re-run a battle from its log's header and say whether the new log is identical.

    With --html or --tracks the log's own events are drawn, whatever the re-run gives, in the
    --view asked for. A side's log (a download of one side's view) draws, but cannot re-run.
    """
    # the replay writer as in battle_cmd
    from kolrami.report.outputs import check_outputs
    from kolrami.report.outputs import write_outputs
    from kolrami.report.sideview import REFEREE
    from kolrami.report.sideview import VIEWS
    from kolrami.report.sideview import view_events

    if view not in VIEWS:
        raise InvalidInputError(f"--view '{quoted(view, 20)}': use one of {', '.join(VIEWS)}")
    check_outputs(html, tracks)
    text, events, header = _read_log(log)
    pictures = write_outputs(view_events(events, view), html, tracks)
    if header.get("view") in VIEWS and header.get("view") != REFEREE:
        # one side's view (kolrami.report.sideview): the other side's orders are not in it
        _not_rerun(
            f"{log} is side {header['view']}'s view of a battle, without the other side's "
            "orders: it cannot be re-run; its --html replay and --tracks draw what it holds",
            pictures,
        )
        return
    made_under = header.get("rules_version")
    plays = ADVANCED_RULES_VERSION if str(made_under).startswith("adv") else RULES_VERSION
    if made_under != plays:
        # Its battle cannot be played again here: the rules resolve the same orders otherwise.
        # What it recorded still draws (--html, --tracks read the log's own events).
        _not_rerun(
            f"{log} was played under rules {made_under} and this Kolrami plays {plays}: "
            "it cannot re-run that battle to check it (the same orders resolve otherwise under "
            "other rules); its --html replay and --tracks still draw from the log itself",
            pictures,
        )
        return
    battle = _rerun(header, events, orders)
    finished = any(isinstance(e, BattleEnded) for e in events)
    new = battle.log.jsonl()
    identical = new == text
    first_diff = None if identical else _first_difference(text, new)
    if as_json:
        print_json(
            {
                "identical": identical,
                "first_difference_line": first_diff,
                "rules_version": RULES_VERSION,
                "log_rules_version": header.get("rules_version"),
                "log_sha256": battle.log.sha256(),
                "finished": finished,
            }
        )
    else:
        out = console()
        if show:
            Narrator(out, builtin_pack()).tell(view_events(battle.events(), view))
        for line in pictures:
            out.print(line)
        _say_verdict(log, events, battle, first_diff, finished, header.get("rules_version"))
    if not identical:
        raise typer.Exit(1)


def _read_log(log: Path) -> tuple[str, list[Event], dict[str, Any]]:
    """The text of the event log `log`, its events and the battle's header they start with; a
    one-line error for a file that is not one."""
    text = read_text(log, "log", MAX_LOG_BYTES)
    try:
        events = read_log(text)
    except (ValueError, TypeError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else quoted(exc, 200)
        raise InvalidInputError(f"{quoted(log)} is not a Kolrami event log: {why}") from None
    if not events or not isinstance(events[0], BattleStarted):
        raise InvalidInputError(f"{log} does not start with a battle_started header")
    return text, events, events[0].header


def _not_rerun(why: str, pictures: list[str]) -> None:
    """A log that cannot be re-run: what it drew and why not, or the error when it drew nothing."""
    if not pictures:
        raise InvalidInputError(why)
    out = console()
    for line in pictures:
        out.print(line)
    out.print(f"[yellow]not re-run[/yellow]: {why}")


def _rerun(header: dict[str, Any], events: list[Event], orders: bool) -> Battle:
    """The battle of a log played again from its header: by its logged orders (`orders`) or its
    named captains; a game saved part-way as far as it went."""
    # The scripted captain brings the advanced game's captains and state (about 70 ms).
    from kolrami.captains.scripted import logged_captains

    scenario, fleets, names, seed, extra = rebuild(header)
    captains = logged_captains(events) if orders else _named_captains(names, seed)
    battle = new_battle(scenario, fleets, seed, names, extra_rules=extra)
    # what a game played by hand noted of its undos (kolrami.sim.session): part of its header
    for key in ("undo", "undone"):
        if key in header:
            battle.header[key] = header[key]
    if any(isinstance(e, BattleEnded) for e in events):
        run(battle, captains)
    else:  # a game saved part-way (kolrami play --save): re-run as far as it went
        _run_orders(battle, captains, sum(isinstance(e, OrderGiven) for e in events))
    return battle


def _say_verdict(
    log: Path,
    events: list[Event],
    battle: Battle,
    first_diff: int | None,
    finished: bool,
    made_under: object,
) -> None:
    """Tell whether the re-run's log is the one given: identical (so far, for an unfinished
    game) or where it first differs, and under which rules the log was `made_under`."""
    out = console()
    if first_diff is None and not finished:
        turn = max((e.turn for e in events if isinstance(e, TurnStarted)), default=0)
        out.print(
            f"[green]identical so far[/green]: an unfinished game ({len(events)} events, "
            f"stopped in turn {turn}), sha256 {battle.log.sha256()[:16]}...; go on with "
            f"kolrami play --resume {log}"
        )
    elif first_diff is None:
        out.print(
            f"[green]identical[/green]: {len(events)} events, sha256 {battle.log.sha256()[:16]}..."
        )
    else:
        out.print(f"[red]different[/red] from line {first_diff} of {log}")
        if made_under != RULES_VERSION:
            out.print(f"The log was made under rules {made_under}; this is {RULES_VERSION}.")


def captain_rows() -> list[tuple[str, str]]:
    """(name, what it does) of every captain known by name: the first line of its docstring."""
    rows = []
    for name in captain_names():
        # a captain's class says how it plays; making one is cheap and rolls no dice
        cls = type(make_captain(name, captain_dice(0, "A")))
        # a built-in's `summary` (a class compiled by mypyc keeps no docstring), else its doc
        doc = getattr(cls, "summary", None) or inspect.getdoc(cls) or ""
        rows.append((name, " ".join(doc.split("\n\n")[0].split())))
    return rows


def captains_cmd(
    as_json: AsJson = False,
) -> None:
    """List the captains a battle can be played by (--captain-a, --captain-b)."""
    rows = captain_rows()
    if as_json:
        print_json([{"name": n, "description": d} for n, d in rows])
        return
    table = Table(title="Captains", title_justify="left")
    table.add_column("Captain")
    table.add_column("How it plays")
    for name, doc in rows:
        table.add_row(name, doc)
    console().print(table)


def rules_cmd(as_json: AsJson = False) -> None:
    """List the rule modules: the FPF core and the optional ones a scenario can switch on."""
    rows = describe()
    if as_json:
        print_json(
            [{"name": n, "core": c, "clauses": list(cl), "summary": s} for n, c, cl, s in rows]
        )
        return
    table = Table(title="Rule modules")
    table.add_column("Module")
    table.add_column("Kind")
    table.add_column("Clauses")
    table.add_column("What it does")
    for name, core, clauses, summary in rows:
        table.add_row(name, "core" if core else "option", " ".join(clauses), summary)
    console().print(table)
    ideas = Table(title="Named by FPF without rules (nothing to switch on)", title_justify="left")
    ideas.add_column("Idea")
    ideas.add_column("Clause")
    ideas.add_column("What FPF suggests")
    for name, clause, idea in unwritten_options():
        ideas.add_row(name, clause, idea)
    console().print(ideas)


def _run_orders(battle: Battle, captains: dict[str, Any], orders: int) -> None:
    """Play `battle` with `captains` for `orders` decisions (or to its end, if sooner)."""
    views = {side: battle.rules.view(battle, side) for side in ("A", "B")}
    game = play(battle)
    try:
        decision = next(game)
        for _ in range(orders):
            side = decision.side
            decision = game.send(captains[side].decide(views[side], decision))
    except StopIteration:
        pass


def register(app: typer.Typer) -> None:
    """Add `kolrami battle`, `kolrami replay`, `kolrami captains` and `kolrami rules`."""
    command(app, "battle")(battle_cmd)
    command(app, "replay")(replay_cmd)
    command(app, "captains")(captains_cmd)
    command(app, "rules")(rules_cmd)
