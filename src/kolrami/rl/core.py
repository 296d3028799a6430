"""One FPF battle as a game of macro-actions: the state every interface of `kolrami.rl` wraps
(the PettingZoo AEC environment, the Gymnasium wrapper, the vector environment, OpenSpiel).

A `Match` holds the battle (the referee's state), each side's view and each side's
macro-action enumerator (`kolrami.captains.macro`). An agent reads only `observation(side)`
and `mask(side)`, both built from that side's view; `act(index)` gives the macro-action's
order through `kolrami.rules.apply`, so the battle and its log are the ones `kolrami battle`
plays for the same orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from kolrami.captains.admiral import value
from kolrami.captains.base import BattleView
from kolrami.captains.features import MAX_SHIPS
from kolrami.captains.features import number
from kolrami.captains.features import observe
from kolrami.captains.macro import ACTIONS
from kolrami.captains.macro import MAX_SQUADRONS
from kolrami.captains.macro import N_ACTIONS
from kolrami.captains.macro import Choices
from kolrami.captains.macro import MacroActions
from kolrami.captains.macro import kind_of
from kolrami.catalog import builtin_pack
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.errors import InvalidInputError
from kolrami.fleet.model import Fleet
from kolrami.fleet.model import load_fleet
from kolrami.rules import apply
from kolrami.rules import new_battle
from kolrami.rules import start
from kolrami.rules.module import Capability
from kolrami.rules.registry import ADVANCED
from kolrami.rules.registry import module_class
from kolrami.rules.registry import select
from kolrami.scenarios.models import Scenario
from kolrami.scenarios.models import load_scenario

SIDES: Final = ("A", "B")
#: The fleets a battle plays when neither the caller nor the scenario names them (as
#: `kolrami battle`).
DEFAULT_FLEETS: Final = ("presets:federation-cruisers", "presets:klingon-wolfpack")
#: The rewards an environment can give: the scenario's result (win 1, draw 0, loss -1), Peak
#: Performance's Fleet Point difference (own less the enemy's, / 100, at the end), or the
#: result plus a shaped reward at every step (the change in points destroyed, as the
#: admiral values a rollout, over both fleets' points).
REWARDS: Final = ("result", "points", "shaped")
#: The scenarios an environment is documented and tested on (any FPF scenario file works).
SCENARIOS: Final = ("standard", "peak-performance")


class IllegalActionError(IllegalOrderError):
    """A macro-action index that the decision does not offer: names the decision and the
    legal choices."""


@dataclass(frozen=True, slots=True)
class Config:
    """What a match is made of, checked once (`configure`)."""

    scenario: Scenario
    fleets: tuple[Fleet, Fleet]
    rules: tuple[str, ...]
    reward: str
    names: tuple[str, str]


def configure(
    scenario: str | Scenario = "standard",
    fleets: tuple[str | Fleet, str | Fleet] | None = None,
    rules: tuple[str, ...] | list[str] = (),
    turns: int | None = None,
    reward: str = "result",
    names: tuple[str, str] = ("agent", "agent"),
) -> Config:
    """Check a match's arguments, each refused in one line naming it and the fix."""
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(str(scenario))
    if turns is not None:
        if not isinstance(turns, int) or not 1 <= turns <= 200:
            raise InvalidInputError(f"turns {turns!r}: a battle lasts 1 to 200 turns")
        sc = sc.model_copy(update={"turn_limit": turns})
    rules = tuple(rules)
    names_on = select(sc, rules)  # unknown modules refused here, with the closest name
    if sc.driver == ADVANCED or any(module_class(n).driver == ADVANCED for n in names_on):
        raise InvalidInputError(
            f"scenario '{sc.name}' with rules {list(rules)} plays the advanced game; kolrami.rl "
            "plays FPF battles: choose an FPF scenario (standard, peak-performance) and FPF "
            "rule modules (kolrami rules)"
        )
    if reward not in REWARDS:
        raise InvalidInputError(f"reward '{reward}': choose one of {', '.join(REWARDS)}")
    given = (*sc.fleets, *DEFAULT_FLEETS[len(sc.fleets) :])
    pack = builtin_pack()
    chosen = fleets or (given[0], given[1])
    if len(chosen) != 2:
        raise InvalidInputError(f"fleets: give two (side A's, side B's), not {len(chosen)}")
    loaded = tuple(f if isinstance(f, Fleet) else load_fleet(str(f), pack) for f in chosen)
    pair = (loaded[0], loaded[1])
    if len(names) != 2 or not all(isinstance(n, str) and n for n in names):
        raise InvalidInputError(f"names {names!r}: give two names for the log's header")
    battle = new_battle(sc, pair, 0, names, pack, rules)  # refuses a fleet it cannot field
    if reward == "points" and Capability.SCORES_FLEET_POINTS not in battle.rules.capabilities:
        raise InvalidInputError(
            f"reward 'points': scenario '{sc.name}' scores no Fleet Points; use reward "
            "'result' or the peak-performance scenario"
        )
    for side in SIDES:
        ships = battle.side_ships(side)
        squadrons = battle.side_squadrons(side)
        if max((number(s.id) for s in ships), default=0) > MAX_SHIPS:
            raise InvalidInputError(
                f"fleet {side} '{pair[SIDES.index(side)].name}' has {len(ships)} ships; an "
                f"environment's observation has room for {MAX_SHIPS}: field a smaller fleet"
            )
        if len(squadrons) > MAX_SQUADRONS:
            raise InvalidInputError(
                f"fleet {side} '{pair[SIDES.index(side)].name}' has {len(squadrons)} squadrons; "
                f"the action space has room for {MAX_SQUADRONS}: field fewer squadrons"
            )
    return Config(sc, pair, rules, reward, (names[0], names[1]))


