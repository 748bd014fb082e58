"""A grid straightened cell by cell from its lattice, and its ink as relative darkness.

Each cell is mapped from its own four corners (bilinear, so a bent page comes out
straight), then turned into relative ink darkness (so shadows and grey lines do not
matter).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

PATCH = 32  # pixels per cell side after straightening


def straighten(gray: np.ndarray, lattice: np.ndarray, cell: int = PATCH) -> np.ndarray:
    """The grid as an (n*cell)-square image, each cell mapped from its own four corners."""
    cell_px = np.linalg.norm(lattice[0, -1] - lattice[0, 0]) / (lattice.shape[0] - 1)
    if cell_px > 1.6 * cell:  # shrinking: smooth first so thin strokes do not alias away
        gray = cv2.GaussianBlur(gray, (0, 0), 0.4 * cell_px / cell)
    lattice = np.ascontiguousarray(lattice, np.float64)
    map_x, map_y = _source_map(lattice.tobytes(), lattice.shape, cell)
    return cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=4)  # the grid is straightened more than once from the same lattice
def _source_map(lattice_bytes: bytes, shape: tuple, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each straightened pixel comes from: bilinear between its cell's four corners."""
    lattice = np.frombuffer(lattice_bytes, np.float64).reshape(shape)
    n = shape[0] - 1
    t = (np.arange(n * cell) + 0.5) / cell
    idx = np.minimum(t.astype(int), n - 1)
    frac = (t - idx)[:, None]
    # Along each of the n+1 lattice rows first, then down between the two rows around.
    along = lattice[:, idx] * (1 - frac) + lattice[:, idx + 1] * frac  # (n+1, side, 2)
    # Then down, one band of cell rows at a time (the same sums, held in cache).
    fv = frac[:, None]
    map_x = np.empty((n * cell, n * cell), np.float32)
    map_y = np.empty((n * cell, n * cell), np.float32)
    for r in range(n):
        rows = slice(r * cell, (r + 1) * cell)
        band = along[r] * (1 - fv[rows]) + along[r + 1] * fv[rows]  # (cell, side, 2)
        map_x[rows], map_y[rows] = band[..., 0], band[..., 1]
    return map_x, map_y


def ink_map(straight: np.ndarray, cell: int = PATCH) -> np.ndarray:
    """Relative darkness against the local paper, scaled so the grid's ink is about 1.
    `cell`: the straightened picture's pixels per cell."""
    gray = straight.astype(np.float32) + 1.0
    # Paper brightness: a max filter wider than any stroke, then smoothed. A max commutes
    # with adding 1, so 8-bit pictures are dilated as bytes (the same values, 3x faster).
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cell // 2 + 1, cell // 2 + 1))
    brightest = cv2.dilate(np.ascontiguousarray(straight), kernel).astype(np.float32) + 1.0 \
        if straight.dtype == np.uint8 else cv2.dilate(gray, kernel)
    paper = cv2.GaussianBlur(brightest, (0, 0), cell / 4)
    paper = np.maximum(paper, gray)
    darkness = 1.0 - gray / paper
    contrast = max(0.15, float(np.percentile(darkness, 99.5)))
    # Not clipped at 1: digits darker than the lines keep their inner detail.
    return np.clip(darkness / contrast, 0.0, 3.0)
