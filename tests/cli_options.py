"""Command-line options from keywords, for the tests that run commands (tests/cli, the
captains' and the ladder's): `flags(captain_b="kiting", seed=3)` is
["--captain-b", "kiting", "--seed", "3"], in the order given."""

from __future__ import annotations


def flags(**options: object) -> list[str]:
    """Each keyword as --its-name and its value as text; True gives the bare flag."""
    out: list[str] = []
    for name, value in options.items():
        out.append("--" + name.replace("_", "-"))
        if value is not True:
            out.append(str(value))
    return out
