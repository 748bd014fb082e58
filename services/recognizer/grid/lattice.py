"""Locate every grid line intersection, so bent pages map cell by cell.

One homography from the four corners puts cells of a bent page several pixels off. Here
the picture is first straightened with that homography; then each grid line is traced as
a smooth curve (outer lines first, inner lines searched near the blend of the outer
ones), and the (n+1) x (n+1) crossings are mapped back. A line whose ink cannot be
followed keeps its straight, homography position.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.tuning import CELL, SIDE_ON_INK, SNAP_REACH, STEP


def _line_masks(binary: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ink that runs long horizontally / vertically: grid lines, not digits."""
    length, gap = int(CELL * 0.75), CELL // 5
    # Close small gaps first: thin lines in blurry photos binarize as dashes.
    horizontal = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    horizontal = cv2.morphologyEx(horizontal, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    vertical = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((gap, 1), np.uint8))
    vertical = cv2.morphologyEx(vertical, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    # Smear along the line so a sample sees the line's ink nearby, not only at one column.
    horizontal = cv2.blur(horizontal.astype(np.float32) / 255, (STEP * 2 + 1, 3))
    vertical = cv2.blur(vertical.astype(np.float32) / 255, (3, STEP * 2 + 1))
    return horizontal, vertical


def _peak_near(profile: list[float], centre: float) -> float | None:
    """Middle of the ink run nearest `centre` in a profile across a line, if any is strong.

    Plain Python: a profile is a few dozen samples, where NumPy's per-call cost dominates."""
    best, best_distance, start = None, float("inf"), None
    for i, value in enumerate([*profile, 0.0]):  # the sentinel closes a run at the end
        if value >= 0.3:
            if start is None:
                start = i
        elif start is not None:
            middle = (start + i - 1) / 2
            if abs(middle - centre) < best_distance:  # ties keep the earlier run
                best, best_distance = middle, abs(middle - centre)
            start = None
    return best


def _peaks_near(mask: np.ndarray, centres: np.ndarray, along: np.ndarray,
                window: float) -> np.ndarray:
    """For each sample i, the middle of the strong ink run in column along[i] of `mask`
    nearest centres[i], searched within `window` of it; NaN where there is none.

    All samples at once: each one's window becomes a row of a matrix, so a run is found
    by one diff over the whole matrix instead of a Python loop over the samples.
    """
    span = mask.shape[0]
    lo = np.maximum(0, (centres - window).astype(int))
    hi = np.minimum(span - 1, (centres + window).astype(int))
    width = int(2 * window) + 2
    rows = lo[:, None] + np.arange(width)[None, :]
    valid = rows <= hi[:, None]
    values = mask[np.minimum(rows, span - 1), along.astype(int)[:, None]]
    strong = valid & (values >= 0.3)
    padded = np.zeros((len(centres), width + 2), np.int8)
    padded[:, 1:-1] = strong
    sample, edge = np.nonzero(np.diff(padded, axis=1))
    # Edges alternate start, end within each sample's row, in row-major order.
    owner, starts, ends = sample[0::2], edge[0::2], edge[1::2]
    middles = (starts + ends - 1) / 2
    distance = np.abs(middles - (centres - lo)[owner])
    found = np.full(len(centres), np.nan)
    if len(owner):
        order = np.lexsort((middles, distance, owner))  # nearest first, ties to the lower
        first = order[np.unique(owner[order], return_index=True)[1]]
        found[owner[first]] = lo[owner[first]] + middles[first]
    return found


def _trace(mask: np.ndarray, predicted: np.ndarray, along: np.ndarray,
           window: float, track: bool) -> np.ndarray | None:
    """Positions across one line at each `along` sample, or None when the ink is too sparse.

    `mask` is indexed [across, along]; `predicted` gives the expected position per sample.
    With `track`, the line is followed from each end, where the outline's corners pin it,
    towards the middle, each step looking near where the previous one found it: a bent
    outer line strays far from its straight prediction. Inner lines are predicted well by
    the traced outer ones, so they are searched near the prediction only, where a digit's
    stem cannot lead the search away.
    """
    span, count = mask.shape[0], len(along)
    if not track:
        found = _peaks_near(mask, predicted, along, window)
    else:  # one sample at a time: each window starts where the previous sample's line was
        found = np.full(count, np.nan)
        half = count // 2
        for order in (range(0, half + 1), range(count - 1, half, -1)):
            offset = 0.0
            for i in order:
                centre = predicted[i] + offset
                lo, hi = int(max(0, centre - window)), int(min(span - 1, centre + window))
                if hi <= lo:
                    continue
                hit = _peak_near(mask[lo:hi + 1, int(along[i])].tolist(), centre - lo)
                if hit is not None:
                    found[i] = lo + hit
                    # Not led from the very end: there the smear along the line reaches
                    # past the grid, a thin line's ink halves, and a dark bar just outside
                    # (an app's title bar) may be the only strong run in reach.
                    if i != order[0]:
                        offset = found[i] - predicted[i]
    ok = ~np.isnan(found)
    if ok.sum() < 0.35 * count:
        return None
    x, offsets = along[ok].astype(float), found[ok] - predicted[ok]
    if track:
        return predicted + _robust_fit(x, offsets, along, 2 if ok.sum() > 8 else 1)
    # An inner line's samples all lie within `window` of its prediction, so a curve that
    # leaves that band was bent by a few stray samples (digit strokes, or one end with
    # no samples), not by the line: fall back to a stiffer fit.
    for degree in (2, 1, 0) if _covers_thirds(x, along) else (1, 0):
        offset = _robust_fit(x, offsets, along, degree)
        if np.abs(offset).max() <= window:
            return predicted + offset
    return None


def _covers_thirds(x: np.ndarray, along: np.ndarray) -> bool:
    """Whether samples lie in each third of the line: only then can a bend be told."""
    thirds = np.linspace(along[0], along[-1], 4)
    return all(((x >= a) & (x <= b)).sum() >= 2 for a, b in zip(thirds[:-1], thirds[1:],
                                                                  strict=True))


def _robust_fit(x: np.ndarray, y: np.ndarray, along: np.ndarray, degree: int) -> np.ndarray:
    """A polynomial through (x, y) at every `along`, dropping samples that stray from it."""
    keep = np.ones(len(x), bool)
    for _ in range(3):
        coef = np.polyfit(x[keep], y[keep], degree)
        resid = np.abs(np.polyval(coef, x) - y)
        new_keep = resid < max(1.5, 3 * np.median(resid[keep]))
        if new_keep.sum() < 0.3 * len(along) or (new_keep == keep).all():
            break
        keep = new_keep
    return np.polyval(coef, along.astype(float))


def straightening(corners: np.ndarray, size: int, cell: int) -> np.ndarray:
    """The homography taking the outline's corners (TL, TR, BR, BL) to a straight grid of
    `cell` pixels per cell with a one-cell margin all round."""
    side = size * cell
    target = np.array([[cell, cell], [cell + side, cell], [cell + side, cell + side],
                       [cell, cell + side]], np.float32)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), target)


