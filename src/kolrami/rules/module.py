"""The FPF family's rule-module base: named phases, policies, capabilities.

`RuleModule` declares the hooks FPF's turn calls (start of battle, start of turn, repairs,
initiative, end of turn, end of battle) and the policies its rules ask (penetration, masking,
destruction ...). The engine's one binder (kolrami.engine.binder) binds them; `Ruleset` is the
typed face the rules read: `rules_of(battle).penetrates(...)`.

Phase hooks run in module order; a hook of a phase that may need a captain's decision returns
the steps it needs (kolrami.rules.steps: questions put to sides or ships), run before the next
module's hook is called. A policy is one function: the last module that defines
it wins, so an optional module replaces a core policy by defining it again.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING
from typing import ClassVar

from kolrami.engine.binder import Module
from kolrami.engine.binder import Rules
from kolrami.engine.binder import hook
from kolrami.engine.binder import policy
from kolrami.engine.orders import IllegalOrderError

if TYPE_CHECKING:
    from kolrami.catalog.models import WeaponKind
    from kolrami.engine.battle import Battle
    from kolrami.engine.battle import ShipState
    from kolrami.engine.step import Step
    from kolrami.rules.fpf.orders import Maneuver
    from kolrami.rules.fpf.volley import Volley
    from kolrami.scenarios.models import Scenario


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


class Policies:
    """FPF's policies, declared once: each a function the last module defining it decides.

    A declaration's body is its default, run when no module of the battle overrides it (the
    micro warp jump's: no jump); one that raises NotImplementedError is a rule of the game that
    one of FPF's core modules always provides (`FpfDamage.penetrates` ...). `RuleModule`
    inherits the declarations to override them, `Ruleset` to be typed by them: the binder binds
    every one as a `Ruleset` attribute of its name, so a new policy is declared here and
    nowhere else (docs/architecture.md, "Adding an FPF optional rule").
    """

    @policy
    def penetrates(self, battle: Battle, volley: Volley, roll: int) -> bool:
        """Whether a d10 `roll` of one of the `volley`'s shots gets through its target's shields
        as they stand for it (FPF-FIRE-09: in an exchange, what its side's earlier shots left)."""
        raise NotImplementedError

    @policy
    def line_of_fire_clear(self, battle: Battle, firer: ShipState, target: ShipState) -> bool:
        """Whether nothing masks the line from firer to target (FPF-MASK)."""
        raise NotImplementedError

    @policy
    def destroyed(self, battle: Battle, ship: ShipState, by: ShipState | None) -> None:
        """What happens when a ship's superstructure reaches 0 (FPF-DMG-11)."""
        raise NotImplementedError

    @policy
    def engine_damage(self, battle: Battle, ship: ShipState, amount: int) -> int:
        """How much Engine Power a hit of `amount` on locations 5-7 removes."""
        raise NotImplementedError

    @policy
    def squadron_fires_as_unit(self, battle: Battle) -> bool:
        """Whether every ship of a firing squadron must fire (FPF-FIRE-13)."""
        raise NotImplementedError

    @policy
    def after_roll(self, battle: Battle, volley: Volley, rolls: list[int]) -> list[int]:
        """A volley's penetration dice, against its `shields`, after any re-rolls (card effects)."""
        raise NotImplementedError

    @policy
    def evasion(self, battle: Battle, firer: ShipState, target: ShipState) -> int:
        """How much harder shots at `target` are to get through (card effects)."""
        raise NotImplementedError

    @policy
    def initiative_bonus(self, battle: Battle, side: str) -> int:
        """Added to a side's d10 in initiative roll-offs (card effects)."""
        raise NotImplementedError

    @policy
    def check_jump(self, battle: Battle, ships: list[ShipState], m: Maneuver, who: str) -> None:
        """Verify a micro warp jump (FPF-OPT-04); raise IllegalOrderError if not allowed.
        Without the option, no jump is."""
        raise IllegalOrderError(
            f"{who}: micro warp jumps are an optional rule; switch on the module "
            "'micro-warp-jump' (FPF-OPT-04)"
        )

    @policy
    def jump_range(self, battle: Battle) -> tuple[int, int] | None:
        """The distances a micro warp jump may cover (FPF-OPT-04); None: no jumps."""
        return None

    @policy
    def jump_weapons(self, battle: Battle, kinds: list[WeaponKind]) -> list[WeaponKind]:
        """The weapons a jumping ship may fire (FPF-OPT-05): without the option, all."""
        return kinds

    @policy
    def before_jump(self, battle: Battle, ship: ShipState) -> None:
        """Anything that happens to a ship as it jumps (FPF-OPT-06): without the option,
        nothing."""
        return None

    @policy
    def shield_ceiling(self, battle: Battle, ship: ShipState) -> int:
        """The shields a repair brings a ship back to (FPF-REP-01; PP-12 lowers it)."""
        raise NotImplementedError

    @policy
    def seen_scenario(self, battle: Battle, side: str) -> Scenario:
        """The scenario as `side` knows it (the advanced game hides unfound mines,
        ADV-MINE-03); by default all of it."""
        return battle.scenario

    @policy
    def return_spots(self, battle: Battle, ship: ShipState) -> list[tuple[float, float]]:
        """Where a reset `ship` may return (Peak Performance, PP-11); none where ships are not
        reset."""
        return []

    @policy
    def game_view(self, battle: Battle, side: str) -> object:
        """The part of `side`'s view a game above FPF adds (the advanced game's
        `AdvancedView`, read by `BattleView.advanced()`); None: the game adds none. Declared
        here so that FPF's view, below that game, does not import it."""
        return None


class RuleModule(Module["Battle"], Policies):
    """Base of the FPF family's rule modules (FPF, its options, Peak Performance, cards, and the
    advanced game, which extends it): override the hooks and policies the module needs."""

    #: the turn driver the module needs ("" for FPF's); a scenario's `driver` names one too
    driver: ClassVar[str] = ""

    # --- phase hooks --------------------------------------------------------------------------
    @hook
    def start_of_battle(self, battle: Battle) -> None:
        """Once, after deployment."""

    @hook
    def start_of_turn(self, battle: Battle) -> Sequence[Step[Battle]]:
        """At the start of each turn, before repairs (may ask captains, e.g. where to return)."""
        return ()

    @hook
    def repairs(self, battle: Battle) -> Sequence[Step[Battle]]:
        """The repairs phase (FPF-TURN-02 step 1)."""
        return ()

    @hook
    def initiative(self, battle: Battle) -> Sequence[Step[Battle]]:
        """The initiative phase: squadrons activate, move and fire (FPF-TURN-02 step 2)."""
        return ()

    @hook
    def end_of_turn(self, battle: Battle) -> None:
        """After every squadron has activated."""

    @hook
    def end_of_battle(self, battle: Battle) -> None:
        """Once, when the battle is over, before the result is recorded."""


#: The hooks of the phases that may ask captains, and of the phases that do not.
DECISION_HOOKS: dict[Phase, Callable[[RuleModule, Battle], Sequence[Step[Battle]]]] = {
    Phase.START_OF_TURN: RuleModule.start_of_turn,
    Phase.REPAIRS: RuleModule.repairs,
    Phase.INITIATIVE: RuleModule.initiative,
}
PLAIN_HOOKS: dict[Phase, Callable[[RuleModule, Battle], None]] = {
    Phase.START_OF_BATTLE: RuleModule.start_of_battle,
    Phase.END_OF_TURN: RuleModule.end_of_turn,
    Phase.END_OF_BATTLE: RuleModule.end_of_battle,
}


class Ruleset(Rules, Policies):
    """The bound modules of one battle with FPF's policies as typed functions: each policy
    `Policies` declares is an attribute bound by the binder to the module that decides it (or
    to its declaration's default), typed by its declaration."""

    def __init__(self, modules: list[RuleModule]) -> None:
        super().__init__(modules)

    def run(self, phase: Phase, battle: Battle) -> None:
        """Run every hook of a phase that asks no captain (start and end of battle, end of
        turn), in module order; a decision phase's hooks return steps (`rules.steps.Hooks`)."""
        for fn in self.hooks(PLAIN_HOOKS[phase]):
            fn(battle)


def rules_of(battle: Battle) -> Ruleset:
    """The battle's bound rules with FPF's policies (every battle the rules build has them)."""
    rules = battle.rules
    if not isinstance(rules, Ruleset):
        raise TypeError("this battle was not built by kolrami.rules (new_battle)")
    return rules
