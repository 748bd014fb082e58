"""digit_masks (every cell of a grid at once) gives exactly what digit_mask gives cell by
cell, on the project's rendered screenshots, photographed pages written on, their ink
at other contrasts and plain noise."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.recognizer.cells.features import cells_of, digit_mask, digit_masks
from services.recognizer.grid.straighten import PATCH, ink_map

CELL_SIDES = (PATCH, 40)  # the digit reader's cells and the cell-kind model's


def grid_inks(seed: int, p: int) -> list[np.ndarray]:
    """Ink maps of 9p x 9p pictures: a screenshot, a page written on, photographed, and
    the same at twice the contrast (as the cell model's per-cell gain makes it)."""
    rng = random.Random(seed)
    givens, _ = make_sudoku(rng)
    pictures = [render_sudoku(givens, style=style, seed=seed) for style in ("screenshot", "bold")]
    page = half_solved_page(seed).image
    pictures += [page, photograph(page, rng=rng)[0]]
    inks = []
    for picture in pictures:
        gray = cv2.cvtColor(np.asarray(picture.convert("RGB")), cv2.COLOR_RGB2GRAY)
        ink = ink_map(cv2.resize(gray, (9 * p, 9 * p), interpolation=cv2.INTER_AREA), p)
        inks += [ink, ink * np.float32(2.0)]
    noise = np.random.default_rng(seed).random((9 * p, 9 * p), np.float32) * 1.2
    return inks + [noise, np.zeros((9 * p, 9 * p), np.float32)]


@pytest.mark.parametrize("p", CELL_SIDES)
@pytest.mark.parametrize("seed", [3, 17])
def test_all_cells_at_once_equal_each_cell_alone(seed, p):
    seen = 0
    for ink in grid_inks(seed, p):
        cells = cells_of(ink, 9, p)
        together = digit_masks(cells, 9)
        alone = np.stack([digit_mask(cell) for cell in cells])
        assert together.dtype == bool and together.shape == alone.shape
        assert np.array_equal(together, alone)
        seen += int(alone.any(axis=(1, 2)).sum())
    assert seen >= 200  # cells with a digit's blob among them, not blanks alone
