"""Fire (FPF-FIRE, FPF-ARC): declarations and their legality checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.catalog.models import Arc
from kolrami.engine.orders import (
    FireTarget,
    IllegalOrderError,
)

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, SquadronState


def verify_targets(
    battle: Battle,
    squadron: SquadronState,
    targets: tuple[FireTarget, ...],
    reaction_to: str | None,
) -> None:
    """Fire declarations: one arc, one target per ship, squadron as a unit (FPF-FIRE-04,
    FPF-FIRE-05, FPF-FIRE-06, FPF-FIRE-07, FPF-FIRE-08, FPF-FIRE-09, FPF-FIRE-10, FPF-FIRE-11,
    FPF-FIRE-12, FPF-FIRE-13)."""
    if squadron.fired:
        raise IllegalOrderError(
            f"{squadron.id} has already used its volley this turn (FPF-FIRE-04)"
        )
    firers = {s.id for s in battle.firers(squadron) if reaction_to is None or s.bears(Arc.F)}
    seen = set()
    for t in targets:
        if t.ship in seen:
            raise IllegalOrderError(
                f"{t.ship} declares two targets; a ship fires at one target "
                "out of one arc (FPF-FIRE-04, FPF-FIRE-05)"
            )
        seen.add(t.ship)
        if t.ship not in squadron.ships:
            raise IllegalOrderError(f"{t.ship} is not in squadron {squadron.id}")
        if t.ship not in firers:
            raise IllegalOrderError(
                f"{t.ship} cannot fire: destroyed, out of control or with no "
                "working weapon (FPF-DMG-13, FPF-DMG-15)"
            )
        ship = battle.ships[t.ship]
        if not ship.bears(t.arc):
            arcs = "/".join(a.value for a in ship.armed_arcs())
            raise IllegalOrderError(
                f"{t.ship} ({ship.cls.name}) has no working weapon in arc "
                f"{t.arc.value}; its armed arcs: {arcs} (FPF-ARC-04)"
            )
        target = battle.ships.get(t.target)
        if target is None or not target.alive or target.side == ship.side:
            raise IllegalOrderError(
                f"{t.ship} cannot target '{t.target}': not an enemy ship in play (FPF-FIRE-01)"
            )
        if reaction_to is not None:
            if t.arc is not Arc.F:
                raise IllegalOrderError(
                    f"{t.ship}: reaction fire goes out of the forward arc only (FPF-FIRE-11)"
                )
            if target.squadron != reaction_to:
                raise IllegalOrderError(
                    f"{t.ship}: reaction fire must target the moving squadron "
                    f"{reaction_to} (FPF-FIRE-11)"
                )
    if battle.rules.squadron_fires_as_unit(battle) and seen != firers:
        missing = ", ".join(sorted(firers - seen))
        raise IllegalOrderError(
            f"{squadron.id} fires as a unit or not at all: {missing} must "
            "declare a target too, or the squadron holds (FPF-FIRE-13)"
        )
