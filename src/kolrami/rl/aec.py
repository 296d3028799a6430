"""Kolrami as a PettingZoo AEC environment: every decision the FPF rules put to a side is a
step of that side's agent (`player_0` is side A, `player_1` side B).

    from kolrami.rl import env
    e = env(scenario="peak-performance", turns=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        done = terminated or truncated
        e.step(None if done else e.action_space(agent).sample(obs["action_mask"]))

Observations are dicts: "observation", a float32 vector from that side's view only
(`kolrami.captains.features`), and "action_mask", 1 for each macro-action the rules allow now
(`kolrami.captains.macro`). docs/research.md lists both.
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from kolrami.captains.features import CLIP
from kolrami.captains.features import SIZE
from kolrami.captains.macro import N_ACTIONS
from kolrami.engine.battle import Battle
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.report.replay import render_replay
from kolrami.rl.core import SIDES
from kolrami.rl.core import Config
from kolrami.rl.core import Match
from kolrami.rl.core import configure
from kolrami.rl.core import render_text
from kolrami.scenarios.models import Scenario

#: The agents' names, side A's then side B's.
AGENTS: Final = ("player_0", "player_1")
SIDE_OF: Final = dict(zip(AGENTS, SIDES, strict=True))
AGENT_OF: Final = dict(zip(SIDES, AGENTS, strict=True))
RENDER_MODES: Final = ("ansi", "human")


def observation_space() -> spaces.Dict:
    """One agent's observation space: the features and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-CLIP, CLIP, (SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }
    )


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode no environment has, in one line."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidInputError(
            f"render_mode '{render_mode}': choose {' or '.join(RENDER_MODES)} (or none)"
        )


class KolramiAEC(AECEnv):  # type: ignore[misc]  # (pettingzoo is untyped)
    """An FPF battle for two agents, one decision at a time (PettingZoo's AEC API)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "kolrami_fpf_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: str | Scenario = "standard",
        fleets: tuple[str | Fleet, str | Fleet] | None = None,
        rules: tuple[str, ...] | list[str] = (),
        turns: int | None = None,
        reward: str = "result",
        names: tuple[str, str] = ("agent", "agent"),
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.config: Config = configure(scenario, fleets, rules, turns, reward, names)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._observation_spaces = {a: observation_space() for a in AGENTS}
        self._action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}
        self._seeds = np.random.default_rng()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    @property
    def battle(self) -> Battle:
        """The referee's battle (its log, its result): for reading after play, never for an
        agent's decisions."""
        return self._match().battle

    def _match(self) -> Match:
        if self.match is None:
            raise InvalidInputError("call reset() before using the environment")
        return self.match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new battle: `seed` is the battle's seed (the same seed, the same battle); without
        one, the next seed of the generator the last seed started. `options` is not read."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            battle_seed = int(seed)
        else:
            battle_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.match = Match(self.config, battle_seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        side = self.match.to_move()
        assert side is not None, "a battle asks something at its start"
        self.agent_selection = AGENT_OF[side]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        match = self._match()
        side = SIDE_OF[agent]
        return {"observation": match.observation(side), "action_mask": match.mask(side)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._match()
        match.act(action)  # an action not offered is refused, the battle untouched
        self._cumulative_rewards[agent] = 0.0
        shaped = match.shaped() if self.config.reward == "shaped" else None
        self.rewards = {a: (shaped[SIDE_OF[a]] if shaped else 0.0) for a in self.agents}
        side = match.to_move()
        if side is None:
            final = match.outcome()
            result = match.battle.result
            for a in self.agents:
                self.rewards[a] += final[SIDE_OF[a]]
                self.terminations[a] = True
                self.infos[a] = {
                    "winner": result.winner if result else None,
                    "reason": result.reason if result else "",
                }
        else:
            self.agent_selection = AGENT_OF[side]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The battle as text ("ansi" returns it, "human" prints it)."""
        return render_text(self._match(), self.render_mode)

    def replay_html(self) -> str:
        """The battle so far as the self-contained HTML replay `kolrami battle --replay`
        writes."""
        return render_replay(self._match().battle.events())

    def log(self) -> str:
        """The battle's event log (JSONL), as `kolrami battle --log` writes it."""
        return str(self._match().battle.log.jsonl())

    def close(self) -> None:
        self.match = None


def env(**kwargs: Any) -> KolramiAEC:
    """A Kolrami AEC environment (the arguments of KolramiAEC)."""
    return KolramiAEC(**kwargs)
