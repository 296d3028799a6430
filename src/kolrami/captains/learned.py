"""`learned`: a small network's choice among kolrami.rl's macro-actions (issue 41), trained by
imitation of the admiral's choices (scripts/train_learned.py) and played with numpy alone.

It reads the observation of `captains.features` from its own view, scores every macro-action
with one hidden layer (its weights ship in captains/data/learned.npz), and gives the order of
the best one offered (`captains.macro`): a battle of it costs the enumeration of the
macro-actions and one small matrix product a decision, no search.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any
from typing import ClassVar
from typing import Final

import numpy as np
import numpy.typing as npt

from kolrami.captains.base import BattleView
from kolrami.captains.features import observe
from kolrami.captains.macro import MacroActions
from kolrami.engine.chance import Dice
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order

#: The hidden layer's width.
HIDDEN: Final = 64
#: Where the weights ship (what scripts/train_learned.py writes).
WEIGHTS: Final = resources.files("kolrami.captains").joinpath("data", "learned.npz")


@cache
def weights() -> dict[str, npt.NDArray[np.float32]]:
    """The shipped weights, read once."""
    with resources.as_file(WEIGHTS) as path, np.load(path) as data:
        return {k: np.asarray(data[k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2")}


def scores(observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The network's score of every macro-action for `observation`."""
    p = weights()
    hidden = np.maximum(0.0, observation @ p["w1"] + p["b1"])
    out: npt.NDArray[np.float32] = hidden @ p["w2"] + p["b2"]
    return out


class LearnedCaptain:
    """Plays the macro-action its network scores best of those offered."""

    name = "learned"
    summary: ClassVar[str] = (
        "A small network trained to choose as the admiral does among kolrami.rl's "
        "macro-actions; numpy inference, no search."
    )

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.macro = MacroActions()

    def decide(self, view: BattleView, decision: Decision) -> Order:
        choices = self.macro.choices(view, decision)
        mask = np.asarray(choices.mask, dtype=bool)
        best: Any = np.where(mask, scores(observe(view, decision)), -np.inf).argmax()
        order = choices.orders[int(best)]
        assert order is not None, "an offered macro-action has an order"
        return order
