"""A ship's fields are declared once (kolrami.engine.ship_fields): ShipState's declarations,
`__init__` and `copy`, and its snapshot's slots and `__init__`, are the table's, written out by
scripts/gen_ship_fields.py."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import fields
from pathlib import Path
from types import ModuleType

from kolrami.engine.battle import ShipState
from kolrami.engine.ship_fields import FIELDS
from kolrami.engine.view import ShipView

ROOT = Path(__file__).resolve().parents[2]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_ship_fields", ROOT / "scripts" / "gen_ship_fields.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_ship_fields"] = module
    spec.loader.exec_module(module)
    return module


def test_the_written_out_fields_are_the_tables() -> None:
    gen = generator()
    for path in gen.FILES:
        text = path.read_text(encoding="utf-8")
        assert gen.formatted(gen.generated(text), path) == text, (
            f"{path.name} is not the table's: run python scripts/gen_ship_fields.py"
        )


def test_every_region_is_marked_once() -> None:
    gen = generator()
    found = [m["name"] for path in gen.FILES for m in gen.MARK.finditer(path.read_text("utf-8"))]
    assert sorted(found) == sorted(gen.REGIONS)


def test_the_table_is_shipstates_fields_in_order() -> None:
    assert [f.name for f in fields(ShipState)] == [f.name for f in FIELDS]


def test_the_snapshot_has_every_viewed_field() -> None:
    viewed = {f.view_name or f.name for f in FIELDS if f.view is not None}
    slots = set(getattr(ShipView.__mro__[1], "__slots__", ()))
    assert slots == viewed
    assert "lock" not in slots
    assert "index" not in slots


def test_a_changed_table_changes_the_code() -> None:
    """The check can fail: a row added to the table is missing from the files until written."""
    gen = generator()
    extra = gen.ShipField("shadow", "int", "0")
    gen.FIELDS = (*gen.FIELDS, extra)
    path = gen.FILES[0]
    text = path.read_text(encoding="utf-8")
    new = gen.generated(text)
    assert "shadow: int = 0" in new
    assert "self.shadow = shadow" in new
    assert "other.shadow = self.shadow" in new
