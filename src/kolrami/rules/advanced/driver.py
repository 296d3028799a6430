"""The advanced game's turn driver (ADV-SEQ-01, ADV-SEQ-02, ADV-SEQ-03, ADV-SEQ-04, ADV-SEQ-05): a
different turn from FPF's.

A game turn: the captains roll for Tactical Advantage (ADV-SEQ-04); every officer but the Captain
takes one bonus roll (ADV-OFF-03); casualties recover (ADV-CAS-02); ships try sensor locks
(ADV-SENS-01); power is allocated (ADV-POW-01, ADV-SHLD). Then five phases (ADV-SEQ-02), each:
movement, fewest movement points first and Tactical Advantage last on ties (ADV-SEQ-03); fire,
declared by the side without Tactical Advantage first, then evasions, then resolution; and shield
redistribution (ADV-SEQ-05). In every step the side without Tactical Advantage answers first.

Scenarios choose it with `driver = "advanced"`, or any advanced rule module names it; FPF's driver
and this one know nothing of each other (kolrami.engine.driver.register_driver).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

from kolrami.catalog.advanced import AdvWeapon, advanced_pack
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle, Result, other
from kolrami.engine.binder import Game
from kolrami.engine.orders import Decision, IllegalOrderError, Order
from kolrami.errors import InvalidInputError
from kolrami.rules.advanced import combat, officers, power
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.modules import (
    NO_CLOAKS,
    PART_ONE,
    TO_HIT_BANDS,
    AdvancedModule,
    AdvancedRules,
)
from kolrami.rules.advanced.orders import (
    AttackDecision,
    AttackOrder,
    BonusDecision,
    BonusOrder,
    EvadeDecision,
    EvadeOrder,
    LockDecision,
    LockOrder,
    MoveDecision,
    MoveOrder,
    PowerDecision,
    PowerOrder,
    ShieldDecision,
    ShieldOrder,
)
from kolrami.rules.advanced.state import KEY, PHASES, AdvancedState, AdvShip, setup
from kolrami.rules.fpf.movement import move_single
from kolrami.rules.fpf.orders import Maneuver

#: Bump whenever a change can alter an advanced battle's outcome for the same inputs (GUIDE 3.10).
ADVANCED_RULES_VERSION = "adv-3"

T = TypeVar("T")
#: One step of the turn: yields decisions, receives orders, returns nothing.
Steps = Generator[Decision, Order, None]


def _expect(order: Order, kind: type[T], what: str) -> T:
    if not isinstance(order, kind):
        raise IllegalOrderError(f"expected {what}, got '{order}'")
    return order


def allowance(adv: AdvShip, phase: int) -> int:
    """Hexes a ship may move in `phase`: its turn's movement spread evenly over the five phases,
    the odd hexes in the later ones, never more than it has left."""
    if adv.held:  # a webbed ship does not move (module adv-webs)
        return 0
    share = adv.moves * phase // PHASES - adv.moves * (phase - 1) // PHASES
    if adv.tow_cap >= 0:  # towing a captive (module adv-webs)
        share = min(share, adv.tow_cap)
    return max(0, min(share, adv.moves - adv.moved))


def verify_move(adv: AdvShip, decision: MoveDecision, order: MoveOrder) -> None:
    """A move within the phase's allowance; a ship turns only as it moves."""
    if order.ship != decision.ship:
        raise IllegalOrderError(f"this move is {decision.ship}'s, not {order.ship}'s")
    if order.hexes > decision.hexes:
        raise IllegalOrderError(
            f"{adv.id} may move {decision.hexes} hex(es) in phase {decision.phase}, not "
            f"{order.hexes} (its {adv.moves} a turn spread over {PHASES} phases, ADV-SEQ-02)"
        )
    if order.turn1 not in (-1, 0, 1) or order.turn2 not in (-1, 0, 1):
        raise IllegalOrderError(
            f"{adv.id}: turns are -1, 0 or +1 hexside at the start and the middle of the move"
        )
    if order.hexes == 0 and (order.turn1 or order.turn2):
        raise IllegalOrderError(f"{adv.id}: a ship turns only as it moves (give 1 hex or more)")


