"""`kolrami tournament pairings`, `slips`, and the edits (issue 17, items 4 and 6): a refusal
is one line, exit code 2, and changes nothing stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import cup
from cli_kit import dump

from kolrami.cli import main
from kolrami.tournament.store import Store


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return cup(tmp_path / "cli-edits.db", ("Zoe", "ann", "Bea", "Cal", "Dan"))


def refused(db: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = dump(db)
    capsys.readouterr()
    assert main([*args, "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert message in err[0]
    assert dump(db) == before


@pytest.mark.rule("OP-12")
def test_edits_before_round_1_and_refused_after(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = ["--db", str(db)]
    assert main(["tournament", "player", "rename", "Dan", "Dana", *d]) == 0
    assert (
        main(["tournament", "player", "fleet", "Dana", "--fleet", "presets:klingon-raiders", *d])
        == 0
    )
    assert main(["tournament", "player", "remove", "Cal", *d]) == 0
    assert (
        main(["tournament", "player", "add", "Cal", "--fleet", "presets:klingon-strike", *d]) == 0
    )
    assert main(["tournament", "pair", *d]) == 0
    refused(db, ["tournament", "player", "rename", "Dana", "Dan"], "(OP-12)", capsys)
    refused(db, ["tournament", "player", "remove", "Dana"], "(OP-12)", capsys)
    refused(
        db,
        ["tournament", "player", "fleet", "Dana", "--fleet", "presets:klingon-strike"],
        "(OP-12)",
        capsys,
    )


def test_pairings_slips_swap_and_cancel(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = ["--db", str(db)]
    refused(db, ["tournament", "pairings", "Cup"], "no round paired yet", capsys)
    assert main(["tournament", "pair", *d]) == 0
    capsys.readouterr()
    assert main(["tournament", "pairings", "Cup", "--json", *d]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [r["player"] for r in shown["by_name"]] == ["ann", "Bea", "Cal", "Dan", "Zoe"]
    assert main(["tournament", "pairings", "Cup", "--by-name", *d]) == 0
    table = capsys.readouterr().out
    assert table.index("ann") < table.index("Bea") < table.index("Zoe")
    assert "Build check (OP-14)" not in table
    assert main(["tournament", "pairings", "Cup", *d]) == 0
    assert "Build check (OP-14)" in capsys.readouterr().out
    out = tmp_path / "slips.html"
    assert main(["tournament", "slips", "Cup", "--out", str(out), *d]) == 0
    html = out.read_text()
    tables = [t for t in shown["tables"] if t["b"]]
    assert html.count('class="slip"') == len(tables)
    assert "<style>" in html  # stand-alone: its style inside
    refused(
        db,
        ["tournament", "slips", "Cup", "--out", str(tmp_path / "x.pdf")],
        "an .html file",
        capsys,
    )
    assert not (tmp_path / "x.pdf").exists()
    refused(db, ["tournament", "swap", "Zoe", "Nobody"], "no player 'Nobody'", capsys)
    first, second = tables[0]["a"], tables[1]["a"]
    assert main(["tournament", "swap", first, second, *d]) == 0
    assert main(["tournament", "cancel-round", "--repair", *d]) == 0
    assert main(["tournament", "result", "1", tables[0]["a"], "--fp", "10", "--anyway", *d]) == 0
    refused(db, ["tournament", "cancel-round"], "cancelled only before any result", capsys)


def test_undrop(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = ["--db", str(db)]
    assert main(["tournament", "player", "drop", "Bea", *d]) == 0
    assert main(["tournament", "player", "undrop", "Bea", *d]) == 0
    refused(db, ["tournament", "player", "undrop", "Bea"], "has not dropped", capsys)


def test_the_owner_is_removed_only_by_himself_or_after_handing_over(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 44: a co-organizer cannot remove the event's owner (exit 2, nothing changed)."""
    store = Store(str(db))
    mara = store.create_organizer("mara", "hash")
    store.create_organizer("lee", "hash")
    store.adopt_event("Cup", mara, "organizer mara")
    store.share_event("Cup", "lee", "organizer mara")
    store.engine.dispose()
    d = ["--db", str(db)]
    remove, hand_over = ["tournament", "organizer", "--remove"], ["tournament", "organizer"]
    refused(db, [*remove, "mara", "--as", "lee"], "'mara' owns Cup", capsys)
    refused(db, [*hand_over, "lee", "--hand-over", "--as", "lee"], "only the owner", capsys)
    refused(db, [*remove, "lee", "--as", "zed"], "no organizer account", capsys)
    refused(db, [*hand_over, "lee", "--as", "mara"], "--remove or --hand-over", capsys)
    assert main([*hand_over, "lee", "--hand-over", "--as", "mara", *d]) == 0
    assert main([*remove, "mara", "--as", "lee", *d]) == 0
    assert [o["username"] for o in Store(str(db)).co_organizers("Cup")] == ["lee"]
