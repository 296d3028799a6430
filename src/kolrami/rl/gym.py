"""Kolrami as a Gymnasium environment: one side's agent against any captain, built-in or a
plugin (`kolrami captains`, a module or file path, an entry point).

    from kolrami.rl.gym import KolramiGym
    env = KolramiGym(scenario="standard", opponent="aggressive", turns=4)
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(obs["action_mask"]))

The opponent answers its decisions with its own side's view, as in `kolrami battle`; the agent
steps only at its own side's decisions. Observation and actions are the AEC environment's
(docs/research.md); `action_masks()` gives the mask for libraries that ask for it.
"""

from __future__ import annotations

from typing import Any
from typing import Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from kolrami.captains.base import Captain
from kolrami.captains.macro import BLOCKS
from kolrami.captains.macro import N_ACTIONS
from kolrami.captains.macro import kind_of
from kolrami.captains.registry import captain_factory
from kolrami.captains.registry import make_captain
from kolrami.engine.driver import captain_dice
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.rl.aec import RENDER_MODES
from kolrami.rl.aec import check_render_mode
from kolrami.rl.aec import observation_space
from kolrami.rl.core import SIDES
from kolrami.rl.core import Config
from kolrami.rl.core import IllegalActionError
from kolrami.rl.core import Match
from kolrami.rl.core import configure
from kolrami.rl.core import render_text
from kolrami.scenarios.models import Scenario

#: What an action the decision does not offer does: refused (IllegalActionError, the battle
#: untouched), or replaced by the aggressive doctrine's answer (info "illegal" True) for
#: libraries that sample unmasked actions (Gymnasium's own env checker does).
ILLEGAL: Final = ("raise", "doctrine")


class KolramiGym(gymnasium.Env[dict[str, npt.NDArray[Any]], np.int64]):
    """An FPF battle for one agent (`side`) against a captain (`opponent`)."""

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012  # (Env declares it)

    def __init__(
        self,
        scenario: str | Scenario = "standard",
        fleets: tuple[str | Fleet, str | Fleet] | None = None,
        rules: tuple[str, ...] | list[str] = (),
        turns: int | None = None,
        reward: str = "result",
        side: str = "A",
        opponent: str = "aggressive",
        name: str = "agent",
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode)
        if side not in SIDES:
            raise InvalidInputError(f"side '{side}': the agent plays side A or side B")
        if illegal not in ILLEGAL:
            raise InvalidInputError(f"illegal '{illegal}': choose {' or '.join(ILLEGAL)}")
        captain_factory(opponent)  # an unknown captain refused now, with the closest name
        names = (name, opponent) if side == "A" else (opponent, name)
        self.config: Config = configure(scenario, fleets, rules, turns, reward, names)
        self.side = side
        self.enemy = "B" if side == "A" else "A"
        self.opponent_name = opponent
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = observation_space()  # type: ignore[assignment]  # (a Dict)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.match: Match | None = None
        self.opponent: Captain | None = None

    def _match(self) -> Match:
        if self.match is None:
            raise InvalidInputError("call reset() before using the environment")
        return self.match

    def _observation(self) -> dict[str, npt.NDArray[Any]]:
        match = self._match()
        return {"observation": match.observation(self.side), "action_mask": match.mask(self.side)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (sb3-contrib's MaskablePPO asks for this)."""
        return self._match().mask(self.side).astype(bool)

    def _play_opponent(self) -> None:
        match = self._match()
        assert self.opponent is not None
        view = match.views[self.enemy]
        while True:
            decision = match.decision
            if decision is None or decision.side == self.side:
                return
            match.give(self.opponent.decide(view, decision))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """A new battle: `seed` is the battle's seed; without one, the next of the generator
        the last seed started. `options` is not read."""
        super().reset(seed=seed)
        battle_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        self.match = Match(self.config, battle_seed)
        self.opponent = make_captain(self.opponent_name, captain_dice(battle_seed, self.enemy))
        self._play_opponent()
        return self._observation(), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool, dict[str, Any]]:
        match = self._match()
        info: dict[str, Any] = {}
        if match.over:
            raise InvalidInputError("the battle is over: call reset() for a new one")
        try:
            order = match.order_of(int(action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            decision = match.decision
            assert decision is not None
            order = match.order_of(BLOCKS[kind_of(decision)][0])
            info["illegal"] = True
        match.give(order)
        self._play_opponent()
        reward = match.shaped()[self.side] if self.config.reward == "shaped" else 0.0
        terminated = match.over
        if terminated:
            reward += match.outcome()[self.side]
            result = match.battle.result
            info["winner"] = result.winner if result else None
            info["reason"] = result.reason if result else ""
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), terminated, False, info

    def render(self) -> str | None:
        """The battle as text ("ansi" returns it, "human" prints it)."""
        return render_text(self._match(), self.render_mode)

    def close(self) -> None:
        self.match = None
