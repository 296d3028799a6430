"""The cloaking device (module `adv-cloak`): ADV-CLOAK-01, ADV-CLOAK-02, ADV-CLOAK-03, ADV-CLOAK-04,
ADV-CLOAK-05, ADV-CLOAK-06, ADV-CLOAK-07, ADV-CLOAK-08, ADV-SENS-02, ADV-OFF-09.

A ship whose advanced sheet carries a cloak may engage it at power allocation (`/C` in its plan,
for the cloak's power). While cloaked it is off the enemy's table (its side's view only), its
shields are held down, and it cannot fire; after moving it may drop the cloak for one phase's
fire (`DECLOAK A1`) and it cloaks again when that fire is over. Enemies find it by searching a
facing (`LOCK A1:?3`: Sensors, then 1-5 on a d10, only if it moved in the latest movement), then
ping it each phase (1-3 on a d10, again only if it moved) to see where it is and to fire at it
(Weapons and Sensors checks; a hit stands only if the ship then fails a Cloak Tech check, and then
its next move is shown to all). Dispersal torpedoes fired at a point hunt it blind. A cloaked ship
with a nacelle lost vents plasma: always seen, its cloak rolls at 20%, its hunters' at 180%.
Its engineer may roll Cloak Tech to shake off the enemy's locks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kolrami.engine.battle import other
from kolrami.engine.orders import IllegalOrderError
from kolrami.rules.advanced import combat
from kolrami.rules.advanced import events as ae
from kolrami.rules.advanced.checks import Check
from kolrami.rules.advanced.checks import Outcome
from kolrami.rules.advanced.checks import check
from kolrami.rules.advanced.checks import judge
from kolrami.rules.advanced.geometry import facing_toward
from kolrami.rules.advanced.modules import AdvancedModule
from kolrami.rules.advanced.officers import lose_lock
from kolrami.rules.advanced.orders import DecloakDecision
from kolrami.rules.advanced.orders import DecloakOrder
from kolrami.rules.advanced.state import state_of
from kolrami.rules.advanced.terrain_events import terrain_check
from kolrami.rules.steps import Asked
from kolrami.rules.steps import Call
from kolrami.rules.steps import Each

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.step import Step
    from kolrami.rules.advanced.state import AdvancedState
    from kolrami.rules.advanced.state import AdvShip

CLOAK_CLAUSES = (
    "ADV-CLOAK-01",
    "ADV-CLOAK-02",
    "ADV-CLOAK-03",
    "ADV-CLOAK-04",
    "ADV-CLOAK-05",
    "ADV-CLOAK-06",
    "ADV-CLOAK-07",
    "ADV-CLOAK-08",
    "ADV-CLOAK-09",
    "ADV-SENS-02",
    "ADV-OFF-09",
)
LOCK_D10 = 5  # a search locks on 1-5 (ADV-SENS-02)
PING_D10 = 3  # a ping on 1-3 (ADV-CLOAK-03)
HUNT_D10 = 3  # a dispersal torpedo finds its prey on 1-3 (ADV-CLOAK-07)
REVEAL_PHASES = 2  # a revealed ship is shown for the rest of this phase and all of the next
#: ADV-CLOAK-06: a venting ship's cloak rolls at 20% of the rating, its hunters' at 180% (cap).
VENT_OWN = 0.2
VENT_HUNTER = 1.8
D100_CAP = 99


def vented(rating: int) -> int:
    """A venting ship's Cloak Tech target number (ADV-CLOAK-06): 20%, rounded down."""
    return math.floor(rating * VENT_OWN)


def boosted(number: int, cap: int) -> int:
    """A hunter's target number against a venting ship (ADV-CLOAK-06): 180%, rounded down,
    capped (99 on a d100, 9 on a d10: a natural 10 still fails)."""
    return min(cap, math.floor(number * VENT_HUNTER))


def dispersal_damage(damage: int, share: int, reroll: int) -> tuple[int, bool]:
    """Damage of a dispersal hit and whether it reveals the ship (ADV-CLOAK-08): a d10 `share`
    of 1-9 gives that many tenths of half the torpedo's damage, rounded down; a 0 (face 10) the
    whole half and a `reroll`, whose second 0 makes it a direct hit for the full damage."""
    half = damage // 2
    if share != 10:
        return share * half // 10, False
    if reroll == 10:
        return damage, True
    return half, False


def hex_radius(state: AdvancedState) -> float:
    """How near a point a ship must be to be 'in the hex' a dispersal torpedo names."""
    return state.hex_cm / 2


