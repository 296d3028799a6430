"""The simulated event's report: standings, every round, each battle's score sheet, replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment
from jinja2 import PackageLoader
from jinja2 import select_autoescape

from kolrami import __version__
from kolrami.catalog import builtin_pack
from kolrami.engine.battle import Battle
from kolrami.errors import InvalidInputError
from kolrami.errors import quoted
from kolrami.report.replay import render_replay
from kolrami.rules import RULES_VERSION
from kolrami.rules import events as ev
from kolrami.rules.module import Capability
from kolrami.tournament.simulate import SimulatedEvent

Rows = list[dict[str, Any]]


def _sheet(battle: Battle, names: dict[str, str]) -> tuple[Rows, Rows]:
    given = dict.fromkeys(battle.ships, 0)
    parts = {side: {"kill": 0, "resource": 0, "bonus": 0} for side in ("A", "B")}
    for e in battle.events():
        if isinstance(e, ev.FleetPointsAwarded):
            if e.reason == "kill":
                given[e.ship] += e.points
            parts[e.side][e.reason] += e.points
    rows = [
        {
            "ship": s.id,
            "player": names[s.side],
            "cls": s.cls.name,
            "sp": s.points,
            "resets": s.tokens,
            "given": given[s.id],
        }
        for s in battle.ships.values()
    ]
    totals = [
        {
            "player": names[side],
            "kills": p["kill"],
            "resource": p["resource"],
            "bonus": p["bonus"],
            "total": battle.fleet_points[side],
        }
        for side, p in parts.items()
    ]
    return rows, totals


def write_report(event: SimulatedEvent, out: Path, replays: bool = True) -> list[Path]:
    """Write the report (and a replay page per battle beside it); returns the files written."""
    if out.suffix.lower() not in (".html", ".htm"):
        raise InvalidInputError(f"report '{quoted(out)}' must end in .html")
    if not out.parent.exists():
        raise InvalidInputError(
            f"cannot write '{quoted(out)}': folder '{quoted(out.parent)}' does not exist"
        )
    written: list[Path] = []
    folder = out.with_name(out.stem + "_replays")
    rounds: dict[int, dict[str, Any]] = {}
    for g in event.games:
        r = rounds.setdefault(g.round, {"number": g.round, "games": [], "bye_fp": 0})
        row: dict[str, Any] = {
            "table": g.table,
            "a": g.a,
            "b": g.b,
            "winner": g.winner,
            "fp": g.fp,
            "replay": None,
            "sheet": None,
            "reason": "",
        }
        if g.battle is not None:
            assert g.b is not None
            result = g.battle.finish()
            row["reason"] = result.reason
            if Capability.SCORES_FLEET_POINTS in g.battle.rules.capabilities:
                row["sheet"], row["totals"] = _sheet(g.battle, {"A": g.a, "B": g.b})
            if replays:
                folder.mkdir(exist_ok=True)
                page = folder / f"round{g.round}-table{g.table}.html"
                page.write_text(render_replay(g.battle.events()), encoding="utf-8")
                written.append(page)
                row["replay"] = f"{folder.name}/{page.name}"
        r["games"].append(row)
    for number, r in rounds.items():
        byes = [g for g in r["games"] if g["b"] is None]
        if byes:
            standing = next(s for s in event.standings if s.player == byes[0]["a"])
            # the bye's Fleet Points are its round's average (OP-10): read them off the standings
            index = [g.round for g in event.games if standing.player in (g.a, g.b)].index(number)
            r["bye_fp"] = standing.fp_by_round[index]
    env = Environment(
        loader=PackageLoader("kolrami.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    html = env.get_template("tournament_report.html.j2").render(
        name=event.name,
        seed=event.seed,
        scenario=next((g.battle.scenario.name for g in event.games if g.battle), ""),
        players={p: {"fleet": f.name, "captain": c} for p, (f, c) in event.players.items()},
        standings=event.standings,
        rounds=[rounds[n] for n in sorted(rounds)],
        roll_offs=event.roll_offs,
        version=__version__,
        rules_version=RULES_VERSION,
        data_version=builtin_pack().data_version,
    )
    out.write_text(html, encoding="utf-8")
    return [out, *written]
