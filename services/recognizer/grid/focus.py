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

That sigma is only an estimate (its rank correlation with the true blur is -0.92 on
synthetic photos), and a soft digit on the edge between two readings flips with the
mask: a real 640x480 photo's 8 was read as a 3 (p 0.59) at the estimated sigma, as an 8
plainly and with a stronger mask. So a soft grid is read at several plausible sigmas and
strengths (focus_views) and the digit model's probabilities averaged over them
(pipeline.read_cells).
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.tuning import (
    AMOUNT,
    AMOUNTS,
    SIGMA_PER_SOFTNESS,
    SIGMA_SCALES,
    SOFT_PICTURE,
    TRAINED_SHARPNESS,
)
from services.recognizer.ranks import grey_counts


def edge_sharpness(straight: np.ndarray) -> float:
    """The steepest edges' rise per pixel (99.5th percentile of the central-difference
    gradient) over the picture's grey range (1st to 99th percentile)."""
    if straight.dtype == np.uint8:
        return _uint8_edge_sharpness(straight)
    gray = straight.astype(np.float32)
    low, high = _quantiles(gray, (0.01, 0.99))
    steepness = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=1),
                              cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=1))
    return float(_quantiles(steepness, (0.995,))[0]) / max(float(high - low), 1.0)


def _uint8_edge_sharpness(gray: np.ndarray) -> float:
    """edge_sharpness of a uint8 picture from histograms: its grey levels and its squared
    gradients are whole numbers, so each rank is read off a cumulative count instead of
    a partition of every pixel (this runs on every picture, more than once). The root
    is rounded correctly (cv2.magnitude's last bit varies with the memory's alignment)."""
    grey_range = _grey_range(gray)
    dx = cv2.Sobel(gray, cv2.CV_16S, 1, 0, ksize=1).astype(np.int32)
    dy = cv2.Sobel(gray, cv2.CV_16S, 0, 1, ksize=1).astype(np.int32)
    (squared,) = _ranked(np.cumsum(np.bincount((dx * dx + dy * dy).ravel())), (0.995,))
    return float(np.sqrt(np.float32(squared))) / grey_range


def _grey_range(gray: np.ndarray) -> float:
    """A uint8 picture's grey levels from its 1st to its 99th percentile (at least 1)."""
    low, high = _ranked(np.cumsum(grey_counts(gray)), (0.01, 0.99))
    return max(float(high - low), 1.0)


def plainly_sharp(gray: np.ndarray, sharpness: float) -> bool:
    """True only where edge_sharpness(gray) >= `sharpness` (uint8), known from enough
    steep steps along one axis alone: a step of t grey levels on either axis makes a
    squared gradient of at least t*t. Several times cheaper than the ranks of every
    squared gradient; False says nothing (the full measure decides)."""
    grey_range = _grey_range(gray)
    # The smallest whole step clearly past `sharpness` of the grey range.
    step = int(sharpness * grey_range) + 1
    while step / grey_range < sharpness:  # as edge_sharpness divides
        step += 1
    if step > 255:
        return False
    steepest = cv2.max(cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 1, 0, ksize=1)),
                       cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 0, 1, ksize=1)))
    steep = cv2.countNonZero(cv2.compare(steepest, step, cv2.CMP_GE))
    # edge_sharpness ranks the squared gradients at min(size - 1, int(0.995 size)): the
    # value there is at least step*step when at most that many lie below it.
    return gray.size - steep <= min(gray.size - 1, int(0.995 * gray.size))


def _ranked(counts: np.ndarray, shares: tuple[float, ...]) -> list[int]:
    """The whole values at these shares of the sorted values (as _quantiles ranks them),
    from the cumulative count of each value."""
    size = int(counts[-1])
    return [int(np.searchsorted(counts, min(size - 1, int(share * size)), side="right"))
            for share in shares]


def _quantiles(values: np.ndarray, shares: tuple[float, ...]) -> np.ndarray:
    """The values at these shares of the sorted values, by partition (a full percentile
    sorts)."""
    flat = values.ravel()
    ranks = [min(flat.size - 1, int(share * flat.size)) for share in shares]
    return np.partition(flat, ranks)[ranks]


def in_focus(straight: np.ndarray) -> np.ndarray:
    """The straightened grid as it is when it is as sharp as the training photos, else
    sharpened by the blur its edges show (uint8, the same shape)."""
    return focus_views(straight)[0]


def focus_views(straight: np.ndarray) -> list[np.ndarray]:
    """[the grid as it is] when it is as sharp as the training photos; else the grid
    sharpened at each of SIGMA_SCALES x AMOUNTS, the estimated sigma at AMOUNT first."""
    sharpness = edge_sharpness(straight)
    if sharpness >= TRAINED_SHARPNESS:
        return [straight]
    gray = straight.astype(np.float32)
    # A picture with no edges at all (sharpness near 0) would ask for an endless mask.
    sigma = SIGMA_PER_SOFTNESS / max(sharpness, 0.05)
    return [_unsharp(gray, scale * sigma, amount)
            for scale in sorted(SIGMA_SCALES, key=lambda s: s != 1.0) for amount in AMOUNTS]


def _unsharp(gray: np.ndarray, sigma: float, amount: float) -> np.ndarray:
    """`gray` (float32) with `amount` times its detail finer than `sigma` added (uint8)."""
    detail = gray - cv2.GaussianBlur(gray, (0, 0), sigma)
    return np.clip(gray + amount * detail, 0, 255).astype(np.uint8)


def sharpened_picture(gray: np.ndarray) -> np.ndarray | None:
    """The whole picture sharpened by the blur its edges show, or None when it is not far
    out of focus. Such a picture's thin light grid lines blur into the paper and
    binarize in pieces, while the page's own edge stays a strong outline."""
    if plainly_sharp(gray, SOFT_PICTURE):
        return None
    sharpness = edge_sharpness(gray)
    if sharpness >= SOFT_PICTURE:
        return None
    return _unsharp(gray.astype(np.float32), SIGMA_PER_SOFTNESS / max(sharpness, 0.05), AMOUNT)
