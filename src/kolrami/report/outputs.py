"""The files a battle command writes besides its log: the HTML replay and the tracks PNG."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kolrami.catalog import ShipPack
from kolrami.engine import events as ev
from kolrami.report.replay import check_output
from kolrami.report.replay import write_replay


def check_outputs(html_path: Path | None, png_path: Path | None) -> None:
    """Check the replay and tracks files a command was asked for, before any work is done."""
    if html_path is not None:
        check_output(html_path, (".html", ".htm"), "replay")
    if png_path is not None:
        check_output(png_path, (".png",), "tracks plot")


def write_outputs(
    events: Iterable[ev.Event],
    html_path: Path | None,
    png_path: Path | None,
    pack: ShipPack | None = None,
) -> list[str]:
    """Write the HTML replay and/or the tracks PNG; returns one line per file written."""
    events = list(events)
    done: list[str] = []
    if html_path is not None:
        size = write_replay(events, html_path, pack)
        done.append(f"Wrote the replay to {html_path} ({size / 1024:.0f} KB)")
    if png_path is not None:
        # matplotlib loads only when a tracks plot is asked for
        from kolrami.report.tracks import write_tracks

        write_tracks(events, png_path, pack)
        done.append(f"Wrote the ships' tracks to {png_path}")
    return done
