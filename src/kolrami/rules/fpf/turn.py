"""FPF's turn (FPF-TURN): what carries from one turn to the next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.rules.registry import RuleModule, register

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle


@register
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
