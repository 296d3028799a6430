"""The `kolrami` command: one Typer app, one command (or sub-app) per noun.

Every user error is a KolramiError; `_command` turns it into one line on stderr and exit code 2,
and `main` does the same for usage errors, so no user ever sees a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from kolrami import __version__
from kolrami.catalog import Arc, Faction, ShipClass, ShipPack, WeaponKind, builtin_pack
from kolrami.cli_assess import register as register_assess_commands
from kolrami.cli_fleet import register as register_fleet_commands
from kolrami.cli_support import P, R, command, console, fail, print_json
from kolrami.cli_tournament import register as register_tournament_commands
from kolrami.cli_web import register as register_web_commands
from kolrami.engine.battle import RULES_VERSION, Battle
from kolrami.errors import InvalidInputError, KolramiError
from kolrami.report.sheets import roster_table, ship_sheet
from kolrami.rules.fpf.damage import penetration_target
from kolrami.sim.odds import GroupOdds, Model, VolleyOdds, WeaponGroup, ship_volley, volley_odds

app = typer.Typer(
    name="kolrami",
    help="Kolrami: Star Trek fleet battles (FPF) on the tabletop and in simulation.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

_fail = fail
_out = console
_print_json = print_json


def _command(*args: Any, **kwargs: Any) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """`app.command`, with every KolramiError reported as one line and exit code 2."""
    return command(app, *args, **kwargs)


def _version(value: bool) -> None:
    if value:
        pack = builtin_pack()
        typer.echo(f"kolrami {__version__} (data {pack.pack.id} {pack.data_version})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show versions.")
    ] = False,
) -> None:
    """Kolrami: Star Trek fleet battles (FPF) on the tabletop and in simulation."""


# --- ships ------------------------------------------------------------------------------------


@_command("ships")
def ships_cmd(
    faction: Annotated[
        Faction | None, typer.Option(case_sensitive=False, help="Only this faction.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the ship classes of the built-in data pack."""
    pack = builtin_pack()
    ships = pack.by_faction(faction)
    if as_json:
        _print_json(
            {
                "pack": pack.pack.model_dump(mode="json"),
                "ships": [s.model_dump(mode="json") for s in ships],
            }
        )
        return
    out = _out()
    out.print(roster_table(pack, ships, out.width))


@_command("ship")
def ship_cmd(
    name: Annotated[str, typer.Argument(help="Ship class: name, id or designation (D-7-t).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of the sheet.")
    ] = False,
    advanced: Annotated[
        bool, typer.Option("--advanced", help="The advanced game's sheet (derived, overridden).")
    ] = False,
) -> None:
    """Show one ship sheet, laid out like the FPF sheet with its hit-location brackets."""
    pack = builtin_pack()
    ship = pack.get(name)
    if advanced:
        from kolrami.catalog.advanced import advanced_pack
        from kolrami.report.adv_sheet import advanced_json, advanced_sheet

        if as_json:
            _print_json(advanced_json(ship, advanced_pack()))
        else:
            _out().print(advanced_sheet(ship, advanced_pack()))
        return
    if as_json:
        _print_json(ship.model_dump(mode="json"))
        return
    _out().print(ship_sheet(ship, pack.data_version))


class SchemaName(StrEnum):
    """Models whose JSON Schema `kolrami schema` prints."""

    SHIP = "ship"
    PACK = "pack"
    FLEET = "fleet"
    CARDS = "card"


@_command("schema")
def schema_cmd(
    model: Annotated[SchemaName, typer.Argument(help="Which model: ship, pack, fleet or card.")],
) -> None:
    """Print the JSON Schema of a data model (for editors and other tools)."""
    from pydantic import BaseModel

    from kolrami.catalog.cards import Card
    from kolrami.catalog.models import ShipClass as ShipModel
    from kolrami.catalog.models import ShipPack as PackModel
    from kolrami.fleet.model import Fleet

    schemas: dict[SchemaName, type[BaseModel]] = {
        SchemaName.SHIP: ShipModel,
        SchemaName.PACK: PackModel,
        SchemaName.FLEET: Fleet,
        SchemaName.CARDS: Card,
    }
    _print_json(schemas[model].model_json_schema())


