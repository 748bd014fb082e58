"""Whether the glyphs of a grid sit one to a cell of a lattice laid on it.

A grid of light thin lines may show only its heavier lines, so its lines alone cannot say
how many cells it has; its digits can. Each digit is a blob about two thirds of a cell
high, centred in its cell. Where the lattice is coarser than the grid (a 9x9's box taken
as one cell), the blobs are a third of its cells high and lie off their middles; where it
is finer (a 4x4's cells in a 9x9 lattice), they are taller than its cells and centred on
its lines.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.straighten import PATCH, ink_map, straighten
from services.recognizer.grid.tuning import CENTRED, GLYPH_HIGH, GLYPH_LOW, INK_LEVEL


def centred_glyphs(gray: np.ndarray, lattice: np.ndarray) -> tuple[int, float]:
    """(how many blobs of a digit's size for the lattice's cells it holds, the share of
    them centred in a cell)."""
    ink = ink_map(straighten(gray, lattice))
    strokes = (ink >= INK_LEVEL).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    glyphs = centred = 0
    for x, y, w, h, _ in stats[1:count]:
        if not (GLYPH_LOW * PATCH <= h <= GLYPH_HIGH * PATCH and w <= GLYPH_HIGH * PATCH):
            continue
        glyphs += 1
        middle = (np.array([x + w / 2, y + h / 2]) / PATCH) % 1.0
        centred += bool((np.abs(middle - 0.5) <= CENTRED).all())
    return glyphs, centred / max(glyphs, 1)
