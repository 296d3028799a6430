"""Fire in the advanced game: declarations (ADV-FIRE, ADV-DIS, ADV-LOCK), to-hit, the
targeting subsystem (ADV-TGT-01), evasion (ADV-EVA), torpedo stores (ADV-TORP-01), and where
damage goes: shield facings, then the detailed damage chart.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from kolrami.catalog.advanced import AdvLocation
from kolrami.catalog.advanced import AdvWeapon
from kolrami.catalog.advanced import AdvWeaponKind
from kolrami.catalog.models import Arc
from kolrami.engine import events as ev
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.geometry import bearing_to
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.geometry import weapon_bears
from kolrami.rules.advanced.officers import casualties_from
from kolrami.rules.advanced.officers import lose_lock
from kolrami.rules.advanced.officers import shake
from kolrami.rules.advanced.officers import take_casualties
from kolrami.rules.advanced.orders import Attack
from kolrami.rules.advanced.orders import AttackDecision
from kolrami.rules.advanced.orders import AttackOrder
from kolrami.rules.advanced.orders import EvadeDecision
from kolrami.rules.advanced.orders import EvadeOrder
from kolrami.rules.advanced.orders import dispersal_point
from kolrami.rules.advanced.orders import mine_target
from kolrami.rules.advanced.power import absorb
from kolrami.rules.advanced.power import cut_power
from kolrami.rules.advanced.state import ROLES
from kolrami.rules.advanced.state import SHAKEN_LIMIT
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.module import rules_of
from kolrami.rules.steps import one_each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

#: Systems a beam may be aimed at (ADV-LOCK-02): a nacelle, the impulse engine, or a named
#: weapon "w<n>". Sensors and shield generators may not be aimed at.
AIMABLE = {
    "warp_port": AdvLocation.WARP_PORT,
    "warp_starboard": AdvLocation.WARP_STARBOARD,
    "impulse": AdvLocation.IMPULSE,
}
_WEAPON_AIM = re.compile(r"^w(\d+)$")
BASE_TARGETS = 2  # targets a ship may engage in one phase (ADV-FIRE-02)
MAX_EXTRA_TARGETS = 2  # the helmsman's bonus adds a third, or a fourth (ADV-OFF-06)
HELM_BONUS = 2  # the helmsman's -2 on a to-hit roll (ADV-OFF-06)
EVASION_STRESS = 1  # superstructure an evasion costs (ADV-EVA-01)
#: Pairs must sit port + starboard, both forward or both aft (ADV-DIS-01).
PAIR_MOUNTS = ({Arc.P, Arc.S}, {Arc.F}, {Arc.A})


def distance(a: AdvShip, b: AdvShip) -> float:
    """Centre to centre, in cm."""
    return math.hypot(b.ship.x - a.ship.x, b.ship.y - a.ship.y)


def aim_location(target: AdvShip, aim: str) -> tuple[AdvLocation, int | None] | None:
    """The chart location (and weapon index) an aim names on `target`, or None if unknown."""
    m = _WEAPON_AIM.match(aim)
    if m:
        index = int(m.group(1))
        if index >= len(target.sheet.weapons):
            return None
        kind = AdvLocation.BEAM if target.sheet.weapons[index].beam else AdvLocation.TORPEDO
        return kind, index
    try:
        return AdvLocation(aim), None
    except ValueError:
        return None


def ready_problem(adv: AdvShip, index: int) -> str | None:
    """Why weapon `index` of `adv` cannot fire at anything now, or None."""
    if index >= len(adv.sheet.weapons):
        return f"has no weapon w{index} (w0-w{len(adv.sheet.weapons) - 1})"
    if not adv.weapon_ok[index]:
        return f"w{index} is damaged"
    if adv.fired[index]:
        return f"w{index} has already fired this turn"
    if not adv.power[index]:
        return f"w{index} was given no power this turn"
    if adv.around.no_torpedoes and not adv.sheet.weapons[index].beam:
        return f"w{index}: {adv.around.no_torpedoes}"
    return None


def weapon_problem(adv: AdvShip, index: int, target: AdvShip) -> str | None:
    """Why weapon `index` of `adv` cannot fire at `target` now, or None."""
    problem = ready_problem(adv, index)
    if problem:
        return problem
    w = adv.sheet.weapons[index]
    dist = distance(adv, target)
    if dist > w.range_cm:
        return f"w{index} reaches {w.range_cm} cm; {target.id} is {dist:.1f} cm away"
    s = adv.ship
    bearing = bearing_to(s.x, s.y, s.heading, target.ship.x, target.ship.y)
    if not weapon_bears(w.arcs, bearing):
        arcs = "/".join(a.value for a in w.arcs)
        return (
            f"w{index} fires {arcs}; {target.id} bears {bearing:.0f} degrees "
            "(side arcs 60-120 and 240-300, ADV-ARC-01, ADV-ARC-02, ADV-ARC-03)"
        )
    return None


def pair_problem(adv: AdvShip, indices: tuple[int, ...]) -> str | None:
    """Why these weapons cannot fire together (or one alone), or None (ADV-DIS-01, ADV-DIS-02)."""
    weapons = [adv.sheet.weapons[i] for i in indices]
    heavy = [w.kind is AdvWeaponKind.HEAVY_DISRUPTOR for w in weapons]
    if len(indices) == 1:
        if heavy[0]:
            return "heavy disruptors fire only as a pair (ADV-DIS-02)"
        return None
    if len(indices) != 2 or indices[0] == indices[1]:
        return "an attack is one weapon, or one disruptor pair (ADV-FIRE-01)"
    kinds = {w.kind for w in weapons}
    if kinds not in ({AdvWeaponKind.DISRUPTOR}, {AdvWeaponKind.HEAVY_DISRUPTOR}):
        return (
            "only two disruptors (or two heavy disruptors) fire together (ADV-DIS-01, ADV-DIS-02)"
        )
    if {w.mount for w in weapons} not in PAIR_MOUNTS:
        mounts = "+".join(w.mount.value for w in weapons)
        return f"a pair is port + starboard, two forward or two aft, not {mounts} (ADV-DIS-01)"
    if adv.power[indices[0]] != adv.power[indices[1]]:
        return "both disruptors of a pair carry the same power (ADV-DIS-01)"
    return None


def aim_problem(weapon: AdvWeapon, target: AdvShip, aim: str) -> str | None:
    """Why `aim` is not allowed for this weapon on `target`, or None."""
    found = aim_location(target, aim)
    if found is None:
        return f"'{aim}' is no system of {target.id}"
    if weapon.beam and found[1] is None and aim not in AIMABLE:
        return (
            "a beam may be aimed at warp_port, warp_starboard, impulse or a weapon w<n>; "
            f"not '{aim}' (ADV-LOCK-02)"
        )
    return None


def targets_allowed(adv: AdvShip, state: AdvancedState | None = None) -> int:
    """Targets this ship may engage in one phase (ADV-FIRE-02, ADV-OFF-06); a base, with module
    adv-tactics, any number (ADV-SB-01, kolrami.rules.advanced.bases)."""
    if state is not None and state.rules.many_targets(state, adv):
        return max(len(adv.sheet.weapons), BASE_TARGETS + min(MAX_EXTRA_TARGETS, adv.extra_targets))
    return BASE_TARGETS + min(MAX_EXTRA_TARGETS, adv.extra_targets)


def can_fire(adv: AdvShip, cloaked_ok: bool = False) -> bool:
    """Alive, not cloaked (unless `cloaked_ok`: it may drop the cloak, ADV-CLOAK-01), with a
    weapon powered, working and not yet fired this turn."""
    if adv.hidden and not cloaked_ok:
        return False
    if adv.held or adv.busy:  # webbed, or this phase's fire spent on a web (module adv-webs)
        return False
    return adv.alive and any(
        p and ok and not f for p, ok, f in zip(adv.power, adv.weapon_ok, adv.fired, strict=True)
    )


def verify_attacks(state: AdvancedState, decision: AttackDecision, order: AttackOrder) -> None:
    """A side's declarations for one firing phase."""
    used: dict[str, set[int]] = {}
    targets: dict[str, list[str]] = {}
    bonuses: dict[str, int] = {}
    for a in order.attacks:
        if a.ship not in decision.ships:
            raise IllegalOrderError(
                f"{a.ship} cannot fire now; ships that can: {', '.join(decision.ships) or 'none'}"
            )
        adv = state.of(a.ship)
        mine = used.setdefault(a.ship, set())
        point = dispersal_point(a.target)
        if mine_target(a.target) is not None:  # a firing mine (module adv-terrain)
            problem = state.rules.object_problem(state, adv, a.weapons, a.target)
            if problem:
                raise IllegalOrderError(f"{a.ship}: {problem}")
            if mine & set(a.weapons):
                raise IllegalOrderError(f"{a.ship}: each weapon fires once (ADV-FIRE-01)")
            mine.update(a.weapons)
        elif point is not None:
            problem = point_attack_problem(state, adv, a.weapons, point)
            if problem:
                raise IllegalOrderError(f"{a.ship}: {problem}")
            if a.weapons[0] in mine:
                raise IllegalOrderError(f"{a.ship}: w{a.weapons[0]} fires once (ADV-FIRE-01)")
            mine.add(a.weapons[0])
        else:
            target = state.ships.get(a.target)
            if (
                target is None
                or not target.alive
                or target.side == adv.side
                or state.rules.hidden(state, adv.side, target)
            ):
                raise IllegalOrderError(
                    f"{a.ship} cannot fire at '{a.target}': not an enemy in play"
                )
            # a cloaked target first, so that no message tells where it is (ADV-CLOAK-03,
            # ADV-CLOAK-04)
            problem = state.rules.fire_problem(state, adv, target)
            problem = problem or state.rules.fire_refusal(state, adv, target)
            if problem:
                raise IllegalOrderError(f"{a.ship}: {problem}")
            seen = state.rules.visible(state, adv.side, target)
            for i in a.weapons:
                if i in mine:
                    raise IllegalOrderError(f"{a.ship}: w{i} fires once (ADV-FIRE-01)")
                own = ready_problem(adv, i)
                problem = own or weapon_problem(adv, i, target)
                if problem and not own and not seen:  # range and arc would tell where it is
                    problem = (
                        f"w{i} cannot reach {a.target}, which is cloaked: out of range or arc "
                        "(ADV-CLOAK-04)"
                    )
                if problem:
                    raise IllegalOrderError(f"{a.ship}: {problem}")
                mine.add(i)
            problem = pair_problem(adv, a.weapons)
            if problem:
                raise IllegalOrderError(f"{a.ship}: {problem}")
        hit = targets.setdefault(a.ship, [])
        if a.target in hit and _pairs_with(state, adv, order, a):
            continue
        if a.target in hit:
            raise IllegalOrderError(
                f"{a.ship}: one bank (or disruptor pair) per target per phase; {a.target} is "
                "already engaged (ADV-FIRE-01)"
            )
        hit.append(a.target)
        if len(hit) > targets_allowed(adv, state):
            raise IllegalOrderError(
                f"{a.ship}: engages {len(hit)} targets; {targets_allowed(adv, state)} allowed "
                "this phase "
                "(2, more with the helmsman's bonus) (ADV-FIRE-02, ADV-OFF-06)"
            )
        if a.aim is not None and point is None and mine_target(a.target) is None:
            problem = aim_problem(adv.sheet.weapons[a.weapons[0]], state.of(a.target), a.aim)
            if problem:
                raise IllegalOrderError(f"{a.ship}: {problem}")
        if a.bonus:
            bonuses[a.ship] = bonuses.get(a.ship, 0) + 1
            if bonuses[a.ship] > adv.aim_bonus:
                raise IllegalOrderError(
                    f"{a.ship}: {adv.aim_bonus} helmsman's -2 bonus(es) left this turn (ADV-OFF-06)"
                )


