"""Write docs/clauses.md: every catalogue clause's id, kind and topic (not its text), so that a
reader of docs/rules.md without ../shared can tell what a cited id is about.

    python scripts/clause_index.py            # rewrite docs/clauses.md from the catalogue
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT.parent / "shared" / "rules" / "catalogue.toml"
OUT = ROOT / "docs" / "clauses.md"


def render(catalogue: dict[str, list[dict[str, str]]]) -> str:
    """The index as Markdown: one table row a clause, in catalogue order."""
    lines = [
        "# Clause index",
        "",
        "Every clause of the rules catalogue by its id, with its kind and topic (a few words,",
        "not the clause). Interpretations are in [rules.md](rules.md) under the same ids; the",
        "catalogue itself, with each clause paraphrased, is `../shared/rules/catalogue.toml` in",
        "the project's shared folder. Written by `scripts/clause_index.py`.",
        "",
        "| Id | Kind | Topic |",
        "|----|------|-------|",
    ]
    for entry in catalogue.get("rule", []):
        topic = entry.get("topic", "").replace("|", "/")
        lines.append(f"| {entry['id']} | {entry.get('kind', '')} | {topic} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Rewrite docs/clauses.md."""
    OUT.write_text(render(tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
