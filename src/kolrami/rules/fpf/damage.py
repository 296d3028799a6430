"""FPF damage rules as pure functions (FPF-DMG-01, FPF-DMG-02, FPF-DMG-03, FPF-DMG-04, FPF-DMG-05,
FPF-DMG-06): the one place both the dice engine and
the exact odds take them from, so simulation and calculation cannot drift apart."""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Final

from kolrami.catalog.models import Arc
from kolrami.catalog.models import HitLocations
from kolrami.catalog.models import Location
from kolrami.catalog.models import WeaponKind
from kolrami.engine.binder import Rules
from kolrami.rules import events as ev
from kolrami.rules.fpf.masking import MaskingNone
from kolrami.rules.fpf.masking import MaskingStationary
from kolrami.rules.fpf.volley import Volley
from kolrami.rules.module import RuleModule
from kolrami.rules.module import Ruleset

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState
from kolrami.errors import InvalidInputError

#: (the class as a module constant: compiled, a class of a plain Python module is looked up in
#: this module's globals at each use, and `rules_in` is asked hundreds of times a battle)
_RULESET: Final = Ruleset


def rules_in(battle: Battle) -> Ruleset:
    """The battle's bound rules: `rules.module.rules_of`, compiled with the FPF rules that ask
    it at every shot, move and repair (rules.module is plain Python, where every call of it is
    a Python call and a look-up of its name)."""
    rules = battle.rules
    if not isinstance(rules, _RULESET):
        raise TypeError("this battle was not built by kolrami.rules (new_battle)")
    return rules


#: The d10 face that always fails and the one that always penetrates (FPF-DMG-02).
AUTO_FAIL: Final = 1
AUTO_PENETRATE: Final = 10


def penetration_target(shields: int, strength: int) -> int:
    """The d10 score a shot needs: target shields minus weapon strength (FPF-DMG-01).

    The number may be below 2 or above 10; `penetrates` applies the natural 1 and 10.
    """
    return shields - strength


def penetrates(roll: int, shields: int, strength: int) -> bool:
    """Whether a d10 `roll` penetrates: at or above the target, but 1 fails and 10 penetrates."""
    if roll == AUTO_FAIL:
        return False
    if roll == AUTO_PENETRATE:
        return True
    return roll >= shields - strength  # penetration_target, written out: one call a shot


def penetrating_faces(shields: int, strength: int) -> int:
    """How many of the ten d10 faces penetrate: always between 1 and 9 (FPF-DMG-01, FPF-DMG-02).

    Faces target..10 get through, but never the 1 and always the 10: 11 - target, kept
    within 1..9. Tests check this against `penetrates` face by face.
    """
    faces = 11 - (shields - strength)
    return 1 if faces < 1 else 9 if faces > 9 else faces


def penetration_probability(shields: int, strength: int) -> float:
    """Chance that one shot penetrates."""
    return penetrating_faces(shields, strength) / 10


def hit_location(roll: int, table: HitLocations) -> Location:
    """The location a d10 `roll` strikes (FPF-DMG-06); the face printed as 0 is 10."""
    return table.by_face[roll]


#: Damage die per penetrating shot: a phaser beam deals 1, a photon torpedo d6 (FPF-DMG-04,
#: FPF-DMG-05).
DAMAGE_SIDES: Final[dict[WeaponKind, int]] = {WeaponKind.PHASER: 1, WeaponKind.PHOTON: 6}


def check_shot_inputs(strength: int, shots: int, shields: int) -> None:
    """Reject numbers no sheet or situation can produce, naming the value and the fix."""
    if strength < 0:
        raise InvalidInputError(f"weapon strength {strength} is negative; use 0 or more")
    if shots < 1:
        raise InvalidInputError(f"{shots} shots fire nothing; use 1 or more shots")
    if shields < 0:
        raise InvalidInputError(
            f"shields {shields} are negative; shields stop at 0 (FPF-DMG-10), use 0 or more"
        )