def cloak_tech(ship: AdvShip) -> int:
    """The ship's Cloak Tech rating for the cloak rules (20% while venting, ADV-CLOAK-06)."""
    rating = ship.rating("engineer", "cloak_tech") if _has_tech(ship) else 0
    return vented(rating) if ship.venting else rating


def _has_tech(ship: AdvShip) -> bool:
    return "cloak_tech" in ship.officers["engineer"].ratings


def hunter_rating(hunter: AdvShip, skill: tuple[str, str], target: AdvShip) -> int:
    """A hunter's rating against a cloaked ship: boosted while the ship vents (ADV-CLOAK-06)."""
    rating = hunter.rating(*skill)
    return boosted(rating, D100_CAP) if target.venting else rating


def d10_needed(number: int, target: AdvShip) -> int:
    """A d10 number a hunter needs against a cloaked ship (ADV-CLOAK-06 boosts it)."""
    return boosted(number, 9) if target.venting else number


def fresh_locks(battle: Battle, state: AdvancedState, ship: AdvShip) -> None:
    """A decloaking ship gives every enemy whose lock roll failed this turn another try, at it
    (ADV-CLOAK-02); each pair once a turn."""
    for e in state.side(other(ship.side)):
        key = (e.id, ship.id)
        if not e.lock_failed or not e.sensors_ok or key in state.fresh_tries:
            continue
        state.fresh_tries.add(key)
        result = check(battle.dice, e.rating("science", "sensors"), e.penalty)
        if result.outcome.passed:
            e.lock = ship.id
            e.lock_failed = False
        battle.note(
            ae.SensorLock,
            e.id,
            ship.id,
            result.roll,
            result.modifier,
            result.rating,
            result.outcome.passed,
        )


def engage(battle: Battle, state: AdvancedState, ship: AdvShip, why: str) -> None:
    """The cloak goes on: every enemy lock on the ship ends (ADV-SENS-04)."""
    ship.cloaked = True
    ship.decloaked = False
    battle.note(ae.CloakChanged, ship.id, True, why)
    for e in state.side(other(ship.side)):
        if e.lock == ship.id:
            lose_lock(battle, e, "target cloaked")


def interference(battle: Battle, state: AdvancedState, ship: AdvShip) -> None:
    """Near a black hole (outside its disk, where no cloak works at all) a cloaked ship rolls
    Cloak Tech once a game turn, its power already spent; a failure drops the cloak for the
    turn (ADV-CLOAK-09)."""
    if not terrain_check(battle, ship, "black hole interference Cloak Tech", cloak_tech(ship)):
        disengage(battle, state, ship, "natural interference near a black hole")


def disengage(battle: Battle, state: AdvancedState, ship: AdvShip, why: str) -> None:
    """The cloak comes off for the turn."""
    ship.cloaked = ship.decloaked = False
    battle.note(ae.CloakChanged, ship.id, False, why)
    fresh_locks(battle, state, ship)


