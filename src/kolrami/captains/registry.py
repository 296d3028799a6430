"""The built-in captains, in one explicit list (GUIDE 3.12): a captain is known by name because
it is listed here, not because a module was imported."""

from __future__ import annotations

import difflib

from kolrami.captains.base import Captain, CaptainFactory
from kolrami.captains.doctrines import AggressiveCaptain, KitingCaptain, RandomCaptain
from kolrami.engine.chance import Dice
from kolrami.errors import UnknownNameError

#: Every built-in captain by name: the random one (the fuzzer) and the two doctrines.
BUILTIN: dict[str, CaptainFactory] = {
    "random": RandomCaptain,
    "aggressive": AggressiveCaptain,
    "kiting": KitingCaptain,
}
_CAPTAINS: dict[str, CaptainFactory] = dict(BUILTIN)


def register_captain(name: str, factory: CaptainFactory) -> None:
    """Make a captain of your own available to the CLI and to sweeps by name; a name already
    taken by another captain is refused."""
    known = _CAPTAINS.get(name)
    if known is not None and known is not factory:
        raise ValueError(f"a captain is already called '{name}'")
    _CAPTAINS[name] = factory


def captain_names() -> list[str]:
    """Names of the captains known by name."""
    return sorted(_CAPTAINS)


def make_captain(name: str, dice: Dice) -> Captain:
    """A new captain by name, with its own dice."""
    factory = _CAPTAINS.get(name)
    if factory is None:
        close = difflib.get_close_matches(name, list(_CAPTAINS), n=1)
        raise UnknownNameError("captain", name, close[0] if close else None, captain_names())
    return factory(dice)
