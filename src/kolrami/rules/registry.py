"""The rule-module registry (GUIDE 3.7): rule sets and optional rules hook into named phases.

A module is a class with a name, the catalogue clauses it implements, and any of the phase hooks
or policies below. A scenario lists the modules to switch on; `Ruleset` binds them once, so the
hot path calls one bound method per policy and core code never asks "is option X on?".

Phase hooks run in module order; hooks of phases that need a captain's decision are generators
that yield Decisions and receive Orders. Policies (penetration, masking, destruction ...) are
single functions: the last module that defines one wins, so an optional module replaces a core
policy by defining it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from kolrami.errors import UnknownNameError

if TYPE_CHECKING:
    from kolrami.catalog.models import WeaponKind
    from kolrami.engine.battle import Battle, ShipState
    from kolrami.engine.orders import Decision, Maneuver, Order


class Phase(StrEnum):
    """Named phases a module can hook into, in the order a turn meets them."""

    START_OF_BATTLE = "start_of_battle"
    START_OF_TURN = "start_of_turn"
    REPAIRS = "repairs"
    INITIATIVE = "initiative"
    END_OF_TURN = "end_of_turn"
    END_OF_BATTLE = "end_of_battle"


class Capability(StrEnum):
    """What a rule module makes a battle do that readers above the rules need to know (the
    tournament, reports, the CLI), asked for instead of testing a module's name."""

    #: ships are reset and return instead of being destroyed
    RESETS_DESTROYED = "resets-destroyed"
    #: the battle scores Fleet Points, and its winner is the side with more of them
    SCORES_FLEET_POINTS = "scores-fleet-points"


#: Phases whose hooks are generators (they ask captains).
DECISION_PHASES = frozenset({Phase.START_OF_TURN, Phase.REPAIRS, Phase.INITIATIVE})

Play = Iterator["Decision"]  # a generator yielding decisions; orders are sent back in


class RuleModule:
    """Base of rule modules. Override the hooks and policies the module needs."""

    name: ClassVar[str] = ""
    clauses: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    core: ClassVar[bool] = False  # part of FPF itself, always on
    #: the turn driver the module needs ("" for FPF's); a scenario's `driver` names one too
    driver: ClassVar[str] = ""
    #: what switching the module on makes battles do (Capability)
    capabilities: ClassVar[frozenset[Capability]] = frozenset()

    # --- phase hooks --------------------------------------------------------------------------
    def start_of_battle(self, battle: Battle) -> None:
        """Once, after deployment."""

    def start_of_turn(self, battle: Battle) -> Iterator[Decision]:
        """At the start of each turn, before repairs (may ask captains, e.g. where to return)."""
        yield from ()

    def repairs(self, battle: Battle) -> Iterator[Decision]:
        """The repairs phase (FPF-TURN-02 step 1)."""
        yield from ()

    def initiative(self, battle: Battle) -> Iterator[Decision]:
        """The initiative phase: squadrons activate, move and fire (FPF-TURN-02 step 2)."""
        yield from ()

    def end_of_turn(self, battle: Battle) -> None:
        """After every squadron has activated."""

    def end_of_battle(self, battle: Battle) -> None:
        """Once, when the battle is over, before the result is recorded."""

    # --- policies (the last module defining one wins) -----------------------------------------
    def penetrates(
        self, battle: Battle, firer: ShipState, target: ShipState, strength: int, roll: int
    ) -> bool:
        """Whether a d10 `roll` of a shot at `strength` gets through `target`'s shields."""
        raise NotImplementedError

    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        """Whether nothing masks the line from firer to target (FPF-MASK)."""
        raise NotImplementedError

    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        """What happens when a ship's superstructure reaches 0 (FPF-DMG-11)."""
        raise NotImplementedError

    def engine_damage(self, battle: Battle, ship: ShipState, amount: int) -> int:
        """How much Engine Power a hit of `amount` on locations 5-7 removes."""
        raise NotImplementedError

    def squadron_fires_as_unit(self, battle: Battle) -> bool:
        """Whether every ship of a firing squadron must fire (FPF-FIRE-13)."""
        raise NotImplementedError

    def result(self, battle: Battle) -> tuple[str | None, str]:
        """The winner ('A', 'B' or None) and the reason, once the battle is over."""
        raise NotImplementedError

    def battle_over(self, battle: Battle) -> bool:
        """Whether the battle ends now, before its turn limit."""
        raise NotImplementedError

    def after_roll(
        self, battle: Battle, ship: ShipState, target: ShipState, strength: int, rolls: list[int]
    ) -> list[int]:
        """A volley's penetration dice after any re-rolls (card effects)."""
        raise NotImplementedError

    def evasion(self, battle: Battle, firer: ShipState, target: ShipState) -> int:
        """How much harder shots at `target` are to get through (card effects)."""
        raise NotImplementedError

    def initiative_bonus(self, battle: Battle, side: str) -> int:
        """Added to a side's d10 in initiative roll-offs (card effects)."""
        raise NotImplementedError

    def check_jump(self, battle: Battle, ships: list[ShipState], m: Maneuver, who: str) -> None:
        """Verify a micro warp jump (FPF-OPT-04); raise IllegalOrderError if not allowed."""
        raise NotImplementedError

    def jump_weapons(self, battle: Battle, kinds: list[WeaponKind]) -> list[WeaponKind]:
        """The weapons a jumping ship may fire (FPF-OPT-05)."""
        raise NotImplementedError

    def before_jump(self, battle: Battle, ship: ShipState) -> None:
        """Anything that happens to a ship as it jumps (FPF-OPT-06)."""
        raise NotImplementedError


