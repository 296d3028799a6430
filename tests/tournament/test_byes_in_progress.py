"""Issue 47 item 19: byes and the standings as the rules give them.

A bye's Battle and Fleet Points count at the end of its round (OP-18, OP-20, OP-10), not from
its pairing; with more rounds than players a second bye goes to a player with the fewest byes
(OP-09 read on); a results file with a bye OP-09 would not give is counted, with a warning; a
correction after the next round was paired is accepted with a word on that round's bye."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kolrami.cli import app
from kolrami.tournament.core import Game
from kolrami.tournament.core import bye_counts
from kolrami.tournament.core import bye_warnings
from kolrami.tournament.core import pair_round
from kolrami.tournament.core import stale_pairing_note
from kolrami.tournament.core import standings

runner = CliRunner()
PLAYERS = ["Ann", "Ben", "Cat"]
ROUND_1 = [Game(1, "Ann", "Ben", "Ann", (("Ann", 120), ("Ben", 40))), Game(1, "Cat", None)]


@pytest.mark.rule("OP-18", "OP-20", "OP-10")
def test_a_rounds_bye_counts_at_the_end_of_the_round() -> None:
    playing = [Game(2, "Cat", "Ann"), Game(2, "Ben", None)]  # round 2 paired, nothing in
    during = {s.player: s for s in standings(PLAYERS, [ROUND_1, playing])}
    assert during["Ben"].battle_points == 1  # his round-1 loss only: the bye is not in yet
    assert during["Ben"].fleet_points == 40
    assert during["Ben"].byes == 0
    assert during["Ann"].rank == 1  # not Ben, first on 3 BP while round 2 is played
    done = [Game(2, "Cat", "Ann", "Cat", (("Cat", 90), ("Ann", 70))), Game(2, "Ben", None)]
    after = {s.player: s for s in standings(PLAYERS, [ROUND_1, done])}
    assert after["Ben"].battle_points == 1 + 2  # OP-18: a bye is 2 Battle Points
    assert after["Ben"].fleet_points == 40 + 80  # OP-10: the mean of 90 and 70
    assert after["Ben"].byes == 1


@pytest.mark.rule("OP-09")
@pytest.mark.parametrize("players", [3, 5])
def test_with_more_rounds_than_foreseen_byes_go_to_the_fewest_byes(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    rounds: list[list[Game]] = []
    for number in range(1, 2 * players + 1):
        pairing = pair_round(number, names, rounds, seed=11)
        games = []  # the first by name wins each table, 60 to 50
        for g in pairing.games:
            a, b = g.a, g.b
            if b is None:
                games.append(g)
                continue
            w = min(a, b)
            games.append(
                Game(number, a, b, w, ((a, 60 if a == w else 50), (b, 60 if b == w else 50)))
            )
        rounds.append(games)
        counts = bye_counts(rounds)
        most, least = max(counts.values()), min(counts.get(p, 0) for p in names)
        assert most - least <= 1, (number, counts)  # one player got 4 of 6 before
    assert bye_warnings(rounds) == []


def _results_file(tmp_path: Path) -> Path:
    doc = {
        "players": PLAYERS,
        "rounds": [
            [
                {"a": "Ann", "b": "Ben", "winner": "Ann", "fp": {"Ann": 120, "Ben": 40}},
                {"bye": "Cat"},
            ],
            [
                {"a": "Ann", "b": "Ben", "winner": "Ben", "fp": {"Ann": 30, "Ben": 80}},
                {"bye": "Cat"},
            ],
        ],
    }
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.rule("OP-09")
def test_standings_from_a_file_warn_of_a_second_bye(tmp_path: Path) -> None:
    path = _results_file(tmp_path)
    plain = runner.invoke(app, ["tournament", "standings", "--from", str(path)])
    assert plain.exit_code == 0, plain.output
    warned = plain.stderr
    assert "Warning: round 2: Cat has a bye again (bye 2) while Ann, Ben had none" in warned
    assert "OP-09" in warned
    assert "Cat" in plain.stdout  # still counted as the file says
    data = json.loads(
        runner.invoke(app, ["tournament", "standings", "--from", str(path), "--json"]).stdout
    )
    assert len(data["warnings"]) == 1
    assert {r["player"]: r["byes"] for r in data["standings"]}["Cat"] == 2


def test_stale_pairing_note_names_the_bye_the_correction_would_move() -> None:
    # round 1 said Ann beat Ben; round 2 gave the bye to Ben (the fewest Battle Points)
    r2 = pair_round(2, PLAYERS, [ROUND_1], seed=3)
    assert [g.a for g in r2.games if g.bye] == ["Ben"]
    fixed = [Game(1, "Ann", "Ben", "Ben", (("Ann", 40), ("Ben", 120))), ROUND_1[1]]
    note = stale_pairing_note(1, [fixed, list(r2.games)], 3)
    assert "round 2 was paired on round 1's old result" in note
    assert "its bye went to Ben; on the corrected standings it would go to Ann (OP-09)" in note
    assert "cancel-round --repair" in note
    assert stale_pairing_note(2, [fixed, list(r2.games)], 3) == ""  # no round after round 2


def test_a_correction_after_the_next_round_was_paired_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")

    def ok(*args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 0, result.output
        return result.stdout

    ok("tournament", "new", "Byes", "--seed", "3")
    presets = ("klingon-strike", "federation-cruisers", "klingon-raiders")
    for name, preset in zip(PLAYERS, presets, strict=True):
        ok("tournament", "player", "add", name, "--fleet", f"presets:{preset}")
    ok("tournament", "pair")
    from kolrami.tournament.store import Store

    game = next(g for g in Store(db).games("Byes", 1) if g["b"] is not None)
    winner, loser = game["a"], game["b"]
    ok("tournament", "result", winner, "--win", "--fp", "30", "--anyway")
    said = ok("tournament", "result", loser, "--loss", "--fp", "20", "--round", "1", "--anyway")
    assert "Note:" not in said  # nothing paired after round 1 yet
    ok("tournament", "pair")
    bye = next(g["a"] for g in Store(db).games("Byes", 2) if g["b"] is None)
    assert bye == loser
    fixed = ok(
        *("tournament", "result", loser, "--win", "--fp", "40", "--round", "1", "--anyway"),
        *("--correct", "--why", "the sheets were swapped"),
    )
    text = " ".join(fixed.split())
    assert "corrected:" in text
    assert "Note: round 2 was paired on round 1's old result" in text
    assert f"its bye went to {loser}; on the corrected standings it would go to {winner}" in text
