"""Draw sudoku grids with known givens, as a screenshot, an app or a newspaper would print them.

The drawing is layered so later puzzle kinds slot in: background, cell decorations (killer
cages will go in `_draw_decorations`), grid lines, then digits. Every image carries its
geometry in `image.info["lattice"]`: the (size+1) x (size+1) grid line intersections (x, y).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from gridsight.synth.fonts import SERIF_FAMILIES, digit_fonts, find_font, font_family
from gridsight.synth.strokes import StrokeFont
from services.contracts import symbol_text
from services.solver.grid import default_box

RGB = tuple[int, int, int]
STROKES = "strokes"  # font name for digits drawn as strokes with random glyph variants


@dataclass(frozen=True)
class Style:
    background: RGB = (255, 255, 255)
    line: RGB = (0, 0, 0)
    box_line: RGB = (0, 0, 0)
    thin: float = 0.03  # line widths as a share of the cell side
    thick: float = 0.07
    outer: float = 0.08
    digit: tuple[RGB, ...] = ((0, 0, 0),)
    digit_height: float = 0.62  # digit size as a share of the cell side
    serif: bool | None = None  # None: any font; True/False: restrict the random choice
    stroke: float = 0.0  # extra stroke around digits as a share of the cell (a bolder print)


STYLES: dict[str, Style] = {
    "screenshot": Style(),
    "bold": Style(thin=0.05, thick=0.11, outer=0.13, digit_height=0.68),
    "thin": Style(thin=0.02, thick=0.045, outer=0.05, digit_height=0.55),
    "app": Style(background=(250, 250, 252), line=(190, 195, 205), box_line=(90, 95, 110),
                 thin=0.025, thick=0.05, outer=0.06,
                 digit=((30, 60, 160), (20, 20, 20), (150, 40, 40), (40, 110, 60)),
                 serif=False),
    "newspaper": Style(background=(246, 244, 238), line=(25, 25, 25), box_line=(10, 10, 10),
                       thin=0.025, thick=0.07, outer=0.07, digit=((15, 15, 15),),
                       digit_height=0.66, serif=True),
}
# The app style with its thin lines lighter still, as faint print or a washed-out screen
# shows them: photographed, they lie a few grey levels below the paper. Kept apart from
# STYLES, which the models are trained on.
LIGHT_LINED = Style(background=(250, 250, 252), line=(215, 218, 226), box_line=(90, 95, 110),
                    thin=0.025, thick=0.05, outer=0.06,
                    digit=((30, 60, 160), (20, 20, 20), (150, 40, 40), (40, 110, 60)),
                    serif=False)
# Dark-mode apps: light lines and digits on a dark ground. Kept apart from STYLES, which
# the digit model is trained on (the recognizer reads these pictures inverted).
DARK_STYLES: dict[str, Style] = {
    "dark": Style(background=(30, 31, 36), line=(72, 75, 84), box_line=(150, 154, 165),
                  thin=0.025, thick=0.05, outer=0.06,
                  digit=((225, 228, 235), (130, 170, 255)), serif=False),
}


@dataclass(frozen=True)
class Layout:
    size: int
    box: tuple[int, int]
    cell_px: int
    margin: int

    @property
    def side(self) -> int:
        return self.size * self.cell_px + 2 * self.margin

    def line_pos(self, k: int) -> float:
        return self.margin + k * self.cell_px

    def lattice(self) -> list[list[tuple[float, float]]]:
        n = self.size + 1
        return [[(self.line_pos(c), self.line_pos(r)) for c in range(n)] for r in range(n)]


def pick_font(style: Style, rng: random.Random) -> str:
    fonts = digit_fonts()
    if style.serif is not None:
        wanted = [p for n, p in fonts if (font_family(n) in SERIF_FAMILIES) == style.serif]
        fonts = [(n, p) for n, p in fonts if p in wanted] or fonts
    return rng.choice(fonts)[1]


def _font_path(font: str) -> str:
    return font if "/" in font or font == STROKES else find_font(font)


def render_sudoku(givens: list[list[int]], *, font: str | None = None,
                  style: str | Style = "screenshot", cell_px: int = 48, seed: int = 0,
                  margin: int | None = None, box: tuple[int, int] | None = None,
                  jitter: float = 0.0, symbols: str = "digits") -> Image.Image:
    """The grid `givens` (0 = blank) drawn in `font` (file stem or path; None: seeded choice;
    "strokes": digits drawn as strokes in a seeded random hand, see gridsight.synth.strokes).

    `jitter` moves each digit off centre by up to that share of the cell, as print does.
    `symbols` names how values above 9 are printed (see symbol_text): "digits" (10-16 as
    two digits), "hex" (1-9 then A-G) or "letters" (A-P for 1-16).
    """
    rng = random.Random(seed)
    look = (STYLES | DARK_STYLES)[style] if isinstance(style, str) else style
    size = len(givens)
    layout = Layout(size, box or default_box(size), cell_px,
                    cell_px // 2 if margin is None else margin)
    image = Image.new("RGB", (layout.side, layout.side), look.background)
    draw = ImageDraw.Draw(image)
    _draw_decorations(draw, layout, look)
    _draw_lines(draw, layout, look)
    path = _font_path(font) if font else pick_font(look, rng)
    _draw_digits(draw, layout, look, givens, path, rng, jitter, symbols)
    image.info["lattice"] = layout.lattice()
    image.info["symbols"] = symbols
    image.info["font"] = path
    return image


def _draw_decorations(draw: ImageDraw.ImageDraw, layout: Layout, look: Style) -> None:
    """Cell backgrounds; killer cages (dashed outlines, corner sums) will be drawn here."""


def _width(share: float, cell_px: int) -> int:
    return max(1, round(share * cell_px))


def _draw_lines(draw: ImageDraw.ImageDraw, layout: Layout, look: Style) -> None:
    n, (br, bc) = layout.size, layout.box
    lo, hi = layout.line_pos(0), layout.line_pos(n)
    # Thin lines first so box lines cover them where they meet.
    for thick_pass in (False, True):
        for k in range(n + 1):
            outer = k in (0, n)
            for along_rows, every in ((True, br), (False, bc)):
                is_box = outer or k % every == 0
                if is_box != thick_pass:
                    continue
                share = look.outer if outer else (look.thick if is_box else look.thin)
                w = _width(share, layout.cell_px)
                colour = look.box_line if is_box else look.line
                p = layout.line_pos(k)
                # A line of width w pixels centred on p, extended to cover the outer corners.
                a = p - w // 2
                b = a + w - 1
                ext = _width(look.outer, layout.cell_px) / 2
                if along_rows:
                    draw.rectangle([lo - ext, a, hi + ext - 1, b], fill=colour)
                else:
                    draw.rectangle([a, lo - ext, b, hi + ext - 1], fill=colour)


def _draw_digits(draw: ImageDraw.ImageDraw, layout: Layout, look: Style,
                 givens: list[list[int]], font_path: str, rng: random.Random,
                 jitter: float, symbols: str = "digits") -> None:
    colour = rng.choice(look.digit)
    if font_path == STROKES and symbols == "digits" and layout.size <= 9:
        hand = StrokeFont.random(rng)
        for _, _, x, y, value in _digit_places(layout, givens, rng, jitter):
            hand.draw(draw, value, (x, y), look.digit_height * layout.cell_px, colour)
        return
    px = max(6, round(look.digit_height * layout.cell_px * 1.3))
    font = ImageFont.truetype(font_path, px)
    # Scale so the digit '8' is digit_height of the cell whatever the font's metrics, and
    # no wider than MAX_DIGIT_WIDTH of it (heavy wide faces would touch the grid lines,
    # which no puzzle prints).
    left, top, right, bottom = font.getbbox("8", anchor="mm")
    px = max(6, round(px * min(look.digit_height * layout.cell_px / max(1, bottom - top),
                               MAX_DIGIT_WIDTH * layout.cell_px / max(1, right - left))))
    font = ImageFont.truetype(font_path, px)
    narrow = {}  # two-digit numbers and wide letters get a smaller size of the face
    for _, _, x, y, value in _digit_places(layout, givens, rng, jitter):
        text = symbol_text(value, symbols)
        face = font
        left, _, right, _ = font.getbbox(text, anchor="mm")
        if right - left > MAX_TEXT_WIDTH * layout.cell_px:
            if text not in narrow:
                size = max(6, int(px * MAX_TEXT_WIDTH * layout.cell_px / (right - left)))
                narrow[text] = ImageFont.truetype(font_path, size)
            face = narrow[text]
        draw.text((x, y), text, fill=colour, font=face, anchor="mm",
                  stroke_width=round(look.stroke * layout.cell_px), stroke_fill=colour)


MAX_DIGIT_WIDTH = 0.6  # share of the cell
MAX_TEXT_WIDTH = 0.78  # a two-digit number or a letter, as share of the cell
SYMBOLS = ("digits", "hex", "letters")


def _digit_places(layout: Layout, givens: list[list[int]], rng: random.Random, jitter: float):
    """(row, col, x, y, digit) of each given, at its cell's centre moved by up to `jitter`."""
    for r, row in enumerate(givens):
        for c, value in enumerate(row):
            if not value:
                continue
            x = layout.line_pos(c) + layout.cell_px / 2
            y = layout.line_pos(r) + layout.cell_px / 2
            if jitter:
                x += rng.uniform(-jitter, jitter) * layout.cell_px
                y += rng.uniform(-jitter, jitter) * layout.cell_px
            yield r, c, x, y, value