def point_attack_problem(
    state: AdvancedState, adv: AdvShip, weapons: tuple[int, ...], point: tuple[int, int]
) -> str | None:
    """Why these weapons cannot fire a dispersal torpedo at `point` now, or None
    (ADV-CLOAK-07): one working, armed launcher, in range and arc of the point."""
    problem = state.rules.point_problem(state, adv)
    if problem:
        return problem
    if len(weapons) != 1:
        return "a dispersal shot is one launcher (ADV-CLOAK-07)"
    i = weapons[0]
    if i >= len(adv.sheet.weapons):
        return f"has no weapon w{i} (w0-w{len(adv.sheet.weapons) - 1})"
    w = adv.sheet.weapons[i]
    if w.beam:
        return f"w{i} is a beam; only torpedoes are set for dispersal (ADV-CLOAK-07)"
    if not adv.weapon_ok[i] or adv.fired[i] or not adv.power[i]:
        return f"w{i} is not ready (damaged, fired this turn or not armed)"
    x, y = point
    s = adv.ship
    dist = math.hypot(x - s.x, y - s.y)
    if dist > w.range_cm:
        return f"w{i} reaches {w.range_cm} cm; the point is {dist:.1f} cm away"
    if not weapon_bears(w.arcs, bearing_to(s.x, s.y, s.heading, x, y)):
        return f"w{i} does not bear on the point ({'/'.join(a.value for a in w.arcs)})"
    return None


