"""stroke_measures (every cell of a grid at once) gives to the bit what the measures of one
cell give (stroke_measures_of below, the rule written plainly), on straightened
screenshots, photographed pages written on, shaded and all-ink cells."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.recognizer.cells.features import cells_of
from services.recognizer.cells.kinds import (
    CELL,
    SIZE,
    STROKE_MARGIN,
    _inset_lab,
    stroke_measures,
)
from services.recognizer.grid.straighten import ink_map


def stroke_measures_of(ink: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The measures of one cell's ink and colour (BGR), step by step."""
    p = ink.shape[0]
    m = int(STROKE_MARGIN * p)
    inner = ink[m:p - m, m:p - m]
    strokes = inner >= 0.35
    n_ink = int(strokes.sum())
    if n_ink < 4:
        return np.zeros(10, np.float32)
    if strokes.all():
        thickness = inner.shape[0] / 2
    else:
        dist = cv2.distanceTransform(strokes.astype(np.uint8), cv2.DIST_L2, 3)
        thickness = float(dist[strokes].mean())
    lab = _inset_lab(colour[m:p - m, m:p - m])
    paper = np.median(lab[~strokes], axis=0) if (~strokes).any() else \
        lab.reshape(-1, 3).mean(0)
    ink_lab = lab[strokes].mean(axis=0) - paper
    _, _, stats, _ = cv2.connectedComponentsWithStats(strokes.astype(np.uint8), connectivity=8)
    big = stats[1:, cv2.CC_STAT_AREA] >= 0.004 * inner.size
    tallest = float(stats[1:, cv2.CC_STAT_HEIGHT][big].max()) / inner.shape[0] \
        if big.any() else 0.0
    ys = np.nonzero(strokes.any(axis=1))[0]
    dark = inner[strokes]
    return np.array([
        float(np.median(dark)), float(np.percentile(dark, 90)), thickness / p * 10,
        ink_lab[0] / 50, ink_lab[1] / 20, ink_lab[2] / 20,
        float(big.sum()) / 4, tallest, ys.min() / inner.shape[0], n_ink / inner.size * 4,
    ], np.float32)


def straightened_grids(seed: int):
    """Grids straightened at CELL pixels a cell, in colour: a screenshot, a page written
    on and its photograph, and the photograph with shaded and blacked-out cells."""
    rng = random.Random(seed)
    givens, _ = make_sudoku(rng)
    page = half_solved_page(seed).image
    side = SIZE * CELL
    for picture in (render_sudoku(givens, style="screenshot", seed=seed), page,
                    photograph(page, rng=rng)[0]):
        colour = cv2.cvtColor(np.asarray(picture.convert("RGB")), cv2.COLOR_RGB2BGR)
        yield cv2.resize(colour, (side, side), interpolation=cv2.INTER_AREA)
    damaged = cv2.resize(colour, (side, side), interpolation=cv2.INTER_AREA)
    damaged[:CELL, :CELL] = 20  # all ink
    damaged[CELL:2 * CELL, :2 * CELL] //= 3  # shaded
    yield damaged


@pytest.mark.parametrize("seed", [4, 31])
def test_every_cell_at_once_equals_each_cell_alone(seed):
    m = int(STROKE_MARGIN * CELL)
    inked = 0
    for straight in straightened_grids(seed):
        ink = ink_map(cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY))
        inks = cells_of(ink, SIZE, CELL)
        lab = _inset_lab(straight.reshape(SIZE, CELL, SIZE, CELL, 3).transpose(0, 2, 1, 3, 4)
                         [:, :, m:CELL - m, m:CELL - m])
        together = stroke_measures(inks, lab)
        alone = np.stack([stroke_measures_of(inks[r * SIZE + c], straight[
            r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL]) for r in range(SIZE)
            for c in range(SIZE)])
        assert together.dtype == np.float32
        assert np.array_equal(together, alone)
        inked += int(alone.any(axis=1).sum())
    assert inked >= 100
