"""App and web screenshots of sudoku in progress, in many themes, with known truth per cell.

A puzzle from the project's generator (puzzles.make_sudoku) is drawn as a phone app or a
web page draws a game being played: the printed givens in the theme's given colour, the
person's digits in an entry colour of their own, pencil candidates small (in a 3x3
keypad, in the corners, or in a row across the middle), the selected cell's row, column
and box highlighted, the selected cell filled, cells with the selected digit marked, and
around the grid the app's chrome (a title bar, tool buttons, a number pad) or nothing
(a cropped screenshot). Theme families (THEMES): light, dark, paper (tinted grounds) and
contrast (pure black and white, either way round); HELD_OUT_FAMILY is never trained on.
"""

from __future__ import annotations

import colorsys
import random
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from gridsight.synth.fonts import digit_fonts
from gridsight.synth.half_solved import page_labels
from gridsight.synth.killer_render import _sized, is_bold, lining_figures
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import RGB, Layout, Style, _draw_digits, _draw_lines

SIZE = 9


@dataclass(frozen=True)
class Theme:
    """The colours of one app theme; each tuple is a set a picture picks one from."""

    grounds: tuple[RGB, ...]  # the cells' paper
    pages: tuple[RGB, ...]  # the screen around the grid
    lines: tuple[RGB, ...]
    box_lines: tuple[RGB, ...]
    givens: tuple[RGB, ...]
    entries: tuple[RGB, ...]
    notes: tuple[RGB, ...]
    bands: tuple[RGB, ...]  # the selected cell's row, column and box
    selected: tuple[RGB, ...]
    same: tuple[RGB, ...]  # cells holding the selected cell's digit
    bars: tuple[RGB, ...]  # the app's title bar and buttons


THEMES: dict[str, Theme] = {
    "light": Theme(
        grounds=((255, 255, 255), (250, 250, 252), (246, 248, 250)),
        pages=((255, 255, 255), (242, 243, 247), (236, 239, 244)),
        lines=((200, 204, 212), (190, 195, 205), (160, 160, 160), (120, 120, 120)),
        box_lines=((52, 72, 97), (20, 20, 20), (90, 95, 110), (60, 60, 60)),
        givens=((20, 20, 20), (52, 72, 97), (0, 0, 0), (60, 60, 70)),
        entries=((50, 90, 220), (0, 122, 255), (30, 110, 200), (40, 140, 120), (100, 60, 200)),
        notes=((110, 110, 120), (130, 130, 140), (90, 100, 130), (100, 110, 160)),
        bands=((226, 235, 246), (236, 240, 246), (232, 232, 238)),
        selected=((187, 222, 251), (200, 215, 240), (255, 240, 180)),
        same=((195, 215, 234), (210, 220, 240), (220, 225, 235)),
        bars=((255, 255, 255), (52, 72, 97), (40, 60, 110), (230, 232, 236))),
    "dark": Theme(
        grounds=((18, 18, 20), (30, 31, 36), (36, 38, 44), (24, 28, 40)),
        pages=((0, 0, 0), (18, 18, 20), (28, 28, 32)),
        lines=((60, 62, 70), (72, 75, 84), (55, 60, 75)),
        box_lines=((150, 154, 165), (120, 124, 134), (200, 200, 205)),
        givens=((235, 235, 240), (210, 212, 218), (190, 192, 198), (255, 255, 255)),
        entries=((130, 170, 255), (100, 180, 255), (80, 200, 200), (120, 220, 210),
                 (150, 200, 255)),
        notes=((150, 152, 160), (170, 170, 175), (130, 150, 190), (120, 140, 150)),
        bands=((40, 46, 60), (44, 50, 64), (38, 40, 48)),
        selected=((58, 74, 110), (40, 70, 120), (70, 80, 100)),
        same=((50, 60, 85), (48, 56, 78)),
        bars=((28, 28, 32), (40, 42, 50), (18, 18, 20))),
    "paper": Theme(
        grounds=((246, 238, 218), (250, 242, 225), (238, 232, 210), (228, 238, 226),
                 (232, 238, 246), (250, 236, 236)),
        pages=((235, 226, 205), (240, 234, 220), (220, 228, 220), (224, 230, 240)),
        lines=((180, 165, 140), (170, 170, 160), (190, 180, 170)),
        box_lines=((90, 70, 50), (60, 60, 60), (70, 80, 90)),
        givens=((60, 40, 25), (30, 30, 30), (40, 50, 70), (70, 50, 40)),
        entries=((160, 60, 40), (40, 90, 160), (30, 120, 70), (140, 50, 120), (190, 90, 20)),
        notes=((120, 100, 80), (110, 110, 110), (100, 110, 130)),
        bands=((236, 224, 196), (220, 214, 190), (214, 226, 214), (216, 226, 240)),
        selected=((226, 200, 150), (200, 220, 200), (190, 210, 235)),
        same=((222, 210, 180), (205, 215, 205)),
        bars=((120, 90, 60), (90, 110, 90), (235, 226, 205))),
    "contrast": Theme(
        grounds=((255, 255, 255), (0, 0, 0)),
        pages=((255, 255, 255), (0, 0, 0)),
        lines=((0, 0, 0), (255, 255, 255)),
        box_lines=((0, 0, 0), (255, 255, 255)),
        givens=((0, 0, 0), (255, 255, 255)),
        entries=((0, 0, 255), (200, 0, 0), (255, 220, 0), (0, 230, 255)),
        notes=((0, 0, 0), (255, 255, 255)),
        bands=((255, 255, 160), (0, 0, 120)),
        selected=((255, 230, 0), (0, 80, 200)),
        same=((200, 255, 200), (0, 90, 0)),
        bars=((0, 0, 0), (255, 255, 255))),
}
# Colours drawn afresh for every picture (_sampled_colours): a theme no app ships, so
# that a model learns the roles' contrasts rather than a palette.
SAMPLED = "sampled"
FAMILIES = (*THEMES, SAMPLED)
HELD_OUT_FAMILY = "paper"  # never in the cell-kind model's training: the bench's measure
TRAINED_FAMILIES = tuple(f for f in FAMILIES if f != HELD_OUT_FAMILY)
NOTE_LAYOUTS = ("keypad", "corners", "centre")