def declare(state: AdvancedState, adv: AdvShip, attacks: tuple[Attack, ...]) -> None:
    """Record verified attacks; the extra targets and -2 bonuses they use are spent."""
    mine = [a for a in attacks if a.ship == adv.id]
    extra = max(0, len({a.target for a in mine}) - BASE_TARGETS)
    adv.extra_targets = max(0, adv.extra_targets - extra)
    adv.aim_bonus -= sum(1 for a in mine if a.bonus)
    state.attacks.extend(mine)


def _pairs_with(state: AdvancedState, adv: AdvShip, order: AttackOrder, a: Attack) -> bool:
    """Whether `a` is a base's missile (or beam) joining its one beam (or missile) already at
    the same target (ADV-SB-01): at most one of each kind, single weapons."""
    if not state.rules.many_targets(state, adv) or len(a.weapons) != 1:
        return False
    at = [x for x in order.attacks if x.ship == a.ship and x.target == a.target]
    if len(at) != 2 or any(len(x.weapons) != 1 for x in at):
        return False
    kinds = [adv.sheet.weapons[x.weapons[0]].beam for x in at]
    return kinds[0] != kinds[1]


def legal_attacks(state: AdvancedState, adv: AdvShip) -> list[tuple[tuple[int, ...], str]]:
    """Every (weapons, target) this ship could declare now: single weapons and legal pairs."""
    out: list[tuple[tuple[int, ...], str]] = []
    enemies = [e for e in state.ships.values() if e.alive and e.side != adv.side]
    n = len(adv.sheet.weapons)
    for e in enemies:
        if state.rules.fire_problem(state, adv, e) is not None:
            continue
        if state.rules.fire_refusal(state, adv, e) is not None:
            continue
        if state.rules.hidden(state, adv.side, e):
            continue
        ready = [i for i in range(n) if weapon_problem(adv, i, e) is None]
        for i in ready:
            if pair_problem(adv, (i,)) is None:
                out.append(((i,), e.id))
        for x in ready:
            for y in ready:
                if x < y and pair_problem(adv, (x, y)) is None:
                    out.append(((x, y), e.id))
    return out


