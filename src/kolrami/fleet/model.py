"""Fleets fit to play: a FleetX document read (kolrami.fleet.document), checked by legality for
anything a battle cannot field, from a built-in preset or a file.

The document classes are re-exported here, where most callers import them from.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from kolrami.catalog import ShipPack
from kolrami.errors import DataPackError, InvalidInputError, UnknownNameError
from kolrami.fleet.document import Fleet, FleetShip, member_cards, read_fleet
from kolrami.fleet.legality import PLAY_BLOCKING, validate

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


def load_fleet(ref: str, pack: ShipPack | None = None) -> Fleet:
    """A fleet from 'presets:NAME', a bare preset name, or a FleetX JSON file path."""
    presets = _preset_files()
    name = ref.removeprefix(PRESET_PREFIX)
    if name in presets:
        return parse_fleet(json.loads(presets[name]), f"{PRESET_PREFIX}{name}", pack)
    if ref.startswith(PRESET_PREFIX) or not (ref.endswith(".json") or Path(ref).exists()):
        close = difflib.get_close_matches(name, list(presets), n=1, cutoff=0.4)
        raise UnknownNameError(
            "preset fleet", ref, f"{PRESET_PREFIX}{close[0]}" if close else None, preset_names()
        )
    path = Path(ref)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataPackError(f"{path}: cannot read the fleet: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path}: not valid JSON: {exc}") from None
    return parse_fleet(data, str(path), pack)
