"""One door for every change: the rules change a ship's numbers only by recording a
Change event through `Battle.record`, whose `apply` is the only code that sets them. Then the
log holds exactly what the battle became, and its readers apply the same facts.

Checked over the source: no FPF-family rule module assigns a ship's numbers itself, and no code
logs a Change through the log's compact `record` (which would log it without applying it).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from kolrami.engine.events import Change
from kolrami.rules import events as ev
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import tactics_events as te

SRC = Path(__file__).resolve().parents[2] / "src" / "kolrami"

#: a ship's numbers: what damage, repairs, cards and resets change
NUMBERS = frozenset(
    {
        "superstructure",
        "shields",
        "engine_power",
        "systems",
        "max_shields",
        "max_engine",
        "max_systems",
        "damage_control",
        "evasion",
        "tokens",
        "cards",
        "strength",
        "ranges",
        "mounts",
        "out_of_play",
    }
)

#: the FPF family's rule modules (the advanced game keeps its own numbers, rules/advanced)
FPF_FAMILY = [
    *sorted((SRC / "rules" / "fpf").glob("*.py")),
    SRC / "rules" / "cards.py",
    SRC / "rules" / "peak.py",
    SRC / "rules" / "sandbox.py",
]


def assigned(source: str, name: str) -> list[str]:
    """'name:line attr' for every assignment to a ship's number in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if not isinstance(node, ast.stmt):
            continue
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets for t in _flat(target)]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = _flat(node.target)
        for t in targets:
            if isinstance(t, ast.Subscript):
                t = t.value
            if isinstance(t, ast.Attribute) and t.attr in NUMBERS:
                found.append(f"{name}:{node.lineno} {t.attr}")
    return found


def _flat(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        return [t for element in target.elts for t in _flat(element)]
    return [target]


def test_the_fpf_family_changes_a_ships_numbers_only_through_change_events() -> None:
    found = [
        line
        for path in FPF_FAMILY
        for line in assigned(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))
    ]
    assert found == [], f"set through battle.record(<Change>(...)) instead: {found}"


def test_the_check_sees_an_assignment() -> None:
    source = "def f(ship):\n    ship.shields -= 1\n    ship.x, ship.tokens = 0, 1\n"
    assert assigned(source, "sample") == ["sample:2 shields", "sample:3 tokens"]


def change_kinds() -> set[str]:
    return {
        name
        for module in (ev, ae, te)
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Change) and cls is not Change
    }


def test_no_change_is_logged_without_being_applied() -> None:
    kinds = change_kinds()
    assert {"HitScored", "Repaired", "CardUsed", "ShipReset", "ShipReturned"} <= kinds
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "record"
                and node.args
                and isinstance(node.args[0], ast.Attribute | ast.Name)
            ):
                first = node.args[0]
                name = first.attr if isinstance(first, ast.Attribute) else first.id
                if name in kinds:
                    found.append(f"{path.relative_to(SRC)}:{node.lineno} {name}")
    assert found == [], f"log a change with battle.record(<Change>(...)): {found}"
