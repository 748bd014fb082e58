"""Grids around a block of cells whose lines run on past one of its sides.

A skewed hull in a photo (a corner of the grid lost in a shadow) can be refined to a
4x4 block of a 6x6 or 8x8 grid's cells whose lattice lies on the lines at 0.9-1.0. Its
lines run on past one side clearly, but past the other side they share with the grid
only where no digit sits beside them (see grid.sides_continued), so it passes as a grid
standing on its own. The grids of larger sides around the block, and of its side a
cell about it, are traced too, and the best one lying well on the lines wins.
"""

from __future__ import annotations

import cv2
import numpy as np

# Sides of a grid a block of `side` cells may be a corner of (a 4x4 box of a 16x16 grid
# runs on past two sides and is ruled out before).
LARGER = {4: (6, 8), 6: (8,)}


def _mapped(corners: np.ndarray, side: int, box: tuple[float, float, float, float]):
    """The quad whose cell coordinates are `box` (left, top, right, bottom) in the block
    of side x side cells at `corners` (top-left, top-right, bottom-right, bottom-left)."""
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    to_picture = cv2.getPerspectiveTransform(square, corners.astype(np.float32))
    left, top, right, bottom = box
    quad = np.array([[[left, top], [right, top], [right, bottom], [left, bottom]]],
                    np.float32)
    return cv2.perspectiveTransform(quad, to_picture)[0].astype(np.float64)


def around(corners: np.ndarray, side: int, runs_on: np.ndarray, past: float):
    """(side, outline) candidates for the grid holding the block at `corners`: for each
    larger side, the block widened by the extra cells on every side (the block's own
    lattice can be a row off the lines, its cells not square, so the larger grid's place
    is left to grid.trimmed_outlines, which finds its evenly spaced rules inside); and,
    when the block's lines run on past a side (`runs_on` >= `past`), the block widened by
    a cell, for a grid of its side traced a row off."""
    found = []
    for larger in LARGER.get(side, ()):
        extra = larger - side
        found.append((larger, _mapped(corners, side, (-extra, -extra, side + extra,
                                                     side + extra))))
    if (runs_on >= past).any():
        found.append((side, _mapped(corners, side, (-1, -1, side + 1, side + 1))))
    return found
