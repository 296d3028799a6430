"""docs/research.md stays true to the code: every macro-action and observation field it lists is
the code's, in the code's order."""

from __future__ import annotations

import re
from pathlib import Path

from kolrami.captains.features import GLOBAL
from kolrami.captains.features import SHIP
from kolrami.captains.macro import ACTIONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def rows(header: str) -> list[tuple[str, str]]:
    """(first cell, second cell's name) of the table under the header line `header`."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(header) + 2
    out = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        out.append((cells[0], re.sub(r"`", "", cells[1])))
    return out


def test_the_action_table_is_the_code_s() -> None:
    table = rows("| index | action | order |")
    assert table == [(str(i), name) for i, name in enumerate(ACTIONS)]


def test_the_observation_tables_are_the_code_s() -> None:
    fields = rows("| index | field | meaning |")
    assert [name for _, name in fields[: len(GLOBAL)]] == list(GLOBAL)
    assert [name for _, name in rows("| offset | field | meaning |")] == list(SHIP)