#: The module that plays a scenario's terrain (kolrami.rules.advanced.terrain).
TERRAIN_MODULE = "adv-terrain"

#: FPF modules whose rules still hold in the advanced game: its victory conditions and
#: destruction (the FPF core's policies), masking's method (unused), and derelicts.
FPF_MODULES_KEPT = frozenset({"derelicts", "masking-stationary", "masking-none"})


def check_modules(battle: Battle) -> None:
    """Refuse FPF options the advanced game would silently ignore (micro warp jumps, battle
    simulation ...): they hook FPF's turn, which the advanced driver does not play."""
    for module in battle.rules.modules:
        if module.core or module.name in FPF_MODULES_KEPT or isinstance(module, AdvancedModule):
            continue
        raise InvalidInputError(
            f"rule module '{module.name}' belongs to FPF's turn and has no effect in the advanced "
            "game; leave it out (advanced modules: see kolrami rules)"
        )
    placed = [t.kind for t in battle.scenario.terrain if t.kind != "planet"]
    if placed and TERRAIN_MODULE not in battle.rules.names:
        raise InvalidInputError(
            f"scenario '{battle.scenario.name}' places terrain ({', '.join(sorted(set(placed)))}) "
            f"that only module '{TERRAIN_MODULE}' plays; add it to the scenario's rules or "
            f"--rules {TERRAIN_MODULE}"
        )


def advanced_turns(battle: Battle) -> Game:
    """Set up the advanced game, then game turns until the turn limit or a fleet is gone."""
    check_modules(battle)
    rules = AdvancedRules.of(battle)
    pack = advanced_pack()
    battle.log.record(
        ae.AdvancedStarted,
        ADVANCED_RULES_VERSION,
        pack.data_version,
        battle.scenario.hex_cm,
        PHASES,
    )
    state = setup(battle, pack, rules)
    battle.extensions[KEY] = state
    while battle.turn < battle.scenario.turn_limit and not battle.over():
        battle.turn += 1
        battle.log.record(ev.TurnStarted, battle.turn)
        yield from _turn(battle, state)
        battle.log.record(ev.TurnEnded, battle.turn)
    result: Result = battle.finish()
    return result


def _upkeep(battle: Battle, state: AdvancedState) -> None:
    """Per-turn bookkeeping: officers and sensors count down; this turn's allocations clear."""
    for a in state.ships.values():
        if not a.alive:
            continue
        for officer in a.officers.values():
            officer.out = max(0, officer.out - 1)
        a.sensor_damage = max(0, a.sensor_damage - 1)
        a.aim_bonus = a.extra_targets = a.bonus_power = a.shield_bonus = 0
        a.recovery = officers.BASE_RECOVERY
        a.plan = None
        a.cost = a.moved = 0
        a.power = [0] * len(a.sheet.weapons)
        a.fired = [False] * len(a.sheet.weapons)
        a.shields_up = False
        a.evasion = None
        a.last_moves = a.moves
        a.lock_failed = a.exposed = a.decloaked = False
        a.shake = None
        a.warp_bonus = 0
        a.decoded = max(0, a.decoded - 1)
        a.pinged_by.clear()
        if a.lock is not None and not state.of(a.lock).alive:
            officers.lose_lock(battle, a, "target gone")


