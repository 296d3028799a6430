"""Initiative and activation (FPF-MOV): who moves when, and one squadron's activation."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING
from typing import Final

from kolrami.catalog.models import Arc
from kolrami.engine.geometry import arc_to
from kolrami.engine.orders import Decision
from kolrami.engine.orders import IllegalOrderError
from kolrami.engine.orders import Order
from kolrami.engine.step import Step
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import battle_over
from kolrami.rules.fpf.damage import rules_in
from kolrami.rules.fpf.fire import declare
from kolrami.rules.fpf.fire import firers
from kolrami.rules.fpf.fire import verify_targets
from kolrami.rules.fpf.movement import keep_pace
from kolrami.rules.fpf.movement import move_formation
from kolrami.rules.fpf.movement import move_single
from kolrami.rules.fpf.movement import movers
from kolrami.rules.fpf.movement import verify_maneuver
from kolrami.rules.fpf.orders import ActivateOrder
from kolrami.rules.fpf.orders import ActivationDecision
from kolrami.rules.fpf.orders import InitiativeDecision
from kolrami.rules.fpf.orders import InitiativeOrder
from kolrami.rules.fpf.orders import Maneuver
from kolrami.rules.fpf.orders import OrdersDecision
from kolrami.rules.fpf.orders import ReactionDecision
from kolrami.rules.fpf.orders import ReactionOrder
from kolrami.rules.fpf.orders import SquadronOrder
from kolrami.rules.module import RuleModule

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import SquadronState


# Decisions are immutable values, and the same ones come up again and again (a squadron with the
# same firers and targets, turn after turn); a frozen dataclass is slow to build (5k to 10k
# instructions), so these are made once for each set of values and handed out again.
_activation_decision: Final = lru_cache(maxsize=1024)(ActivationDecision)
_orders_decision: Final = lru_cache(maxsize=1024)(OrdersDecision)
_reaction_decision: Final = lru_cache(maxsize=1024)(ReactionDecision)


# (the event class as a constant: compiled, `ev.SquadronActivated` is a look-up in the module)
_SQUADRON_ACTIVATED: Final = ev.SquadronActivated
# (arcs as constants: compiled, `Arc.F` is a look-up in the enum's class each time)
_FORE: Final = Arc.F
_AFT: Final = Arc.A


def forcible_prey(battle: Battle, squadron: SquadronState, pending: set[str]) -> tuple[str, ...]:
    """Enemy squadrons `squadron` pursues closely enough to force them to move first (FPF-MOV-10).

    A pursuer ship must sit in a prey ship's rear arc while that prey ship is in its front arc.
    """
    out = []
    ships = battle.ships
    pursuers = []
    for sid in squadron.ships:
        s = ships[sid]  # (looked up once)
        if s.alive:
            pursuers.append(s)
    for prey in battle.side_squadrons("B" if squadron.side == "A" else "A"):
        if prey.id not in pending:
            continue
        hit = False
        for sid in prey.ships:
            q = ships[sid]
            if not q.alive:
                continue
            for p in pursuers:
                if (
                    arc_to(q.x, q.y, q.heading, p.x, p.y) is _AFT
                    and arc_to(p.x, p.y, p.heading, q.x, q.y) is _FORE
                ):
                    hit = True
                    break
            if hit:
                break
        if hit:
            out.append(prey.id)
    return tuple(out)


def verify_squadron_order(battle: Battle, squadron: SquadronState, order: SquadronOrder) -> None:
    """Orders of an activated squadron: the right movers, legal manoeuvres, legal fire."""
    if order.squadron != squadron.id:
        raise IllegalOrderError(f"orders are for {squadron.id}, not {order.squadron}")
    needed = movers(battle, squadron)
    moves = order.moves  # (read once: an order's fields are a Python object's, slow to read)
    given = [s for s, _ in moves]
    # (given in the order needed, as captains do, is the same set: no sorting then)
    same = given == needed or sorted(given, key=str) == sorted(needed, key=str)
    if not same or len(set(given)) != len(given):
        names = ["formation" if s is None else s for s in needed]
        raise IllegalOrderError(
            f"{squadron.id} needs one manoeuvre for each of: "
            f"{', '.join(names) or 'nobody'} (FPF-MOV-07)"
        )
    for who, m in moves:
        if who is None:
            ships = [battle.ships[s] for s in squadron.formation]
            verify_maneuver(battle, ships, m, None, f"{squadron.id} formation")
    for who, m in moves:
        if who is not None:
            # a detached ship flies on its own: it is no longer a wingman on the leader's path
            verify_maneuver(battle, [battle.ships[who]], m, None, who)
    fire = order.fire
    if fire is not None:
        verify_targets(battle, squadron, fire, None)


def verify_initiative(order: object) -> None:
    """FIRST or SECOND, from the winner of an equal-speed roll-off (FPF-MOV-03)."""
    if not isinstance(order, InitiativeOrder):
        raise IllegalOrderError(f"expected FIRST or SECOND, got '{order}'")


def verify_activation(decision: ActivationDecision, order: object) -> None:
    """One of the decision's squadrons, forcing only prey it may force (FPF-MOV-02,
    FPF-MOV-10)."""
    mine = decision.squadrons
    if not isinstance(order, ActivateOrder) or order.squadron not in mine:
        raise IllegalOrderError(
            f"{decision.side} must activate one of {', '.join(mine)} (FPF-MOV-02), not '{order}'"
        )
    if order.force is not None and order.force not in dict(decision.forcible).get(
        order.squadron, ()
    ):
        raise IllegalOrderError(
            f"{order.squadron} cannot force {order.force} to move first: no pursuer "
            "in its rear arc with it ahead (FPF-MOV-10)"
        )


def _enemy_targets(battle: Battle, side: str, squadron: SquadronState | None) -> tuple[str, ...]:
    """Enemy ships in play that `side` can see (of `squadron` only, when given)."""
    ships = battle.ships
    ids = squadron.ships if squadron is not None else ships
    hidden = battle.sight is not None  # (nothing is hidden in FPF)
    out = []
    for sid in ids:
        s = ships[sid]
        if s.alive and s.side != side and (not hidden or battle.visible(side, s)):
            out.append(sid)
    return tuple(out)


def reaction_decision(
    battle: Battle,
    squadron: SquadronState,
    mover: SquadronState,
    targets: tuple[str, ...] | None = None,
) -> ReactionDecision:
    """`squadron` may react to `mover`: its ships with a forward weapon, at the mover's ships
    (FPF-FIRE-11); `targets`, when known, are those ships."""
    able = []
    for s in firers(battle, squadron):
        if s.bears(_FORE):
            able.append(s.id)
    if targets is None:
        targets = _enemy_targets(battle, squadron.side, mover)
    return _reaction_decision(squadron.side, squadron.id, mover.id, tuple(able), targets)


def verify_reaction(battle: Battle, decision: ReactionDecision, order: object) -> None:
    """A REACT order for the decision's squadron, its fire within the rules (FPF-FIRE-11)."""
    if not isinstance(order, ReactionOrder) or order.squadron != decision.squadron:
        raise IllegalOrderError(f"expected REACT {decision.squadron} ..., got '{order}'")
    if order.fire is not None:
        verify_targets(battle, battle.squadrons[decision.squadron], order.fire, decision.mover)


