"""Load data packs from TOML, turning every defect into one message: file, ship, field, problem."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from typing import TypeVar

from pydantic import BaseModel
from pydantic import ValidationError

from kolrami.catalog.models import PackInfo
from kolrami.catalog.models import ShipClass
from kolrami.catalog.models import ShipPack
from kolrami.errors import DataPackError
from kolrami.errors import quoted
from kolrami.errors import read_text

BUILTIN_PACK = "fpf_ships.toml"
#: Kolrami's own ship classes (kolrami.catalog.house), merged after the FPF pack's
HOUSE_PACK = "house_ships.toml"
#: The most bytes of a data pack file read (the built-in pack is under 20 KB).
MAX_PACK_BYTES = 4 * 1024 * 1024

M = TypeVar("M", bound=BaseModel)


def _field_path(loc: tuple[int | str, ...]) -> str:
    """Pydantic's error location as a path: ('phasers', 'arcs', 1) -> 'phasers.arcs[1]'."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part.startswith(("function-", "union", "list[", "tuple[")):
            continue  # pydantic's internal validator steps, not fields
        else:
            path += f".{part}" if path else part
    return path


def _first_problem(err: ValidationError) -> tuple[str, str]:
    first = err.errors()[0]
    path = _field_path(tuple(first["loc"]))
    msg = first["msg"].removeprefix("Value error, ")
    if first["type"] == "missing":
        msg = "required field is missing"
    elif first["type"] not in ("value_error", "too_long", "too_short") and "input" in first:
        msg = f"{msg} (got {quoted(repr(first['input']))})"
    more = len(err.errors()) - 1
    return path, msg + (f" (and {more} more problem{'s' * (more > 1)})" if more else "")


def read_toml(text: str, source: str) -> dict[str, Any]:
    """A data file's TOML as a table, or one message naming the file (`source`)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataPackError(f"{source}: not valid TOML: {exc}") from None


def validated(model: type[M], data: Any, where: str, prefix: str = "", whole: str = "entry") -> M:
    """`data` read by `model`, or one message: `where`, then the field at fault (its name after
    `prefix`), or `whole` when the fault is the entry itself, then what is wrong."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        field, msg = _first_problem(exc)
        at = f"field '{prefix}{field}'" if field else whole
        raise DataPackError(f"{where}: {at}: {msg}") from None


def parse_pack(text: str, source: str) -> ShipPack:
    """Validate a pack's TOML text; `source` names it in error messages."""
    raw = read_toml(text, source)
    info = validated(PackInfo, raw.get("pack"), source, "pack.", "table [pack]")

    entries = raw.get("ship")
    if not isinstance(entries, list) or not entries:
        raise DataPackError(f"{source}: no [[ship]] entries; a pack needs at least one ship")

    ships: list[ShipClass] = []
    first_seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        label = _ship_label(entry, number)
        ship = validated(ShipClass, entry, f"{source}: ship {label}")
        if ship.id in first_seen:
            raise DataPackError(
                f"{source}: ship {label}: field 'id': duplicate id '{ship.id}', already used by "
                f"ship #{first_seen[ship.id]}; give each ship its own id"
            )
        first_seen[ship.id] = number
        ships.append(ship)
    return ShipPack(pack=info, ships=tuple(ships))


def _ship_label(entry: Any, number: int) -> str:
    if isinstance(entry, dict):
        for key in ("id", "name"):
            if isinstance(entry.get(key), str) and entry[key]:
                return f"'{entry[key]}' (#{number})"
    return f"#{number}"


def load_pack(path: str | Path) -> ShipPack:
    """Load and validate a pack file."""
    path = Path(path)
    return parse_pack(read_text(path, "data pack", MAX_PACK_BYTES, DataPackError), str(path))


def merge_packs(base: ShipPack, extra: ShipPack) -> ShipPack:
    """`base` with `extra`'s classes after its own. The header stays `base`'s (its data version
    is the one battles record), `extra`'s is kept in `extra_packs`; an id in both is an error."""
    clash = sorted({s.id for s in base.ships} & {s.id for s in extra.ships})
    if clash:
        raise DataPackError(
            f"pack '{extra.pack.id}': ship id(s) {', '.join(clash)} already in pack "
            f"'{base.pack.id}'; give each class its own id"
        )
    return ShipPack(
        pack=base.pack,
        ships=base.ships + extra.ships,
        extra_packs=(*base.extra_packs, extra.pack, *extra.extra_packs),
    )


def _packaged(name: str) -> ShipPack:
    res = resources.files("kolrami.catalog").joinpath("data", name)
    return parse_pack(res.read_text(encoding="utf-8"), f"kolrami/catalog/data/{name}")


@cache
def fpf_pack() -> ShipPack:
    """The FPF pack alone: the ten classes of the seed's sheets."""
    return _packaged(BUILTIN_PACK)


@cache
def builtin_pack() -> ShipPack:
    """The built-in ships: the FPF pack, then the house pack (our own classes for the other
    species and the bases; docs/rules.md, "House ship data")."""
    return merge_packs(fpf_pack(), _packaged(HOUSE_PACK))
