"""The tracks picture: one PNG of every ship's path over the battle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib import image
from matplotlib.text import Annotation

from kolrami.engine.battle import Battle
from kolrami.errors import InvalidInputError
from kolrami.fleet import load_fleet
from kolrami.report.replay import replay_data
from kolrami.report.replay_format import SIDE_COLOURS
from kolrami.report.tracks import ship_tracks
from kolrami.report.tracks import tracks_figure
from kolrami.report.tracks import write_tracks
from kolrami.scenarios.models import load_scenario
from kolrami.sim.play import simulate


def play(scenario: str, seed: int) -> Battle:
    fleets = (load_fleet("presets:federation-fleet"), load_fleet("presets:klingon-fleet"))
    return simulate(load_scenario(scenario), fleets, ("aggressive", "kiting"), seed)


def has_colour(pixels: np.ndarray, hex_colour: str, tolerance: float = 0.08) -> bool:
    rgb = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return bool((np.abs(pixels[..., :3] - rgb).max(axis=-1) < tolerance).any())


def test_tracks_png_shows_both_sides(tmp_path: Path) -> None:
    out = tmp_path / "tracks.png"
    write_tracks(play("standard", 3).events(), out)
    pixels = image.imread(out)
    assert pixels.shape[0] > 400
    assert pixels.shape[1] > 600
    assert has_colour(pixels, SIDE_COLOURS["A"][0])
    assert has_colour(pixels, SIDE_COLOURS["B"][0])


def test_a_reset_breaks_the_track_where_the_ship_returns() -> None:
    battle = play("peak-performance", 3)
    data = replay_data(battle.events())
    tracks = ship_tracks(data)
    for ship in battle.ships.values():
        returns = sum(
            1
            for step in data["steps"]
            for m in step["marks"]
            if m[1] == ship.index and m[2] == "returned"
        )
        assert len(tracks[ship.index]) == 1 + returns, ship.id
        if ship.on_table:
            last = tracks[ship.index][-1][-1]
            assert last == pytest.approx((ship.x, ship.y), abs=0.01)


@pytest.mark.parametrize(
    ("name", "message"),
    [("tracks.jpg", "must end in .png"), ("missing/tracks.png", "does not exist")],
)
def test_bad_output_paths_are_refused(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        write_tracks(play("standard", 1).events(), tmp_path / name)


def marked(fig: Any, gid: str) -> int:
    return sum(1 for line in fig.axes[0].get_lines() if line.get_gid() == gid)


def test_resets_and_returns_have_their_own_marks() -> None:
    data = replay_data(play("peak-performance", 3).events())
    marks = [m[2] for step in data["steps"] for m in step["marks"]]
    assert marks.count("reset") > 0
    assert marks.count("returned") > 0
    fig = tracks_figure(data)
    try:
        assert marked(fig, "reset") == marks.count("reset")
        assert marked(fig, "returned") == marks.count("returned")
        # a returned ship's new line does not get a second start dot
        assert marked(fig, "start") == len(data["ships"])
    finally:
        plt.close(fig)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_labels_leave_the_end_arrows_clear(seed: int) -> None:
    fig = tracks_figure(replay_data(play("peak-performance", seed).events()))
    try:
        fig.canvas.draw()
        notes = {a.get_gid(): a for a in fig.axes[0].texts if isinstance(a, Annotation)}
        arrows = {gid.split()[1]: a for gid, a in notes.items() if gid and gid.startswith("arrow")}
        assert arrows
        to_px = fig.axes[0].transData.transform
        for ship, arrow in arrows.items():
            box = notes[f"label {ship}"].get_window_extent()
            (hx, hy), (tx, ty) = to_px(arrow.xy), to_px(arrow.xyann)
            # no point of the arrow, tail to head, under the ship's own label
            for k in range(21):
                x, y = tx + (hx - tx) * k / 20, ty + (hy - ty) * k / 20
                assert not box.contains(x, y), (ship, k)
    finally:
        plt.close(fig)
