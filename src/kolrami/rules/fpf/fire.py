"""Fire (FPF-FIRE, FPF-ARC): declarations and their legality checks."""

from __future__ import annotations

import math
from collections.abc import Collection
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING
from typing import Final

from kolrami.catalog.models import Arc
from kolrami.catalog.models import WeaponKind
from kolrami.engine.battle import Lock
from kolrami.engine.battle import ShipState
from kolrami.engine.battle import any_working
from kolrami.engine.geometry import arc_to
from kolrami.engine.geometry import segment_hits_circle
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import AUTO_FAIL
from kolrami.rules.fpf.damage import AUTO_PENETRATE
from kolrami.rules.fpf.damage import FPF_PENETRATION
from kolrami.rules.fpf.damage import MASK_BASES
from kolrami.rules.fpf.damage import MASK_NONE
from kolrami.rules.fpf.damage import apply_damage
from kolrami.rules.fpf.damage import natives
from kolrami.rules.fpf.damage import rules_in
from kolrami.rules.fpf.masking import bases_clear
from kolrami.rules.fpf.masking import escorts
from kolrami.rules.fpf.orders import FireTarget
from kolrami.rules.fpf.volley import Volley
from kolrami.rules.module import Ruleset

#: a weapon group ready to fire: firer, target, weapon kind, range; and one whose dice are rolled
Ready = tuple[ShipState, ShipState, WeaponKind, float]
Rolled = tuple[ShipState, ShipState, WeaponKind, list[tuple[int, int]]]

# Enum members as constants of this module: compiled code reads them as C statics, where
# `Location.SHIELDS` is a look-up in the enum's class each time.
_FORE: Final = Arc.F
_PHOTON: Final = WeaponKind.PHOTON
# (event classes as constants: compiled, `ev.VolleyFired` is a look-up in the module each time)
_FIRE_DECLARED: Final = ev.FireDeclared
_VOLLEY_FIRED: Final = ev.VolleyFired

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import SquadronState


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
    able = {s.id for s in firers(battle, squadron) if reaction_to is None or s.bears(_FORE)}
    seen = set()
    for t in targets:
        sid = t.ship  # (read once: an order's fields are a Python object's, slow to read)
        if sid in seen:
            raise IllegalOrderError(
                f"{sid} declares two targets; a ship fires at one target "
                "out of one arc (FPF-FIRE-04, FPF-FIRE-05)"
            )
        seen.add(sid)
        if sid not in squadron.ships:
            raise IllegalOrderError(f"{sid} is not in squadron {squadron.id}")
        if sid not in able:
            raise IllegalOrderError(
                f"{sid} cannot fire: destroyed, out of control, with no working weapon "
                "(FPF-DMG-13, FPF-DMG-15) or a non-combatant escort (FPF-MASK-04)"
            )
        ship = battle.ships[sid]
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
            if t.arc is not _FORE:
                raise IllegalOrderError(
                    f"{t.ship}: reaction fire goes out of the forward arc only (FPF-FIRE-11)"
                )
            if target.squadron != reaction_to:
                raise IllegalOrderError(
                    f"{t.ship}: reaction fire must target the moving squadron "
                    f"{reaction_to} (FPF-FIRE-11)"
                )
    if rules_in(battle).squadron_fires_as_unit(battle) and seen != able:
        missing = ", ".join(sorted(able - seen))
        raise IllegalOrderError(
            f"{squadron.id} fires as a unit or not at all: {missing} must "
            "declare a target too, or the squadron holds (FPF-FIRE-13)"
        )


def firers(battle: Battle, squadron: SquadronState) -> list[ShipState]:
    """Ships of a squadron able to fire now: alive, in control, with a working weapon, and no
    non-combatant escort (FPF-MASK-04: it fires nothing all battle)."""
    ships = battle.ships
    escorting = escorts(battle)
    out = []
    for sid in squadron.ships:
        s = ships[sid]
        if s.alive and s.in_control and sid not in escorting:
            # `not s.detoothed`, written out: asked of every squadron at every decision
            for mounts in s.mounts.values():
                if any_working(mounts):
                    out.append(s)
                    break
    return out


def _clear_of_terrain(battle: Battle, ship: ShipState, target: ShipState) -> bool:
    """No planet on the line of fire (PP-03: a planet blocks fire whatever the masking)."""
    for t in battle.blockers:
        if segment_hits_circle(ship.x, ship.y, target.x, target.y, t.x, t.y, t.radius_cm):
            return False
    return True