class CloakingDevice(AdvancedModule):
    """ADV-CLOAK-01, ADV-CLOAK-02, ADV-CLOAK-03, ADV-CLOAK-04, ADV-CLOAK-05, ADV-CLOAK-06,
    ADV-CLOAK-07, ADV-CLOAK-08, ADV-SENS-02, ADV-OFF-09: cloaks, searches, pings, dispersal
    torpedoes."""

    name = "adv-cloak"
    clauses = CLOAK_CLAUSES
    summary = (
        "Advanced option: ships with a cloak (Birds of Prey) vanish from the enemy's view, "
        "decloak to fire, are searched for, pinged and hunted with dispersal torpedoes; "
        "Klingon and Romulan engineers roll Cloak Tech."
    )

    # --- policies -------------------------------------------------------------------------------

    def lock_allowed(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> bool:
        if not (target.alive and target.side != ship.side):
            return False
        # a cloaked ship is found by a search (ADV-SENS-02); a lock already held is kept
        return not target.hidden or ship.lock == target.id

    def visible(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        if not ship.hidden or ship.venting or ship.reveal > 0:
            return True
        return any(state.of(p).side == side for p in ship.pinged_by)

    def search_problem(self, state: AdvancedState, ship: AdvShip, facing: int) -> str | None:
        return None

    def search(self, battle: Battle, state: AdvancedState, ship: AdvShip, facing: int) -> None:
        s = ship.ship
        there = [
            e
            for e in state.side(other(ship.side))
            if e.hidden and facing_toward(s.x, s.y, s.heading, e.ship.x, e.ship.y) == facing
        ]
        # the sweep finds the nearest cloaked ship that moved, else the nearest (which it misses)
        there.sort(key=lambda e: (not e.moved_last, combat.distance(ship, e), e.id))
        target = there[0] if there else None
        rating = (
            hunter_rating(ship, ("science", "sensors"), target)
            if target
            else ship.rating("science", "sensors")
        )
        result = check(battle.dice, rating, ship.penalty)
        d10 = mod = 0
        needed = d10_needed(LOCK_D10, target) if target else LOCK_D10
        note = ""
        locked = False
        if result.outcome.passed:
            d10 = battle.dice.d10()
            shake = target.shake if target else None
            auto_fail = shake is Outcome.EXCEPTIONAL
            if auto_fail and result.outcome is Outcome.EXCEPTIONAL:
                # the engineer's 01-05 meets the searcher's 01-05: they cancel (ADV-OFF-09)
                auto_fail, note = False, "both 01-05: resolved normally"
            elif auto_fail:
                note = "Cloak Tech 01-05: the search fails"
            elif shake is Outcome.SUCCESS:
                mod, note = 1, "Cloak Tech +1"
            moved = target is not None and target.moved_last
            locked = target is not None and moved and not auto_fail and d10 + mod <= needed
        if locked and target is not None:
            ship.lock = target.id
        battle.note(
            ae.CloakSearch,
            ship.id,
            facing,
            target.id if target else "",
            result.roll,
            result.modifier,
            result.rating,
            result.outcome.passed,
            d10,
            mod,
            needed,
            bool(target and target.moved_last),
            locked,
            note,
        )

    def cloak_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        if not ship.sheet.cloak:
            return (
                f"{ship.sheet.name} carries no cloaking device (field 'cloak' of its advanced "
                "sheet, adv_ships.toml) (ADV-CLOAK-01)"
            )
        return None

    def fire_problem(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        if not target.hidden:
            return None
        if ship.lock != target.id or not ship.sensors_ok:
            return (
                f"{target.id} is cloaked: fire needs a sensor lock on it "
                "(ADV-CLOAK-03, ADV-CLOAK-04)"
            )
        if ship.id not in target.pinged_by and not target.exposed:
            return (
                f"{target.id} is cloaked: fire needs a ping this phase (ADV-CLOAK-03, ADV-CLOAK-04)"
            )
        return None

    def point_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        return None

    def fire_gate(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        if not target.hidden:
            return True
        checks = (("weapons", ("helm", "weapons")), ("sensors", ("science", "sensors")))
        for purpose, skill in checks:
            result = check(battle.dice, hunter_rating(ship, skill, target), ship.penalty)
            battle.note(
                ae.FireCheck,
                ship.id,
                target.id,
                f"{purpose} (cloaked target)",
                result.roll,
                result.modifier,
                result.rating,
                result.outcome.passed,
            )
            if not result.outcome.passed:
                return False
        return True

    def hit_stands(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        if not target.hidden or target.exposed:
            return True
        result = check(battle.dice, cloak_tech(target), target.penalty)
        held = result.outcome.passed
        battle.note(
            ae.CloakSave,
            target.id,
            ship.id,
            result.roll,
            result.modifier,
            result.rating,
            held,
        )
        if not held:  # hit through the cloak: shown to all, and locked ships fire freely
            target.exposed = True
            target.reveal = REVEAL_PHASES
        return not held

    def fire_at_point(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, index: int, x: int, y: int
    ) -> None:
        w = ship.sheet.weapons[index]
        dist = math.hypot(x - ship.ship.x, y - ship.ship.y)
        needed = state.rules.to_hit_number(state, ship, w, dist)
        radius = hex_radius(state)
        for _ in range(w.torpedoes):
            prey = [
                e
                for e in state.side(other(ship.side))
                if e.hidden and math.hypot(e.ship.x - x, e.ship.y - y) <= radius
            ]
            prey.sort(key=lambda e: (math.hypot(e.ship.x - x, e.ship.y - y), e.id))
            target = prey[0] if prey else None
            roll = battle.dice.d10()
            hunt = battle.dice.d10()
            hunt_needed = d10_needed(HUNT_D10, target) if target else HUNT_D10
            hit = (
                target is not None
                and needed > 0
                and roll + ship.penalty <= needed
                and hunt <= hunt_needed
            )
            share = reroll = damage = 0
            revealed = False
            if hit and target is not None:
                share = battle.dice.d10()
                if share == 10:
                    reroll = battle.dice.d10()
                damage, revealed = dispersal_damage(w.damage, share, reroll)
            battle.note(
                ae.DispersalRolled,
                ship.id,
                index,
                x,
                y,
                target.id if target else "",
                needed,
                roll,
                ship.penalty,
                hunt,
                hit,
                share,
                reroll,
                damage,
                revealed,
            )
            if target is not None and revealed:
                target.reveal = REVEAL_PHASES
            if target is not None and damage > 0:
                # plasma is not dodged by an evasion (ADV-EVA-04)
                dodgeable = w.kind.dodgeable
                combat.deal(battle, state, ship, target, damage, False, None, False, 0, dodgeable)

    # --- hooks ----------------------------------------------------------------------------------

    def adv_after_power(self, battle: Battle, state: AdvancedState) -> None:
        for a in list(state.ships.values()):
            if not a.alive or a.plan is None:
                continue
            if a.plan.cloak and not a.cloaked:
                engage(battle, state, a, "cloak engaged")
            elif not a.plan.cloak and a.cloaked:
                disengage(battle, state, a, "cloak disengaged")
        if any(t.kind == "black-hole" for t in battle.scenario.terrain):
            for a in list(state.ships.values()):
                if a.alive and a.cloaked and not a.around.disk:
                    interference(battle, state, a)

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        return (Each(_DECLOAK.at(phase), sides), Call(_pings))

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        for a in state.ships.values():
            a.pinged_by.clear()
            a.reveal = max(0, a.reveal - 1)
            if a.decloaked:
                a.decloaked = False
                if a.alive and a.cloaked:
                    battle.note(ae.CloakChanged, a.id, True, "cloaks again after firing")
                    for e in state.side(other(a.side)):
                        if e.lock == a.id:
                            lose_lock(battle, e, "target cloaked")

    # --- the engineer's Cloak Tech (ADV-OFF-09) -------------------------------------------------

    def bonus_choices(self, state: AdvancedState, ship: AdvShip) -> dict[str, dict[str, str]]:
        if ship.sheet.cloak and _has_tech(ship):
            return {"engineer": {"cloak": "cloak_tech"}}
        return {}

    def apply_bonus(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, choice: str, result: Check
    ) -> str | None:
        if choice != "cloak":
            return None
        outcome = result.outcome
        if ship.venting:  # the roll is made at 20% while venting plasma (ADV-CLOAK-06)
            outcome = judge(result.roll, vented(result.rating), result.modifier)
            if not outcome.passed:
                return f"venting plasma: Cloak Tech {vented(result.rating)}, no effect"
        ship.shake = outcome
        shaken = [e for e in state.side(other(ship.side)) if e.lock == ship.id and ship.cloaked]
        for e in shaken:
            lose_lock(battle, e, "shaken off by Cloak Tech")
        what = "enemy searches fail" if outcome is Outcome.EXCEPTIONAL else "+1 on enemy searches"
        return f"{what} this turn" + (f", {len(shaken)} lock(s) shaken off" if shaken else "")


def _pings(battle: Battle) -> None:
    """Ships locked on a cloaked enemy may ping it when it moved (ADV-CLOAK-03)."""
    state = state_of(battle)
    for a in state.ships.values():  # pings (ADV-CLOAK-03)
        if not a.alive or not a.sensors_ok or a.lock is None:
            continue
        target = state.of(a.lock)
        if not target.alive or not target.hidden:
            continue
        needed = d10_needed(PING_D10, target)
        d10 = battle.dice.d10()
        pinged = target.moved_last and d10 <= needed
        if pinged:
            target.pinged_by.add(a.id)
        battle.note(ae.CloakPinged, a.id, target.id, d10, needed, target.moved_last, pinged)


def _ask_decloak(battle: Battle, side: str, phase: int) -> DecloakDecision | None:
    """A side's cloaked ships may drop the cloak to fire (ADV-CLOAK-01)."""
    state = state_of(battle)
    ships = tuple(a.id for a in state.side(side) if a.hidden and combat.can_fire(a, True))
    return DecloakDecision(side, phase, ships) if ships else None


def _check_decloak(battle: Battle, decision: DecloakDecision, order: DecloakOrder) -> None:
    ships = decision.ships
    for ship_id in order.ships:
        if ship_id not in ships or order.ships.count(ship_id) > 1:
            raise IllegalOrderError(
                f"{ship_id} cannot decloak now: ships that can (cloaked, with a weapon "
                f"ready): {', '.join(ships)} (ADV-CLOAK-01)"
            )


def _decloak(battle: Battle, decision: DecloakDecision, order: DecloakOrder) -> None:
    state = state_of(battle)
    for ship_id in order.ships:
        a = state.of(ship_id)
        a.decloaked = True
        battle.note(ae.CloakChanged, a.id, False, "drops the cloak to fire")
        fresh_locks(battle, state, a)


_DECLOAK = Asked(DecloakDecision, DecloakOrder, "DECLOAK", _ask_decloak, _check_decloak, _decloak)
