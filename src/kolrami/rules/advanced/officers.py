"""Officers at work: bonus rolls (ADV-OFF-03, ADV-OFF-04, ADV-OFF-05, ADV-OFF-06, ADV-OFF-07,
ADV-OFF-08, ADV-OFF-09, ADV-OFF-10, ADV-OFF-11), casualties (ADV-CAS-01, ADV-CAS-02, ADV-CAS-03,
ADV-CAS-04), shaken and
killed officers (ADV-OFF-04), Tactical Advantage (ADV-SEQ-04) and sensor locks (ADV-SENS).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import REPLACEMENT_BASE
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.checks import roll_rating
from kolrami.rules.advanced.orders import BonusDecision
from kolrami.rules.advanced.orders import BonusOrder
from kolrami.rules.advanced.orders import LockDecision
from kolrami.rules.advanced.orders import LockOrder
from kolrami.rules.advanced.orders import search_facing
from kolrami.rules.advanced.state import ROLES
from kolrami.rules.advanced.state import SHAKEN_LIMIT
from kolrami.rules.advanced.state import SHAKEN_TURNS
from kolrami.rules.advanced.state import SKILLS
from kolrami.rules.advanced.state import AdvancedState
from kolrami.rules.advanced.state import AdvShip
from kolrami.rules.advanced.state import Officer
from kolrami.rules.steps import one_each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle

#: Each officer's bonus choices and the rating each is rolled against (ADV-OFF-05, ADV-OFF-06,
#: ADV-OFF-07, ADV-OFF-08, ADV-OFF-09, ADV-OFF-10, ADV-OFF-11, ADV-OFF-12). The
#: Captain has none (ADV-OFF-03). Modules add more (the engineer's Cloak Tech, ADV-OFF-09; his
#: Warp Tech speed change, ADV-OFF-10) through `AdvancedModule.bonus_choices`.
BONUS: dict[str, dict[str, str]] = {
    "science": {"shields": "shield_tech", "hull": "damage_control", "sensors": "sensors"},
    "helm": {"aim": "weapons", "targets": "weapons"},
    "engineer": {
        "power": "warp_tech",
        "engines": "warp_tech",
        "hull": "starship_eng",
        "weapons": "starship_eng",
        "shields": "starship_eng",
        "sensors": "starship_eng",
    },
    "medical": {"casualties": "medicine", "revive": "medicine"},
    "comms": {"decode": "communications"},
}
#: Codes two civilisations share (ADV-COMM-02); a fleet of one civilisation uses its own code,
#: which cannot be broken within a battle (ADV-COMM-01).
SHARED_CODES = (frozenset({"klingon", "romulan"}), frozenset({"human", "gorn"}))
#: Species whose Communications officers may try any code (ADV-COMM-03).
CODE_BREAKERS = frozenset({"tholian"})
#: Casualty recovery at the start of a turn, in percentage points of the crew (ADV-CAS-02):
#: 1 by default, 3 with a Medical success, 5 (the cap) on an exceptional one.
RECOVERY = {Outcome.SUCCESS: 3, Outcome.EXCEPTIONAL: 5}
BASE_RECOVERY = 1
FATALITY_PERCENT = 15  # ADV-CAS-01


def decode_problem(state: AdvancedState, adv: AdvShip) -> str | None:
    """Why `adv`'s Communications officer cannot break the enemy fleet's traffic, or None
    (ADV-OFF-12 with the codes of ADV-COMM-01, ADV-COMM-02, ADV-COMM-03)."""
    enemy = {a.species.id for a in state.ships.values() if a.side != adv.side and a.alive}
    if not enemy:
        return "no enemy traffic to decode"
    mine = adv.species.id
    if mine in CODE_BREAKERS:
        return None
    if len(enemy) == 1:
        return (
            f"the enemy fleet talks in the {next(iter(enemy))} code of one civilisation, "
            "which cannot be broken within a battle (ADV-COMM-01)"
        )
    blocs = [code for code in SHARED_CODES if enemy <= code]
    if blocs:
        if mine in blocs[0]:
            return f"{mine} officers cannot break their allies' shared code (ADV-COMM-02)"
        breakers = [code for code in SHARED_CODES if code is not blocs[0]]
        if any(mine in code for code in breakers):
            return None  # the shared code: the other bloc breaks it with a check (ADV-COMM-02)
        others = "/".join(sorted(c for code in breakers for c in code))
        return (
            f"the {'-'.join(sorted(blocs[0]))} shared code is broken only by {others} "
            f"officers, not {mine} (ADV-COMM-02)"
        )
    if any(enemy & code for code in SHARED_CODES) and all(enemy & c for c in SHARED_CODES):
        return None  # traffic across the two blocs is open to everyone (ADV-COMM-03)
    return (
        f"no rule lets {mine} officers break the code of {'/'.join(sorted(enemy))} traffic "
        "(ADV-COMM-01, ADV-COMM-02, ADV-COMM-03)"
    )


def choices_of(state: AdvancedState, adv: AdvShip) -> dict[str, dict[str, str]]:
    """Every officer's bonus choices with their ratings: the core's and the modules'."""
    out = {role: dict(choices) for role, choices in BONUS.items()}
    for role, extra in state.rules.bonus_choices(state, adv).items():
        out.setdefault(role, {}).update(extra)
    return out


