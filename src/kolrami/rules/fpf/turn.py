"""FPF's turn (FPF-TURN): what carries from one turn to the next."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kolrami.engine import events as ev
from kolrami.engine.binder import Game
from kolrami.rules.fpf.view import BattleView
from kolrami.rules.module import DECISION_HOOKS, PLAIN_HOOKS, Phase, RuleModule, rules_of

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle


#: The phase hooks, in the order a battle meets them (`module.DECISION_HOOKS` and `PLAIN_HOOKS`)
_START_OF_BATTLE: Final = PLAIN_HOOKS[Phase.START_OF_BATTLE]
_START_OF_TURN: Final = DECISION_HOOKS[Phase.START_OF_TURN]
_REPAIRS: Final = DECISION_HOOKS[Phase.REPAIRS]
_INITIATIVE: Final = DECISION_HOOKS[Phase.INITIATIVE]
_END_OF_TURN: Final = PLAIN_HOOKS[Phase.END_OF_TURN]
_END_OF_BATTLE: Final = PLAIN_HOOKS[Phase.END_OF_BATTLE]


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
        battle.locked.clear()

    def turns(self, battle: Battle) -> Game:
        """Start, then turns of repairs and initiative until the end (FPF-TURN-02)."""
        rules = rules_of(battle)
        # `rules.run(phase, battle)` for each phase, written out: every decision of the battle
        # passes through these generators on its way to the captain and back, and a generator
        # of plain Python (Ruleset.run) between two compiled ones costs a frame each way
        for fn in rules.hooks(_START_OF_BATTLE):
            fn(battle)
        # each phase's hooks found once: a battle's rules are bound for good, and finding them
        # is a Python call
        start_of_turn = rules.hooks(_START_OF_TURN)
        repairs = rules.hooks(_REPAIRS)
        initiative = rules.hooks(_INITIATIVE)
        end_of_turn = rules.hooks(_END_OF_TURN)
        while battle.turn < battle.scenario.turn_limit and not battle.over():
            battle.turn += 1
            battle.log.record(ev.TurnStarted, battle.turn)
            for step in start_of_turn:
                yield from step(battle)
            for step in repairs:
                yield from step(battle)
            for step in initiative:
                yield from step(battle)
            for fn in end_of_turn:
                fn(battle)
            battle.log.record(ev.TurnEnded, battle.turn)
        for fn in rules.hooks(_END_OF_BATTLE):
            fn(battle)
        return battle.finish()

    def view(self, battle: Battle, side: str) -> BattleView:
        return BattleView(battle, side)
