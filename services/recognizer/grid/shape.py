"""A grid's size and box shape from its picture: count the lattice's lines, weigh them.

Sudoku come in 4x4 (2x2 boxes), 6x6 (2x3), 8x8 (2x4), 9x9, 12x12 (3x4) and 16x16 (4x4).
The size is the count of evenly spaced rules that explains the rules inside the outline:
every expected position has a rule near it, and no rule lies between them. Counting
matters more than fitting: ten evenly spaced lines can be found inside a 16x16 grid
(a 9x9 "grid" of its first cells), so a size whose run leaves rules unexplained inside
its own span is not taken. The box shape is then read from which inner lines are thick.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.outlines import grid_score
from services.recognizer.grid.straighten import PATCH, ink_map, straighten
from services.recognizer.grid.tuning import (
    CLEAR_BOXES,
    CLEAR_CONTRAST,
    CLEAR_MARGIN,
    FAINT_FLOOR,
    FAINT_SHARE,
    INK_MARGIN,
    LATTICE_NOISE,
    LATTICE_RULE,
    MISSING,
    SIDE,
)

SIZES = (4, 6, 8, 9, 12, 16)
USUAL = 9


def _rules(profile: np.ndarray) -> np.ndarray:
    """Middles of the strong runs in a line profile (share of a row that is line ink)."""
    strong = np.concatenate([[False], profile >= 0.5, [False]])
    edges = np.flatnonzero(np.diff(strong.astype(np.int8)))
    return (edges[0::2] + edges[1::2] - 1) / 2.0


def _run_score(rules: np.ndarray, count: int, span: float) -> float:
    """How well `count` evenly spaced positions, from the best first/last pair of rules,
    explain `rules`: rules matched minus rules left unexplained anywhere (ten evenly spaced
    lines of a 16x16 grid match a 9x9 run perfectly, but leave seven lines over). -inf if
    no run of `count` matches with at most MISSING of its rules missing."""
    first, last = np.triu_indices(len(rules), 1)  # every pair, first before last
    first, last = rules[first], rules[last]
    wide = last - first >= 0.5 * span
    first, last = first[wide], last[wide]
    if not len(first):
        return -np.inf
    gap = (last - first) / (count - 1)
    expected = first[:, None] + gap[:, None] * np.arange(count)
    near = np.abs(rules[None, None, :] - expected[:, :, None]) < 0.2 * gap[:, None, None]
    matched = near.any(axis=2).sum(axis=1)
    stray = (~near.any(axis=1)).sum(axis=1)
    scores = (matched - stray)[matched >= count - MISSING]
    return float(scores.max()) if len(scores) else -np.inf


def rule_positions(binary: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Middles of the long straight rules across (y) and down (x) inside the outline, in
    pixels of a SIDE-square straightening of it."""
    target = np.array([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    ink = cv2.warpPerspective(binary, matrix, (SIDE + 1, SIDE + 1), flags=cv2.INTER_NEAREST)
    gap = max(3, SIDE // 80)  # thin lines of blurry photos binarize as dashes
    # Longer than any digit, shorter than the dashes light thin lines break into in a
    # photo; the rule must then still cover half the side (see _rules).
    length = SIDE // 6
    across = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    across = cv2.morphologyEx(across, cv2.MORPH_OPEN, np.ones((1, length), np.uint8)) > 0
    down = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((gap, 1), np.uint8))
    down = cv2.morphologyEx(down, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8)) > 0
    return _with_edges(_rules(across.mean(axis=1))), _with_edges(_rules(down.mean(axis=0)))


def _with_edges(rules: np.ndarray) -> np.ndarray:
    """The outline's own sides count as rules: the outline was traced along ink, though a
    shadow or a fold may break that ink into pieces too short to pass as a rule here."""
    near = 0.02 * SIDE
    missing = [edge for edge in (0.0, float(SIDE)) if not (np.abs(rules - edge) < near).any()]
    return np.sort(np.concatenate([rules, missing]))


def faint_rule_positions(gray: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rules across and down found in the grey picture, not its binarization: light grey
    thin lines (app styles) photographed small fall apart when binarized, but still stand
    out as darker than the paper just beside them."""
    grey = _straightened(gray, corners)
    found = []
    for across in (True, False):
        # Darkness against the paper a few pixels to either side of a line.
        beside = np.ones((9, 1) if across else (1, 9), np.uint8)
        response = cv2.GaussianBlur(cv2.subtract(
            cv2.morphologyEx(grey, cv2.MORPH_CLOSE, beside), grey), (3, 3), 0)
        otsu, _ = cv2.threshold(response, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        # Otsu parts thick lines from the rest; thin light lines lie well below it.
        lines = (response > max(FAINT_FLOOR, FAINT_SHARE * otsu)).astype(np.uint8)
        along = np.ones((1, SIDE // 6) if across else (SIDE // 6, 1), np.uint8)
        gap = np.ones((1, 6) if across else (6, 1), np.uint8)
        lines = cv2.morphologyEx(cv2.morphologyEx(lines, cv2.MORPH_CLOSE, gap),
                                 cv2.MORPH_OPEN, along) > 0
        found.append(_with_edges(_rules(lines.mean(axis=1 if across else 0))))
    return found[0], found[1]


def _straightened(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The outline's inside in `gray`, straightened to a SIDE square."""
    target = np.array([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return cv2.warpPerspective(gray, matrix, (SIDE + 1, SIDE + 1), flags=cv2.INTER_LINEAR)


def lattice_rule_positions(gray: np.ndarray,
                           corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rules across and down found line by line in the grey picture: each row's (column's)
    median darkness against the paper beside it. A rule spans the whole grid, so it
    darkens the median of its row however faint it is, where digits darken only part of
    theirs: the light cell lines of a photographed 12x12 or 16x16, a few grey levels
    below the paper, fall short of both the binarization and faint_rule_positions'
    share of the box lines' darkness (a tenth of it here)."""
    # In float: a faint rule is a few grey levels deep, and whole levels would blur it.
    grey = _straightened(gray.astype(np.float32), corners)
    found = []
    for across in (True, False):
        beside = np.ones((9, 1) if across else (1, 9), np.uint8)
        darker = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, beside) - grey
        profile = np.median(darker, axis=1 if across else 0)
        # A line resampled between two rows darkens each by half: take the pair's best.
        profile = np.maximum(profile, np.maximum(np.roll(profile, 1), np.roll(profile, -1)))
        paper = float(np.median(profile))
        spread = float(np.median(np.abs(profile - paper))) + LATTICE_NOISE
        inner = profile[1:-1]
        peaks = np.flatnonzero((inner >= profile[:-2]) & (inner > profile[2:])
                               & (inner >= paper + LATTICE_RULE * spread)) + 1
        found.append(_with_edges(peaks.astype(float)))
    return found[0], found[1]


def size_scores(binary: np.ndarray, corners: np.ndarray,
                gray: np.ndarray | None = None) -> dict[int, tuple[float, float]]:
    """Score of each sudoku size for the outline, across and down (from the binarized
    picture; from the grey one's faint rules when `gray` is given)."""
    ys, xs = rule_positions(binary, corners) if gray is None else \
        faint_rule_positions(gray, corners)
    return {n: (_run_score(ys, n + 1, SIDE), _run_score(xs, n + 1, SIDE)) for n in SIZES}


def _clearly_other(scores: dict[int, tuple[float, float]]) -> int | None:
    """The side other than 9 that explains its own rules nearly all (one may be missing,
    none over), each way, and two rules more than 9 does, each way; None if none does."""
    best = max(SIZES, key=lambda n: (min(scores[n]), n))
    if best != USUAL and all(mine >= best and mine >= nine + 2
                             for mine, nine in zip(scores[best], scores[USUAL], strict=True)):
        return best
    return None


def grid_size(binary: np.ndarray, corners: np.ndarray, gray: np.ndarray | None = None) -> int:
    """The side of the grid inside the outline. 9 unless another size explains clearly
    more of the rules (two rules or more): a 9x9 picture is not read as another size on a
    doubt.

    Light thin lines in a photo may not binarize as whole rules; when 9 explains no run
    of rules either, the sizes are weighed by ink on their expected lines instead
    (grid.grid_score), and another size must beat 9 clearly there."""
    scores = size_scores(binary, corners)
    other = _clearly_other(scores)
    if other is not None:
        return other
    if np.isfinite(max(scores[USUAL])):
        return USUAL
    if gray is not None:  # no run of rules at all: look for faint ones in the grey picture
        other = _clearly_other(size_scores(binary, corners, gray))
        if other is not None:
            return other
    by_ink = {n: grid_score(binary, corners, n) for n in SIZES}
    best = max(SIZES, key=lambda n: by_ink[n])
    if best != USUAL and by_ink[best] >= by_ink[USUAL] + INK_MARGIN:
        return best
    return USUAL


def lattice_count(gray: np.ndarray, corners: np.ndarray) -> tuple[int | None, float]:
    """(side, share of its rules explained the weaker way) of the side other than 9 that
    the rules counted line by line in the grey picture (lattice_rule_positions) explain
    clearly (see _clearly_other); (None, 0.0) when none does."""
    scores = _lattice_scores(gray, corners)
    side = _clearly_other(scores)
    return (None, 0.0) if side is None else (side, min(scores[side]) / (side + 1))


def _lattice_scores(gray: np.ndarray, corners: np.ndarray) -> dict[int, tuple[float, float]]:
    """Score of each size, across and down, for the rules counted line by line."""
    ys, xs = lattice_rule_positions(gray, corners)
    return {n: (_run_score(ys, n + 1, SIDE), _run_score(xs, n + 1, SIDE)) for n in SIZES}


def nine_count(gray: np.ndarray, corners: np.ndarray) -> float:
    """Share of a 9x9's rules found line by line in the grey picture inside the outline
    (the weaker way), when 9 explains them nearly all (one may be missing, none over) and
    two rules more than any other size does, each way; 0.0 otherwise."""
    scores = _lattice_scores(gray, corners)
    for way in range(2):
        nine = scores[USUAL][way]
        if nine < USUAL or any(nine < scores[n][way] + 2 for n in SIZES if n != USUAL):
            return 0.0
    return min(scores[USUAL]) / (USUAL + 1)


def box_shapes(size: int) -> list[tuple[int, int]]:
    """Box shapes (rows, cols) a sudoku of this side can have, the common ones."""
    shapes = [(r, size // r) for r in range(2, size) if size % r == 0 and 2 <= size // r]
    # Boxes of one row or column are not sudoku boxes; 16x16 uses 4x4, not 2x8.
    return [s for s in shapes if max(s) <= 2 * min(s)] or shapes


def line_weights(gray: np.ndarray, lattice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ink across each inner horizontal and vertical line of the straightened grid: a thick
    (box) line holds more ink across its width than a thin one."""
    n = lattice.shape[0] - 1
    ink = np.minimum(ink_map(straighten(gray, lattice)), 1.0)
    band = PATCH // 4
    # Middle half of each line only: digits and crossings sit elsewhere.
    rows = np.array([ink[k * PATCH - band:k * PATCH + band, :].mean() for k in range(1, n)])
    cols = np.array([ink[:, k * PATCH - band:k * PATCH + band].mean() for k in range(1, n)])
    return rows, cols


def box_shape(gray: np.ndarray, lattice: np.ndarray) -> tuple[tuple[int, int], float]:
    """(box rows, box cols) from which lines are thick, and how clearly (0..1): the gap
    between thick and thin lines' ink against the thick lines' ink."""
    n = lattice.shape[0] - 1
    shapes = box_shapes(n)
    if len(shapes) == 1:
        return shapes[0], 1.0
    rows, cols = line_weights(gray, lattice)
    inner = np.arange(1, n)

    def contrast(weights: np.ndarray, every: int) -> float:
        thick = weights[inner % every == 0]
        thin = weights[inner % every != 0]
        return float((thick.min() - thin.max()) / max(thick.mean(), 1e-6))

    scored = [(min(contrast(rows, br), contrast(cols, bc)), (br, bc)) for br, bc in shapes]
    scored.sort(reverse=True)
    best, shape = scored[0]
    # Clear when the box lines hold clearly more ink than every other line, both ways; or
    # when they hold more (a blurred photo's thin lines spread nearly as wide) and the
    # other shape's lines clearly do not: its "box lines" hold less than some thin lines.
    clarity = float(np.clip(best / CLEAR_CONTRAST, 0.0, 1.0))
    if best > 0 and len(scored) > 1:
        clarity = max(clarity, float(np.clip((best - scored[1][0]) / CLEAR_MARGIN, 0.0, 1.0)))
    if clarity < 0.5:
        # Lines all alike: the usual shape, fewer rows than columns (2x3, 2x4, 3x4), as
        # puzzles print it most; the low clarity says it is a guess.
        shape = min(shapes)
    return shape, clarity


def box_fields(gray: np.ndarray, lattice: np.ndarray) -> dict:
    """The Reading's box, box_confidence and (when the shape is a guess) a warning, from
    which of the grid's lines are thick."""
    n = lattice.shape[0] - 1
    (box_rows, box_cols), box_clarity = box_shape(gray, lattice)
    warnings = [UNCLEAR_BOXES.format(n=n, r=box_rows, c=box_cols)] \
        if box_clarity < CLEAR_BOXES else []
    return dict(box=(box_rows, box_cols), box_confidence=round(box_clarity, 4),
                warnings=warnings)


UNCLEAR_BOXES = ("the {n}x{n} grid's box lines are hard to tell from the others: it was "
                 "read with boxes of {r} rows by {c} columns; check that this is right")
