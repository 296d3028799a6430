"""What the pages of the event's day share, as template globals: the round's timer (stored in
the database, services/timer.py), the join address phones open and its QR code (network.py),
and times in the server's local time (the clock on the store's wall)."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime
from typing import Any

from fastapi import Request
from jinja2 import Environment

from kolrami.errors import InvalidInputError
from kolrami.tournament.services.joining import JOIN_HOURS
from kolrami.tournament.services.timer import Timer
from kolrami.tournament.store import Store
from kolrami.web.network import JoinAddress
from kolrami.web.network import join_address
from kolrami.web.network import qr_svg


def local_time(at: datetime | None, with_seconds: bool = False, zone: bool = False) -> str:
    """A UTC time (as the store keeps it, without a zone) on this machine's clock: 21:40;
    with `zone`, its time zone too (21:40 CET), for paper that leaves the room."""
    if at is None:
        return ""
    shown = at.replace(tzinfo=UTC).astimezone()
    text = shown.strftime("%H:%M:%S" if with_seconds else "%H:%M")
    return f"{text} {shown.strftime('%Z')}".rstrip() if zone else text


def clock_text(seconds: float) -> str:
    """The remaining time as the clock shows it: 59:58, 65:00, 0:07."""
    whole = int(seconds + 0.999)  # 59:59.2 left shows 60:00 only at the very start
    return f"{whole // 60}:{whole % 60:02d}"


def install(
    env: Environment, store: Store, public_url: str | None, listen_host: str | None
) -> None:
    """Add the globals and filters the templates use for the timer and the join address."""

    def round_timer(event_name: str, number: int | None = None) -> Timer | None:
        try:
            return store.timer(event_name, number)
        except InvalidInputError:  # no round paired yet, or not that one
            return None

    def joining(request: Request) -> JoinAddress:
        return join_address(request, public_url, listen_host)

    globals_: dict[str, Any] = {
        "round_timer": round_timer,
        "join_address": joining,
        "qr_svg": qr_svg,
        "public_settings": store.public_settings,
        "join_requests": store.join_requests,
        "join_hours": JOIN_HOURS,
    }
    env.globals.update(globals_)
    env.filters["local_time"] = local_time
    env.filters["clock_text"] = clock_text