def even_lattice(corners: np.ndarray, size: int = 9) -> np.ndarray:
    """(size+1, size+1, 2) intersections of a flat grid with these corners (TL, TR, BR, BL):
    evenly spaced under the outline's homography, not traced."""
    ideal = np.arange(size + 1, dtype=np.float32)
    x, y = np.meshgrid(ideal, ideal)
    square = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    matrix = cv2.getPerspectiveTransform(square, corners.astype(np.float32))
    points = np.stack([x, y], axis=-1).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(points, matrix).reshape(size + 1, size + 1, 2)


def refine_lattice(binary: np.ndarray, corners: np.ndarray, size: int = 9) -> np.ndarray:
    """(size+1, size+1, 2) intersections (x, y) in `binary`'s pixels."""
    return trace_lattice(binary, corners, size)[0]


def trace_lattice(binary: np.ndarray, corners: np.ndarray,
                  size: int = 9) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intersections, and which horizontal / vertical lines were traced along their ink."""
    margin, side = CELL, size * CELL
    matrix = straightening(corners, size, CELL)
    dim = side + 2 * margin
    straight = cv2.warpPerspective(binary, matrix, (dim, dim), flags=cv2.INTER_LINEAR)
    horizontal, vertical = _line_masks(straight)
    along = np.arange(margin, margin + side + 1, STEP)
    ideal = margin + CELL * np.arange(size + 1, dtype=float)
    rows, rows_traced = _curves(horizontal, along, ideal)  # rows[k]: y of line k along x
    cols, cols_traced = _curves(vertical.T, along, ideal)  # cols[k]: x of line k along y

    # Crossings: row r's y at x, column c's x at y -- iterate to the fixed point.
    x = np.tile(ideal, (size + 1, 1))  # x[r, c]
    y = x.T.copy()
    for _ in range(4):
        for c in range(size + 1):
            x[:, c] = np.interp(y[:, c], along, cols[c])
        for r in range(size + 1):
            y[r] = np.interp(x[r], along, rows[r])
    lattice = np.stack([x, y], axis=-1)
    back = np.linalg.inv(matrix)
    lattice = cv2.perspectiveTransform(lattice.reshape(-1, 1, 2), back).reshape(lattice.shape)
    return lattice, rows_traced, cols_traced


def _curves(mask: np.ndarray, along: np.ndarray,
            ideal: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Trace the outer two lines, then the inner ones near the blend of the outer two."""
    n = len(ideal) - 1
    cell = ideal[1] - ideal[0]
    traced = np.zeros(n + 1, bool)
    first = _trace(mask, np.full(len(along), ideal[0]), along, cell * 0.25, track=True)
    last = _trace(mask, np.full(len(along), ideal[n]), along, cell * 0.25, track=True)
    traced[0], traced[n] = first is not None, last is not None
    first = np.full(len(along), ideal[0]) if first is None else first
    last = np.full(len(along), ideal[n]) if last is None else last
    curves = [first]
    for k in range(1, n):
        blend = first + (last - first) * k / n
        line = _trace(mask, blend, along, cell * 0.25, track=False)
        traced[k] = line is not None
        curves.append(blend if line is None else line)
    curves.append(last)
    return curves, traced


