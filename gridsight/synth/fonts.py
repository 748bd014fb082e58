"""Digit fonts from Debian's font packages, as far as they are installed on this machine."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIRS = (
    Path("/usr/share/fonts/truetype"),
    Path("/usr/share/fonts/opentype"),
)

# Upright text faces from fonts-dejavu, fonts-liberation, fonts-freefont-ttf, fonts-croscore,
# fonts-open-sans, fonts-roboto-unhinted, fonts-lato, fonts-urw-base35, fonts-noto-mono and
# fonts-hack. Italics, hairlines and symbol faces are left out: puzzles do not print digits so.
_SKIP_WORDS = ("italic", "oblique", "hairline", "thin", "extralight", "math", "symbol",
               "d050000l", "z003", "condlight", "light", "bdita")

# Families grouped so a test can hold one family out of training.
SERIF_FAMILIES = ("DejaVuSerif", "LiberationSerif", "FreeSerif", "Tinos", "NimbusRoman", "C059",
                  "P052", "URWBookman")


def _usable(path: Path) -> bool:
    name = path.stem.lower()
    return not any(word in name for word in _SKIP_WORDS)


@cache
def _opens(path: str) -> bool:
    try:
        ImageFont.truetype(path, 20).getbbox("8")
    except OSError:
        return False
    return True


def digit_fonts() -> list[tuple[str, str]]:
    """(name, path) of every usable upright digit font found, sorted by name."""
    found: dict[str, str] = {}
    for root in FONT_DIRS:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() not in (".ttf", ".otf") or not _usable(path):
                continue
            if path.stem not in found and _opens(str(path)):
                found[path.stem] = str(path)
    return sorted(found.items())


def font_family(name: str) -> str:
    """Family of a font file stem: 'LiberationSerif-Bold' -> 'LiberationSerif'."""
    return name.split("-")[0]


def find_font(name: str) -> str:
    """Path of the font whose file stem is `name` (or starts with it)."""
    fonts = dict(digit_fonts())
    if name in fonts:
        return fonts[name]
    for stem, path in fonts.items():
        if stem.lower().startswith(name.lower()):
            return path
    raise LookupError(f"font {name!r} is not installed; have: {', '.join(fonts)}")
