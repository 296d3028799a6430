"""Shared set-up for the advanced game's tests (tests/advanced).

`table` builds an advanced battle with its state set up (officers rolled) but no turn played, so
a test can place ships and call one rule at a time; `Loaded` makes the battle's dice roll listed
faces. `drive` plays a battle through the advanced driver, answering each decision with a test's
function and falling back to the built-in doctrine.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from typing import TypeVar

from kolrami.captains.advanced import ADVANCED_DECISIONS
from kolrami.captains.advanced import AGGRESSIVE
from kolrami.captains.advanced import AdvancedDoctrine
from kolrami.captains.base import BattleView
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.chance import Dice
from kolrami.engine.driver import play
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.rules import new_battle
from kolrami.rules.advanced.field_orders import FIELD_DECISIONS
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.orders import AdvancedDecision
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.advanced.power import apply_plan
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.state import setup
from kolrami.rules.sandbox import fleet_of
from kolrami.rules.sandbox import place
from kolrami.scenarios.models import builtin_scenario
from scene_kit import place_all


class Loaded(Dice):
    """Dice that roll the listed faces in order (then fail loudly)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = deque(faces)

    def d(self, sides: int) -> int:
        if not self.faces:
            raise AssertionError(f"the test's dice ran out (a d{sides} was rolled)")
        face = self.faces.popleft()
        assert 1 <= face <= sides, f"loaded face {face} does not fit a d{sides}"
        self.rolls += 1
        return face


def battle(
    side_a: list[str], side_b: list[str], seed: int = 1, rules: tuple[str, ...] = ()
) -> Battle:
    """An advanced battle, one ship per squadron, nothing played yet."""
    sc = builtin_scenario("advanced")
    fleets = (fleet_of([[c] for c in side_a], "A"), fleet_of([[c] for c in side_b], "B"))
    return new_battle(sc, fleets, seed, extra_rules=rules)


def table(
    side_a: list[str], side_b: list[str], seed: int = 1, rules: tuple[str, ...] = ()
) -> tuple[Battle, AdvancedState]:
    """An advanced battle with its state set up (officers rolled), ready for one rule at a time."""
    b = battle(side_a, side_b, seed, rules)
    state = setup(b, advanced_pack(), AdvancedRules.of(b))
    b.extensions[KEY] = state
    return b, state


def in_phase(
    side_a: list[str], side_b: list[str], at: str, rules: tuple[str, ...] = ()
) -> tuple[Battle, AdvancedState]:
    """`table` in turn 1's first phase, its ships placed at the spots `at` (`place_all`'s)."""
    b, state = table(side_a, side_b, rules=rules)
    b.turn, state.phase = 1, 1
    place_all(b, at)
    return b, state


def put(b: Battle, ship: str, x: float, y: float, heading: int) -> None:
    """Place a ship."""
    place(b, ship, x, y, heading)


def arm(
    b: Battle,
    state: AdvancedState,
    ship: str,
    move: int = 0,
    shields: bool = True,
    weapons: tuple[int, ...] | None = None,
) -> AdvShip:
    """Allocate a ship's power directly: every weapon at full power unless given."""
    adv = state.of(ship)
    if weapons is None:
        weapons = tuple(w.power if w.beam else 1 for w in adv.sheet.weapons)
    apply_plan(b, state, adv, PowerPlan(ship, move, shields, weapons))
    return adv


def officers_at(adv: AdvShip, rating: int) -> None:
    """Give every officer of a ship the same rating in every skill."""
    for officer in adv.officers.values():
        for skill in officer.ratings:
            officer.ratings[skill] = rating


Answer = Callable[[BattleView, AdvancedDecision], Order | None]


def drive(b: Battle, answer: Answer | None = None) -> list[Decision]:
    """Play `b` to its end; `answer` may return an order for a decision, else the doctrine
    answers. Returns every decision asked."""
    doctrine = AdvancedDoctrine(AGGRESSIVE)
    views = {side: BattleView(b, side) for side in ("A", "B")}
    asked: list[Decision] = []
    game = play(b)
    try:
        decision = next(game)
        while True:
            asked.append(decision)
            view = views[decision.side]
            assert isinstance(decision, ADVANCED_DECISIONS)
            order = None
            if answer and not isinstance(decision, FIELD_DECISIONS):
                order = answer(view, decision)
            if order is None:
                order = doctrine.decide(view, decision)
            decision = game.send(order)
    except StopIteration:
        pass
    return asked


E = TypeVar("E", bound=ev.Event)


def events_of(b: Battle, kind: type[E]) -> list[E]:
    """Every event of one kind, in order."""
    return [e for e in b.events() if isinstance(e, kind)]
