"""Fonts for the PDF sheets: every name a player types prints as itself, not as black boxes.

xhtml2pdf draws with ReportLab, whose built-in fonts (Helvetica ...) hold Latin-1 only, and a
run of text takes one font: there is no fallback from glyph to glyph. So the sheets embed DejaVu
Sans (Latin, Greek, Cyrillic, Arabic, Hebrew; matplotlib, a dependency, ships it) for all text,
and each run of characters DejaVu lacks is put in a span of the first fallback font that has
them: Droid Sans Fallback for Chinese, Japanese and Korean, Symbola for emoji. Those two come
from Debian (`apt-get install fonts-droid-fallback fonts-symbola`; CI installs them); where
they are missing, the characters that need them still print as boxes. ReportLab embeds only the
glyphs a sheet uses, so a sheet stays small.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont

#: Where the fonts are looked for: matplotlib's own copy of DejaVu first (it is always there),
#: then Debian's.
_MATPLOTLIB_FONTS = ("mpl-data", "fonts", "ttf")
_DEBIAN = Path("/usr/share/fonts/truetype")

#: (family, regular file, bold file) of the main font, and the fallbacks in the order a
#: character is looked for in them; each file by the places it may be.
MAIN = ("KolramiSans", ("DejaVuSans.ttf", "dejavu/DejaVuSans.ttf"), ("DejaVuSans-Bold.ttf",))
FALLBACKS = (
    ("KolramiCJK", ("droid/DroidSansFallbackFull.ttf",)),  # fonts-droid-fallback
    ("KolramiSymbols", ("ancient-scripts/Symbola_hint.ttf", "Symbola.ttf")),  # fonts-symbola
)


@dataclass(frozen=True, slots=True)
class Face:
    """One embedded font: its CSS family, its files, and the characters it has."""

    family: str
    regular: Path
    bold: Path
    covers: frozenset[int]


def _folders() -> list[Path]:
    folders = []
    spec = importlib.util.find_spec("matplotlib")  # its data folder, without importing it
    if spec is not None and spec.submodule_search_locations:
        folders.append(
            Path(next(iter(spec.submodule_search_locations))).joinpath(*_MATPLOTLIB_FONTS)
        )
    folders.append(_DEBIAN)
    folders.append(_DEBIAN / "dejavu")
    return folders


def _find(names: tuple[str, ...]) -> Path | None:
    for folder in _folders():
        for name in names:
            if (folder / name).is_file():
                return folder / name
    return None


def _covers(path: Path) -> frozenset[int]:
    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


@cache
def faces() -> tuple[Face, ...]:
    """The fonts found here: the main one first (none when even DejaVu Sans is missing)."""
    family, regular, bold = MAIN
    main = _find(regular)
    if main is None:
        return ()
    out = [Face(family, main, _find(bold) or main, _covers(main))]
    for name, files in FALLBACKS:
        path = _find(files)
        if path is not None:
            out.append(Face(name, path, path, _covers(path)))
    return tuple(out)


def font_css(found: tuple[Face, ...]) -> str:
    """The @font-face rules of the fonts, and every element set in the main one."""
    if not found:
        return ""
    rules = []
    for face in found:
        rules.append(f'@font-face {{ font-family: {face.family}; src: url("{face.regular}"); }}')
        rules.append(
            f'@font-face {{ font-family: {face.family}; src: url("{face.bold}"); '
            "font-weight: bold; }"
        )
    rules.append(f"body, table, td, th, p, div, span, h1, h2 {{ font-family: {found[0].family}; }}")
    return "\n".join(rules)


_TEXT = re.compile(r">([^<]+)<")


def _runs(text: str, found: tuple[Face, ...]) -> str:
    """`text` with each run of characters the main font lacks in a span of a font that has
    them (characters no font has stay as they are)."""
    main, rest = found[0], found[1:]
    out: list[str] = []
    family: str | None = None
    for char in text:
        code = ord(char)
        want = None
        if code not in main.covers:
            want = next((f.family for f in rest if code in f.covers), None)
        if char.isspace() and family is not None:
            want = family  # a space inside a run stays in it
        if want != family:
            if family is not None:
                out.append("</span>")
            if want is not None:
                out.append(f'<span style="font-family: {want}">')
            family = want
        out.append(char)
    if family is not None:
        out.append("</span>")
    return "".join(out)


def with_fonts(html: str) -> str:
    """A sheet's HTML ready for the PDF: the fonts declared, and text the main font cannot draw
    put in the fallback that can. Only text between tags changes; tags and styles do not."""
    found = faces()
    if not found:
        return html
    used = found[:1]
    if any(ord(c) > 0x7F for c in html):
        html = _TEXT.sub(lambda m: ">" + _runs(m.group(1), found) + "<", html)
        # a fallback is declared only where it is used: ReportLab reads every declared font
        used += tuple(f for f in found[1:] if f'font-family: {f.family}"' in html)
    style = f"<style>\n{font_css(used)}\n</style>\n"
    head = html.find("</head>")
    return html[:head] + style + html[head:] if head >= 0 else style + html


def font_folders() -> tuple[Path, ...]:
    """The folders of the fonts found, which the PDF renderer may read (and nothing else)."""
    return tuple(sorted({f.regular.parent for f in faces()} | {f.bold.parent for f in faces()}))
