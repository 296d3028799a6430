"""The captains, by name: the built-in ones in one explicit list, plus those a user
brings.

A captain is known by name because it is listed here, not because a module was imported. A user
brings a captain three ways:

- by **module path**, `mypkg.mycaptain:Brawler` (an importable module; the current folder is
  searched too) or **file path**, `captains/brawler.py:Brawler`: the attribute is a captain
  factory, a callable taking the captain's `Dice` and returning an object with `name` and
  `decide(view, decision)` (a class whose `__init__` takes the dice will do);
- through the **`kolrami.captains` entry point** of an installed package
  (`[project.entry-points."kolrami.captains"] brawler = "mypkg.mycaptain:Brawler"`), then known by
  its entry-point name everywhere a built-in captain is;
- with `register_captain` from Python.

Every captain has a **code version** (`captain_version`): a digest of the source file its factory
is defined in (or its `version` attribute), so an assessment's stored results are never reused
after the captain's code changed.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path

from kolrami import COMPILED
from kolrami import source_of
from kolrami.captains.admiral import AdmiralCaptain
from kolrami.captains.base import Captain
from kolrami.captains.base import CaptainFactory
from kolrami.captains.base import bounds_of
from kolrami.captains.doctrines import AggressiveCaptain
from kolrami.captains.doctrines import KitingCaptain
from kolrami.captains.doctrines import RandomCaptain
from kolrami.engine.chance import Dice
from kolrami.errors import InvalidInputError
from kolrami.errors import UnknownNameError

#: Every built-in captain by name: the random one (the fuzzer), the two doctrines and the
#: searching one.
BUILTIN: dict[str, CaptainFactory] = {
    "random": RandomCaptain,
    "aggressive": AggressiveCaptain,
    "kiting": KitingCaptain,
    "admiral": AdmiralCaptain,
}
#: The entry-point group through which installed packages bring captains.
ENTRY_POINT_GROUP = "kolrami.captains"

_CAPTAINS: dict[str, CaptainFactory] = dict(BUILTIN)
_LOADED: dict[str, CaptainFactory] = {}  # module and file paths already imported


def register_captain(name: str, factory: CaptainFactory) -> None:
    """Make a captain of your own available to the CLI and to sweeps by name; a name already
    taken by another captain is refused."""
    known = _CAPTAINS.get(name)
    if known is not None and known is not factory:
        raise ValueError(f"a captain is already called '{name}'")
    _CAPTAINS[name] = factory


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def captain_names() -> list[str]:
    """Names of the captains known by name: built in, registered, and from entry points."""
    return sorted(set(_CAPTAINS) | set(_entry_points()))


def is_path(name: str) -> bool:
    """Whether a captain is named by module or file path (`pkg.mod:Attr`, `file.py:Attr`), or
    with parameters (`admiral:budget=200`)."""
    return ":" in name


def split_parameters(name: str) -> tuple[str, str]:
    """A captain's name and its parameters' text: `admiral:budget=200` is ("admiral",
    "budget=200"); a name without parameters has "" (a module or file path keeps its colon)."""
    base, colon, last = name.rpartition(":")
    if colon and base and "=" in last:
        return base, last
    return name, ""


def split_captains(text: str) -> list[str]:
    """Captains from a comma-separated list, a captain's own parameters kept with it:
    `admiral:budget=200,horizon=2,kiting` is ["admiral:budget=200,horizon=2", "kiting"] (a
    part that is only key=value belongs to the captain before it)."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if out and "=" in part and ":" not in part and split_parameters(out[-1])[1]:
            out[-1] = f"{out[-1]},{part}"
        else:
            out.append(part)
    return out


def _with_parameters(name: str, base: str, text: str) -> CaptainFactory:
    """The factory of `base` with the parameters `text` (key=value, comma-separated, whole
    numbers), checked against what the factory declares it takes (its `parameters`: each
    name and its least value, or its least and greatest as a pair)."""
    factory = captain_factory(base)
    takes = getattr(factory, "parameters", None)
    if not isinstance(takes, dict) or not takes:
        raise InvalidInputError(
            f"captain '{name}': {base} takes no parameters; name it as '{base}' alone"
        )
    given: dict[str, int] = {}
    for part in text.split(","):
        key, eq, raw = part.strip().partition("=")
        key = key.strip()
        if not eq or key not in takes:
            known = ", ".join(sorted(takes))
            near = difflib.get_close_matches(key, sorted(takes), n=1)  # a misspelling's fix
            example = near[0] if near else sorted(takes)[0]
            raise InvalidInputError(
                f"captain '{name}': no parameter '{key}'; {base} takes {known} "
                f"(e.g. {base}:{example}=1)"
            )
        least, most = bounds_of(takes[key])
        try:
            value = int(raw.strip())
        except ValueError:
            value = least - 1
        if value < least or (most is not None and value > most) or key in given:
            if key in given:
                why = "given twice"
            elif most is None:
                why = f"must be a whole number >= {least}"
            else:
                why = f"must be a whole number from {least} to {most}"
            example = max(1, least) if most is None else min(max(1, least), most)
            raise InvalidInputError(
                f"captain '{name}': {key} {why}, not '{raw.strip()}' (e.g. {base}:{key}={example})"
            )
        given[key] = value
    chosen: Callable[..., Captain] = factory

    def made(dice: Dice) -> Captain:
        return chosen(dice, **given)

    made.version = f"{captain_version(base)}+{text}"  # type: ignore[attr-defined]
    made.searches = searches(base)  # type: ignore[attr-defined]
    return made