# --- evasion ----------------------------------------------------------------------------------


def evasion_candidates(state: AdvancedState, side: str) -> list[str]:
    """Ships of `side` that enemy photon torpedoes are declared at this phase and that still
    have impulse power to dodge with (ADV-EVA-01, ADV-EVA-04, ADV-IMP-01)."""
    out = []
    for a in state.side(side):
        if a.impulse <= 0:
            continue
        for attack in state.attacks:
            firer = state.of(attack.ship)
            point = dispersal_point(attack.target)
            # photons may be dodged; beams and plasma may not (ADV-EVA-04)
            dodgeable = firer.sheet.weapons[attack.weapons[0]].kind.dodgeable
            if point is not None:
                # a cloaked ship may evade a dispersal torpedo aimed near it (ADV-CLOAK-07)
                near = math.hypot(a.ship.x - point[0], a.ship.y - point[1]) <= state.hex_cm / 2
                if a.hidden and near and dodgeable:
                    out.append(a.id)
                    break
            elif attack.target == a.id and dodgeable:
                out.append(a.id)
                break
    return out


def verify_evasions(state: AdvancedState, decision: EvadeDecision, order: EvadeOrder) -> None:
    """Each evading ship is threatened by torpedoes and turns one hexside (ADV-EVA-01)."""
    seen: set[str] = set()
    cannot = (
        "cannot evade: no torpedo is declared at it, or it has no impulse power; ships that "
        "can: {ships} (ADV-EVA-01)"
    )
    for ship_id, turn in order.evasions:
        one_each(ship_id, decision.ships, seen, cannot, "evades once a phase")
        if turn not in (-1, 1):
            raise IllegalOrderError(
                f"{ship_id}: an evasion turns one hexside, -1 or +1 (ADV-EVA-01)"
            )


