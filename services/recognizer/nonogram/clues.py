"""Nonograms from a picture: the grid, its row clues to the left, its column clues above.

1. The grid is the largest connected web of long straight lines; its four corners give a
   homography to a straight view, where the lines are counted from their profiles (the
   width and the height may differ).
2. The same homography straightens the areas left of and above the grid, one cell of the
   grid becoming CLUE_CELL pixels. Ink blobs of digit size in a row's band, chained
   leftwards from the grid, are that row's clue; in a column's band, chained upwards,
   that column's. Blobs close together on one line are the digits of one number.
3. Each digit is read by the clue digit classifier (0..9, trained on the nonogram
   renderer's screenshots and photos by scripts/train_clues.py; the glyph features are the
   cage sums' of cells/glyphs.py), and each number's candidates are the products of its digits'
   probabilities.
4. Cells a person already filled (dark) or crossed ('x') are read as entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from services.contracts import ClueReading, SumCandidate
from services.recognizer.cells.classifier import DigitModel, load_model
from services.recognizer.cells.glyphs import Glyph, glyph_features, split_glyph
from services.recognizer.errors import RecognitionError
from services.recognizer.nonogram.ink import band_ink, ink_block, ink_of
from services.recognizer.nonogram.tuning import (
    CHAIN_GAP,
    CLUE_CELL,
    CLUE_RATE,
    CROSS_SHARE,
    DARKER_THAN_PAPER,
    DIGIT_GAP,
    DIGIT_HEIGHT,
    FAINT_LINE,
    FILLED_SHARE,
    FIRST_GAP,
    GRID_EDGE,
    LINE_SHARE,
    LONE_ONE,
    LONE_PRIOR,
    LOW_TWO_PRIOR,
    MAX_CANDIDATES,
    MAX_CLUE_CELLS,
    MAYBE_ONE,
    MAYBE_TWO,
    MAYBE_TWO_ANY,
    MIN_WEB_CELLS,
    MOST_PAIR,
    OFF_LATTICE,
    ONES_NEEDED,
    ONES_PRIOR,
    SOME_CLUES,
    STEPS_SHARE,
    SURE_ONE,
    TWO_ONES,
    TWO_PRIOR,
    WIDE_GLYPH,
    WIDE_PRIOR,
    WIDEST_NUMBER,
)
from services.recognizer.ranks import grey_ranked
from services.recognizer.stages import enter

CLUE_MODEL_PATH = Path(__file__).parents[1] / "models" / "clues.joblib"

MIN_SIDE, MAX_SIDE = 5, 60  # cells a side a nonogram grid may have


PAIR = 10  # the clue model's class after the digits: two touching digits seen as one glyph


def clue_model() -> DigitModel:
    """The shipped clue digit model: P(0..9, PAIR) over glyph_features rows."""
    return load_model(CLUE_MODEL_PATH)


def clue_proba(glyphs: list[Glyph], text_height: float, model: DigitModel | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """(P(0..9) of each glyph read as one digit, P(the glyph is two touching digits)), by
    `model` (None: the shipped clue model)."""
    probs = (model or clue_model()).predict_proba(np.stack([glyph_features(g, text_height)
                                                            for g in glyphs]))
    digits = probs[:, :PAIR]
    pair = probs[:, PAIR] if probs.shape[1] > PAIR else np.zeros(len(glyphs))
    return digits / np.maximum(digits.sum(axis=1, keepdims=True), 1e-12), pair


@dataclass
class NonogramGlyphs:
    """A nonogram found in a picture, its clue numbers still as ink."""

    width: int
    height: int
    corners: np.ndarray  # TL, TR, BR, BL in the picture's pixels
    row_numbers: list[list[list[Glyph]]]  # [row][number] -> its glyphs, in reading order
    col_numbers: list[list[list[Glyph]]]
    text_height: float


@dataclass
class NonogramRead:
    width: int
    height: int
    corners: np.ndarray  # TL, TR, BR, BL in the picture's pixels
    lattice: np.ndarray  # (height+1, width+1, 2) line intersections in the picture
    row_clues: list[list[ClueReading]]
    col_clues: list[list[ClueReading]]
    entries: list[list[list[float]]]  # [r][c] -> P(untouched, filled, crossed)


def grid_corners(ink: np.ndarray) -> tuple[np.ndarray, int]:
    """(corners TL, TR, BR, BL, cells enclosed) of the web of long lines enclosing the most
    cells: a page's edge or a frame encloses one, a grid a cell for each of its cells."""
    # Lines of a photo lean a few degrees: thickened, they still run straight long enough.
    thick = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    length = max(15, min(ink.shape) // 40)
    across = cv2.morphologyEx(thick, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(thick, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    lines = across | down
    contours, hierarchy = cv2.findContours(lines, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        raise NoGrid("no nonogram grid was found in the picture")
    links = hierarchy[0]
    best, best_cells = None, 0
    for k, (_, _, child, parent) in enumerate(links):
        if parent != -1:
            continue
        areas = []
        while child != -1:
            areas.append(cv2.contourArea(contours[child]))
            child = links[child][0]
        areas = np.sort([a for a in areas if a >= 9])
        if not len(areas):
            continue
        # A grid's cells are alike; a page's clutter leaves holes of every size. The
        # largest set of alike holes counts, not those alike the median: in a photo, thin
        # lines may show in one part of the grid and vanish in another, where the thick
        # lines' blocks of 5x5 cells are the holes (as many small as large holes).
        cells = int((np.searchsorted(areas, 1.6 * areas, "left")
                     - np.searchsorted(areas, 0.6 * areas, "right")).max())
        if cells > best_cells:
            best, best_cells = k, cells
    if best is None or best_cells < MIN_WEB_CELLS:
        raise NoGrid("no nonogram grid was found in the picture")
    points = contours[best].reshape(-1, 2).astype(np.float32)
    s, d = points.sum(axis=1), points[:, 0] - points[:, 1]
    corners = np.array([points[s.argmin()], points[d.argmax()], points[s.argmax()],
                        points[d.argmin()]], np.float32)
    # The dilation grew the web by a pixel each way.
    centre = corners.mean(axis=0)
    corners += np.sign(centre - corners) * 1.0
    return corners, best_cells


def _line_count(profile: np.ndarray) -> int:
    """Cells between the lines of a straightened grid's ink profile (one value a pixel).

    Cells a person filled hide the lines along them from the local threshold (in a
    half-filled grid most lines), and their edges or cross marks leave ink between lines."""
    on = profile >= LINE_SHARE
    edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
    centres = (edges[0::2] + edges[1::2] - 1) / 2
    if len(centres) < 2:
        return 0
    gaps = np.diff(centres)
    gaps = gaps[gaps > 0.3 * np.median(gaps)]  # not within a line split in two
    # Where most lines were lost the typical gap spans several cells: a cell is the
    # largest gap that most gaps are a whole number of.
    unit = next((float(g) for g in sorted(gaps, reverse=True)
                 if _on_steps(gaps, float(g)).mean() >= STEPS_SHARE), float(np.median(gaps)))
    # From the grid's first line on, each line lies a whole number of cells past the last
    # one taken (lines may be missed); ink off that step (a cross mark, the ragged edge of
    # filled cells) is no line. The spacing is the span over the cells it covers.
    first, last, cells = centres[0], centres[0], 0
    for centre in centres[1:]:
        if _on_steps(np.array([centre - last]), unit)[0]:
            last, cells = centre, cells + round((centre - last) / unit)
    if not cells:
        return 0
    return int(round((len(profile) - 1) * cells / (last - first)))


def _on_steps(gaps: np.ndarray, unit: float) -> np.ndarray:
    """Whether each gap is a whole number (one or more) of `unit`s, within OFF_LATTICE."""
    steps = gaps / unit
    return (steps >= 0.5) & (np.abs(steps - np.round(steps)) <= OFF_LATTICE)


def _homography(corners: np.ndarray, width: int, height: int, cell: float,
                left: float = 0.0, top: float = 0.0) -> np.ndarray:
    """Picture -> straight view with cells `cell` pixels and the grid at (left, top)."""
    target = np.array([[left, top], [left + width * cell, top],
                       [left + width * cell, top + height * cell],
                       [left, top + height * cell]], np.float32)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), target)


def grid_size(gray: np.ndarray, corners: np.ndarray) -> tuple[int, int]:
    """(width, height) in cells, counted along the straightened grid. Inside the grid a
    fainter line counts than outside (light grey lines between the cells of a photo)."""
    across = float(np.linalg.norm(corners[1] - corners[0]))
    down = float(np.linalg.norm(corners[3] - corners[0]))
    w, h = max(20, int(across)), max(20, int(down))
    straight = ink_of(cv2.warpPerspective(gray, cv2.getPerspectiveTransform(
        corners.astype(np.float32),
        np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)), (w, h),
        flags=cv2.INTER_LINEAR), FAINT_LINE).astype(np.float32)
    width = _line_count(straight.mean(axis=0))
    height = _line_count(straight.mean(axis=1))
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise RecognitionError(f"the grid's lines could not be counted (read {width}x{height})")
    return width, height


def _blobs(ink: np.ndarray, darkness) -> list[Glyph]:
    """Digit-sized ink blobs of a straightened clue area; `darkness(y0, y1, x0, x1)`: the
    area's darkness in that box."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    out = []
    lo, hi = DIGIT_HEIGHT[0] * CLUE_CELL, DIGIT_HEIGHT[1] * CLUE_CELL
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if not lo <= h <= hi or w > WIDEST_NUMBER * h or area < 4:
            continue  # a piece of a line, a speck, or text of another size
        mask = labels[y:y + h, x:x + w] == k
        out.append(Glyph(int(x), int(y), int(w), int(h),
                         np.where(mask, darkness(y, y + h, x, x + w), 0).astype(np.float32)))
    return out


def _numbers_on_lines(glyphs: list[Glyph], text_height: float, across: bool
                      ) -> list[list[Glyph]]:
    """Glyphs grouped into numbers: one text line each; a row's line is split where the
    gap is wide (a column's line holds one number: '1 1' in a wide face is still 11)."""
    glyphs = sorted(glyphs, key=lambda g: g.y + g.h / 2)
    lines: list[list[Glyph]] = []
    for g in glyphs:
        if lines and abs((g.y + g.h / 2) - np.mean([o.y + o.h / 2 for o in lines[-1]])) \
                < 0.3 * CLUE_CELL:
            lines[-1].append(g)
        else:
            lines.append([g])
    numbers = []
    for line in lines:
        line.sort(key=lambda g: g.x)
        group = [line[0]]
        for g in line[1:]:
            if not across or g.x - (group[-1].x + group[-1].w) < DIGIT_GAP * text_height:
                group.append(g)
            else:
                numbers.append(group)
                group = [g]
        numbers.append(group)
    return numbers


def _extent(number: list[Glyph]) -> tuple[int, int, int, int]:
    return (min(g.x for g in number), min(g.y for g in number),
            max(g.x + g.w for g in number), max(g.y + g.h for g in number))


def _chain(numbers: list[list[Glyph]], start: float, across: bool) -> list[list[Glyph]]:
    """The numbers that follow each other out from the grid's edge at `start` (leftwards
    for a row, upwards for a column), in reading order."""
    key = 0 if across else 1
    gap = CHAIN_GAP[0] if across else CHAIN_GAP[1]
    numbers = sorted(numbers, key=lambda n: -_extent(n)[key + 2])
    kept, edge, limit = [], start, FIRST_GAP
    for n in numbers:
        ext = _extent(n)
        if edge - ext[key + 2] > limit * CLUE_CELL:
            break
        kept.append(n)
        edge, limit = ext[key], gap
    return kept[::-1]


def digits_of(number: list[Glyph]) -> list[Glyph]:
    digits = []
    for g in number:
        digits += split_glyph(g) if g.w > WIDE_GLYPH * g.h else [g]
    return digits


def one_ratio(numbers: list[list[Glyph]], text_height: float,
              model: DigitModel | None = None) -> float | None:
    """The face's width-to-height ratio of a '1': the median over the glyphs the
    classifier reads as 1, fairly surely (most are lone 1s, common in clues; a few may be
    touching '11's; a serif face's broad-footed 1 may look a little like a 7)."""
    glyphs = [g for n in numbers for g in digits_of(n)]
    if len(glyphs) < ONES_NEEDED:
        return None
    probs, _ = clue_proba(glyphs, text_height, model)
    ratios = [g.w / g.h for g, p in zip(glyphs, probs, strict=True)
              if p.argmax() == 1 and p[1] >= SURE_ONE]
    return float(np.median(ratios)) if len(ratios) >= ONES_NEEDED else None


def with_odds(prior: float, odds: float) -> float:
    """A probability whose odds are multiplied by `odds`."""
    if odds == 1.0:
        return prior
    scaled = odds * prior / max(1.0 - prior, 1e-12)
    return scaled / (1.0 + scaled)


def _two_prior(glyph: Glyph, one: float, digit_ratio: float | None,
               ones: float | None, pair: float = 0.0, odds: float = 1.0) -> float | None:
    """The prior that a lone glyph is two touching digits; None when it is plainly one.
    `one`: the classifier's probability that the glyph is a 1; `pair`: its probability
    that the glyph is two touching digits, which, where the face's 1s do not decide,
    raises the prior set by the glyph's width ('12' of a narrow '1' and a '2' run
    together is no wider than a '0', and read surely as '2')."""
    ratio = glyph.w / glyph.h
    if ones is not None and one >= MAYBE_ONE:
        if ratio >= TWO_ONES * ones:
            return ONES_PRIOR
        if ratio <= LONE_ONE * ones:
            return LONE_PRIOR if ratio > MAYBE_TWO_ANY else None
    if ratio <= MAYBE_TWO_ANY:
        return None
    # The face's 1s did not decide: the prior set by width alone, its odds scaled by
    # `odds`, unless the classifier's own word that the glyph is two digits is stronger.
    if ratio > WIDE_GLYPH:
        return max(with_odds(WIDE_PRIOR, odds), min(pair, MOST_PAIR))
    width_prior = TWO_PRIOR if digit_ratio and ratio > MAYBE_TWO * digit_ratio else LOW_TWO_PRIOR
    return max(with_odds(width_prior, odds), min(pair, MOST_PAIR))


def lone_ones(numbers: list[list[Glyph]], text_height: float, model: DigitModel | None = None
              ) -> dict[int, tuple[float, float]]:
    """The classifier's probabilities of a 1 and of two touching digits for each number of
    one glyph, by the glyph's id (one batch for the whole picture)."""
    lone = [n[0] for n in numbers if len(n) == 1]
    if not lone:
        return {}
    digits, pair = clue_proba(lone, text_height, model)
    return {id(g): (float(p[1]), float(q)) for g, p, q in zip(lone, digits, pair, strict=True)}


def _read_numbers(numbers: list[list[Glyph]], text_height: float,
                  digit_ratio: float | None, ones: float | None = None,
                  tops: dict[int, tuple[float, float]] | None = None,
                  model: DigitModel | None = None) -> list[ClueReading]:
    """Each number's candidates. A lone glyph wider than one digit of the picture's face
    may be two touching digits ('11' in a heavy face): both readings are scored, each by
    its prior and how surely the classifier reads its digits, and their candidates merged.
    The odds of the priors set by width alone are scaled by the clue model's `pair_odds`,
    fitted by the NLL of the true numbers on calibration pictures
    (gridsight.training.clues.fit_pair_odds): unscaled, they left a third of the numbers,
    nearly all right, under 90 % sure ('3' or '13').
    `ones`: the face's '1' width to height (one_ratio), which tells '11' from '1';
    `tops`: lone_ones of these numbers, if known."""
    model = model or clue_model()
    odds = model.info.get("pair_odds", 1.0)
    out = []
    for number in numbers:
        readings = [(digits_of(number)[:2], 1.0)]
        if len(number) == 1:
            glyph = number[0]
            one, pair = (tops or {}).get(id(glyph)) or \
                lone_ones([number], text_height, model)[id(glyph)]
            prior = _two_prior(glyph, one, digit_ratio, ones, pair, odds)
            readings = [([glyph], 1.0)] if prior is None else \
                [([glyph], 1 - prior), (split_glyph(glyph), prior)]
        merged: dict[int, float] = {}
        for glyphs, prior in readings:
            probs, _ = clue_proba(glyphs, text_height, model)
            weight = prior * float(np.prod(probs.max(axis=1)))
            for c in number_candidates(list(probs)):
                merged[c.value] = merged.get(c.value, 0.0) + weight * c.prob
        ranked = sorted(merged.items(), key=lambda vp: -vp[1])[:MAX_CANDIDATES]
        total = sum(p for _, p in ranked) or 1.0
        out.append(ClueReading(candidates=[SumCandidate(value=v, prob=round(p / total, 6))
                                           for v, p in ranked if p / total >= 1e-4]))
    return out


def within_line(clues: list[ClueReading], length: int) -> list[ClueReading]:
    """The clue numbers of a line of `length` cells, each without the candidates that
    cannot be: a number larger than the line (a broad '4' cut in two reads '44' in a line
    of ten). A number none of whose candidates fits keeps them all, for the repair."""
    out = []
    for clue in clues:
        fits = [c for c in clue.candidates if c.value <= length]
        total = sum(c.prob for c in fits)
        out.append(clue if not fits or total <= 0 else ClueReading(candidates=[
            SumCandidate(value=c.value, prob=round(c.prob / total, 6)) for c in fits]))
    return out


def digit_ratio(numbers: list[list[Glyph]]) -> float | None:
    """The face's typical width-to-height ratio of one digit, from the glyphs of two-glyph
    numbers that are not '1's (narrow)."""
    ratios = [g.w / g.h for n in numbers if len(n) == 2 for g in n if g.w >= 0.45 * g.h]
    return float(np.median(ratios)) if len(ratios) >= 3 else None


def number_candidates(digit_probs: list[np.ndarray]) -> list[SumCandidate]:
    """The most probable values of a one- or two-digit clue number (0: an empty line)."""
    if len(digit_probs) == 1:
        values = [(d, float(digit_probs[0][d])) for d in range(10)]
    else:
        a, b = digit_probs[0], digit_probs[1]
        values = [(10 * i + j, float(a[i] * b[j])) for i in range(1, 10) for j in range(10)]
        values += [(10 * j, float(a[0] * b[j]) * 0.01) for j in range(1, 10)]  # a leading 0
    values.sort(key=lambda v: -v[1])
    total = sum(p for _, p in values[:MAX_CANDIDATES]) or 1.0
    return [SumCandidate(value=v, prob=round(p / total, 6)) for v, p in values[:MAX_CANDIDATES]
            if p / total >= 1e-4] or [SumCandidate(value=values[0][0], prob=1.0)]


class NotANonogram(RecognitionError):
    """A grid was found, but no clues beside most of its lines: some other puzzle."""

    def __init__(self, message: str, clue_rate: float = 0.0, square: bool = True):
        super().__init__(message)
        self.clue_rate = clue_rate
        self.square = square  # the grid was counted as wide as high, as a sudoku's is


class NoGrid(RecognitionError):
    """No web of lines enclosing cells was found at all."""


def _some_clues_beside(gray: np.ndarray, homography: np.ndarray, view: tuple[int, int],
                       paper: int, margin: int, edge: int, width: int, height: int) -> None:
    """NotANonogram, cheaply, when too few of the grid's lines have any ink at all beside
    them for it to be one (a sudoku, say): a line's clue numbers are ink within its band,
    so the share of bands holding ink bounds the share of lines with clues. Below
    SOME_CLUES the finer reading would not be tried either (nonogram/reading.py): the
    glyphs need not be found. The bands' ink is the straightened view's (view: its width
    and height), made only where the picture reaches into them."""
    block = ink_block((view[1], view[0]))
    left = band_ink(gray, homography, view, paper, block, (0, margin, margin - edge,
                                                            margin + height * CLUE_CELL))
    above = band_ink(gray, homography, view, paper, block, (margin, 0,
                                                             margin + width * CLUE_CELL,
                                                             margin - edge))
    rows = left.reshape(height, CLUE_CELL, -1).any(axis=(1, 2))
    cols = above.reshape(-1, width, CLUE_CELL).any(axis=(0, 2))
    bound = min(float(rows.mean()), float(cols.mean()))
    if bound < SOME_CLUES:
        raise NotANonogram(f"a {width}x{height} grid was found, but at most {bound:.0%} of "
                           "its lines have anything beside them: this does not look like a "
                           "nonogram (send it with kind 'auto')", bound, width == height)


def _clue_numbers(gray: np.ndarray, corners: np.ndarray, width: int, height: int
                  ) -> tuple[list, list, float]:
    """(each row's numbers as glyph groups, each column's, the clue text height), found in
    the straightened areas left of and above the grid."""
    margin = MAX_CLUE_CELLS * CLUE_CELL
    view_w, view_h = margin + width * CLUE_CELL + 4, margin + height * CLUE_CELL + 4
    homography = _homography(corners, width, height, CLUE_CELL, margin, margin)
    paper = int(grey_ranked(gray, (), median=True)[0])
    edge = int(GRID_EDGE * CLUE_CELL)  # the grid's own outline is no clue
    _some_clues_beside(gray, homography, (view_w, view_h), paper, margin, edge, width, height)
    enter("nonogram_clues")
    straight = cv2.warpPerspective(gray, homography, (view_w, view_h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=paper)
    ink = ink_of(straight, 15)
    light, darkest = (float(v) for v in grey_ranked(straight, (90, 0.5)))
    scale = max(1.0, light - darkest)

    def darkness(top: int, left: int):
        """The darkness of the view's area whose corner is (top, left), made only in the
        boxes of the glyphs found there."""
        def box(y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
            part = straight[top + y0:top + y1, left + x0:left + x1]
            return np.clip((light - part.astype(np.float32)) / scale, 0, 1)
        return box

    left = _blobs(np.ascontiguousarray(ink[margin:margin + height * CLUE_CELL, :margin - edge]),
                  darkness(margin, 0))
    above = _blobs(np.ascontiguousarray(ink[:margin - edge, margin:margin + width * CLUE_CELL]),
                   darkness(0, margin))
    heights = [g.h for g in left + above]
    if not heights:
        # The shape goes with it: a grid counted wider or taller than square is no
        # sudoku, and its thin lines may have vanished at the working size (25x30 counted
        # as its 5x6 blocks, whose clues then fall outside the view); it is read again finer.
        raise NotANonogram("no clue numbers were found left of and above the grid: this "
                           "does not look like a nonogram (send it with kind 'auto')",
                           square=width == height)
    text_height = float(np.median(heights))
    rows: list[list[Glyph]] = [[] for _ in range(height)]
    for g in left:
        r = int((g.y + g.h / 2) // CLUE_CELL)
        if g.h >= 0.6 * text_height and 0 <= r < height:
            rows[r].append(g)
    cols: list[list[Glyph]] = [[] for _ in range(width)]
    for g in above:
        c = int((g.x + g.w / 2) // CLUE_CELL)
        if g.h >= 0.6 * text_height and 0 <= c < width:
            cols[c].append(g)
    row_numbers = [_chain(_numbers_on_lines(gs, text_height, True), margin, True) if gs else []
                   for gs in rows]
    col_numbers = [_chain(_numbers_on_lines(gs, text_height, False), margin, False)
                   if gs else [] for gs in cols]
    return row_numbers, col_numbers, text_height


def _entries(gray: np.ndarray, corners: np.ndarray, width: int, height: int
             ) -> list[list[list[float]]]:
    """[r][c] -> P(untouched, filled, crossed), from the ink inside each cell."""
    p = 24
    straight = cv2.warpPerspective(gray, _homography(corners, width, height, p),
                                   (width * p, height * p), flags=cv2.INTER_AREA)
    ink = ink_of(straight, 15).astype(np.float32)
    paper = float(np.percentile(straight, 90))
    dark = (straight.astype(np.float32) < paper - 0.5 * max(1.0, paper - float(
        np.percentile(straight, 1)))).astype(np.float32)
    inset = p // 4
    cells = np.zeros((height, width, 3))
    for r in range(height):
        for c in range(width):
            box = (slice(r * p + inset, (r + 1) * p - inset),
                   slice(c * p + inset, (c + 1) * p - inset))
            filled = float(dark[box].mean())
            marked = float(ink[box].mean())
            pf = 1 / (1 + np.exp(-(filled - FILLED_SHARE) * 20))
            px = (1 - pf) / (1 + np.exp(-(marked - CROSS_SHARE) * 80))
            cells[r, c] = (1 - pf - px, pf, px)
    return np.round(cells, 4).tolist()


def line_ink(gray: np.ndarray) -> np.ndarray:
    """Ink for finding the grid's lines: the local threshold, and anything far darker than
    the lightest grey nearby (next to a dark thick line the local mean darkens, and a
    light thin line touching it would otherwise break off there)."""
    paper = cv2.dilate(gray, np.ones((15, 15), np.uint8))
    return ink_of(gray) | ((paper.astype(np.int16) - gray) > DARKER_THAN_PAPER).astype(np.uint8)


def find_nonogram(gray: np.ndarray) -> NonogramGlyphs:
    """The grid and its clue numbers' ink; NotANonogram when the grid found has no clues
    on most of its rows and columns, RecognitionError when no grid is found."""
    enter("nonogram_look")
    corners, cells = grid_corners(ink_of(gray))
    try:
        joined, joined_cells = grid_corners(line_ink(gray))
        if joined_cells > cells:
            corners = joined
    except RecognitionError:
        pass
    width, height = grid_size(gray, corners)
    row_numbers, col_numbers, text_height = _clue_numbers(gray, corners, width, height)
    rate = min(np.mean([bool(n) for n in row_numbers]), np.mean([bool(n) for n in col_numbers]))
    if rate < CLUE_RATE:
        raise NotANonogram(f"a {width}x{height} grid was found, but only {rate:.0%} of its "
                           "lines have clue numbers beside them: this does not look like a "
                           "nonogram (send it with kind 'auto')", float(rate), width == height)
    return NonogramGlyphs(width, height, corners, row_numbers, col_numbers, text_height)


def read_nonogram(gray: np.ndarray, model: DigitModel | None = None) -> NonogramRead:
    """The nonogram in a grey picture (see find_nonogram for the errors raised); its clue
    numbers read by `model` (None: the shipped clue model)."""
    found = find_nonogram(gray)
    width, height, corners = found.width, found.height, found.corners
    text_height = found.text_height
    every = [n for line in found.row_numbers + found.col_numbers for n in line]
    ratio, ones = digit_ratio(every), one_ratio(every, text_height, model)
    tops = lone_ones(every, text_height, model)
    row_clues = [within_line(_read_numbers(n, text_height, ratio, ones, tops, model), width)
                 for n in found.row_numbers]
    col_clues = [within_line(_read_numbers(n, text_height, ratio, ones, tops, model), height)
                 for n in found.col_numbers]
    inverse = np.linalg.inv(_homography(corners, width, height, 1.0))
    grid = np.stack(np.meshgrid(np.arange(width + 1), np.arange(height + 1)), axis=-1)
    lattice = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float32), inverse)
    return NonogramRead(width, height, corners, lattice.reshape(height + 1, width + 1, 2),
                        row_clues, col_clues, _entries(gray, corners, width, height))