def searches(name: str) -> bool:
    """Whether a captain searches (plays battles forward at its decisions, as `admiral`
    does), so that a battle of it takes seconds rather than milliseconds: its factory's
    `searches` attribute, False when it has none."""
    return getattr(captain_factory(name), "searches", False) is True


def captain_factory(name: str) -> CaptainFactory:
    """The factory of a captain named by name, module path or file path, with any parameters
    (`admiral:budget=200`); a one-line error naming the captain and the fix otherwise."""
    factory = _CAPTAINS.get(name)
    if factory is not None:
        return factory
    base, parameters = split_parameters(name)
    if parameters:
        return _with_parameters(name, base, parameters)
    if is_path(name):
        if name not in _LOADED:
            _LOADED[name] = _load_path(name)
        return _LOADED[name]
    eps = _entry_points()
    if name in eps:
        try:
            loaded = eps[name].load()
        except Exception as exc:  # a package's own import error, whatever it is
            raise InvalidInputError(
                f"captain '{name}' (entry point {eps[name].value}) cannot be loaded: {exc}"
            ) from None
        return _checked(name, loaded)
    known = captain_names()
    close = difflib.get_close_matches(name, known, n=1)
    raise UnknownNameError("captain", name, close[0] if close else None, known)


def _load_path(name: str) -> CaptainFactory:
    where, _, attr = name.rpartition(":")
    if not where or not attr:
        raise InvalidInputError(
            f"captain '{name}': name it as module:Attribute (mypkg.mycaptain:Brawler) or "
            "file.py:Attribute"
        )
    if where.endswith(".py") or os.sep in where or "/" in where:
        path = Path(where)
        if not path.is_file():
            raise InvalidInputError(
                f"captain '{name}': no file {where}; give the path to a .py file"
            )
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(f"kolrami_captain_{digest}", path)
        if spec is None or spec.loader is None:
            raise InvalidInputError(f"captain '{name}': {where} cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the user's module failing as it loads, whatever the error
            del sys.modules[spec.name]
            raise InvalidInputError(f"captain '{name}': {where} fails to load: {exc}") from None
    else:
        here = os.getcwd()
        if here not in sys.path:
            sys.path.append(here)  # a module of the folder the command runs in
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise InvalidInputError(
                f"captain '{name}': module '{where}' cannot be imported ({exc}); run from its "
                "folder, put it on PYTHONPATH, or give its file: path/to/file.py:Attribute"
            ) from None
        except Exception as exc:  # the user's module failing as it loads, whatever the error
            raise InvalidInputError(f"captain '{name}': module '{where}' fails: {exc}") from None
    if not hasattr(module, attr):
        raise InvalidInputError(f"captain '{name}': {where} has no '{attr}'")
    return _checked(name, getattr(module, attr))


def _checked(name: str, factory: object) -> CaptainFactory:
    """A loaded attribute as a captain factory (what it makes is checked in make_captain)."""
    if not callable(factory):
        raise InvalidInputError(
            f"captain '{name}' is not callable: it must take Dice and return a captain"
        )
    made: CaptainFactory = factory
    return made


def make_captain(name: str, dice: Dice) -> Captain:
    """A new captain by name (or module or file path), with its own dice."""
    captain = captain_factory(name)(dice)
    if not callable(getattr(captain, "decide", None)):
        raise InvalidInputError(
            f"captain '{name}' made a {type(captain).__name__} with no decide(view, decision) "
            "method; see docs/captains.md"
        )
    return captain


def captain_version(name: str) -> str:
    """The captain's code version: its factory's `version` attribute, or a digest of the source
    file it is defined in."""
    factory = captain_factory(name)
    version = getattr(factory, "version", None)
    if isinstance(version, str):
        return version
    try:
        source = inspect.getsourcefile(factory)
    except TypeError:
        source = None
    module = getattr(factory, "__module__", "")
    if source is None and module in COMPILED:
        # a compiled build's module: its digest is its source's, as in the pure build
        source = str(source_of(module))
    if source is None or not Path(source).is_file():
        return "unknown"
    return hashlib.sha256(Path(source).read_bytes()).hexdigest()[:16]
