"""The event's paper: the organizer's score sheet, and every player's Fleet Build Sheet with the
round log filled in from the tournament store (OP-19, FBS-09, FBS-10).

`event_sheets` gives the document in pieces (the head with the score sheet, then one piece per
player), so a server can send each as it is made and a big event's sheets can be printed a part
at a time; `event_sheets_html` joins them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import validate
from kolrami.report.build_sheet import RoundEntry
from kolrami.report.build_sheet import render_html
from kolrami.report.build_sheet import templates


def event_sheets_html(store: Any, event: str | None) -> str:
    """One printable HTML document: the score sheet, then each player's build sheet."""
    return "".join(event_sheets(store, event))


def event_sheets(
    store: Any,
    event: str | None,
    players: range | None = None,
    preface: str = "",
    score: bool = True,
) -> Iterator[str]:
    """The document in pieces: its head and `preface` (HTML at the top of the body), the score
    sheet (when `score`), each build sheet of the players numbered in `players` (registration
    order, from 0; all when None), and the end."""
    settings = store.settings(event)
    state = store.state(settings["name"])
    table = state.standings()
    chosen = list(state.players)
    if players is not None:
        chosen = chosen[players.start : players.stop]
    logs = _round_logs(store, settings["name"], state, table, set(chosen))
    page = (
        templates()
        .get_template("score_sheet.html.j2")
        .render(event=settings, standings=table if score else [], rounds=len(state.rounds))
    )
    head, _, body = page.partition("<body>")
    yield head + "<body>" + preface
    if score:
        yield body.rsplit("</body>", 1)[0]
    fleets = store.fleets(settings["name"], only=set(chosen))
    limits = EventSettings(settings["sp_limit"], settings["faction_surcharge"])
    for player in chosen:
        entries = logs[player] + [RoundEntry(n) for n in
                                  range(len(logs[player]) + 1, settings["rounds"] + 1)]  # fmt: skip
        report = validate(fleets[player], settings["sp_limit"], limits)
        sheet = render_html(report, player=player, event=settings["name"], date=settings["date"],
                            rounds=entries)  # fmt: skip
        inner = sheet.split("<body>", 1)[1].rsplit("</body>", 1)[0]
        yield f'<div class="player-sheet">{inner}</div>'
    yield "</body></html>"


def _round_logs(
    store: Any, name: str, state: Any, table: list[Any], wanted: set[str]
) -> dict[str, list[RoundEntry]]:
    """Each wanted player's round log: opponent, initials, result, FP and the running total."""
    logs: dict[str, list[RoundEntry]] = {p: [] for p in wanted}
    cumulative = dict.fromkeys(wanted, 0)
    by_round = {s.player: s.fp_by_round for s in table}
    for number in range(1, len(state.rounds) + 1):
        for g in store.games(name, number):
            if g["b"] is None:
                if g["a"] not in wanted:
                    continue
                bye_fp = by_round[g["a"]]
                index = sum(1 for e in logs[g["a"]] if e.result)
                points = bye_fp[index] if index < len(bye_fp) else 0
                cumulative[g["a"]] += points
                logs[g["a"]].append(RoundEntry(number, "(bye)", "", "B", str(points),
                                               str(cumulative[g["a"]]), ""))  # fmt: skip
                continue
            for me, them, side in ((g["a"], g["b"], "a"), (g["b"], g["a"], "b")):
                if me not in wanted:
                    continue
                fp = g[f"fp_{side}"]
                result = "" if g["winner"] is None else ("W" if g["winner"] == me else "L")
                if fp is not None:
                    cumulative[me] += fp
                logs[me].append(RoundEntry(
                    number, them, g[f"build_initials_{side}"], result,
                    "" if fp is None else str(fp), str(cumulative[me]) if fp is not None else "",
                    g[f"result_initials_{side}"]))  # fmt: skip
    return logs