def _turn(battle: Battle, state: AdvancedState) -> Steps:
    state.rules.start_turn(battle, state)
    _upkeep(battle, state)
    state.fresh_tries.clear()
    officers.roll_tactical_advantage(battle, state)
    sides = (other(state.tac), state.tac)  # Tactical Advantage answers last

    for side in sides:  # 1. bonus rolls (ADV-OFF-03)
        ships = tuple(a.id for a in state.side(side) if officers.bonus_options(state, a))
        if not ships:
            continue
        decision = BonusDecision(side, ships)
        order = _expect((yield decision), BonusOrder, "BONUS ... or BONUS NONE")
        officers.verify_bonus(state, decision, order)
        for ship_id, role, choice in order.choices:
            officers.take_bonus(battle, state, state.of(ship_id), role, choice)
    for a in state.ships.values():
        if a.alive:
            officers.recover(battle, a)

    for side in sides:  # then sensor locks (ADV-SENS-01)
        ships = tuple(a.id for a in officers.lock_candidates(state, side))
        if not ships or not state.side(other(side)):
            continue
        locks = LockDecision(side, ships)
        got = _expect((yield locks), LockOrder, "LOCK ... or LOCK NONE")
        officers.verify_locks(state, locks, got)
        for ship_id, target in got.locks:
            officers.try_lock(battle, state, state.of(ship_id), target)

    # power allocation (ADV-POW-01, ADV-SHLD-01, ADV-SHLD-02, ADV-SHLD-03, ADV-SHLD-04, ADV-SHLD-05,
    # ADV-SHLD-06)
    for side in sides:
        ships = tuple(a.id for a in state.side(side))
        if not ships:
            continue
        allocation = PowerDecision(side, ships)
        plans = _expect((yield allocation), PowerOrder, "POWER ... or POWER NONE")
        power.verify_power(state, allocation, plans)
        for ship_id in ships:
            adv = state.of(ship_id)
            power.apply_plan(battle, state, adv, plans.plan_of(ship_id) or power.idle_plan(adv))
    state.rules.power_set(battle, state)

    for phase in range(1, PHASES + 1):  # five phases (ADV-SEQ-02)
        if battle.over():
            break
        state.phase = phase
        battle.log.record(ae.PhaseStarted, battle.turn, phase)
        yield from _movement(battle, state, phase)
        if battle.over():
            break
        yield from state.rules.moved(battle, state, phase, sides)
        yield from _fire(battle, state, phase, sides)
        yield from _redistribution(battle, state, phase, sides)
        state.rules.end_phase(battle, state, phase)
        for a in state.ships.values():
            a.evasion = None
    state.rules.end_turn(battle, state)


def _movement(battle: Battle, state: AdvancedState, phase: int) -> Steps:
    """Fewest movement points first; on equal points the side with Tactical Advantage moves
    later (ADV-SEQ-03)."""
    for a in state.ships.values():
        a.moved_last = False  # "changed position last phase" (ADV-SENS-02, ADV-CLOAK-03)
    movers = [a for a in state.ships.values() if a.alive and allowance(a, phase) > 0]
    movers.sort(key=lambda a: (a.moves, a.side == state.tac, a.ship.index))
    for adv in movers:
        if not adv.alive:
            continue
        straight = state.rules.straight_only(state, adv)
        decision = MoveDecision(adv.side, adv.id, allowance(adv, phase), phase, straight)
        order = _expect((yield decision), MoveOrder, f"MOVE {adv.id} n T0 T0")
        verify_move(adv, decision, order)
        if straight and (order.turn1 or order.turn2):
            raise IllegalOrderError(
                f"{adv.id}: no impulse: it warps straight ahead, no turns (ADV-IMP-02)"
            )
        if order.hexes:
            m = Maneuver(order.hexes * state.hex_cm, order.turn1, order.turn2)
            move_single(battle, adv.ship, m)
            adv.moved += order.hexes
            adv.moved_last = True
    return None


