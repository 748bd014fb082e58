"""An out-of-focus grid sharpened back to what the digit model learnt, before its cells
are read.

A phone out of focus blurs by the cell, not by the pixel: a large grid is as soft as a
small one. The digit model's training photos blur by the pixel (0.3-2.4 px), so their
cells, straightened to PATCH pixels, are rarely softer than a few per cent of a cell;
real photos out of focus are, and their digits are read wrong with confidence (an 8 as
a 9). How soft a grid is comes from its steepest edges: a step blurred by a Gaussian of
sigma pixels rises at most 1 / (sigma * sqrt(2 pi)) of its contrast a pixel, whatever
the digits' size or weight. A grid softer than nearly all the training photos is
sharpened by an unsharp mask of that sigma; any other grid is read exactly as before.
"""

from __future__ import annotations

import cv2
import numpy as np

# The 5th percentile of edge_sharpness over the digit model's training photos
# (gridsight.training.digits.sample_grid, photos only, 262 grids): softer grids are the
# ones it learnt least from. On synthetic photos defocused by 10 % of a cell this
# sharpening mends 55-76 % of the misread cells, at 12 % 37-56 %; none of 114 sharp
# synthetic photos is touched.
TRAINED_SHARPNESS = 0.37
# Gaussian sigma, in straightened pixels, per unit of 1 / edge_sharpness: a blurred step's
# steepest central difference (over two pixels) is 2 / (sigma * sqrt(2 pi)) ~ 0.8 / sigma
# of its contrast.
SIGMA_PER_SOFTNESS = 0.8
AMOUNT = 2.0  # unsharp mask strength, chosen on synthetic defocused photos (1.5-3 tried)


def edge_sharpness(straight: np.ndarray) -> float:
    """The steepest edges' rise per pixel (99.5th percentile of the central-difference
    gradient) over the picture's grey range (1st to 99th percentile)."""
    gray = straight.astype(np.float32)
    low, high = _quantiles(gray, (0.01, 0.99))
    steepness = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=1),
                              cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=1))
    return float(_quantiles(steepness, (0.995,))[0]) / max(float(high - low), 1.0)


def _quantiles(values: np.ndarray, shares: tuple[float, ...]) -> np.ndarray:
    """The values at these shares of the sorted values, by partition (a full percentile
    sorts, and this runs on every photo)."""
    flat = values.ravel()
    ranks = [min(flat.size - 1, int(share * flat.size)) for share in shares]
    return np.partition(flat, ranks)[ranks]


def in_focus(straight: np.ndarray) -> np.ndarray:
    """The straightened grid as it is when it is as sharp as the training photos, else
    sharpened by the blur its edges show (uint8, the same shape)."""
    sharpness = edge_sharpness(straight)
    if sharpness >= TRAINED_SHARPNESS:
        return straight
    gray = straight.astype(np.float32)
    # A picture with no edges at all (sharpness near 0) would ask for an endless mask.
    sigma = SIGMA_PER_SOFTNESS / max(sharpness, 0.05)
    blurred = cv2.GaussianBlur(gray, (0, 0), sigma)
    return np.clip(gray + AMOUNT * (gray - blurred), 0, 255).astype(np.uint8)
