"""Digit fonts from Debian's font packages (scripts/font-packages.txt), as far as they are
installed on this machine."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIRS = (
    Path("/usr/share/fonts/truetype"),
    Path("/usr/share/fonts/opentype"),
    Path("/usr/share/texmf/fonts/opentype/public/tex-gyre"),  # fonts-texgyre
)

# Italic, hairline and symbol faces are left out by name, and slanted faces also by
# measuring their glyphs (names do not say it consistently), see _upright.
_SKIP_WORDS = ("italic", "oblique", "hairline", "thin", "extralight", "ultralight", "math",
               "symbol", "integrals", "sizeone", "sizetwo", "sizethree", "sizefour", "sizefive",
               "nonunicode", "variants", "d050000l", "z003", "[")

# Families (after font_family) whose digits have serifs, so renderers can pick by style.
SERIF_FAMILIES = ("DejaVuSerif", "DejaVuSerifCondensed", "LiberationSerif", "FreeSerif",
                  "FreeSerifBold", "Tinos", "NimbusRoman", "C059", "P052", "URWBookman",
                  "Caladea", "CharisSIL", "Gentium", "GentiumAlt", "LinLibertine",
                  "EBGaramond", "Fanwood", "FanwoodText", "GFSDidot", "GFSDidotBold", "STIX",
                  "STIXGeneral", "PTSerif", "RobotoSlab", "BaskervaldADFStd", "AccanthisADFStd",
                  "texgyretermes", "texgyrepagella", "texgyrebonum", "texgyreschola", "CMU")


_ITALIC_SUFFIX = re.compile(r"_[RBZ]*I$")  # Linux Libertine's file names: _I, _RBI, _RZI


def _usable(path: Path) -> bool:
    name = path.stem.lower()
    return not any(word in name for word in _SKIP_WORDS) and not _ITALIC_SUFFIX.search(path.stem)


def _glyph(font: ImageFont.FreeTypeFont, text: str) -> np.ndarray:
    image = Image.new("L", (160, 160), 0)
    ImageDraw.Draw(image).text((40, 20), text, font=font, fill=255)
    return np.asarray(image) > 127


@cache
def _draws_digits(path: str) -> bool:
    """Whether the face opens, draws ten different digits, and draws them upright.

    Symbol faces map digits to one missing-glyph box; italic and oblique faces lean their
    '1' and 'I' (the stem's middle moves right going up).
    """
    try:
        font = ImageFont.truetype(path, 80)
        glyphs = [_glyph(font, d) for d in "0123456789"]
    except OSError:
        return False
    if any(not g.any() for g in glyphs):
        return False
    if len({g.tobytes() for g in glyphs}) < 10:
        return False
    return _upright(_glyph(font, "I")) and not _framed([glyphs[d] for d in (1, 2, 3, 7)])


def _framed(glyphs: list[np.ndarray]) -> bool:
    """Whether a face draws a frame round every glyph (keyboard-key faces): then digits
    that have no hole of their own, 1 2 3 7, all have one. No puzzle prints digits so."""
    def has_hole(glyph: np.ndarray) -> bool:
        _, hierarchy = cv2.findContours(glyph.astype(np.uint8), cv2.RETR_CCOMP,
                                        cv2.CHAIN_APPROX_SIMPLE)
        return hierarchy is not None and bool((hierarchy[0][:, 3] >= 0).any())

    return all(has_hole(g) for g in glyphs)


def _upright(stem: np.ndarray) -> bool:
    rows = np.flatnonzero(stem.any(axis=1))
    if len(rows) < 10:
        return False
    top, bottom = rows[0], rows[-1]
    band = max(2, (bottom - top) // 5)

    def middle(r0: int, r1: int) -> float:
        return float(np.nonzero(stem[r0:r1])[1].mean())

    # x of the stem's middle near the top minus near the bottom, per unit of height
    lean = (middle(top + band, top + 2 * band) - middle(bottom - 2 * band, bottom - band))
    return abs(lean) / max(1, bottom - top - 3 * band) < 0.08


def digit_fonts() -> list[tuple[str, str]]:
    """(name, path) of every usable upright digit font found, sorted by name."""
    found: dict[str, str] = {}
    for root in FONT_DIRS:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() not in (".ttf", ".otf") or not _usable(path):
                continue
            if path.stem not in found and _draws_digits(str(path)):
                found[path.stem] = str(path)
    return sorted(found.items())


_FAMILY_PATTERNS = (
    (re.compile(r"^PT[SCN]\d\dF$"), "PTSans"),  # ParaType file names: PTS55F, PTN57F, ...
    (re.compile(r"^PT[FZ]\d\dF$"), "PTSerif"),
    (re.compile(r"^PTM\d\dF$"), "PTMono"),
    (re.compile(r"^cmun"), "CMU"),  # Computer Modern Unicode: cmunrm, cmunss, ...
    (re.compile(r"^STIX"), "STIX"),
    (re.compile(r"^EBGaramond"), "EBGaramond"),
)


def font_family(name: str) -> str:
    """Family of a font file stem: 'LiberationSerif-Bold' -> 'LiberationSerif',
    'LinLibertine_RB' -> 'LinLibertine', 'PTS75F' -> 'PTSans'."""
    for pattern, family in _FAMILY_PATTERNS:
        if pattern.match(name):
            return family
    family = re.split(r"[-_]", name)[0]
    return re.sub(r"No\d$", "", family)  # AccanthisADFStdNo2 is Accanthis too


def find_font(name: str) -> str:
    """Path of the font whose file stem is `name` (or starts with it)."""
    fonts = dict(digit_fonts())
    if name in fonts:
        return fonts[name]
    for stem, path in fonts.items():
        if stem.lower().startswith(name.lower()):
            return path
    raise LookupError(f"font {name!r} is not installed; have: {', '.join(fonts)}")
