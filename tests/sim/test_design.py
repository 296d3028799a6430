"""The designer's questions (issue 47): --vary a stat, --even a cost, and their bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.catalog import builtin_pack
from kolrami.cli import app
from kolrami.errors import InvalidInputError
from kolrami.sim.design import EvenStep
from kolrami.sim.design import _crossing
from kolrami.sim.design import even_counts
from kolrami.sim.design import parse_vary
from kolrami.sim.design import variant

runner = CliRunner()


def test_a_vary_range_gives_every_whole_value() -> None:
    assert parse_vary("shields=10..16").values == (10, 11, 12, 13, 14, 15, 16)
    assert parse_vary("Damage Control=1..3").stat == "damage-control"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("armour=1..3", "STAT one of shields, weapon-strength, speed, damage-control, hull"),
        ("shields", "STAT one of shields"),
        ("shields=16..10", "the range 16..10 is reversed"),
        ("shields=12..12", "the range 12..12 is empty"),
        ("shields=ten..12", "must read LO..HI in whole numbers"),
    ],
)
def test_bad_vary_is_one_line_naming_what_is_accepted(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(").replace(".", r"\.")):
        parse_vary(text)
    result = runner.invoke(app, ["assess", "--vary", text, "--classes", "reliant"])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_class_lacking_the_stat_is_refused_naming_the_stats_it_has() -> None:
    result = runner.invoke(app, ["assess", "--vary", "speed=5..10", "--classes", "starbase"])
    assert result.exit_code == 2
    assert "has no the top speed, cm" not in result.stderr  # reads as a sentence
    assert "Starbase has no" in result.stderr
    assert "it has shields" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_vary_needs_exactly_one_class() -> None:
    result = runner.invoke(app, ["assess", "--vary", "shields=10..12", "--classes", "all"])
    assert result.exit_code == 2
    assert "--vary takes one class" in result.stderr


def test_a_variant_changes_only_its_stat() -> None:
    reliant = builtin_pack().get("reliant")
    v = variant(reliant, "weapon-strength", 5)
    assert v.phasers is not None
    assert reliant.phasers is not None
    assert v.phasers.strength == 5
    step = 5 - reliant.phasers.strength
    if reliant.photons is not None and v.photons is not None:
        assert v.photons.strength == max(0, reliant.photons.strength + step)
    assert v.shields == reliant.shields
    assert v.superstructure == reliant.superstructure
    assert v.id != reliant.id


def test_more_shields_win_more_against_the_field(tmp_path: Path) -> None:
    report = tmp_path / "vary.html"
    args = ["assess", "--vary", "shields=8..16", "--classes", "reliant", "--battles", "20"]
    result = runner.invoke(app, [*args, "--workers", "1", "--json", "--report", str(report)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    points = data["points"]
    assert [p["value"] for p in points] == list(range(8, 17))
    assert sum(p["printed"] for p in points) == 1
    assert points[-1]["score"] > points[0]["score"]
    assert all(p["score_95"][0] <= p["score"] <= p["score_95"][1] for p in points)
    page = report.read_text()
    assert page.count("data:image/png;base64,") == 1
    assert "Reliant" in page


def test_equal_points_counts_interpolate_between_whole_ships() -> None:
    field = [builtin_pack().get("enterprise"), builtin_pack().get("bird-of-prey")]
    rows = even_counts(120.0, field, 180)
    (_, lo, hi, w), (_, lo2, hi2, w2) = rows
    assert (lo, hi) == (1, 2)
    assert w == pytest.approx(0.5)
    assert (lo2, hi2) == (1, 2)
    assert w2 == pytest.approx(0.5)


def test_the_crossing_of_one_half_is_read_off_in_log_cost() -> None:
    steps = [EvenStep(50, 10, 0.8, 0.7, 0.9), EvenStep(200, 10, 0.2, 0.1, 0.3)]
    assert _crossing(steps, [0.8, 0.2]) == pytest.approx(100.0)
    assert _crossing(steps, [0.8, 0.6]) is None


def test_even_finds_a_cost_with_its_interval(tmp_path: Path) -> None:
    report = tmp_path / "even.html"
    args = ["assess", "--even", "reliant", "--classes", "ktroika,sting,defender"]
    result = runner.invoke(
        app, [*args, "--battles", "20", "--workers", "1", "--json", "--report", str(report)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["field"] == ["K'T'Roika", "Sting", "Defender"]
    costs = [s["cost"] for s in data["steps"]]
    assert costs == sorted(costs)
    if data["even_cost"] is not None:
        scores = {s["cost"]: s["score"] for s in data["steps"]}
        # the even cost lies between a cost scoring above one half and one scoring below
        assert any(c <= data["even_cost"] and scores[c] >= 0.5 for c in costs)
        assert any(c >= data["even_cost"] and scores[c] <= 0.5 for c in costs)
    assert "data:image/png;base64," in report.read_text()
