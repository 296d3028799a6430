"""Fleets from the registration forms: a pasted share string, an uploaded FleetX file, or a fleet
typed from a paper list, one ship a row. Every problem is attached to the form field it is about
(legality's structured errors carry a path into the fleet; the path names the field)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from pydantic import ValidationError

from kolrami.catalog import builtin_pack
from kolrami.catalog.cards import Card
from kolrami.catalog.cards import CardKind
from kolrami.catalog.cards import cards
from kolrami.catalog.names import name_key
from kolrami.errors import InvalidInputError
from kolrami.errors import KolramiError
from kolrami.errors import loads_json
from kolrami.fleet.document import MAX_FLEET_BYTES
from kolrami.fleet.document import MAX_SQUADRON_NUMBER
from kolrami.fleet.fleetx import SHARE_PREFIX
from kolrami.fleet.fleetx import from_share_string
from kolrami.fleet.legality import EventSettings
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.legality import place
from kolrami.fleet.legality import validate
from kolrami.fleet.model import PRESET_PREFIX
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import FleetShip
from kolrami.fleet.model import fleet_json
from kolrami.fleet.model import read_fleet

SHIP_FIELDS = ("class", "squadron", "captain", "admiral", "upgrades")
START_ROWS = 6
MAX_ROWS = 24
MAX_UPLOAD = MAX_FLEET_BYTES  # the fleet's own bound (kolrami.fleet.document)
MAX_SQUADRON = MAX_SQUADRON_NUMBER


@dataclass(slots=True)
class FleetForm:
    """A fleet read from a form: the fleet (None when it could not be read), its legality
    report, and the problems by form field."""

    fleet: Fleet | None = None
    report: FleetReport | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)
    rows: list[dict[str, str]] = field(default_factory=list)  # the typed rows, as entered
    row_totals: dict[int, int] = field(default_factory=dict)  # form row: its ship's Total SP

    def add(self, name: str, message: str) -> None:
        """Attach a problem to a field."""
        self.errors.setdefault(name, []).append(message)

    @property
    def ok(self) -> bool:
        """Read and legal."""
        return self.fleet is not None and not self.errors


def check(form: FleetForm, settings: EventSettings, field_of: dict[int, int] | None) -> FleetForm:
    """Validate the form's fleet for the event and file each problem under its field.

    `field_of` maps a ship's index in the fleet to its row in the typed form; without it (a
    share string or file) every problem goes under the one field it came from.
    """
    if form.fleet is None:
        return form
    report = validate(form.fleet, settings.sp_limit, settings)
    form.report = report
    if field_of is not None:
        form.row_totals = {field_of[s.index]: s.total_sp for s in report.ships}
    for err in report.errors:
        name = _field_for_path(err.path, field_of)
        text = err.message if field_of is not None else f"{place(err.path, report)}: {err.message}"
        form.add(name, text if f"({err.rule}" in text else f"{text} ({err.rule})")  # rule once
    return form


def _field_for_path(path: str, field_of: dict[int, int] | None) -> str:
    if field_of is None:
        return "fleet"
    if path.startswith("resource"):
        return "resource"
    m = re.match(r"ships\[(\d+)\]\.(\w+)", path)
    if m is None:
        return "total"
    row = field_of.get(int(m.group(1)), 0)
    part = {"id": "class"}.get(m.group(2), m.group(2))
    return f"ship_{row}_{part if part in SHIP_FIELDS else 'class'}"


def from_text(text: str) -> FleetForm:
    """A fleet pasted as a share string (KF1-...), as FleetX JSON, or named as a preset fleet
    (presets:NAME, as `kolrami tournament player add --fleet` takes it; read as the CLI reads
    it and checked by the same rules). Only a preset is looked up by name: nothing typed here
    opens a file on the server."""
    form = FleetForm()
    text = text.strip()
    if not text:
        form.add("fleet", "paste the player's share string (it starts with KF1-)")
        return form
    try:
        if text.startswith("{"):
            form.fleet = read_fleet(_json(text), "pasted fleet")
        elif text.startswith(SHARE_PREFIX):
            form.fleet = from_share_string(text)
        elif text.lower().startswith(PRESET_PREFIX):  # fleet_text never reads a file for one
            form.fleet = read_fleet(*fleet_json(PRESET_PREFIX + text[len(PRESET_PREFIX) :]))
        else:
            form.add(
                "fleet",
                "not a share string: it starts with KF1- (Kolrami's fleet share format) and "
                "is copied whole; or name a preset fleet as presets:NAME",
            )
    except KolramiError as exc:
        form.add("fleet", str(exc))
    return form


def from_upload(data: bytes, filename: str) -> FleetForm:
    """A fleet from an uploaded FleetX file."""
    form = FleetForm()
    if len(data) > MAX_UPLOAD:
        form.add("fleet", f"{filename}: larger than {MAX_UPLOAD // 1024} KiB; is it a FleetX file?")
        return form
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        form.add("fleet", f"{filename}: not a text file; upload the fleet's .json file")
        return form
    try:
        form.fleet = read_fleet(_json(text, filename), filename or "uploaded file")
    except KolramiError as exc:
        form.add("fleet", str(exc))
    return form


def _json(text: str, source: str = "pasted fleet") -> Any:
    if len(text.encode("utf-8")) > MAX_FLEET_BYTES:
        raise InvalidInputError(
            f"{source}: larger than {MAX_FLEET_BYTES // 1024} KiB; is it a FleetX file?"
        )
    return loads_json(text, source)


# --- the typed fleet ------------------------------------------------------------------------------


def card_choices(kind: CardKind) -> list[Card]:
    """Cards of one kind for a select, by name."""
    return sorted((c for c in cards().values() if c.kind is kind), key=lambda c: c.name)


def upgrade_names() -> list[str]:
    """Names of every upgrade card, for the upgrades field's suggestions."""
    return sorted(c.name for c in cards().values() if c.kind is CardKind.UPGRADE)


