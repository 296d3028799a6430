"""The advanced game's rule modules and the hooks its driver calls (GUIDE 3.7).

Every advanced module is a RuleModule (listed by `kolrami rules`, switched on by a scenario's
`rules = [...]` or `--rules`) that names the advanced turn driver, so switching one on plays
the advanced game. Its own hooks and policies are bound by `AdvancedRules` the way `Ruleset`
binds FPF's: hooks run in module order, and for each policy the last module defining it wins, so
an optional module (here reinforcement; in part 2 cloaks, tractors, boarding, terrain) replaces a
core policy by defining it again and the core never asks "is option X on?".
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from kolrami.catalog.advanced import AdvWeapon
from kolrami.rules.registry import RuleModule, register

if TYPE_CHECKING:
    from kolrami.engine.battle import Battle
    from kolrami.engine.orders import Decision, Order
    from kolrami.rules.advanced.checks import Check
    from kolrami.rules.advanced.state import AdvancedState, AdvShip

#: A step of the turn that may ask captains: yields decisions, receives orders.
Steps = Generator["Decision", "Order", None]

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
    def adv_turn_start(self, battle: Battle, state: AdvancedState) -> None:
        """At the start of a game turn, before the bonus rolls."""

    def adv_phase_end(self, battle: Battle, state: AdvancedState, phase: int) -> None:
        """After a phase's fire and shield redistribution (terrain damage goes here, part 2)."""

    def adv_turn_end(self, battle: Battle, state: AdvancedState) -> None:
        """After the fifth phase."""

    def adv_after_power(self, battle: Battle, state: AdvancedState) -> None:
        """Once every ship's power plan is in effect (the cloak engages here)."""

    def adv_after_move(
        self, battle: Battle, state: AdvancedState, phase: int, sides: tuple[str, str]
    ) -> Iterator[Decision]:
        """After a phase's movement, before fire is declared (may ask captains: decloaking)."""
        yield from ()

    def bonus_choices(self, state: AdvancedState, ship: AdvShip) -> dict[str, dict[str, str]]:
        """Extra bonus rolls this module offers `ship`: {officer: {choice: rating}}."""
        return {}

    def apply_bonus(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, choice: str, result: Check
    ) -> str | None:
        """Apply one of this module's bonus choices that passed its check (`result`); None: the
        choice is not this module's."""
        return None

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
        """Whether `ship` may name `target` for a sensor lock (a cloaked one needs a search)."""
        raise NotImplementedError

    def visible(self, state: AdvancedState, side: str, ship: AdvShip) -> bool:
        """Whether `side` sees the enemy `ship` on the table (GUIDE 3.8)."""
        raise NotImplementedError

    def search_problem(self, state: AdvancedState, ship: AdvShip, facing: int) -> str | None:
        """Why `ship` may not search `facing` for a cloaked ship (ADV-SENS-02), or None."""
        raise NotImplementedError

    def search(self, battle: Battle, state: AdvancedState, ship: AdvShip, facing: int) -> None:
        """Search `facing` for a cloaked ship to lock on (ADV-SENS-02)."""
        raise NotImplementedError

    def cloak_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        """Why `ship` may not engage a cloak this turn, or None."""
        raise NotImplementedError

    def fire_problem(self, state: AdvancedState, ship: AdvShip, target: AdvShip) -> str | None:
        """Why `ship` may not declare fire at `target` now (cloaks), or None."""
        raise NotImplementedError

    def point_problem(self, state: AdvancedState, ship: AdvShip) -> str | None:
        """Why `ship` may not fire a dispersal torpedo at a point (ADV-CLOAK-07), or None."""
        raise NotImplementedError

    def fire_gate(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        """Checks an attack must pass before its to-hit rolls beyond manual fire (cloaks)."""
        raise NotImplementedError

    def hit_stands(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, target: AdvShip
    ) -> bool:
        """Whether a hit on `target` stands (a cloaked ship's Cloak Tech save, ADV-CLOAK-04)."""
        raise NotImplementedError

    def fire_at_point(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, index: int, x: int, y: int
    ) -> None:
        """Resolve a dispersal torpedo from weapon `index` at the point (x, y) (ADV-CLOAK-07)."""
        raise NotImplementedError

    def speed_limit(self, state: AdvancedState, ship: AdvShip) -> int | None:
        """Most hexes `ship` may buy this turn given its speed last turn; None: no limit."""
        raise NotImplementedError


ADV_HOOKS = ("adv_turn_start", "adv_phase_end", "adv_turn_end", "adv_after_power")
ADV_STEPS = ("adv_after_move",)
ADV_POLICIES = (
    "reinforcement_cap",
    "to_hit_number",
    "lock_allowed",
    "visible",
    "search_problem",
    "search",
    "cloak_problem",
    "fire_problem",
    "point_problem",
    "fire_gate",
    "hit_stands",
    "fire_at_point",
    "speed_limit",
)
#: What the core says when an order needs cloaks and no module provides them.
NO_CLOAKS = "cloaking is a module: switch on 'adv-cloak' (scenario rules or --rules adv-cloak)"


def _overrides(module: AdvancedModule, attr: str) -> bool:
    return getattr(type(module), attr) is not getattr(AdvancedModule, attr)


class AdvancedRules:
    """The advanced modules of one battle, bound: hook lists and one function per policy."""

    def __init__(self, modules: list[AdvancedModule]) -> None:
        self.modules = modules
        self.names = [m.name for m in modules]
        self.hooks: dict[str, list[Callable[..., Any]]] = {
            hook: [getattr(m, hook) for m in modules if _overrides(m, hook)]
            for hook in (*ADV_HOOKS, *ADV_STEPS)
        }
        self._bonus = [m for m in modules if _overrides(m, "bonus_choices")]
        for policy in ADV_POLICIES:
            chosen = [m for m in modules if _overrides(m, policy)]
            if not chosen:
                raise ValueError(f"no advanced module provides the policy '{policy}'")
            setattr(self, policy, getattr(chosen[-1], policy))

    reinforcement_cap: Callable[[AdvancedState, AdvShip, int, int], int]
    to_hit_number: Callable[[AdvancedState, AdvShip, AdvWeapon, float], int]
    lock_allowed: Callable[[AdvancedState, AdvShip, AdvShip], bool]
    visible: Callable[[AdvancedState, str, AdvShip], bool]
    search_problem: Callable[[AdvancedState, AdvShip, int], str | None]
    search: Callable[[Battle, AdvancedState, AdvShip, int], None]
    cloak_problem: Callable[[AdvancedState, AdvShip], str | None]
    fire_problem: Callable[[AdvancedState, AdvShip, AdvShip], str | None]
    point_problem: Callable[[AdvancedState, AdvShip], str | None]
    fire_gate: Callable[[Battle, AdvancedState, AdvShip, AdvShip], bool]
    hit_stands: Callable[[Battle, AdvancedState, AdvShip, AdvShip], bool]
    fire_at_point: Callable[[Battle, AdvancedState, AdvShip, int, int, int], None]
    speed_limit: Callable[[AdvancedState, AdvShip], int | None]

    def run(self, hook: str, battle: Battle, *args: Any) -> None:
        """Run every module's `hook`."""
        for fn in self.hooks[hook]:
            fn(battle, *args)

    def steps(self, hook: str, battle: Battle, *args: Any) -> Steps:
        """Run every module's decision-asking `hook`, passing orders back to it."""
        for fn in self.hooks[hook]:
            yield from fn(battle, *args)

    def bonus_choices(self, state: AdvancedState, ship: AdvShip) -> dict[str, dict[str, str]]:
        """The modules' extra bonus choices for `ship`, merged by officer."""
        out: dict[str, dict[str, str]] = {}
        for m in self._bonus:
            for role, choices in m.bonus_choices(state, ship).items():
                out.setdefault(role, {}).update(choices)
        return out

    def apply_bonus(
        self, battle: Battle, state: AdvancedState, ship: AdvShip, choice: str, result: Check
    ) -> str | None:
        """Apply a module's bonus; None when no module owns `choice`."""
        for m in self._bonus:
            done = m.apply_bonus(battle, state, ship, choice, result)
            if done is not None:
                return done
        return None

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
        from kolrami.rules.advanced import events as ae

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


#: One warp factor of speed is this many hexes a game turn (module adv-warp-limit, ADV-OFF-10).
WARP_FACTOR_HEXES = 2


@register
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


@register
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
