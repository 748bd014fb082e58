"""Find the puzzle's outline: the quadrilateral whose inside has ink on the expected lines.

The largest quadrilateral in a photo is often the sheet of paper or a box beside the grid,
so every candidate outline is scored by how much ink lies along the lines a 9x9 grid
would have inside it, against the ink between them.
"""

from __future__ import annotations

import hashlib
from itertools import combinations

import cv2
import numpy as np

from services.recognizer.errors import RecognitionError
from services.recognizer.grid.tuning import (
    FAINT_CONTRAST,
    FAINT_WIDTH,
    FLANK,
    MIN_SCORE,
    OTHER_SIZE_HANDICAP,
    RULE_CELL,
    SCORE_CELL,
    SPUR_CORNERS,
    SPUR_HANDICAP,
    SPUR_HULLS,
    TIED_RUNS,
)


def binarize(gray: np.ndarray) -> np.ndarray:
    """Dark ink as 255 on 0, robust to uneven light (local mean threshold)."""
    block = max(11, (max(gray.shape) // 40) | 1)
    smooth = cv2.GaussianBlur(gray, (3, 3), 0)
    return cv2.adaptiveThreshold(smooth, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                 cv2.THRESH_BINARY_INV, block, 4)


def faint_lines(gray: np.ndarray) -> np.ndarray:
    """Thin dark lines that run straight across or down for a while, as 255 on 0, however
    faint: 1-px light-grey lines flanked by a cage's dotted outline are lost to the local
    threshold (the dots raise its mean) but stand out against their own ground.

    A black-hat across the line finds dark ink narrower than FAINT_WIDTH; an opening along
    it keeps only unbroken runs, so dotted outlines, digits and paper grain drop out."""
    length = max(15, max(gray.shape) // 40)
    found = np.zeros(gray.shape, np.uint8)
    for across, along in (((FAINT_WIDTH, 1), (1, length)), ((1, FAINT_WIDTH), (length, 1))):
        hat = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, np.ones(across, np.uint8))
        thin = (hat >= FAINT_CONTRAST).astype(np.uint8) * 255
        found |= cv2.morphologyEx(thin, cv2.MORPH_OPEN, np.ones(along, np.uint8))
    # As wide as a binarized line: a 1-px line resampled off the pixel grid would fade.
    return cv2.dilate(found, np.ones((3, 3), np.uint8))


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points as TL, TR, BR, BL (clockwise on screen from the top left)."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, starting anywhere
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def _extreme_quad(hull: np.ndarray) -> np.ndarray:
    """Corners as the hull points furthest along the diagonals; survives bent sides."""
    pts = hull.reshape(-1, 2).astype(np.float32)
    s, d = pts.sum(axis=1), pts[:, 0] - pts[:, 1]
    return np.array([pts[s.argmin()], pts[d.argmax()], pts[s.argmax()], pts[d.argmin()]])


def _candidates(binary: np.ndarray, limit: int = 20,
                spurs: list | None = None) -> list[np.ndarray]:
    """Outlines of the largest ink shapes. With `spurs`, each of the largest hulls with a
    corner or two more than four adds (its own outline, its 4-corner subsets) there."""
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 0.01 * binary.shape[0] * binary.shape[1]
    hulls = [cv2.convexHull(c) for c in contours]
    hulls = [h for h in hulls if cv2.contourArea(h) >= min_area]
    hulls.sort(key=cv2.contourArea, reverse=True)
    quads = []
    for rank, hull in enumerate(hulls[:limit]):
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quads.append(order_corners(approx))
        extreme = order_corners(_extreme_quad(hull))
        # On a clean outline both give the same corners: score them once.
        if len(approx) != 4 or np.abs(extreme - quads[-1]).max() > 1.0:
            quads.append(extreme)
        if spurs is not None and rank < SPUR_HULLS and len(approx) in SPUR_CORNERS:
            spurs.append((extreme, [order_corners(approx[list(keep)]) for keep in
                                    combinations(range(len(approx)), 4)]))
    return quads


def straight_lines(binary: np.ndarray) -> np.ndarray:
    """Only the ink that runs straight across or down for a while: grid lines without the
    digits, and without the curved edges of shadows that join a grid to the table."""
    length = max(15, max(binary.shape) // 30)
    across = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return cv2.dilate(across | down, np.ones((3, 3), np.uint8))


def without_dark_regions(gray: np.ndarray, binary: np.ndarray) -> np.ndarray:
    """Ink away from large dark regions (a hand's or a phone's shadow, a dark table).

    The local threshold draws the edge of such a region as a line of ink; where it
    touches a corner of the grid, the grid's outline runs on along the shadow's edge.
    """
    smooth = cv2.GaussianBlur(gray, (5, 5), 0)
    _, dark = cv2.threshold(smooth, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    wide = max(9, max(gray.shape) // 60)  # wider than any grid line or digit stroke
    regions = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((wide, wide), np.uint8))
    reach = max(11, (max(gray.shape) // 40) | 1)  # the local threshold's block
    near = cv2.dilate(regions, np.ones((reach, reach), np.uint8))
    return cv2.bitwise_and(binary, cv2.bitwise_not(near))


def _plausible(quad: np.ndarray, image_area: float) -> bool:
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.float32)):
        return False
    area = cv2.contourArea(quad)
    if area < 0.01 * image_area:
        return False
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return sides.min() > 0.3 * sides.max()


def grid_score(binary: np.ndarray, quad: np.ndarray, size: int = 9) -> float:
    """Share of the expected grid lines covered by ink, minus the share between them."""
    c = SCORE_CELL
    side = size * c
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    warped = cv2.warpPerspective(binary, matrix, (side + 1, side + 1), flags=cv2.INTER_NEAREST)
    ink = warped > 0
    # Let a line wander a few pixels (bent pages, imprecise corners).
    spread = np.ones((c // 3 * 2 + 1, 1), np.uint8)
    rows = cv2.dilate(ink.astype(np.uint8), spread) > 0
    cols = cv2.dilate(ink.astype(np.uint8), spread.T) > 0
    # Each line's share at once (counts of pixels: exact in any order of summing).
    lines, middles = np.arange(size + 1) * c, np.arange(size) * c + c // 2
    on = [*rows[lines, :].mean(axis=1), *cols[:, lines].mean(axis=0)]
    mid = [*ink[middles, :].mean(axis=1), *ink[:, middles].mean(axis=0)]
    # A grid is mostly paper; noise or a dark photo is ink everywhere and matches any lines.
    crowding = max(0.0, float(ink.mean()) - 0.3) * 3
    # The weakest inner line counts too: a sheet of paper has ink on its border only.
    inner = sorted(on[1:size] + on[size + 2:2 * size + 1])
    return float(np.mean(on) * 0.5 + np.mean(inner[:4]) * 0.5 - np.mean(mid) - crowding)


# Sudoku sides other than 9 (see grid/shape.py), tried when an outline is not clearly 9x9. They
# score a little lower, so a 9x9 outline wins a tie.
OTHER_SIZES = (4, 6, 8, 12, 16)


def continues_outside(binary: np.ndarray, quad: np.ndarray, size: int) -> float:
    """Share of the outline's inner lines whose ink carries on beyond its border,
    over its four sides (see sides_continued)."""
    return float(np.mean(sides_continued(binary, quad, size)))


def sides_continued(binary: np.ndarray, quad: np.ndarray, size: int) -> np.ndarray:
    """(4,) shares of the inner lines whose ink carries on beyond each side of the
    outline (top, bottom, left, right): near 1 when the outline is one box of a larger grid
    (a 4x4-cell box of a 16x16 grid looks like a whole 4x4 sudoku inside), near 0 for a
    grid standing on its own.

    A line carries on when its (widened) ink runs through most of the band and does not
    a little way to both sides of it: text, stripes or grain beside the grid fill those
    too (a textured 6x6 killer measured 0.6-1.0 on every side, a 6x6 killer on a page of
    text 1.0 above and below it, and were read as a block of a larger grid), while the
    cells beyond a block of a larger grid leave paper beside their lines. See
    pipeline.SIDE_RUNS_ON for how the sides are weighed."""
    c = SCORE_CELL
    side = size * c
    dim = side + 2 * c
    target = np.array([[c, c], [c + side, c], [c + side, c + side], [c, c + side]],
                      np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    ink = cv2.warpPerspective(binary, matrix, (dim, dim), flags=cv2.INTER_NEAREST) > 0
    # Widened both ways: the light thin lines of a photo binarize in broken pieces.
    ink = cv2.dilate(ink.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    near, far = c // 3, c - 2  # beyond the outer line's own width, up to a cell out
    bands = [ink[c - far:c - near, c:c + side], ink[c + side + near:c + side + far, c:c + side],
             ink[c:c + side, c - far:c - near].T, ink[c:c + side, c + side + near:c + side + far].T]
    lines = np.arange(c, side, c)
    shares = []
    for band in bands:
        full = band.mean(axis=0) > 0.8
        # Text, stripes or grain beside the grid fill the band on both sides of a line as
        # well; beside a larger grid's lines lies the paper of its cells' edges.
        runs_on = full[lines] & ~(full[lines - FLANK] & full[lines + FLANK])
        shares.append(float(runs_on.mean()))
    return np.array(shares)


def _rules(profile: np.ndarray) -> np.ndarray:
    """Middles of the strong runs in a line profile (share of a row that is line ink)."""
    strong = np.concatenate([[False], profile >= 0.5, [False]])
    edges = np.flatnonzero(np.diff(strong.astype(np.int8)))
    return (edges[0::2] + edges[1::2] - 1) / 2.0


def _run_score(rules: np.ndarray, first: float, last: float, count: int) -> int:
    """How well `count` evenly spaced positions from first to last explain the rules: the
    positions with a rule near, less the rules between first and last that lie near none,
    less a missing end rule (a grid's outline is always drawn).

    Thin rules often vanish in a photo and leave only the thick box rules; a run that
    explains those and leaves none of them unexplained still wins.
    """
    gap = (last - first) / (count - 1)
    expected = first + gap * np.arange(count)
    distance = np.abs(rules[None, :] - expected[:, None])
    near = distance.min(axis=1) < 0.2 * gap
    inside = (rules > first - 0.2 * gap) & (rules < last + 0.2 * gap)
    stray = inside & (distance.min(axis=0) >= 0.2 * gap)
    return int(near.sum()) - int(stray.sum()) - int((~near[[0, -1]]).sum())


BOX_RULES = 4  # a 9x9 grid's four thick rules each way: the least a run must explain


def _evenly_ruled(rules: np.ndarray, count: int, span: float) -> list[tuple[float, float]]:
    """First and last rule of each evenly spaced run of `count` rules that explains the
    rules clearly better than the outline's own edges (0 and span) do, and best of all
    runs (several may tie); empty if none does. Rules of a run may be missing (faint,
    broken by a fold)."""
    own = _run_score(rules, 0.0, span, count) if len(rules) else 0
    best, best_score = [], max(BOX_RULES, own + 2)
    for i, first in enumerate(rules):
        for last in rules[i + 1:]:
            if last - first < 0.5 * span:
                continue
            score = _run_score(rules, first, last, count)
            if score > best_score:
                best, best_score = [], score
            if score == best_score:
                best.append((float(first), float(last)))
    return best


def trimmed_outlines(binary: np.ndarray, corners: np.ndarray,
                     size: int = 9) -> list[np.ndarray]:
    """The outline narrowed to the grid's own size+1 evenly spaced rules each way.

    A ruled frame around a heading above the grid (or a box beside it) joins the grid's
    outline: the outline then holds more than size+1 rules, and its cells come out a row
    off. An outline with exactly the grid's rules comes back as it is. Where several runs
    of rules explain the rules equally well (a heading as tall as a row; thick rules
    blurred together in a small photo), each is returned, for the lattice to decide.
    """
    side = size * RULE_CELL
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    ink = cv2.warpPerspective(binary, matrix, (side + 1, side + 1), flags=cv2.INTER_NEAREST)
    length = side // 3
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8)) > 0
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8)) > 0
    y_runs = _evenly_ruled(_rules(across.mean(axis=1)), size + 1, side)
    x_runs = _evenly_ruled(_rules(down.mean(axis=0)), size + 1, side)
    if not y_runs and not x_runs:
        return [corners]
    back = np.linalg.inv(matrix)
    outlines = []
    for y0, y1 in (y_runs or [(0.0, side)])[:TIED_RUNS]:
        for x0, x1 in (x_runs or [(0.0, side)])[:TIED_RUNS]:
            inner = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            outlines.append(cv2.perspectiveTransform(inner.reshape(-1, 1, 2), back).reshape(4, 2))
    return outlines


# Kind-neutral: the kind may have been left to find out, and no kind's grid was found.
NO_GRID = ("no puzzle grid was found in the picture: photograph the whole puzzle, flat and "
           "in focus, with all four corners in the picture")


def scored_grids(gray: np.ndarray, binary: np.ndarray | None = None,
                 min_score: float = MIN_SCORE,
                 other_sides: bool = False) -> list[tuple[float, np.ndarray]]:
    """(score, outline) pairs scoring at least `min_score`, the most grid-like first.
    With `other_sides`, an outline not clearly 9x9 scores as the best of the other sides."""
    binary = binarize(gray) if binary is None else binary
    area = float(gray.shape[0] * gray.shape[1])
    scored = []
    for quad, score in nine_by_nine_scores(gray, binary):
        if other_sides and score < MIN_SCORE:  # not clearly 9x9: maybe another side
            score = max([score] + [grid_score(binary, quad, n) - OTHER_SIZE_HANDICAP
                                   - continues_outside(binary, quad, n)
                                   for n in OTHER_SIZES])
        # Among outlines that fit equally well, prefer the larger (the whole grid, not a box).
        score += 0.05 * np.sqrt(cv2.contourArea(quad) / area)
        if score >= min_score:
            scored.append((score, quad.copy()))
    scored.sort(key=lambda item: -item[0])
    return scored


def nine_by_nine_scores(gray: np.ndarray, binary: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """(outline, grid score as 9x9) of every plausible candidate outline, each once.

    Kept for the last few pictures: locate scores a picture's outlines for 9x9 and then
    for other sides, and the killer reader asks again for the best outline of the same
    picture (killer.grid_corners); finding and scoring them is most of their cost."""
    key = (gray.shape, _digest(gray), _digest(binary))
    if key not in _RECENT:
        if len(_RECENT) >= RECENT_PICTURES:
            _RECENT.pop(next(iter(_RECENT)))
        _RECENT[key] = _score_outlines(gray, binary)
    return _RECENT[key]


RECENT_PICTURES = 4
_RECENT: dict[tuple, list[tuple[np.ndarray, float]]] = {}


def _digest(picture: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(picture).data, digest_size=16).digest()


def _score_outlines(gray: np.ndarray, binary: np.ndarray) -> list[tuple[np.ndarray, float]]:
    area = float(gray.shape[0] * gray.shape[1])
    out, seen = [], []
    near = 0.01 * max(gray.shape)  # corners this close make the same outline
    sources = (binary, straight_lines(binary), without_dark_regions(gray, binary))
    spurs: list = []
    quads = [quad for source in sources for quad in _candidates(source, spurs=spurs)]
    # A hull's 4-corner subsets are tried only where its own outline looks like no grid
    # (a spur bends it); on a grid whose outline holds, noise's extra corners would offer
    # wrong outlines that can score as well.
    spur_quads = [quad for _, subsets in spurs for quad in subsets]
    for index, quad in enumerate(quads + spur_quads):
        if not _plausible(quad, area) or any(np.abs(quad - q).max() < near for q in seen):
            continue
        seen.append(quad)
        out.append((quad, grid_score(binary, quad)
                    - (SPUR_HANDICAP if index >= len(quads) else 0.0)))
    return out


def rank_grids(gray: np.ndarray, binary: np.ndarray | None = None) -> list[np.ndarray]:
    """Outlines that look like a grid (corners TL, TR, BR, BL), the most grid-like first."""
    return [quad for _, quad in scored_grids(gray, binary)]


def find_grid(gray: np.ndarray, binary: np.ndarray | None = None) -> np.ndarray:
    """Grid corners TL, TR, BR, BL in `gray`'s pixels; RecognitionError when there is none."""
    ranked = rank_grids(gray, binary)
    if not ranked:
        raise RecognitionError(NO_GRID)
    return ranked[0]