class Match:
    """One battle under `config`, played one macro-action at a time."""

    def __init__(self, config: Config, seed: int, battle: Battle | None = None) -> None:
        self.config = config
        self.seed = seed
        if battle is None:
            c = config
            battle = new_battle(c.scenario, c.fleets, seed, c.names, None, c.rules)
            start(battle)
        self.battle = battle
        self.views: dict[str, BattleView] = {s: battle.rules.view(battle, s) for s in SIDES}
        self.macros = {s: MacroActions() for s in SIDES}
        self._choices: Choices | None = None
        self._worth = dict.fromkeys(SIDES, 0.0)
        self.total_points = float(sum(s.points for s in battle.ships.values())) or 1.0

    @property
    def decision(self) -> Decision | None:
        """The decision the battle waits on (None: it is over)."""
        return self.battle.pending

    @property
    def over(self) -> bool:
        """Whether the battle has ended."""
        return self.battle.pending is None

    def to_move(self) -> str | None:
        """The side asked now (None: over)."""
        d = self.battle.pending
        return None if d is None else d.side

    def choices(self) -> Choices:
        """The macro-actions of the pending decision, from its side's view."""
        d = self.battle.pending
        if d is None:
            raise IllegalActionError("the battle is over: it asks nothing")
        c = self._choices
        if c is None or c.decision is not d:
            c = self._choices = self.macros[d.side].choices(self.views[d.side], d)
        return c

    def observation(self, side: str) -> npt.NDArray[np.float32]:
        """`side`'s observation (its view only; the decision when it is the one asked)."""
        d = self.battle.pending
        return observe(self.views[side], d)

    def mask(self, side: str) -> npt.NDArray[np.int8]:
        """1 for each macro-action `side` may take now (all 0 when it is not asked)."""
        d = self.battle.pending
        if d is None or d.side != side:
            return np.zeros(N_ACTIONS, dtype=np.int8)
        return np.asarray(self.choices().mask, dtype=np.int8)

    def order_of(self, action: int) -> Order:
        """The order macro-action `action` gives now; IllegalActionError, naming the decision
        and the legal choices, when it is not offered."""
        choices = self.choices()
        d = choices.decision
        try:
            index = int(action)
        except (TypeError, ValueError):
            index = -1
        order = choices.orders[index] if 0 <= index < N_ACTIONS else None
        if order is None:
            what = ACTIONS[index] if 0 <= index < N_ACTIONS else f"not in 0..{N_ACTIONS - 1}"
            raise IllegalActionError(
                f"action {action!r} ({what}) is not offered at side {d.side}'s {kind_of(d)} "
                f"decision ({d}); legal: {choices.describe()}"
            )
        return order

    def act(self, action: int) -> None:
        """Take macro-action `action` for the side asked (refused as `order_of` says, the
        battle untouched)."""
        self.give(self.order_of(action))

    def give(self, order: Order) -> None:
        """Give `order` for the side asked (an opponent captain's): the rules check it."""
        apply(self.battle, order)
        self._choices = None

    def worth(self, side: str) -> float:
        """Points destroyed so far, the enemy's less ours (the admiral's `value`), over both
        fleets' points: the shaped reward's potential."""
        return value(self.battle, side, None) / self.total_points

    def shaped(self) -> dict[str, float]:
        """Each side's change in `worth` since the last call (the shaped reward)."""
        out = {}
        for side in SIDES:
            now = self.worth(side)
            out[side] = now - self._worth[side]
            self._worth[side] = now
        return out

    def outcome(self) -> dict[str, float]:
        """Each side's final reward: the scenario's result (win 1, draw 0, loss -1), or with
        reward 'points' the Fleet Point difference / 100; all 0 while the battle goes on."""
        result = self.battle.result
        if result is None:
            return dict.fromkeys(SIDES, 0.0)
        if self.config.reward == "points":
            fp = self.battle.fleet_points
            return {"A": (fp["A"] - fp["B"]) / 100.0, "B": (fp["B"] - fp["A"]) / 100.0}
        if result.winner is None:
            return dict.fromkeys(SIDES, 0.0)
        return {s: 1.0 if s == result.winner else -1.0 for s in SIDES}

    def clone(self, dice: Dice) -> Match:
        """A copy to search on, with `dice` as its chance (never the battle's own future
        rolls: `Battle.clone`)."""
        return Match(self.config, self.seed, self.battle.clone(dice))

    def text(self) -> str:
        """The battle as text: the turn, the decision and its choices, every ship."""
        b = self.battle
        lines = [f"{b.scenario.name}, seed {self.seed}, turn {b.turn}/{b.scenario.turn_limit}"]
        d = b.pending
        if d is None:
            r = b.result
            lines.append(f"over: {r.winner or 'draw'} ({r.reason})" if r else "over")
        else:
            lines.append(f"side {d.side} decides: {d}")
            choices = self.choices()
            lines += [f"  {i} {ACTIONS[i]}: {choices.orders[i]}" for i in choices.legal()]
        for s in b.ships.values():
            state = "in play" if s.alive else "destroyed"
            lines.append(
                f"{s.id} {s.cls.name} ({s.squadron}) at ({s.x:.1f}, {s.y:.1f}) H{s.heading} "
                f"speed {s.speed} hull {max(0, s.superstructure)}/{s.cls.superstructure} "
                f"shields {s.shields} {state}"
            )
        if Capability.SCORES_FLEET_POINTS in b.rules.capabilities:
            lines.append(f"Fleet Points A {b.fleet_points['A']} : B {b.fleet_points['B']}")
        return "\n".join(lines)


def render_text(match: Match, mode: str | None) -> str | None:
    """A battle as text for an environment's `render`: "ansi" returns it, "human" prints it,
    no mode renders nothing."""
    if mode is None:
        return None
    text = match.text()
    if mode == "human":
        print(text)
        return None
    return text