def declare(
    battle: Battle, targets: tuple[FireTarget, ...], reaction_to: str | None, jumping: bool = False
) -> None:
    """Lock the listed ships on their targets (FPF-FIRE-06: all declared before any shot).

    A weapon fires only at a target it has locked on (FPF-FIRE-02). A ship locks through one arc
    for the turn (FPF-ARC-02), and every working weapon covering that arc joins the lock
    (FPF-ARC-04)."""
    for t in targets:
        # (each field read once: an order's fields are a Python object's, slow to read)
        sid, arc, tid = t.ship, t.arc, t.target
        ship = battle.ships[sid]
        kinds = ship.bears(arc)
        if jumping:
            kinds = rules_in(battle).jump_weapons(battle, kinds)
        ship.lock = Lock(tid, arc, kinds, reaction_to)
        battle.locked.append(ship)
        ship.fired = True
        battle.note(_FIRE_DECLARED, sid, tid, str(arc), reaction_to is not None)


#: `resolve_locks`'s answer when nothing fired, shared (most of its calls fire nothing)
_NONE_FIRED: Final[frozenset[str]] = frozenset()


def resolve_locks(battle: Battle, moving: Collection[str] = ()) -> AbstractSet[str]:
    """Fire every locked weapon whose target is now in range, arc and line of fire: the auto
    tracking fires it, with no to-hit roll (FPF-FIRE-03). `moving`: the ships that have just
    moved, the only ones reaction fire may hit (FPF-FIRE-11). Returns the ships that fired or
    were fired at."""
    if not battle.locked:
        return _NONE_FIRED
    rules: Ruleset | None = None  # (found when a lock first gets as far as the line of fire)
    found = 0  # (its `natives`)
    ready: list[Ready] = []
    for ship in battle.locked:
        lock = ship.lock
        if lock is None or not lock.pending:
            continue
        if not ship.alive or not ship.in_control:
            ship.lock = None
            continue
        target = battle.ships[lock.target]
        if not target.alive:
            ship.lock = None
            continue
        if not lock.pending:
            continue
        # FPF-FIRE-11: reaction fire only at a ship of the reacted-to squadron while it moves
        if lock.reaction_to is not None and (
            battle.moving != lock.reaction_to or target.id not in moving
        ):
            continue
        # centre to centre (FPF-TURN-01); a weapon reaches as far as its printed range
        # (FPF-FIRE-15)
        dx, dy = target.x - ship.x, target.y - ship.y
        dist = math.sqrt(dx * dx + dy * dy)
        ranges = ship.ranges
        # (loops, not comprehensions, on this path: each of those is a call; and the list made
        # only for a weapon in range, as most checks find none)
        in_range: list[WeaponKind] | None = None
        for k in lock.pending:
            if dist <= ranges[k]:
                if in_range is None:
                    in_range = [k]
                else:
                    in_range.append(k)
        if in_range is None or dist < 0.01:
            continue  # (a move that passes over the target's centre: it is in no arc there)
        # the target in the locked one of the four 90-degree arcs (FPF-ARC-01)
        if arc_to(ship.x, ship.y, ship.heading, target.x, target.y) is not lock.arc:
            continue
        if battle.blockers and not _clear_of_terrain(battle, ship, target):
            continue
        if rules is None:
            rules = rules_in(battle)
            found = natives(rules)
        if found & MASK_BASES:
            if not bases_clear(battle, ship, target):
                continue
        elif not found & MASK_NONE and not rules.line_of_fire_clear(battle, ship, target):
            continue
        for k in in_range:
            lock.pending.remove(k)
            ready.append((ship, target, k, dist))
    if not ready:
        return _NONE_FIRED
    _fire(battle, ready)
    battle.locked = [s for s in battle.locked if s.lock is not None and s.lock.pending]
    seen = set()
    for ship, target, _, _ in ready:
        seen.add(ship.id)
        seen.add(target.id)
    return seen


def _fire(battle: Battle, ready: list[Ready]) -> None:
    """Resolve the groups that became ready at one moment, in the order the rules give.

    One side: ship by ship, all phasers, then all photons, each group's damage landing before
    the next group rolls (FPF-FIRE-08, FPF-FIRE-09). Both sides at once (a head-on exchange,
    FPF-FIRE-14): longest range first across both sides. Groups of equal range on opposite sides
    fire together (`_exchange`).
    """
    side = ready[0][0].side
    for r in ready:
        if r[0].side != side:
            break
    else:
        _one_side(battle, ready)
        return
    ready.sort(key=lambda r: (-r[0].range_of(r[2]), r[0].index))
    i = 0
    while i < len(ready):
        rng = ready[i][0].range_of(ready[i][2])
        tier = [r for r in ready[i:] if r[0].range_of(r[2]) == rng]
        i += len(tier)
        # what an earlier tier destroyed, knocked out or took control of fires no more
        tier = [r for r in tier if _can_still_fire(r[0], r[1], r[2])]
        if len({r[0].side for r in tier}) == 1:
            _one_side(battle, tier)
            continue
        tier.sort(key=lambda r: (r[2] is _PHOTON, r[0].index))
        _exchange(battle, tier, rng)


