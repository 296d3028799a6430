"""The FPF rules as rule modules: the turn (FPF-TURN), repairs (FPF-REP), initiative and
activation (FPF-MOV, FPF-FIRE), damage (FPF-DMG) and masking (FPF-MASK), plus FPF's optional
rules (FPF-OPT). Legality checks for every order live here too, beside the rules they enforce.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kolrami.catalog.models import Arc, WeaponKind
from kolrami.engine import events as ev
from kolrami.engine.geometry import arc_to, segment_hits_circle
from kolrami.engine.orders import (
    ActivateOrder,
    ActivationDecision,
    Decision,
    FireTarget,
    IllegalOrderError,
    InitiativeDecision,
    InitiativeOrder,
    Maneuver,
    OrdersDecision,
    ReactionDecision,
    ReactionOrder,
    RepairDecision,
    RepairOrder,
    SquadronOrder,
)
from kolrami.rules.fpf_damage import penetrates
from kolrami.rules.registry import RuleModule, register
from kolrami.scenarios.models import Masking, Scenario

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, ShipState, SquadronState

CORE_MODULES = ("fpf-turn", "fpf-repairs", "fpf-initiative", "fpf-damage", "cards")


def mode_modules(scenario: Scenario) -> list[str]:
    """Modules a scenario's options select (masking method)."""
    return ["masking-stationary" if scenario.masking is Masking.STATIONARY else "masking-none"]


# --- the turn ---------------------------------------------------------------------------------


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


# --- repairs ----------------------------------------------------------------------------------


def damaged_items(ship: ShipState) -> list[str]:
    """Items a Damage Control point could work on now (FPF-REP-01, FPF-REP-05, FPF-REP-07)."""
    items = []
    if ship.systems < ship.max_systems:
        items.append("computer")
    if ship.engine_power < ship.max_engine:
        items.append("engine_power")
    if ship.shields < ship.max_shields:
        items.append("shields")
    mounts = ship.mounts
    for kind, weapon in ship.cls.weapons():
        now, printed = mounts[kind], weapon.mounts
        if tuple(now) != printed:
            items += [f"{kind.value}s.{i}" for i, p in enumerate(printed) if now[i] < p]
    return items


def verify_repairs(battle: Battle, decision: RepairDecision, order: RepairOrder) -> None:
    """Each ship spends at most its Damage Control rating, on items it has damaged."""
    spent: dict[str, int] = {}
    for ship_id, item in order.repairs:
        if ship_id not in decision.ships:
            raise IllegalOrderError(
                f"{ship_id} cannot repair now; ships that can: "
                f"{', '.join(decision.ships) or 'none'} (FPF-REP-02)"
            )
        ship = battle.ships[ship_id]
        spent[ship_id] = spent.get(ship_id, 0) + 1
        if spent[ship_id] > ship.damage_control:
            raise IllegalOrderError(
                f"{ship_id} has {ship.damage_control} Damage Control point(s) a turn and "
                f"spends {spent[ship_id]} (FPF-REP-01)"
            )
        if item not in damaged_items(ship):
            raise IllegalOrderError(
                f"{ship_id} has no damaged '{item}' to repair; damaged: "
                f"{', '.join(damaged_items(ship)) or 'nothing'} (FPF-REP-07)"
            )
        if item != "computer" and order.repairs.count((ship_id, item)) > 1:
            raise IllegalOrderError(
                f"{ship_id} repairs '{item}' twice; one point restores it fully "
                "(FPF-REP-01); only Systems recover a step per point (FPF-REP-05)"
            )


def apply_repair(battle: Battle, ship: ShipState, item: str) -> None:
    """One Damage Control point: Systems +1, anything else back to its printed value."""
    if item == "computer":
        ship.systems = min(ship.max_systems, ship.systems + 1)
        value = ship.systems
    elif item == "engine_power":
        ship.engine_power = value = ship.max_engine
    elif item == "shields":
        ship.shields = value = ship.max_shields
    else:
        kind_name, _, index = item.partition(".")
        for kind, weapon in ship.cls.weapons():
            if kind.value + "s" == kind_name:
                ship.mounts[kind][int(index)] = value = weapon.mounts[int(index)]
    battle.log.record(ev.Repaired, ship.id, item, value)


