#!/usr/bin/env python3
"""Build the engine's hot modules (kolrami.COMPILED) as C extensions with mypyc, in place.

`make install` runs it. The extensions go beside their sources in src/ (an editable install
finds them there), with mypyc's shared runtime as src/kolrami_fast__mypyc*.so; then
src/kolrami/compiled.json records each module's source SHA-256, which kolrami checks at import:
a build older than its source is not used (the pure-Python modules run, and `kolrami --version`
says so). Without a C compiler, or if the build fails, it says so and leaves the pure-Python
modules to run: the program works the same either way, only slower.

    python scripts/compile.py           # build (about a minute)
    python scripts/compile.py --clean   # remove the build: the pure-Python modules run
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup  # type: ignore[import-untyped,unused-ignore]

import kolrami
from kolrami import BUILD_STAMP
from kolrami import COMPILED
from kolrami import source_digest
from kolrami import source_of

SRC = Path(kolrami.__file__).resolve().parent.parent
GROUP = "kolrami_fast"  # the name of mypyc's shared module (src/kolrami_fast__mypyc*.so)


def built_files() -> list[Path]:
    """Every file a build leaves in src/: the extensions and the shared runtime. Every
    extension beside a module's source counts, not only those of COMPILED now: a module taken
    out of COMPILED would otherwise keep its old extension, which Python imports before the
    source (even with KOLRAMI_PURE set)."""
    out = list(SRC.glob(f"{GROUP}__mypyc*"))
    package = SRC / "kolrami"
    for pattern in ("*.so", "*.pyd"):
        for ext in package.rglob(pattern):
            if ext.with_name(ext.name.split(".")[0] + ".py").exists():
                out.append(ext)
    return out


def clean() -> None:
    """Remove the extensions and the stamp."""
    BUILD_STAMP.unlink(missing_ok=True)
    for path in built_files():
        path.unlink()


def compiler() -> str | None:
    """The C compiler the build would use, if there is one."""
    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    return shutil.which(cc.split()[0])


def build() -> bool:
    """Compile COMPILED in place; True when it worked."""
    # (mypyc comes with mypy, a development dependency: imported here, only for a build)
    from mypyc.build import mypycify

    paths = [str(source_of(m).relative_to(SRC)) for m in COMPILED]
    here = Path.cwd()
    os.chdir(SRC)
    try:
        setup(
            name="kolrami-fast",
            ext_modules=mypycify(paths, group_name=GROUP, opt_level="3", debug_level="0"),
            script_args=["--quiet", "build_ext", "--inplace", "--build-temp", "build/mypyc"],
        )
    except (SystemExit, Exception) as error:  # a failed build leaves the pure-Python modules
        print(f"compile: mypyc failed ({error}); the pure-Python modules run", file=sys.stderr)
        return False
    finally:
        os.chdir(here)
        # the generated C and the objects: the extensions are in place by now
        shutil.rmtree(SRC / "build", ignore_errors=True)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the build")
    args = parser.parse_args()
    clean()
    if args.clean:
        return
    if compiler() is None:
        print("compile: no C compiler; the pure-Python modules run", file=sys.stderr)
        return
    if not build():
        clean()
        return
    stamp = {m: source_digest(m) for m in COMPILED}
    BUILD_STAMP.write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n")
    print(f"compile: {len(COMPILED)} modules compiled with mypyc", file=sys.stderr)


if __name__ == "__main__":
    main()