def _fire(battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]) -> Steps:
    """Declarations (no Tactical Advantage first), evasions, then every attack resolves."""
    for side in sides:
        ships = tuple(
            a.id
            for a in state.side(side)
            if combat.can_fire(a) and not state.rules.fire_barred(state, a)
        )
        if not ships or not state.side(other(side)):
            continue
        decision = AttackDecision(side, phase, ships)
        order = _expect((yield decision), AttackOrder, "ATTACK ... or ATTACK NONE")
        combat.verify_attacks(state, decision, order)
        for ship_id in ships:
            combat.declare(state, state.of(ship_id), order.attacks)
    for side in sides:  # evasion is declared before the enemy fires (ADV-EVA-03)
        threatened = tuple(combat.evasion_candidates(state, side))
        if not threatened:
            continue
        dodge = EvadeDecision(side, phase, threatened)
        got = _expect((yield dodge), EvadeOrder, "EVADE ... or EVADE NONE")
        combat.verify_evasions(state, dodge, got)
        for ship_id, turn in got.evasions:
            combat.evade(battle, state, state.of(ship_id), turn)
    combat.resolve(battle, state)
    return None


def _redistribution(
    battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
) -> Steps:
    """Leftover shield points may be moved between facings with a Shield Tech check
    (ADV-SEQ-05)."""
    for side in sides:
        ships = tuple(a.id for a in state.side(side) if a.shielded)
        if not ships:
            continue
        decision = ShieldDecision(side, phase, ships)
        order = _expect((yield decision), ShieldOrder, "SHIELDS ... or SHIELDS NONE")
        seen: set[str] = set()
        for ship_id, new in order.plans:
            if ship_id not in ships or ship_id in seen:
                raise IllegalOrderError(
                    f"{ship_id} cannot redistribute now (once a phase, shields up); ships that "
                    f"can: {', '.join(ships)} (ADV-SEQ-05)"
                )
            seen.add(ship_id)
            power.verify_redistribution(state.of(ship_id), new)
        for ship_id, new in order.plans:
            power.redistribute(battle, state.of(ship_id), new)
    return None


class AdvancedCore(AdvancedModule):
    """The advanced game (seed 004), part 1: officers, checks, sensors, power, shields, weapons."""

    name = "advanced"
    base = True
    driver = "advanced"
    clauses = PART_ONE
    summary = (
        "The advanced game: officers and checks, five phases a turn, sensors, power, six "
        "shield facings, narrow arcs, disruptor pairs, aimed beams, evasion. Plays with its own "
        "turn driver."
    )

    def reinforcement_cap(self, state: AdvancedState, ship: AdvShip, facing: int, base: int) -> int:
        return 0

    def to_hit_number(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, distance: float
    ) -> int:
        if distance > weapon.range_cm:
            return 0
        for share, number in TO_HIT_BANDS:
            if distance <= weapon.range_cm * share:
                return number
        return 0

    def lock_allowed(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> bool:
        return target.alive and target.side != ship.side

    def visible(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        return True

    def search_problem(self, state: AdvancedState, ship: AdvShip, facing: int) -> str | None:
        return f"searching for cloaked ships: {NO_CLOAKS} (ADV-SENS-02)"

    def search(self, battle: Battle, state: AdvancedState, ship: AdvShip, facing: int) -> None:
        raise AssertionError("a search was not verified")

    def cloak_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        return f"{NO_CLOAKS} (ADV-CLOAK-01)"

    def fire_problem(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        return None

    def point_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        return f"dispersal torpedoes hunt cloaked ships: {NO_CLOAKS} (ADV-CLOAK-07)"

    def fire_gate(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        return True

    def hit_stands(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        return True

    def fire_at_point(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, index: int, x: int, y: int
    ) -> None:
        raise AssertionError("a dispersal shot was not verified")

    def speed_limit(self, state: AdvancedState, ship: AdvShip) -> int | None:
        return None

    def adv_after_power(self, battle: Battle, state: AdvancedState) -> None:
        # decoded traffic shows the enemy's power plans, now that they are made (ADV-OFF-12)
        for side in ("A", "B"):
            if not any(a.decoded for a in state.side(side)):
                continue
            plans = {
                a.id: str(a.plan).partition(":")[2]
                for a in state.ships.values()
                if a.side != side and a.alive and a.plan is not None
            }
            if plans:
                battle.log.record(ae.TrafficDecoded, side, plans)

    def turns(self, battle: Battle) -> Game:
        return advanced_turns(battle)