class FpfDamage(RuleModule):
    """Penetration, destruction and the standard victory condition (FPF-DMG)."""

    name = "fpf-damage"
    core = True
    clauses = (
        "FPF-DMG-01",
        "FPF-DMG-02",
        "FPF-DMG-07",
        "FPF-DMG-08",
        "FPF-DMG-09",
        "FPF-DMG-10",
        "FPF-DMG-11",
        "FPF-DMG-12",
        "FPF-DMG-14",
        "FPF-FIRE-13",
    )
    summary = "d10 penetration, locations, damage applied at once, destruction at 0."

    def penetrates(self, battle: Battle, volley: Volley, roll: int) -> bool:
        # `penetrates(roll, shields, strength)`, written out: this runs for every shot
        if roll == AUTO_FAIL:
            return False
        return roll == AUTO_PENETRATE or roll >= volley.shields - volley.strength

    def engine_damage(self, battle: Battle, ship: ShipState, amount: int) -> int:
        return amount

    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        battle.remove(ship, by, derelict=False)

    def squadron_fires_as_unit(self, battle: Battle) -> bool:
        return True

    def battle_over(self, battle: Battle) -> bool:
        # over unless ships of both sides are alive (`battle_over` asks it natively)
        return one_side_left(battle)

    def result(self, battle: Battle) -> tuple[str | None, str]:
        alive = {side: bool(battle.side_ships(side)) for side in ("A", "B")}
        if not alive["A"] and not alive["B"]:
            return None, "mutual destruction"
        if not alive["B"]:
            return "A", "enemy fleet destroyed"
        if not alive["A"]:
            return "B", "enemy fleet destroyed"
        lost = battle.destroyed_value()
        if lost["A"] == lost["B"]:
            return None, f"turn limit, {lost['B']} points destroyed each"
        winner = "A" if lost["B"] > lost["A"] else "B"
        return winner, f"turn limit, points destroyed A {lost['B']} : B {lost['A']}"


#: what `natives` finds of a battle's rules: its line of fire is FPF's masking method 1 (bases
#: of stationary ships mask) or method 2 (nothing masks); its penetration FPF's own; the end of
#: the battle FPF's own (one side left)
MASK_BASES: Final = 1
MASK_NONE: Final = 2
FPF_PENETRATION: Final = 4
FPF_END: Final = 8
#: `natives` of each battle's rules met so far, by the rules' identity (an entry holds them)
_NATIVES: Final[dict[int, tuple[Rules, int]]] = {}


class _Last:
    """The rules `natives` was last asked of, and its answer: nearly every call is of the same
    battle's rules as the one before, found by identity (an `id()` and a dict look-up cost
    several times more)."""

    __slots__ = ("flags", "rules")

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.flags = 0


_LAST: Final = _Last()


def natives(rules: Rules) -> int:
    """Which of FPF's own policies decide in `rules` (`MASK_BASES` ...): those the FPF rules
    then ask natively, through the same functions the policies call, and not through a Python
    call each time. Worked out once for each rules object (they are shared by the battles of
    the same modules, and their policies are bound once)."""
    last = _LAST
    if last.rules is rules:
        return last.flags
    flags = _natives(rules)
    last.rules = rules
    last.flags = flags
    return flags


def _natives(rules: Rules) -> int:
    """`natives`, by the rules' identity."""
    found = _NATIVES.get(id(rules))
    if found is not None:
        return found[1]
    flags = 0
    masking = type(rules.provider(RuleModule.line_of_fire_clear))
    if masking is MaskingStationary:
        flags |= MASK_BASES
    elif masking is MaskingNone:
        flags |= MASK_NONE
    if type(rules.provider(RuleModule.penetrates)) is FpfDamage:
        flags |= FPF_PENETRATION
    if type(rules.provider(RuleModule.battle_over)) is FpfDamage:
        flags |= FPF_END
    if len(_NATIVES) >= 256:  # (a bound for long sessions of rules made on the fly)
        _NATIVES.clear()
    _NATIVES[id(rules)] = (rules, flags)
    return flags


def battle_over(battle: Battle) -> bool:
    """`battle.over()`: FPF's own end (`one_side_left`) asked natively when it is the
    battle's."""
    if battle.result is not None:
        return True
    rules = battle.rules
    if natives(rules) & FPF_END:
        return one_side_left(battle)
    return rules.battle_over(battle)