def bonus_options(state: AdvancedState, adv: AdvShip) -> dict[str, tuple[str, ...]]:
    """The bonus choices each officer of `adv` may take this turn."""
    out: dict[str, tuple[str, ...]] = {}
    for role, choices in choices_of(state, adv).items():
        if not adv.officers[role].on_duty:
            continue  # a shaken officer makes no bonus roll
        opts = tuple(c for c in choices if _choice_problem(state, adv, role, c) is None)
        if opts:
            out[role] = opts
    return out


def _choice_problem(state: AdvancedState, adv: AdvShip, role: str, choice: str) -> str | None:
    if (role, choice) == ("engineer", "power") and not adv.engines_undamaged:
        return "bonus power needs undamaged engines (ADV-OFF-08)"
    if (role, choice) == ("comms", "decode"):
        if adv.around.storm:  # module adv-terrain: ADV-ION-03
            return "subspace communications do not work in an ion storm (ADV-ION-03)"
        return decode_problem(state, adv)
    return None


def verify_bonus(state: AdvancedState, decision: BonusDecision, order: BonusOrder) -> None:
    """One bonus roll per officer (not the Captain) per turn, from that officer's choices."""
    seen: set[tuple[str, str]] = set()
    for ship_id, role, choice in order.choices:
        if ship_id not in decision.ships:
            raise IllegalOrderError(
                f"{ship_id} makes no bonus rolls now; ships that do: {', '.join(decision.ships)}"
            )
        adv = state.of(ship_id)
        choices = choices_of(state, adv)
        if role not in choices:
            what = "the Captain has no bonus roll" if role == "captain" else f"no officer '{role}'"
            raise IllegalOrderError(
                f"{ship_id}: {what}; officers with bonus rolls: {', '.join(choices)} (ADV-OFF-03)"
            )
        if (ship_id, role) in seen:
            raise IllegalOrderError(
                f"{ship_id}: the {role} officer gets one bonus roll a turn (ADV-OFF-03)"
            )
        seen.add((ship_id, role))
        if not adv.officers[role].on_duty:
            raise IllegalOrderError(f"{ship_id}: the {role} officer is shaken and off duty")
        if choice not in choices[role]:
            raise IllegalOrderError(
                f"{ship_id}: the {role} officer's bonus is one of "
                f"{', '.join(choices[role])}, not '{choice}'"
            )
        problem = _choice_problem(state, adv, role, choice)
        if problem:
            raise IllegalOrderError(f"{ship_id}: the {role} officer cannot {choice}: {problem}")


def take_bonus(battle: Battle, state: AdvancedState, adv: AdvShip, role: str, choice: str) -> None:
    """Roll one bonus and apply its benefit: 1, or 2 on 05 or less (ADV-CHK-01)."""
    skill = choices_of(state, adv)[role][choice]
    result = check(battle.dice, adv.rating(role, skill), adv.penalty)
    n = result.outcome.amount
    effect = ""
    gain = 0  # the hull bonus: BonusRolled's own change of the superstructure
    if n:
        done = state.rules.apply_bonus(battle, state, adv, choice, result)
        effect = done if done is not None else _apply_bonus(adv, role, choice, result.outcome)
        if done is None and choice == "hull":
            gain = min(n, adv.ship.cls.superstructure - adv.ship.superstructure)
    hull = adv.ship.superstructure + gain
    battle.change(
        ae.BonusRolled,
        adv.id,
        role,
        choice,
        result.roll,
        result.modifier,
        result.rating,
        result.outcome.value,
        effect,
        hull,
    )


