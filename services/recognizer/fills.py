"""Cage walls from fill colours, for grids whose cages are coloured areas without outlines.

Each cell's fill is the median colour of its inside (digits and sums are a minority of
its pixels); touching cages get different fills, cells of one cage the same. The colour
distance across an edge (CIELAB, delta E) becomes the probability of a wall there.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.cells import straighten

FILL_CELL = 24  # pixels per cell when sampling fills
INSIDE = (0.15, 0.85)  # the part of a cell sampled, clear of the grid lines
SAME_FILL, FILL_SPREAD = 6.0, 1.2  # delta E where a wall becomes likely, and how sharply
SURE = 0.98  # colour alone never makes a wall certain
CHROMA = 6.0  # a cell this far from grey is coloured
COLOURFUL = 0.5  # a grid with this share of coloured cells may have cages as fills


def cell_fills(colour: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """(n, n, 3) CIELAB fill of each cell (L in 0..100) from a BGR picture."""
    n = lattice.shape[0] - 1
    lab = cv2.cvtColor(straighten(colour, lattice, FILL_CELL), cv2.COLOR_BGR2Lab)
    lab = lab.astype(np.float32)
    lab[..., 0] *= 100 / 255
    lab[..., 1:] -= 128
    a, b = int(INSIDE[0] * FILL_CELL), int(INSIDE[1] * FILL_CELL)
    cells = lab.reshape(n, FILL_CELL, n, FILL_CELL, 3)[:, a:b, :, a:b]
    return np.median(cells.transpose(0, 2, 1, 3, 4).reshape(n, n, -1, 3), axis=2)


def colourful(fills: np.ndarray) -> bool:
    """Whether most cells are coloured, as in grids whose cages are colour fills."""
    return float((np.linalg.norm(fills[..., 1:], axis=-1) > CHROMA).mean()) >= COLOURFUL


def fill_walls(fills: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(walls_right (n, n-1), walls_down (n-1, n)) probabilities from fill differences."""
    across = np.linalg.norm(fills[:, 1:] - fills[:, :-1], axis=-1)
    down = np.linalg.norm(fills[1:] - fills[:-1], axis=-1)

    def prob(distance: np.ndarray) -> np.ndarray:
        p = 1 / (1 + np.exp(-(distance - SAME_FILL) / FILL_SPREAD))
        return np.clip(p, 1 - SURE, SURE)

    return prob(across), prob(down)


def sum_consistency(cages: list[list[tuple[int, int]]], numbered: set) -> float:
    """Share of `cages` whose first cell, and no other, holds a number."""
    good = sum(1 for cage in cages
               if min(cage) in numbered and len(numbered.intersection(cage)) == 1)
    return good / max(1, len(cages))
