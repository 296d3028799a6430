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

from collections.abc import Sequence
from typing import Final

from kolrami.catalog.advanced import AdvWeapon
from kolrami.catalog.advanced import advanced_pack
from kolrami.engine import events as ev
from kolrami.engine.battle import Battle
from kolrami.engine.battle import other
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.step import HALT
from kolrami.engine.step import Step
from kolrami.errors import InvalidInputError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced import officers
from kolrami.rules.advanced import power
from kolrami.rules.advanced.combat import verify_attacks
from kolrami.rules.advanced.combat import verify_evasions
from kolrami.rules.advanced.modules import NO_CLOAKS
from kolrami.rules.advanced.modules import PART_ONE
from kolrami.rules.advanced.modules import TO_HIT_BANDS
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.modules import AdvancedRules
from kolrami.rules.advanced.modules import AfterMove
from kolrami.rules.advanced.officers import verify_bonus
from kolrami.rules.advanced.officers import verify_locks
from kolrami.rules.advanced.orders import AttackDecision
from kolrami.rules.advanced.orders import AttackOrder
from kolrami.rules.advanced.orders import BonusDecision
from kolrami.rules.advanced.orders import BonusOrder
from kolrami.rules.advanced.orders import EvadeDecision
from kolrami.rules.advanced.orders import EvadeOrder
from kolrami.rules.advanced.orders import LockDecision
from kolrami.rules.advanced.orders import LockOrder
from kolrami.rules.advanced.orders import MoveDecision
from kolrami.rules.advanced.orders import MoveOrder
from kolrami.rules.advanced.orders import PowerDecision
from kolrami.rules.advanced.orders import PowerOrder
from kolrami.rules.advanced.orders import ShieldDecision
from kolrami.rules.advanced.orders import ShieldOrder
from kolrami.rules.advanced.power import verify_power
from kolrami.rules.advanced.state import KEY
from kolrami.rules.advanced.state import PHASES
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.state import allowance
from kolrami.rules.advanced.state import on_state
from kolrami.rules.advanced.state import setup
from kolrami.rules.advanced.state import state_of
from kolrami.rules.advanced.terrain import seen_scenario
from kolrami.rules.advanced.view import AdvancedView
from kolrami.rules.fpf.movement import move_single
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.steps import Asked
from kolrami.rules.steps import Call
from kolrami.rules.steps import Each
from kolrami.rules.steps import PhaseQuestion
from kolrami.rules.steps import expect
from kolrami.rules.steps import one_each
from kolrami.scenarios.models import Scenario

#: Bump whenever a change can alter an advanced battle's outcome for the same inputs.
ADVANCED_RULES_VERSION = "adv-4"


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


def _begin(battle: Battle) -> None:
    """Set up the advanced game: its rules checked, its version logged, every ship's advanced
    state built and the officers rolled."""
    check_modules(battle)
    rules = AdvancedRules.of(battle)
    pack = advanced_pack()
    battle.note(
        ae.AdvancedStarted,
        ADVANCED_RULES_VERSION,
        pack.data_version,
        battle.scenario.hex_cm,
        PHASES,
    )
    battle.extensions[KEY] = setup(battle, pack, rules)


def opening(battle: Battle) -> Sequence[Step[Battle]]:
    """Set up the advanced game, then game turns until the turn limit or a fleet is gone."""
    return (Call(_begin), _NEXT_TURN)


class _NextTurn(Step["Battle"]):
    """The next game turn, or the battle's end (a rollout halts here at its horizon)."""

    __slots__ = ()

    def run(self, battle: Battle) -> Decision | None:
        if battle.turn < battle.scenario.turn_limit and not battle.over():
            if battle.horizon is not None and battle.turn >= battle.horizon:
                return HALT
            battle.turn += 1
            battle.note(ev.TurnStarted, battle.turn)
            battle.then(Call(_turn_start), Call(_turn_ended), self)
            return None
        battle.finish()
        return None


def _turn_ended(battle: Battle) -> None:
    battle.note(ev.TurnEnded, battle.turn)


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


def _turn_start(battle: Battle) -> None:
    """A game turn's start: upkeep, Tactical Advantage (ADV-SEQ-04); then bonus rolls, casualty
    recovery, sensor locks, power, and the five phases, the side without Tactical Advantage
    answering first in each."""
    state = state_of(battle)
    state.rules.start_turn(battle, state)
    _upkeep(battle, state)
    state.fresh_tries.clear()
    officers.roll_tactical_advantage(battle, state)
    sides = (other(state.tac), state.tac)  # Tactical Advantage answers last
    battle.then(
        Each(_BONUS, sides),  # 1. bonus rolls (ADV-OFF-03)
        Call(_recover),
        Each(_LOCKS, sides),  # then sensor locks (ADV-SENS-01)
        # power allocation (ADV-POW-01, ADV-SHLD-01, ADV-SHLD-02, ADV-SHLD-03, ADV-SHLD-04,
        # ADV-SHLD-05, ADV-SHLD-06)
        Each(_POWER, sides),
        Call(_power_set),
        _Phase(1, sides),
    )