@dataclass
class AppScreen:
    """A screenshot with its truth; image.info["lattice"] holds the grid's intersections."""

    image: Image.Image
    family: str
    givens: list[list[int]]
    entries: list[list[int]]  # the person's digits, 0 = none
    notes: dict[tuple[int, int], list[int]]
    solution: list[list[int]]
    features: dict = field(default_factory=dict)  # what this picture shows (chrome, layout)

    @property
    def labels(self) -> list[list[int]]:
        """0 blank, 1-9 a digit (given or entry), NOTES pencil candidates."""
        return page_labels(self.givens, self.entries, self.notes)


def _pick(rng: random.Random, theme: Theme, dark: bool | None) -> dict:
    """One colour of each role; in the contrast family all of one polarity."""
    if dark is None:
        return {k: rng.choice(getattr(theme, k)) for k in theme.__dataclass_fields__}
    side = 1 if dark else 0
    out = {k: getattr(theme, k)[side] for k in ("grounds", "pages", "lines", "box_lines",
                                                 "givens", "notes", "bands", "selected",
                                                 "same", "bars")}
    out["entries"] = rng.choice(theme.entries[2:] if dark else theme.entries[:2])
    return out


def _hsv(rng: random.Random, hue: float, saturation: tuple[float, float],
         value: tuple[float, float]) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(hue % 1.0, rng.uniform(*saturation), rng.uniform(*value))
    return round(255 * r), round(255 * g), round(255 * b)


def _luminance(colour: RGB) -> float:
    """Relative luminance (sRGB, as WCAG defines it)."""
    linear = [(v / 255) / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4
              for v in colour]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: RGB, b: RGB) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def _readable(rng: random.Random, ground: RGB, least: float, draw) -> RGB:
    """A colour from `draw(rng)` that stands out from `ground` by a contrast ratio of at
    least `least` (apps keep their digits readable), or the most contrasting of 40."""
    best = None
    for _ in range(40):
        colour = draw(rng)
        if _contrast(colour, ground) >= least:
            return colour
        if best is None or _contrast(colour, ground) > _contrast(best, ground):
            best = colour
    return best