def orders_decision(battle: Battle, squadron: SquadronState) -> OrdersDecision:
    """The activated `squadron`'s orders to give: who needs a manoeuvre (FPF-MOV-07), who may
    fire (FPF-FIRE-04) and at whom."""
    able = [] if squadron.fired else [s.id for s in firers(battle, squadron)]
    targets = _enemy_targets(battle, squadron.side, None) if able else ()
    moving = tuple(movers(battle, squadron))
    # a fixed base never jumps (docs/rules.md, Bases in FPF)
    fixed = False
    for s in squadron.ships:  # (a loop: any() of a generator is slower)
        if battle.ships[s].class_facts().stationary:
            fixed = True
            break
    return _orders_decision(
        squadron.side,
        squadron.id,
        moving,
        tuple(able),
        targets,
        None if fixed else rules_in(battle).jump_range(battle),
    )


def verify_orders(battle: Battle, decision: OrdersDecision, order: object) -> None:
    """The squadron's orders: the right movers, legal manoeuvres, legal fire."""
    if not isinstance(order, SquadronOrder):
        raise IllegalOrderError(f"expected orders for {decision.squadron}, got '{order}'")
    verify_squadron_order(battle, battle.squadrons[decision.squadron], order)


def activate(battle: Battle, squadron: SquadronState, forced_by: str | None) -> None:
    """An activation begins (FPF-MOV-02): logged, the squadron keeps its pace; the enemy's
    reactions and its own orders follow (`_Reactions`, `_Orders`)."""
    squadron.activated = True
    battle.note(_SQUADRON_ACTIVATED, squadron.id, forced_by)
    keep_pace(battle, squadron)
    battle.stats.activations += 1
    battle.activation_order.append(squadron.id)
    battle.then(_Reactions(squadron.id, None), _Orders(squadron.id))


