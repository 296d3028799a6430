"""A ship's fields are declared once (kolrami.engine.ship_fields): ShipState's declarations,
`__init__` and `copy`, and its snapshot's slots and `__init__`, are the table's, written out by
scripts/gen_ship_fields.py."""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import fields
from pathlib import Path
from types import ModuleType

from kolrami.engine.battle import ShipState
from kolrami.engine.ship_fields import FIELDS
from kolrami.engine.view import snapshot
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

ROOT = Path(__file__).resolve().parents[2]


def fresh_ship() -> ShipState:
    fleets = (load_fleet("presets:federation-cruisers"), load_fleet("presets:klingon-wolfpack"))
    return new_battle(builtin_scenario("standard"), fleets, 1).ships["A1"]


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
    """Read off the source: a compiled class has no `__slots__` to look at."""
    source = (ROOT / "src" / "kolrami" / "engine" / "view.py").read_text(encoding="utf-8")
    fields_class = next(
        n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == "_ShipFields"
    )
    slots_node = next(
        n.value
        for n in fields_class.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__slots__"
    )
    slots = set(ast.literal_eval(slots_node))
    viewed = {f.view_name or f.name for f in FIELDS if f.view is not None}
    assert slots == viewed
    assert "lock" not in slots  # a view holds no lock
    assert "index" not in slots  # nor the battle's order of ships
    taken = snapshot(fresh_ship())
    for name in viewed:
        assert hasattr(taken, name), name


def test_a_changed_table_changes_the_code() -> None:
    """The check can fail: a row added to the table is missing from the files until written."""
    gen = generator()
    extra = gen.ShipField("shadow", "int", "0")
    setattr(gen, "FIELDS", (*gen.FIELDS, extra))  # noqa: B010  (a module's global, for the test)
    path = gen.FILES[0]
    text = path.read_text(encoding="utf-8")
    new = gen.generated(text)
    assert "shadow: int = 0" in new
    assert "self.shadow = shadow" in new
    assert "other.shadow = self.shadow" in new
