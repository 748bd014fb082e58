"""Whether a grid's lines run on past its sides (grid.sides_continued): what tells a block
of a larger grid from a grid standing among text, grain or stripes."""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.outlines import sides_continued

CELL = 40
MARGIN = 60


def ruled(side: int, shape: int) -> np.ndarray:
    """A binarized picture (ink 255) of a side x side grid of CELL-px cells."""
    ink = np.zeros((shape, shape), np.uint8)
    for k in range(side + 1):
        at = MARGIN + k * CELL
        cv2.line(ink, (MARGIN, at), (MARGIN + side * CELL, at), 255, 2)
        cv2.line(ink, (at, MARGIN), (at, MARGIN + side * CELL), 255, 2)
    return ink


def block(side: int) -> np.ndarray:
    """The corners (TL, TR, BR, BL) of the top-left side x side block of cells."""
    far = MARGIN + side * CELL
    return np.array([[MARGIN, MARGIN], [far, MARGIN], [far, far], [MARGIN, far]], np.float32)


def test_a_block_of_a_grid_runs_on_past_the_sides_the_grid_goes_on():
    """An 8x8 block in the corner of a 9x9 grid: its lines run on past its bottom and
    right sides only."""
    ink = ruled(9, 9 * CELL + 2 * MARGIN)
    assert sides_continued(ink, block(8), 8).tolist() == [0, 1, 0, 1]


def test_text_and_grain_beside_a_grid_are_not_its_lines_running_on():
    """Lines of text above and below a small grid, and grain beside it, fill the band on
    both sides of where a line would run on: the grid stands on its own."""
    shape = 6 * CELL + 2 * MARGIN
    ink = ruled(6, shape)
    for y in range(4, MARGIN - 4, 9):  # text bars above and below
        for x in range(0, shape, 37):
            cv2.rectangle(ink, (x, y), (x + 30, y + 5), 255, -1)
            cv2.rectangle(ink, (x, shape - y - 5), (x + 30, shape - y), 255, -1)
    grain = np.random.default_rng(1).random((shape, MARGIN - 4)) < 0.35
    ink[:, :MARGIN - 4][grain] = 255  # grain to the left
    assert (sides_continued(ink, block(6), 6) < 0.6).all()
