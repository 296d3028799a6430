"""The one rule-module binder: modules hook into named steps and policies.

A game's rules are modules: small classes with a name, the catalogue clauses they carry out and
any of the hooks and policies their game's base class declares. A base class marks each of its
methods as a `hook` (every module that overrides it runs, in module order) or a `policy` (one
function decides: the last module that overrides it). `Rules` binds a list of modules once, so
the hot path calls one bound method and core code never asks "is option X on?".

Binding refuses two optional modules that override the same policy: each would silently undo
the other. A policy's declaration is its default: when no module of the battle overrides it,
the declaration's own body decides (an option's hook, such as FPF's micro warp jump, declares
"no jump" there); a game's base modules (`core` or `base`) override the declarations that are
rules of the game, and one optional module may replace each.

The declarations are the one source: `Rules` binds every policy they declare as an attribute
of the same name (`rules.check_jump`), so a game's typed face (FPF's `Ruleset`) inherits the
declaring class for the types and lists nothing again.

The engine knows only the kernel's own policies (`Module`): the turn driver, the per-side view,
when the battle is over and who won. Every game's hooks and policies live with its rules.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from functools import cache
from types import FunctionType
from typing import Any
from typing import ClassVar
from typing import Concatenate
from typing import Generic
from typing import ParamSpec
from typing import TypeVar

from kolrami.engine.step import BattleT
from kolrami.engine.step import Step
from kolrami.errors import KolramiError

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])
N = TypeVar("N")


_HOOKS: set[Callable[..., Any]] = set()
_POLICIES: set[Callable[..., Any]] = set()


class RulesConflictError(KolramiError):
    """Two rule modules that cannot be switched on together."""


def hook(fn: F) -> F:
    """Mark a base-class method as a hook: every module overriding it runs, in module order."""
    _HOOKS.add(fn)
    return fn


def policy(fn: F) -> F:
    """Mark a base-class method as a policy: the last module overriding it decides."""
    _POLICIES.add(fn)
    return fn


class Module(Generic[BattleT]):
    """Base of every rule module, generic in the battle its game plays (`Module[Battle]`). A
    game subclasses it with its own hooks and policies."""

    name: ClassVar[str] = ""
    clauses: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    #: part of its game itself, always on
    core: ClassVar[bool] = False
    #: one of its game's base modules: its policies are the defaults optional modules replace
    base: ClassVar[bool] = False
    #: what switching the module on makes battles do, for readers above the rules
    capabilities: ClassVar[frozenset[str]] = frozenset()

    @policy
    def opening(self, battle: BattleT) -> Sequence[Step[BattleT]]:
        """The steps that play the battle from its start to its end (the game's turn, as a
        state machine: kolrami.engine.driver)."""
        raise NotImplementedError

    @policy
    def view(self, battle: BattleT, side: str) -> Any:
        """What `side` may know of the battle now: a frozen per-side snapshot."""
        raise NotImplementedError

    @policy
    def battle_over(self, battle: BattleT) -> bool:
        """Whether the battle ends now, before its turn limit."""
        raise NotImplementedError

    @policy
    def result(self, battle: BattleT) -> tuple[str | None, str]:
        """The winner ('A', 'B' or None) and the reason, once the battle is over."""
        raise NotImplementedError


def _declared(classes: Sequence[type[Module[Any]]]) -> dict[str, tuple[Callable[..., Any], bool]]:
    """Every hook and policy the classes' bases declare: name -> (declaring function, policy?)."""
    out: dict[str, tuple[Callable[..., Any], bool]] = {}
    for cls in classes:
        for klass in cls.__mro__:
            for name, fn in vars(klass).items():
                if name in out or not isinstance(fn, FunctionType):
                    continue
                if fn in _POLICIES:
                    out[name] = (fn, True)
                elif fn in _HOOKS:
                    out[name] = (fn, False)
    return out


