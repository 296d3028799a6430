"""PDF sheets print every name as itself (issue 16, item 21): Polish, Cyrillic, Chinese, Arabic
and emoji were black boxes, because the PDF was drawn in Helvetica (Latin-1 only). Read back from
the PDF with pypdf and pypdfium2, as a person's PDF viewer would."""

from __future__ import annotations

import io
import os
import unicodedata
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import pytest

from kolrami.cli import main
from kolrami.fleet import load_fleet
from kolrami.fleet.legality import validate
from kolrami.report.build_sheet import render_html
from kolrami.report.build_sheet import render_pdf
from kolrami.report.pdf_fonts import FALLBACKS
from kolrami.report.pdf_fonts import faces

POLISH, CYRILLIC, GREEK = "Łukasz Żółw", "Юрий Гагарин", "Ωmega"
CHINESE, ARABIC, EMOJI = "张伟", "محمد", "\U0001f680"
FOUND = {f.family for f in faces()}
WIDE = {name for name, _ in FALLBACKS} <= FOUND


def need_wide_fonts() -> None:
    """Chinese and emoji need Debian's fonts-droid-fallback and fonts-symbola: CI installs them
    (.ci/run), so there a missing one fails; elsewhere it skips, saying what to install."""
    if WIDE:
        return
    why = "needs apt-get install fonts-droid-fallback fonts-symbola"
    if os.environ.get("CI"):
        pytest.fail(f"CI must install the PDF fonts: {why}")
    pytest.skip(why)


def sheet_pdf(player: str, event: str = "") -> bytes:
    report = validate(load_fleet("presets:klingon-strike"), 300)
    return render_pdf(render_html(report, player, "", event, "", "a4"))


def pdf_text(pdf: bytes) -> tuple[str, str]:
    """The first page's text as pypdf and as pdfium (Chrome's PDF engine) extract it."""
    first = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    page = pypdfium2.PdfDocument(pdf)[0]
    return unicodedata.normalize("NFKC", first), page.get_textpage().get_text_range()


def embedded_fonts(pdf: bytes) -> set[str]:
    names = set()
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        resources: Any = page["/Resources"]
        for font in resources["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def test_latin_extended_cyrillic_greek_and_arabic_print_as_themselves() -> None:
    pdf = sheet_pdf(f"{POLISH} {ARABIC}", f"{CYRILLIC} {GREEK}")
    by_pypdf, by_pdfium = pdf_text(pdf)
    for name in (POLISH, CYRILLIC, GREEK, ARABIC):
        assert name in by_pypdf
        assert name in by_pdfium
    assert "■" not in by_pdfium  # the box a missing glyph is drawn as
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= embedded_fonts(pdf)


def test_chinese_and_emoji_print_in_fallback_fonts() -> None:
    need_wide_fonts()
    pdf = sheet_pdf(f"{CHINESE} {EMOJI} {POLISH}")
    by_pypdf, by_pdfium = pdf_text(pdf)
    assert f"{CHINESE}" in by_pypdf
    assert POLISH in by_pdfium
    assert "■" not in by_pdfium
    # the emoji's glyph is drawn from Symbola; ReportLab's text map of characters beyond
    # U+FFFF is cut to four hex digits, so no extractor reads the rocket back as U+1F680
    assert {"DroidSansFallback", "Symbola"} <= embedded_fonts(pdf)


def test_a_latin_1_sheet_embeds_no_fallback_font() -> None:
    assert embedded_fonts(sheet_pdf("Ann")).isdisjoint({"DroidSansFallback", "Symbola"})


def test_the_event_sheets_print_players_names_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    need_wide_fonts()
    db, pdf = str(tmp_path / "e.db"), tmp_path / "sheets.pdf"
    assert main(["tournament", "new", "Kraków", "--db", db]) == 0
    for name, fleet in ((f"{CHINESE} {EMOJI}", "klingon-strike"), (POLISH, "federation-fleet")):
        assert main(["tournament", "player", "add", name, "--fleet", fleet, "--db", db]) == 0
    capsys.readouterr()
    assert main(["tournament", "sheet", "--pdf", str(pdf), "--db", db]) == 0
    text = "".join(
        unicodedata.normalize("NFKC", p.extract_text()) for p in pypdf.PdfReader(pdf).pages
    )
    assert CHINESE in text
    assert POLISH in text
    assert "Kraków" in text


def test_writing_a_pdf_prints_nothing_on_stderr(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """xhtml2pdf warned about border-collapse (a property it skips) on every PDF."""
    out = tmp_path / "sheet.pdf"
    assert main(["fleet", "sheet", "presets:klingon-strike", "--pdf", str(out)]) == 0
    captured = capfd.readouterr()
    assert captured.err == ""
    assert "border-collapse" not in captured.out
