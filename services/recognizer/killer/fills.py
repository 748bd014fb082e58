"""Cage walls from fill colours, for grids whose cages are coloured areas without outlines.

Each cell's fill is the median colour of its inside (digits and sums are a minority of
its pixels); touching cages get different fills, cells of one cage the same. The colour
distance across an edge (CIELAB, delta E) becomes the probability of a wall there.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.straighten import straighten
from services.recognizer.killer.tuning import (
    CHROMA,
    COLOURFUL,
    FILL_CELL,
    FILL_SPREAD,
    GREY_LINE,
    LINE_BAND,
    LINE_CELL,
    LINE_CHROMA,
    LINE_SHARE,
    SAME_FILL,
    SURE,
)
from services.recognizer.killer.tuning import (
    FILL_INSIDE as INSIDE,
)


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


def fill_walls(fills: np.ndarray, hue_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(walls_right (n, n-1), walls_down (n-1, n)) probabilities from fill differences;
    `hue_only`: from the colour (a*, b*) alone, not the lightness a shadow changes."""
    if hue_only:
        fills = fills.copy()
        fills[..., 0] = 0.0
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


def coloured_line_walls(colour: np.ndarray, lattice: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray] | None:
    """Walls from cage boundaries drawn on the grid lines in a colour the grid lines lack.

    Along each edge between two cells, the colour of the line beyond that of the cells on
    either side: a coloured boundary stands out by its chroma, a grey grid line does not.
    None when the edges do not split into coloured and grey ones as a killer's would.
    """
    n = lattice.shape[0] - 1
    p = LINE_CELL
    lab = cv2.cvtColor(straighten(colour, lattice, p), cv2.COLOR_BGR2Lab).astype(np.float32)
    chroma = np.linalg.norm(lab[..., 1:] - 128, axis=-1)
    a, b = int(0.25 * p), int(0.75 * p)
    inside = chroma.reshape(n, p, n, p)[:, a:b, :, a:b]
    fill = np.median(inside.transpose(0, 2, 1, 3).reshape(n, n, -1), axis=2)
    right = np.zeros((n, n - 1), np.float32)
    down = np.zeros((n - 1, n), np.float32)
    for k in range(1, n):
        x = k * p
        band = chroma[:, x - LINE_BAND:x + LINE_BAND + 1].max(axis=1).reshape(n, p)
        right[:, k - 1] = np.median(band[:, a:b], axis=1) - np.maximum(fill[:, k - 1],
                                                                         fill[:, k])
        band = chroma[x - LINE_BAND:x + LINE_BAND + 1, :].max(axis=0).reshape(n, p)
        down[k - 1, :] = np.median(band[:, a:b], axis=1) - np.maximum(fill[k - 1], fill[k])
    scores = np.concatenate([right.ravel(), down.ravel()])
    walls = scores >= LINE_CHROMA
    if not LINE_SHARE[0] <= walls.mean() <= LINE_SHARE[1]:
        return None
    if np.median(scores[~walls]) > GREY_LINE:
        return None  # the grid's own lines are coloured too: no telling them apart

    def prob(score: np.ndarray) -> np.ndarray:
        return np.clip(1 / (1 + np.exp(-(score - LINE_CHROMA / 2) / 2.0)), 1 - SURE, SURE)

    return prob(right), prob(down)
