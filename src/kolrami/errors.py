"""The error hierarchy: every error a user can cause is a KolramiError with a one-line message.

Messages name the thing that is wrong, the catalogue rule id where there is one, and what would
fix it.
The CLI turns any KolramiError into that one line on stderr and exit code 2.

Below the errors: reading what a user names (a file, JSON text) so that every way it can fail
is one of these errors, the one mechanism every command and form reads user files with.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path
from typing import Any


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
            names = [f"'{s}'" for s in self.suggestions]
            either = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
            hint = f"did you mean {either}?"
        else:
            hint = "known: " + ", ".join(known)
        super().__init__(f"no {kind} '{quoted(name)}'; {hint}")


class InvalidInputError(KolramiError, ValueError):
    """A value a user supplied that the rules cannot accept (negative strength, zero shots ...).

    `field` names the one value it is about, when it is one (an event's "date", a player's
    "name", a result's "winner"), by the name the raising function gives it: a form shows the
    message under that field, not under whichever field it would guess from the text. None: the
    whole request (a round not paired yet, an event with every round played).
    """

    def __init__(self, *args: object, field: str | None = None) -> None:
        super().__init__(*args)
        self.field = field


# --- what a user names: files and text, read so that every failure is one of these errors -------

#: The most characters of a user's text quoted back in a message (a name, a path, a value).
QUOTE_CHARS = 60


def quoted(text: object, most: int = QUOTE_CHARS) -> str:
    """`text` fit to quote in a one-line message: control characters escaped, and cut to `most`
    characters with the full length said ('aaaa... (300 characters)'). A path keeps its end, the
    file's own name ('.../fleets/mine.json')."""
    shown = str(text)
    if any(not ch.isprintable() for ch in shown):
        shown = shown.encode("unicode_escape").decode("ascii")
    if isinstance(text, Path):
        most = max(most, 2 * QUOTE_CHARS)  # paths run long: keep 120 characters of one
        if len(shown) > most:
            return f"...{shown[-most:]}"
    if len(shown) <= most:
        return shown
    return f"{shown[:most]}... ({len(str(text))} characters)"


def path_is(path: Path, kind: str) -> bool:
    """True when `path` is an existing 'file' or 'dir'; False (never an error) for a path the
    system cannot even look up, such as one with a name over 255 bytes (ENAMETOOLONG)."""
    try:
        return path.is_file() if kind == "file" else path.is_dir()
    except (OSError, ValueError):
        return False


def read_text(
    path: str | Path, what: str, most_bytes: int, error: type[KolramiError] = InvalidInputError
) -> str:
    """The text of the file `path` a user named, as UTF-8 (a byte-order mark is allowed).

    Every reason it cannot be read is one line (an `error`) naming the file and the fix: no such
    file, a folder, a name too long, no permission, larger than `most_bytes` (a device or pipe
    that never ends too), UTF-16 or other text that is not UTF-8.
    """
    path = Path(path)
    where = quoted(path)
    if path_is(path, "dir"):
        raise error(f"{where} is a folder; name the {what} file in it")
    try:
        with path.open("rb") as f:
            data = f.read(most_bytes + 1)
    except OSError as exc:
        raise error(f"{where}: cannot read the {what}: {exc.strerror}") from None
    if len(data) > most_bytes:
        raise error(
            f"{where}: larger than {most_bytes // 1024:,} KiB, too large for a {what}; is it the "
            "right file?"
        )
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise error(
            f"{where}: the {what} is UTF-16 text; save it as UTF-8 (most editors: Save As, "
            "encoding UTF-8)"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        kind = file_kind(data)
        if kind is not None:  # a PDF, a picture, an archive: saving it as UTF-8 is no fix
            article = "an" if what[:1] in "aeiou" else "a"
            raise error(f"{where} is {kind}, not {article} {what}; is it the right file?") from None
        raise error(
            f"{where}: the {what} is not UTF-8 text (byte {exc.start + 1} is not); save it as UTF-8"
        ) from None


#: the first bytes of files a user may give by mistake, and what each is
_MAGIC = (
    (b"%PDF-", "a PDF document (a printed sheet, not its data)"),
    (b"PK\x03\x04", "a ZIP archive (a spreadsheet or an office document?)"),
    (b"\x89PNG", "a PNG picture"),
    (b"\xff\xd8\xff", "a JPEG picture"),
    (b"GIF8", "a GIF picture"),
    (b"SQLite format 3", "a SQLite database (a tournament store?)"),
)


def file_kind(data: bytes | str) -> str | None:
    """What a file that is not the one asked for is, from its first bytes or its first JSON
    line: a PDF, a picture, an archive, a Kolrami battle log or event export, a web page; None
    when it is none of those."""
    head = data[:4096].encode("utf-8", "replace") if isinstance(data, str) else data[:4096]
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if text[:15].lower().startswith(("<!doctype html", "<html")):
        return "a web page (HTML)"
    first = text.split("\n", 1)[0]
    if '"e": "battle_started"' in first or '"e":"battle_started"' in first:
        return "a Kolrami battle log (kolrami replay reads it)"
    if re.search(r'"kolrami"\s*:\s*"event/', text[:400]):
        return "a Kolrami event export (kolrami tournament import reads it)"
    return None


def loads_json(text: str, source: str) -> Any:
    """JSON a user gave (a file's text, a pasted fleet); anything json.loads refuses, nesting
    too deep for it and numbers too long for Python included, is one line naming `source`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{source}: not valid JSON: {exc}") from None
    except RecursionError:
        raise InvalidInputError(
            f"{source}: not valid JSON here: nested too deeply to read; is it the right file?"
        ) from None
    except ValueError:  # a number past Python's 4,300-digit limit for int()
        raise InvalidInputError(
            f"{source}: not valid JSON here: a number in it has thousands of digits, more than "
            "any value it can hold; is it the right file?"
        ) from None
