"""Moving fleets between tools: FleetX JSON, a compact share string and a plain-text list.

Imports re-validate and keep unknown ids (legality reports them); exports record the data
version the fleet was built against, so a fleet opened with other data can say so.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from kolrami.catalog import ShipPack
from kolrami.catalog import builtin_pack
from kolrami.errors import InvalidInputError
from kolrami.errors import loads_json
from kolrami.fleet.document import MAX_FLEET_BYTES
from kolrami.fleet.legality import FleetReport
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import fleet_json
from kolrami.fleet.model import read_fleet

SHARE_PREFIX = "KF1-"  # Kolrami fleet, share format 1
#: The longest share string read: a fleet of the most ships with every card is under 8,000
#: characters; a longer string is not a fleet (it could inflate to far more than a fleet).
MAX_SHARE_CHARS = 32 * 1024


def to_fleetx(fleet: Fleet, pack: ShipPack | None = None) -> dict[str, Any]:
    """The FleetX document, stamped with the data version it was built against."""
    pack = pack or builtin_pack()
    data = fleet.model_dump(mode="json", exclude_none=True)
    vendor = dict(data.get("vendor", {}))
    ours = vendor.get("kolrami")
    # our own namespace: anything else found there is replaced, never fatal
    vendor["kolrami"] = {
        **(ours if isinstance(ours, dict) else {}),
        "data_version": pack.data_version,
    }
    data["vendor"] = vendor
    return data


def dumps(fleet: Fleet, pack: ShipPack | None = None) -> str:
    """FleetX JSON text."""
    return json.dumps(to_fleetx(fleet, pack), indent=2, ensure_ascii=False) + "\n"


def share_string(fleet: Fleet, pack: ShipPack | None = None) -> str:
    """A compact, copy-pasteable string: 'KF1-' + base64url of zlib-compressed JSON."""
    raw = json.dumps(to_fleetx(fleet, pack), separators=(",", ":"), ensure_ascii=False)
    packed = base64.urlsafe_b64encode(zlib.compress(raw.encode(), 9)).decode().rstrip("=")
    return SHARE_PREFIX + packed


def from_share_string(text: str) -> Fleet:
    """The fleet inside a share string.

    Bounded before anything is inflated: at most MAX_SHARE_CHARS characters, and the JSON inside
    at most MAX_FLEET_BYTES (a small string can inflate a thousandfold); then the fleet's own
    bounds (kolrami.fleet.document).
    """
    body = text.strip().removeprefix(SHARE_PREFIX)
    if len(body) > MAX_SHARE_CHARS:
        raise InvalidInputError(
            f"share string of {len(text.strip()):,} characters: a fleet's is under "
            f"{MAX_SHARE_CHARS:,}; copy the one Kolrami printed (kolrami fleet export)"
        )
    broken = "not a Kolrami share string: it should start with KF1- and be copied whole"
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(
            base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), MAX_FLEET_BYTES + 1
        )
        complete = inflate.eof
        text_json = raw.decode("utf-8") if complete else ""
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError):
        raise InvalidInputError(broken) from None
    if len(raw) > MAX_FLEET_BYTES:
        raise InvalidInputError(
            f"share string: the fleet inside is larger than {MAX_FLEET_BYTES // 1024} KiB, more "
            "than any fleet; it was not made by Kolrami (kolrami fleet export)"
        )
    if not complete:
        raise InvalidInputError(broken)
    return read_fleet(loads_json(text_json, "share string"), "share string")


def load_any(ref: str) -> Fleet:
    """A fleet from a share string, a FleetX file, or presets:NAME (shape checked only)."""
    if ref.strip().startswith(SHARE_PREFIX):
        return from_share_string(ref)
    data, source = fleet_json(ref)
    return read_fleet(data, source)


def data_version_note(fleet: Fleet, pack: ShipPack | None = None) -> str | None:
    """A warning when the fleet was built against other data, else None."""
    pack = pack or builtin_pack()
    ours = fleet.vendor.get("kolrami") if fleet.vendor else None
    built = ours.get("data_version") if isinstance(ours, dict) else None
    if built and built != pack.data_version:
        return (
            f"this fleet was built against data {built}; this Kolrami has "
            f"{pack.data_version}: check its totals"
        )
    return None


def as_text(report: FleetReport) -> str:
    """A plain-text list, squadron by squadron, with every card's SP and the totals."""
    fleet = report.fleet
    lines = [f"{fleet.name}" + (f" ({fleet.faction})" if fleet.faction else "")]
    current = None
    for ship in report.ships:
        if ship.squadron != current:
            current = ship.squadron
            lines.append(f"Squadron {current}")
        rows = " + ".join(f"{r.title} {r.sp}" for r in ship.lines)
        lines.append(f"  {rows} = {ship.total_sp} SP")
    if report.resource:
        lines.append(f"Resource: {report.resource.title} {report.resource.sp}")
    limit = report.settings.sp_limit
    lines.append(f"Total Build: {report.total_build} SP" + (f" of {limit}" if limit else ""))
    if report.errors:
        lines.append(f"Not legal: {len(report.errors)} problem(s); run kolrami fleet validate")
    return "\n".join(lines) + "\n"