def one_side_left(battle: Battle) -> bool:
    """Whether ships of only one side (or none) are alive: FPF's end of the battle before its
    turn limit (`FpfDamage.battle_over`)."""
    # (a loop: asked before every activation)
    side = None
    for s in battle.all_ships:
        if s.alive:
            if side is None:
                side = s.side
            elif s.side != side:
                return False
    return True


SYSTEMS_FLOOR: Final = -10  # FPF-DMG-14

# Enum members as constants of this module: compiled code reads them as C statics, where
# `Location.SHIELDS` is a look-up in the enum's class each time.
_SHIELDS: Final = Location.SHIELDS
_ENGINE_POWER: Final = Location.ENGINE_POWER
_COMPUTER: Final = Location.COMPUTER
_PHASERS: Final = Location.PHASERS
_PHASER: Final = WeaponKind.PHASER
_PHOTON: Final = WeaponKind.PHOTON
# (the event class as a constant: compiled, `ev.HitScored` is a look-up in the module each time)
_HIT_SCORED: Final = ev.HitScored


def apply_damage(
    battle: Battle,
    target: ShipState,
    loc_roll: int,
    amount: int,
    attack_arc: Arc,
    by: ShipState | None,
    weapon: str,
) -> None:
    """Damage to superstructure and the location hit (FPF-DMG-07, FPF-DMG-08, FPF-DMG-09,
    FPF-DMG-10, FPF-DMG-11, FPF-DMG-12, FPF-DMG-13, FPF-DMG-14)."""
    known = target.class_facts()
    loc = known.by_face[loc_roll]
    superstructure = target.superstructure - amount
    applied = "superstructure"
    value = superstructure
    mounts: list[int] | None = None
    if loc is _SHIELDS:
        if target.shields > 0:
            applied, value = "shields", max(0, target.shields - amount)
    elif loc is _ENGINE_POWER:
        if target.engine_power > 0:
            lost = rules_in(battle).engine_damage(battle, target, amount)
            applied, value = "engine_power", max(0, target.engine_power - lost)
    elif loc is _COMPUTER:
        # Systems keep falling below zero, to -10 (FPF-DMG-14)
        applied, value = "computer", max(SYSTEMS_FLOOR, target.systems - amount)
    else:
        kind = _PHASER if loc is _PHASERS else _PHOTON
        left = list(target.mounts[kind])
        # a weapon is only damaged by fire from an arc it covers (FPF-DMG-09): the class has
        # the weapon and it bears into that arc (`ShipClass.bearing`, as `facts` keeps it)
        if kind in known.bearing[attack_arc] and _total(left) > 0:
            _damage_mounts(left, amount)
            applied, value, mounts = str(loc), _total(left), left
    battle.change(
        _HIT_SCORED,
        by.id if by else "",
        target.id,
        weapon,
        loc_roll,
        str(loc),
        amount,
        applied,
        superstructure,
        value,
        mounts,
    )
    if target.superstructure <= 0:
        rules_in(battle).destroyed(battle, target, by)
    elif target.in_control and (
        (target.engine_power <= 0 and not known.stationary) or target.systems <= 0
    ):
        # ballistic: engines or Systems at 0, it drifts (FPF-DMG-13, FPF-DMG-15); a fixed base
        # has no engines to lose, only its Systems (docs/rules.md, Bases in FPF); detoothed and
        # toast are ShipState.detoothed and .toast
        battle.set_control(target, False)


def _total(mounts: list[int]) -> int:
    """`sum(mounts)`, as a native loop (compiled, the builtin is a Python call)."""
    total = 0
    for shots in mounts:
        total += shots
    return total


def _damage_mounts(mounts: list[int], amount: int) -> None:
    """Remove `amount` shots, concentrated on the weakest working mount (owner's choice, see
    docs/rules.md FPF-DATA): a mount knocked out needs only one Damage Control point."""
    for _ in range(amount):
        # the working mount with the fewest shots, the first of equals
        weakest = -1
        for i in range(len(mounts)):
            shots = mounts[i]
            if shots > 0 and (weakest < 0 or shots < mounts[weakest]):
                weakest = i
        if weakest < 0:
            return
        mounts[weakest] -= 1