# --- odds -------------------------------------------------------------------------------------


def _f(x: Fraction) -> float:
    return float(x)


def _odds_json(o: VolleyOdds | GroupOdds) -> dict[str, Any]:
    return {
        "per_shot_penetration": _f(o.groups[0].per_shot_penetration)
        if isinstance(o, VolleyOdds)
        else _f(o.per_shot_penetration),
        "p_any_penetration": _f(o.p_any_penetration),
        "expected_damage": _f(o.expected_damage),
        "damage": {str(d): _f(p) for d, p in o.damage.items()},
        "location": {loc.value: _f(p) for loc, p in o.location.items()},
    }


def _volley_json(o: VolleyOdds) -> dict[str, Any]:
    groups = []
    for g in o.groups:
        groups.append(
            {
                "weapon": g.group.kind.value,
                "strength": g.group.strength,
                "shots": g.group.shots,
                "range_cm": g.group.range_cm,
                **_odds_json(g),
            }
        )
    combined = _odds_json(o)
    del combined["per_shot_penetration"]
    return {"groups": groups, **combined}


def _pct(x: Fraction | float) -> str:
    v = float(x) * 100
    if 0 < v < 0.05:
        return "<0.1%"
    return f"{v:.1f}%"


def _needs(shields: int, strength: int) -> str:
    target = penetration_target(shields, strength)
    if target <= 2:
        return "2+ (1 fails)"
    if target >= 10:
        return "10 only"
    return f"{target}+"


def _print_volley(o: VolleyOdds, title: str, superstructure: int | None) -> None:
    out = _out()
    out.print(f"[bold]{title}[/bold]")
    groups = Table(title="Weapon groups, in firing order", title_justify="left")
    for col in (
        "Weapon",
        "Arcs",
        "Shots",
        "Str",
        "Range",
        "Needs",
        "Per shot",
        "Any through",
        "Mean dmg",
    ):
        groups.add_column(col, justify="left" if col in ("Weapon", "Arcs", "Needs") else "right")
    eroded = False
    for g in o.groups:
        needs = _needs(o.shields, g.group.strength)
        if len(g.shields_faced) > 1:
            needs += " *"
            eroded = True
        groups.add_row(
            g.group.kind.value + "s",
            g.group.label,
            str(g.group.shots),
            str(g.group.strength),
            f"{g.group.range_cm} cm" if g.group.range_cm else "-",
            needs,
            _pct(g.per_shot_penetration),
            _pct(g.p_any_penetration),
            f"{float(g.expected_damage):.2f}",
        )
    out.print(groups)
    if eroded:
        out.print(
            f"[dim]* 'Needs' is at shields {o.shields}; this group may face shields lowered by "
            "earlier hits, and 'Per shot' averages over them.[/dim]"
        )

    dmg = Table(title="Damage dealt", title_justify="left")
    dmg.add_column("Damage", justify="right")
    dmg.add_column("Exactly", justify="right")
    dmg.add_column("At least", justify="right")
    dmg.add_column("")
    at_least = Fraction(1)
    shown_tail = False
    for d, p in o.damage.items():
        if at_least < Fraction(1, 2000):
            shown_tail = True
            break
        dmg.add_row(str(d), _pct(p), _pct(at_least), "█" * round(float(p) * 60))
        at_least -= p
    out.print(dmg)
    if shown_tail:
        out.print(f"[dim](more damage than shown: {_pct(at_least)} in all)[/dim]")

    loc = Table(title="Struck at least once", title_justify="left")
    loc.add_column("Location")
    loc.add_column("Chance", justify="right")
    for location, p in o.location.items():
        loc.add_row(location.label, _pct(p))
    out.print(loc)
    out.print(f"Chance any shot gets through: [bold]{_pct(o.p_any_penetration)}[/bold]")
    out.print(f"Expected damage: [bold]{float(o.expected_damage):.2f}[/bold]")
    if superstructure is not None:
        out.print(
            f"Chance to destroy outright (damage {superstructure}+, FPF-DMG-11): "
            f"[bold]{_pct(o.p_damage_at_least(superstructure))}[/bold]"
        )
    if len(o.groups) > 1:
        note = (
            "later groups face the shields earlier hits left (FPF-FIRE-09, FPF-DMG-10)"
            if o.model is Model.SEQUENTIAL
            else "every group faces the starting shields (comparison model)"
        )
        out.print(f"[dim]Model: {o.model.value}: {note}.[/dim]")