def _find_card(token: str) -> Card | None:
    every = cards()
    if token in every:
        return every[token]
    key = name_key(token)
    for card in every.values():
        if key in (name_key(card.id), name_key(card.name)):
            return card
    starts = [c for c in every.values() if name_key(c.name).startswith(key)]
    return starts[0] if len(starts) == 1 and key else None


def _suggest(token: str) -> str:
    names = {name_key(c.name): c.name for c in cards().values()}
    close = difflib.get_close_matches(name_key(token), list(names), n=1, cutoff=0.5)
    return f"; did you mean '{names[close[0]]}'?" if close else ""


def whole_number(text: str, most: int = 10**9) -> int | None:
    """A whole number typed in a form, 0 to `most`, or None: ASCII digits only (str.isdigit
    also takes '²' and other digits that int() refuses)."""
    text = text.strip()
    if not text or not text.isascii() or not text.isdigit() or len(text) > len(str(most)):
        return None
    number = int(text)
    return number if number <= most else None


def row_count(values: Mapping[str, str]) -> int:
    """How many ship rows the typed form shows."""
    n = whole_number(str(values.get("rows", START_ROWS)), MAX_ROWS * 10)
    if n is None:
        n = START_ROWS
    return max(1, min(MAX_ROWS, n))


def from_rows(values: Mapping[str, str]) -> tuple[FleetForm, dict[int, int]]:
    """A fleet from the typed form: rows with a ship class become ships, in order.

    Returns the form and the map from each ship's index in the fleet to its form row.
    """
    form = FleetForm()
    pack = builtin_pack()
    count = row_count(values)
    ships: list[FleetShip] = []
    field_of: dict[int, int] = {}
    for row in range(count):
        entered = {f: values.get(f"ship_{row}_{f}", "").strip() for f in SHIP_FIELDS}
        form.rows.append(entered)
        if not entered["class"]:
            if any(entered[f] for f in ("captain", "admiral", "upgrades")):
                form.add(f"ship_{row}_class", "choose the ship class of this row")
            continue
        try:
            cls = pack.get(entered["class"])
        except KolramiError as exc:
            form.add(f"ship_{row}_class", str(exc))
            continue
        squadron_text = entered["squadron"] or "1"
        squadron = whole_number(squadron_text, MAX_SQUADRON)
        if squadron is None or squadron < 1:
            form.add(
                f"ship_{row}_squadron",
                f"'{squadron_text[:20]}': a squadron is a whole number from 1 to {MAX_SQUADRON}",
            )
            continue
        upgrades: dict[str, list[str]] = {}
        for token in (t.strip() for t in entered["upgrades"].split(",")):
            if not token:
                continue
            card = _find_card(token)
            if card is None:
                form.add(f"ship_{row}_upgrades", f"no card '{token}'{_suggest(token)}")
            elif card.kind is not CardKind.UPGRADE or card.type is None:
                form.add(
                    f"ship_{row}_upgrades",
                    f"'{card.name}' is a {card.kind.value}, not an upgrade: choose it in its own "
                    "field",
                )
            else:
                upgrades.setdefault(card.type.value, []).append(card.id)
        data: dict[str, Any] = {"id": cls.id, "squadron": squadron}
        for part in ("captain", "admiral"):
            if entered[part]:
                data[part] = entered[part]
        if upgrades:
            data["upgrades"] = upgrades
        try:
            ship = FleetShip.model_validate(data)
        except ValidationError as exc:  # past a fleet's bounds (kolrami.fleet.document)
            first = exc.errors()[0]
            part = str(first["loc"][0]) if first["loc"] else "class"
            form.add(f"ship_{row}_{part if part in SHIP_FIELDS else 'class'}", first["msg"])
            continue
        field_of[len(ships)] = row
        ships.append(ship)
    fleet_name = values.get("fleet_name", "").strip() or "Typed fleet"
    if not ships and not form.errors:
        form.add("ship_0_class", "a fleet has at least one ship: choose its class")
    if ships:
        doc: dict[str, Any] = {"name": fleet_name, "ships": [s.model_dump() for s in ships]}
        if values.get("resource", "").strip():
            doc["resource"] = values["resource"].strip()
        try:
            form.fleet = read_fleet(doc, "typed fleet")
        except KolramiError as exc:
            form.add("fleet", str(exc))
    return form, field_of


def field_error(
    exc: InvalidInputError,
    fields: Collection[str],
    default: str = "form",
    renamed: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """A refused write's message under the form field it is about: the error's `field` (as
    the store names it; `renamed` gives the form's own name where the two differ) when the form
    has that field, else under `default` (the form's message area)."""
    name = exc.field
    if name is not None and renamed:
        name = renamed.get(name, name)
    return {name if name is not None and name in fields else default: str(exc)}
