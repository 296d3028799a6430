"""Power and shields: the turn's allocation (ADV-POW-01), the six facings (ADV-SHLD-01, ADV-SHLD-02,
ADV-SHLD-03, ADV-SHLD-04, ADV-SHLD-05, ADV-SHLD-06, ADV-SHLD-07).

Power comes from the engines as they stand after damage, plus the engineer's bonus. It buys
movement (the sheet's move cost a hex), the shields' charge (the power that fills one facing
fills all six, ADV-SHLD-01), beam power (a bank's damage is the power put in), torpedo arming,
and with the reinforcement option extra shield points at the shield ratio. Shield points on the
facings persist from turn to turn: paying the charge keeps them up for the turn (ADV-SHLD-06),
hits wear them down, and only bonus rolls restore them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kolrami.catalog.advanced import FACINGS
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.orders import PowerDecision
from kolrami.rules.advanced.orders import PowerOrder
from kolrami.rules.advanced.orders import PowerPlan
from kolrami.rules.steps import one_each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.rules.advanced.state import AdvancedState
    from kolrami.rules.advanced.state import AdvShip


def plan_cost(adv: AdvShip, plan: PowerPlan) -> int:
    """The power a plan needs."""
    s = adv.sheet
    cost = plan.move * s.move_cost + (s.shield_cost if plan.shields else 0) + plan.extra
    cost += s.cloak_power if plan.cloak else 0
    for w, p in zip(s.weapons, plan.weapons, strict=False):
        cost += p if w.beam else (w.arm_cost if p else 0)
    if plan.reinforce:
        cost += math.ceil(sum(plan.reinforce) / s.shield_ratio)
    return cost


def shield_gain(adv: AdvShip, plan: PowerPlan) -> int:
    """Shield points this turn's bonuses add: the science officer's, and the engineer's bonus
    power turned into points at the shield ratio (ADV-SHLD-02, ADV-SHLD-03)."""
    return adv.shield_bonus + plan.extra * adv.sheet.shield_ratio


def auto_distribution(adv: AdvShip, plan: PowerPlan) -> list[int]:
    """Where bonus shield points go when the plan does not say: one at a time to the weakest
    facing below its maximum; the science officer's may then pass the maximum (ADV-SHLD-04)."""
    base = list(adv.base)
    ceiling = 2 * adv.sheet.shield_points  # no facing ever holds more than 200%
    engineer = plan.extra * adv.sheet.shield_ratio
    science = adv.shield_bonus
    for points, may_pass in ((engineer, False), (science, True)):
        for _ in range(points):
            open_ = [f for f in range(1, FACINGS + 1) if base[f - 1] < adv.facing_cap(f)]
            if not open_ and may_pass:
                open_ = [
                    f
                    for f in range(1, FACINGS + 1)
                    if adv.facing_cap(f) > 0 and base[f - 1] + adv.reinforcement[f - 1] < ceiling
                ]
            if not open_:
                break
            f = min(open_, key=lambda n: (base[n - 1], n))
            base[f - 1] += 1
    return base


def check_distribution(adv: AdvShip, new: tuple[int, ...], gain: int, clause: str) -> None:
    """Points may only move (plus `gain`); no facing passes its maximum except by the science
    officer's points, and a facing with a damaged generator holds none."""
    if len(new) != FACINGS:
        raise IllegalOrderError(
            f"{adv.id}: give all six facings' points, not {len(new)} ({clause})"
        )
    have = sum(adv.base) + gain
    if sum(new) > have:
        raise IllegalOrderError(
            f"{adv.id}: the facings hold {sum(new)} points but only {have} are there to place; "
            f"points are moved, never made ({clause})"
        )
    dead = [f for f in range(1, FACINGS + 1) if not adv.generator_ok[f - 1] and new[f - 1]]
    if dead:
        raise IllegalOrderError(
            f"{adv.id}: facing {dead[0]}'s generator is damaged; it holds no points until "
            "the engineer repairs it (ADV-OFF-08)"
        )
    ceiling = 2 * adv.sheet.shield_points
    full = [f for f in range(1, FACINGS + 1) if new[f - 1] + adv.reinforcement[f - 1] > ceiling]
    if full:
        raise IllegalOrderError(
            f"{adv.id}: facing {full[0]} would hold more than 200% of {adv.sheet.shield_points} "
            "with its reinforcement (ADV-SHLD-05)"
        )
    over = sum(max(0, v - adv.facing_cap(f)) for f, v in enumerate(new, start=1))
    allowed = adv.overflow() + adv.shield_bonus
    if over > allowed:
        raise IllegalOrderError(
            f"{adv.id}: {over} points above the facings' maximum of {adv.sheet.shield_points}; "
            f"only the science officer's bonus points may pass it ({allowed} here) (ADV-SHLD-04)"
        )


