"""The advanced game's rule modules and the hooks its driver calls.

Every advanced module is a RuleModule (listed by `kolrami rules`, switched on by a scenario's
`rules = [...]` or `--rules`) that names the advanced turn driver, so switching one on plays
the advanced game. Its own hooks and policies are bound by `AdvancedRules` the way `Ruleset`
binds FPF's: hooks run in module order, and for each policy the last module defining it wins, so
an optional module (here reinforcement; in part 2 cloaks, tractors, boarding, terrain) replaces a
core policy by defining it again and the core never asks "is option X on?".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.catalog.advanced import AdvWeapon
from kolrami.engine.binder import Rules
from kolrami.engine.binder import hook
from kolrami.engine.binder import policy
from kolrami.engine.step import Step
from kolrami.rules.advanced.state import state_of
from kolrami.rules.module import RuleModule

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.orders import Decision
    from kolrami.rules.advanced.checks import Check
    from kolrami.rules.advanced.orders import Attack
    from kolrami.rules.advanced.state import AdvancedState
    from kolrami.rules.advanced.state import AdvShip


#: The catalogue clauses the core advanced module implements (part 1 of the advanced game).
PART_ONE = (
    "ADV-CHK-01",
    "ADV-OFF-01",
    "ADV-OFF-02",
    "ADV-OFF-03",
    "ADV-OFF-04",
    "ADV-OFF-05",
    "ADV-OFF-06",
    "ADV-OFF-07",
    "ADV-OFF-08",
    "ADV-OFF-11",
    "ADV-OFF-12",
    "ADV-CAS-01",
    "ADV-CAS-02",
    "ADV-CAS-03",
    "ADV-CAS-04",
    "ADV-SEQ-01",
    "ADV-SEQ-02",
    "ADV-SEQ-03",
    "ADV-SEQ-04",
    "ADV-SEQ-05",
    "ADV-SENS-01",
    "ADV-SENS-03",
    "ADV-SENS-04",
    "ADV-POW-01",
    "ADV-SHLD-01",
    "ADV-SHLD-02",
    "ADV-SHLD-03",
    "ADV-SHLD-04",
    "ADV-SHLD-06",
    "ADV-ARC-01",
    "ADV-ARC-02",
    "ADV-ARC-03",
    "ADV-ARC-04",
    "ADV-FIRE-01",
    "ADV-FIRE-02",
    "ADV-FIRE-03",
    "ADV-DIS-01",
    "ADV-DIS-02",
    "ADV-LOCK-01",
    "ADV-LOCK-02",
    "ADV-LOCK-03",
    "ADV-TGT-01",
    "ADV-EVA-01",
    "ADV-EVA-02",
    "ADV-EVA-03",
    "ADV-EVA-04",
    "ADV-TORP-01",
)

#: To-hit numbers on a d10 (roll at or under), by the share of the weapon's range (see
#: docs/rules.md, "The advanced game: to-hit").
TO_HIT_BANDS = ((1 / 3, 8), (2 / 3, 6), (1.0, 4))


class AdvancedModule(RuleModule):
    """Base of the advanced game's modules: hooks and policies the advanced driver calls."""

    driver: ClassVar[str] = "advanced"

    # --- hooks (every module's, in order) -------------------------------------------------------
    @hook
    def adv_turn_start(self, battle: Battle, state: AdvancedState) -> None:
        """At the start of a game turn, before the bonus rolls."""

    @hook
    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        """After a phase's fire and shield redistribution (terrain damage goes here, part 2)."""

    @hook
    def adv_turn_end(self, battle: Battle, state: AdvancedState) -> None:
        """After the fifth phase."""

    @hook
    def adv_after_power(self, battle: Battle, state: AdvancedState) -> None:
        """Once every ship's power plan is in effect (the cloak engages here)."""

    @hook
    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        """After a phase's movement, before fire is declared: the steps it needs (may ask
        captains: decloaking, probes, tactics ...)."""
        return ()

    @hook
    def bonus_choices(self, state: AdvancedState, ship: AdvShip) -> dict[str, dict[str, str]]:
        """Extra bonus rolls this module offers `ship`: {officer: {choice: rating}}."""
        return {}

    @hook
    def apply_bonus(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, choice: str, result: Check
    ) -> str | None:
        """Apply one of this module's bonus choices that passed its check (`result`); None: the
        choice is not this module's."""
        return None

    @hook
    def hides(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        """Whether this module hides the enemy `ship` from `side` now (terrain: a gas giant's
        atmosphere, a nebula's failed sensing); any module hiding it hides it."""
        return False

    @hook
    def object_problem(
        self, state: AdvancedState, ship: AdvShip, weapons: tuple[int, ...], target: str
    ) -> str | None:
        """Why `ship` may not fire `weapons` at `target`, a thing on the table that is not a
        ship (terrain: a firing mine, `M2.3`), or None when it may; a module that does not
        know the target returns None too and the first problem found stands."""
        return None

    @hook
    def fire_at_object(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, attack: Attack
    ) -> None:
        """Resolve an attack at a target that is not a ship (every module's, in order)."""

    @hook
    def reveals(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        """Whether this module shows the enemy `ship` to `side` although a module's `hides`
        hides it (a probe's shadow-free sensing, ADV-PROBE-03)."""
        return False

    @hook
    def to_hit_penalty(self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon) -> int:
        """What `ship`'s surroundings add to its to-hit rolls with `weapon` (summed)."""
        return 0

    @hook
    def terrain_damage(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, damage: int
    ) -> int:
        """A shot's damage after `ship`'s surroundings (applied in module order)."""
        return damage

    @hook
    def fire_barred(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether `ship` may not fire at all this phase (it transported or is docking, module
        adv-tactics; it is laying a mine, terrain); any module barring it bars it."""
        return False

    @hook
    def fire_refusal(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        """Why `ship` holds fire at `target` this phase beyond the core's reasons, or None."""
        return None

    @hook
    def extra_moves(self, state: AdvancedState, ship: AdvShip) -> int:
        """Hexes a turn `ship` may buy above its sheet's maximum (emergency warp, summed)."""
        return 0

    @hook
    def warp_without_impulse(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether `ship` may buy movement with its impulse engine at 0 (straight-ahead warp)."""
        return False

    @hook
    def straight_only(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether `ship`'s moves this phase must be straight ahead (no impulse)."""
        return False

    @hook
    def nacelle_hit(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, part: str, left: int, damage: int
    ) -> None:
        """A hit of `damage` on a nacelle that had `left` points (it may be blown off)."""

    @hook
    def many_targets(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether `ship` may engage any number of targets, a beam and a missile together at
        one (a base)."""
        return False

    # --- policies (the last module defining one wins) -------------------------------------------
    @policy
    def reinforcement_cap(self, state: AdvancedState, ship: AdvShip, facing: int, base: int) -> int:
        """Most reinforcement points `facing` may hold over `base` points (0: the option is off)."""
        raise NotImplementedError

    @policy
    def to_hit_number(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, distance: float
    ) -> int:
        """The d10 result (after modifiers) at or under which a shot hits; 0 out of range."""
        raise NotImplementedError

    @policy
    def lock_allowed(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> bool:
        """Whether `ship` may name `target` for a sensor lock (a cloaked one needs a search)."""
        raise NotImplementedError

    @policy
    def visible(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        """Whether `side` sees the enemy `ship` on the table."""
        raise NotImplementedError

    @policy
    def search_problem(self, state: AdvancedState, ship: AdvShip, facing: int) -> str | None:
        """Why `ship` may not search `facing` for a cloaked ship (ADV-SENS-02), or None."""
        raise NotImplementedError

    @policy
    def search(self, battle: Battle, state: AdvancedState, ship: AdvShip, facing: int) -> None:
        """Search `facing` for a cloaked ship to lock on (ADV-SENS-02)."""
        raise NotImplementedError

    @policy
    def cloak_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        """Why `ship` may not engage a cloak this turn, or None."""
        raise NotImplementedError

    @policy
    def fire_problem(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        """Why `ship` may not declare fire at `target` now (cloaks), or None."""
        raise NotImplementedError

    @policy
    def point_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        """Why `ship` may not fire a dispersal torpedo at a point (ADV-CLOAK-07), or None."""
        raise NotImplementedError

    @policy
    def fire_gate(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        """Checks an attack must pass before its to-hit rolls beyond manual fire (cloaks)."""
        raise NotImplementedError

    @policy
    def hit_stands(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        """Whether a hit on `target` stands (a cloaked ship's Cloak Tech save, ADV-CLOAK-04)."""
        raise NotImplementedError

    @policy
    def fire_at_point(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, index: int, x: int, y: int
    ) -> None:
        """Resolve a dispersal torpedo from weapon `index` at the point (x, y) (ADV-CLOAK-07)."""
        raise NotImplementedError

    @policy
    def speed_limit(self, state: AdvancedState, ship: AdvShip) -> int | None:
        """Most hexes `ship` may buy this turn given its speed last turn; None: no limit."""
        raise NotImplementedError


#: What the core says when an order needs cloaks and no module provides them.
NO_CLOAKS = "cloaking is a module: switch on 'adv-cloak' (scenario rules or --rules adv-cloak)"


class AdvancedRules:
    """The advanced game's hooks and policies, read from the battle's one binding (the engine's
    binder binds every module of a battle, FPF's and the advanced game's alike)."""

    def __init__(self, rules: Rules) -> None:
        self.modules = [m for m in rules.modules if isinstance(m, AdvancedModule)]
        self.names = [m.name for m in self.modules]
        self.turn_start = rules.hooks(AdvancedModule.adv_turn_start)
        self.phase_end = rules.hooks(AdvancedModule.adv_phase_end)
        self.turn_end = rules.hooks(AdvancedModule.adv_turn_end)
        self.after_power = rules.hooks(AdvancedModule.adv_after_power)
        self.after_move = rules.hooks(AdvancedModule.adv_after_move)
        self._bonus_choices = rules.hooks(AdvancedModule.bonus_choices)
        self._apply_bonus = rules.hooks(AdvancedModule.apply_bonus)
        self.reinforcement_cap = rules.policy(AdvancedModule.reinforcement_cap)
        self.to_hit_number = rules.policy(AdvancedModule.to_hit_number)
        self._lock_allowed = rules.policy(AdvancedModule.lock_allowed)
        self._visible = rules.policy(AdvancedModule.visible)
        self._hides = rules.hooks(AdvancedModule.hides)
        self._reveals = rules.hooks(AdvancedModule.reveals)
        self._object_problem = rules.hooks(AdvancedModule.object_problem)
        self._fire_at_object = rules.hooks(AdvancedModule.fire_at_object)
        self._to_hit_penalty = rules.hooks(AdvancedModule.to_hit_penalty)
        self._terrain_damage = rules.hooks(AdvancedModule.terrain_damage)
        self._fire_barred = rules.hooks(AdvancedModule.fire_barred)
        self._fire_refusal = rules.hooks(AdvancedModule.fire_refusal)
        self._extra_moves = rules.hooks(AdvancedModule.extra_moves)
        self._warp_without_impulse = rules.hooks(AdvancedModule.warp_without_impulse)
        self._straight_only = rules.hooks(AdvancedModule.straight_only)
        self._nacelle_hit = rules.hooks(AdvancedModule.nacelle_hit)
        self._many_targets = rules.hooks(AdvancedModule.many_targets)
        self.search_problem = rules.policy(AdvancedModule.search_problem)
        self.search = rules.policy(AdvancedModule.search)
        self._cloak_problem = rules.policy(AdvancedModule.cloak_problem)
        self.fire_problem = rules.policy(AdvancedModule.fire_problem)
        self.point_problem = rules.policy(AdvancedModule.point_problem)
        self.fire_gate = rules.policy(AdvancedModule.fire_gate)
        self.hit_stands = rules.policy(AdvancedModule.hit_stands)
        self.fire_at_point = rules.policy(AdvancedModule.fire_at_point)
        self.speed_limit = rules.policy(AdvancedModule.speed_limit)

    def lock_allowed(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> bool:
        """Whether `ship` may name `target` for a lock: the module's rule, and no terrain
        around either ship that makes locks impossible."""
        if ship.around.no_lock or target.around.no_lock:
            return False
        return self._lock_allowed(state, ship, target)

    def visible(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        """Whether `side` sees the enemy `ship`: the modules' rule, unless any module hides it."""
        if not self._visible(state, side, ship):
            return False
        if not any(fn(state, side, ship) for fn in self._hides):
            return True
        return any(fn(state, side, ship) for fn in self._reveals)

    def hidden(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        """Whether a module's hook hides `ship` from `side` now (terrain hides it whole: it
        cannot even be named as a target)."""
        return any(fn(state, side, ship) for fn in self._hides)

    def object_problem(
        self, state: AdvancedState, ship: AdvShip, weapons: tuple[int, ...], target: str
    ) -> str | None:
        """Why `ship` may not fire at `target`, a thing that is not a ship, or None; with no
        module playing such targets, there is none to fire at."""
        if not self._object_problem:
            return f"there is no '{target}' on the table (firing mines need adv-terrain)"
        for fn in self._object_problem:
            problem = fn(state, ship, weapons, target)
            if problem:
                return problem
        return None

    def fire_at_object(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, attack: Attack
    ) -> None:
        """Every module's resolution of an attack at a target that is not a ship."""
        for fn in self._fire_at_object:
            fn(battle, state, ship, attack)

    def cloak_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        """Why `ship` may not engage a cloak: its surroundings first, then the module's rule."""
        if ship.around.no_cloak:
            return ship.around.no_cloak
        return self._cloak_problem(state, ship)

    def to_hit_penalty(self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon) -> int:
        """What the modules add to `ship`'s to-hit rolls with `weapon`."""
        return sum(fn(state, ship, weapon) for fn in self._to_hit_penalty)

    def terrain_damage(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, damage: int
    ) -> int:
        """A shot's damage after the modules' terrain effects."""
        for fn in self._terrain_damage:
            damage = fn(state, ship, weapon, damage)
        return damage

    def fire_barred(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether a module bars `ship` from firing this phase."""
        return any(fn(state, ship) for fn in self._fire_barred)

    def fire_refusal(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        """The first module's reason for `ship` to hold fire at `target`, or None."""
        for fn in self._fire_refusal:
            why = fn(state, ship, target)
            if why is not None:
                return why
        return None

    def max_moves(self, state: AdvancedState, ship: AdvShip) -> int:
        """Most hexes `ship` may buy this turn: its sheet's, plus what modules allow."""
        return ship.sheet.max_moves + sum(fn(state, ship) for fn in self._extra_moves)

    def warp_without_impulse(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether a module lets `ship` move with no impulse."""
        return any(fn(state, ship) for fn in self._warp_without_impulse)

    def straight_only(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether a module makes `ship`'s moves straight ahead."""
        return any(fn(state, ship) for fn in self._straight_only)

    def nacelle_hit(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, part: str, left: int, damage: int
    ) -> None:
        """Every module's nacelle-hit hook."""
        for fn in self._nacelle_hit:
            fn(battle, state, ship, part, left, damage)

    def many_targets(self, state: AdvancedState, ship: AdvShip) -> bool:
        """Whether a module lets `ship` engage any number of targets."""
        return any(fn(state, ship) for fn in self._many_targets)

    def start_turn(self, battle: Battle, state: AdvancedState) -> None:
        """Every module's start-of-turn hook."""
        for fn in self.turn_start:
            fn(battle, state)

    def power_set(self, battle: Battle, state: AdvancedState) -> None:
        """Every module's hook for when the power plans are in effect."""
        for fn in self.after_power:
            fn(battle, state)

    def moved(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Sequence[Step[Battle]]:
        """Every module's after-movement hook, as the step that calls them in turn."""
        return (AfterMove(phase, sides, 0),)

    def end_phase(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        """Every module's end-of-phase hook."""
        for fn in self.phase_end:
            fn(battle, state, phase)

    def end_turn(self, battle: Battle, state: AdvancedState) -> None:
        """Every module's end-of-turn hook."""
        for fn in self.turn_end:
            fn(battle, state)

    def bonus_choices(self, state: AdvancedState, ship: AdvShip) -> dict[str, dict[str, str]]:
        """The modules' extra bonus choices for `ship`, merged by officer."""
        out: dict[str, dict[str, str]] = {}
        for fn in self._bonus_choices:
            for role, choices in fn(state, ship).items():
                out.setdefault(role, {}).update(choices)
        return out

    def apply_bonus(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, choice: str, result: Check
    ) -> str | None:
        """Apply a module's bonus; None when no module owns `choice`."""
        for fn in self._apply_bonus:
            done = fn(battle, state, ship, choice, result)
            if done is not None:
                return done
        return None

    @classmethod
    def of(cls, battle: Battle) -> AdvancedRules:
        """The advanced part of the battle's bound rules."""
        return cls(battle.rules)


#: One warp factor of speed is this many hexes a game turn (module adv-warp-limit, ADV-OFF-10).
WARP_FACTOR_HEXES = 2


class WarpLimit(AdvancedModule):
    """ADV-OFF-10 (optional): speed changes by one warp factor a turn; the engineer's Warp Tech
    roll allows two."""

    name = "adv-warp-limit"
    clauses = ("ADV-OFF-10",)
    summary = (
        "Advanced option: a ship speeds up by at most one warp factor (2 hexes) a turn; a "
        "successful Warp Tech bonus roll allows two (three on 05 or less)."
    )

    def speed_limit(self, state: AdvancedState, ship: AdvShip) -> int | None:
        return ship.last_moves + (1 + ship.warp_bonus) * WARP_FACTOR_HEXES

    def bonus_choices(self, state: AdvancedState, ship: AdvShip) -> dict[str, dict[str, str]]:
        return {"engineer": {"warp": "warp_tech"}}

    def apply_bonus(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, choice: str, result: Check
    ) -> str | None:
        if choice != "warp":
            return None
        ship.warp_bonus = result.outcome.amount
        factors = 1 + ship.warp_bonus
        return f"speed may change by {factors} warp factors ({factors * WARP_FACTOR_HEXES} hexes)"


class ShieldReinforcement(AdvancedModule):
    """ADV-SHLD-05, ADV-SHLD-07 (optional): reinforce facings up to 200%, lost before the base
    charge."""

    name = "adv-shield-reinforcement"
    clauses = ("ADV-SHLD-05", "ADV-SHLD-07")
    summary = (
        "Advanced option: buy reinforcement points at the shield ratio, up to 200% of a facing; "
        "hits take reinforcement first. Longer games."
    )

    def reinforcement_cap(self, state: AdvancedState, ship: AdvShip, facing: int, base: int) -> int:
        # up to 100% more than the facing's value, and never past 200% with its base points
        full = ship.sheet.shield_points
        return max(0, min(full, 2 * full - base))


class AfterMove(Step["Battle"]):
    """The modules' after-movement hooks in module order, from the `index`-th, each called
    once the steps of the one before are done."""

    __slots__ = ("index", "phase", "sides")

    def __init__(self, phase: int, sides: tuple[str, str], index: int) -> None:
        self.phase = phase
        self.sides = sides
        self.index = index

    def run(self, battle: Battle) -> Decision | None:
        state = state_of(battle)
        hooks = state.rules.after_move
        i = self.index
        if i < len(hooks):
            if i + 1 < len(hooks):
                battle.agenda.append(AfterMove(self.phase, self.sides, i + 1))
            steps = hooks[i](battle, state, self.phase, self.sides)
            if steps:
                battle.then(*steps)
        return None
