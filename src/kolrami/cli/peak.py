"""`kolrami peak ...`: Peak Performance tools (can a reported score be right?)."""

from __future__ import annotations

from typing import Annotated

import typer

from kolrami.cli.support import AsJson
from kolrami.cli.support import console
from kolrami.cli.support import fail
from kolrami.cli.support import print_json
from kolrami.errors import KolramiError
from kolrami.fleet.model import load_fleet

peak_app = typer.Typer(help="Peak Performance tools.", no_args_is_help=True)


@peak_app.command("check")
def peak_check_cmd(
    fleet: Annotated[str, typer.Option(help="The fleet the points were scored against.")],
    points: Annotated[int, typer.Option(help="The reported Fleet Point total.")],
    turns: Annotated[int, typer.Option(help="The battle's turn limit.")] = 12,
    repeat_resource: Annotated[
        bool, typer.Option(help="The event scores a resource again on later kills (PP-19).")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Could a player have scored POINTS Fleet Points against FLEET? (PP-16, PP-17, PP-18, PP-19,
    PP-20, PP-21)

    Exit code 0 when achievable, 1 when not (with --json too), 2 when the question cannot be
    asked (an unreadable fleet, negative points).
    """
    from kolrami.sim.score_check import check_score  # about 6 ms: not at start-up

    try:
        verdict = check_score(load_fleet(fleet), points, turns, repeat_resource)
    except KolramiError as exc:
        raise fail(str(exc)) from None
    if as_json:
        print_json(verdict.to_json())
        if not verdict.achievable:
            raise typer.Exit(1)
        return
    out = console()
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


def register(app: typer.Typer) -> None:
    """Add `kolrami peak ...` to the main app."""
    app.add_typer(peak_app, name="peak")
