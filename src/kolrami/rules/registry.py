"""Every built-in rule module, in one explicit list (as python-chess lists its `VARIANTS`).

Nothing registers itself by being imported: a module is known because it is listed here. A battle's
modules are chosen here too, from its scenario and any extra rules, and bound once by the engine's
binder into a `Ruleset`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from kolrami.engine.events import EVENT_TYPES
from kolrami.engine.events import Event
from kolrami.engine.events import parse_jsonl
from kolrami.engine.orders import Order
from kolrami.engine.orders import parse
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError
from kolrami.rules import cards
from kolrami.rules import peak
from kolrami.rules.advanced import cloak
from kolrami.rules.advanced import comms
from kolrami.rules.advanced import driver as advanced
from kolrami.rules.advanced import modules as advanced_modules
from kolrami.rules.advanced import probes
from kolrami.rules.advanced import tactics
from kolrami.rules.advanced import terrain
from kolrami.rules.advanced import webs
from kolrami.rules.advanced.events import ADVANCED_EVENTS
from kolrami.rules.advanced.field_events import FIELD_EVENTS
from kolrami.rules.advanced.field_orders import read_field
from kolrami.rules.advanced.orders import read_advanced
from kolrami.rules.advanced.tactics_events import TACTICS_EVENTS
from kolrami.rules.advanced.terrain_events import TERRAIN_EVENTS
from kolrami.rules.events import FPF_EVENTS
from kolrami.rules.fpf import damage
from kolrami.rules.fpf import initiative
from kolrami.rules.fpf import masking
from kolrami.rules.fpf import options
from kolrami.rules.fpf import repairs
from kolrami.rules.fpf import turn
from kolrami.rules.fpf.orders import read_fpf
from kolrami.rules.module import Capability
from kolrami.rules.module import RuleModule
from kolrami.rules.module import Ruleset
from kolrami.scenarios.models import Masking
from kolrami.scenarios.models import Scenario

#: Every built-in rule module, FPF's core first.
MODULES: tuple[type[RuleModule], ...] = (
    turn.FpfTurn,
    repairs.FpfRepairs,
    initiative.FpfInitiative,
    damage.FpfDamage,
    cards.CardEffects,
    masking.MaskingStationary,
    masking.MaskingNone,
    *options.OPTIONS,
    peak.BattleSimulation,
    advanced.AdvancedCore,
    cloak.CloakingDevice,
    advanced_modules.WarpLimit,
    advanced_modules.ShieldReinforcement,
    terrain.Terrain,
    tactics.Tactics,
    webs.TholianWebs,
    probes.SensorProbes,
    comms.Communications,
    terrain.MagnetarBands,
    terrain.BlackHoleEscapes,
)
REGISTRY: dict[str, type[RuleModule]] = {cls.name: cls for cls in MODULES}
if len(REGISTRY) != len(MODULES):  # pragma: no cover - a listing mistake, caught by any test
    raise RuntimeError("two built-in rule modules share a name")

#: FPF's own modules, always on in an FPF battle.
CORE_MODULES = ("fpf-turn", "fpf-repairs", "fpf-initiative", "fpf-damage", "cards")
#: The advanced game's base module: on whenever a scenario or a module plays the advanced turn.
ADVANCED = advanced.AdvancedCore.name


#: Every event kind a built-in battle's log may hold, by its name in the JSONL form.
EVENT_KINDS: dict[str, type[Event]] = {**EVENT_TYPES}
for _cls in (*FPF_EVENTS, *ADVANCED_EVENTS, *TERRAIN_EVENTS, *TACTICS_EVENTS, *FIELD_EVENTS):
    if EVENT_KINDS.setdefault(_cls.kind, _cls) is not _cls:  # pragma: no cover - listing mistake
        raise RuntimeError(f"two event classes are called '{_cls.kind}'")


def read_log(text: str) -> list[Event]:
    """The events of a JSONL battle log of any built-in game."""
    return parse_jsonl(text, EVENT_KINDS)


def parse_order(text: str) -> Order:
    """An order of any built-in game from its text form (FPF's and the advanced game's)."""
    return parse(text, (read_fpf, read_advanced, read_field))


def refuse_unwritten(name: str) -> None:
    """Refuse, with its clause, an option FPF names but gives no mechanics for (FPF-OPT-03,
    FPF-OPT-07, FPF-OPT-08)."""
    option = options.unwritten(name)
    if option is not None:
        raise InvalidInputError(options.unwritten_reason(option))


def module_class(name: str) -> type[RuleModule]:
    """A built-in module by name; an unknown name gets the closest one as a suggestion."""
    cls = REGISTRY.get(name)
    if cls is None:
        refuse_unwritten(name)
        close = difflib.get_close_matches(name, list(REGISTRY), n=1)
        raise UnknownNameError("rule module", name, close[0] if close else None, sorted(REGISTRY))
    return cls


def mode_modules(scenario: Scenario) -> list[str]:
    """Modules a scenario's options select (its masking method, FPF-MASK-01, FPF-MASK-06)."""
    return ["masking-stationary" if scenario.masking is Masking.STATIONARY else "masking-none"]


def implied_modules(scenario: Scenario) -> list[str]:
    """The modules every battle of `scenario` has without being asked: FPF's core, the masking
    method, and the advanced game's base module when the scenario plays the advanced turn."""
    names = [*CORE_MODULES, *mode_modules(scenario)]
    if scenario.driver == ADVANCED:
        names.append(ADVANCED)
    return names


def select(scenario: Scenario, extra_rules: Iterable[str] = ()) -> list[str]:
    """The names of a battle's modules, in binding order: the implied ones, then the scenario's
    rules, then the extra ones; the advanced base module joins any advanced module."""
    names = implied_modules(scenario)
    names += [r for r in (*scenario.rules, *extra_rules) if r not in names]
    classes = [module_class(n) for n in names]
    drivers = sorted({c.driver for c in classes if c.driver})
    if len(drivers) > 1:
        raise InvalidInputError(
            f"rule modules need different turn drivers ({', '.join(drivers)}); switch on modules "
            "of one game"
        )
    if drivers and drivers[0] == ADVANCED and ADVANCED not in names:
        names.insert(len(implied_modules(scenario)), ADVANCED)
    if scenario.driver not in ("", "fpf", ADVANCED):
        close = difflib.get_close_matches(scenario.driver, ["fpf", ADVANCED], n=1)
        raise UnknownNameError(
            "turn driver", scenario.driver, close[0] if close else None, ["fpf", ADVANCED]
        )
    return names


def bind(names: Iterable[str]) -> Ruleset:
    """Bind the named modules (in order) for one battle."""
    return Ruleset([module_class(n)() for n in names])


def capabilities_of(names: Iterable[str]) -> frozenset[Capability]:
    """The capabilities the named modules give a battle (unknown names are refused)."""
    out: set[Capability] = set()
    for name in names:
        out |= {Capability(c) for c in module_class(name).capabilities}
    return frozenset(out)


def unwritten_options() -> list[tuple[str, str, str]]:
    """(name, clause, idea) of the options FPF names without mechanics: listed, never played."""
    return [(u.name, u.clause, u.idea) for u in options.UNWRITTEN]


def describe() -> list[tuple[str, bool, tuple[str, ...], str]]:
    """(name, core?, clauses, summary) of every built-in module, for docs and the CLI."""
    return [(c.name, c.core, c.clauses, c.summary) for c in MODULES]
