"""Marks a person made on a half-solved page: their ink told from the page's lines and noise,
and the evidence of a mark that each cell's kind reading weighs."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from services.recognizer.cells.kinds import CELL, SIZE, tallest_strokes
from services.recognizer.cells.tuning import (
    AXIS_LINE_CELLS,
    AXIS_TILT,
    LINE_CELLS,
    LINE_COVER,
    LINE_LEVEL,
    LINE_NOISE,
    LINE_WIDTH,
    MARK_HEIGHT,
    MARK_MARGIN,
    NO_MARK,
    PAPER_KERNEL,
    SMALL_MARK_SEEN,
    SPAN_LEVEL,
    TALL_MARK_SEEN,
)


@dataclass
class Marks:
    """Each cell's darkest marks, (SIZE*SIZE,) arrays (see marks())."""

    contrast: np.ndarray
    span: np.ndarray
    noise: float = 0.0  # the page's pixel noise (sigma) in the insets, at contrast's scale
    with_lines: np.ndarray | None = None  # contrast with the page's lines left in
    # The noise also between pixels two apart: a photo's cells smaller than CELL are
    # enlarged, which smooths their grain at one pixel (20-pixel cells: half the sigma).
    grain: float = 0.0


def marks(straight: np.ndarray) -> Marks:
    """The darkest marks in each cell's inset, from a grid straightened at CELL pixels per
    cell, once the page's own lines are taken out (page_lines). contrast: the inset's 99th
    percentile of darkness against the paper around it, as a share of the page's darkest
    ink (the 99.5th percentile over the grid: lines and print). span: the height of the
    tallest blob (6 pixels or more) of the mark's pixels (SPAN_LEVEL), as a share of the
    inset."""
    gray = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (PAPER_KERNEL, PAPER_KERNEL))
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
    darkness = 1.0 - gray / np.maximum(paper, gray)
    page = max(0.15, float(np.percentile(darkness, 99.5)))
    grid = darkness[:SIZE * CELL, :SIZE * CELL] / page
    noise = _pixel_noise(_insets(grid))
    grain = max(noise, _pixel_noise(_insets(grid), 2))
    with_lines = np.percentile(_insets(grid).reshape(SIZE * SIZE, -1), 99, axis=1)
    grid = np.where(page_lines(grid, noise), 0.0, grid)
    insets = _insets(grid)
    flat = insets.reshape(SIZE * SIZE, -1)
    peak, ground = np.percentile(flat, 99, axis=1), np.median(flat, axis=1)
    level = ground + SPAN_LEVEL * (peak - ground)
    span = tallest_strokes(insets >= level[:, None, None], 6) / insets.shape[1]
    return Marks(peak, span, noise, with_lines, grain)


def _insets(grid: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, side, side) each cell's inset (MARK_MARGIN clear of the grid lines)."""
    m = int(MARK_MARGIN * CELL)
    return grid.reshape(SIZE, CELL, SIZE, CELL).transpose(0, 2, 1, 3)[
        :, :, m:CELL - m, m:CELL - m].reshape(SIZE * SIZE, CELL - 2 * m, CELL - 2 * m)


