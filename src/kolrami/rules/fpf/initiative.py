"""Initiative and activation (FPF-MOV): who moves when, and one squadron's activation."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from kolrami.catalog.models import Arc
from kolrami.engine.geometry import arc_to
from kolrami.engine.orders import Decision, IllegalOrderError, allowed
from kolrami.rules import events as ev
from kolrami.rules.fpf.damage import battle_over, rules_in
from kolrami.rules.fpf.fire import declare, firers, verify_targets
from kolrami.rules.fpf.movement import (
    keep_pace,
    move_formation,
    move_single,
    movers,
    verify_maneuver,
)
from kolrami.rules.fpf.orders import (
    ActivateOrder,
    ActivationDecision,
    InitiativeDecision,
    InitiativeOrder,
    Maneuver,
    OrdersDecision,
    ReactionDecision,
    ReactionOrder,
    SquadronOrder,
)
from kolrami.rules.module import RuleModule

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle, SquadronState


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

#: The key under which a battle keeps, during a forced activation, the forced squadron and the
#: one that forced it (`battle.extensions`).
FORCED: Final = "fpf-forced"
#: The key under which a battle keeps an equal-speed roll-off's dice while its winner chooses
#: who moves first (`battle.extensions`).
ROLLED: Final = "fpf-rolled"


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


def can_choose(order: object) -> bool:
    """Whether `order` answers an InitiativeDecision."""
    return allowed(verify_initiative, order)


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


def can_activate(decision: ActivationDecision, order: object) -> bool:
    """Whether `order` is a legal answer to `decision`."""
    return allowed(verify_activation, decision, order)


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


def can_react(battle: Battle, decision: ReactionDecision, order: object) -> bool:
    """Whether `order` is a legal answer to `decision`."""
    return allowed(verify_reaction, battle, decision, order)


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


def can_order(battle: Battle, decision: OrdersDecision, order: object) -> bool:
    """Whether `order` is a legal answer to `decision`."""
    return allowed(verify_orders, battle, decision, order)


def activate(
    battle: Battle, squadron: SquadronState, forced_by: str | None
) -> Generator[Decision, object, None]:
    """One activation: reactions, orders, fire declaration, movement with locked fire."""
    squadron.activated = True
    battle.log.record(_SQUADRON_ACTIVATED, squadron.id, forced_by)
    keep_pace(battle, squadron)
    battle.stats.activations += 1
    battle.activation_order.append(squadron.id)
    yield from _react_and_move(battle, squadron, None)


def _react_and_move(
    battle: Battle, squadron: SquadronState, after: str | None
) -> Generator[Decision, object, None]:
    """An activation once begun: the enemy's reactions (those of its squadrons after `after`,
    when a search resumes from one), the squadron's orders, then the orders carried out."""
    enemy = "B" if squadron.side == "A" else "A"
    # The opponent may react before the squadron moves (FPF-FIRE-11).
    targets: tuple[str, ...] | None = None  # the mover's ships, found once
    skipping = after is not None
    for other in battle.side_squadrons(enemy):
        if skipping:
            skipping = other.id != after
            continue
        if other.fired or not firers(battle, other):
            continue
        if targets is None:
            targets = _enemy_targets(battle, enemy, squadron)
        decision = reaction_decision(battle, other, squadron, targets)
        reaction = yield decision
        react(battle, decision, reaction)
    order: SquadronOrder | None = None
    if movers(battle, squadron) or (not squadron.fired and firers(battle, squadron)):
        asked = orders_decision(battle, squadron)
        got = yield asked
        verify_orders(battle, asked, got)
        assert isinstance(got, SquadronOrder)
        order = got
    carry_out(battle, squadron, order)


def react(battle: Battle, decision: ReactionDecision, reaction: object) -> None:
    """A reaction given: verified, its fire declared at the mover (FPF-FIRE-11)."""
    verify_reaction(battle, decision, reaction)
    assert isinstance(reaction, ReactionOrder)
    if reaction.fire is not None:
        declare(battle, reaction.fire, decision.mover)
        battle.squadrons[decision.squadron].fired = True


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

    def initiative(self, battle: Battle) -> Iterator[Decision]:
        pending = {q for q in battle.squadrons if _in_play(battle, q)}
        speeds = {q: squadron_speed(battle, battle.squadrons[q]) for q in pending}
        for speed in sorted(set(speeds.values()), reverse=True):
            tier = {s: _waiting(pending, speeds, speed, s) for s in ("A", "B")}
            if not tier["A"] and not tier["B"]:
                continue
            if tier["A"] and tier["B"]:
                first = yield from _roll_off(battle, speed)
            else:
                first = "A" if tier["A"] else "B"
            over = yield from _alternate(battle, pending, speeds, speed, first)
            if over:
                return