def carry_out(battle: Battle, squadron: SquadronState, order: SquadronOrder | None) -> None:
    """The rest of an activation once its orders are given: fire declared, the move with locked
    fire, the activation's locks spent (FPF-FIRE-10)."""
    jumping = False
    # (the order's fields read once: they are a Python object's, slow to read)
    moves: tuple[tuple[str | None, Maneuver], ...] = ()
    if order is not None:
        moves = order.moves
        fire = order.fire
        jumps = []
        for who, maneuver in moves:
            if maneuver.jump:
                jumping = True
                jumps.append(who)
        squadron.jumped = jumping  # photons only, all this turn (FPF-OPT-05)
        if fire is not None:
            declare(battle, fire, None, jumping)
            squadron.fired = True
        for who in jumps:
            ids = squadron.formation if who is None else [who]
            for sid in list(ids):
                rules_in(battle).before_jump(battle, battle.ships[sid])
    battle.moving = squadron.id
    formation_move = _move_of(moves, None)
    if formation_move is not None:
        move_formation(battle, squadron, formation_move)
    for sid in list(squadron.ships):
        ship = battle.ships[sid]
        if not ship.alive or not ship.detached or ship.moved:
            continue  # a ship that lost control during the formation's move has moved already
        m = _move_of(moves, sid) if ship.in_control else None
        move_single(battle, ship, m)
    battle.moving = None
    # The activation is over: the squadron's own locks and the reaction locks on it are spent
    # (FPF-FIRE-10: a ship fires only while activated, apart from reaction fire)
    for ship in battle.all_ships:
        lock = ship.lock
        if lock is not None and (
            lock.reaction_to == squadron.id
            or (lock.reaction_to is None and ship.squadron == squadron.id)
        ):
            ship.lock = None
    battle.locked = [s for s in battle.locked if s.lock is not None]


def _move_of(moves: tuple[tuple[str | None, Maneuver], ...], ship: str | None) -> Maneuver | None:
    """`SquadronOrder.move_of` of an order's moves, as a native loop (the method is a Python
    call)."""
    for key, m in moves:
        if key == ship:
            return m
    return None


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

    def initiative(self, battle: Battle) -> Sequence[Step[Battle]]:
        speeds = {
            q: squadron_speed(battle, battle.squadrons[q])
            for q in battle.squadrons
            if _in_play(battle, q)
        }
        return (_Tiers(speeds, tuple(sorted(set(speeds.values()), reverse=True)), True),)


class _Tiers(Step["Battle"]):
    """The initiative speeds from the fastest (FPF-MOV-01): each speed's squadrons activate in
    turn (`_Alternate`), after a roll-off when both sides have one there (FPF-MOV-03). `speeds`
    are the squadrons' as the turn began (a leader lost on the way moves no squadron's); after
    the first speed, an ended battle ends the phase."""

    __slots__ = ("first", "speeds", "tiers")

    def __init__(self, speeds: dict[str, int], tiers: tuple[int, ...], first: bool) -> None:
        self.speeds = speeds
        self.tiers = tiers
        self.first = first

    def run(self, battle: Battle) -> Decision | None:
        if not self.first and battle_over(battle):
            return None
        speeds = self.speeds
        tiers = self.tiers
        pending = _unactivated(battle)
        for i, speed in enumerate(tiers):
            a = _waiting(pending, speeds, speed, "A")
            b = _waiting(pending, speeds, speed, "B")
            if not a and not b:
                continue
            rest = _Tiers(speeds, tiers[i + 1 :], False)
            if a and b:
                return _roll_off(battle, speed, _Choice(speeds, speed, rest))
            battle.then(_Alternate(speeds, speed, "A" if a else "B"), rest)
            return None
        return None


