"""Marks a person made on a half-solved page: their ink told from the page's lines and noise,
and the evidence of a mark that each cell's kind reading weighs."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from services.recognizer.cells.kinds import CELL, SIZE
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
    tallest blob of the mark's pixels (SPAN_LEVEL), as a share of the inset."""
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
    span = np.array([_tallest_blob(inset >= t) for inset, t in zip(insets, level, strict=True)])
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
    # between two insets; _crosses_cells then asks that paper to be dark too.
    found = cv2.HoughLinesP(dark.astype(np.uint8) * 255, 1, np.pi / 180, threshold=CELL,
                            minLineLength=int(1.4 * CELL), maxLineGap=5 * m)
    lines = np.zeros(grid.shape, np.uint8)
    for x0, y0, x1, y1 in ([] if found is None else found[:, 0]):
        tilt = np.degrees(np.arctan2(abs(int(y1) - int(y0)), abs(int(x1) - int(x0))))
        along_axis = min(tilt, 90.0 - tilt) <= AXIS_TILT
        cells = AXIS_LINE_CELLS if along_axis else LINE_CELLS
        if _crosses_cells(near, in_inset, (x0, y0), (x1, y1), cells):
            cv2.line(lines, (int(x0), int(y0)), (int(x1), int(y1)), 1, 2 * LINE_WIDTH + 1)
    return (lines > 0) & (grid >= 0.5 * level)


def _crosses_cells(near: np.ndarray, in_inset: np.ndarray, start, end,
                   cells: int = LINE_CELLS) -> bool:
    """Whether the segment from `start` to `end` (x, y) crosses `cells` insets from
    side to side, dark (`near`) along LINE_COVER of its course in each and of each stretch
    between two of them (across a grid line), and at both ends of each inset's course (a
    stroke inside a cell stops short of the inset's edge)."""
    length = int(np.hypot(end[0] - start[0], end[1] - start[1])) + 1
    t = np.linspace(0.0, 1.0, length)
    xs = np.clip(np.round(start[0] + t * (end[0] - start[0])).astype(int), 0, near.shape[1] - 1)
    ys = np.clip(np.round(start[1] + t * (end[1] - start[1])).astype(int), 0, near.shape[0] - 1)
    inside, on = in_inset[ys, xs], near[ys, xs]
    # Runs of the course inside one inset; the segment's own two ends may stop anywhere.
    edges = np.flatnonzero(np.diff(np.r_[0, inside.astype(np.int8), 0]))
    runs = [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 4]
    full = CELL - 2 * int(MARK_MARGIN * CELL) - 2
    for (_, b), (a, _) in zip(runs, runs[1:]):
        if on[b:a].mean() < LINE_COVER:
            return False  # clear paper between two cells: strokes in each, not one line
    crossed = 0
    for a, b in runs:
        run = on[a:b]
        ends_ok = (a == 0 or run[:3].all()) and (b == length or run[-3:].all())
        if run.mean() < LINE_COVER or not ends_ok:
            return False
        crossed += (a > 0 and b < length) or b - a >= full
    return crossed >= cells


def _pixel_noise(insets: np.ndarray, step: int = 1) -> float:
    """The sigma of the pixel noise in the insets, from the median absolute difference of
    pixels `step` apart (strokes are a small share of them, their edges fewer still)."""
    steps = np.concatenate([np.abs(insets[:, step:] - insets[:, :-step]).ravel(),
                            np.abs(insets[:, :, step:] - insets[:, :, :-step]).ravel()])
    return float(np.median(steps)) / (0.6745 * np.sqrt(2.0))


def _tallest_blob(strokes: np.ndarray) -> float:
    """The height of the tallest blob of 6 pixels or more, as a share of the picture's."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(strokes.astype(np.uint8), connectivity=8)
    big = stats[1:, cv2.CC_STAT_AREA] >= 6
    return float(stats[1:, cv2.CC_STAT_HEIGHT][big].max()) / strokes.shape[0] if big.any() \
        else 0.0


def _log_ramp(x: np.ndarray, low: float, high: float) -> np.ndarray:
    """0 at or below `low`, 1 at or above `high`, linear in log x between."""
    return np.clip(np.log(np.maximum(x, 1e-6) / low) / np.log(high / low), 0.0, 1.0)


def mark_seen(contrast: np.ndarray, height: np.ndarray) -> np.ndarray:
    """How surely each cell holds a mark (0-1) by its contrast and height (see marks())."""
    return np.where(height >= MARK_HEIGHT, _log_ramp(contrast, *TALL_MARK_SEEN),
                    _log_ramp(contrast, *SMALL_MARK_SEEN))


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
