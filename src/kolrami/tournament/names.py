"""Players' names as typed and as compared.

A name is kept as typed, in Unicode's composed form (NFC: 'José' with one code point for 'é'
whether it was typed with one or two), without invisible characters (zero-width spaces, joiners,
direction marks, controls) and with runs of spaces made one. Two names are the same player's
when their keys match: compatibility forms folded, accents' marks split from the letters and
dropped, case folded, and the Cyrillic and Greek letters drawn like Latin ones read as those.
So 'Ann' and 'ann', 'José' and 'Jose', 'Ann' and 'Ann' spelt with a Cyrillic A are one name:
the second is refused as a look-alike of the first.
"""

from __future__ import annotations

import unicodedata

from kolrami.errors import InvalidInputError

MAX_NAME = 120

_LOOKALIKE = str.maketrans(
    # Cyrillic and Greek small letters drawn like the Latin ones below (keys are casefolded)
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04bb\u0501"
    "\u051b\u051d\u03b1\u03bf\u03c1\u03bd\u03c4\u03b9\u03ba\u03c7\u03c5\u0475",
    "aeopcyxijshdqwaopvtikxuv",
)

_INVISIBLE = frozenset(("Cf", "Cc", "Cs", "Co", "Cn"))


def clean_name(name: str, what: str = "a player") -> str:
    """The name to keep: NFC, no invisible characters, single spaces; refused when empty or
    longer than MAX_NAME characters."""
    text = unicodedata.normalize("NFC", name)
    text = "".join(c for c in text if unicodedata.category(c) not in _INVISIBLE)
    text = " ".join(text.split())
    if not text:
        raise InvalidInputError(
            f"{what} needs a name: type one with letters or digits", field="name"
        )
    if len(text) > MAX_NAME:
        raise InvalidInputError(
            f"a name of {len(text)} characters: {what}'s name is at most {MAX_NAME}",
            field="name",
        )
    return text


def name_key(name: str) -> str:
    """The name as compared: look-alike names have the same key."""
    text = unicodedata.normalize("NFKD", clean_name(name) if name.strip() else name)
    text = "".join(c for c in text if unicodedata.category(c) not in (*_INVISIBLE, "Mn"))
    return " ".join(text.casefold().translate(_LOOKALIKE).split())
