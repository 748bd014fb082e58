"""A printed glyph cut from a cell's ink, split where two ran together, and its features.

Shared by the cage sums (killer/sums.py) and the nonogram clues (nonogram/clues.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

GLYPH = 28  # side of the normalised glyph image
GLYPH_BOX = 20  # the glyph's longer side is scaled to this


@dataclass
class Glyph:
    x: int
    y: int
    w: int
    h: int
    image: np.ndarray  # the blob's ink, cut to its box
    # The first glyph of a number may carry a doubt about a thin bar beside it: `lead`, a
    # bar level with the number just left of it that was set aside as the cage outline
    # (perhaps a '1'); `bar`, this glyph is a bar over the outline's side that was kept
    # as a '1' (perhaps the outline).
    lead: Glyph | None = None
    bar: bool = False


def cut_column(mask: np.ndarray) -> int:
    """Where to cut a blob of two touching digits: a thin column near the middle."""
    w = mask.shape[1]
    cols = mask.sum(axis=0).astype(float)
    lo, hi = int(0.3 * w), int(0.7 * w) + 1
    span = np.arange(lo, hi)
    # Digits of a number are about equally wide: the cut stays near the middle.
    cost = cols[lo:hi] + cols.max() * ((span - w / 2) / (w / 2)) ** 2
    return lo + int(cost.argmin())


def split_glyph(glyph: Glyph) -> list[Glyph]:
    """The two digits a wide glyph may be."""
    cut = cut_column(glyph.image > 0)
    h = glyph.h
    left = trimmed(glyph.image[:, :cut], 0, 0, cut, h)
    right = trimmed(glyph.image[:, cut:], 0, 0, glyph.w - cut, h)
    return [Glyph(glyph.x + left.x, glyph.y + left.y, left.w, left.h, left.image),
            Glyph(glyph.x + cut + right.x, glyph.y + right.y, right.w, right.h, right.image)]


def trimmed(ink: np.ndarray, x: int, y: int, w: int, h: int) -> Glyph:
    """The glyph cut to the rows and columns its ink really covers."""
    cut = ink[y:y + h, x:x + w]
    rows, cols = np.flatnonzero(cut.max(axis=1) > 0), np.flatnonzero(cut.max(axis=0) > 0)
    if rows.size == 0 or cols.size == 0:
        return Glyph(x, y, w, h, cut)
    cut = cut[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    return Glyph(x + int(cols[0]), y + int(rows[0]), cut.shape[1], cut.shape[0], cut)


def centred(blob: np.ndarray, scale: float, shape: tuple[int, int]) -> np.ndarray:
    """`blob` resized by `scale` (area-averaged) and centred on a blank float image of
    `shape` (rows, columns): how glyphs are normalised before a model sees them."""
    h, w = blob.shape
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    out = np.zeros(shape, np.float32)
    top, left = (shape[0] - nh) // 2, (shape[1] - nw) // 2
    out[top:top + nh, left:left + nw] = cv2.resize(blob, (nw, nh), interpolation=cv2.INTER_AREA)
    return out


@cache
def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((GLYPH, GLYPH), (14, 14), (7, 7), (7, 7), 9)


def glyph_features(glyph: Glyph, text_height: float) -> np.ndarray:
    """HOG, half-resolution pixels and shape of one glyph, centred and scaled."""
    blob = glyph.image.astype(np.float32)
    blob = blob / max(float(blob.max()), 1e-3)  # faint print reads like dark print
    h, w = blob.shape
    digit = centred(blob, GLYPH_BOX / max(h, w), (GLYPH, GLYPH))
    hog = _hog().compute((digit * 255).astype(np.uint8)).ravel()
    pixels = cv2.resize(digit, (GLYPH // 2, GLYPH // 2), interpolation=cv2.INTER_AREA).ravel()
    shape = np.array([h / text_height, w / h, float(blob.mean())], np.float32) * 4
    return np.concatenate([hog, pixels, shape]).astype(np.float32)
