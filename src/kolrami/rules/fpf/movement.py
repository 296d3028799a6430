"""Movement (FPF-MOV): manoeuvres and their legality checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.engine.orders import (
    IllegalOrderError,
    Maneuver,
)

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, ShipState


def verify_maneuver(
    battle: Battle, ships: list[ShipState], m: Maneuver, leader_speed: int | None, who: str
) -> None:
    """A manoeuvre every ship in `ships` can fly (FPF-MOV-06, FPF-MOV-07, FPF-MOV-11,
    FPF-MOV-13)."""
    if m.jump:
        battle.rules.check_jump(battle, ships, m, who)
        return
    if m.turn1 not in (-1, 0, 1) or m.turn2 not in (-1, 0, 1):
        raise IllegalOrderError(
            f"{who}: turns are -1, 0 or +1 hex faces (60 degrees) at each of "
            "the two turn points (FPF-MOV-07)"
        )
    if m.pivot is not None:
        if m.pivot not in range(-2, 4):
            raise IllegalOrderError(f"{who}: a pivot is -2..+3 hex faces (FPF-MOV-13)")
        stopped = [s.id for s in ships if s.last_speed != 0]
        if stopped:
            raise IllegalOrderError(
                f"{who}: only a ship that stood still last turn may pivot; "
                f"{', '.join(stopped)} moved (FPF-MOV-13)"
            )
    elif m.speed == 0 and (m.turn1 or m.turn2):
        raise IllegalOrderError(
            f"{who}: a ship at speed 0 turns only by pivoting (PIV), which "
            "costs 5 cm of power (FPF-MOV-13)"
        )
    for s in ships:
        lo, hi = battle.speed_limits(s, m.pivot is not None)
        if not lo <= m.speed <= hi:
            extra = " after the 5 cm pivot" if m.pivot is not None else ""
            raise IllegalOrderError(
                f"{who}: {s.id} ({s.cls.name}, Engine Power {s.engine_power}, last speed "
                f"{s.last_speed}) may move {lo}-{hi} cm{extra}, not {m.speed} "
                "(FPF-MOV-06, FPF-MOV-11)"
                if lo <= hi
                else f"{who}: {s.id} has Engine Power {s.engine_power}, too little to pivot "
                "(FPF-MOV-13)"
            )
    if leader_speed is not None and m.speed > leader_speed:
        raise IllegalOrderError(
            f"{who}: a wingman may not move farther than its leader's "
            f"{leader_speed} cm (FPF-MOV-09)"
        )