def _apply_bonus(adv: AdvShip, role: str, choice: str, outcome: Outcome) -> str:
    n = outcome.amount
    s = adv.sheet
    ship = adv.ship
    if choice == "shields" and role == "science":
        points = n * s.shield_ratio  # a bonus power point at the shield ratio (ADV-SHLD-03)
        adv.shield_bonus += points
        return f"+{points} shield points (may pass the maximum)"
    if choice == "hull":  # (take_bonus's BonusRolled sets the superstructure)
        gain = min(n, ship.cls.superstructure - ship.superstructure)
        return f"superstructure +{gain}"
    if choice == "sensors":
        fixed = min(n, adv.sensor_damage)
        adv.sensor_damage -= fixed
        return f"sensors {fixed} turn{'s' * (fixed != 1)} repaired"
    if choice == "aim":
        adv.aim_bonus = n
        return f"-2 on {n} to-hit roll{'s' * (n != 1)}"
    if choice == "targets":
        adv.extra_targets = n
        return f"{n} extra target{'s' * (n != 1)} this turn"
    if choice == "power":
        adv.bonus_power = n
        return f"+{n} power"
    if choice == "engines":
        parts: list[str] = []
        for _ in range(n):
            part = _most_damaged_engine(adv)
            if part is None:
                break
            setattr(adv, part, getattr(adv, part) + 1)
            parts.append(part.replace("_", " "))
        return "repaired " + ", ".join(parts) if parts else "engines undamaged"
    if choice == "weapons":
        broken = [i for i, ok in enumerate(adv.weapon_ok) if not ok][:n]
        for i in broken:
            adv.weapon_ok[i] = True
        return "repaired " + ", ".join(f"w{i}" for i in broken) if broken else "no weapon damaged"
    if choice == "shields":
        done = []
        for _ in range(n):
            f = min(
                range(1, 7),
                key=lambda k: (adv.generator_ok[k - 1], adv.base[k - 1] - s.shield_points, k),
            )
            if adv.generator_ok[f - 1] and adv.base[f - 1] >= s.shield_points:
                break
            adv.generator_ok[f - 1] = True
            adv.base[f - 1] = max(adv.base[f - 1], s.shield_points)
            done.append(str(f))
        return "facing " + ", ".join(done) + " restored" if done else "shields whole"
    if choice == "casualties":
        adv.recovery = RECOVERY[outcome]
        return f"{adv.recovery}% of the crew back on duty"
    if choice == "decode":
        adv.decoded = n
        turns = "this turn" if n == 1 else "this turn and the next"
        return f"enemy traffic decoded: their power plans known {turns}"
    if choice == "revive":
        shaken = [o for o in adv.officers.values() if o.out > 0]
        if not shaken:
            return "nobody to revive"
        officer = max(shaken, key=lambda o: (o.out, -ROLES.index(o.role)))
        officer.out = max(0, officer.out - n)
        return f"{officer.role} back {n} turn{'s' * (n != 1)} sooner"
    raise AssertionError(f"unknown bonus {role}.{choice}")


def _most_damaged_engine(adv: AdvShip) -> str | None:
    s = adv.sheet
    parts = (
        ("impulse", s.impulse - adv.impulse, adv.impulse == 0),
        ("warp_port", s.warp_port - adv.warp_port, False),
        ("warp_starboard", s.warp_starboard - adv.warp_starboard, False),
    )
    damaged = [p for p in parts if p[1] > 0 and p[0] not in adv.blown_off]  # never repaired
    if not damaged:
        return None
    # a dead impulse engine first (no movement without it), then the worst
    return max(damaged, key=lambda p: (p[2], p[1]))[0]


