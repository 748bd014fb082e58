"""Half-solved pages with known truth: printed givens, the person's own digits and pencil
candidates.

A newspaper page gets handwriting-like stroke digits (a random hand, slanted and wobbly)
in pen or pencil colours and small pencil candidates in the cells' top part; an app
screenshot gets the user's digits in the app's own font but another colour, and small
grey candidates. Some entries may be wrong on purpose, to check "where did I go wrong?".
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from gridsight.synth.fonts import digit_fonts
from gridsight.synth.grids import random_solution
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import Layout, render_sudoku
from gridsight.synth.strokes import StrokeFont

SIZE = 9
NOTES = 10  # the label of a cell holding pencil candidates
PEN_COLOURS = ((30, 50, 150), (40, 40, 60), (70, 70, 80), (20, 80, 170), (100, 100, 105))
# A soft pencil pressed lightly: its digits are a third as dark as the printed type and
# the grid lines (the real val photos' pencil), which the reader must still see.
LIGHT_PENCIL_COLOURS = ((160, 160, 165), (172, 170, 166), (150, 152, 160))
APP_ENTRY_COLOURS = ((30, 90, 210), (20, 120, 200), (60, 60, 200))


@dataclass
class HalfSolvedPage:
    image: Image.Image
    givens: list[list[int]]  # printed
    entries: list[list[int]]  # the person's digits, 0 = none
    notes: list[tuple[int, int]]
    solution: list[list[int]]
    wrong: list[tuple[int, int, int, int]] = field(default_factory=list)  # r, c, written, right

    @property
    def labels(self) -> list[list[int]]:
        """0 blank, 1-9 a digit (printed or not), 10 notes: as the real photo labels."""
        return page_labels(self.givens, self.entries, self.notes)


def page_labels(givens: list[list[int]], entries: list[list[int]], notes) -> list[list[int]]:
    """Labels as the real photos have them: 0 blank, 1-9 a digit (printed or the person's),
    NOTES where `notes` (cells) holds pencil candidates."""
    out = [[g or e for g, e in zip(gr, er, strict=True)]
           for gr, er in zip(givens, entries, strict=True)]
    for r, c in notes:
        out[r][c] = NOTES
    return out


def half_solved_page(seed: int, *, app: bool = False, given_share: float | None = None,
                     entry_share: float = 0.45, notes_share: float = 0.15, wrong: int = 0,
                     cell_px: int = 64, hand_digits: dict | None = None,
                     light_pencil: bool = False, shadow_edges: int = 0,
                     tint: tuple[float, float, float] | None = None) -> HalfSolvedPage:
    """A page with known truth: printed givens with one solution (or, with `given_share`,
    that share of the cells printed at random, unique or not). `hand_digits` (digit ->
    (N, h, w) images, ink 1 on 0, such as MNIST's) writes the entries with those real
    handwritten digits instead of strokes. `light_pencil` writes entries and notes in a
    light pencil grey (LIGHT_PENCIL_COLOURS) instead of a pen's colour. `shadow_edges`
    casts that many shadows (a hand, the phone) over the page, each edge a straight,
    slightly soft line across the grid, through written and blank cells alike. `tint`
    lights the page in a colour (a share of each of red, green and blue it reflects:
    warm lamp light is about (1.0, 0.75, 0.65))."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    if given_share is None:
        givens, solution = make_sudoku(rng)
        rng.shuffle(cells)
        open_cells = [(r, c) for r, c in cells if not givens[r][c]]
    else:
        solution = random_solution(SIZE, None, rng)
        rng.shuffle(cells)
        n_given = round(given_share * len(cells))
        open_cells = cells[n_given:]
        given_set = set(cells[:n_given])
        givens = [[solution[r][c] if (r, c) in given_set else 0 for c in range(SIZE)]
                  for r in range(SIZE)]
    n_entry = round(entry_share * len(open_cells))
    n_notes = round(notes_share * len(open_cells))
    entries = [[0] * SIZE for _ in range(SIZE)]
    for r, c in open_cells[:n_entry]:
        entries[r][c] = solution[r][c]
    wrong_list = []
    for r, c in open_cells[:min(wrong, n_entry)]:
        written = rng.choice([d for d in range(1, 10) if d != solution[r][c]])
        entries[r][c] = written
        wrong_list.append((r, c, written, solution[r][c]))
    notes = open_cells[n_entry:n_entry + n_notes]
    style = "app" if app else "newspaper"
    image = render_sudoku(givens, style=style, cell_px=cell_px, seed=seed)
    layout = Layout(SIZE, (3, 3), cell_px, cell_px // 2)
    draw = ImageDraw.Draw(image)
    pen = rng.choice(LIGHT_PENCIL_COLOURS) if light_pencil else None  # None: a pen's colour
    if app:
        _app_entries(draw, layout, entries, rng)
    elif hand_digits:
        image = _pasted_entries(image, layout, entries, hand_digits, rng, pen)
        draw = ImageDraw.Draw(image)
    else:
        _handwritten_entries(draw, layout, entries, rng, pen)
    _pencil_notes(draw, layout, notes, solution, rng, app, pen)
    if shadow_edges:
        image = _cast_shadows(image, shadow_edges, rng)
    if tint is not None:
        image = _tinted(image, tint)
    return HalfSolvedPage(image, givens, entries, notes, solution, wrong_list)


def _centre(layout: Layout, r: int, c: int) -> tuple[float, float]:
    return layout.line_pos(c) + layout.cell_px / 2, layout.line_pos(r) + layout.cell_px / 2


def _handwritten_entries(draw, layout: Layout, entries, rng: random.Random, pen) -> None:
    hand = StrokeFont.random(rng)
    colour = pen or rng.choice(PEN_COLOURS)
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            if v:
                x, y = _centre(layout, r, c)
                x += rng.uniform(-0.08, 0.08) * layout.cell_px
                y += rng.uniform(-0.06, 0.06) * layout.cell_px
                hand.draw(draw, v, (x, y), rng.uniform(0.5, 0.72) * layout.cell_px, colour)


def _pasted_entries(image: Image.Image, layout: Layout, entries, hand_digits: dict,
                    rng: random.Random, pen) -> Image.Image:
    """The entries as real handwritten digit images, tinted with one pen's colour."""
    page = np.asarray(image, np.float32).copy()
    colour = np.array(pen or rng.choice(PEN_COLOURS), np.float32)
    strength = rng.uniform(0.6, 1.0)
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            if not v:
                continue
            samples = hand_digits[v]
            ink = samples[rng.randrange(len(samples))]
            side = max(8, round(rng.uniform(0.75, 1.0) * layout.cell_px))
            ink = np.asarray(Image.fromarray((ink * 255).astype(np.uint8)).resize(
                (side, side), Image.BILINEAR), np.float32)[..., None] / 255 * strength
            x, y = _centre(layout, r, c)
            x0 = round(x - side / 2 + rng.uniform(-0.06, 0.06) * layout.cell_px)
            y0 = round(y - side / 2 + rng.uniform(-0.05, 0.05) * layout.cell_px)
            patch = page[y0:y0 + side, x0:x0 + side]
            patch[:] = patch * (1 - ink) + colour * ink
    out = Image.fromarray(page.clip(0, 255).astype(np.uint8))
    out.info.update(image.info)
    return out


def _app_entries(draw, layout: Layout, entries, rng: random.Random) -> None:
    path = rng.choice(digit_fonts())[1]
    font = ImageFont.truetype(path, round(0.6 * layout.cell_px))
    colour = rng.choice(APP_ENTRY_COLOURS)
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            if v:
                draw.text(_centre(layout, r, c), str(v), fill=colour, font=font, anchor="mm")


def _pencil_notes(draw, layout: Layout, notes, solution, rng: random.Random, app: bool,
                  pen) -> None:
    """Two or three small candidates (the right one among them) along each cell's top,
    or in the app's 3x3 keypad layout."""
    px = max(7, round(0.24 * layout.cell_px))
    path = rng.choice(digit_fonts())[1]
    font = ImageFont.truetype(path, px)
    hand = StrokeFont.random(rng)
    colour = (120, 120, 130) if app else pen or rng.choice(PEN_COLOURS)
    cell = layout.cell_px
    for r, c in notes:
        digits = sorted({solution[r][c], *rng.sample(range(1, 10), rng.randint(1, 2))})
        x0, y0 = layout.line_pos(c), layout.line_pos(r)
        for k, d in enumerate(digits):
            if app:
                x = x0 + (0.2 + 0.3 * ((d - 1) % 3)) * cell
                y = y0 + (0.2 + 0.3 * ((d - 1) // 3)) * cell
                draw.text((x, y), str(d), fill=colour, font=font, anchor="mm")
            else:
                x = x0 + (0.22 + 0.17 * k) * cell
                y = y0 + 0.24 * cell
                hand.draw(draw, d, (x, y), 0.26 * cell, colour)


def _cast_shadows(image: Image.Image, count: int, rng: random.Random) -> Image.Image:
    """The page with `count` shadows, each the part beyond a random straight line across
    it, 35-55 % darker, its edge blurred over 1-3 pixels."""
    page = np.asarray(image.convert("RGB"), np.float32)
    h, w = page.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light = np.ones((h, w), np.float32)
    for _ in range(count):
        angle = rng.uniform(0, 2 * np.pi)
        x0, y0 = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        side = (xs - x0) * np.cos(angle) + (ys - y0) * np.sin(angle)
        soft = np.clip(0.5 + side / (2 * rng.uniform(1.0, 3.0)), 0.0, 1.0)
        light *= 1.0 - rng.uniform(0.35, 0.55) * soft
    out = Image.fromarray((page * light[..., None]).clip(0, 255).astype(np.uint8))
    out.info.update(image.info)
    return out


def _tinted(image: Image.Image, tint: tuple[float, float, float]) -> Image.Image:
    page = np.asarray(image.convert("RGB"), np.float32) * np.array(tint, np.float32)
    out = Image.fromarray(page.clip(0, 255).astype(np.uint8))
    out.info.update(image.info)
    return out
