"""The error hierarchy: every error a user can cause is a KolramiError with a one-line message.

Messages name the thing that is wrong, the catalogue rule id where there is one, and what would
fix it.
The CLI turns any KolramiError into that one line on stderr and exit code 2.
"""

from __future__ import annotations


class KolramiError(Exception):
    """Base of every error Kolrami reports to a user."""


class DataPackError(KolramiError):
    """A data pack (TOML) is malformed: names the file, the entry and the field."""


class UnknownNameError(KolramiError, LookupError):
    """A name (ship class, preset, card ...) that does not exist; carries a suggestion."""

    def __init__(
        self, kind: str, name: str, suggestion: str | list[str] | None, known: list[str]
    ) -> None:
        self.kind = kind
        self.name = name
        self.suggestions = [suggestion] if isinstance(suggestion, str) else list(suggestion or [])
        self.suggestion = self.suggestions[0] if self.suggestions else None
        self.known = known
        if self.suggestions:
            quoted = [f"'{s}'" for s in self.suggestions]
            either = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
            hint = f"did you mean {either}?"
        else:
            hint = "known: " + ", ".join(known)
        super().__init__(f"no {kind} '{name}'; {hint}")


class InvalidInputError(KolramiError, ValueError):
    """A value a user supplied that the rules cannot accept (negative strength, zero shots ...)."""
