"""The event's printed paper as PDF: the score sheet, then each player's Fleet Build Sheet laid out
like the standalone `fleet sheet` (FBS-02, FBS-09, OP-19)."""

from __future__ import annotations

from typing import Any

import pytest

from kolrami.fleet.legality import validate
from kolrami.fleet.model import load_fleet
from kolrami.fleet.model import preset_names
from kolrami.report.build_sheet import FRONT_SHIPS
from kolrami.report.build_sheet import render_pdf
from kolrami.report.tournament_sheets import event_sheets_html
from kolrami.tournament.simulate import run_event
from kolrami.tournament.store import Store

pdfium = pytest.importorskip("pypdfium2")

PLAYERS = 5


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Any]:
    db = str(tmp_path_factory.mktemp("sheets") / "event.db")
    fleets = [(name, load_fleet(f"presets:{name}")) for name in preset_names()]
    run_event(fleets, PLAYERS, 3, store_url=db)
    store = Store(db)
    return store, pdfium.PdfDocument(render_pdf(event_sheets_html(store, None)))


def page_text(page: Any) -> str:
    return str(page.get_textpage().get_text_range())


def tops(page: Any, text: str) -> list[float]:
    """The top edge (in points from the bottom) of every place `text` is printed on the page."""
    textpage = page.get_textpage()
    search = textpage.search(text)
    found = []
    while (hit := search.get_next()) is not None:
        found.append(textpage.get_charbox(hit[0])[3])
    return found


def fronts(doc: Any) -> list[Any]:
    """The front pages of the build sheets (not the score sheet, not a back page)."""
    return [doc[n] for n in range(len(doc))
            if page_text(doc[n]).splitlines()[0].strip() == "FLEET BUILD SHEET"]  # fmt: skip


@pytest.mark.rule("FBS-02")
def test_each_player_gets_one_front_page_and_a_back_only_past_four_ships(
    event: tuple[Store, Any],
) -> None:
    store, doc = event
    fleets = store.fleets(None)
    assert len(fleets) == PLAYERS
    backs = sum(1 for f in fleets.values() if len(f.ships) > FRONT_SHIPS)
    # the score sheet, a front per player, a back for the big fleets: no page with a stray row
    assert len(doc) == 1 + PLAYERS + backs


@pytest.mark.rule("FBS-09")
def test_the_whole_round_log_is_on_the_front_page(event: tuple[Store, Any]) -> None:
    _, doc = event
    pages = fronts(doc)
    assert len(pages) == PLAYERS
    for page in pages:
        text = page_text(page)
        assert "Battle rounds" in text
        assert "Cumulative" in text
        assert "Kolrami" in text  # the legend under the log, last thing on the front


def test_card_titles_are_not_wrapped(event: tuple[Store, Any]) -> None:
    store, doc = event
    text = " ".join(page_text(doc[n]) for n in range(len(doc)))
    titles = {line.title for f in store.fleets(None).values() for s in validate(f).ships
              for line in s.lines}  # fmt: skip
    assert any(" " in t for t in titles)
    for title in titles:
        # each card's title on one line: the title column has room, as on `fleet sheet`
        assert title in text, title


def test_ship_boxes_side_by_side_line_up(event: tuple[Store, Any]) -> None:
    _, doc = event
    for page in fronts(doc):
        totals = sorted(tops(page, "Total SP"), reverse=True)
        # ships 1 and 2 end level, and so do 3 and 4
        for left, right in zip(totals[0::2], totals[1::2], strict=False):
            assert abs(left - right) < 1.0, totals


def test_the_html_sheets_carry_the_build_sheets_look(event: tuple[Store, Any]) -> None:
    store, _ = event
    html = event_sheets_html(store, None)
    assert html.count('class="player-sheet"') == PLAYERS
    assert ".code { text-align: center; width: 12mm; }" in html
