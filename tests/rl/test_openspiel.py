"""Kolrami as an OpenSpiel game: OpenSpiel's own MCTSBot plays whole (short) battles; skipped
where open_spiel is not installed (pip install "kolrami[openspiel]")."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs pip install 'kolrami[openspiel]'")

from open_spiel.python.algorithms import mcts  # noqa: E402

from kolrami.rl import openspiel  # noqa: E402


@pytest.mark.parametrize("scenario", ["standard", "peak-performance"])
def test_mcts_bot_plays_a_whole_battle(scenario: str) -> None:
    game = pyspiel.load_game(openspiel.NAME, {"scenario": scenario, "turns": 1, "seed": 3})
    state = game.new_initial_state()
    bot = mcts.MCTSBot(
        game,
        2.0,
        6,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(1),
    )
    decisions = 0
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 0
    assert sum(state.returns()) == 0
    assert state.match.battle.result is not None


def test_a_clone_searches_with_dice_of_its_own() -> None:
    game = pyspiel.load_game(openspiel.NAME, {"turns": 2, "seed": 5})
    state = game.new_initial_state()
    copy = state.clone()
    assert copy.match.battle is not state.match.battle
    assert copy.match.battle.dice is not state.match.battle.dice
    assert copy.legal_actions() == state.legal_actions()
    other = state.clone()  # every clone of one state plays the same sampled future
    for _ in range(6):
        assert other.legal_actions() == copy.legal_actions()
        action = copy.legal_actions()[-1]
        copy.apply_action(action)
        other.apply_action(action)
    assert other.match.battle.log.sha256() == copy.match.battle.log.sha256()
    rolls = state.match.battle.dice.rolls
    while not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[0])
    assert state.match.battle.dice.rolls == rolls  # the real battle's dice untouched
    observation = game.make_py_observer()
    observation.set_from(state, state.current_player())
    assert observation.tensor.any()
