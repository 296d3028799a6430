"""Kolrami: Star Trek fleet battles on the tabletop and in simulation.

The engine's hottest modules (`COMPILED`) are also built as C extensions by mypyc where a C
compiler is (`make install`, scripts/compile.py), from the same source. Which of the two runs
is decided here, once, as the package is imported: the compiled modules when the build is there,
complete and made from the sources as they are now; the pure-Python ones otherwise, or when
KOLRAMI_PURE is set. Both give the same battles, bit for bit (tests/engine/test_compiled.py);
`kolrami --version` says which is in use.
"""

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.machinery import ModuleSpec
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

try:
    __version__ = version("kolrami")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

#: The modules mypyc compiles: the battle's inner loops (movement, fire, damage, initiative,
#: repairs), the geometry, the driver loop every decision passes through, the captains'
#: scoring kernel, and the advanced game's arcs, view and captain.
COMPILED = (
    "kolrami.engine.geometry",
    "kolrami.engine.chance",
    "kolrami.engine.eventlog",
    "kolrami.engine.battle",
    "kolrami.engine.view",
    "kolrami.engine.driver",
    "kolrami.engine.step",
    "kolrami.captains.base",
    "kolrami.captains.scoring",
    "kolrami.captains.doctrines",
    "kolrami.rules.cards",
    "kolrami.rules.fpf.damage",
    "kolrami.rules.fpf.volley",
    "kolrami.rules.fpf.fire",
    "kolrami.rules.fpf.initiative",
    "kolrami.rules.fpf.masking",
    "kolrami.rules.fpf.movement",
    "kolrami.rules.fpf.repairs",
    "kolrami.rules.fpf.turn",
    "kolrami.rules.fpf.view",
    "kolrami.rules.advanced.geometry",
    "kolrami.rules.advanced.view",
    "kolrami.captains.advanced",
)
#: set to anything but "" or "0" to run the pure-Python modules though a compiled build is there
PURE_ENV = "KOLRAMI_PURE"
_PACKAGE = Path(__file__).resolve().parent
#: written by scripts/compile.py after a build: each compiled module's source SHA-256
BUILD_STAMP = _PACKAGE / "compiled.json"


def source_of(module: str) -> Path:
    """The .py file of one of the package's modules."""
    return _PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_digest(module: str) -> str:
    """The SHA-256 of a module's source, as the build stamp records it."""
    return hashlib.sha256(source_of(module).read_bytes()).hexdigest()


def _built(module: str) -> bool:
    """Whether a compiled extension of `module` lies beside its source."""
    src = source_of(module)
    return any(src.with_suffix(suffix).exists() for suffix in EXTENSION_SUFFIXES)


def build_problem() -> str:
    """'' when a compiled build of every module in COMPILED is there and made from the sources
    as they are now, else what is wrong with it."""
    try:
        stamp = json.loads(BUILD_STAMP.read_text())
    except (OSError, ValueError):
        return "no compiled build (make install builds it where a C compiler is)"
    for module in COMPILED:
        if not _built(module) or stamp.get(module) != source_digest(module):
            return "the compiled build is older than the source (make install rebuilds it)"
    return ""


def _choose() -> str:
    """'' when the compiled modules can run, else why the pure-Python ones run instead."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV} is set"
    return build_problem()


class _SourceFirst:
    """A finder that loads the compiled modules from their .py source, not the extension."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in COMPILED:
            return None
        return spec_from_file_location(name, source_of(name))


#: why the pure-Python modules run ('' when the compiled ones do)
PURE_REASON = _choose()
if PURE_REASON:
    sys.meta_path.insert(0, _SourceFirst())


def engine_build() -> str:
    """Which build of the hot modules runs, in a line for `kolrami --version`."""
    if PURE_REASON:
        return f"pure Python ({PURE_REASON})"
    return f"compiled with mypyc ({len(COMPILED)} modules)"


__all__ = ["COMPILED", "PURE_ENV", "__version__", "build_problem", "engine_build"]