@register
class FpfRepairs(RuleModule):
    """Damage control at the start of the turn (FPF-REP-01, FPF-REP-02, FPF-REP-03, FPF-REP-04,
    FPF-REP-05, FPF-REP-06, FPF-REP-07)."""

    name = "fpf-repairs"
    core = True
    clauses = (
        "FPF-REP-01",
        "FPF-REP-02",
        "FPF-REP-03",
        "FPF-REP-04",
        "FPF-REP-05",
        "FPF-REP-06",
        "FPF-REP-07",
        "FPF-DMG-13",
    )
    summary = "Each Damage Control point restores one item (Systems: one step) at turn start."

    def repairs(self, battle: Battle) -> Iterator[Decision]:
        for side in ("A", "B"):
            ships = tuple(
                s.id for s in battle.side_ships(side) if s.damage_control > 0 and damaged_items(s)
            )
            if not ships:
                continue
            decision = RepairDecision(side, ships)
            order = yield decision
            if not isinstance(order, RepairOrder):
                raise IllegalOrderError(f"expected a REPAIR order, got '{order}'")
            verify_repairs(battle, decision, order)
            for ship_id, item in order.repairs:
                apply_repair(battle, battle.ships[ship_id], item)
        for ship in battle.ships.values():
            if ship.alive and not ship.in_control and ship.engine_power > 0 and ship.systems > 0:
                battle.set_control(ship, True)


# --- initiative and activation ----------------------------------------------------------------


def forcible_prey(battle: Battle, squadron: SquadronState, pending: set[str]) -> tuple[str, ...]:
    """Enemy squadrons `squadron` pursues closely enough to force them to move first (FPF-MOV-10).

    A pursuer ship must sit in a prey ship's rear arc while that prey ship is in its front arc.
    """
    out = []
    pursuers = [battle.ships[s] for s in squadron.ships if battle.ships[s].alive]
    for prey in battle.side_squadrons("B" if squadron.side == "A" else "A"):
        if prey.id not in pending:
            continue
        hit = False
        for q in (battle.ships[s] for s in prey.ships if battle.ships[s].alive):
            for p in pursuers:
                if (
                    arc_to(q.x, q.y, q.heading, p.x, p.y) is Arc.A
                    and arc_to(p.x, p.y, p.heading, q.x, q.y) is Arc.F
                ):
                    hit = True
                    break
            if hit:
                break
        if hit:
            out.append(prey.id)
    return tuple(out)


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


def verify_squadron_order(battle: Battle, squadron: SquadronState, order: SquadronOrder) -> None:
    """Orders of an activated squadron: the right movers, legal manoeuvres, legal fire."""
    if order.squadron != squadron.id:
        raise IllegalOrderError(f"orders are for {squadron.id}, not {order.squadron}")
    movers = battle.movers(squadron)
    given = [s for s, _ in order.moves]
    if sorted(given, key=str) != sorted(movers, key=str) or len(set(given)) != len(given):
        names = ["formation" if s is None else s for s in movers]
        raise IllegalOrderError(
            f"{squadron.id} needs one manoeuvre for each of: "
            f"{', '.join(names) or 'nobody'} (FPF-MOV-07)"
        )
    for who, m in order.moves:
        if who is None:
            ships = [battle.ships[s] for s in squadron.formation]
            verify_maneuver(battle, ships, m, None, f"{squadron.id} formation")
    for who, m in order.moves:
        if who is not None:
            # a detached ship flies on its own: it is no longer a wingman on the leader's path
            verify_maneuver(battle, [battle.ships[who]], m, None, who)
    if order.fire is not None:
        verify_targets(battle, squadron, order.fire, None)


def activate(battle: Battle, squadron: SquadronState, forced_by: str | None) -> Iterator[Decision]:
    """One activation: reactions, orders, fire declaration, movement with locked fire."""
    squadron.activated = True
    battle.log.record(ev.SquadronActivated, squadron.id, forced_by)
    battle.stats.activations += 1
    battle.activation_order.append(squadron.id)
    enemy = "B" if squadron.side == "A" else "A"
    # The opponent may react before the squadron moves (FPF-FIRE-11).
    for other in battle.side_squadrons(enemy):
        if other.fired or not battle.firers(other):
            continue
        decision = ReactionDecision(enemy, other.id, squadron.id)
        reaction = yield decision
        if not isinstance(reaction, ReactionOrder) or reaction.squadron != other.id:
            raise IllegalOrderError(f"expected REACT {other.id} ..., got '{reaction}'")
        if reaction.fire is not None:
            verify_targets(battle, other, reaction.fire, squadron.id)
            battle.declare(reaction.fire, squadron.id)
            other.fired = True
    order: SquadronOrder | None = None
    if battle.movers(squadron) or (not squadron.fired and battle.firers(squadron)):
        got = yield OrdersDecision(squadron.side, squadron.id)
        if not isinstance(got, SquadronOrder):
            raise IllegalOrderError(f"expected orders for {squadron.id}, got '{got}'")
        verify_squadron_order(battle, squadron, got)
        order = got
    jumping = order is not None and any(m.jump for _, m in order.moves)
    if order is not None and order.fire is not None:
        battle.declare(order.fire, None, jumping)
        squadron.fired = True
    if order is not None:
        for who, move in order.moves:
            if move.jump:
                ids = squadron.formation if who is None else [who]
                for sid in list(ids):
                    battle.rules.before_jump(battle, battle.ships[sid])
    battle.moving = squadron.id
    formation_move = order.move_of(None) if order else None
    if formation_move is not None:
        battle.move_formation(squadron, formation_move)
    for sid in list(squadron.ships):
        ship = battle.ships[sid]
        if not ship.alive or not ship.detached or ship.moved:
            continue  # a ship that lost control during the formation's move has moved already
        m = order.move_of(sid) if (order and ship.in_control) else None
        battle.move_single(ship, m)
    battle.moving = None
    for ship in battle.ships.values():  # reaction locks on this squadron are spent
        if ship.lock is not None and ship.lock.reaction_to == squadron.id:
            ship.lock = None


