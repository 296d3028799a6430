"""FPF's turn (FPF-TURN): what carries from one turn to the next."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Final

from kolrami.engine import events as ev
from kolrami.engine.orders import Decision
from kolrami.engine.step import HALT
from kolrami.engine.step import Step
from kolrami.rules.fpf.view import BattleView
from kolrami.rules.module import DECISION_HOOKS
from kolrami.rules.module import Phase
from kolrami.rules.module import RuleModule
from kolrami.rules.module import rules_of
from kolrami.rules.steps import Call
from kolrami.rules.steps import Hooks

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle


#: The phase hooks, in the order a battle meets them (`module.DECISION_HOOKS` and `PLAIN_HOOKS`)
_START_OF_TURN: Final = DECISION_HOOKS[Phase.START_OF_TURN]
_REPAIRS: Final = DECISION_HOOKS[Phase.REPAIRS]
_INITIATIVE: Final = DECISION_HOOKS[Phase.INITIATIVE]


class FpfTurn(RuleModule):
    """Turn bookkeeping: speeds recorded for next turn's initiative; locks last one turn."""

    name = "fpf-turn"
    core = True
    clauses = ("FPF-TURN-02", "FPF-TURN-03", "FPF-FIRE-07")
    summary = "Turn structure; last turn's speed carries into initiative; locks end with the turn."

    def end_of_turn(self, battle: Battle) -> None:
        for ship in battle.all_ships:
            ship.last_speed = ship.speed
            ship.fired = False
            ship.moved = False
            ship.lock = None
        for squadron in battle.squadrons.values():
            squadron.activated = False
            squadron.fired = False
            squadron.jumped = False
        battle.locked.clear()

    def opening(self, battle: Battle) -> Sequence[Step[Battle]]:
        """The start of the battle, then turns of repairs and initiative until the end
        (FPF-TURN-02)."""
        return (Call(_start_of_battle), NEXT_TURN)

    def view(self, battle: Battle, side: str) -> BattleView:
        return BattleView(battle, side)


def _start_of_battle(battle: Battle) -> None:
    rules_of(battle).run(Phase.START_OF_BATTLE, battle)


class _NextTurn(Step["Battle"]):
    """Begin the next turn (its start, repairs and initiative, then its end and this step
    again), or, at the turn limit or once the battle is over, end the battle (FPF-TURN-02). A
    rollout halts here at its horizon."""

    __slots__ = ()

    def run(self, battle: Battle) -> Decision | None:
        rules = rules_of(battle)
        if battle.turn < battle.scenario.turn_limit and not battle.over():
            horizon = battle.horizon
            if horizon is not None and battle.turn >= horizon:
                return HALT
            battle.turn += 1
            battle.note(ev.TurnStarted, battle.turn)
            battle.then(
                Hooks(rules.hooks(_START_OF_TURN)),
                Hooks(rules.hooks(_REPAIRS)),
                Hooks(rules.hooks(_INITIATIVE)),
                END_OF_TURN,
                self,
            )
            return None
        rules.run(Phase.END_OF_BATTLE, battle)
        battle.finish()
        return None


class _EndOfTurn(Step["Battle"]):
    """Every module's end of turn, then the turn's end logged."""

    __slots__ = ()

    def run(self, battle: Battle) -> Decision | None:
        rules_of(battle).run(Phase.END_OF_TURN, battle)
        battle.note(ev.TurnEnded, battle.turn)
        return None


NEXT_TURN: Final = _NextTurn()
END_OF_TURN: Final = _EndOfTurn()
