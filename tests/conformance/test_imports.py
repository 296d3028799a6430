"""Imports at the top: a function-level import only loads a heavy or optional
dependency lazily, and a comment beside it says why."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "kolrami"


def function_level_imports() -> list[tuple[Path, int]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    (path, sub.lineno)
                    for sub in ast.walk(node)
                    if isinstance(sub, ast.Import | ast.ImportFrom)
                ]
    return found


def test_every_function_level_import_says_why() -> None:
    silent = []
    for path, line in function_level_imports():
        lines = path.read_text().splitlines()
        here = lines[line - 1]
        top = line - 1  # a run of import lines (one name each) shares the comment above it
        while top > 0 and lines[top - 1].strip().startswith(("import ", "from ")):
            top -= 1
        above = [lines[i].strip() for i in range(max(0, top - 3), top)]
        if "#" not in here and not any(a.startswith("#") for a in above):
            silent.append(f"{path.relative_to(SRC)}:{line}: {here.strip()}")
    assert not silent, "say why the import is lazy, or move it to the top:\n" + "\n".join(silent)


def test_the_engine_rules_and_captains_import_at_the_top() -> None:
    core = ("engine", "rules", "captains", "catalog", "fleet", "scenarios", "tournament")
    inside = [
        f"{path.relative_to(SRC)}:{line}"
        for path, line in function_level_imports()
        if path.relative_to(SRC).parts[0] in core
    ]
    assert inside == []
