"""A 6x6 photo whose skewed hull refines to a block of its cells.

The hull of a 6x6 photo (seed 4600006, as bench/recognition.py --sizes only draws it)
missed the grid's top-left corner and refined to its lower-left 4x4 block, whose lattice
lay on the lines at 1.0. The block's lines run on past its right side, but past its top
digits sit beside them and hid the run, so it passed as a 4x4 grid standing on its own.
"""

from __future__ import annotations

import random

import numpy as np

from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import STYLES, render_sudoku
from gridsight.training.digits import held_out_fonts
from services.recognizer import recognize
from services.recognizer.grid.blocks import around

from .conftest import read_digits, to_bytes


def bench_size_photo(size: int, box: tuple[int, int], seed: int):
    """(photo, givens) drawn as bench/recognition.py draws its photos of other sides."""
    rng = random.Random(seed)
    givens, _ = make_sudoku(rng, size, box)
    image = render_sudoku(givens, font=rng.choice(held_out_fonts()),
                          style=rng.choice(sorted(STYLES)), box=box,
                          cell_px=rng.randint(28, 56), seed=seed,
                          jitter=rng.uniform(0, 0.04), symbols="digits")
    photo, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.7, 0.95),
                          rotation=8, out_size=(1024, 768))
    return to_bytes(photo, "JPEG", quality=90), givens


def test_a_block_whose_lines_run_on_is_read_as_the_grid_around_it():
    data, givens = bench_size_photo(6, (2, 3), 4_600_006)
    reading = recognize(data, "auto")
    assert (reading.size, tuple(reading.box)) == (6, (2, 3))
    assert np.array_equal(read_digits(reading), np.asarray(givens))


def test_the_grids_around_a_block_enclose_it():
    block = np.array([[10, 10], [50, 10], [50, 50], [10, 50]], float)
    found = around(block, 4, np.array([0.0, 0.0, 0.0, 1.0]), 0.6)
    assert [side for side, _ in found] == [6, 8, 4]
    assert np.allclose(found[0][1], [[-10, -10], [70, -10], [70, 70], [-10, 70]])
    assert np.allclose(found[2][1], [[0, 0], [60, 0], [60, 60], [0, 60]])
    assert [side for side, _ in around(block, 4, np.zeros(4), 0.6)] == [6, 8]
