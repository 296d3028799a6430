"""A captain played by a policy over kolrami.rl's observations and macro-actions: how an agent
trained on the environments plays `kolrami battle`, `kolrami ladder` and everything else a
captain plays (docs/research.md).

A policy is any callable `policy(observation, mask) -> action index`: the observation and the
mask are the environment's (`features.observe`, `macro.MacroActions`), from the captain's own
view only. `policy_captain(policy, name)` makes a captain factory of it:

    Trained = policy_captain(lambda obs, mask: int(mask.argmax()), "first-legal")
    # kolrami ladder aggressive mymodule.py:Trained
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from kolrami.captains.base import BattleView
from kolrami.captains.base import Captain
from kolrami.captains.base import CaptainFactory
from kolrami.captains.features import observe
from kolrami.captains.macro import ACTIONS
from kolrami.captains.macro import N_ACTIONS
from kolrami.captains.macro import MacroActions
from kolrami.captains.macro import kind_of
from kolrami.engine.chance import Dice
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.errors import InvalidInputError

#: observation, mask -> the index of an offered macro-action
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]


class PolicyCaptain:
    """Answers each decision with the macro-action its policy picks."""

    def __init__(self, dice: Dice, policy: Policy, name: str = "policy") -> None:
        self.dice = dice
        self.policy = policy
        self.name = name
        self.macro = MacroActions()

    def decide(self, view: BattleView, decision: Decision) -> Order:
        choices = self.macro.choices(view, decision)
        mask = np.asarray(choices.mask, dtype=np.int8)
        action = self.policy(observe(view, decision), mask)
        index = int(action)
        order = choices.orders[index] if 0 <= index < N_ACTIONS else None
        if order is None:
            what = ACTIONS[index] if 0 <= index < N_ACTIONS else "out of range"
            raise InvalidInputError(
                f"captain {self.name}: its policy chose action {action!r} ({what}), not offered "
                f"at side {decision.side}'s {kind_of(decision)} decision; legal: "
                f"{choices.describe()}"
            )
        return order


def policy_captain(policy: Policy, name: str = "policy", version: str = "") -> CaptainFactory:
    """A captain factory playing `policy` (give `version` so that an assessment's stored
    results are keyed by the policy's weights, not only the file's code)."""

    def made(dice: Dice) -> Captain:
        return PolicyCaptain(dice, policy, name)

    if version:
        made.version = version  # type: ignore[attr-defined]
    return made
