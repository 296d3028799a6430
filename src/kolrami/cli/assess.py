"""`kolrami assess`: Monte Carlo sweeps of many seeded battles, with ratings and fair values.

The options are declared here; kolrami.sim.present does the work.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kolrami.cli.support import command


class BackendName(StrEnum):
    """Where the battles are played."""

    LOCAL = "local"
    RAY = "ray"


def assess_cmd(
    more: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="FLEET",
            help="More fleets (same as --fleets), e.g. --fleets mine.json 'presets:*'.",
        ),
    ] = None,
    fleets: Annotated[
        list[str] | None,
        typer.Option(
            "--fleets",
            help="A combatant fleet: presets:NAME, a pattern like 'presets:*', or a FleetX file. "
            "Repeat it, or list more fleets after the options.",
        ),
    ] = None,
    classes: Annotated[
        str | None,
        typer.Option(
            help="Ship classes as combatants: 'all' or names, comma separated. The default when "
            "no fleet is given."
        ),
    ] = None,
    points: Annotated[
        int | None,
        typer.Option(
            help="Field each class as a squadron at this many SP (as many ships as fit) instead "
            "of one ship against one."
        ),
    ] = None,
    scenario: Annotated[
        str, typer.Option(help="standard, peak-performance, or a scenario TOML file.")
    ] = "standard",
    captains: Annotated[
        str,
        typer.Option(
            help="Captains, comma separated; every ordered pair plays, sides alternating."
        ),
    ] = "aggressive,kiting",
    battles: Annotated[int, typer.Option(help="Battles per matchup.")] = 200,
    seed: Annotated[int, typer.Option(help="Master seed; each battle's seed derives from it.")] = 1,
    turns: Annotated[int | None, typer.Option(help="Turn limit (overrides the scenario).")] = None,
    rules: Annotated[
        str | None, typer.Option(help="Extra rule modules, comma separated (see kolrami rules).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (Ray: CPUs); default all cores.")
    ] = None,
    backend: Annotated[
        BackendName, typer.Option(case_sensitive=False, help="local processes or ray.")
    ] = BackendName.LOCAL,
    address: Annotated[
        str | None,
        typer.Option(help="Ray cluster address; without it Ray starts a local instance."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the results (battles.jsonl, written as they arrive; "
            "assessment.json). Running again resumes."
        ),
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="Write an HTML report with the pictures here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print everything as JSON.")] = False,
) -> None:
    """Play every pair of combatants many times; win rates, ratings and fair values.

    kolrami assess                                  # ten classes, one against one

    kolrami assess --points 180 --scenario peak-performance --report classes.html

    kolrami assess --fleets mine.json 'presets:*' --battles 500 --out runs/friday
    """
    from kolrami.sim.present import AssessOptions, fleet_args, run_assess

    run_assess(
        AssessOptions(
            fleets=fleet_args(fleets, more),
            classes=classes,
            points=points,
            scenario=scenario,
            captains=captains,
            battles=battles,
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
    )


def register(app: typer.Typer) -> None:
    """Add `kolrami assess` to the main app."""
    command(app, "assess")(assess_cmd)
