"""FPF's optional rules (FPF-OPT) and the ship sheets' notes, each a module to switch on."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kolrami.catalog.models import WeaponKind
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.fpf.volley import Volley
from kolrami.rules.module import RuleModule
from kolrami.rules.module import rules_of

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState


@dataclass(frozen=True, slots=True)
class Unwritten:
    """An optional rule FPF suggests by name but gives no mechanics for: nothing to play, so a
    battle that asks for it is refused with the clause, never played as if it were a module."""

    name: str
    clause: str
    idea: str


#: FPF-OPT-03 (fighters, boarding pods, special weapons, armour, tech variants, slingshots),
#: FPF-OPT-07 (close-in defence) and FPF-OPT-08 (a to-hit table): named, never played.
UNWRITTEN: tuple[Unwritten, ...] = (
    Unwritten("fighters", "FPF-OPT-03", "fighters"),
    Unwritten("boarding-pods", "FPF-OPT-03", "boarding pods"),
    Unwritten("special-weapons", "FPF-OPT-03", "special weapons"),
    Unwritten("armour", "FPF-OPT-03", "armour"),
    Unwritten("tech-levels", "FPF-OPT-03", "high- and low-tech ship variants"),
    Unwritten("slingshot", "FPF-OPT-03", "slingshot manoeuvres"),
    Unwritten("cids", "FPF-OPT-07", "close-in defence systems against fighters"),
    Unwritten("to-hit-table", "FPF-OPT-08", "a to-hit table in place of auto tracking"),
)


def unwritten(name: str) -> Unwritten | None:
    """The unwritten option called `name` (any case, spaces or underscores for hyphens)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = "armour" if key == "armor" else key
    return next((u for u in UNWRITTEN if u.name == key), None)


def unwritten_reason(option: Unwritten) -> str:
    """Why a battle cannot have `option`: one line naming the clause and what to do instead."""
    return (
        f"rule module '{option.name}': {option.clause} names {option.idea} as an idea but "
        "gives no rules for it, so there is nothing to play; leave it out (kolrami rules lists "
        "the modules there are)"
    )


class Derelicts(RuleModule):
    """FPF-OPT-01: a ship at 0 superstructure is left dead in space, not blown up."""

    name = "derelicts"
    clauses = ("FPF-OPT-01",)
    summary = "Ships at 0 superstructure stay on the table as derelicts (obstacles, not targets)."

    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        battle.remove(ship, by, derelict=True)


class IndividualHoldFire(RuleModule):
    """FPF-OPT-02: ships of a squadron may hold fire one by one."""

    name = "individual-hold-fire"
    clauses = ("FPF-OPT-02",)
    summary = "A squadron's ships may hold fire individually."

    def squadron_fires_as_unit(self, battle: Battle) -> bool:
        return False


class BirdOfPreyEngines(RuleModule):
    """The Bird of Prey sheet's cut-off note: engine hits count double (FPF-DATA)."""

    name = "bop-engine-double-damage"
    summary = "Ships whose sheet says so lose double Engine Power from hits on locations 5-7."

    def engine_damage(self, battle: Battle, ship: ShipState, amount: int) -> int:
        return amount * 2 if ship.cls.engine_double_damage else amount


class MicroWarpJump(RuleModule):
    """FPF-OPT-04, FPF-OPT-05, FPF-OPT-06: a squadron may jump 40-60 units straight ahead instead of
    moving."""

    name = "micro-warp-jump"
    clauses = ("FPF-OPT-04", "FPF-OPT-05", "FPF-OPT-06")
    summary = "Jump 40-60 (inches by default) straight ahead after the first turn; photons only."

    def jump_range(self, battle: Battle) -> tuple[int, int]:
        unit = battle.scenario.micro_warp_unit_cm
        return math.ceil(40 * unit), math.floor(60 * unit)  # FPF-OPT-04

    def check_jump(self, battle: Battle, ships: list[ShipState], m: Maneuver, who: str) -> None:
        unit = battle.scenario.micro_warp_unit_cm
        lo, hi = self.jump_range(battle)
        if m.pivot is not None or m.turn2 != 0 or m.turn1 not in (-1, 0, 1):
            raise IllegalOrderError(
                f"{who}: a jump allows only the first turn, then goes straight "
                "ahead: JMP n T-1|T0|T+1 T0 (FPF-OPT-04)"
            )
        if not lo <= m.speed <= hi:
            raise IllegalOrderError(
                f"{who}: a micro warp jump covers {lo}-{hi} cm (40-60 x "
                f"{unit:g} cm), not {m.speed} (FPF-OPT-04)"
            )
        stalled = [s.id for s in ships if not s.in_control]
        if stalled:
            raise IllegalOrderError(
                f"{who}: {', '.join(stalled)} is out of control and cannot jump (FPF-DMG-13)"
            )

    def jump_weapons(self, battle: Battle, kinds: list[WeaponKind]) -> list[WeaponKind]:
        return [k for k in kinds if k is WeaponKind.PHOTON]

    def before_jump(self, battle: Battle, ship: ShipState) -> None:
        # At half superstructure or less the strain costs d6 superstructure (FPF-OPT-06).
        if ship.alive and ship.superstructure * 2 <= ship.cls.superstructure:
            amount = battle.dice.d6()
            left = ship.superstructure - amount
            battle.record(
                ev.HitScored(
                    "",
                    ship.id,
                    "jump strain",
                    0,
                    "superstructure",
                    amount,
                    "superstructure",
                    left,
                    left,
                )
            )
            if ship.superstructure <= 0:
                rules_of(battle).destroyed(battle, ship, None)


class NebulaFire(RuleModule):
    """FPF-OPT-09: a ship inside a nebula has no shields; shots at it get through on 9 or 10."""

    name = "nebula-fire"
    clauses = ("FPF-OPT-09",)
    summary = "Shots at a ship inside a nebula (scenario terrain) ignore shields: 9 or 10 hits."

    def penetrates(self, battle: Battle, volley: Volley, roll: int) -> bool:
        target = volley.target
        for t in battle.scenario.terrain:
            if t.kind == "nebula" and t.contains(target.x, target.y):
                return roll >= 9
        return penetrates(roll, volley.shields, volley.strength)


#: FPF's optional rules and sheet notes, in the order `kolrami rules` lists them: a new option is
#: a class above and an entry here (rules/registry.py lists this tuple, python-chess's way).
OPTIONS: tuple[type[RuleModule], ...] = (
    Derelicts,
    IndividualHoldFire,
    BirdOfPreyEngines,
    MicroWarpJump,
    NebulaFire,
)
