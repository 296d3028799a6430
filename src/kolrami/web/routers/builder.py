"""The players' fleet builder (no login): /fleets/build and its downloads.

Every choice is a POST of the whole page's form (htmx swaps the builder in place; without script
the page comes back whole), the fleet carried in it as its share string. The downloads take the
share string in the address: the FleetX file, the share string as text, the Fleet Build Sheet as
PDF (kolrami.report.build_sheet). A download of a fleet that cannot be read is a 400 naming why.
"""

from __future__ import annotations

import re
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Query
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.responses import PlainTextResponse
from fastapi.responses import Response

from kolrami.errors import InvalidInputError
from kolrami.fleet.fleetx import MAX_SHARE_CHARS
from kolrami.fleet.fleetx import dumps
from kolrami.fleet.fleetx import share_string
from kolrami.fleet.legality import DEFAULT_SP_LIMIT
from kolrami.fleet.legality import place
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.report.build_sheet import render_html
from kolrami.report.build_sheet import render_pdf
from kolrami.web import builder
from kolrami.web.deps import render
from kolrami.web.forms import from_text

router = APIRouter(tags=["builder"])
_SAFE = re.compile(r"[^A-Za-z0-9_-]+")


def _ctx(build: builder.Build, values: dict[str, str]) -> dict[str, Any]:
    filters = builder.filters_of(values)
    report = build.report()
    share = build.share()
    return {
        "build": build,
        "report": report,
        "share": share,
        "filters": filters,
        "entries": [e for e in builder.catalogue() if filters.keep(e)],
        "factions": builder.factions(),
        "kinds": builder.KINDS,
        "squadron": values.get("squadron", "1") or "1",
        "player": values.get("player", "")[:100],
        "card_ids": builder.card_ids(build),
        "place": place,
    }


@router.get("/fleets/build", response_class=HTMLResponse)
def build_page(request: Request) -> HTMLResponse:
    """The builder, empty, or opened on a fleet (`?fleet=KF1-...`) with the filters asked; a
    fleet that cannot be read (or a limit that is not one) is its one line, and a 400."""
    values = dict(request.query_params.items())
    build = builder.load(values)
    status = 400 if build.problem else 200
    return render(request, "fleet_builder.html.j2", _ctx(build, values), status_code=status)


@router.post("/fleets/build", response_class=HTMLResponse)
async def build_choice(request: Request) -> HTMLResponse:
    """One choice (the pressed button's `act`) applied or refused; the builder shown again.
    A refused choice answers 422 with the builder and its one line, the fleet unchanged."""
    raw = await request.form()
    values = {k: v for k, v in raw.items() if isinstance(v, str)}
    build = builder.load(values)
    choice = values.get("act", "") or builder.moved(build, values)
    if choice:
        builder.choose(build, choice, values)
    status = 422 if build.refusal is not None or build.problem else 200
    return render(request, _template(request), _ctx(build, values), status_code=status)


def _template(request: Request) -> str:
    """The builder alone for htmx (it swaps it in place), else the whole page."""
    return (
        "_builder.html.j2"
        if request.headers.get("hx-request") == "true"
        else ("fleet_builder.html.j2")
    )


def _unreadable(text: str) -> str:
    form = from_text(text)
    return "; ".join(m for ms in form.errors.values() for m in ms) or "no ship in this fleet"


def _fleet(text: str) -> Fleet:
    """The fleet of a download's address, or a 400 with the reason."""
    form = from_text(text)
    if form.fleet is None:
        raise InvalidInputError(f"fleet: {_unreadable(text)}")
    return form.fleet


def _filename(fleet: Fleet, ending: str) -> str:
    stem = _SAFE.sub("-", fleet.name).strip("-").lower()[:40] or "fleet"
    return f'attachment; filename="{stem}{ending}"'


Share = Annotated[str, Query(max_length=MAX_SHARE_CHARS + 8)]


@router.get("/fleets/build/fleet.json")
def fleetx_file(fleet: Share = "") -> Response:
    """The fleet as a FleetX file."""
    found = _fleet(fleet)
    return Response(
        dumps(found),
        media_type="application/json",
        headers={"content-disposition": _filename(found, ".json")},
    )


@router.get("/fleets/build/share.txt")
def share_file(fleet: Share = "") -> PlainTextResponse:
    """The fleet's share string, as a text file (kolrami fleet import reads it)."""
    found = _fleet(fleet)
    return PlainTextResponse(
        share_string(found) + "\n", headers={"content-disposition": _filename(found, ".txt")}
    )


@router.get("/fleets/build/sheet.pdf")
def sheet_pdf(fleet: Share = "", player: Annotated[str, Query(max_length=100)] = "") -> Response:
    """The Fleet Build Sheet as PDF (FBS-01), with the fleet's problems printed if it has any."""
    found = _fleet(fleet)
    report = validate(found, found.points_limit or DEFAULT_SP_LIMIT)
    pdf = render_pdf(render_html(report, player=player.strip()))
    return Response(
        pdf, media_type="application/pdf", headers={"content-disposition": _filename(found, ".pdf")}
    )