def lattice_fit(binary: np.ndarray, lattice: np.ndarray) -> float:
    """Share of the lattice's lines that lie on ink: near 1 when every line is on the grid.

    Each cell is mapped from its own corners, so a lattice a row off, or skewed onto the
    wrong lines somewhere, shows up as lines over blank paper.
    """
    return float(np.mean(line_fits(binary, lattice)))


def line_fits(binary: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """Share of each of the lattice's lines on ink: its n+1 rows, then its n+1 columns."""
    from services.recognizer.grid.straighten import PATCH, straighten

    n = lattice.shape[0] - 1
    ink = straighten(binary, lattice) > 127
    ink = np.pad(ink, 3)
    # A line may sit a pixel or two off the cell edge: take the best of nearby rows.
    rows = [max(ink[k * PATCH + d + 1, 3:-3].mean() for d in range(0, 5)) for k in range(n + 1)]
    cols = [max(ink[3:-3, k * PATCH + d + 1].mean() for d in range(0, 5)) for k in range(n + 1)]
    return np.array(rows + cols, dtype=float)


def widened_fit(ink: np.ndarray, lattice: np.ndarray) -> float:
    """lattice_fit on ink widened to a few pixels of the straightened grid: cells larger
    than PATCH are smoothed as they shrink, which fades a line of a pixel or three below
    the threshold, so a large grid of thin lines would lie on nothing."""
    return float(np.mean(widened_line_fits(ink, lattice)))


def widened_line_fits(ink: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """line_fits on ink widened as widened_fit widens it."""
    from services.recognizer.grid.straighten import PATCH

    n = lattice.shape[0] - 1
    cell_px = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / n
    width = int(round(cell_px / PATCH)) * 2 + 1
    if width > 3:
        ink = cv2.dilate(ink, np.ones((width, width), np.uint8))
    return line_fits(ink, lattice)


def snap_outline(binary: np.ndarray, corners: np.ndarray, size: int = 9) -> np.ndarray:
    """The outline with each side moved onto the straight line of ink nearest it.

    An outline's corners come from a hull, which text, a fold or a shadow touching the
    grid pulls away from the grid's own corners. Each side is replaced by the straight
    line, within SNAP_REACH cells of it at either end, that runs along the most line ink;
    a side with no such line stays where it is.
    """
    margin, side = CELL, size * CELL
    matrix = straightening(corners, size, CELL)
    dim = side + 2 * margin
    straight = cv2.warpPerspective(binary, matrix, (dim, dim), flags=cv2.INTER_LINEAR)
    # Plain ink, not the long-run line masks: a side far off is tilted in this picture,
    # and a tilted line has no long runs along the axes.
    ink = cv2.dilate((straight > 127).astype(np.uint8), np.ones((3, 3), np.uint8))
    top = _best_line(ink, margin)
    bottom = _best_line(ink, margin + side)
    left = _best_line(ink.T, margin)
    right = _best_line(ink.T, margin + side)
    snapped = np.array([_crossing(top, left, margin, side), _crossing(top, right, margin, side),
                        _crossing(bottom, right, margin, side),
                        _crossing(bottom, left, margin, side)], np.float32)
    back = np.linalg.inv(matrix)
    return cv2.perspectiveTransform(snapped.reshape(-1, 1, 2), back).reshape(4, 2)


def _best_line(mask: np.ndarray, edge: float) -> tuple[float, float]:
    """(position at along = margin, position at along = margin + side) of the straight
    line across `mask` (indexed [across, along]) within reach of `edge` that lies on ink
    most along its middle; ties go to the line nearest the edge. A side whose two ends
    lie on ink is kept: its corners are right (its middle may bow with the page)."""
    side = mask.shape[1] - 2 * CELL  # the grid's side in the straightened picture

    def samples(*spans: tuple[float, float]) -> np.ndarray:
        return np.concatenate([np.arange(CELL + a * side, CELL + b * side + 1, STEP)
                               for a, b in spans]).astype(float)

    def on_ink(start: np.ndarray, end: np.ndarray, along: np.ndarray) -> np.ndarray:
        share = (along - CELL) / side
        across = edge + start[..., None] + (end - start)[..., None] * share
        across = np.clip(np.round(across).astype(int), 0, mask.shape[0] - 1)
        return mask[across, along.astype(int)].mean(axis=-1)

    ends = samples((0.05, 0.3), (0.7, 0.95))
    if on_ink(np.zeros(1), np.zeros(1), ends)[0] >= SIDE_ON_INK:
        return edge, edge
    # Judge lines by their middle: near a corner pulled off, the side crosses paper.
    middle = samples((0.2, 0.8))
    reach = int(SNAP_REACH * CELL)
    # Every second offset first (lines are at least three pixels wide once dilated),
    # then the best of those to the pixel.
    coarse = np.arange(-reach, reach + 1, 2, dtype=float)
    start, end = np.meshgrid(coarse, coarse, indexing="ij")
    share_on = on_ink(start, end, middle)
    # The nearest line wins: from an outline around the page, the grid's outer line comes
    # before its inner ones, however much better a clean inner line lies on ink.
    distance = np.where(share_on >= SIDE_ON_INK, np.abs(start) + np.abs(end), np.inf)
    if not np.isfinite(distance).any():
        return edge, edge
    i, j = np.unravel_index(int(distance.argmin()), distance.shape)
    fine = np.arange(-1.0, 2.0)
    start, end = np.meshgrid(start[i, j] + fine, end[i, j] + fine, indexing="ij")
    share_on = on_ink(start, end, middle)
    k, m = np.unravel_index(int(share_on.argmax()), share_on.shape)
    if share_on[k, m] < SIDE_ON_INK:
        return edge, edge
    return edge + start[k, m], edge + end[k, m]


def _crossing(across_line: tuple[float, float], down_line: tuple[float, float],
              start: float, length: float) -> list[float]:
    """Where a line running across (y at x = start and x = start + length) meets one
    running down (x at y = start and y = start + length)."""
    (y0, y1), (x0, x1) = across_line, down_line
    a, b = (y1 - y0) / length, (x1 - x0) / length
    y = (y0 + a * (x0 - start) - a * b * start) / (1 - a * b)
    return [x0 + b * (y - start), y]


SIZE = 9  # the classic grid's side


def cell_side(lattice: np.ndarray) -> float:
    """A lattice's cell side in pixels, along its top line."""
    return float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / (lattice.shape[0] - 1)


def corners_of(lattice: np.ndarray) -> np.ndarray:
    """Grid corners TL, TR, BR, BL of a lattice."""
    return np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])
