"""Median and percentiles of small 1-D arrays, as numpy's give them to the bit.

numpy's own spend most of their time on checks and dispatch for arrays of a few hundred
values, and the cell readers take several per cell of every picture. One partition
serves them all; numpy's linear interpolation is followed step for step
(tests/recognizer/test_ranks.py compares them on random arrays).
"""

from __future__ import annotations

import numpy as np


def ranked(values: np.ndarray, percents: tuple[float, ...], median: bool = False) -> list:
    """[np.percentile(values, q) for q in percents] (+ [np.median(values)] when `median`)
    of a non-empty 1-D array, as numpy's scalars."""
    n = values.size
    spots = []
    for q in percents:
        at = (q / 100) * (n - 1)
        below = int(np.floor(at))
        spots.append((below, min(below + 1, n - 1), at - below))
    middle = ((n - 1) // 2, n // 2)
    kth = sorted({k for lo, hi, _ in spots for k in (lo, hi)} | (set(middle) if median else set()))
    part = np.partition(values, kth)
    out = []
    for lo, hi, gamma in spots:
        a, b = part[lo], part[hi]
        step = b - a
        out.append(b - step * (1 - gamma) if gamma >= 0.5 else a + step * gamma)
    if median:
        out.append(np.mean(part[list(middle)]) if n % 2 == 0 else part[n // 2])
    return out


def column_medians(values: np.ndarray) -> np.ndarray:
    """np.median(values, axis=0) of a non-empty 2-D array."""
    n = values.shape[0]
    middle = [(n - 1) // 2, n // 2]
    part = np.partition(values, sorted(set(middle)), axis=0)
    return np.mean(part[middle], axis=0) if n % 2 == 0 else part[n // 2]