def page_lines(grid: np.ndarray, noise: float = 0.0) -> np.ndarray:
    """(SIZE*CELL, SIZE*CELL) bool: the pixels of `grid` (darkness as a share of the
    page's darkest ink, a grid straightened at CELL pixels per cell) that lie on a page
    line (see LINE_LEVEL): straight runs found by a Hough transform on the insets' dark
    pixels, kept when they cross LINE_CELLS insets fully and run on between them."""
    m = int(MARK_MARGIN * CELL)
    within = np.arange(SIZE * CELL) % CELL
    inside = (within >= m) & (within < CELL - m)
    in_inset = inside[:, None] & inside[None, :]
    level = max(LINE_LEVEL, LINE_NOISE * noise)
    near = cv2.dilate((grid >= level).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    dark = (grid >= level) & in_inset
    # Gaps up to 5 margins: a line at 30 degrees crosses 2m / sin 30 = 24 px of paper
    # between two insets; crossing_cells then asks that paper to be dark too.
    found = cv2.HoughLinesP(dark.astype(np.uint8) * 255, 1, np.pi / 180, threshold=CELL,
                            minLineLength=int(1.4 * CELL), maxLineGap=5 * m)
    lines = np.zeros(grid.shape, np.uint8)
    if found is None:
        return lines > 0
    segments = found[:, 0]
    tilt = np.degrees(np.arctan2(np.abs(segments[:, 3] - segments[:, 1]),
                                 np.abs(segments[:, 2] - segments[:, 0])))
    cells = np.where(np.minimum(tilt, 90.0 - tilt) <= AXIS_TILT, AXIS_LINE_CELLS, LINE_CELLS)
    for x0, y0, x1, y1 in segments[crossing_cells(near, in_inset, segments, cells)]:
        cv2.line(lines, (int(x0), int(y0)), (int(x1), int(y1)), 1, 2 * LINE_WIDTH + 1)
    return (lines > 0) & (grid >= 0.5 * level)


def crossing_cells(near: np.ndarray, in_inset: np.ndarray, segments: np.ndarray,
                   cells: np.ndarray) -> np.ndarray:
    """(S,) bool: whether each of the (S, 4) segments (x0, y0, x1, y1) crosses its `cells`
    insets from side to side, dark (`near`) along LINE_COVER of its course in each and of
    each stretch between two of them (across a grid line), and at both ends of each
    inset's course (a stroke inside a cell stops short of the inset's edge). Every
    segment's course is sampled end to end (as np.linspace steps it) in one array, and
    its runs and the stretches between them are summed from one cumulative count."""
    x0, y0, x1, y1 = (segments[:, k].astype(np.int64) for k in range(4))
    dx, dy = x1 - x0, y1 - y0
    lengths = np.hypot(dx, dy).astype(np.int64) + 1
    seg = np.repeat(np.arange(len(segments)), lengths)
    starts = np.cumsum(lengths) - lengths
    pos = np.arange(seg.size) - starts[seg]
    t = pos * (1.0 / np.maximum(lengths - 1, 1))[seg]
    t[(starts + lengths - 1)[lengths > 1]] = 1.0  # linspace ends exactly on 1
    xs = np.clip(np.round(x0[seg] + t * dx[seg]).astype(int), 0, near.shape[1] - 1)
    ys = np.clip(np.round(y0[seg] + t * dy[seg]).astype(int), 0, near.shape[0] - 1)
    inside, on = in_inset[ys, xs], near[ys, xs]
    dark = np.r_[0, np.cumsum(on)]  # dark[b] - dark[a]: dark samples in [a, b)
    # Runs of a course inside one inset (never across two courses); the segment's own two
    # ends may stop anywhere.
    first = pos == 0
    last = np.r_[first[1:], True]
    a = np.flatnonzero(inside & (first | ~np.r_[False, inside[:-1]]))
    b = np.flatnonzero(inside & (last | ~np.r_[inside[1:], False])) + 1
    long_enough = b - a >= 4
    a, b = a[long_enough], b[long_enough]
    owner = seg[a]
    lo, hi = starts[owner], starts[owner] + lengths[owner]
    ok = np.ones(len(segments), bool)
    # Clear paper between two cells: strokes in each, not one line.
    same = owner[1:] == owner[:-1]
    gap_a, gap_b = b[:-1][same], a[1:][same]
    ok[owner[1:][same][(dark[gap_b] - dark[gap_a]) / (gap_b - gap_a) < LINE_COVER]] = False
    ends_ok = (((a == lo) | (dark[a + 3] - dark[a] == 3))
               & ((b == hi) | (dark[b] - dark[b - 3] == 3)))
    ok[owner[((dark[b] - dark[a]) / (b - a) < LINE_COVER) | ~ends_ok]] = False
    full = CELL - 2 * int(MARK_MARGIN * CELL) - 2
    crossed = np.bincount(owner, weights=((a > lo) & (b < hi)) | (b - a >= full),
                          minlength=len(segments))
    return ok & (crossed >= cells)


def _pixel_noise(insets: np.ndarray, step: int = 1) -> float:
    """The sigma of the pixel noise in the insets, from the median absolute difference of
    pixels `step` apart (strokes are a small share of them, their edges fewer still)."""
    steps = np.concatenate([np.abs(insets[:, step:] - insets[:, :-step]).ravel(),
                            np.abs(insets[:, :, step:] - insets[:, :, :-step]).ravel()])
    return float(np.median(steps)) / (0.6745 * np.sqrt(2.0))


def _log_ramp(x: np.ndarray, low: float, high: float) -> np.ndarray:
    """0 at or below `low`, 1 at or above `high`, linear in log x between."""
    return np.clip(np.log(np.maximum(x, 1e-6) / low) / np.log(high / low), 0.0, 1.0)


def mark_seen(contrast: np.ndarray, height: np.ndarray) -> np.ndarray:
    """How surely each cell holds a mark (0-1) by its contrast and height (see marks())."""
    return np.where(height >= MARK_HEIGHT, _log_ramp(contrast, *TALL_MARK_SEEN),
                    _log_ramp(contrast, *SMALL_MARK_SEEN))


def mark_seen_at_all(seen: Marks) -> np.ndarray:
    """(SIZE*SIZE,) how surely each cell holds any mark at all (the complement of
    with_mark_evidence's no-mark evidence, from the contrast with the page's lines left
    in)."""
    own = seen.contrast if seen.with_lines is None else seen.with_lines
    return _log_ramp(own, *NO_MARK)


def with_mark_evidence(probs: np.ndarray, contrast: np.ndarray, height: np.ndarray,
                       with_lines: np.ndarray | None = None, noise: float = 0.0) -> np.ndarray:
    """Class probabilities whose blank share heeds the cell's own marks (see marks()):
    a mark as dark as TALL_MARK_SEEN (SMALL_MARK_SEEN if short) caps p(blank), and a
    cell with no mark at all gets p(blank) at least as high as NO_MARK says; the rest is
    shared out as the cell model had it. The cell model reads ink at the page's scale,
    set by the print: on the half-solved photos it took light pencil digits in a shadow
    (a third as dark as the print) for blank at p 0.9-1.0, and a blank crossed by a
    shadow's edge for a printed digit. `with_lines`: the contrast with the page's lines
    left in (Marks.with_lines): a cell counts as having no mark only if that shows none
    either, as a thin printed 1 that lines up with a digit below it is taken for a line.
    `noise`: the share of the contrast that is the page's grain (NOISE_MARKS sigmas): a
    mark no darker than that is no mark either (a small, grainy photo's blank cells reach
    light pencil's contrast, and its print can make the page look written on)."""
    blank = probs[:, 0]
    seen = mark_seen(contrast, height)
    own = contrast if with_lines is None else with_lines
    unmarked = 1.0 - _log_ramp(own - noise, *NO_MARK)
    new_blank = np.maximum(np.minimum(blank, 1.0 - seen), unmarked)
    out = probs * ((1.0 - new_blank) / np.maximum(1.0 - blank, 1e-12))[:, None]
    out[:, 0] = new_blank
    return out / out.sum(axis=1, keepdims=True)
