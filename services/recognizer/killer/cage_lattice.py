"""Killer sudoku: the grid lattice traced among dashed cage outlines.

The grid lines must be told from cage lines. Both are thin dark lines; grid lines are
solid, cage lines broken. A grey-level opening along each line direction keeps only ink
that runs unbroken for a third of a cell, so `killer_lattice` traces grid lines alone.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.lattice import straightening
from services.recognizer.killer.tuning import OUTER_NEAR, OUTER_SHARE, OUTER_SLIP, TRACE_CELL


def thin_ink(gray: np.ndarray, cell_px: float) -> np.ndarray:
    """Darkness of thin strokes against their surroundings, whatever the paper's shade.

    A black-hat (closing minus image) sees lines and digits but not a highlighted band's
    edge or a cage's fill colour; scaled so the darkest strokes are about 1.
    """
    k = max(3, int(0.16 * cell_px)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel).astype(np.float32) + 1.0
    # Darkness relative to the paper around it: the same under a shadow as in full light.
    hat = (paper - gray.astype(np.float32) - 1.0) / paper
    top = max(0.1, float(np.percentile(hat, 99.7)))
    return np.clip(hat / top, 0.0, 1.0)


def solid_lines(ink: np.ndarray, cell_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(horizontal, vertical) ink that runs unbroken for a third of a cell: grid lines."""
    length = max(5, int(0.33 * cell_px))
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return horizontal, vertical


# --- The lattice -----------------------------------------------------------------------


def killer_lattice(gray: np.ndarray, corners: np.ndarray, size: int = 9,
                   box: tuple[int, int] = (3, 3)) -> np.ndarray:
    """(size+1, size+1, 2) grid line intersections, tracing solid lines only; `box`
    (rows, columns) says which lines are box lines, traced before the thin ones."""
    cell_px = float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(
        corners[3] - corners[0])) / (2 * size)
    horizontal, vertical = solid_lines(thin_ink(gray, cell_px), cell_px)
    c = TRACE_CELL
    margin = c
    side = size * c
    matrix = straightening(corners, size, c)
    dim = side + 2 * margin
    flags = cv2.INTER_AREA if cell_px > c else cv2.INTER_LINEAR
    h_map = cv2.warpPerspective(horizontal, matrix, (dim, dim), flags=flags)
    v_map = cv2.warpPerspective(vertical, matrix, (dim, dim), flags=flags)
    ideal = margin + c * np.arange(size + 1, dtype=float)
    rows = _fit_lines(h_map, ideal, box[0])  # rows[k](x) -> y
    cols = _fit_lines(v_map.T, ideal, box[1])  # cols[k](y) -> x
    # Crossings: column k's x at row r's y and back, to the fixed point (all at once).
    x = np.tile(ideal, (size + 1, 1))  # x[r, k]
    y = x.T.copy()
    for _ in range(4):
        for k in range(size + 1):
            x[:, k] = np.polyval(cols[k], y[:, k])
        for r in range(size + 1):
            y[r] = np.polyval(rows[r], x[r])
    lattice = np.stack([x, y], axis=-1)
    back = np.linalg.inv(matrix)
    return cv2.perspectiveTransform(lattice.reshape(-1, 1, 2), back).reshape(lattice.shape)


def _fit_lines(mask: np.ndarray, ideal: np.ndarray, box: int = 3) -> list[np.ndarray]:
    """Polynomial (across as a function of along) per line; `mask` is [across, along].

    Outer lines first, then box lines (every `box`-th), then the thin ones: a thin line
    taken for a box line is looked for in a wide window, where a solid cage outline just
    inside a cell can capture it (6x6 grids with 2x3 boxes). Each is looked for, one
    cell-long segment at a time, near the blend of the lines already found on either side
    (so a darker cage line just inside a cell does not capture it), and a gentle curve
    through its segments follows a bent page.
    """
    n = len(ideal) - 1
    c = ideal[1] - ideal[0]
    strength = float(np.percentile(mask, 99.5)) or 1.0
    centres = ideal[:-1] + c / 2
    boxes = [k for k in range(1, n) if k % box == 0]
    thin = [k for k in range(1, n) if k % box]
    polys: dict[int, np.ndarray] = {}
    for k in [0, n] + boxes + thin:
        below = max((j for j in polys if j < k), default=None)
        above = min((j for j in polys if j > k), default=None)
        if below is None or above is None:
            predicted, window = np.full(n, ideal[k]), 0.3 * c
        else:
            w = (k - below) / (above - below)
            predicted = (1 - w) * np.polyval(polys[below], centres) + \
                w * np.polyval(polys[above], centres)
            # Between two found lines a thin line sits close to the blend: a narrow
            # window keeps cage lines (inset a tenth of a cell or more) out.
            window = 0.2 * c if k % box == 0 else 0.06 * c
        between = below is not None and above is not None
        outward = {0: -1, n: 1}.get(k, 0)
        polys[k] = _trace_line(mask, predicted, window, centres, c, strength, between, outward)
        if polys[k] is None:
            polys[k] = np.polyfit(centres, predicted, 2)
    return [polys[k] for k in range(n + 1)]


