"""Kolrami as an OpenSpiel Python game, `python_kolrami` (pip install "kolrami[openspiel]"), so
that OpenSpiel's own algorithms (MCTSBot, ...) play FPF battles.

    import pyspiel
    import kolrami.rl.openspiel  # registers the game
    game = pyspiel.load_game("python_kolrami", {"scenario": "standard", "turns": 4})
    state = game.new_initial_state()

Players 0 and 1 are sides A and B; actions are kolrami.rl's macro-actions (the legal ones are
the offered ones); the returns are the scenario's result (win 1, draw 0, loss -1). The dice are
inside the battle (a sampled stochastic game): `state.clone()` copies the battle with dice of
its own (`Battle.clone`), the same for every clone of one state, so a search never sees the
real battle's future rolls and its tree stays consistent (`KolramiState.clone`). The observation
tensor is the current player's `kolrami.captains.features` vector (FPF hides nothing: perfect
information). The n-th initial state a game makes plays the battle of seed `seed + n`.
"""

from __future__ import annotations

import itertools
from typing import Any
from typing import Final

import numpy as np
import pyspiel

from kolrami.captains.features import SIZE
from kolrami.captains.macro import ACTIONS
from kolrami.captains.macro import N_ACTIONS
from kolrami.engine.chance import Dice
from kolrami.engine.chance import derive_seed
from kolrami.rl.core import SIDES
from kolrami.rl.core import Match
from kolrami.rl.core import configure

NAME: Final = "python_kolrami"
#: The game's parameters and their defaults (fleets "": the scenario's, as `kolrami battle`).
PARAMETERS: Final[dict[str, Any]] = {
    "scenario": "standard",
    "turns": 12,
    "fleet_a": "",
    "fleet_b": "",
    "seed": 0,
}
#: The longest a battle can be, in decisions (OpenSpiel asks for a bound).
MAX_DECISIONS: Final = 4000

GAME_TYPE: Final = pyspiel.GameType(
    short_name=NAME,
    long_name="Kolrami FPF battle",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)
GAME_INFO: Final = pyspiel.GameInfo(
    num_distinct_actions=N_ACTIONS,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_DECISIONS,
)


class KolramiGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel is untyped)
    """An FPF battle as an OpenSpiel game (the parameters of PARAMETERS)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**PARAMETERS, **(params or {})}
        super().__init__(GAME_TYPE, GAME_INFO, given)
        fleets = None
        if given["fleet_a"] or given["fleet_b"]:
            fleets = (
                str(given["fleet_a"]) or "presets:federation-cruisers",
                str(given["fleet_b"]) or "presets:klingon-wolfpack",
            )
        self.config = configure(str(given["scenario"]), fleets, (), int(given["turns"]))
        self.seed = int(given["seed"])
        self._made = itertools.count()

    def new_initial_state(self) -> KolramiState:
        return KolramiState(self, Match(self.config, self.seed + next(self._made)))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        return Observer()


class KolramiState(pyspiel.State):  # type: ignore[misc]  # (pyspiel is untyped)
    """A battle at one decision."""

    def __init__(self, game: KolramiGame, match: Match) -> None:
        super().__init__(game)
        self.match = match

    def current_player(self) -> int:
        side = self.match.to_move()
        return int(pyspiel.PlayerId.TERMINAL) if side is None else SIDES.index(side)

    def _legal_actions(self, player: int) -> list[int]:
        return self.match.choices().legal()

    def _apply_action(self, action: int) -> None:
        self.match.act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if not self.match.over:
            order = self.match.choices().orders[action]
            if order is not None:
                return f"{ACTIONS[action]} ({order})"
        return ACTIONS[action]

    def is_terminal(self) -> bool:
        return self.match.over

    def returns(self) -> list[float]:
        outcome = self.match.outcome()
        return [outcome["A"], outcome["B"]]

    def clone(self) -> KolramiState:
        """A copy to search on: the battle cloned with dice of its own, never the real battle's
        future rolls. Every clone of one state gets the same dice (derived from the battle's
        seed and its log's length), so a search's tree sees one sampled future and stays
        consistent: the same path, the same decisions (a determinized search; the real
        battle's rolls differ)."""
        battle = self.match.battle
        seed = derive_seed(self.match.seed, "openspiel", len(battle.log), battle.dice.rolls)
        return KolramiState(self.get_game(), self.match.clone(Dice(seed)))

    def __str__(self) -> str:
        return self.match.text()


class Observer:
    """The current player's observation: kolrami.rl's feature vector, and the battle's text."""

    def __init__(self) -> None:
        self.tensor = np.zeros(SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KolramiState, player: int) -> None:
        self.tensor[:] = state.match.observation(SIDES[player])

    def string_from(self, state: KolramiState, player: int) -> str:
        return state.match.text()


pyspiel.register_game(GAME_TYPE, KolramiGame)
