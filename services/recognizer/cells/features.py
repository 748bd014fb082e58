"""From a straightened grid to one normalised digit image and feature vector per cell.

Each cell, straightened from its own four corners and turned into relative ink darkness
(grid/straighten.py), is cleared of grid-line remnants along its border, and its ink blob
is centred and scaled to a fixed box. The classifier, not a threshold, decides between
blank and a digit: the features keep the blob's raw size and ink mass so it can.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from services.recognizer.cells.tuning import (
    BORDER,
    DESCREEN,
    DOT_AREA,
    DOT_CLEAR,
    DOT_LEVEL,
    DOT_SPACING,
    EDGE_ROWS,
    EVEN_DOTS,
    FAINT_DIGITS,
    FAINT_LEVEL,
    LINE_RUN,
    MAX_PITCH,
    MIN_BLOB,
    MIN_DOTS,
    MIN_INKED_CELLS,
    SHAPE_SCALE,
    WIDE_LINE,
)
from services.recognizer.grid.straighten import PATCH, ink_map
from services.recognizer.grid.tuning import INK_LEVEL

DIGIT = 28  # side of the normalised digit image
DIGIT_BOX = 20  # the blob's longer side is scaled to this


@cache
def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((DIGIT, DIGIT), (14, 14), (7, 7), (7, 7), 9)


@cache
def _blank_hog() -> np.ndarray:
    """HOG of an empty cell, the same every time (most cells are blank)."""
    return _hog().compute(np.zeros((DIGIT, DIGIT), np.uint8)).ravel()


def _clear_border_lines(strokes: np.ndarray, by_runs: bool = False) -> np.ndarray:
    """Zero rows and columns near the cell's edge that are mostly ink: grid-line remnants.
    `by_runs`: only those holding one unbroken run of ink across most of the cell. A large
    glyph's side (the right stroke of a 0 near the line) is mostly ink over the cell's
    height too, but parted from the lines across its ends."""
    p = strokes.shape[0]
    band = int(0.2 * p)
    out = strokes.copy()
    for edge in (slice(0, band), slice(p - band, p)):
        if by_runs:
            rows = np.flatnonzero(longest_runs(strokes[edge, :]) > LINE_RUN * p) + edge.start
            cols = np.flatnonzero(longest_runs(strokes[:, edge].T) > LINE_RUN * p) + edge.start
        else:
            rows = np.flatnonzero(strokes[edge, :].mean(axis=1) > 0.6) + edge.start
            cols = np.flatnonzero(strokes[:, edge].mean(axis=0) > 0.6) + edge.start
        out[rows, :] = 0
        out[:, cols] = 0
    return out


def _clear_edge_lines(ink: np.ndarray, strokes: np.ndarray) -> np.ndarray:
    """Zero the outermost rows and columns that hold a line's run of ink counted down to
    the faint level. A lattice half a pixel off leaves a line's edge there partly below
    the stroke level: the run of strokes is broken, the line stays, and a glyph touching
    it (a J's serif, a 2 set high) joins it into one blob read as a speck."""
    p = ink.shape[0]
    band = max(1, int(round(EDGE_ROWS * p)))
    wide = int(WIDE_LINE * p)
    faint = ink >= FAINT_LEVEL
    out = strokes.copy()
    for turn in range(4):  # each side in turn as the top; rot90 views write through
        runs = longest_runs(np.rot90(faint, turn)[:wide]) > LINE_RUN * p
        # A line is as wide as it is: past the fixed band, its rows go on while they
        # still hold the run (a heavy line's edge row, stroke-dark only where a glyph
        # touches it, was read with the glyph as a speck: an 8 set high read blank).
        rows = np.flatnonzero(runs[:band])
        if runs[:band].all():
            rows = np.arange(band + int(np.argmin(np.append(runs[band:], False))))
        np.rot90(out, turn)[rows, :] = 0
    return out


def longest_runs(lines: np.ndarray) -> np.ndarray:
    """Length of the longest run of nonzero pixels in each row of `lines`."""
    steps = np.diff(np.pad(lines.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    rows, starts = np.nonzero(steps == 1)  # row-major: each run's start pairs its end
    ends = np.nonzero(steps == -1)[1]
    out = np.zeros(len(lines), int)
    np.maximum.at(out, rows, ends - starts)
    return out


def _with_faint_joins(ink: np.ndarray, strokes: np.ndarray) -> np.ndarray:
    """Strokes plus the fainter ink joined to them (hysteresis): a serif face's hairline
    foot of a 2, or a thin face's joins, are lighter than the thick grid lines that set
    the ink scale, and without them a 2 reads as a 7 or 9."""
    p = ink.shape[0]
    inset = slice(int(BORDER * p), int(np.ceil((1 - BORDER) * p)))
    faint = np.zeros((p, p), np.uint8)  # not in the edge band: no joins to the grid lines
    faint[inset, inset] = ink[inset, inset] >= FAINT_LEVEL
    count, labels = cv2.connectedComponents(faint, connectivity=8)
    touching = np.zeros(count, bool)
    touching[np.unique(labels[strokes])] = True
    touching[0] = False
    return strokes | touching[labels]


def cleared_strokes(ink: np.ndarray, stroke_pixels: np.ndarray | None = None,
                    centred_bars: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(the cell's stroke pixels with their faint joins, the same with the grid lines'
    remnants along its border cleared), uint8."""
    if stroke_pixels is None:
        stroke_pixels = ink >= INK_LEVEL
    joined = _with_faint_joins(ink, stroke_pixels).astype(np.uint8)
    strokes = _clear_border_lines(joined, by_runs=centred_bars)
    if centred_bars:
        strokes = _clear_edge_lines(ink, strokes)
    return joined, strokes


def digit_mask(ink: np.ndarray, centred_bars: bool = False) -> np.ndarray:
    """The cell's pixels that belong to its digit: ink blobs that are neither specks nor
    grid-line remnants along the edge. With `centred_bars`, an upright bar across the
    middle of the cell is kept (a sans-serif I or 1 as tall as the cell is wide), where
    the 9x9 reader drops it as a line remnant."""
    p = ink.shape[0]
    lo, hi = BORDER * p, (1 - BORDER) * p
    inset = slice(int(lo), int(np.ceil(hi)))
    stroke_pixels = ink >= INK_LEVEL
    if not stroke_pixels[inset, inset].any():
        # Every blob lies in the edge band, away from the middle: remnants all (see
        # _kept_blobs). Most blank cells end here, without labelling.
        return np.zeros((p, p), bool)
    strokes = cleared_strokes(ink, stroke_pixels, centred_bars)[1]
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    edge_band = np.ones((p, p), bool)
    edge_band[inset, inset] = False
    in_band = np.bincount(labels[edge_band], minlength=count)
    middle = slice(int(0.35 * p), int(np.ceil(0.65 * p)))
    in_middle = np.bincount(labels[middle, middle].ravel(), minlength=count)
    cx, cy = centroids[1:].T
    return _kept_blobs(stats[1:], cx, cy, in_band[1:], in_middle[1:], p, centred_bars)[labels]


def _kept_blobs(stats: np.ndarray, cx: np.ndarray, cy: np.ndarray, in_band: np.ndarray,
                in_middle: np.ndarray, p: int, centred_bars: bool = False) -> np.ndarray:
    """(labels,) bool, background first: the blobs (OpenCV stats and centroids, pixels in
    the edge band and in the middle, each without the background's row) that are a
    digit's, in cells of p pixels; each blob's measures at once (a loop over blobs was
    most of a cell's reading)."""
    lo, hi = BORDER * p, (1 - BORDER) * p
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    area = stats[:, cv2.CC_STAT_AREA]
    long_thin = (np.maximum(w, h) > 0.6 * p) & (np.minimum(w, h) < 0.15 * p)  # a line's remnant
    if centred_bars:
        # An upright bar centred inside the edge band is a glyph (an I, or the 1 of a
        # "16" standing left of the middle) unless it is as tall as a line.
        long_thin = np.where(long_thin & (h > w), h > 0.85 * p, long_thin)
    # e.g. an L of two lines' remnants; a digit pushed against a line still reaches the
    # middle of the cell.
    mostly_edge = (in_band > 0.5 * area) & (in_middle == 0)
    keep = np.zeros(len(area) + 1, bool)
    keep[1:] = ((area >= MIN_BLOB * p * p) & (lo <= cx) & (cx <= hi) & (lo <= cy) & (cy <= hi)
                & ~long_thin & ~mostly_edge)
    return keep


def cells_of(ink: np.ndarray, n: int, p: int) -> np.ndarray:
    """(n*n, p, p) the cells of a grid's ink at p pixels per cell, row by row."""
    return ink[:n * p, :n * p].reshape(n, p, n, p).transpose(0, 2, 1, 3).reshape(n * n, p, p)


def apart(cells: np.ndarray, n: int) -> np.ndarray:
    """The cells laid out as a grid again, a row and a column of zeros after each: no
    blob of one cell touches another's, so one labelling serves them all."""
    p = cells.shape[1]
    out = np.zeros((n, p + 1, n, p + 1), cells.dtype)
    out[:, :p, :, :p] = cells.reshape(n, n, p, p).transpose(0, 2, 1, 3)
    return out.reshape(n * (p + 1), n * (p + 1))


def _together(laid_out: np.ndarray, n: int, p: int) -> np.ndarray:
    """apart undone: (n*n, p, p)."""
    return laid_out.reshape(n, p + 1, n, p + 1)[:, :p, :, :p].transpose(0, 2, 1, 3) \
        .reshape(n * n, p, p)


def digit_masks(cells: np.ndarray, n: int) -> np.ndarray:
    """digit_mask of each of the (n*n, p, p) cells of a grid, all at once: each step of
    digit_mask, over every cell in one array call (the cells' own loop was most of the
    time of reading them), the blobs measured where they are labelled, the cells laid
    out apart. tests/recognizer/test_digit_masks.py checks it equals digit_mask cell by
    cell."""
    count_cells, p = cells.shape[0], cells.shape[1]
    lo, hi = BORDER * p, (1 - BORDER) * p
    i0, i1 = int(lo), int(np.ceil(hi))
    stroke_pixels = cells >= INK_LEVEL
    some = stroke_pixels[:, i0:i1, i0:i1].any(axis=(1, 2))
    # _with_faint_joins
    faint = np.zeros(cells.shape, np.uint8)
    faint[:, i0:i1, i0:i1] = cells[:, i0:i1, i0:i1] >= FAINT_LEVEL
    count, labels = cv2.connectedComponents(apart(faint, n), connectivity=8)
    labels = _together(labels, n, p)
    touching = np.zeros(count, bool)
    touching[labels[stroke_pixels]] = True
    touching[0] = False
    joined = stroke_pixels | touching[labels]
    # _clear_border_lines
    band = int(0.2 * p)
    clear_rows = np.zeros((count_cells, p), bool)
    clear_cols = np.zeros((count_cells, p), bool)
    for edge in (slice(0, band), slice(p - band, p)):
        clear_rows[:, edge] = joined[:, edge, :].mean(axis=2) > 0.6
        clear_cols[:, edge] = joined[:, :, edge].mean(axis=1) > 0.6
    strokes = joined & ~clear_rows[:, :, None] & ~clear_cols[:, None, :]
    # The blobs and their measures
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(
        apart(strokes.astype(np.uint8), n), connectivity=8)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    # Centroids within their own cell, as OpenCV works them out (the pixels' exact sums
    # over the blob's area): a sum is recovered whole from the centroid in the layout,
    # and the cell's offset taken off it.
    offset = (stats[:, :2] // (p + 1)) * (p + 1)
    sums = np.round(centroids * area[:, None]) - offset * area[:, None]
    cx, cy = (sums / area[:, None]).T
    edge_band = np.ones((p + 1, p + 1), bool)
    edge_band[i0:i1, i0:i1] = False
    edge_band[p, :] = edge_band[:, p] = False  # the rows and columns between cells
    in_band = np.bincount(labels[np.tile(edge_band, (n, n))], minlength=count)
    middle = np.zeros((p + 1, p + 1), bool)
    middle[int(0.35 * p):int(np.ceil(0.65 * p)), int(0.35 * p):int(np.ceil(0.65 * p))] = True
    in_middle = np.bincount(labels[np.tile(middle, (n, n))], minlength=count)
    keep = _kept_blobs(stats[1:], cx[1:], cy[1:], in_band[1:], in_middle[1:], p)
    return _together(keep[labels], n, p) & some[:, None, None]


def normalise_cell(ink: np.ndarray, centred_bars: bool = False, mask: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(DIGIT x DIGIT ink image of the centred blob, shape measures, the blob's box as
    shares of the cell: x0, y0, x1, y1, zeros when there is none) for one cell's ink.
    `mask`: the glyph's pixels when the caller has cut them (else digit_mask's)."""
    p = ink.shape[0]
    lo, hi = BORDER * p, (1 - BORDER) * p
    if mask is None:
        mask = digit_mask(ink, centred_bars)
    inset = ink[int(lo):int(hi), int(lo):int(hi)]
    raw_mass = float(np.minimum(inset, 1.0).mean())
    digit = np.zeros((DIGIT, DIGIT), np.float32)
    if not mask.any():
        return digit, np.array([0.0, 0.0, 0.0, raw_mass], np.float32), np.zeros(4, np.float32)
    ys, xs = np.nonzero(mask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    box = np.array([x0, y0, x1, y1], np.float32) / p
    blob_mask = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))
    blob = (ink * blob_mask)[y0:y1, x0:x1]
    h, w = blob.shape
    scale = DIGIT_BOX / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(blob, (nw, nh), interpolation=cv2.INTER_AREA)
    top, left = (DIGIT - nh) // 2, (DIGIT - nw) // 2
    # The blob's own contrast: a blurred stroke keeps its ridge instead of saturating.
    digit[top:top + nh, left:left + nw] = small / max(float(small.max()), 0.5)
    mass = float(np.minimum(blob, 1.0).sum())
    # No position: digits sit off centre in many fonts, and that must not make them blank.
    shape = np.array([h / p, w / p, mass / (p * p), raw_mass], np.float32)
    return digit, shape, box


def features(digit: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """HOG of the normalised digit, its pixels at half resolution, and its shape measures."""
    hog = _blank_hog() if not digit.any() else _hog().compute(
        (digit * 255).astype(np.uint8)).ravel()
    pixels = cv2.resize(digit, (DIGIT // 2, DIGIT // 2), interpolation=cv2.INTER_AREA).ravel()
    return np.concatenate([hog, pixels, shape * SHAPE_SCALE]).astype(np.float32)


def _upper(ink: np.ndarray) -> float:
    """The 99th percentile of `ink` as np.percentile takes it (linear between the two
    nearest ranks), from a partition instead of a sort."""
    flat = ink.ravel()
    at = 0.99 * (flat.size - 1)
    lo = int(at)
    hi = min(lo + 1, flat.size - 1)
    low, high = np.partition(flat, (lo, hi))[[lo, hi]]
    return float(low + (high - low) * (at - lo))


def dot_pitch(cell: np.ndarray, floor: float) -> float:
    """The spacing (pixels) of the halftone dots a cell's ink is laid in, 0 when it is not
    so laid: its peak stands DOT_CLEAR times above the `floor` (the grid's blank cells'
    peak), and its strokes, cut at DOT_LEVEL of that peak, fall apart into MIN_DOTS or
    more dots, each under DOT_AREA of the cell and none larger, spaced evenly (the
    nearest neighbour of EVEN_DOTS of them lies DOT_SPACING of the median spacing or nearer) and
    closer than MAX_PITCH of the cell. Noise gives specks too, but strewn unevenly; a
    solid stroke, one blob."""
    p = cell.shape[0]
    inset = cell[int(BORDER * p):int(np.ceil((1 - BORDER) * p)),
                 int(BORDER * p):int(np.ceil((1 - BORDER) * p))]
    peak = float(inset.max())
    if peak < max(FAINT_LEVEL, DOT_CLEAR * floor):
        return 0.0
    # The cut from the ink's upper percentile, not its single darkest pixel: one dot
    # darker than the rest would leave the others under it.
    count, _, stats, centroids = cv2.connectedComponentsWithStats(
        (inset >= DOT_LEVEL * _upper(inset)).astype(np.uint8), connectivity=8)
    area = stats[1:, cv2.CC_STAT_AREA]
    if area.max(initial=0) > DOT_AREA * p * p:
        return 0.0
    dots = centroids[1:][area >= 2]  # single pixels are noise, a screen's dot is not
    if len(dots) < MIN_DOTS:
        return 0.0
    apart = np.hypot(*(dots[:, None] - dots[None]).transpose(2, 0, 1))
    np.fill_diagonal(apart, np.inf)
    nearest = apart.min(axis=1)
    spacing = float(np.median(nearest))
    if spacing > MAX_PITCH * p or \
            np.mean(np.abs(nearest - spacing) <= DOT_SPACING * spacing) < EVEN_DOTS:
        return 0.0
    return spacing


def descreened(cell: np.ndarray, pitch: float) -> np.ndarray:
    """A cell's ink laid in halftone dots `pitch` apart, smoothed into strokes and scaled
    so that they reach the stroke level as printed ones do: the dots of a thin stroke
    are far apart, the cell model reads them as blank. The smoothing (a Gaussian of
    DESCREEN times the pitch) damps the screen's own frequency to a few per cent. The
    grid lines' remnants along the edge are left out first: smoothed, they would bleed
    into the cell."""
    p = cell.shape[0]
    edge = int(WIDE_LINE * p)
    inner = np.zeros_like(cell)
    inner[edge:p - edge, edge:p - edge] = cell[edge:p - edge, edge:p - edge]
    smooth = cv2.GaussianBlur(inner, (0, 0), DESCREEN * pitch)
    inset = smooth[int(BORDER * p):int(np.ceil((1 - BORDER) * p)),
                   int(BORDER * p):int(np.ceil((1 - BORDER) * p))]
    paper, peak = float(np.median(inset)), float(inset.max())
    return np.clip((smooth - paper) / max(peak - paper, 1e-6), 0.0, 1.0).astype(cell.dtype)


def _inset(cells: np.ndarray) -> np.ndarray:
    """(n*n, ...) the cells' insets, clear of the grid lines (BORDER)."""
    p = cells.shape[1]
    inset = slice(int(BORDER * p), int(np.ceil((1 - BORDER) * p)))
    return cells[:, inset, inset]


def ink_floor(cells: np.ndarray) -> float:
    """The peak of a blank cell's ink, its paper's noise: the median cell's (most cells of
    a grid are blank)."""
    return float(np.median(_inset(cells).max(axis=(1, 2))))


def dot_pitches(cells: np.ndarray) -> np.ndarray:
    """(n*n,) dot_pitch of each of the (n*n, p, p) cells."""
    peaks = _inset(cells).max(axis=(1, 2))
    floor = float(np.median(peaks))
    out = np.zeros(len(cells))
    # Only a cell whose ink stands clear of the paper's noise can be screened (dot_pitch).
    for i in np.flatnonzero(peaks >= max(FAINT_LEVEL, DOT_CLEAR * floor)):
        out[i] = dot_pitch(cells[i], floor)
    return out


# The last grid's dot pitches: read_cells asks for those of the picture read_grid_cells
# has just read. Held by the picture's identity (the reader never writes into a picture
# it has handed on).
_last_pitches: list = [None, None, None]


def screened_cells(straight: np.ndarray, n: int = 9) -> np.ndarray:
    """(n*n,) bool: the cells of a straightened grid whose ink is laid in halftone dots."""
    held, side, pitches = _last_pitches
    if held is not straight or side != n:
        pitches = dot_pitches(cells_of(ink_map(straight), n, PATCH))
    return pitches > 0


def with_dots_descreened(cells: np.ndarray, pitches: np.ndarray | None = None) -> np.ndarray:
    """(n*n, p, p) the cells, each laid in halftone dots (dot_pitches, unless given)
    descreened, and the ink of a grid whose digits are all far fainter than its lines
    raised (with_faint_digits_raised)."""
    if pitches is None:
        pitches = dot_pitches(cells)
    out = cells.copy() if pitches.any() else cells
    for i in np.flatnonzero(pitches):
        out[i] = descreened(cells[i], float(pitches[i]))
    return with_faint_digits_raised(out, cells, pitches > 0)


def with_faint_digits_raised(cells: np.ndarray, original: np.ndarray,
                             screened: np.ndarray) -> np.ndarray:
    """The cells' ink measured against the digits' own where every digit is far fainter
    than the grid's lines: the ink scale is set by the lines (grid/straighten.py), and a
    print whose thin strokes lost most of their ink (a halftone screen whose dots the
    picture blurred together) leaves its digits under the stroke level, read blank.
    The cells holding ink (DOT_CLEAR times the blank cells' peak) other than `screened`
    ones (already scaled) are divided by their median ink level (the 99th percentile of
    each inset) when that is under FAINT_DIGITS of the lines'. `original`: the cells
    before descreening, whose floor and peaks are measured."""
    peaks = _inset(original).max(axis=(1, 2))
    inked = peaks >= max(FAINT_LEVEL, DOT_CLEAR * ink_floor(original))
    if inked.sum() < MIN_INKED_CELLS:
        return cells
    level = float(np.median(np.percentile(_inset(original)[inked], 99, axis=(1, 2))))
    if level >= FAINT_DIGITS:
        return cells
    raise_ = inked & ~screened
    out = cells.copy()
    out[raise_] = np.clip(original[raise_] / level, 0.0, 3.0)
    return out


def read_grid_cells(straight: np.ndarray, n: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """(n*n, F) features of the cells of a straightened grid, row by row, and the (n, n, 4)
    box of each cell's digit ink (see normalise_cell): givens sit large in the middle,
    cage sums in a corner."""
    cells = cells_of(ink_map(straight), n, PATCH)
    pitches = dot_pitches(cells)
    _last_pitches[:] = [straight, n, pitches]
    cells = with_dots_descreened(cells, pitches)
    rows, boxes = [], []
    for cell_ink, mask in zip(cells, digit_masks(cells, n), strict=True):
        digit, shape, box = normalise_cell(cell_ink, mask=mask)
        rows.append(features(digit, shape))
        boxes.append(box)
    return np.stack(rows), np.stack(boxes).reshape(n, n, 4)


def normalised_features(cell_ink: np.ndarray) -> np.ndarray:
    """One cell's features from its ink, as read_grid_cells computes them."""
    digit, shape, _ = normalise_cell(cell_ink)
    return features(digit, shape)


def cell_features(straight: np.ndarray, n: int = 9) -> np.ndarray:
    """(n*n, F) features of the cells of a straightened grid, row by row."""
    return read_grid_cells(straight, n)[0]