def _exchange(battle: Battle, tier: list[Ready], rng: int) -> None:
    """Groups of equal range on both sides, fired together (FPF-FIRE-14): each side's in ship
    order, each rolled against its target as the side's earlier groups left it and its damage
    landing at once, so no group rolls at a target its side has already taken out of play
    (FPF-FIRE-09). A side's damage falls only on the other side's ships, so neither side's
    damage in the exchange stops the other's fire: every group fires the shots its ship had as
    the exchange began. The log has them in that order, each volley's hits right after it, and
    each volley says it fired in the exchange of weapons of range `rng` (`VolleyFired.exchange`):
    its ship may show damage of the exchange it fired through (docs/rules.md FPF-FIRE-14)."""
    shots = [r[0].shots(r[2]) for r in tier]
    for side in ("A", "B"):
        for (ship, target, kind, dist), n in zip(tier, shots, strict=True):
            if ship.side == side and target.alive:
                _apply_hits(battle, _roll_group(battle, ship, target, kind, dist, None, n, rng))


def _one_side(battle: Battle, ready: list[Ready]) -> None:
    """One side's groups: ship by ship, phasers before photons (FPF-FIRE-08, FPF-FIRE-09)."""
    if len(ready) > 1:
        ready.sort(key=lambda r: (r[2] is _PHOTON, r[0].index))
    for ship, target, kind, dist in ready:
        if _can_still_fire(ship, target, kind):
            _apply_hits(battle, _roll_group(battle, ship, target, kind, dist))


def _roll_group(
    battle: Battle,
    ship: ShipState,
    target: ShipState,
    kind: WeaponKind,
    dist: float,
    shields: int | None = None,
    shots: int | None = None,
    exchange: int | None = None,
) -> Rolled:
    """Roll one group's penetration, location and damage dice (FPF-DMG-01, FPF-DMG-02,
    FPF-DMG-03, FPF-DMG-04, FPF-DMG-05, FPF-DMG-06) against `shields` (the target's as they
    stand, unless told otherwise); `shots`: its working shots (the ship's now, unless an
    exchange began with more, FPF-FIRE-14); `exchange`: the range of the exchange it fires in."""
    # evasion makes a shot as hard as if the weapon were that much weaker (card effects)
    rules = rules_in(battle)
    strength = ship.strength[kind] - rules.evasion(battle, ship, target)
    if shots is None:
        shots = ship.shots(kind)
    dice = battle.dice
    if shields is None:
        shields = target.shields
    volley = Volley(ship, target, strength, shields)
    rolls = rules.after_roll(battle, volley, dice.many(shots, 10))
    hits: list[tuple[int, int]] = []
    if natives(rules) & FPF_PENETRATION:
        # FPF's own rule (FpfDamage.penetrates, `damage.penetrates`), asked natively
        need = shields - strength
        for roll in rolls:
            if roll != AUTO_FAIL and (roll == AUTO_PENETRATE or roll >= need):
                loc_roll = dice.d10()
                dmg = dice.d6() if kind is _PHOTON else 1
                hits.append((loc_roll, dmg))
    else:
        penetrates = rules.penetrates
        for roll in rolls:
            if penetrates(battle, volley, roll):
                loc_roll = dice.d10()
                dmg = dice.d6() if kind is _PHOTON else 1
                hits.append((loc_roll, dmg))
    battle.stats.volleys += 1
    battle.stats.shots += shots
    battle.note(
        _VOLLEY_FIRED,
        ship.id,
        target.id,
        str(kind),  # a StrEnum's str() is its value, quicker to reach than .value
        shots,
        strength,
        shields,
        dist,  # exact: the event rounds it when it is built
        rolls,
        ((ship.x, ship.y, ship.heading), (target.x, target.y, target.heading)),
        exchange,
    )
    return ship, target, kind, hits


def _apply_hits(battle: Battle, rolled: Rolled) -> None:
    ship, target, kind, hits = rolled
    attack_arc = arc_to(target.x, target.y, target.heading, ship.x, ship.y)
    for loc_roll, dmg in hits:
        if not target.alive:
            break
        apply_damage(battle, target, loc_roll, dmg, attack_arc, ship, str(kind))


def _can_still_fire(ship: ShipState, target: ShipState, kind: WeaponKind) -> bool:
    """A group still fires if its ship is in play and in control, its target is in play and
    the weapon has working shots: damage lands at once (FPF-DMG-11, FPF-DMG-12, FPF-DMG-13)."""
    return ship.alive and ship.in_control and target.alive and ship.shots(kind) > 0
