"""The printed round sheets (pairings, result slips) as stand-alone HTML files, from the same
templates as the web app's print pages, for the command line (kolrami tournament slips)."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment
from jinja2 import FileSystemLoader

from kolrami.errors import InvalidInputError
from kolrami.tournament.store import Store
from kolrami.web import live
from kolrami.web.network import JoinAddress
from kolrami.web.network import check_public_url
from kolrami.web.network import lan_address
from kolrami.web.views import Round
from kolrami.web.views import event_view

HERE = Path(__file__).resolve().parent
#: The port `kolrami serve` listens on unless told otherwise.
SERVE_PORT = 8000


def current_round(store: Store, event: str | None, number: int | None = None) -> Round:
    """A round of the event as the pages show it: `number`, or the latest paired."""
    name = store.state(event).name
    view = event_view(store, store.event_id(name), name)
    if not view.rounds:
        raise InvalidInputError(
            f"{name} has no round paired yet: pair one (kolrami tournament pair)"
        )
    if number is None:
        return view.rounds[-1]
    if not 1 <= number <= len(view.rounds):
        raise InvalidInputError(
            f"{name} has no round {number}: rounds 1 to {len(view.rounds)} are paired"
        )
    return view.rounds[number - 1]


def round_sheet(
    store: Store, event: str | None, template: str, number: int | None = None, base: str = ""
) -> str:
    """A round's pairings (print_pairings) or result slips (print_slips) as one HTML file with
    its style inline; `base` is the web app's address the slips name for reporting by phone."""
    base = check_public_url(base, "--base") if base else ""
    name = store.state(event).name
    view = event_view(store, store.event_id(name), name)
    chosen = current_round(store, name, number)
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)
    live.install(env, store, base or None, None)  # the timer's end time, the join QR code
    env.globals["static"] = lambda name: f"{base.rstrip('/')}/static/{name}"  # a file, no server
    if not base:  # no page was opened: the address phones reach this machine on (kolrami serve)
        lan = lan_address()
        found = JoinAddress(
            f"http://{lan or '127.0.0.1'}:{SERVE_PORT}",
            "" if lan else "this machine is on no network: print again with --base",
        )
        env.globals["join_address"] = lambda _request: found
    css = (HERE / "static" / "print.css").read_text(encoding="utf-8")
    page = env.get_template(template)
    return page.render(ev=view, round=chosen, base=base.rstrip("/"), inline_css=css, request=None)
