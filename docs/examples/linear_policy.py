"""A linear softmax policy trained by REINFORCE on kolrami.rl's Gymnasium environment, with
numpy alone, then played as a captain (docs/research.md):

    python docs/examples/linear_policy.py 400          # trains, writes linear_policy.npy
    kolrami ladder random aggressive docs/examples/linear_policy.py:Linear --battles 4

`Linear` reads linear_policy.npy from the folder the command runs in (without it, the
untrained `doctrine()` weights: it plays the aggressive doctrine's own answers).
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kolrami.captains.features import GLOBAL
from kolrami.captains.features import SIZE
from kolrami.captains.macro import BLOCKS
from kolrami.captains.macro import KINDS
from kolrami.captains.macro import N_ACTIONS
from kolrami.captains.policy import policy_captain
from kolrami.rl.gym import KolramiGym

WEIGHTS = Path("linear_policy.npy")


def probabilities(w: npt.NDArray[Any], obs: dict[str, npt.NDArray[Any]]) -> npt.NDArray[Any]:
    """The policy's softmax over the offered macro-actions."""
    logits = np.where(obs["action_mask"] == 1, obs["observation"] @ w, -np.inf)
    e = np.exp(logits - logits.max())
    return np.asarray(e / e.sum())


def train(episodes: int = 400, seed: int = 0, rate: float = 0.02) -> npt.NDArray[Any]:
    """REINFORCE against the random captain in 3-turn battles, from the doctrine's choice
    (each block's first action) and with a running baseline: the ten lines."""
    env, rng = KolramiGym(opponent="random", turns=3), np.random.default_rng(seed)
    w, baseline = doctrine(), 0.0
    for episode in range(episodes):
        (obs, _), steps, done, reward = env.reset(seed=seed + episode), [], False, 0.0
        while not done:
            p = probabilities(w, obs)
            a = int(rng.choice(N_ACTIONS, p=p))
            steps.append((obs["observation"], a, p))
            obs, reward, done, _, _ = env.step(a)
        advantage, baseline = reward - baseline, baseline + 0.05 * (reward - baseline)
        for x, a, p in steps:  # the gradient of log p(a) for a linear softmax, times the advantage
            w += rate * advantage * np.outer(x, np.eye(N_ACTIONS)[a] - p)
    return w


def doctrine(prior: float = 2.0) -> npt.NDArray[Any]:
    """Weights that favour each block's first action (the aggressive doctrine's answer): the
    observation's one-hot of the decision's kind times `prior`."""
    w = np.zeros((SIZE, N_ACTIONS))
    for kind in KINDS:
        w[GLOBAL.index(f"decision_{kind}"), BLOCKS[kind][0]] = prior
    return w


@cache
def weights() -> npt.NDArray[Any]:
    """The trained weights (read once), or zeros."""
    return np.load(WEIGHTS) if WEIGHTS.is_file() else doctrine()


def _play(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    return int(np.argmax(probabilities(weights(), {"observation": obs, "action_mask": mask})))


#: The trained policy as a captain: docs/examples/linear_policy.py:Linear
Linear = policy_captain(_play, "linear")


if __name__ == "__main__":
    np.save(WEIGHTS, train(int(sys.argv[1]) if len(sys.argv) > 1 else 400))
    print(f"wrote {WEIGHTS}")
