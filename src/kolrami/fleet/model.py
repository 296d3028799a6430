"""Fleets fit to play: a FleetX document read (kolrami.fleet.document), checked by legality for
anything a battle cannot field, from a built-in preset or a file.

The document classes are re-exported here, where most callers import them from.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from kolrami.catalog import ShipPack
from kolrami.catalog.loader import fpf_pack
from kolrami.catalog.names import Names
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.errors import file_kind
from kolrami.errors import loads_json
from kolrami.errors import path_is
from kolrami.errors import quoted
from kolrami.errors import read_text
from kolrami.fleet.document import MAX_FLEET_BYTES
from kolrami.fleet.document import Fleet
from kolrami.fleet.document import FleetShip
from kolrami.fleet.document import member_cards
from kolrami.fleet.document import read_fleet
from kolrami.fleet.legality import PLAY_BLOCKING
from kolrami.fleet.legality import validate

__all__ = [
    "PRESET_PREFIX",
    "Fleet",
    "FleetShip",
    "load_fleet",
    "member_cards",
    "parse_fleet",
    "preset_names",
    "read_fleet",
]

PRESET_PREFIX = "presets:"


def parse_fleet(data: Any, source: str, pack: ShipPack | None = None) -> Fleet:
    """A fleet fit to play: its shape valid and nothing in it that a battle cannot field.

    Budget and other squad-building limits are not checked here (see legality.validate);
    problems that stop a battle (unknown ids, squadrons over three, cards in the wrong place)
    are, with the first one named and how many there are.
    """
    fleet = read_fleet(data, source)
    report = validate(fleet, limit=None, pack=pack)
    blocking = [e for e in report.errors if e.code in PLAY_BLOCKING]
    if blocking:
        first = blocking[0]
        more = f" (and {len(blocking) - 1} more)" if len(blocking) > 1 else ""
        raise InvalidInputError(f"{source}: {first.path}: {first.message}{more}")
    return fleet


@cache
def _preset_files() -> dict[str, str]:
    folder = resources.files("kolrami.fleet").joinpath("presets")
    return {
        p.name.removesuffix(".json"): p.read_text(encoding="utf-8")
        for p in folder.iterdir()
        if p.name.endswith(".json")
    }


def preset_names() -> list[str]:
    """Names of the built-in preset fleets."""
    return sorted(_preset_files())


@cache
def fpf_preset_names() -> list[str]:
    """The presets made of the FPF pack's classes only (the seeds' ships): the fleets the
    long-standing samples (captain strength, the referee's battles) are drawn from, so that the
    house presets (catalog/data/house_ships.toml) leave those samples as they were."""
    fpf = {s.id for s in fpf_pack().ships}
    return [
        name
        for name in preset_names()
        if all(
            isinstance(ship, dict) and ship.get("id") in fpf
            for ship in json.loads(_preset_files()[name]).get("ships", [])
        )
    ]


@cache
def preset_lookup() -> Names[str]:
    """The presets by name ('klingon-strike'), as 'presets:NAME' and by the fleet's own name
    ('Klingon strike group'), found loosely (kolrami.catalog.names)."""
    names: Names[str] = Names("preset fleet")
    for name in preset_names():
        title = json.loads(_preset_files()[name]).get("name")
        names.add(name, f"{PRESET_PREFIX}{name}", name, title if isinstance(title, str) else None)
    return names


def fleet_text(ref: str) -> tuple[str, str]:
    """(JSON text, source) of the fleet `ref` names: a preset ('presets:NAME', a bare or loose
    preset name) or a FleetX file. Anything else is one line saying what `ref` may be."""
    shown = ref.strip()
    if not shown:
        raise InvalidInputError(
            "no fleet given: name a FleetX file, a share string (KF1-...) or presets:NAME"
        )
    presets = preset_lookup()
    path = Path(ref)
    is_file = not ref.startswith(PRESET_PREFIX) and path_is(path, "file")
    name = presets.get(ref.removeprefix(PRESET_PREFIX)) if not is_file else None
    if name is not None:
        return _preset_files()[name], f"{PRESET_PREFIX}{name}"
    if ref.startswith(PRESET_PREFIX):
        raise UnknownNameError(
            "preset fleet",
            ref,
            presets.suggest(ref.removeprefix(PRESET_PREFIX)),
            presets.labels,
        )
    if path_is(path, "dir"):
        raise InvalidInputError(f"'{quoted(ref)}' is a folder; name a FleetX file (.json) in it")
    if not is_file:
        if shown.upper().startswith("KF") and "-" in shown[:6]:
            raise InvalidInputError(
                f"'{quoted(shown)}' is not a share string this Kolrami reads: they start KF1- "
                "and are copied whole"
            )
        if path.suffix or "/" in ref or "\\" in ref:  # meant as a file
            if not _exists(path):
                raise InvalidInputError(f"{quoted(path)}: cannot read the fleet: no such file")
            return read_text(path, "fleet", MAX_FLEET_BYTES), str(path)  # says why not
        hint = presets.suggest(ref)
        more = (
            f"did you mean {' or '.join(repr(h) for h in hint)}?"
            if hint
            else f"presets: {', '.join(presets.labels)}"
        )
        raise InvalidInputError(
            f"'{quoted(ref)}' is no fleet file, share string (KF1-...) or preset fleet; {more}"
        )
    return read_text(path, "fleet", MAX_FLEET_BYTES), str(path)


def _exists(path: Path) -> bool:
    """True when something is at `path` (False for a name the system cannot look up)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def fleet_json(ref: str) -> tuple[Any, str]:
    """(JSON data, source) of the fleet `ref` names (see fleet_text)."""
    text, source = fleet_text(ref)
    kind = file_kind(text)
    if kind is not None:  # a log or an export is JSON too: say what it is, not what it lacks
        raise InvalidInputError(
            f"{source} is {kind}, not a fleet; give a FleetX file (.json), a share string "
            "(KF1-...) or presets:NAME"
        )
    return loads_json(text, source), source


def load_fleet(ref: str, pack: ShipPack | None = None) -> Fleet:
    """A fleet fit to play from a preset ('presets:NAME', a bare or loose preset name) or a
    FleetX JSON file path."""
    data, source = fleet_json(ref)
    return parse_fleet(data, source, pack)
