"""The advanced game's rule modules and the hooks its driver calls (GUIDE 3.7).

Every advanced module is a RuleModule (listed by `kolrami rules`, switched on by a scenario's
`rules = [...]` or `--rules`) that names the advanced turn driver, so switching one on plays
the advanced game. Its own hooks and policies are bound by `AdvancedRules` the way `Ruleset`
binds FPF's: hooks run in module order, and for each policy the last module defining it wins, so
an optional module (here reinforcement; in part 2 cloaks, tractors, boarding, terrain) replaces a
core policy by defining it again and the core never asks "is option X on?".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from kolrami.catalog.advanced import AdvWeapon
from kolrami.rules.registry import RuleModule, register

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.rules.advanced.state import AdvancedState, AdvShip

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
    "ADV-TORP-01",
)

#: To-hit numbers on a d10 (roll at or under), by the share of the weapon's range (see
#: docs/rules.md, "The advanced game: to-hit").
TO_HIT_BANDS = ((1 / 3, 8), (2 / 3, 6), (1.0, 4))


class AdvancedModule(RuleModule):
    """Base of the advanced game's modules: hooks and policies the advanced driver calls."""

    driver: ClassVar[str] = "advanced"

    # --- hooks (every module's, in order) -------------------------------------------------------
    def adv_turn_start(self, battle: Battle, state: AdvancedState) -> None:
        """At the start of a game turn, before the bonus rolls."""

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        """After a phase's fire and shield redistribution (terrain damage goes here, part 2)."""

    def adv_turn_end(self, battle: Battle, state: AdvancedState) -> None:
        """After the fifth phase."""

    # --- policies (the last module defining one wins) -------------------------------------------
    def reinforcement_cap(self, state: AdvancedState, ship: AdvShip, facing: int, base: int) -> int:
        """Most reinforcement points `facing` may hold over `base` points (0: the option is off)."""
        raise NotImplementedError

    def to_hit_number(
        self, state: AdvancedState, ship: AdvShip, weapon: AdvWeapon, distance: float
    ) -> int:
        """The d10 result (after modifiers) at or under which a shot hits; 0 out of range."""
        raise NotImplementedError

    def lock_allowed(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> bool:
        """Whether `ship` may try a sensor lock on `target` (cloaks will say no, part 2)."""
        raise NotImplementedError


ADV_HOOKS = ("adv_turn_start", "adv_phase_end", "adv_turn_end")
ADV_POLICIES = ("reinforcement_cap", "to_hit_number", "lock_allowed")


def _overrides(module: AdvancedModule, attr: str) -> bool:
    return getattr(type(module), attr) is not getattr(AdvancedModule, attr)


class AdvancedRules:
    """The advanced modules of one battle, bound: hook lists and one function per policy."""

    def __init__(self, modules: list[AdvancedModule]) -> None:
        self.modules = modules
        self.names = [m.name for m in modules]
        self.hooks: dict[str, list[Callable[..., Any]]] = {
            hook: [getattr(m, hook) for m in modules if _overrides(m, hook)] for hook in ADV_HOOKS
        }
        for policy in ADV_POLICIES:
            chosen = [m for m in modules if _overrides(m, policy)]
            if not chosen:
                raise ValueError(f"no advanced module provides the policy '{policy}'")
            setattr(self, policy, getattr(chosen[-1], policy))

    reinforcement_cap: Callable[[AdvancedState, AdvShip, int, int], int]
    to_hit_number: Callable[[AdvancedState, AdvShip, AdvWeapon, float], int]
    lock_allowed: Callable[[AdvancedState, AdvShip, AdvShip], bool]

    def run(self, hook: str, battle: Battle, *args: Any) -> None:
        """Run every module's `hook`."""
        for fn in self.hooks[hook]:
            fn(battle, *args)

    @classmethod
    def of(cls, battle: Battle) -> AdvancedRules:
        """The core module, then every advanced module the battle switched on, in order."""
        chosen = [m for m in battle.rules.modules if isinstance(m, AdvancedModule)]
        if not any(isinstance(m, AdvancedCore) for m in chosen):
            chosen.insert(0, AdvancedCore())
        return cls(chosen)


@register
class AdvancedCore(AdvancedModule):
    """The advanced game (seed 004), part 1: officers, checks, sensors, power, shields, weapons."""

    name = "advanced"
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


@register
class ShieldReinforcement(AdvancedModule):
    """ADV-SHLD-05, -07 (optional): reinforce facings up to 200%, lost before the base charge."""

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