def _sampled_colours(rng: random.Random) -> dict:
    """One colour of each role drawn at random: the ground light or dark in any faint
    tint, the givens near neutral and far from it, the person's digits in a hue of
    their own, the notes between, highlights a shade off the ground."""
    dark = rng.random() < 0.4
    tint = rng.random()
    def ground(shift: float) -> RGB:
        value = (0.08, 0.2) if dark else (0.9, 1.0)
        return _hsv(rng, tint, (0.0, 0.12), (value[0] + shift, value[1] + shift))
    ink, far = ((0.75, 1.0), (0.6, 1.0)) if dark else ((0.0, 0.35), (0.35, 0.85))
    grounds = ground(0.0)
    band_shift = rng.uniform(0.04, 0.12) * (1 if dark else -1)
    return {
        "grounds": grounds, "pages": ground(rng.uniform(-0.05, 0.05)),
        "lines": _hsv(rng, tint, (0.0, 0.15), (0.3, 0.5) if dark else (0.55, 0.8)),
        "box_lines": _hsv(rng, tint, (0.0, 0.3), (0.55, 0.9) if dark else (0.05, 0.45)),
        "givens": _readable(rng, grounds, 4.5,
                            lambda r: _hsv(r, r.random(), (0.0, 0.15), ink)),
        "entries": _readable(rng, grounds, 3.0,
                             lambda r: _hsv(r, r.random(), (0.5, 1.0), far)),
        "notes": _readable(rng, grounds, 2.5, lambda r: _hsv(
            r, r.random(), (0.0, 0.35), (0.5, 0.75) if dark else (0.3, 0.6))),
        "bands": ground(band_shift), "same": ground(band_shift * 1.3),
        "selected": _hsv(rng, rng.random(), (0.15, 0.45), (0.3, 0.45) if dark else (0.8, 0.97)),
        "bars": ground(rng.uniform(-0.1, 0.1)),
    }


def _faces(rng: random.Random) -> tuple[str, str, str]:
    """(given face, entry face, note face): app faces have lining figures; notes are
    never bold; the entries often share the givens' face."""
    faces = [p for n, p in digit_fonts() if lining_figures(p)] or [digit_fonts()[0][1]]
    light = [p for n, p in digit_fonts() if not is_bold(n) and p in faces] or faces
    given = rng.choice(faces)
    entry = given if rng.random() < 0.5 else rng.choice(faces)
    return given, entry, rng.choice(light)


