"""Rule modules, one per rule set or optional rule, each citing its catalogue clause ids."""

_REGISTERED = False


def register_builtin() -> None:
    """Import every built-in rule module so that the registry knows them (once)."""
    global _REGISTERED
    if _REGISTERED:
        return
    from kolrami.rules import advanced, cards, fpf, peak  # noqa: F401

    _REGISTERED = True