def _resolve_volley(
    pack: ShipPack,
    firer_name: str,
    arc: Arc | None,
    target_name: str,
    shields: int | None,
    range_cm: float | None,
    model: Model,
) -> tuple[VolleyOdds, ShipClass, ShipClass]:
    firer = pack.get(firer_name)
    target = pack.get(target_name)
    if arc is None:
        raise InvalidInputError("--from/--vs needs --arc: the firer's arc (F, P, S or A)")
    groups = ship_volley(firer, arc, target, range_cm)
    faced = target.shields if shields is None else shields
    return volley_odds(groups, faced, target.hit_locations, model), firer, target


@_command("odds")
def odds_cmd(
    weapon: Annotated[
        WeaponKind | None, typer.Option(case_sensitive=False, help="phaser or photon.")
    ] = None,
    strength: Annotated[int | None, typer.Option(help="Weapon strength.")] = None,
    shots: Annotated[int | None, typer.Option(help="Number of shots (beams or torpedoes).")] = None,
    shields: Annotated[
        int | None, typer.Option(help="Target shields (with --vs: override the sheet value).")
    ] = None,
    firer: Annotated[
        str | None, typer.Option("--from", help="Firing ship class (shortcut form).")
    ] = None,
    arc: Annotated[
        Arc | None, typer.Option(case_sensitive=False, help="Firer's arc: F, P, S or A.")
    ] = None,
    vs: Annotated[str | None, typer.Option("--vs", help="Target ship class.")] = None,
    range_cm: Annotated[
        float | None,
        typer.Option("--range", help="Range in cm; weapons that do not reach stay silent."),
    ] = None,
    model: Annotated[
        Model, typer.Option(case_sensitive=False, help="How photons see shields after phasers.")
    ] = Model.SEQUENTIAL,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plot: Annotated[
        Path | None, typer.Option(help="Write a bar chart of the damage to this PNG.")
    ] = None,
) -> None:
    """Exact outcome of one volley: one weapon group, or every weapon a ship bears on an arc.

    kolrami odds --weapon phaser --strength 5 --shots 6 --shields 12

    kolrami odds --from Reliant --arc F --vs "K'T'Roika"
    """
    pack = builtin_pack()
    superstructure: int | None = None
    if firer is not None or vs is not None:
        if firer is None or vs is None:
            raise InvalidInputError("the shortcut form needs both --from SHIP and --vs SHIP")
        stray = [
            n
            for n, v in (("--weapon", weapon), ("--strength", strength), ("--shots", shots))
            if v is not None
        ]
        if stray:
            raise InvalidInputError(
                f"{', '.join(stray)} cannot be combined with --from/--vs; the ship sheet sets them"
            )
        result, ship_a, ship_b = _resolve_volley(pack, firer, arc, vs, shields, range_cm, model)
        superstructure = ship_b.superstructure
        title = (
            f"{ship_a.name} fires its {arc.full_name if arc else ''} arc at {ship_b.name} "
            f"(shields {result.shields}, superstructure {ship_b.superstructure})"
        )
        payload = _volley_json(result)
    else:
        missing = [
            n
            for n, v in (
                ("--weapon", weapon),
                ("--strength", strength),
                ("--shots", shots),
                ("--shields", shields),
            )
            if v is None
        ]
        if missing:
            raise InvalidInputError(
                "odds needs --weapon, --strength, --shots and --shields (or --from, --arc and "
                f"--vs); missing {', '.join(missing)}"
            )
        assert weapon is not None
        assert strength is not None
        assert shots is not None
        assert shields is not None
        if arc is not None or range_cm is not None:
            raise InvalidInputError("--arc and --range belong to the --from/--vs form")
        group = WeaponGroup(weapon, strength, shots)
        result = volley_odds([group], shields)
        title = (
            f"{shots} {weapon.value} shot{'s' * (shots != 1)} at strength {strength} "
            f"against shields {shields}"
        )
        payload = _odds_json(result)

    if plot is not None:
        from kolrami.report.plots import damage_chart

        damage_chart(
            result.damage,
            result.expected_damage,
            title,
            plot,
            threshold=superstructure,
            threshold_label=f"superstructure {superstructure}" if superstructure else "",
        )
    if as_json:
        _print_json(payload)
    else:
        _print_volley(result, title, superstructure)
        if plot is not None:
            _out().print(f"Wrote {plot}")