@register
class FpfInitiative(RuleModule):
    """Squadrons activate fastest first, alternating at equal speed (FPF-MOV-01, FPF-MOV-02,
    FPF-MOV-03, FPF-MOV-04, FPF-MOV-05, FPF-MOV-10)."""

    name = "fpf-initiative"
    core = True
    clauses = (
        "FPF-MOV-01",
        "FPF-MOV-02",
        "FPF-MOV-03",
        "FPF-MOV-04",
        "FPF-MOV-05",
        "FPF-MOV-10",
        "FPF-FIRE-10",
        "FPF-FIRE-11",
    )
    summary = "Initiative by last turn's speed, d10 roll-offs, alternation, forced activation."

    def initiative(self, battle: Battle) -> Iterator[Decision]:
        pending = {
            q.id for q in battle.squadrons.values() if any(battle.ships[s].alive for s in q.ships)
        }
        speeds = {q: battle.squadron_speed(battle.squadrons[q]) for q in pending}
        for speed in sorted(set(speeds.values()), reverse=True):
            tier = {
                s: [q for q in sorted(pending) if speeds[q] == speed and q[0] == s]
                for s in ("A", "B")
            }
            if not tier["A"] and not tier["B"]:
                continue
            if tier["A"] and tier["B"]:
                rolls: list[list[int]] = []
                bonus_a = battle.rules.initiative_bonus(battle, "A")
                bonus_b = battle.rules.initiative_bonus(battle, "B")
                while True:
                    a, b = battle.dice.d10(), battle.dice.d10()
                    rolls.append([a, b])
                    if a + bonus_a != b + bonus_b:
                        break
                winner = "A" if a + bonus_a > b + bonus_b else "B"
                choice = yield InitiativeDecision(winner, speed)
                if not isinstance(choice, InitiativeOrder):
                    raise IllegalOrderError(f"expected FIRST or SECOND, got '{choice}'")
                first = winner if choice.first else ("B" if winner == "A" else "A")
                battle.log.record(ev.InitiativeRolled, speed, rolls, winner, first)
            else:
                first = "A" if tier["A"] else "B"
            turn = first
            while True:
                if battle.over():
                    return
                mine = [q for q in sorted(pending) if speeds[q] == speed and q[0] == turn]
                theirs_side = "B" if turn == "A" else "A"
                if not mine:
                    theirs = [q for q in pending if speeds[q] == speed and q[0] == theirs_side]
                    if not theirs:
                        break
                    turn = theirs_side
                    continue
                forcible = tuple(
                    (q, prey)
                    for q in mine
                    if (prey := forcible_prey(battle, battle.squadrons[q], pending))
                )
                decision = ActivationDecision(turn, tuple(mine), forcible)
                act = yield decision
                if not isinstance(act, ActivateOrder) or act.squadron not in mine:
                    raise IllegalOrderError(
                        f"{turn} must activate one of {', '.join(mine)} (FPF-MOV-02), not '{act}'"
                    )
                if act.force is not None:
                    allowed = dict(forcible).get(act.squadron, ())
                    if act.force not in allowed:
                        raise IllegalOrderError(
                            f"{act.squadron} cannot force {act.force} to move first: no pursuer "
                            "in its rear arc with it ahead (FPF-MOV-10)"
                        )
                    pending.discard(act.force)
                    yield from activate(battle, battle.squadrons[act.force], act.squadron)
                    if battle.over():
                        return
                pending.discard(act.squadron)
                yield from activate(battle, battle.squadrons[act.squadron], None)
                turn = theirs_side


# --- damage -----------------------------------------------------------------------------------