class _Choice(Step["Battle"]):
    """The roll-off winner chooses who moves first at its speed (FPF-MOV-03); the roll-off's
    dice, `rolls`, are logged with the choice."""

    __slots__ = ("rest", "rolls", "speed", "speeds")

    def __init__(self, speeds: dict[str, int], speed: int, rest: _Tiers) -> None:
        self.speeds = speeds
        self.speed = speed
        self.rest = rest
        self.rolls: list[list[int]] = []

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        verify_initiative(order)

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, InitiativeDecision)
        assert isinstance(order, InitiativeOrder)
        first = _chosen(battle, decision, order, self.rolls)
        battle.then(_Alternate(self.speeds, self.speed, first), self.rest)


class _Alternate(Step["Battle"]):
    """The squadrons of one initiative speed activate, the sides taking turns from `turn`
    (FPF-MOV-02); a squadron may force prey to move before it (FPF-MOV-10)."""

    __slots__ = ("speed", "speeds", "turn")

    def __init__(self, speeds: dict[str, int], speed: int, turn: str) -> None:
        self.speeds = speeds
        self.speed = speed
        self.turn = turn

    def run(self, battle: Battle) -> Decision | None:
        speeds = self.speeds
        speed = self.speed
        turn = self.turn
        while True:
            if battle_over(battle):
                return None
            # (a squadron wiped out earlier in the turn has nothing left to activate)
            pending = _unactivated(battle)
            mine = _waiting(pending, speeds, speed, turn)
            if not mine:
                theirs = "B" if turn == "A" else "A"
                if not _waiting(pending, speeds, speed, theirs):
                    return None
                turn = theirs
                continue
            forcible = []
            for q in mine:
                prey = forcible_prey(battle, battle.squadrons[q], pending)
                if prey:
                    forcible.append((q, prey))
            return _activation_decision(turn, tuple(mine), tuple(forcible))

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, ActivationDecision)
        verify_activation(decision, order)

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(order, ActivateOrder)
        theirs = "B" if decision.side == "A" else "A"
        battle.agenda.append(_Alternate(self.speeds, self.speed, theirs))
        if order.force is not None:
            # the prey first, then its forcer, unless the prey's move ended the battle
            battle.then(_Activation(order.force, order.squadron), _Activation(order.squadron, None))
            return
        # (the squadron it forced may have wiped it out on the way: FPF-MOV-01)
        if _in_play(battle, order.squadron):
            activate(battle, battle.squadrons[order.squadron], None)


class _Activation(Step["Battle"]):
    """A squadron's activation, decided earlier: a prey forced to move first (`forced_by` its
    forcer), or that forcer after it: the forcer activates if still in play and the battle
    still on (FPF-MOV-10)."""

    __slots__ = ("forced_by", "squadron")

    def __init__(self, squadron: str, forced_by: str | None) -> None:
        self.squadron = squadron
        self.forced_by = forced_by

    def run(self, battle: Battle) -> Decision | None:
        if self.forced_by is None and (battle_over(battle) or not _in_play(battle, self.squadron)):
            return None
        activate(battle, battle.squadrons[self.squadron], self.forced_by)
        return None