def recover(battle: Battle, adv: AdvShip) -> None:
    """Casualties back on duty at the start of the turn, never below the fatalities (ADV-CAS-02)."""
    floor = adv.fatalities
    if adv.casualties <= floor:
        return
    amount = max(1, adv.sheet.crew * adv.recovery // 100)
    back = min(amount, adv.casualties - floor)
    adv.casualties -= back
    battle.note(ae.CasualtiesRecovered, adv.id, back, adv.casualties)


def casualties_from(adv: AdvShip, through: int, crew_hit: bool) -> int:
    """Crew put out of action by `through` damage: crew / (2 x superstructure) a point, twice
    that on the crew row, halved (rounded down) for Gorn and Borg (ADV-CAS-04)."""
    per_point = max(1, adv.sheet.crew // (2 * adv.ship.cls.superstructure))
    raw = through * per_point * (2 if crew_hit else 1)
    return int(raw * adv.species.casualty_factor)


def take_casualties(battle: Battle, adv: AdvShip, amount: int) -> None:
    """Crew out of action; 15% of all ever taken are dead (ADV-CAS-01)."""
    amount = min(amount, adv.sheet.crew - adv.casualties)
    if amount <= 0:
        return
    adv.casualties += amount
    adv.taken += amount
    battle.note(ae.CasualtiesTaken, adv.id, amount, adv.casualties, adv.fatalities)


def shake(battle: Battle, adv: AdvShip, role: str) -> str:
    """An officer is shaken; the third time he dies and a replacement is rolled (ADV-OFF-04)."""
    officer = adv.officers[role]
    officer.shaken += 1
    replacement: dict[str, int] | None = None
    if officer.shaken >= SHAKEN_LIMIT:
        replacement = {skill: roll_rating(battle.dice, REPLACEMENT_BASE) for skill in SKILLS[role]}
        if "cloak_tech" in officer.ratings and adv.species.cloak_tech_base is not None:
            # his Cloak Tech is rolled as a normal officer's of his species (ADV-CLOAK-05)
            replacement["cloak_tech"] = roll_rating(battle.dice, adv.species.cloak_tech_base)
        adv.officers[role] = Officer(role, replacement, replacement=True)
        effect = f"{role} killed, replaced"
    else:
        officer.out = SHAKEN_TURNS
        effect = f"{role} shaken"
    battle.note(ae.OfficerShaken, adv.id, role, officer.shaken, adv.officers[role].out, replacement)
    return effect


# --- Tactical Advantage -------------------------------------------------------------------------


def roll_tactical_advantage(battle: Battle, state: AdvancedState) -> None:
    """Each side's best captain rolls; the larger margin under his rating wins, ties re-roll
    (ADV-SEQ-04)."""
    best: dict[str, AdvShip] = {}
    for side in ("A", "B"):
        ships = state.side(side)
        if ships:
            best[side] = max(ships, key=lambda a: (a.rating("captain", "command"), -a.ship.index))
    if len(best) < 2:
        return
    ratings = {side: a.rating("captain", "command") for side, a in best.items()}
    rolls: list[dict[str, int]] = []
    while True:
        roll = {side: battle.dice.d100() for side in ("A", "B")}
        rolls.append(roll)
        margin = {s: ratings[s] - roll[s] - best[s].penalty for s in ("A", "B")}
        if margin["A"] != margin["B"]:
            break
    state.tac = "A" if margin["A"] > margin["B"] else "B"
    battle.note(ae.TacticalAdvantage, ratings, rolls, state.tac)


# --- sensor locks ---------------------------------------------------------------------------


def lock_candidates(state: AdvancedState, side: str) -> list[AdvShip]:
    """Ships of `side` whose sensors work: they may keep or try a lock."""
    return [a for a in state.side(side) if a.sensors_ok]


def verify_locks(state: AdvancedState, decision: LockDecision, order: LockOrder) -> None:
    """One target per ship, an enemy in play, or a facing searched for a cloaked ship
    (ADV-SENS-01, ADV-SENS-02)."""
    seen: set[str] = set()
    cannot = "cannot lock now (sensors out or not in play); ships that can: {ships} (ADV-SENS-01)"
    twice = "locks on one target at a time (ADV-SENS-04)"
    for ship_id, target in order.locks:
        one_each(ship_id, decision.ships, seen, cannot, twice)
        adv = state.of(ship_id)
        facing = search_facing(target)
        if facing is not None:
            problem = state.rules.search_problem(state, adv, facing)
            if problem:
                raise IllegalOrderError(f"{ship_id} cannot search facing {facing}: {problem}")
            continue
        other = state.ships.get(target)
        if other is None or not state.rules.lock_allowed(state, adv, other):
            raise IllegalOrderError(
                f"{ship_id} cannot lock on '{target}': not an enemy ship it can see; a cloaked "
                "ship is found by searching a facing, like ?3 (ADV-SENS-01, ADV-SENS-02)"
            )


def lose_lock(battle: Battle, adv: AdvShip, reason: str) -> None:
    """The lock ends (ADV-SENS-04)."""
    if adv.lock is not None:
        battle.note(ae.LockLost, adv.id, adv.lock, reason)
        adv.lock = None


def try_lock(battle: Battle, state: AdvancedState, adv: AdvShip, target: str) -> None:
    """Keep a standing lock on the same target, or roll Sensors for a new one (ADV-SENS-01,
    ADV-SENS-04);
    `?n` searches facing n for a cloaked ship (ADV-SENS-02)."""
    facing = search_facing(target)
    if facing is not None:
        lose_lock(battle, adv, "searching for a cloaked ship")
        state.rules.search(battle, state, adv, facing)
        adv.lock_failed = adv.lock is None
        return
    if adv.lock == target:
        battle.note(ae.SensorLock, adv.id, target, 0, 0, 0, True)
        return
    lose_lock(battle, adv, "another target chosen")
    result = check(battle.dice, adv.rating("science", "sensors"), adv.penalty)
    if result.outcome.passed:
        adv.lock = target
    adv.lock_failed = not result.outcome.passed
    battle.note(
        ae.SensorLock,
        adv.id,
        target,
        result.roll,
        result.modifier,
        result.rating,
        result.outcome.passed,
    )