# --- battle ---------------------------------------------------------------------------------


def _seed_or_new(seed: int | None) -> int:
    if seed is None:
        import secrets

        return secrets.randbelow(10**6)
    if seed < 0:
        raise InvalidInputError(f"seed {seed} is negative; use 0 or more")
    return seed


def _battle_json(battle: Battle) -> dict[str, Any]:
    result = battle.finish()
    return {
        "seed": battle.seed,
        "rules_version": RULES_VERSION,
        "winner": result.winner,
        "turns": result.turns,
        "ships": [
            {
                "id": s.id,
                "class": s.cls.id,
                "side": s.side,
                "superstructure": max(0, s.superstructure),
                "destroyed": not s.alive,
            }
            for s in battle.ships.values()
        ],
        "log_sha256": battle.log.sha256(),
        **_peak_json(battle),
    }


def _simulating(battle: Battle) -> bool:
    return "battle-simulation" in battle.rules.names


def _resets(battle: Battle) -> list[dict[str, Any]]:
    """Every reset with its turn and the points the opponent scored for it."""
    from kolrami.engine import events as ev

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
    """Peak Performance's score keys: only when battle simulation is on."""
    if not _simulating(battle):
        return {}
    from kolrami.engine import events as ev

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
    from kolrami.engine import events as ev

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
        raise InvalidInputError(f"cannot write the log '{path}': {exc.strerror}") from None