def _recover(battle: Battle) -> None:
    for a in state_of(battle).ships.values():
        if a.alive:
            officers.recover(battle, a)


def _power_set(battle: Battle) -> None:
    state = state_of(battle)
    state.rules.power_set(battle, state)


class _Phase(Step["Battle"]):
    """One of the five phases (ADV-SEQ-02): movement, the modules' steps after it, fire,
    redistribution; after the fifth, or once the battle is over, the turn's end."""

    __slots__ = ("phase", "sides")

    def __init__(self, phase: int, sides: tuple[str, str]) -> None:
        self.phase = phase
        self.sides = sides

    def run(self, battle: Battle) -> Decision | None:
        state = state_of(battle)
        phase = self.phase
        if phase > PHASES or battle.over():
            state.rules.end_turn(battle, state)
            return None
        state.phase = phase
        battle.note(ae.PhaseStarted, battle.turn, phase)
        # fewest movement points first; on equal points the side with Tactical Advantage moves
        # later (ADV-SEQ-03)
        for a in state.ships.values():
            a.moved_last = False  # "changed position last phase" (ADV-SENS-02, ADV-CLOAK-03)
        movers = [a for a in state.ships.values() if a.alive and allowance(a, phase) > 0]
        movers.sort(key=lambda a: (a.moves, a.side == state.tac, a.ship.index))
        battle.then(Each(_Move(phase), tuple(a.id for a in movers)), _Moved(phase, self.sides))
        return None


class _Move(PhaseQuestion):
    """A ship moves up to its allowance for the phase (ADV-SEQ-03)."""

    __slots__ = ()

    def ask(self, battle: Battle, item: str) -> Decision | None:
        state = state_of(battle)
        adv = state.of(item)
        if not adv.alive:
            return None
        straight = state.rules.straight_only(state, adv)
        return MoveDecision(adv.side, adv.id, allowance(adv, self.phase), self.phase, straight)

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, MoveDecision)
        got = expect(order, MoveOrder, f"MOVE {decision.ship} n T0 T0")
        verify_move(state_of(battle).of(decision.ship), decision, got)
        if decision.straight and (got.turn1 or got.turn2):
            raise IllegalOrderError(
                f"{decision.ship}: no impulse: it warps straight ahead, no turns (ADV-IMP-02)"
            )

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(order, MoveOrder)
        if order.hexes:
            state = state_of(battle)
            adv = state.of(order.ship)
            m = Maneuver(order.hexes * state.hex_cm, order.turn1, order.turn2)
            move_single(battle, adv.ship, m)
            adv.moved += order.hexes
            adv.moved_last = True


class _Moved(Step["Battle"]):
    """After a phase's movement: the modules' steps (decloaking, probes, tactics ...), fire
    declared (no Tactical Advantage first), evasions, every attack resolved, shields
    redistributed, the phase's end; then the next phase. An ended battle ends the turn."""

    __slots__ = ("phase", "sides")

    def __init__(self, phase: int, sides: tuple[str, str]) -> None:
        self.phase = phase
        self.sides = sides

    def run(self, battle: Battle) -> Decision | None:
        if battle.over():
            state = state_of(battle)
            state.rules.end_turn(battle, state)
            return None
        phase, sides = self.phase, self.sides
        battle.then(
            AfterMove(phase, sides, 0),
            Each(_ATTACK.at(phase), sides),
            Each(
                _EVADE.at(phase), sides
            ),  # evasion is declared before the enemy fires (ADV-EVA-03)
            Call(_resolve),
            Each(_REDISTRIBUTE.at(phase), sides),
            Call(_end_phase, phase),
            _Phase(phase + 1, sides),
        )
        return None


def _resolve(battle: Battle) -> None:
    combat.resolve(battle, state_of(battle))


def _end_phase(battle: Battle, phase: int) -> None:
    state = state_of(battle)
    state.rules.end_phase(battle, state, phase)
    for a in state.ships.values():
        a.evasion = None


_NEXT_TURN: Final = _NextTurn()


# --- the turn's questions put to each side: who may, what is legal, what it does -------------


def _ask_bonus(battle: Battle, side: str, phase: int) -> BonusDecision | None:
    """Every officer but the Captain may take one bonus roll (ADV-OFF-03)."""
    state = state_of(battle)
    ships = tuple(a.id for a in state.side(side) if officers.bonus_options(state, a))
    return BonusDecision(side, ships) if ships else None


def _take_bonuses(battle: Battle, decision: BonusDecision, order: BonusOrder) -> None:
    state = state_of(battle)
    for ship_id, role, choice in order.choices:
        officers.take_bonus(battle, state, state.of(ship_id), role, choice)