def evade(battle: Battle, state: AdvancedState, adv: AdvShip, turn: int) -> None:
    """Turn one hexside, take 1 stress, roll Helm Ops; the ship's own fire this phase is
    given up (ADV-EVA-01, ADV-EVA-02, ADV-EVA-03)."""
    ship = adv.ship
    adv.evaded_from = ship.heading
    point = [ship.x, ship.y]
    battle.change(ev.ShipMoved, ship.id, [point, point], (ship.heading + turn) % 6, ship.speed, 0.0)
    result = check(battle.dice, adv.rating("helm", "helm_ops"), adv.penalty)
    adv.evasion = result.outcome
    state.attacks = [a for a in state.attacks if a.ship != adv.id]
    battle.change(  # the turn's stress: 1 superstructure (ADV-EVA-02)
        ae.Evaded,
        adv.id,
        turn,
        ship.heading,
        result.roll,
        result.modifier,
        result.rating,
        result.outcome.value,
        ship.superstructure - EVASION_STRESS,
    )
    if ship.superstructure <= 0 and ship.alive:
        rules_of(battle).destroyed(battle, ship, None)


# --- resolution ---------------------------------------------------------------------------------


def resolve(battle: Battle, state: AdvancedState) -> None:
    """Fire every declared attack, in declaration order. Fire is simultaneous: a ship destroyed
    during the phase still fires what it declared; an attack whose target is gone is lost."""
    attacks, state.attacks = state.attacks, []
    for attack in attacks:
        fire(battle, state, attack)