@cache
def _plan(
    classes: tuple[type[Module[Any]], ...],
) -> tuple[dict[str, list[int]], dict[str, tuple[int, bool, Callable[..., Any]]]]:
    """Which modules (by position) run each hook, and for each policy the module it is bound
    on, whether that module overrides it (False: the declaration's default decides) and the
    declaration; worked out once per list of module classes. Refuses two optional modules
    changing one policy."""
    hooks: dict[str, list[int]] = {}
    policies: dict[str, tuple[int, bool, Callable[..., Any]]] = {}
    for name, (declaring, is_policy) in _declared(classes).items():
        chosen = [
            i for i, cls in enumerate(classes) if getattr(cls, name, declaring) is not declaring
        ]
        if not is_policy:
            hooks[name] = chosen
            continue
        optional = [classes[i] for i in chosen if not (classes[i].core or classes[i].base)]
        if len(optional) > 1:
            a, b = optional[0].name, optional[1].name
            raise RulesConflictError(
                f"rule modules '{a}' and '{b}' both change how '{name}' works and cannot be "
                "switched on together; leave one of them out"
            )
        if chosen:
            policies[name] = (chosen[-1], True, declaring)
        else:  # the declaration's default, bound on the first module that has it
            first = next(i for i, cls in enumerate(classes) if hasattr(cls, name))
            policies[name] = (first, False, declaring)
    return hooks, policies


class Rules:
    """The bound modules of one battle: hook lists and one function per policy."""

    def __init__(self, modules: Sequence[Module[Any]]) -> None:
        self.modules = list(modules)
        self.names = [m.name for m in self.modules]
        #: what the bound modules make this battle do
        self.capabilities: frozenset[str] = frozenset().union(
            *(m.capabilities for m in self.modules)
        )
        hooks, policies = _plan(tuple(type(m) for m in self.modules))
        mods = self.modules
        self._hooks: dict[str, list[Callable[..., Any]]] = {
            name: [getattr(mods[i], name) for i in chosen] for name, chosen in hooks.items()
        }
        self._policies: dict[str, Callable[..., Any]] = {
            name: getattr(mods[i], name) for name, (i, _, _) in policies.items()
        }
        self._deciders: dict[str, Module[Any]] = {
            name: mods[i] for name, (i, overrides, _) in policies.items() if overrides
        }
        # every declared policy as an attribute of its name: the declarations are the one list
        for name, (_, _, declaring) in policies.items():
            own = getattr(type(self), name, declaring)
            if own is not declaring or name in vars(self):
                raise RulesConflictError(
                    f"the policy '{name}' would hide the bound rules' own '{name}'; rename it"
                )
            setattr(self, name, self._policies[name])
        self.battle_over = self.policy(Module.battle_over)
        self.result = self.policy(Module.result)
        self.opening = self.policy(Module.opening)
        self.view = self.policy(Module.view)

    def policy(self, fn: Callable[Concatenate[N, P], R]) -> Callable[P, R]:
        """The bound function that decides policy `fn` (a base-class method) in this battle."""
        bound = self._policies.get(fn.__name__)
        if bound is None:
            return _missing(fn.__name__, self.names)
        return bound

    def hooks(self, fn: Callable[Concatenate[N, P], R]) -> list[Callable[P, R]]:
        """The bound overrides of hook `fn` (a base-class method), in module order."""
        return self._hooks.get(fn.__name__, [])

    def provider(self, fn: Callable[..., Any]) -> Module[Any] | None:
        """The module whose function decides policy `fn`, if any (None: no module overrides
        the declaration, whose default decides)."""
        return self._deciders.get(fn.__name__)


def _missing(name: str, modules: list[str]) -> Callable[..., Any]:
    def refuse(*args: object, **kwargs: object) -> Any:
        raise RulesConflictError(
            f"no rule module of this battle ({', '.join(modules)}) provides '{name}'"
        )

    return refuse