def verify_plan(state: AdvancedState, adv: AdvShip, plan: PowerPlan) -> None:
    """A plan the ship can pay for and the rules allow."""
    s = adv.sheet
    who = adv.id
    if len(plan.weapons) != len(s.weapons):
        raise IllegalOrderError(
            f"{who}: W lists power for each of the {len(s.weapons)} weapons (w0-w"
            f"{len(s.weapons) - 1}), not {len(plan.weapons)}"
        )
    top = state.rules.max_moves(state, adv)
    if plan.move > top:
        raise IllegalOrderError(f"{who}: at most {top} hexes a turn, not {plan.move}")
    if plan.move and adv.impulse == 0 and not state.rules.warp_without_impulse(state, adv):
        raise IllegalOrderError(f"{who}: no impulse power left, so no movement (ADV-IMP-01)")
    limit = state.rules.speed_limit(state, adv)
    if limit is not None and plan.move > limit:
        raise IllegalOrderError(
            f"{who}: speeds up from {adv.last_moves} to {plan.move} hexes; {limit} is the most "
            "this turn: one warp factor (2 hexes) a turn, two with the engineer's Warp Tech "
            "bonus (ADV-OFF-10)"
        )
    if plan.cloak:
        problem = state.rules.cloak_problem(state, adv)
        if problem:
            raise IllegalOrderError(f"{who}: {problem}")
    torpedoes = 0
    for i, (w, p) in enumerate(zip(s.weapons, plan.weapons, strict=True)):
        if p and not adv.weapon_ok[i]:
            raise IllegalOrderError(f"{who}: w{i} is damaged and takes no power until repaired")
        if w.beam:
            if p > w.power:
                raise IllegalOrderError(f"{who}: w{i} ({w.label}) takes at most {w.power} power")
            if 0 < p < w.min_power:
                raise IllegalOrderError(
                    f"{who}: w{i} is a heavy disruptor; it arms with {w.min_power} power or more "
                    "(ADV-DIS-02)"
                )
        else:
            if p not in (0, 1):
                raise IllegalOrderError(f"{who}: w{i} is a launcher: 1 arms it, 0 leaves it")
            torpedoes += w.torpedoes * p
    if torpedoes > adv.stores:
        raise IllegalOrderError(
            f"{who}: arming {torpedoes} torpedoes with {adv.stores} left in store (ADV-TORP-01)"
        )
    if plan.extra > adv.bonus_power:
        raise IllegalOrderError(
            f"{who}: only the engineer's bonus power ({adv.bonus_power}) restores shield points; "
            "the base charge is not renewed otherwise (ADV-SHLD-02, ADV-SHLD-06)"
        )
    gain = shield_gain(adv, plan)
    if plan.dist is not None:
        check_distribution(adv, plan.dist, gain, "ADV-SHLD-02")
    if plan.reinforce is not None:
        if len(plan.reinforce) != FACINGS:
            raise IllegalOrderError(f"{who}: R lists six facings' reinforcement (ADV-SHLD-05)")
        if any(plan.reinforce) and not plan.shields:
            raise IllegalOrderError(
                f"{who}: reinforcement is bought only once the base charge is paid (ADV-SHLD-06)"
            )
        base = plan.dist if plan.dist is not None else auto_distribution(adv, plan)
        for f in range(1, FACINGS + 1):
            extra = plan.reinforce[f - 1]
            if not extra:
                continue
            cap = state.rules.reinforcement_cap(state, adv, f, base[f - 1])
            if adv.reinforcement[f - 1] + extra > cap:
                reason = (
                    "reinforcement is an option; switch on the module 'adv-shield-reinforcement'"
                    if cap == 0
                    else f"facing {f} holds at most {cap} reinforcement (200% in all)"
                )
                raise IllegalOrderError(f"{who}: {reason} (ADV-SHLD-05)")
    cost = plan_cost(adv, plan)
    if cost > adv.available:
        raise IllegalOrderError(
            f"{who}: the plan needs {cost} power and the engines give {adv.engine_power}"
            + (f" + {adv.bonus_power} bonus" if adv.bonus_power else "")
            + " (ADV-POW-01)"
        )


def verify_power(state: AdvancedState, decision: PowerDecision, order: PowerOrder) -> None:
    """Every plan names a ship of the decision, once, and is legal."""
    seen: set[str] = set()
    cannot = "cannot allocate power now; ships that can: {ships}"
    for plan in order.plans:
        one_each(plan.ship, decision.ships, seen, cannot, "has two power plans")
        verify_plan(state, state.of(plan.ship), plan)


def idle_plan(adv: AdvShip) -> PowerPlan:
    """Nothing allocated: no movement, shields down, weapons cold."""
    return PowerPlan(adv.id, 0, False, (0,) * len(adv.sheet.weapons))