def fire(battle: Battle, state: AdvancedState, attack: Attack) -> None:
    """One attack: charges and torpedoes are spent, then checks, to-hit and damage."""
    adv = state.of(attack.ship)
    weapons = [adv.sheet.weapons[i] for i in attack.weapons]
    damage = sum(adv.power[i] for i in attack.weapons)
    for i in attack.weapons:
        adv.fired[i] = True
    beam = weapons[0].beam
    if not beam:
        adv.stores -= sum(w.torpedoes for w in weapons)  # ADV-TORP-01
    point = dispersal_point(attack.target)
    if point is not None:
        state.rules.fire_at_point(battle, state, adv, attack.weapons[0], *point)
        return
    if mine_target(attack.target) is not None:
        state.rules.fire_at_object(battle, state, adv, attack)
        return
    target = state.of(attack.target)
    if not target.alive:
        return
    dist = distance(adv, target)
    label = weapons[0].kind.value + (" pair" if len(weapons) > 1 else "")
    # Without a sensor lock on the target the gunner fires by hand (ADV-FIRE-03).
    if not (adv.sensors_ok and adv.lock == target.id) and not manual_fire(battle, adv, target.id):
        return
    if not state.rules.fire_gate(battle, state, adv, target):
        return  # a cloaked target: Weapons and Sensors checks (ADV-CLOAK-04)
    # without an aimed lock (and always for torpedoes) the location is rolled (ADV-LOCK-03)
    aimed = False
    if attack.aim is not None and beam:  # an aimed lock needs a Weapons check (ADV-LOCK-01)
        result = check(battle.dice, adv.rating("helm", "weapons"), adv.penalty)
        aimed = result.outcome.passed
        battle.note(
            ae.FireCheck,
            adv.id,
            target.id,
            f"aim at {attack.aim}",
            result.roll,
            result.modifier,
            result.rating,
            aimed,
        )
    needed = min(state.rules.to_hit_number(state, adv, w, dist) for w in weapons)
    shots = [damage] if beam else [w.damage for w in weapons for _ in range(w.torpedoes)]
    # terrain: what the firer's surroundings add to its rolls and do to its damage
    terrain = state.rules.to_hit_penalty(state, adv, weapons[0])
    shots = [state.rules.terrain_damage(state, adv, weapons[0], amount) for amount in shots]
    for k, amount in enumerate(shots):
        if not target.alive:
            break  # a salvo's later torpedoes find nothing to hit
        roll = battle.dice.d10()
        modifier = adv.penalty + terrain - (HELM_BONUS if attack.bonus and k == 0 else 0)
        hit = needed > 0 and roll + modifier <= needed
        battle.note(
            ae.AttackRolled,
            adv.id,
            target.id,
            list(attack.weapons),
            label,
            round(dist, 3),
            needed,
            roll,
            modifier,
            hit,
            amount if hit else 0,
        )
        if hit and not state.rules.hit_stands(battle, state, adv, target):
            continue  # the cloak held (ADV-CLOAK-04)
        if hit:
            undershoot = needed - (roll + modifier)
            dodgeable = weapons[0].kind.dodgeable
            deal(battle, state, adv, target, amount, beam, attack.aim, aimed, undershoot, dodgeable)


def shifted_row(
    chart: tuple[AdvLocation, ...], roll: int, prefer: AdvLocation | None, rows: int
) -> int:
    """The chart row (0-based) a location roll lands on after the targeting subsystem moves it up
    to `rows` rows toward the preferred location (ADV-TGT-01)."""
    row = roll - 1
    if prefer is None or rows <= 0:
        return row
    wanted = [i for i, loc in enumerate(chart) if loc is prefer]
    if not wanted:
        return row
    goal = min(wanted, key=lambda i: (abs(i - row), i))
    step = max(-rows, min(rows, goal - row))
    return row + step


def tgt_rows(undershoot: int) -> int:
    """Rows the targeting subsystem may move the location: one per full 3 points a to-hit roll
    came in under what it needed (ADV-TGT-01)."""
    return max(0, undershoot) // 3


def deal(
    battle: Battle,
    state: AdvancedState,
    firer: AdvShip,
    target: AdvShip,
    damage: int,
    beam: bool,
    aim: str | None,
    aimed: bool,
    undershoot: int,
    dodgeable: bool = True,
) -> None:
    """A hit: shields first, then what gets through strikes a location of the chart."""
    ts = target.ship
    fs = firer.ship
    facing = facing_toward(ts.x, ts.y, ts.heading, fs.x, fs.y)
    if not beam and target.evasion is not None and not dodgeable:
        # plasma is not dodged: it strikes as if the ship had not turned (ADV-EVA-04)
        facing = facing_toward(ts.x, ts.y, target.evaded_from, fs.x, fs.y)
    elif not beam and target.evasion is not None:  # ADV-EVA-02
        if not target.evasion.passed:
            facing = facing_toward(ts.x, ts.y, target.evaded_from, fs.x, fs.y)
        elif target.evasion is Outcome.EXCEPTIONAL:
            damage = 0
        else:
            damage //= 2
    absorbed, through = absorb(target, facing, damage)
    location_roll = shift = 0
    location = ""
    effect = ""
    followups: list[tuple[str, object]] = []
    hull = ts.superstructure  # after the hit: DamageDealt's own change
    if through > 0:
        chart = target.sheet.damage_chart
        found = aim_location(target, aim) if aim else None
        weapon_index = found[1] if found else None
        if aimed and found is not None:
            loc = found[0]
        else:
            location_roll = battle.dice.d10()
            prefer = found[0] if found else None
            row = shifted_row(chart, location_roll, prefer, tgt_rows(undershoot))
            shift = row - (location_roll - 1)
            loc = chart[row]
            if loc not in (AdvLocation.BEAM, AdvLocation.TORPEDO) or (
                found is not None and found[0] is not loc
            ):
                weapon_index = None
        location = loc.value
        hull -= through + (1 if aimed else 0)  # aimed hits: +1 (ADV-LOCK-02)
        effect, followups = _location_effect(battle, target, loc, through, facing, weapon_index)
    battle.change(
        ae.DamageDealt,
        firer.id,
        target.id,
        facing,
        damage,
        absorbed,
        through,
        location_roll,
        shift,
        location,
        aimed and through > 0,
        effect,
        target.reinforcement[facing - 1],
        target.base[facing - 1],
        hull,
    )
    for what, arg in followups:
        if what == "shake":
            shake(battle, target, str(arg))
        elif what == "lock":
            lose_lock(battle, target, "sensors hit")
        elif what == "power":
            cut_power(battle, target)
        elif what == "nacelle" and isinstance(arg, tuple):
            state.rules.nacelle_hit(battle, state, target, arg[0], arg[1], arg[2])
    if through > 0:
        crew_hit = location == AdvLocation.CREW.value
        take_casualties(battle, target, casualties_from(target, through, crew_hit))
    if ts.superstructure <= 0 and ts.alive:
        rules_of(battle).destroyed(battle, ts, fs)