def app_screen(seed: int, family: str | None = None, *, width: int | None = None,
               chrome: bool | None = None, notes_layout: str | None = None,
               entry_share: float | None = None, notes_share: float | None = None,
               recolour: dict[str, RGB] | None = None) -> AppScreen:
    """A screenshot of a 9x9 sudoku in progress, in a theme of `family` (None: any).
    `recolour`: roles (Theme's fields) drawn in these colours instead of the theme's."""
    rng = random.Random(seed)
    family = family or rng.choice(FAMILIES)
    if family == SAMPLED:
        colours = _sampled_colours(rng)
    else:
        dark = rng.random() < 0.5 if family == "contrast" else None
        colours = _pick(rng, THEMES[family], dark)
    colours = {**colours, **(recolour or {})}
    givens, solution = make_sudoku(rng)
    open_cells = [(r, c) for r in range(SIZE) for c in range(SIZE) if not givens[r][c]]
    rng.shuffle(open_cells)
    n_entry = round((rng.uniform(0.1, 0.6) if entry_share is None else entry_share)
                    * len(open_cells))
    n_notes = round((rng.uniform(0.1, 0.45) if notes_share is None else notes_share)
                    * len(open_cells))
    entries = [[0] * SIZE for _ in range(SIZE)]
    for r, c in open_cells[:n_entry]:
        entries[r][c] = solution[r][c]
    notes = {}
    for r, c in open_cells[n_entry:n_entry + n_notes]:
        count = rng.choice([1, 2, 2, 3, 3, 4, 5, 6])
        notes[(r, c)] = sorted({solution[r][c], *rng.sample(range(1, 10), count - 1)})
    width = width or rng.randint(600, 1300)
    chrome = rng.random() < 0.6 if chrome is None else chrome
    landscape = chrome and rng.random() < 0.3  # a web page: the number pad beside the grid
    notes_layout = notes_layout or rng.choice(NOTE_LAYOUTS)
    if not chrome:
        side = width
        height = width
    elif landscape:
        height = round(width * rng.uniform(0.6, 0.75))
        side = round(height * rng.uniform(0.8, 0.9))
    else:
        height = round(width * rng.uniform(1.6, 2.1))
        side = round(width * rng.uniform(0.9, 0.98))
    margin = rng.randint(4, 14) if not chrome else 0
    cell = (side - 2 * margin) // SIZE
    grid_side = cell * SIZE
    if not chrome:
        x0 = y0 = (side - grid_side) // 2
    elif landscape:
        x0, y0 = rng.randint(8, width // 12), (height - grid_side) // 2
    else:
        x0, y0 = (width - grid_side) // 2, round(height * rng.uniform(0.12, 0.2))
    image = Image.new("RGB", (width, height), colours["pages"])
    # The grid is drawn on its own square (render.py's drawers place rows and columns
    # alike), with a band of the screen round it, and pasted where it belongs.
    pad = max(2, cell // 4)
    layout = Layout(SIZE, (3, 3), cell, pad)
    grid = Image.new("RGB", (layout.side, layout.side), colours["pages"])
    draw = ImageDraw.Draw(grid)
    selected = (rng.randrange(SIZE), rng.randrange(SIZE))
    shown = [[g or e for g, e in zip(gr, er, strict=True)]
             for gr, er in zip(givens, entries, strict=True)]
    look = {"band": rng.random() < 0.7, "selected": rng.random() < 0.8,
            "same": rng.random() < 0.5, "chrome": chrome, "landscape": landscape,
            "notes_layout": notes_layout, "width": width,
            "dark": sum(colours["grounds"]) < 3 * 128}
    _cell_fills(draw, layout, colours, look, selected, shown)
    lines = rng.choice([(0.02, 0.05, 0.06), (0.015, 0.04, 0.04), (0.025, 0.06, 0.07),
                        (0.01, 0.03, 0.03)])
    if family == "contrast":
        lines = (0.03, 0.08, 0.09)
    style = Style(background=colours["grounds"], line=colours["lines"],
                  box_line=colours["box_lines"], thin=lines[0], thick=lines[1],
                  outer=lines[2], digit_height=rng.uniform(0.5, 0.64))
    _draw_lines(draw, layout, style)
    given_face, entry_face, note_face = _faces(rng)
    _draw_digits(draw, layout, Style(digit=(colours["givens"],),
                                     digit_height=style.digit_height),
                 givens, given_face, rng, 0.0)
    _draw_digits(draw, layout, Style(digit=(colours["entries"],),
                                     digit_height=style.digit_height * rng.uniform(0.9, 1.05)),
                 entries, entry_face, rng, 0.0)
    _draw_notes(draw, layout, notes, note_face, colours["notes"], notes_layout, rng)
    image.paste(grid, (x0 - pad, y0 - pad))
    if chrome:
        _draw_chrome(ImageDraw.Draw(image), (width, height), (x0, y0, grid_side), colours,
                     given_face, landscape, rng)
    image.info["lattice"] = [[(x + x0 - pad, y + y0 - pad) for x, y in row]
                             for row in layout.lattice()]
    return AppScreen(image, family, givens, entries, notes, solution, look)


def _cell_box(layout: Layout, r: int, c: int) -> tuple[float, float, float, float]:
    return (layout.line_pos(c), layout.line_pos(r), layout.line_pos(c + 1) - 1,
            layout.line_pos(r + 1) - 1)


def _cell_fills(draw, layout: Layout, colours: dict, look: dict, selected, shown) -> None:
    sr, sc = selected
    digit = shown[sr][sc]
    for r in range(SIZE):
        for c in range(SIZE):
            fill = colours["grounds"]
            if look["band"] and (r == sr or c == sc or (r // 3 == sr // 3 and c // 3 == sc // 3)):
                fill = colours["bands"]
            if look["same"] and digit and shown[r][c] == digit:
                fill = colours["same"]
            if look["selected"] and (r, c) == selected:
                fill = colours["selected"]
            draw.rectangle(_cell_box(layout, r, c), fill=fill)


# Candidate places as shares of the cell: corner marks fill the corners first, then the
# edges' middles; centre marks sit in one row across the cell's middle.
CORNERS = ((0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8), (0.5, 0.2), (0.5, 0.8),
           (0.2, 0.5), (0.8, 0.5), (0.5, 0.5))


def _draw_notes(draw, layout: Layout, notes: dict, face: str, colour: RGB, how: str,
                rng: random.Random) -> None:
    p = layout.cell_px
    height = rng.uniform(0.15, 0.22) * p if how != "centre" else rng.uniform(0.17, 0.22) * p
    font = _sized(face, max(5.0, height))
    for (r, c), digits in notes.items():
        x0, y0 = layout.line_pos(c), layout.line_pos(r)
        for k, d in enumerate(digits):
            if how == "keypad":
                fx, fy = 0.2 + 0.3 * ((d - 1) % 3), 0.2 + 0.3 * ((d - 1) // 3)
            elif how == "corners":
                fx, fy = CORNERS[k]
            else:
                step = min(0.16, 0.8 / len(digits))
                fx, fy = 0.5 + step * (k - (len(digits) - 1) / 2), 0.5
            draw.text((x0 + fx * p, y0 + fy * p), str(d), fill=colour, font=font, anchor="mm")


def _draw_chrome(draw, screen: tuple[int, int], grid: tuple[int, int, int], colours: dict,
                 face: str, landscape: bool, rng: random.Random) -> None:
    """A title bar with a timer, tool buttons and a number pad 1-9 around the grid."""
    width, height = screen
    x0, y0, side = grid
    ink = colours["givens"]
    bar = max(30, round(0.07 * height)) if not landscape else max(30, round(0.08 * height))
    draw.rectangle([0, 0, width, min(bar, y0 - 4)], fill=colours["bars"])
    title = _sized(face, 0.3 * min(bar, y0 - 4))
    draw.text((16, min(bar, y0 - 4) / 2), "Sudoku", fill=ink, font=title, anchor="lm")
    draw.text((width - 16, min(bar, y0 - 4) / 2), f"{rng.randint(0, 59):02d}:"
              f"{rng.randint(0, 59):02d}", fill=ink, font=title, anchor="rm")
    pad = _sized(face, rng.uniform(0.5, 0.8) * side / 9)
    if landscape:
        left = x0 + side + (width - x0 - side) * 0.12
        span = (width - left) * 0.8
        key = span / 3
        top = y0 + side * 0.2
        for d in range(1, 10):
            cx = left + key * ((d - 1) % 3 + 0.5)
            cy = top + key * ((d - 1) // 3 + 0.5)
            draw.rounded_rectangle([cx - key * 0.42, cy - key * 0.42, cx + key * 0.42,
                                    cy + key * 0.42], radius=round(key * 0.12),
                                   fill=colours["bands"])
            draw.text((cx, cy), str(d), fill=colours["entries"], font=pad, anchor="mm")
        return
    tools = y0 + side + max(16, round(0.04 * height))
    small = _sized(face, 0.02 * height)
    for k, word in enumerate(("Undo", "Erase", "Notes", "Hint")):
        cx = width * (k + 0.5) / 4
        draw.ellipse([cx - 0.025 * height, tools, cx + 0.025 * height, tools + 0.05 * height],
                     outline=ink, width=2)
        draw.text((cx, tools + 0.065 * height), word, fill=ink, font=small, anchor="mm")
    keys = tools + 0.11 * height
    for d in range(1, 10):
        cx = width * (d - 0.5) / 9
        draw.text((cx, keys), str(d), fill=colours["entries"], font=pad, anchor="mt")