def _outermost(profile: np.ndarray, inner: np.ndarray, i: int, expected: float,
               outward: int, c: float, strength: float) -> int:
    """The outer line's place in a segment: the strongest line found there, or a line
    further out that is a fair share as strong, near where the grid's corners put the
    frame (`expected`). Where the grid's lines are light grey and the cage outline
    dark, the outline just inside the frame is the strongest line near it (an app
    killer: its frame read a tenth of a cell in, its walls then misread and the grid
    taken for a classic one); a cage outline lies inside the frame, never outside it.
    Page text just over a printed grid lies further out (a third of a cell over the
    frame in a photo of a page)."""
    peaks = [j for j in inner if 0 < j < len(profile) - 1
             and profile[j] >= max(profile[j - 1], profile[j + 1])
             and (j - i) * outward >= OUTER_SLIP * c
             and abs(j - expected) <= OUTER_NEAR * c
             and profile[j] >= max(OUTER_SHARE * profile[i], 0.25 * strength)]
    return int(max(peaks, key=lambda j: j * outward)) if peaks else i


def _trace_line(mask: np.ndarray, predicted: np.ndarray, window: float, centres: np.ndarray,
                c: float, strength: float, between: bool, outward: int = 0
                ) -> np.ndarray | None:
    """One line's polynomial from its cell-long segments looked for within `window` of
    `predicted` (per segment); None when fewer than 4 segments show it. `between`: the
    line lies between two found ones, whose blend `predicted` is. `outward` (-1, 1: the
    outer lines) says which way is out of the grid: see _outermost."""
    n = len(centres)
    found = np.full(n, np.nan)
    for j in range(n):
        start = centres[j] - c / 2  # the segment's cell, less its corners
        a0, a1 = int(start + 0.15 * c), int(start + c - 0.15 * c)
        reach = int(0.2 * c)  # mirror pairs looked at on either side
        lo = max(0, int(round(predicted[j] - window)) - reach)
        hi = int(round(predicted[j] + window)) + reach
        profile = mask[lo:hi + 1, a0:a1].mean(axis=1)
        if profile.size < 2 * reach + 3 or profile.max() < 0.25 * strength:
            continue
        # A grid line with a wall has cage lines on both sides, mirror images: the
        # centre of that symmetry beats either cage line. Near the expected place wins
        # a near tie.
        pos = np.arange(lo, lo + len(profile))
        inner = np.flatnonzero(np.abs(pos - predicted[j]) <= window)
        inner = inner[(inner >= reach) & (inner < len(profile) - reach)]
        if inner.size == 0:
            continue
        offsets = np.arange(1, reach + 1)
        mirror = np.minimum(profile[inner[:, None] - offsets],
                            profile[inner[:, None] + offsets]).mean(axis=1)
        prior = 1 - 0.35 * ((pos[inner] - predicted[j]) / window) ** 2
        i = int(inner[((profile[inner] + mirror) * prior).argmax()])
        if outward:
            i = _outermost(profile, inner, i, predicted[j] - lo, outward, c, strength)
        sub = 0.0
        if 0 < i < len(profile) - 1:  # parabolic peak for sub-pixel position
            y0, y1, y2 = profile[i - 1], profile[i], profile[i + 1]
            denom = y0 - 2 * y1 + y2
            sub = float(np.clip(0.5 * (y0 - y2) / denom, -0.5, 0.5)) if denom < 0 else 0.0
        found[j] = lo + i + sub
    ok = np.isfinite(found)
    if ok.sum() < 4:
        return None
    # Between found lines the blend already bends as the page does: fit only a gentle
    # (straight) correction to it, which cannot swing out at the ends.
    x, y = centres[ok], found[ok] - (predicted[ok] if between else 0.0)
    keep = np.ones(len(x), bool)
    for _ in range(3):  # drop segments that stray from the curve through the others
        if between:  # a slope only when found along most of the line
            degree = 1 if keep.sum() >= 6 else 0
        else:
            degree = 2 if keep.sum() >= 6 else 1
        coef = np.polyfit(x[keep], y[keep], degree)
        resid = np.abs(np.polyval(coef, x) - y)
        new_keep = resid < max(1.0, 3 * np.median(resid))
        if new_keep.sum() < 4 or (new_keep == keep).all():
            break
        keep = new_keep
    if between:
        shift = np.clip(np.polyval(coef, centres), -window, window)
        coef = np.polyfit(centres, predicted + shift, 2)
    return coef
