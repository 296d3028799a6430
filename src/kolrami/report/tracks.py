"""A still picture of a battle: every ship's track over the table (matplotlib, PNG).

It reads the same step data as the HTML replay (`kolrami.report.replay.replay_data`), so the two
always agree: a track breaks where a ship was reset and starts again where it returned.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.patches import Circle
from matplotlib.patches import Polygon
from matplotlib.patches import Rectangle

from kolrami.catalog import ShipPack
from kolrami.engine import events as ev
from kolrami.errors import InvalidInputError
from kolrami.errors import quoted
from kolrami.report.replay import check_output
from kolrami.report.replay import replay_data
from kolrami.report.replay_format import DERELICT
from kolrami.report.replay_format import DESTROYED
from kolrami.report.replay_format import RESET
from kolrami.report.replay_format import SIDE_COLOURS
from kolrami.report.replay_format import STATUS
from kolrami.report.replay_format import H
from kolrami.report.replay_format import X
from kolrami.report.replay_format import Y

TERRAIN_COLOURS = {
    "planet": "#3e7b4f",
    "moon": "#9e9e9e",
    "nebula": "#9575cd",
    "ion-storm": "#4fc3f7",
    "minefield": "#e0413a",
    "black-hole": "#ff8f00",
    "neutron-star": "#e1f5fe",
    "magnetar": "#ce93d8",
    "gas-giant": "#d7a86e",
}
LINE_STYLES = ("-", "--", ":")


def ship_tracks(data: dict[str, Any]) -> list[list[list[tuple[float, float]]]]:
    """Each ship's track as a list of unbroken polylines (a reset breaks it)."""
    steps = data["steps"]
    tracks: list[list[list[tuple[float, float]]]] = []
    first = steps[0]["state"]
    for idx in range(len(data["ships"])):
        tracks.append([[(first[idx][X], first[idx][Y])]])
    for step in steps[1:]:
        moved = {m[0]: m[3] for m in step["moves"]}
        for idx, st in enumerate(step["state"]):
            lines = tracks[idx]
            if idx in moved:
                lines[-1].extend((p[0], p[1]) for p in moved[idx][1:])
            elif st[STATUS] not in (RESET, DESTROYED):
                last = lines[-1][-1]
                if math.hypot(st[X] - last[0], st[Y] - last[1]) > 0.01:  # returned elsewhere
                    lines.append([(st[X], st[Y])])
    return tracks


def draw_terrain(ax: Any, t: dict[str, Any]) -> None:
    """One terrain feature of the replay data on the tracks plot (the replay page's shapes)."""
    kind = t["kind"]
    colour = TERRAIN_COLOURS.get(kind, "#888888")
    if "r" in t:
        ax.add_patch(Circle((t["x"], t["y"]), t["r"], color=colour, alpha=0.9, lw=0))
    elif kind == "nebula":
        ax.add_patch(Polygon(t["points"], closed=True, color=colour, alpha=0.5, lw=0))
    elif kind == "ion-storm":
        if t["areas"] and t["areas"][-1]:  # where the storm has reached by the last turn
            ax.add_patch(Polygon(t["areas"][-1], closed=True, color=colour, alpha=0.2, lw=0))
    elif kind == "minefield":
        for x, y, gone in t["mines"]:
            ax.add_patch(Circle((x, y), t["hex"] / 2, color=colour, alpha=0.15 if gone else 0.5))
    elif kind == "black-hole":
        disk = t["horizon"] + t["rings"] * t["hex"]
        ax.add_patch(Circle((t["x"], t["y"]), disk, color=colour, alpha=0.35, lw=0))
        ax.add_patch(Circle((t["x"], t["y"]), t["horizon"], color="#000000", lw=0))
    elif kind == "gas-giant":
        ax.add_patch(Circle((t["x"], t["y"]), t["layers"] * t["hex"], color=colour, alpha=0.6))
    else:  # a neutron star or a magnetar, and a magnetar's reach
        if "reach" in t:
            ax.add_patch(Circle((t["x"], t["y"]), t["reach"], fill=False, ls="--", color=colour))
        ax.add_patch(Circle((t["x"], t["y"]), t["hex"] / 2, color=colour, lw=0))


