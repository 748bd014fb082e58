"""Pictures of grids of other sides for the size and symbol tests, with their answers."""

from __future__ import annotations

import random

import numpy as np

from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from gridsight.training.symbols import (
    HELD_OUT_STYLE,
    font_split,
)
from services.recognizer import recognize
from services.solver import solve_reading

from .conftest import read_digits, to_bytes


def picture(size, box, seed, style="screenshot", symbols="digits", photo=False, font=None):
    givens, solution = make_sudoku(random.Random(seed), size, box)
    image = render_sudoku(givens, style=style, seed=seed, box=box, symbols=symbols,
                          cell_px=40 if size <= 9 else 32, font=font, jitter=0.03)
    if photo:
        image, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.7, 0.95),
                              out_size=(1024, 768) if size <= 9 else (1600, 1200))
        return to_bytes(image, "JPEG", quality=90), givens, solution
    return to_bytes(image), givens, solution


def assert_solved_exactly(reading, givens, solution):
    assert np.array_equal(read_digits(reading), np.asarray(givens))
    result = solve_reading(reading)
    assert result.status == "solved", result.message
    assert result.solution == solution
    return result


def assert_cells_read_and_solved(data: bytes, givens, solution, cells, value: int) -> None:
    """The picture's given `value` at each of `cells` is read as such, and it is solved."""
    reading = recognize(data)
    read = read_digits(reading)
    for cell in cells:
        assert givens[cell[0]][cell[1]] == value and read[cell] == value
    assert_solved_exactly(reading, givens, solution)


def held_out_picture(size, box, seed, convention="digits", photo=True, style=None):
    """A grid drawn as the benchmark draws its other sides (bench/recognition.py
    sizes_set): fonts held out of the models, the symbol model's held-out style above
    9x9 (or all in `style`), photos with perspective, blur, noise and JPEG.
    (bytes, givens, solution)"""
    from gridsight.synth.render import STYLES
    from gridsight.training.digits import held_out_fonts

    rng = random.Random(seed)
    fonts = held_out_fonts() if size <= 9 else font_split()[1]
    givens, solution = make_sudoku(rng, size, box)
    if style is None:
        style = rng.choice(sorted(STYLES)) if size <= 9 else HELD_OUT_STYLE
    image = render_sudoku(givens, font=rng.choice(fonts), style=style, box=box,
                          cell_px=rng.randint(28, 56) if size <= 9 else rng.randint(26, 40),
                          seed=seed, jitter=rng.uniform(0, 0.04), symbols=convention)
    if not photo:
        return to_bytes(image), givens, solution
    image, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.7, 0.95),
                          rotation=8, out_size=(1024, 768) if size <= 9 else (1600, 1200))
    return to_bytes(image, "JPEG", quality=90), givens, solution


def assert_right_or_reviewed(reading, givens, solution):
    """The side and every cell read right; the answer solved, or sent to review with the
    right solution (a kept reading's runner-up may be likely enough to ask)."""
    assert np.array_equal(read_digits(reading), np.asarray(givens))
    result = solve_reading(reading)
    assert result.status in ("solved", "needs_review") and result.solution == solution


def lighter_lined_photo(seed, size=8, box=(2, 4), convention="digits"):
    """A photo drawn in the app style with its thin lines lighter still, as faint print or
    a washed-out screen shows them (render.LIGHT_LINED). (bytes, givens, solution)"""
    from gridsight.synth.render import LIGHT_LINED

    return held_out_picture(size, box, seed, convention, style=LIGHT_LINED)


def serif_letters_picture(font_name, seed):
    """A 16x16 grid in letters A-P, one held-out serif face, the held-out style."""
    font = next(f for f in font_split()[1] if f.endswith("/" + font_name))
    rng = random.Random(seed)
    givens, solution = make_sudoku(rng, 16, (4, 4))
    image = render_sudoku(givens, font=font, style=HELD_OUT_STYLE, box=(4, 4),
                          cell_px=rng.randint(26, 40), seed=seed, jitter=rng.uniform(0, 0.04),
                          symbols="letters")
    return to_bytes(image), givens, solution
