"""Ink as the nonogram reader sees it: dark strokes on 1, shaded clue areas paper, in a
picture or in a band of a straightened view made only where the picture reaches."""

from __future__ import annotations

import cv2
import numpy as np


def ink_block(shape: tuple[int, ...]) -> int:
    """ink_of's neighbourhood side for a picture of this shape."""
    return max(15, (max(shape) // 30) | 1)


def ink_of(gray: np.ndarray, offset: int = 20, block: int | None = None) -> np.ndarray:
    """Dark ink as 1 on 0; shaded clue areas (a step of a few grey levels) stay paper.
    `block`: the neighbourhood side (ink_block of the picture's shape unless given)."""
    block = ink_block(gray.shape) if block is None else block
    binary = cv2.adaptiveThreshold(gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                   block, offset)
    return binary


def band_ink(gray: np.ndarray, homography: np.ndarray, view: tuple[int, int], paper: int,
             block: int, band: tuple[int, int, int, int]) -> np.ndarray:
    """ink_of(view, 15, block)[y0:y1, x0:x1] of the straightened view, band = (x0, y0, x1,
    y1), warped only where the picture lands near the band: elsewhere the view is the
    border's even paper, whose every neighbourhood is alike, so no ink."""
    x0, y0, x1, y1 = band
    out = np.zeros((y1 - y0, x1 - x0), np.uint8)
    h, w = gray.shape
    reach = block // 2 + 2
    # A view pixel takes from the picture (linearly) where it maps within a pixel of it.
    ends = homography @ np.array([[-1, w, w, -1], [-1, -1, h, h], [1, 1, 1, 1]], np.float64)
    if (ends[2] > 0).all():  # the picture's corners in front: its footprint is their hull
        picture = (ends[:2] / ends[2]).T
        lo = np.floor(picture.min(axis=0)).astype(int) - reach
        hi = np.ceil(picture.max(axis=0)).astype(int) + reach
    else:
        lo, hi = np.array([x0, y0]), np.array([x1, y1])
    # The window: the band where the picture is near, grown by a neighbourhood so that
    # the threshold sees what it sees in the whole view, and kept inside the view.
    wx0, wy0 = max(x0, lo[0]), max(y0, lo[1])
    wx1, wy1 = min(x1, hi[0]), min(y1, hi[1])
    if wx0 >= wx1 or wy0 >= wy1:
        return out
    gx0, gy0 = max(0, wx0 - reach), max(0, wy0 - reach)
    gx1, gy1 = min(view[0], wx1 + reach), min(view[1], wy1 + reach)
    shift = np.array([[1, 0, -gx0], [0, 1, -gy0], [0, 0, 1]], np.float64)
    window = cv2.warpPerspective(gray, shift @ homography, (gx1 - gx0, gy1 - gy0),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=paper)
    # Every pixel kept lies a neighbourhood inside the window, or at the view's own edge,
    # so its threshold is the whole view's.
    ink = ink_of(window, 15, block)
    out[wy0 - y0:wy1 - y0, wx0 - x0:wx1 - x0] = ink[wy0 - gy0:wy1 - gy0, wx0 - gx0:wx1 - gx0]
    return out
