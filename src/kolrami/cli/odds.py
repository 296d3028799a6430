"""`kolrami odds`: the exact outcome of one volley, as tables, JSON or a chart."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated
from typing import Any

import typer
from rich.table import Table

from kolrami.catalog import Arc
from kolrami.catalog import ShipClass
from kolrami.catalog import ShipPack
from kolrami.catalog import WeaponKind
from kolrami.catalog import builtin_pack
from kolrami.cli.support import AsJson
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import print_json
from kolrami.errors import InvalidInputError
from kolrami.rules.fpf.damage import penetration_target
from kolrami.sim.odds import GroupOdds
from kolrami.sim.odds import Model
from kolrami.sim.odds import VolleyOdds
from kolrami.sim.odds import WeaponGroup
from kolrami.sim.odds import ship_volley
from kolrami.sim.odds import volley_odds

#: The most shots `kolrami odds --shots` computes: exact odds grow with the shots (100 photons
#: take about a second, 400 four, a thousand over fifteen); no sheet fires more than 10.
MAX_SHOTS = 100


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
    out = console()
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


# the options of odds_cmd, named
WeaponOption = Annotated[
    WeaponKind | None, typer.Option(case_sensitive=False, help="phaser or photon.")
]
ShieldsOption = Annotated[
    int | None, typer.Option(help="Target shields (with --vs: override the sheet value).")
]
FirerOption = Annotated[
    str | None, typer.Option("--from", help="Firing ship class (shortcut form).")
]
ArcOption = Annotated[
    Arc | None, typer.Option(case_sensitive=False, help="Firer's arc: F, P, S or A.")
]
RangeCmOption = Annotated[
    float | None,
    typer.Option("--range", help="Range in cm; weapons that do not reach stay silent."),
]
ModelOption = Annotated[
    Model, typer.Option(case_sensitive=False, help="How photons see shields after phasers.")
]
PlotOption = Annotated[
    Path | None, typer.Option(help="Write a bar chart of the damage to this PNG.")
]


def odds_cmd(
    weapon: WeaponOption = None,
    strength: Annotated[int | None, typer.Option(help="Weapon strength.")] = None,
    shots: Annotated[int | None, typer.Option(help="Number of shots (beams or torpedoes).")] = None,
    shields: ShieldsOption = None,
    firer: FirerOption = None,
    arc: ArcOption = None,
    vs: Annotated[str | None, typer.Option("--vs", help="Target ship class.")] = None,
    range_cm: RangeCmOption = None,
    model: ModelOption = Model.SEQUENTIAL,
    as_json: AsJson = False,
    plot: PlotOption = None,
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
        if shots > MAX_SHOTS:
            raise InvalidInputError(
                f"--shots {shots}: at most {MAX_SHOTS} shots (the biggest FPF volley is 10); "
                "exact odds of more take many seconds and say nothing new"
            )
        group = WeaponGroup(weapon, strength, shots)
        result = volley_odds([group], shields)
        title = (
            f"{shots} {weapon.value} shot{'s' * (shots != 1)} at strength {strength} "
            f"against shields {shields}"
        )
        payload = _odds_json(result)

    if plot is not None:
        from kolrami.report.plots import damage_chart  # matplotlib, about 700 ms: only for --plot

        damage_chart(
            result.damage,
            result.expected_damage,
            title,
            plot,
            threshold=superstructure,
            threshold_label=f"superstructure {superstructure}" if superstructure else "",
        )
    if as_json:
        print_json(payload)
    else:
        _print_volley(result, title, superstructure)
        if plot is not None:
            console().print(f"Wrote {plot}")


def register(app: typer.Typer) -> None:
    """Add `kolrami odds` to the main app."""
    command(app, "odds")(odds_cmd)
