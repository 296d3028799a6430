"""docs/clauses.md names every catalogue clause (issue 23: the clause texts live outside the
repository, so the ids and their topics are shipped), and docs/rules.md the pack's data version."""

from __future__ import annotations

import re
from pathlib import Path

from kolrami.catalog import builtin_pack

ROOT = Path(__file__).resolve().parents[2]


def test_every_catalogue_id_has_a_row_in_the_clause_index() -> None:
    listed = (ROOT / "tests" / "conformance" / "catalogue_ids.txt").read_text().splitlines()
    ids = [line for line in listed if line and not line.startswith("#")]
    rows = set(re.findall(r"^\| ([A-Z][A-Z0-9-]+) \| \w+ \| .+ \|$", _index(), re.MULTILINE))
    assert [i for i in ids if i not in rows] == []


def test_the_clause_index_has_topics_not_clause_text() -> None:
    topics = re.findall(r"^\| [A-Z][A-Z0-9-]+ \| \w+ \| (.+) \|$", _index(), re.MULTILINE)
    assert topics
    assert max(len(t) for t in topics) <= 60


def test_rules_md_names_the_data_version_the_pack_has() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    assert re.findall(r"data version (\d+\.\d+\.\d+)", text) == [builtin_pack().data_version]


def _index() -> str:
    return (ROOT / "docs" / "clauses.md").read_text()
