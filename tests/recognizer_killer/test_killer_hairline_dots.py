"""Huge cages outlined by dots one pixel wide beside the grid lines, at 100-px cells.

Some apps draw killers of 6-9-cell cages (sums up to 45) in 912-px screenshots, their
outlines dots one pixel wide a pixel or two inside the grid lines, thick box lines too.
Shrunk to the wall model's cells the dots land on the grid lines, and such killers were
read as classic grids. killer/hairlines.py looks at each edge in the picture's own pixels:
a cage line beside the grid line on both sides of it is a wall, whether paper lies between
them or the dots touch the line.

The pictures: make_killer(huge=True) drawn by the generator's hairline_huge look.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from gridsight.synth.killer_render import pick_sum_font, render_killer
from gridsight.synth.killer_styles import hairline_huge
from gridsight.synth.puzzles import make_killer, make_sudoku
from gridsight.synth.render import render_sudoku
from services.recognizer import recognize
from services.recognizer.killer.hairlines import dotted_walls
from services.solver import solve_reading

from .conftest import to_bytes

# Seeds whose dots lie 1.5 px from the line's edge (touching its anti-aliased rim) and
# 5.7 px from it.
TOUCHING, APART = 3, 4


@cache
def hairline_killer(seed: int):
    """(picture, puzzle, solution) of a huge-cage killer in the hairline_huge look."""
    rng = random.Random(seed)
    puzzle, solution = make_killer(rng, givens=True, huge=True)
    cell_px = rng.randint(92, 104)
    look = hairline_huge(rng, cell_px)
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_px,
                          margin=rng.randint(6, 24), sum_font=pick_sum_font(look, rng))
    return image, puzzle, solution


def truth(image) -> tuple[np.ndarray, np.ndarray]:
    return (np.array(image.info["walls_right"], bool), np.array(image.info["walls_down"], bool))


def gray_of(image) -> np.ndarray:
    return np.array(image.convert("L"))


@pytest.mark.parametrize("seed", [TOUCHING, APART])
def test_hairline_dots_beside_the_lines_are_walls(seed):
    image, _, _ = hairline_killer(seed)
    right, down = dotted_walls(gray_of(image), np.array(image.info["lattice"], np.float32))
    want_right, want_down = truth(image)
    assert (right == want_right).all() and (down == want_down).all()


def test_huge_hairline_killer_is_read_as_a_killer_with_its_walls():
    image, _, solution = hairline_killer(TOUCHING)
    reading = recognize(to_bytes(image), "auto")
    assert reading.kind == "killer"
    want_right, want_down = truth(image)
    assert ((np.array(reading.walls_right) >= 0.5) == want_right).all()
    assert ((np.array(reading.walls_down) >= 0.5) == want_down).all()
    read = {tuple(s.cell): s.candidates[0].value for s in reading.cage_sums}
    assert read == image.info["sums"]
    result = solve_reading(reading)
    assert result.solution == solution


def test_a_classic_grid_at_large_cells_shows_no_dotted_walls():
    givens, _ = make_sudoku(random.Random(5))
    image = render_sudoku(givens, seed=5, cell_px=100)
    lattice = np.array(image.info["lattice"], np.float32)
    right, down = dotted_walls(gray_of(image), lattice)
    assert not right.any() and not down.any()
    assert recognize(to_bytes(image), "auto").kind == "sudoku"