def _location_effect(
    battle: Battle,
    target: AdvShip,
    loc: AdvLocation,
    through: int,
    facing: int,
    weapon_index: int | None,
) -> tuple[str, list[tuple[str, object]]]:
    """Apply what a location hit does to systems; returns its description and the logged
    consequences to follow the DamageDealt event."""
    if loc is AdvLocation.SENSORS:
        turns = max(1, through // 3)
        target.sensor_damage += turns
        follow: list[tuple[str, object]] = [("lock", None)] if target.lock else []
        return f"sensors out {target.sensor_damage} turn(s)", follow
    if loc is AdvLocation.BRIDGE:
        role = ROLES[battle.dice.d6() - 1]
        fate = "killed" if target.officers[role].shaken + 1 >= SHAKEN_LIMIT else "shaken"
        return f"{role} {fate}", [("shake", role)]
    if loc in (AdvLocation.BEAM, AdvLocation.TORPEDO):
        beam = loc is AdvLocation.BEAM
        working = [
            i for i, w in enumerate(target.sheet.weapons) if w.beam == beam and target.weapon_ok[i]
        ]
        if not working:
            return f"no working {'beam' if beam else 'launcher'} left", []
        if weapon_index is None or weapon_index not in working:
            weapon_index = working[battle.dice.d(len(working)) - 1]
        target.weapon_ok[weapon_index] = False
        return f"w{weapon_index} damaged", []
    if loc in (AdvLocation.WARP_PORT, AdvLocation.WARP_STARBOARD, AdvLocation.IMPULSE):
        part = loc.value
        left = getattr(target, part)
        value = max(0, left - through)
        setattr(target, part, value)
        moved_on: list[tuple[str, object]] = [("power", None)]
        if part != "impulse":
            moved_on.append(("nacelle", (part, left, through)))
        return f"{part.replace('_', ' ')} {value}", moved_on
    if loc is AdvLocation.SHIELD:
        target.generator_ok[facing - 1] = False
        target.base[facing - 1] = 0
        target.reinforcement[facing - 1] = 0
        return f"facing {facing} generator damaged", []
    if loc is AdvLocation.CREW:
        return "crew quarters: double casualties", []
    return "", []


def manual_fire(battle: Battle, adv: AdvShip, target: str) -> bool:
    """The Weapons check of a gunner firing by hand at `target`, without a sensor lock on it
    (ADV-FIRE-03): logged as a FireCheck; whether it passed."""
    result = check(battle.dice, adv.rating("helm", "weapons"), adv.penalty)
    rolled = (result.roll, result.modifier, result.rating, result.outcome.passed)
    battle.note(ae.FireCheck, adv.id, target, "manual fire", *rolled)
    return result.outcome.passed
