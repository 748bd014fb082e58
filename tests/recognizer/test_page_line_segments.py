"""crossing_cells (every Hough segment of a page at once) decides exactly as the rule read
one segment at a time (crosses_cells below, the rule written plainly) on the segments
of photographed pages written on, and on random segments over the same pages."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.photo import photograph
from services.recognizer.cells.kinds import CELL, SIZE
from services.recognizer.cells.marks import crossing_cells
from services.recognizer.cells.tuning import LINE_COVER, MARK_MARGIN


def crosses_cells(near, in_inset, start, end, cells) -> bool:
    """The rule for one segment, step by step."""
    length = int(np.hypot(end[0] - start[0], end[1] - start[1])) + 1
    t = np.linspace(0.0, 1.0, length)
    xs = np.clip(np.round(start[0] + t * (end[0] - start[0])).astype(int), 0, near.shape[1] - 1)
    ys = np.clip(np.round(start[1] + t * (end[1] - start[1])).astype(int), 0, near.shape[0] - 1)
    inside, on = in_inset[ys, xs], near[ys, xs]
    edges = np.flatnonzero(np.diff(np.r_[0, inside.astype(np.int8), 0]))
    runs = [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 4]
    full = CELL - 2 * int(MARK_MARGIN * CELL) - 2
    for (_, b), (a, _) in zip(runs, runs[1:]):
        if on[b:a].mean() < LINE_COVER:
            return False
    crossed = 0
    for a, b in runs:
        run = on[a:b]
        ends_ok = (a == 0 or run[:3].all()) and (b == length or run[-3:].all())
        if run.mean() < LINE_COVER or not ends_ok:
            return False
        crossed += (a > 0 and b < length) or b - a >= full
    return crossed >= cells


def page_views(seed: int):
    """(near, in_inset, Hough segments) as page_lines makes them, of a page written on and
    of its photograph, with lines ruled across both."""
    rng = random.Random(seed)
    page = half_solved_page(seed).image
    side = SIZE * CELL
    m = int(MARK_MARGIN * CELL)
    within = np.arange(side) % CELL
    inside = (within >= m) & (within < CELL - m)
    in_inset = inside[:, None] & inside[None, :]
    for picture in (page, photograph(page, rng=rng)[0]):
        gray = cv2.cvtColor(np.asarray(picture.convert("RGB")), cv2.COLOR_RGB2GRAY)
        gray = cv2.resize(gray, (side, side), interpolation=cv2.INTER_AREA)
        for _ in range(3):  # creases and ruled lines across cells, as page lines are
            cv2.line(gray, (rng.randrange(side), rng.randrange(side)),
                     (rng.randrange(side), rng.randrange(side)), 30, rng.choice([1, 2]))
        cv2.line(gray, (0, 2 * CELL + CELL // 2), (side - 1, 2 * CELL + CELL // 2), 40, 2)
        dark = gray < 128
        near = cv2.dilate(dark.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        found = cv2.HoughLinesP((dark & in_inset).astype(np.uint8) * 255, 1, np.pi / 180,
                                threshold=CELL, minLineLength=int(1.4 * CELL),
                                maxLineGap=5 * m)
        hough = np.zeros((0, 4), np.int32) if found is None else found[:, 0]
        yield near, in_inset, hough


@pytest.mark.parametrize("seed", [5, 23])
def test_all_segments_at_once_decide_as_each_alone(seed):
    rng = np.random.default_rng(seed)
    crossing = tried = 0
    for near, in_inset, hough in page_views(seed):
        side = near.shape[0]
        scattered = rng.integers(-3, side + 3, (300, 4)).astype(np.int32)
        scattered[:20, 2:] = scattered[:20, :2]  # segments of one point
        for segments in (hough, scattered, np.concatenate([hough, scattered])):
            cells = rng.integers(1, 4, len(segments))
            together = crossing_cells(near, in_inset, segments, cells)
            alone = [crosses_cells(near, in_inset, s[:2], s[2:], k)
                     for s, k in zip(segments, cells, strict=True)]
            assert together.tolist() == alone
            crossing += int(together.sum())
            tried += len(segments)
    assert crossing >= 10 and tried > crossing  # lines found, and segments turned down
