"""Draw nonograms with known clues, as puzzle apps and magazines show them.

Row clues stand left of the grid, one number after the other; column clues stand above
it, one number a line. Thin lines divide the cells, with a thicker line every five. A
half-filled picture also shows cells a person already filled (black) or crossed ('x').
The image carries its geometry in `image.info["lattice"]`: the (H+1) x (W+1) grid line
intersections (x, y), and the truth in `info["clues"]` and `info["marks"]`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from gridsight.synth.fonts import SERIF_FAMILIES, digit_fonts, find_font, font_family
from services.contracts import NonogramPuzzle

RGB = tuple[int, int, int]
FILLED, CROSSED = 1, 2  # marks on a half-filled picture (0: untouched)


@dataclass(frozen=True)
class NonogramStyle:
    background: RGB = (255, 255, 255)
    line: RGB = (0, 0, 0)  # thin lines between cells
    five_line: RGB = (0, 0, 0)  # every fifth line and the outline
    thin: float = 0.04  # widths as a share of the cell side
    thick: float = 0.1
    clue_ground: RGB | None = None  # shading of the clue areas (None: the background)
    clue_ink: RGB = (0, 0, 0)
    digit_height: float = 0.5  # clue digit height as a share of the cell side
    fill: RGB = (20, 20, 20)  # a filled cell
    serif: bool | None = None


NONOGRAM_STYLES: dict[str, NonogramStyle] = {
    "plain": NonogramStyle(),
    "app": NonogramStyle(background=(252, 252, 253), line=(190, 192, 200),
                         five_line=(70, 75, 90), thin=0.04, thick=0.09,
                         clue_ground=(226, 234, 246), clue_ink=(40, 50, 70), serif=False),
    "grey": NonogramStyle(background=(255, 255, 255), line=(160, 160, 160),
                          five_line=(40, 40, 40), thin=0.035, thick=0.08,
                          clue_ground=(235, 235, 235), digit_height=0.55),
    "newspaper": NonogramStyle(background=(246, 244, 238), line=(40, 40, 40),
                               five_line=(10, 10, 10), thin=0.03, thick=0.09,
                               clue_ink=(15, 15, 15), digit_height=0.55, serif=True),
}
# Styles no threshold of the reader was chosen on: the benchmark's held-out rows.
HELD_OUT_STYLES: dict[str, NonogramStyle] = {
    "pastel": NonogramStyle(background=(255, 253, 248), line=(200, 190, 175),
                            five_line=(120, 90, 60), thin=0.05, thick=0.1,
                            clue_ground=(250, 238, 215), clue_ink=(90, 50, 20),
                            digit_height=0.52, fill=(60, 40, 30)),
}
ALL_STYLES = NONOGRAM_STYLES | HELD_OUT_STYLES
# Font families held out of every choice made while building the reader.
HELD_OUT_FAMILIES = ("LiberationMono", "FreeSerif", "Ubuntu", "texgyreheros", "PTSerif",
                     "NotoSansMono", "DejaVuSansMono")


def nonogram_fonts(held_out: bool = False) -> list[tuple[str, str]]:
    """(name, path) of the lining-figure digit fonts on one side of the held-out split."""
    return [(n, p) for n, p in digit_fonts()
            if (font_family(n) in HELD_OUT_FAMILIES) == held_out and _lining_figures(p)]


@cache
def _lining_figures(path: str) -> bool:
    """Whether all digits stand equally tall: old-style figures (3, 4, 5, 7, 9 hanging
    below the line) are for running text, not puzzle clues."""
    font = ImageFont.truetype(path, 60)
    heights = [font.getbbox(d)[3] - font.getbbox(d)[1] for d in "0123456789"]
    return max(heights) - min(heights) <= 0.12 * max(heights)


def pick_nonogram_font(style: NonogramStyle, rng: random.Random, held_out: bool = False) -> str:
    fonts = nonogram_fonts(held_out) or digit_fonts()
    if style.serif is not None:
        wanted = [(n, p) for n, p in fonts if (font_family(n) in SERIF_FAMILIES) == style.serif]
        fonts = wanted or fonts
    return rng.choice(fonts)[1]


def cell_side(width: int, height: int) -> int:
    """Pixels a cell: large puzzles get smaller cells, as a phone screen shows them."""
    return max(20, min(40, 720 // max(width, height) + 2))


def render_nonogram(puzzle: NonogramPuzzle, *, style: str | NonogramStyle = "plain",
                    font: str | None = None, cell_px: int | None = None, seed: int = 0,
                    marks: list[list[int]] | None = None, held_out_fonts: bool = False,
                    title: bool = False) -> Image.Image:
    """The puzzle drawn as a screenshot; `marks` [r][c]: 0, FILLED or CROSSED.

    Empty lines show the clue 0. `font`: a file stem or path; None: a seeded choice among
    the fonts on the held-out side asked for.
    """
    rng = random.Random(seed)
    look = ALL_STYLES[style] if isinstance(style, str) else style
    height, width = len(puzzle.rows), len(puzzle.cols)
    p = cell_px or cell_side(width, height)
    path = (font if "/" in font else find_font(font)) if font else \
        pick_nonogram_font(look, rng, held_out_fonts)
    face = _face(path, look.digit_height * p)
    rows = [r or [0] for r in puzzle.rows]
    cols = [c or [0] for c in puzzle.cols]
    slot = _slot_width(face, p)
    line_step = round(p * rng.uniform(0.72, 0.9))
    clue_w = round(max(len(r) for r in rows) * slot + p // 3)
    clue_h = max(len(c) for c in cols) * line_step + p // 3
    margin = p // 2 + rng.randrange(0, p)
    top = margin + (2 * p if title else 0)
    x0, y0 = margin + clue_w, top + clue_h
    image = Image.new("RGB", (x0 + width * p + margin, y0 + height * p + margin),
                      look.background)
    draw = ImageDraw.Draw(image)
    if look.clue_ground is not None:
        draw.rectangle([x0 - clue_w, y0, x0 - 1, y0 + height * p], fill=look.clue_ground)
        draw.rectangle([x0, y0 - clue_h, x0 + width * p, y0 - 1], fill=look.clue_ground)
    if title:
        draw.text((margin, margin), f"Nonogram {width}x{height} no. {rng.randrange(1, 999)}",
                  fill=look.clue_ink, font=_face(path, 0.7 * p))
    _draw_marks(draw, x0, y0, p, marks or [], look)
    _draw_lines(draw, x0, y0, p, width, height, look)
    for r, runs in enumerate(rows):
        y = y0 + r * p + p / 2
        for k, n in enumerate(reversed(runs)):
            x = x0 - p // 6 - (k + 0.5) * slot
            draw.text((x, y), str(n), fill=look.clue_ink, font=face, anchor="mm")
    for c, runs in enumerate(cols):
        x = x0 + c * p + p / 2
        for k, n in enumerate(reversed(runs)):
            y = y0 - p // 6 - (k + 0.5) * line_step
            draw.text((x, y), str(n), fill=look.clue_ink, font=face, anchor="mm")
    image.info["lattice"] = [[(x0 + c * p, y0 + r * p) for c in range(width + 1)]
                             for r in range(height + 1)]
    image.info["clues"] = (puzzle.rows, puzzle.cols)
    image.info["marks"] = marks
    image.info["font"] = path
    return image


def _face(path: str, digit_px: float) -> ImageFont.FreeTypeFont:
    """The font sized so that its digit '8' is digit_px tall."""
    size = max(6, round(digit_px * 1.3))
    font = ImageFont.truetype(path, size)
    _, top, _, bottom = font.getbbox("8", anchor="mm")
    return ImageFont.truetype(path, max(6, round(size * digit_px / max(1, bottom - top))))


def _slot_width(face: ImageFont.FreeTypeFont, p: int) -> float:
    """Room for one number in a row clue: the widest two-digit number and a gap."""
    left, _, right, _ = face.getbbox("88", anchor="mm")
    return max(0.8 * p, (right - left) + 0.35 * p)


def _draw_lines(draw: ImageDraw.ImageDraw, x0: int, y0: int, p: int, width: int, height: int,
                look: NonogramStyle) -> None:
    for thick_pass in (False, True):
        for k in range(width + 1):
            _line(draw, thick_pass, k, width, (x0 + k * p, y0, x0 + k * p, y0 + height * p),
                  p, look)
        for k in range(height + 1):
            _line(draw, thick_pass, k, height, (x0, y0 + k * p, x0 + width * p, y0 + k * p),
                  p, look)


def _line(draw: ImageDraw.ImageDraw, thick_pass: bool, k: int, n: int, ends: tuple, p: int,
          look: NonogramStyle) -> None:
    thick = k % 5 == 0 or k == n
    if thick != thick_pass:
        return
    w = max(1, round((look.thick if thick else look.thin) * p))
    a = w // 2
    xa, ya, xb, yb = ends
    if xa == xb:
        draw.rectangle([xa - a, ya - a, xa - a + w - 1, yb + w - a - 1],
                       fill=look.five_line if thick else look.line)
    else:
        draw.rectangle([xa - a, ya - a, xb + w - a - 1, ya - a + w - 1],
                       fill=look.five_line if thick else look.line)


def _draw_marks(draw: ImageDraw.ImageDraw, x0: int, y0: int, p: int, marks: list[list[int]],
                look: NonogramStyle) -> None:
    for r, row in enumerate(marks):
        for c, mark in enumerate(row):
            x, y = x0 + c * p, y0 + r * p
            if mark == FILLED:
                draw.rectangle([x, y, x + p, y + p], fill=look.fill)
            elif mark == CROSSED:
                inset, w = p * 0.3, max(1, round(0.06 * p))
                draw.line([x + inset, y + inset, x + p - inset, y + p - inset],
                          fill=look.line, width=w)
                draw.line([x + p - inset, y + inset, x + inset, y + p - inset],
                          fill=look.line, width=w)


def half_filled_marks(picture: list[str], rng: random.Random, filled: float = 0.3,
                      crossed: float = 0.2) -> list[list[int]]:
    """Marks of a person halfway: some of the solution's filled cells filled, some of its
    empty cells crossed, never a wrong mark."""
    return [[FILLED if ch == "#" and rng.random() < filled else
             CROSSED if ch == "." and rng.random() < crossed else 0 for ch in row]
            for row in picture]