def tracks_figure(data: dict[str, Any]) -> Any:
    """The tracks as a matplotlib Figure (the caller saves and closes it)."""
    sc = data["meta"]["scenario"]
    w, h = sc["width"], sc["height"]
    fig, ax = plt.subplots(figsize=(11, 10 * h / w + 0.6), dpi=110)
    ax.set_facecolor("#0a1628")
    ax.add_patch(Rectangle((0, 0), w, h, facecolor="#0a1628", edgecolor="#3d4f6b", lw=1))
    depth = sc["deployment"]
    ax.add_patch(Rectangle((0, 0), w, depth, color=SIDE_COLOURS["A"][0], alpha=0.12, lw=0))
    ax.add_patch(Rectangle((0, h - depth), w, depth, color=SIDE_COLOURS["B"][0], alpha=0.12, lw=0))
    for t in data["meta"]["terrain"]:
        draw_terrain(ax, t)
    final = data["steps"][-1]["state"]
    base = sc["base"]
    marks = [m for step in data["steps"] for m in step["marks"]]
    place: dict[str, int] = {}  # order within the squadron: leader solid, wingmen dashed, dotted
    for idx, (ship, lines) in enumerate(zip(data["ships"], ship_tracks(data), strict=True)):
        colour = ship["colour"]
        style = LINE_STYLES[place.setdefault(ship["sq"], 0) % len(LINE_STYLES)]
        place[ship["sq"]] += 1
        cls = data["classes"][ship["cls"]]
        label = f"{ship['id']} {cls['name']} ({ship['sq']})"
        for k, line in enumerate(lines):
            xs, ys = [p[0] for p in line], [p[1] for p in line]
            ax.plot(
                xs, ys, style, color=colour, lw=1.6, alpha=0.85, label=label if k == 0 else None
            )
            if k == 0:  # a later line starts where the ship returned: marked below, not a start
                ax.plot(xs[:1], ys[:1], "o", color=colour, ms=4, alpha=0.8, gid="start")
        for m in marks:
            if m[1] != idx or m[2] not in ("reset", "returned"):
                continue
            # a hollow square where Peak Performance took the ship off, a diamond where it came back
            marker = "s" if m[2] == "reset" else "D"
            ax.plot(m[3], m[4], marker, mfc="none", mec=colour, mew=1.4, ms=8, gid=m[2])
        st = final[idx]
        label_xy, label_at, align = (st[X], st[Y]), (5.0, 4.0), ("left", "bottom")
        if st[STATUS] in (DESTROYED, DERELICT):
            ax.plot(st[X], st[Y], "X", color=colour, ms=10, mec="white", mew=0.8)
        elif st[STATUS] != RESET:
            angle = math.radians(60 * st[H])
            dx, dy = -math.sin(angle) * base * 1.6, math.cos(angle) * base * 1.6
            ax.annotate(
                "",
                xy=(st[X] + dx, st[Y] + dy),
                xytext=(st[X] - dx, st[Y] - dy),
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2, "mutation_scale": 14},
                gid=f"arrow {ship['id']}",
            )
            # the label goes past the arrow's tail, so it hides neither the arrow nor its head
            label_xy = (st[X] - dx, st[Y] - dy)
            label_at = (math.sin(angle) * 10, -math.cos(angle) * 10)
            align = ("center", "center")
        ax.annotate(
            ship["id"],
            label_xy,
            xytext=label_at,
            textcoords="offset points",
            color="white",
            fontsize=7,
            ha=align[0],
            va=align[1],
            gid=f"label {ship['id']}",
        )
    ax.set_xlim(-2, w + 2)
    ax.set_ylim(-2, h + 2)
    ax.set_aspect("equal")
    ax.set_xlabel("cm")
    ax.set_ylabel("cm")
    result = data["meta"]["result"]
    outcome = ""
    if result is not None:
        who = f"side {result['winner']} wins" if result["winner"] else "a draw"
        outcome = f"\n{who}: {result['reason']}"
    ax.set_title(
        f"{data['title']}, {sc['title']}, seed {data['meta']['seed']}{outcome}", fontsize=10
    )
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=7,
        frameon=False,
        title="o start, arrow end, X destroyed,\n\u25a1 reset (off the table), \u25c7 returned",
        title_fontsize=7,
    )
    fig.tight_layout()
    return fig


def write_tracks(events: Iterable[ev.Event], path: Path, pack: ShipPack | None = None) -> None:
    """Write the ships' tracks over the battle to a PNG."""
    check_output(path, (".png",), "tracks plot")
    fig = tracks_figure(replay_data(events, pack))
    try:
        fig.savefig(path, bbox_inches="tight")
    except OSError as exc:
        raise InvalidInputError(
            f"cannot write tracks plot '{quoted(path)}': {exc.strerror}"
        ) from None
    finally:
        plt.close(fig)
