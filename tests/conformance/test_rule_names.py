"""Readers above the rules ask a battle's capabilities, never a rule module's name.

The Peak Performance module's name, "battle-simulation", belongs to rules/ (where the module is
defined) and to the scenario data that switches it on; anywhere else, code that tests it should
ask for a Capability (kolrami.rules.module) instead.
"""

from __future__ import annotations

from pathlib import Path

import kolrami

NAME = b"battle-simulation"
SRC = Path(kolrami.__file__).resolve().parent

#: Where the name may appear: the rule modules, and the scenarios that switch a module on.
ALLOWED = (SRC / "rules", SRC / "scenarios" / "data")


def _inside(path: Path, folders: tuple[Path, ...]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def test_the_module_name_stays_in_rules() -> None:
    found = [
        str(path.relative_to(SRC))
        for path in sorted(SRC.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and not _inside(path, ALLOWED)
        and NAME in path.read_bytes()
    ]
    assert found == [], f"ask battle.rules.capabilities instead of the module name in {found}"


def test_the_check_sees_the_rules_module() -> None:
    # the name is where the check expects it, so the search above does look at these files
    assert NAME in (SRC / "rules" / "peak.py").read_bytes()