def _ask_locks(battle: Battle, side: str, phase: int) -> LockDecision | None:
    """Ships try sensor locks on enemies (ADV-SENS-01)."""
    state = state_of(battle)
    ships = tuple(a.id for a in officers.lock_candidates(state, side))
    if not ships or not state.side(other(side)):
        return None
    return LockDecision(side, ships)


def _try_locks(battle: Battle, decision: LockDecision, order: LockOrder) -> None:
    state = state_of(battle)
    for ship_id, target in order.locks:
        officers.try_lock(battle, state, state.of(ship_id), target)


def _ask_power(battle: Battle, side: str, phase: int) -> PowerDecision | None:
    """Each side allocates its ships' power (ADV-POW-01)."""
    ships = tuple(a.id for a in state_of(battle).side(side))
    return PowerDecision(side, ships) if ships else None


def _allocate(battle: Battle, decision: PowerDecision, order: PowerOrder) -> None:
    """Every ship of the decision: its plan, or the idle plan when the order gives none."""
    state = state_of(battle)
    for ship_id in decision.ships:
        adv = state.of(ship_id)
        power.apply_plan(battle, state, adv, order.plan_of(ship_id) or power.idle_plan(adv))


def _ask_attack(battle: Battle, side: str, phase: int) -> AttackDecision | None:
    """A side declares its attacks (ADV-SEQ-02)."""
    state = state_of(battle)
    ships = tuple(
        a.id
        for a in state.side(side)
        if combat.can_fire(a) and not state.rules.fire_barred(state, a)
    )
    if not ships or not state.side(other(side)):
        return None
    return AttackDecision(side, phase, ships)


def _declare(battle: Battle, decision: AttackDecision, order: AttackOrder) -> None:
    state = state_of(battle)
    for ship_id in decision.ships:
        combat.declare(state, state.of(ship_id), order.attacks)


def _ask_evade(battle: Battle, side: str, phase: int) -> EvadeDecision | None:
    """A side's threatened ships may evade (ADV-EVA-03)."""
    threatened = tuple(combat.evasion_candidates(state_of(battle), side))
    return EvadeDecision(side, phase, threatened) if threatened else None


def _evade(battle: Battle, decision: EvadeDecision, order: EvadeOrder) -> None:
    state = state_of(battle)
    for ship_id, turn in order.evasions:
        combat.evade(battle, state, state.of(ship_id), turn)


def _ask_shields(battle: Battle, side: str, phase: int) -> ShieldDecision | None:
    """Leftover shield points may be moved between facings with a Shield Tech check
    (ADV-SEQ-05)."""
    ships = tuple(a.id for a in state_of(battle).side(side) if a.shielded)
    return ShieldDecision(side, phase, ships) if ships else None


def _check_shields(battle: Battle, decision: ShieldDecision, order: ShieldOrder) -> None:
    state = state_of(battle)
    seen: set[str] = set()
    cannot = (
        "cannot redistribute now (once a phase, shields up); ships that can: {ships} (ADV-SEQ-05)"
    )
    for ship_id, new in order.plans:
        one_each(ship_id, decision.ships, seen, cannot, cannot)
        power.verify_redistribution(state.of(ship_id), new)


def _redistribute(battle: Battle, decision: ShieldDecision, order: ShieldOrder) -> None:
    state = state_of(battle)
    for ship_id, new in order.plans:
        power.redistribute(battle, state.of(ship_id), new)


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

    def seen_scenario(self, battle: Battle, side: str) -> Scenario:
        return seen_scenario(battle, side)  # ADV-MINE-03

    def game_view(self, battle: Battle, side: str) -> AdvancedView:
        return AdvancedView(battle, side)

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
                battle.note(ae.TrafficDecoded, side, plans)

    def opening(self, battle: Battle) -> Sequence[Step[Battle]]:
        return opening(battle)


#: The questions of the game turn, each (decision, order, head, who is asked, the check, what
#: the order does).
_BONUS, _LOCKS, _POWER, _ATTACK, _EVADE, _REDISTRIBUTE = (
    Asked(BonusDecision, BonusOrder, "BONUS", _ask_bonus, on_state(verify_bonus), _take_bonuses),
    Asked(LockDecision, LockOrder, "LOCK", _ask_locks, on_state(verify_locks), _try_locks),
    Asked(PowerDecision, PowerOrder, "POWER", _ask_power, on_state(verify_power), _allocate),
    Asked(AttackDecision, AttackOrder, "ATTACK", _ask_attack, on_state(verify_attacks), _declare),
    Asked(EvadeDecision, EvadeOrder, "EVADE", _ask_evade, on_state(verify_evasions), _evade),
    Asked(ShieldDecision, ShieldOrder, "SHIELDS", _ask_shields, _check_shields, _redistribute),
)
