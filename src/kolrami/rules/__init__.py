"""Rule modules, one per rule set or optional rule, each citing its catalogue clause ids."""


def register_builtin() -> None:
    """Import every built-in rule module so that the registry knows them."""
    from kolrami.rules import advanced, cards, fpf, peak  # noqa: F401
