"""The event's paper: the organizer's score sheet, and every player's Fleet Build Sheet with the
round log filled in from the tournament store (OP-19, FBS-09, FBS-10)."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from kolrami.fleet.legality import EventSettings, validate
from kolrami.report.build_sheet import RoundEntry, render_html


def event_sheets_html(store: Any, event: str | None) -> str:
    """One printable HTML document: the score sheet, then each player's build sheet."""
    settings = store.settings(event)
    state = store.state(settings["name"])
    fleets = store.fleets(settings["name"])
    table = state.standings()
    logs: dict[str, list[RoundEntry]] = {p: [] for p in state.players}
    cumulative = dict.fromkeys(state.players, 0)
    for number in range(1, len(state.rounds) + 1):
        for g in store.games(settings["name"], number):
            if g["b"] is None:
                bye_fp = next(s for s in table if s.player == g["a"]).fp_by_round
                index = sum(1 for e in logs[g["a"]] if e.result)
                points = bye_fp[index] if index < len(bye_fp) else 0
                cumulative[g["a"]] += points
                logs[g["a"]].append(RoundEntry(number, "(bye)", "", "B", str(points),
                                               str(cumulative[g["a"]]), ""))  # fmt: skip
                continue
            for me, them, side in ((g["a"], g["b"], "a"), (g["b"], g["a"], "b")):
                fp = g[f"fp_{side}"]
                result = "" if g["winner"] is None else ("W" if g["winner"] == me else "L")
                if fp is not None:
                    cumulative[me] += fp
                logs[me].append(RoundEntry(
                    number, them, g[f"build_initials_{side}"], result,
                    "" if fp is None else str(fp), str(cumulative[me]) if fp is not None else "",
                    g[f"result_initials_{side}"]))  # fmt: skip
    env = Environment(loader=PackageLoader("kolrami.report", "templates"),
                      autoescape=select_autoescape(["html", "j2"]))  # fmt: skip
    score = env.get_template("score_sheet.html.j2").render(
        event=settings, standings=table, rounds=len(state.rounds)
    )
    sheets = []
    limits = EventSettings(settings["sp_limit"], settings["faction_surcharge"])
    for player in state.players:
        entries = logs[player] + [RoundEntry(n) for n in
                                  range(len(logs[player]) + 1, settings["rounds"] + 1)]  # fmt: skip
        report = validate(fleets[player], settings["sp_limit"], limits)
        page = render_html(report, player=player, event=settings["name"], date=settings["date"],
                           rounds=entries)  # fmt: skip
        body = page.split("<body>", 1)[1].rsplit("</body>", 1)[0]
        sheets.append(f'<div class="player-sheet">{body}</div>')
    head = score.split("</body>", 1)[0]
    return head + "".join(sheets) + "</body></html>"