def _alternate(
    battle: Battle, pending: set[str], speeds: dict[str, int], speed: int, turn: str
) -> Generator[Decision, object, bool]:
    """The squadrons of one initiative speed activate, the sides taking turns from `turn`
    (FPF-MOV-02, FPF-MOV-10); returns whether the battle ended."""
    while True:
        if battle_over(battle):
            return True
        # a squadron wiped out earlier in the turn has nothing left to activate
        for q in list(pending):
            if not _in_play(battle, q):
                pending.discard(q)
        mine = _waiting(pending, speeds, speed, turn)
        theirs_side = "B" if turn == "A" else "A"
        if not mine:
            if not _waiting(pending, speeds, speed, theirs_side):
                return False
            turn = theirs_side
            continue
        forcible = []
        for q in mine:
            prey = forcible_prey(battle, battle.squadrons[q], pending)
            if prey:
                forcible.append((q, prey))
        decision = _activation_decision(turn, tuple(mine), tuple(forcible))
        act = yield decision
        verify_activation(decision, act)
        assert isinstance(act, ActivateOrder)
        if act.force is not None:
            pending.discard(act.force)
            # (kept for `resume_initiative`: the forcer activates next, FPF-MOV-10)
            battle.extensions[FORCED] = (act.force, act.squadron)
            yield from activate(battle, battle.squadrons[act.force], act.squadron)
            del battle.extensions[FORCED]
            if battle_over(battle):
                return True
        pending.discard(act.squadron)
        # (the squadron it forced may have wiped it out on the way: FPF-MOV-01)
        if _in_play(battle, act.squadron):
            yield from activate(battle, battle.squadrons[act.squadron], None)
        turn = theirs_side


def resume_initiative(
    battle: Battle,
    decision: InitiativeDecision | OrdersDecision | ReactionDecision,
    order: object,
) -> Generator[Decision, object, bool]:
    """The rest of the initiative phase of a copy of a battle (`Battle.clone`) taken at
    `decision`, once `order` answers it. From a roll-off winner's choice (FPF-MOV-03): that
    speed's squadrons, the sides taking turns from the one chosen. From an enemy squadron's
    reaction to an activation (FPF-FIRE-11): the later squadrons' reactions, then the
    activated squadron's orders, carried out; from its orders: those carried out; then the
    other squadrons of its speed that have not activated, the sides taking turns from the
    other one (a squadron that forced this one to move first activates next, FPF-MOV-10).
    Then the slower speeds (FPF-MOV-01, FPF-MOV-02). Returns whether the battle ended."""
    # (the speeds as the turn began: a leader lost on the way does not move a squadron's)
    speeds = {q: squadron_speed(battle, battle.squadrons[q]) for q in battle.squadrons}
    if isinstance(decision, InitiativeDecision):
        turn = _chosen(battle, decision, order, battle.extensions.pop(ROLLED))
        speed = decision.speed
        pending = _unactivated(battle)
    else:
        if isinstance(decision, ReactionDecision):
            react(battle, decision, order)
            squadron = battle.squadrons[decision.mover]
            yield from _react_and_move(battle, squadron, decision.squadron)
        else:
            verify_orders(battle, decision, order)
            assert isinstance(order, SquadronOrder)
            squadron = battle.squadrons[decision.squadron]
            carry_out(battle, squadron, order)
        if battle_over(battle):
            return True
        speed = speeds[squadron.id]
        turn = "B" if squadron.side == "A" else "A"
        pending = _unactivated(battle)
        forced = battle.extensions.pop(FORCED, None)
        if forced is not None and forced[0] == squadron.id:  # its forcer next (FPF-MOV-10)
            pending.discard(forced[1])
            if _in_play(battle, forced[1]):
                yield from activate(battle, battle.squadrons[forced[1]], None)
            turn = squadron.side
            speed = speeds[forced[1]]  # the tier is the forcer's (the forced may be slower)
    over = yield from _alternate(battle, pending, speeds, speed, turn)
    if over:
        return True
    for slower in sorted({v for v in speeds.values() if v < speed}, reverse=True):
        tier = {s: _waiting(pending, speeds, slower, s) for s in ("A", "B")}
        if not tier["A"] and not tier["B"]:
            continue
        first = "A" if tier["A"] else "B"
        if tier["A"] and tier["B"]:
            first = yield from _roll_off(battle, slower)
        over = yield from _alternate(battle, pending, speeds, slower, first)
        if over:
            return True
    return False


def _unactivated(battle: Battle) -> set[str]:
    """The squadrons in play that have not activated this turn."""
    return {q for q, sq in battle.squadrons.items() if not sq.activated and _in_play(battle, q)}


def _roll_off(battle: Battle, speed: int) -> Generator[Decision, object, str]:
    """Both sides have squadrons at `speed`: d10s until they differ, the winner chooses who
    moves first (FPF-MOV-03); returns the side that does."""
    rolls: list[list[int]] = []
    bonus_a = rules_in(battle).initiative_bonus(battle, "A")
    bonus_b = rules_in(battle).initiative_bonus(battle, "B")
    while True:
        a, b = battle.dice.d10(), battle.dice.d10()
        rolls.append([a, b])
        if a + bonus_a != b + bonus_b:
            break
    winner = "A" if a + bonus_a > b + bonus_b else "B"
    battle.extensions[ROLLED] = rolls  # (kept for `resume_initiative` while the winner chooses)
    decision = InitiativeDecision(winner, speed)
    choice = yield decision
    del battle.extensions[ROLLED]
    return _chosen(battle, decision, choice, rolls)


def _chosen(
    battle: Battle, decision: InitiativeDecision, choice: object, rolls: list[list[int]]
) -> str:
    """The roll-off winner's choice verified and logged with the `rolls` (FPF-MOV-03); the side
    that moves first."""
    verify_initiative(choice)
    assert isinstance(choice, InitiativeOrder)
    winner = decision.side
    first = winner if choice.first else ("B" if winner == "A" else "A")
    battle.log.record(ev.InitiativeRolled, decision.speed, rolls, winner, first)
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
