"""FPF's turn (FPF-TURN): what carries from one turn to the next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.engine import events as ev
from kolrami.engine.binder import Game
from kolrami.rules.fpf.view import BattleView
from kolrami.rules.module import Phase, RuleModule, rules_of

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle


class FpfTurn(RuleModule):
    """Turn bookkeeping: speeds recorded for next turn's initiative; locks last one turn."""

    name = "fpf-turn"
    core = True
    clauses = ("FPF-TURN-02", "FPF-TURN-03", "FPF-FIRE-07")
    summary = "Turn structure; last turn's speed carries into initiative; locks end with the turn."

    def end_of_turn(self, battle: Battle) -> None:
        for ship in battle.ships.values():
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
        yield from rules.run(Phase.START_OF_BATTLE, battle)
        while battle.turn < battle.scenario.turn_limit and not battle.over():
            battle.turn += 1
            battle.log.record(ev.TurnStarted, battle.turn)
            yield from rules.run(Phase.START_OF_TURN, battle)
            yield from rules.run(Phase.REPAIRS, battle)
            yield from rules.run(Phase.INITIATIVE, battle)
            yield from rules.run(Phase.END_OF_TURN, battle)
            battle.log.record(ev.TurnEnded, battle.turn)
        yield from rules.run(Phase.END_OF_BATTLE, battle)
        return battle.finish()

    def view(self, battle: Battle, side: str) -> BattleView:
        return BattleView(battle, side)
