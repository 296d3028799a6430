"""The replay draws every kind of terrain (issue 19): its data for each feature, and the page in
Debian's chromium with one drawn group per feature and the ion storm's area moving."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from kit import open_replay
from kit import tab

from kolrami.fleet import load_fleet
from kolrami.report.replay import replay_data
from kolrami.report.replay import write_replay
from kolrami.report.tracks import tracks_figure
from kolrami.report.tracks import write_tracks
from kolrami.scenarios.models import FEATURE_KINDS
from kolrami.scenarios.models import builtin_scenario
from kolrami.scenarios.models import parse_scenario
from kolrami.sim.play import simulate

#: a scenario with one feature of every kind
EVERYTHING = (Path(__file__).parent / "everything.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def everything() -> list[Any]:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    battle = simulate(parse_scenario(EVERYTHING, "t.toml"), fleets, ("random", "random"), 2)
    return list(battle.events())


def test_the_replay_data_has_every_feature_with_its_geometry(everything: list[Any]) -> None:
    terrain = replay_data(everything)["meta"]["terrain"]
    assert [t["kind"] for t in terrain] == list(FEATURE_KINDS)
    by_kind = {t["kind"]: t for t in terrain}
    assert by_kind["planet"] == {"kind": "planet", "x": 20, "y": 30, "r": 4}  # the old form
    assert len(by_kind["nebula"]["points"]) == 3
    areas = by_kind["ion-storm"]["areas"]
    assert len(areas) == 4  # the start and the end of each of the 3 turns
    assert max(x for x, _ in areas[1]) == pytest.approx(21)  # 5 cm + 4 hexes of 4 cm
    assert max(x for x, _ in areas[3]) == pytest.approx(53)
    assert [m[:2] for m in by_kind["minefield"]["mines"]] == [[100, 40], [104, 40]]
    assert by_kind["black-hole"]["rings"] == 3
    assert by_kind["gas-giant"]["layers"] == 4
    assert by_kind["magnetar"]["reach"] == 8


def test_a_detonated_mine_carries_its_turn() -> None:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    for seed in range(40):
        events = list(
            simulate(builtin_scenario("minefield"), fleets, ("random", "random"), seed).events()
        )
        gone = [m for m in replay_data(events)["meta"]["terrain"][0]["mines"] if m[2]]
        if gone:
            assert all(1 <= m[2] <= 8 for m in gone)
            return
    pytest.fail("no mine went off in 40 random battles")


def test_the_page_draws_every_feature_and_moves_the_storm(
    everything: list[Any], browser: Any, tmp_path: Path
) -> None:
    out = tmp_path / "everything.html"
    write_replay(everything, out)
    page = open_replay(tab(browser), out)
    kinds = page.evaluate("[...document.querySelectorAll('g.terrain')].map(g => g.classList[1])")
    assert kinds == list(FEATURE_KINDS)
    assert page.evaluate("document.querySelectorAll('g.terrain.minefield g.mine').length") == 2
    storm = "document.querySelector('g.terrain.ion-storm polygon').getAttribute('points')"
    first = page.evaluate(storm)
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    assert page.evaluate(storm) != first
    assert page.errors == []
    page.close()


def test_the_tracks_plot_draws_every_feature(everything: list[Any], tmp_path: Path) -> None:
    data = replay_data(everything)
    figure = tracks_figure(data)
    try:
        patches = len(figure.axes[0].patches)
    finally:
        plt.close(figure)
    # the table and two deployment zones, then a patch for each of the 9 features and one more
    # for the second mine, the black hole's horizon and the magnetar's reach
    assert patches >= 3 + 9 + 3
    write_tracks(everything, tmp_path / "tracks.png")
    assert (tmp_path / "tracks.png").stat().st_size > 0