def apply_plan(battle: Battle, state: AdvancedState, adv: AdvShip, plan: PowerPlan) -> None:
    """Put a verified plan into effect for the turn and log it."""
    base = list(plan.dist) if plan.dist is not None else auto_distribution(adv, plan)
    adv.base = base
    adv.shield_bonus = 0  # the science officer's points are placed now; they only move later
    if plan.reinforce is not None:
        adv.reinforcement = [r + e for r, e in zip(adv.reinforcement, plan.reinforce, strict=True)]
    adv.plan = plan
    adv.cost = plan_cost(adv, plan)
    adv.moves = plan.move
    adv.moved = 0
    adv.power = list(plan.weapons)
    adv.fired = [False] * len(plan.weapons)
    adv.shields_up = plan.shields
    battle.note(
        ae.PowerAllocated,
        adv.id,
        adv.available,
        adv.cost,
        str(plan).partition(":")[2],
        adv.shields_up,
        list(adv.base),
        list(adv.reinforcement),
    )


def cut_power(battle: Battle, adv: AdvShip) -> None:
    """After engine damage, cut this turn's unspent allocations until no more is drawn than the
    engines give (ADV-POW-01), in this order: unused movement, unfired beams (weakest first),
    armed torpedoes, and the shields' charge last."""
    if adv.plan is None or adv.cost <= adv.available:
        return
    cut: list[str] = []
    s = adv.sheet
    excess = adv.cost - adv.available
    left = adv.moves - adv.moved
    if excess > 0 and left > 0:
        drop = min(left, math.ceil(excess / s.move_cost))
        adv.moves -= drop
        adv.cost -= drop * s.move_cost
        excess -= drop * s.move_cost
        cut.append(f"{drop} hex{'es' * (drop != 1)} of movement")
    beams = sorted(
        (i for i, w in enumerate(s.weapons) if w.beam and adv.power[i] and not adv.fired[i]),
        key=lambda i: (adv.power[i], i),
    )
    for i in beams:
        if excess <= 0:
            break
        w = s.weapons[i]
        keep = max(0, adv.power[i] - excess)
        if keep < w.min_power:
            keep = 0
        adv.cost -= adv.power[i] - keep
        excess -= adv.power[i] - keep
        cut.append(f"w{i} {adv.power[i]}→{keep}")
        adv.power[i] = keep
    for i, w in enumerate(s.weapons):
        if excess <= 0:
            break
        if not w.beam and adv.power[i] and not adv.fired[i]:
            adv.power[i] = 0
            adv.cost -= w.arm_cost
            excess -= w.arm_cost
            cut.append(f"w{i} disarmed")
    if excess > 0 and adv.shields_up:
        adv.shields_up = False
        adv.cost -= s.shield_cost
        cut.append("shields down")
    if excess > 0 and adv.cloaked:
        adv.cloaked = adv.decloaked = False
        adv.cost -= adv.sheet.cloak_power
        cut.append("cloak off")
        battle.note(ae.CloakChanged, adv.id, False, "no power for the cloak")
    battle.note(ae.PowerCut, adv.id, adv.available, adv.cost, cut)


# --- shields in combat --------------------------------------------------------------------------


def absorb(adv: AdvShip, facing: int, damage: int) -> tuple[int, int]:
    """A hit of `damage` on `facing`: reinforcement goes first, then the base charge
    (ADV-SHLD-07). Returns (absorbed, through). Shields down absorb nothing."""
    if not adv.shielded or damage <= 0:
        return 0, max(0, damage)
    i = facing - 1
    from_reinf = min(adv.reinforcement[i], damage)
    adv.reinforcement[i] -= from_reinf
    from_base = min(adv.base[i], damage - from_reinf)
    adv.base[i] -= from_base
    absorbed = from_reinf + from_base
    return absorbed, damage - absorbed


def verify_redistribution(adv: AdvShip, new: tuple[int, ...]) -> None:
    """An end-of-phase redistribution: the shields are up, and points only move (ADV-SEQ-05)."""
    if not adv.shielded:
        raise IllegalOrderError(
            f"{adv.id}: shields are down (not charged, or held down by the cloak); nothing to "
            "redistribute"
        )
    check_distribution(adv, new, 0, "ADV-SEQ-05")


def redistribute(battle: Battle, adv: AdvShip, new: tuple[int, ...]) -> bool:
    """Try a verified redistribution: it needs the science officer's Shield Tech check."""
    result = check(battle.dice, adv.rating("science", "shield_tech"), adv.penalty)
    if result.outcome.passed:
        adv.base = list(new)
    battle.note(
        ae.ShieldsRedistributed,
        adv.id,
        result.roll,
        result.modifier,
        result.rating,
        result.outcome.passed,
        list(adv.base),
    )
    return result.outcome.passed