POLICIES = (
    "check_jump",
    "jump_weapons",
    "before_jump",
    "penetrates",
    "line_of_fire_clear",
    "destroyed",
    "engine_damage",
    "squadron_fires_as_unit",
    "result",
    "battle_over",
    "after_roll",
    "evasion",
    "initiative_bonus",
)
PHASE_HOOKS = tuple(p.value for p in Phase)

REGISTRY: dict[str, type[RuleModule]] = {}


def register(cls: type[RuleModule]) -> type[RuleModule]:
    """Class decorator: make a module available by its name."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    if cls.name in REGISTRY and REGISTRY[cls.name] is not cls:
        raise ValueError(f"two rule modules are called '{cls.name}'")
    REGISTRY[cls.name] = cls
    return cls


def _overrides(cls: type[RuleModule], attr: str) -> bool:
    return getattr(cls, attr) is not getattr(RuleModule, attr)


@cache
def _plan(
    names: tuple[str, ...],
) -> tuple[list[type[RuleModule]], dict[str, list[int]], dict[str, int]]:
    """Which modules `names` are, which of them hook each phase (in order) and which one
    provides each policy (the last to define it). Worked out once per list of names."""
    classes = []
    for name in names:
        cls = REGISTRY.get(name)
        if cls is None:
            import difflib

            close = difflib.get_close_matches(name, list(REGISTRY), n=1)
            raise UnknownNameError(
                "rule module", name, close[0] if close else None, sorted(REGISTRY)
            )
        classes.append(cls)
    hooks = {
        phase: [i for i, cls in enumerate(classes) if _overrides(cls, phase)]
        for phase in PHASE_HOOKS
    }
    policies = {}
    for policy in POLICIES:
        chosen = [i for i, cls in enumerate(classes) if _overrides(cls, policy)]
        if not chosen:
            raise ValueError(f"no rule module provides the policy '{policy}'")
        policies[policy] = chosen[-1]
    return classes, hooks, policies


class Ruleset:
    """The bound modules of one battle: phase hook lists and one function per policy."""

    def __init__(self, names: list[str]) -> None:
        classes, hooks, policies = _plan(tuple(names))
        self.modules: list[RuleModule] = [cls() for cls in classes]
        self.names = [m.name for m in self.modules]
        #: what the bound modules make this battle do (Capability)
        self.capabilities: frozenset[Capability] = frozenset().union(
            *(m.capabilities for m in self.modules)
        )
        self.hooks: dict[str, list[Callable[..., Any]]] = {
            phase: [getattr(self.modules[i], phase) for i in chosen]
            for phase, chosen in hooks.items()
        }
        for policy, i in policies.items():
            setattr(self, policy, getattr(self.modules[i], policy))

    # Filled in by __init__ from the modules; declared here for type checkers.
    penetrates: Callable[[Battle, ShipState, ShipState, int, int], bool]
    line_of_fire_clear: Callable[[Battle, ShipState, ShipState], bool]
    destroyed: Callable[[Battle, ShipState, ShipState | None], None]
    engine_damage: Callable[[Battle, ShipState, int], int]
    squadron_fires_as_unit: Callable[[Battle], bool]
    result: Callable[[Battle], tuple[str | None, str]]
    battle_over: Callable[[Battle], bool]
    after_roll: Callable[[Battle, ShipState, ShipState, int, list[int]], list[int]]
    evasion: Callable[[Battle, ShipState, ShipState], int]
    initiative_bonus: Callable[[Battle, str], int]
    check_jump: Callable[[Battle, list[ShipState], Maneuver, str], None]
    jump_weapons: Callable[[Battle, list[WeaponKind]], list[WeaponKind]]
    before_jump: Callable[[Battle, ShipState], None]

    def run(self, phase: Phase, battle: Battle) -> Iterator[Decision]:
        """Run every hook of `phase`; decision phases yield their decisions."""
        for hook in self.hooks[phase]:  # a StrEnum finds its str key
            if phase in DECISION_PHASES:
                yield from hook(battle)
            else:
                hook(battle)


def capabilities_of(names: Iterable[str]) -> frozenset[Capability]:
    """The capabilities the named modules give a battle (unknown names are refused)."""
    out: set[Capability] = set()
    for name in names:
        cls = REGISTRY.get(name)
        if cls is None:
            _plan((name,))  # raises the unknown-name error with its suggestion
            continue
        out |= cls.capabilities
    return frozenset(out)


def describe() -> list[tuple[str, bool, tuple[str, ...], str]]:
    """(name, core?, clauses, summary) of every registered module, for docs and the CLI."""
    return [(c.name, c.core, c.clauses, c.summary) for c in REGISTRY.values()]


def send(play: Play, order: Order | None) -> Decision:
    """Helper for drivers: advance a decision generator with an order."""
    return play.send(order)  # type: ignore[attr-defined,no-any-return]
