"""The event's Fleet Build Sheet (FBS-01, FBS-02, FBS-03, FBS-04, FBS-05, FBS-06, FBS-07, FBS-08,
FBS-09, FBS-10, FBS-11, FBS-12) as print-ready HTML (A4 or Letter) and as PDF.

Ships 1-4 go on the front with the Resource line, the Total Build and the three-round log; further
ships go on a back page (FBS-02). The same HTML feeds the PDF (xhtml2pdf, pure Python), so the
paper and the screen always agree.
"""

from __future__ import annotations

import functools
import io
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment
from jinja2 import PackageLoader
from jinja2 import select_autoescape

from kolrami import __version__
from kolrami.catalog import builtin_pack
from kolrami.errors import InvalidInputError
from kolrami.errors import path_is
from kolrami.errors import quoted
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.legality import ShipTotal
from kolrami.report.pdf_fonts import font_folders
from kolrami.report.pdf_fonts import with_fonts

FRONT_SHIPS = 4  # FBS-02
MIN_ROWS = 7  # ship, captain, admiral and at least four upgrade rows per block (FBS-03)
PAGE_SIZES = {"a4": "A4", "letter": "letter"}


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One line of the sheet's round log (FBS-09, FBS-10); blank strings print as blanks."""

    round: int
    opponent: str = ""
    build_initials: str = ""
    result: str = ""  # W, L or B
    fleet_points: str = ""
    cumulative: str = ""
    result_initials: str = ""


def cumulative_log(results: list[tuple[str, str, int]]) -> list[RoundEntry]:
    """Round log entries from (opponent, W/L/B, Fleet Points) per round, with the running total
    of Fleet Points (FBS-10)."""
    total = 0
    out = []
    for n, (opponent, result, points) in enumerate(results, start=1):
        total += points
        out.append(RoundEntry(n, opponent, "", result, str(points), str(total), ""))
    return out


def _block(ship: ShipTotal) -> dict[str, Any]:
    rows = list(ship.lines)
    return {
        "number": ship.index + 1,
        "name": ship.name,
        "squadron": ship.squadron,
        "rows": rows,
        "blank": max(0, MIN_ROWS - len(rows)),
        "total": ship.total_sp,
    }


def _pairs(blocks: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Ship blocks two to a row, each pair padded with blank rows to the same height so the boxes
    side by side line up and the row below starts level."""
    pairs = [blocks[i : i + 2] for i in range(0, len(blocks), 2)]
    for pair in pairs:
        tallest = max(len(b["rows"]) + b["blank"] for b in pair)
        for b in pair:
            b["blank"] = tallest - len(b["rows"])
    return pairs


@functools.cache
def templates() -> Environment:
    """The sheets' templates, compiled once per process: compiling build_sheet.html.j2 took
    40 ms, 95% of a sheet's time (an event's 3,000 sheets: over a minute)."""
    return Environment(
        loader=PackageLoader("kolrami.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        auto_reload=False,
    )


def render_html(
    report: FleetReport,
    player: str = "",
    email: str = "",
    event: str = "",
    date: str = "",
    page: str = "a4",
    rounds: list[RoundEntry] | None = None,
) -> str:
    """The sheet as one HTML page (two printed pages when the fleet has more than 4 ships)."""
    if page not in PAGE_SIZES:
        raise InvalidInputError(f"page size '{page}': use a4 or letter")
    env = templates()
    blocks = [_block(s) for s in report.ships]
    entries = rounds or [RoundEntry(n) for n in (1, 2, 3)]
    return env.get_template("build_sheet.html.j2").render(
        fleet_name=report.fleet.name,
        player=player,
        email=email,
        event=event,
        date=date,
        limit=report.settings.sp_limit or "",
        page_size=PAGE_SIZES[page],
        front=_pairs(blocks[:FRONT_SHIPS]),
        back=_pairs(blocks[FRONT_SHIPS:]),
        resource=report.resource,
        ship_totals=" + ".join(str(s.total_sp) for s in report.ships),
        total_build=report.total_build,
        rounds=entries,
        problems=[f"{e.path}: {e.message}" for e in report.errors],
        version=__version__,
        data_version=builtin_pack().data_version,
    )


def render_pdf(html: str) -> bytes:
    """PDF bytes of a sheet's HTML, in fonts that draw every script a name may be in
    (kolrami.report.pdf_fonts). The renderer reads the font files and nothing else: no
    network, no other local file."""
    # here, not at the top: xhtml2pdf (with reportlab) is slow to load
    from xhtml2pdf import pisa
    from xhtml2pdf.config.resources import ResourceAccessPolicy

    # xhtml2pdf logs every CSS property it skips (border-collapse ...) as a warning on stderr:
    # noise to a user, who gets the PDF either way
    logging.getLogger("xhtml2pdf").setLevel(logging.ERROR)
    out = io.BytesIO()
    policy = ResourceAccessPolicy(allow_remote=False, base_dir=None, extra_roots=font_folders())
    status = pisa.CreatePDF(with_fonts(html), dest=out, encoding="utf-8", resource_policy=policy)
    if status.err:
        raise InvalidInputError("could not lay out the build sheet as PDF")
    return out.getvalue()


def check_paths(html: Path | None, pdf: Path | None) -> None:
    """Refuse, before anything is laid out, a sheet that cannot be written where asked: a name
    without the format's ending (a PDF called x.txt), a folder, or a folder that is not there."""
    if html is None and pdf is None:
        raise InvalidInputError("say where to write: --html OUT.html and/or --pdf OUT.pdf")
    for path, option, endings in ((html, "--html", (".html", ".htm")), (pdf, "--pdf", (".pdf",))):
        if path is None:
            continue
        if path_is(path, "dir"):
            raise InvalidInputError(f"{option} '{quoted(path)}' is a folder; name a file in it")
        if path.suffix.lower() not in endings:
            raise InvalidInputError(
                f"{option} '{quoted(path)}' must end in {' or '.join(endings)}: "
                f"{option} writes {option.removeprefix('--').upper()}"
            )
        folder = path.parent if str(path.parent) else Path(".")
        if not path_is(folder, "dir"):
            raise InvalidInputError(
                f"cannot write '{quoted(path)}': folder '{quoted(folder)}' does not exist"
            )


def write_sheets(text: str, html: Path | None, pdf: Path | None) -> list[str]:
    """Write a sheet's HTML to `html` and its PDF to `pdf` (either may be None, checked by
    check_paths first); the files written."""
    wrote = []
    if html is not None:
        write(html, text)
        wrote.append(str(html))
    if pdf is not None:
        write(pdf, render_pdf(text))
        wrote.append(str(pdf))
    return wrote


def write(path: Path, data: str | bytes) -> None:
    """Write a sheet, with a one-line error when the place is not writable."""
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot write '{quoted(path)}': {exc.strerror}") from None