@register
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

    def penetrates(
        self, battle: Battle, firer: ShipState, target: ShipState, strength: int, roll: int
    ) -> bool:
        return penetrates(roll, target.shields, strength)

    def engine_damage(self, battle: Battle, ship: ShipState, amount: int) -> int:
        return amount

    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        battle.remove(ship, by, derelict=False)

    def squadron_fires_as_unit(self, battle: Battle) -> bool:
        return True

    def check_jump(self, battle: Battle, ships: list[ShipState], m: Maneuver, who: str) -> None:
        raise IllegalOrderError(
            f"{who}: micro warp jumps are an optional rule; switch on the module "
            "'micro-warp-jump' (FPF-OPT-04)"
        )

    def jump_weapons(self, battle: Battle, kinds: list[WeaponKind]) -> list[WeaponKind]:
        return kinds

    def before_jump(self, battle: Battle, ship: ShipState) -> None:
        return None

    def battle_over(self, battle: Battle) -> bool:
        alive = {s.side for s in battle.ships.values() if s.alive}
        return len(alive) < 2

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


# --- masking ----------------------------------------------------------------------------------


@register
class MaskingStationary(RuleModule):
    """Masking method 1: bases block fire when firer or target stands still (FPF-MASK-01,
    FPF-MASK-03)."""

    name = "masking-stationary"
    clauses = ("FPF-MASK-01", "FPF-MASK-03", "FPF-MASK-05")
    summary = "Method 1: a base on the line of fire masks it when firer or target is at speed 0."

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        if firer.speed != 0 and target.speed != 0:
            return True
        r = battle.scenario.base_radius_cm
        for s in battle.ships.values():
            if s is firer or s is target or not s.on_table:
                continue
            if segment_hits_circle(firer.x, firer.y, target.x, target.y, s.x, s.y, r):
                return False
        return True


@register
class MaskingNone(RuleModule):
    """Masking method 2: nothing masks (FPF-MASK-06)."""

    name = "masking-none"
    clauses = ("FPF-MASK-06",)
    summary = "Method 2: no masking; ships above and below see past each other."

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        return True


# --- optional FPF rules -----------------------------------------------------------------------


@register
class Derelicts(RuleModule):
    """FPF-OPT-01: a ship at 0 superstructure is left dead in space, not blown up."""

    name = "derelicts"
    clauses = ("FPF-OPT-01",)
    summary = "Ships at 0 superstructure stay on the table as derelicts (obstacles, not targets)."

    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        battle.remove(ship, by, derelict=True)


@register
class IndividualHoldFire(RuleModule):
    """FPF-OPT-02: ships of a squadron may hold fire one by one."""

    name = "individual-hold-fire"
    clauses = ("FPF-OPT-02",)
    summary = "A squadron's ships may hold fire individually."

    def squadron_fires_as_unit(self, battle: Battle) -> bool:
        return False


@register
class BirdOfPreyEngines(RuleModule):
    """The Bird of Prey sheet's cut-off note: engine hits count double (FPF-DATA)."""

    name = "bop-engine-double-damage"
    summary = "Ships whose sheet says so lose double Engine Power from hits on locations 5-7."

    def engine_damage(self, battle: Battle, ship: ShipState, amount: int) -> int:
        return amount * 2 if ship.cls.engine_double_damage else amount


@register
class MicroWarpJump(RuleModule):
    """FPF-OPT-04, FPF-OPT-05, FPF-OPT-06: a squadron may jump 40-60 units straight ahead instead of
    moving."""

    name = "micro-warp-jump"
    clauses = ("FPF-OPT-04", "FPF-OPT-05", "FPF-OPT-06")
    summary = "Jump 40-60 (inches by default) straight ahead after the first turn; photons only."

    def check_jump(self, battle: Battle, ships: list[ShipState], m: Maneuver, who: str) -> None:
        unit = battle.scenario.micro_warp_unit_cm
        lo, hi = math.ceil(40 * unit), math.floor(60 * unit)
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
            ship.superstructure -= amount
            battle.log.record(
                ev.HitScored,
                "",
                ship.id,
                "jump strain",
                0,
                "superstructure",
                amount,
                "superstructure",
                ship.superstructure,
                ship.superstructure,
            )
            if ship.superstructure <= 0:
                battle.rules.destroyed(battle, ship, None)


@register
class NebulaFire(RuleModule):
    """FPF-OPT-09: a ship inside a nebula has no shields; shots at it get through on 9 or 10."""

    name = "nebula-fire"
    clauses = ("FPF-OPT-09",)
    summary = "Shots at a ship inside a nebula (scenario terrain) ignore shields: 9 or 10 hits."

    def penetrates(
        self, battle: Battle, firer: ShipState, target: ShipState, strength: int, roll: int
    ) -> bool:
        for t in battle.scenario.terrain:
            if t.kind == "nebula" and t.contains(target.x, target.y):
                return roll >= 9
        return penetrates(roll, target.shields, strength)
