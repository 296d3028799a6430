"""Where a side's fleet in /play comes from: a preset, a pasted share string (or FleetX text), or
an uploaded FleetX file. The first of file, text and preset that is given is taken; a fleet that
cannot be read, is too large, or breaks a squad-building rule is one line for its field (its rule
and what to do), and no game is made.

A pasted fleet is taken up to MAX_PASTE characters (a multipart field's bound in Starlette), so
that one past a fleet's own bound (MAX_FLEET_BYTES) is still said under its field."""

from __future__ import annotations

from dataclasses import dataclass

from kolrami.catalog import builtin_pack
from kolrami.errors import KolramiError
from kolrami.fleet.document import MAX_FLEET_BYTES
from kolrami.fleet.legality import place
from kolrami.fleet.legality import validate
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import load_fleet
from kolrami.fleet.model import preset_names
from kolrami.web.forms import FleetForm
from kolrami.web.forms import from_text
from kolrami.web.forms import from_upload

#: the most characters /play takes in a pasted fleet field; past MAX_FLEET_BYTES it is refused
MAX_PASTE = 1024 * 1024


def echoed(text: str) -> str:
    """A pasted fleet as the form shows it again: as typed, unless it is past a fleet's bound."""
    return text if len(text.encode("utf-8")) <= MAX_FLEET_BYTES else ""


@dataclass(frozen=True, slots=True)
class Choice:
    """A side's fleet, or the form field its problem goes under and the line that says it."""

    fleet: Fleet | None = None
    field: str = ""
    problem: str = ""


def choose(side: str, preset: str, text: str, upload: tuple[bytes, str] | None) -> Choice:
    """Side `side`'s fleet ('a' or 'b') from the form's three ways of giving it."""
    label = f"side {side.upper()}"
    if upload is not None:
        return _checked(from_upload(*upload), f"fleet_{side}_file", label)
    if text.strip():
        if len(text.encode("utf-8")) > MAX_FLEET_BYTES:  # before any of it is read as a fleet
            return Choice(
                None,
                f"fleet_{side}_text",
                f"{label}: the pasted fleet is larger than {MAX_FLEET_BYTES // 1024} KiB, a "
                "fleet's bound; paste its share string (KF1-...) or upload its FleetX file",
            )
        return _checked(from_text(text), f"fleet_{side}_text", label)
    name = f"fleet_{side}"
    if preset not in preset_names():
        return Choice(
            None, name, f"{label}: no preset fleet '{preset[:40]}'; choose one of the list"
        )
    try:
        return Choice(load_fleet(f"presets:{preset}", builtin_pack()))
    except KolramiError as exc:  # a broken preset is ours, said all the same
        return Choice(None, name, f"{label}: {exc}")


def _checked(form: FleetForm, name: str, label: str) -> Choice:
    if form.fleet is None:
        lines = [m for ms in form.errors.values() for m in ms]
        return Choice(None, name, f"{label}: {lines[0] if lines else 'no fleet'}")
    # a fleet's own points limit is its budget; without one, every other rule still holds
    report = validate(form.fleet, form.fleet.points_limit)
    if report.errors:
        first = report.errors[0]
        more = f" (and {len(report.errors) - 1} more)" if len(report.errors) > 1 else ""
        rule = "" if f"({first.rule}" in first.message else f" ({first.rule})"
        return Choice(
            None,
            name,
            f"{label}: fleet '{form.fleet.name}' is not legal: {place(first.path, report)}: "
            f"{first.message}{rule}{more}; fix it in the fleet builder (/fleets/build)",
        )
    return Choice(form.fleet)
