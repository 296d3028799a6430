"""Rule modules, one per rule set or optional rule, each citing its catalogue clause ids."""

from collections.abc import Iterable

from kolrami.rules.registry import Capability, capabilities_of
from kolrami.scenarios.models import Scenario

_REGISTERED = False


def register_builtin() -> None:
    """Import every built-in rule module so that the registry knows them (once)."""
    global _REGISTERED
    if _REGISTERED:
        return
    from kolrami.rules import cards, peak  # noqa: F401
    from kolrami.rules.advanced import cloak, driver, modules  # noqa: F401
    from kolrami.rules.fpf import damage, initiative, masking, options, repairs, turn  # noqa: F401

    _REGISTERED = True


def scenario_capabilities(
    scenario: Scenario, extra_rules: Iterable[str] = ()
) -> frozenset[Capability]:
    """What the rule modules a scenario (and any extra rules) switch on make its battles do."""
    register_builtin()
    return capabilities_of((*scenario.rules, *extra_rules))
