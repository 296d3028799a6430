"""The Fleet Build Sheet: HTML and PDF, front and back (FBS-01..10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kolrami.fleet import load_fleet
from kolrami.fleet.legality import validate
from kolrami.report.build_sheet import RoundEntry
from kolrami.report.build_sheet import cumulative_log
from kolrami.report.build_sheet import render_html
from kolrami.report.build_sheet import render_pdf

pdfium = pytest.importorskip("pypdfium2")

SIX = validate(load_fleet("klingon-fleet"))  # six ships: four on the front, two on the back


@pytest.mark.rule("FBS-01", "FBS-02", "FBS-03", "FBS-04", "FBS-05", "FBS-07", "FBS-08")
def test_html_has_every_part_of_the_sheet() -> None:
    html = render_html(
        SIX,
        player="Mara Quinn",
        email="mara@example.org",
        event="Peak Performance",
        date="2026-11-30",
        page="letter",
    )
    for text in (
        "Mara Quinn",
        "mara@example.org",
        "Peak Performance",
        "2026-11-30",
        "size: letter",
        "Ship 1:",
        "Ship 4:",
        "Resource Used",
        "Reinforcements Sideboard",
        "Total Build",
        "Battle rounds",
        "C Crew, E Elite Talent",
        "MIR Mirror Universe",
    ):
        assert text in html
    front, back = html.split('class="back"')
    assert "Ship 4:" in front
    assert "Ship 5:" not in front
    assert "Ship 5:" in back
    assert "Ship 6:" in back
    assert f">{SIX.total_build}<" in html
    assert "http" not in html.replace("mailto", "")  # nothing fetched from anywhere


def test_four_ships_need_no_back_page() -> None:
    html = render_html(validate(load_fleet("federation-cruisers")))
    assert 'class="back"' not in html


@pytest.mark.rule("FBS-09", "FBS-10")
def test_worked_example_cumulative_fleet_points() -> None:
    log = cumulative_log([("Dev", "W", 47), ("(bye)", "B", 57), ("Ilse", "L", 30)])
    assert [(r.result, r.fleet_points, r.cumulative) for r in log] == [
        ("W", "47", "47"),
        ("B", "57", "104"),
        ("L", "30", "134"),
    ]
    html = render_html(SIX, rounds=log)
    assert ">134<" in html


def test_pdf_has_two_filled_pages(tmp_path: Path) -> None:
    pdf = render_pdf(render_html(SIX, player="Mara Quinn", page="a4"))
    doc = pdfium.PdfDocument(pdf)
    assert len(doc) == 2
    width, height = doc[0].get_size()
    assert (round(width), round(height)) == (595, 842)  # A4 in points
    for n in range(2):
        image = doc[n].render(scale=1).to_pil().convert("L")
        image.save(tmp_path / f"page{n}.png")
        dark = sum(1 for p in image.get_flattened_data() if p < 128)
        assert dark > 2000, f"page {n + 1} looks empty"
        # the blue header band of the ship blocks is on both pages
        rgb = doc[n].render(scale=1).to_pil().convert("RGB")
        assert any(
            abs(r - 201) < 8 and abs(g - 211) < 8 and abs(b - 227) < 8
            for r, g, b in rgb.get_flattened_data()
        )


def test_sheet_lists_problems_of_an_illegal_fleet() -> None:
    from kolrami.fleet.model import read_fleet

    bad = validate(read_fleet({"ships": [{"id": "enterprise"}, {"id": "enterprise"}]}, "x"))
    html = render_html(bad)
    assert "Not legal as built" in html
    assert "exceeds the 300 SP limit" in html


def test_unknown_page_size() -> None:
    from kolrami.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="a4 or letter"):
        render_html(SIX, page="a3")


def test_round_entry_defaults_are_blank() -> None:
    assert RoundEntry(2).opponent == ""