@_command("battle")
def battle_cmd(
    fleet_a: Annotated[
        str, typer.Option(help="Side A: a FleetX JSON file or presets:NAME.")
    ] = "presets:federation-cruisers",
    fleet_b: Annotated[
        str, typer.Option(help="Side B: a FleetX JSON file or presets:NAME.")
    ] = "presets:klingon-wolfpack",
    captain_a: Annotated[str, typer.Option(help="Side A's captain.")] = "aggressive",
    captain_b: Annotated[str, typer.Option(help="Side B's captain.")] = "aggressive",
    scenario: Annotated[str, typer.Option(help="A built-in scenario or a TOML file.")] = "standard",
    turns: Annotated[int | None, typer.Option(help="Turn limit (overrides the scenario).")] = None,
    rules: Annotated[
        str | None, typer.Option(help="Extra rule modules, comma separated (see kolrami rules).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed; a new one is drawn if omitted.")] = None,
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
    from kolrami.captains.base import make_captain
    from kolrami.engine.driver import captain_dice, run
    from kolrami.fleet.model import load_fleet
    from kolrami.report.replay import check_outputs, write_outputs
    from kolrami.scenarios.models import load_scenario

    check_outputs(replay, tracks)
    pack = builtin_pack()
    sc = load_scenario(scenario)
    if turns is not None:
        if not 1 <= turns <= 200:
            raise InvalidInputError(f"--turns {turns}: a battle lasts 1 to 200 turns")
        sc = sc.model_copy(update={"turn_limit": turns})
    fleets = (load_fleet(fleet_a, pack), load_fleet(fleet_b, pack))
    real_seed = _seed_or_new(seed)
    names = (captain_a, captain_b)
    captains = {
        side: make_captain(n, captain_dice(real_seed, side))
        for side, n in zip(("A", "B"), names, strict=True)
    }
    extra = tuple(r.strip() for r in rules.split(",") if r.strip()) if rules else ()
    battle = Battle(sc, fleets, real_seed, names, pack, extra_rules=extra)
    run(battle, captains)
    if log is not None:
        _write_log(battle, log)
    pictures = write_outputs(battle.events(), replay, tracks, pack)
    if as_json:
        _print_json(_battle_json(battle))
        return
    from kolrami.report.narrate import Narrator, status_table

    out = _out()
    out.print(
        f"[bold]{fleets[0].name}[/bold] ({captain_a}) vs [bold]{fleets[1].name}[/bold] "
        f"({captain_b}), scenario {sc.name}, seed {real_seed}"
    )
    Narrator(out, pack, verbose).tell(battle.events())
    out.print(status_table(battle))
    if _simulating(battle):
        out.print(_score_sheet(battle))
    if seed is None:
        out.print(f"[dim]Re-run this battle with --seed {real_seed}.[/dim]")
    if log is not None:
        out.print(f"Wrote the event log to {log}")
    for line in pictures:
        out.print(line)


@_command("replay")
def replay_cmd(
    log: Annotated[Path, typer.Argument(help="An event log written by kolrami battle --log.")],
    orders: Annotated[
        bool,
        typer.Option("--orders", help="Replay the logged orders instead of re-asking captains."),
    ] = False,
    show: Annotated[bool, typer.Option("--show", help="Tell the battle turn by turn.")] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="Write the log as a self-contained HTML replay.")
    ] = None,
    tracks: Annotated[
        Path | None, typer.Option(help="Write a PNG of the ships' tracks here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Re-run a battle from its log's header and say whether the new log is identical.

    With --html or --tracks the log's own events are drawn, whatever the re-run gives.
    """
    from kolrami.captains.base import make_captain
    from kolrami.captains.scripted import logged_captains
    from kolrami.engine.driver import captain_dice, rebuild, run
    from kolrami.engine.events import BattleStarted, parse_jsonl
    from kolrami.report.replay import check_outputs, write_outputs

    check_outputs(html, tracks)
    try:
        text = log.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot read the log '{log}': {exc.strerror}") from None
    try:
        events = parse_jsonl(text)
    except (ValueError, TypeError) as exc:
        raise InvalidInputError(f"{log} is not a Kolrami event log: {exc}") from None
    if not events or not isinstance(events[0], BattleStarted):
        raise InvalidInputError(f"{log} does not start with a battle_started header")
    pictures = write_outputs(events, html, tracks)
    header = events[0].header
    scenario, fleets, names, seed, extra = rebuild(header)
    if orders:
        captains: dict[str, Any] = logged_captains(events)
    else:
        captains = {
            side: make_captain(n, captain_dice(seed, side))
            for side, n in zip(("A", "B"), names, strict=True)
        }
    battle = Battle(scenario, fleets, seed, names, extra_rules=extra)
    run(battle, captains)
    new = battle.log.jsonl()
    identical = new == text
    first_diff = None
    if not identical:
        for number, (a, b) in enumerate(zip(text.splitlines(), new.splitlines(), strict=False), 1):
            if a != b:
                first_diff = number
                break
        else:
            first_diff = min(len(text.splitlines()), len(new.splitlines())) + 1
    same_rules = header.get("rules_version") == RULES_VERSION
    if as_json:
        _print_json(
            {
                "identical": identical,
                "first_difference_line": first_diff,
                "rules_version": RULES_VERSION,
                "log_rules_version": header.get("rules_version"),
                "log_sha256": battle.log.sha256(),
            }
        )
    else:
        out = _out()
        if show:
            from kolrami.report.narrate import Narrator

            Narrator(out, builtin_pack()).tell(battle.events())
        for line in pictures:
            out.print(line)
        if identical:
            out.print(
                f"[green]identical[/green]: {len(events)} events, sha256 "
                f"{battle.log.sha256()[:16]}..."
            )
        else:
            out.print(f"[red]different[/red] from line {first_diff} of {log}")
            if not same_rules:
                out.print(
                    f"The log was made under rules {header.get('rules_version')}; "
                    f"this is {RULES_VERSION}."
                )
    if not identical:
        raise typer.Exit(1)


peak_app = typer.Typer(help="Peak Performance tools.", no_args_is_help=True)
app.add_typer(peak_app, name="peak")


@peak_app.command("check")
def peak_check_cmd(
    fleet: Annotated[str, typer.Option(help="The fleet the points were scored against.")],
    points: Annotated[int, typer.Option(help="The reported Fleet Point total.")],
    turns: Annotated[int, typer.Option(help="The battle's turn limit.")] = 12,
    repeat_resource: Annotated[
        bool, typer.Option(help="The event scores a resource again on later kills (PP-19).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Could a player have scored POINTS Fleet Points against FLEET? (PP-16, PP-17, PP-18, PP-19,
    PP-20, PP-21)"""
    from kolrami.fleet.model import load_fleet
    from kolrami.sim.score_check import check_score

    try:
        verdict = check_score(load_fleet(fleet), points, turns, repeat_resource)
    except KolramiError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        _print_json(verdict.to_json())
        return
    out = _out()
    if not verdict.achievable:
        below, above = verdict.nearest
        near = " and ".join(str(p) for p in (below, above) if p is not None)
        out.print(
            f"[red]Not achievable[/red]: {points} Fleet Points cannot be scored against this "
            f"fleet in {turns} turns (PP-16, PP-17, PP-18, PP-19, PP-20, PP-21)."
            + (f" Nearest possible: {near}." if near else ""),
            soft_wrap=True,
        )
        raise typer.Exit(1)
    out.print(f"[green]Achievable[/green]: {points} Fleet Points, for example:")
    for line in verdict.ships:
        if line.resets:
            out.print(f"  {line.resets} x {line.label}: {line.resets} x {line.total_sp} SP")
    if verdict.resource_points:
        out.print(f"  resource {verdict.resource}: {verdict.resource_points}")
    out.print(
        f"  end bonus: 5 x {sum(s.resets for s in verdict.ships)} tokens = {verdict.bonus_points}"
    )


@_command("captains")
def captains_cmd() -> None:
    """List the built-in captains."""
    from kolrami.captains.base import captain_names

    for name in captain_names():
        typer.echo(name)


@_command("rules")
def rules_cmd(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the rule modules: the FPF core and the optional ones a scenario can switch on."""
    from kolrami.rules import register_builtin
    from kolrami.rules.registry import describe

    register_builtin()
    rows = describe()
    if as_json:
        _print_json(
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
    _out().print(table)


register_fleet_commands(app)
register_assess_commands(app)
register_tournament_commands(app)
register_web_commands(app)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; usage errors become one line and exit code 2 (never a traceback)."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="kolrami", standalone_mode=False)
    except typer.TyperException as exc:  # usage errors: unknown option, bad choice ...
        typer.echo(f"kolrami: error: {exc.format_message()}", err=True)
        return 2
    except typer.Abort:
        typer.echo("kolrami: aborted", err=True)
        return 130
    except Exception as exc:  # a bug, not bad input: say so in one line unless debugging
        if os.environ.get("KOLRAMI_DEBUG"):
            raise
        typer.echo(
            f"kolrami: internal error: {type(exc).__name__}: {exc}. This is a bug; run again "
            "with KOLRAMI_DEBUG=1 for the traceback and report it.",
            err=True,
        )
        return 1
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