class _Reactions(Step["Battle"]):
    """The enemy's squadrons may react before `mover` moves (FPF-FIRE-11), each in turn (those
    after `after`)."""

    __slots__ = ("after", "mover")

    def __init__(self, mover: str, after: str | None) -> None:
        self.mover = mover
        self.after = after

    def run(self, battle: Battle) -> Decision | None:
        squadron = battle.squadrons[self.mover]
        enemy = "B" if squadron.side == "A" else "A"
        after = self.after
        skipping = after is not None
        for other in battle.side_squadrons(enemy):
            if skipping:
                skipping = other.id != after
                continue
            if other.fired or not firers(battle, other):
                continue
            targets = _enemy_targets(battle, enemy, squadron)
            return reaction_decision(battle, other, squadron, targets)
        return None

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, ReactionDecision)
        verify_reaction(battle, decision, order)

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, ReactionDecision)
        assert isinstance(order, ReactionOrder)
        if order.fire is not None:
            reacting = battle.squadrons[decision.squadron]
            # a squadron that jumped this turn reacts with its photons only (FPF-OPT-05)
            declare(battle, order.fire, decision.mover, reacting.jumped)
            reacting.fired = True
        battle.agenda.append(_Reactions(self.mover, decision.squadron))


class _Orders(Step["Battle"]):
    """The activated squadron's orders (FPF-MOV-07, FPF-FIRE-04), then carried out: fire
    declared, the move with locked fire (`carry_out`)."""

    __slots__ = ("squadron",)

    def __init__(self, squadron: str) -> None:
        self.squadron = squadron

    def run(self, battle: Battle) -> Decision | None:
        squadron = battle.squadrons[self.squadron]
        if movers(battle, squadron) or (not squadron.fired and firers(battle, squadron)):
            return orders_decision(battle, squadron)
        carry_out(battle, squadron, None)
        return None

    def verify(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(decision, OrdersDecision)
        verify_orders(battle, decision, order)

    def answer(self, battle: Battle, decision: Decision, order: Order) -> None:
        assert isinstance(order, SquadronOrder)
        carry_out(battle, battle.squadrons[self.squadron], order)


def _unactivated(battle: Battle) -> set[str]:
    """The squadrons in play that have not activated this turn."""
    return {q for q, sq in battle.squadrons.items() if not sq.activated and _in_play(battle, q)}


def _roll_off(battle: Battle, speed: int, choice: _Choice) -> InitiativeDecision:
    """Both sides have squadrons at `speed`: d10s until they differ (FPF-MOV-03); the winner's
    choice of who moves first is asked, `choice` answering it with the dice kept."""
    rolls = choice.rolls
    bonus_a = rules_in(battle).initiative_bonus(battle, "A")
    bonus_b = rules_in(battle).initiative_bonus(battle, "B")
    while True:
        a, b = battle.dice.d10(), battle.dice.d10()
        rolls.append([a, b])
        if a + bonus_a != b + bonus_b:
            break
    winner = "A" if a + bonus_a > b + bonus_b else "B"
    battle.asking = choice
    return InitiativeDecision(winner, speed)


def _chosen(
    battle: Battle, decision: InitiativeDecision, choice: InitiativeOrder, rolls: list[list[int]]
) -> str:
    """The roll-off winner's choice logged with the `rolls` (FPF-MOV-03); the side that moves
    first."""
    winner = decision.side
    first = winner if choice.first else ("B" if winner == "A" else "A")
    battle.note(ev.InitiativeRolled, decision.speed, rolls, winner, first)
    return first


def _waiting(pending: set[str], speeds: dict[str, int], speed: int, side: str) -> list[str]:
    """The pending squadrons of `side` at initiative speed `speed`, in id order."""
    out = []
    for q in pending:
        if speeds[q] == speed and q[0] == side:
            out.append(q)
    out.sort()
    return out


def _in_play(battle: Battle, squadron_id: str) -> bool:
    """Whether a squadron has a ship left in play."""
    ships = battle.ships
    for s in battle.squadrons[squadron_id].ships:  # noqa: SIM110 - any() of a generator is slower
        if ships[s].alive:
            return True
    return False


def squadron_speed(battle: Battle, squadron: SquadronState) -> int:
    """A squadron's initiative speed: last turn's speed of its leader or first live ship."""
    ids = squadron.formation or [s for s in squadron.ships if battle.ships[s].alive]
    return battle.ships[ids[0]].last_speed if ids else 0
