"""Median and percentiles as numpy's give them to the bit, cheaper where the reader takes
many: of small 1-D arrays (numpy's own spend most of their time on checks and dispatch
for a few hundred values, and the cell readers take several per cell of every picture:
one partition serves them all), and of whole grey pictures (read off a histogram of the
256 levels instead of a partition of every pixel). numpy's linear interpolation is
followed step for step (tests/recognizer/test_ranks.py compares them).
"""

from __future__ import annotations

import cv2
import numpy as np


def ranked(values: np.ndarray, percents: tuple[float, ...], median: bool = False) -> list:
    """[np.percentile(values, q) for q in percents] (+ [np.median(values)] when `median`)
    of a non-empty 1-D array, as numpy's scalars."""
    n = values.size
    kth = set()
    for q in percents:
        below = int(np.floor((q / 100) * (n - 1)))
        kth |= {below, min(below + 1, n - 1)}
    middle = [(n - 1) // 2, n // 2]
    part = np.partition(values, sorted(kth | (set(middle) if median else set())))
    out = _interpolated(part.__getitem__, n, percents)
    if median:
        out.append(np.mean(part[middle]) if n % 2 == 0 else part[n // 2])
    return out


def _interpolated(order, n: int, percents: tuple[float, ...]) -> list:
    """The percentiles of n values, from `order(k)`: the k-th smallest of them."""
    out = []
    for q in percents:
        at = (q / 100) * (n - 1)
        below = int(np.floor(at))
        a, b, gamma = order(below), order(min(below + 1, n - 1)), at - below
        step = b - a
        out.append(b - step * (1 - gamma) if gamma >= 0.5 else a + step * gamma)
    return out


def grey_counts(gray: np.ndarray) -> np.ndarray:
    """(256,) int64: how many pixels of a uint8 picture hold each grey level. OpenCV's
    histogram is several times cheaper than numpy's count, and exact while its float32
    counts are (below 2**24 pixels)."""
    if gray.size >= 1 << 24:
        return np.bincount(gray.ravel(), minlength=256)
    return cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel().astype(np.int64)


def grey_ranked(gray: np.ndarray, percents: tuple[float, ...], median: bool = False) -> list:
    """ranked of a uint8 picture's pixels (np.percentile(gray, q), np.median(gray)), from
    the count of each grey level: for a whole picture (half a million pixels and more)
    several times cheaper than a partition."""
    at_most = np.cumsum(grey_counts(gray))
    levels = np.arange(256, dtype=np.uint8)

    def order(k: int) -> np.uint8:
        return levels[int(np.searchsorted(at_most, k, side="right"))]

    n = int(at_most[-1])
    out = _interpolated(order, n, percents)
    if median:
        middle = (order((n - 1) // 2), order(n // 2))
        out.append(np.mean(middle, dtype=np.float64) if n % 2 == 0 else np.float64(middle[1]))
    return out
