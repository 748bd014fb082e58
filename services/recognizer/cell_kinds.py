"""What each cell of a half-solved page holds: blank, a printed given, the person's own
digit (handwritten, or entered in an app), or small pencil candidates.

One classifier reads every cell into one of 20 classes: blank, printed 1-9, entry 1-9,
notes. The kind probabilities (blank / printed / entry / notes) and the digit
probabilities are its marginals, so a cell whose printed/handwritten split is uncertain
carries that doubt to the solver instead of a hard choice.

Features, per cell of the grid straightened at CELL pixels: the centred digit's HOG and
shape measures from cells.py (which digit), a coarse picture of the cell's ink as it sits
(small notes near the top against one large digit), and stroke measures: darkness,
thickness, colour against the paper and blob count (printed type is black and heavy;
pencil and pen are lighter, thinner or coloured; notes are several small blobs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import joblib
import numpy as np

from services.recognizer.cells import features, ink_map, normalise_cell, straighten
from services.recognizer.classifier import tempered_softmax

MODEL_PATH = Path(__file__).parent / "models" / "cell_kinds.joblib"
SIZE = 9
CELL = 40  # pixels per straightened cell: small pencil digits need more than the 32 of cells.py
COARSE = 8  # the cell's ink as it sits, at COARSE x COARSE
KINDS = ("blank", "printed", "entry", "notes")
# Class index -> (kind index, digit); digit 0 for blank and notes.
CLASSES = [(0, 0)] + [(1, d) for d in range(1, 10)] + [(2, d) for d in range(1, 10)] + [(3, 0)]
NOTES_CLASS = len(CLASSES) - 1


def class_of(kind: str, digit: int) -> int:
    """The class index of a cell holding `digit` (0 for none) of `kind`."""
    if kind == "blank":
        return 0
    if kind == "notes":
        return NOTES_CLASS
    return digit if kind == "printed" else 9 + digit


def _stroke_measures(ink: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Darkness, thickness, colour and blob measures of the ink inside the cell's inset."""
    p = ink.shape[0]
    m = int(0.12 * p)
    inner, col = ink[m:p - m, m:p - m], colour[m:p - m, m:p - m].astype(np.float32)
    strokes = inner >= 0.35
    n_ink = int(strokes.sum())
    if n_ink < 4:
        return np.zeros(10, np.float32)
    dark = inner[strokes]
    if strokes.all():
        # No paper pixel at all (a shaded or misplaced cell): OpenCV's distance to paper
        # is then endless; the stroke is as thick as the inset can tell.
        thickness = inner.shape[0] / 2
    else:
        dist = cv2.distanceTransform(strokes.astype(np.uint8), cv2.DIST_L2, 3)
        thickness = float(dist[strokes].mean())
    lab = cv2.cvtColor((col / 255.0).astype(np.float32)[None].reshape(-1, 1, 3),
                       cv2.COLOR_BGR2Lab).reshape(inner.shape + (3,))
    paper = np.median(lab[~strokes], axis=0) if (~strokes).any() else lab.reshape(-1, 3).mean(0)
    ink_lab = lab[strokes].mean(axis=0) - paper
    count, _, stats, _ = cv2.connectedComponentsWithStats(strokes.astype(np.uint8), connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    heights = stats[1:, cv2.CC_STAT_HEIGHT]
    big = areas >= 0.004 * inner.size
    tallest = float(heights[big].max()) / inner.shape[0] if big.any() else 0.0
    ys = np.nonzero(strokes.any(axis=1))[0]
    return np.array([
        float(np.median(dark)), float(np.percentile(dark, 90)), thickness / p * 10,
        ink_lab[0] / 50, ink_lab[1] / 20, ink_lab[2] / 20,
        float(big.sum()) / 4, tallest, ys.min() / inner.shape[0], n_ink / inner.size * 4,
    ], np.float32)


# The ink scale of a page is set by its darkest marks (grid lines, printed type), so a
# light pencil digit peaks at a third of it and falls under the stroke level of cells.py:
# read as blank or as a broken shape. The handwriting reader (HandDigitModel) reads each
# cell's ink stretched to its own peak, up to MAX_GAIN times; a blank cell's faint
# show-through (peak under PEAK_FLOOR) is stretched no further than to half the stroke
# level's reach.
PEAK_FLOOR = 0.45
MAX_GAIN = 1 / PEAK_FLOOR


def own_contrast(cell_ink: np.ndarray) -> float:
    """The gain (>= 1) that brings the ink inside the cell's inset to its own contrast."""
    p = cell_ink.shape[0]
    m = int(0.16 * p)
    peak = float(np.percentile(cell_ink[m:p - m, m:p - m], 99))
    return float(min(MAX_GAIN, max(1.0, 1.0 / max(peak, PEAK_FLOOR))))


def digit_features(cell_ink: np.ndarray) -> np.ndarray:
    """The centred digit's features (cells.py) of one cell's ink at its own contrast."""
    digit, shape, _ = normalise_cell(cell_ink * own_contrast(cell_ink))
    return features(digit, shape)


def cell_kind_features(colour: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, F) features of each cell, row by row, from the colour picture (BGR)
    and its (SIZE+1)^2 grid line intersections."""
    return straight_features(straighten(colour, lattice, CELL))


def straight_features(straight: np.ndarray, cells: list[tuple[int, int]] | None = None
                      ) -> np.ndarray:
    """cell_kind_features of a grid already straightened at CELL pixels per cell: the
    cell model's KIND_FEATURES columns, then the handwriting reader's digit_features
    (HAND_FEATURES columns) and the cell's contrast gain. `cells`: only these, in this
    order (default: every cell, row by row)."""
    gray = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY)
    ink = ink_map(gray)
    rows = []
    every = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    for r, c in every if cells is None else cells:
        sl = (slice(r * CELL, (r + 1) * CELL), slice(c * CELL, (c + 1) * CELL))
        cell_ink = ink[sl]
        digit, shape, box = normalise_cell(cell_ink)
        coarse = cv2.resize(np.minimum(cell_ink, 1.5), (COARSE, COARSE),
                            interpolation=cv2.INTER_AREA).ravel()
        gain = own_contrast(cell_ink)
        rows.append(np.concatenate([features(digit, shape), box * 4, coarse,
                                    _stroke_measures(cell_ink, straight[sl]) * 4,
                                    digit_features(cell_ink), [1.0 / gain]]))
    return np.stack(rows).astype(np.float32)


HAND_FEATURES = len(digit_features(np.zeros((CELL, CELL), np.float32)))
KIND_FEATURES = HAND_FEATURES + 4 + COARSE * COARSE + 10  # digit, box, coarse, strokes
ALL_FEATURES = KIND_FEATURES + HAND_FEATURES + 1


def mlp_logits(scaler, net, x: np.ndarray) -> np.ndarray:
    a = scaler.transform(x)
    for w, b in zip(net.coefs_[:-1], net.intercepts_[:-1], strict=True):
        a = np.maximum(a @ w + b, 0.0)
    return a @ net.coefs_[-1] + net.intercepts_[-1]


@dataclass
class HandDigitModel:
    """Which digit 1-9 a person wrote (column d-1), from digit_features: trained on
    thousands of real handwritten digits (gridsight/training/hand_digits.py)."""

    scaler: object
    network: object
    temperature: float

    def logits(self, x: np.ndarray) -> np.ndarray:
        """From hand features alone (HAND_FEATURES columns) or a whole feature row."""
        if x.shape[1] == ALL_FEATURES:
            x = x[:, KIND_FEATURES:KIND_FEATURES + HAND_FEATURES]
        return mlp_logits(self.scaler, self.network, x)

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        return tempered_softmax(self.logits(x), self.temperature)


@dataclass
class CellKindModel:
    """Scaler and network from scikit-learn and a calibrating temperature; `hand` reads
    which digit an entry is."""

    scaler: object
    network: object
    temperature: float
    info: dict
    hand: HandDigitModel | None = None
    columns: int = KIND_FEATURES  # the feature columns the cell model reads

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        probs = tempered_softmax(mlp_logits(self.scaler, self.network, x[:, :self.columns]),
                                 self.temperature)
        if self.hand is not None:
            probs = with_hand_digits(probs, self.hand.predict_proba(x))
        return probs


PRINTED_CLASSES = slice(1, 10)  # printed 1-9 in CLASSES
ENTRY_CLASSES = slice(10, 19)  # entry 1-9 in CLASSES


def with_hand_digits(probs: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """Class probabilities whose entry digits are the geometric mean of the cell model's
    and the handwriting reader's (both have seen handwriting; neither alone reads it as
    well), the entry kind's total kept. A mean, not a product: two readers that agree
    on a misread must not make it near-certain, or wrong_entries lists it as a mistake."""
    return _with_mean_digits(probs, ENTRY_CLASSES, hand)


def _with_mean_digits(probs: np.ndarray, part: slice, other: np.ndarray) -> np.ndarray:
    """`probs` whose digits 1-9 of one kind (`part` of CLASSES) are the geometric mean of
    their own and `other`'s (rows of nine digit probabilities), that kind's total kept."""
    mine = probs[:, part]
    total = mine.sum(axis=1, keepdims=True)
    joint = np.sqrt(mine / np.maximum(total, 1e-12) * other)
    joint /= np.maximum(joint.sum(axis=1, keepdims=True), 1e-300)
    out = probs.copy()
    out[:, part] = joint * total
    return out


@cache
def load_kind_model(path: Path = MODEL_PATH) -> CellKindModel:
    return joblib.load(path)


@dataclass
class CellKinds:
    """kinds[r, c]: probabilities of blank, printed, entry, notes; digits[r, c, v]:
    probability that the cell's digit is v (v = 0: no digit), whatever its kind;
    givens[r, c, v]: probability that the cell holds printed v (v = 0: no given)."""

    kinds: np.ndarray
    digits: np.ndarray
    givens: np.ndarray
    entries: np.ndarray  # [r, c, v]: probability of the person's digit v (0 = none)
    written: bool = False  # the page is taken as written on (see written_on)


def marginals(probs: np.ndarray) -> CellKinds:
    """Kind, digit, given and entry probabilities from (SIZE*SIZE, 20) class probabilities."""
    n = probs.shape[0]
    kinds = np.zeros((n, len(KINDS)))
    digits = np.zeros((n, 10))
    givens = np.zeros((n, 10))
    entries = np.zeros((n, 10))
    for k, (kind, digit) in enumerate(CLASSES):
        kinds[:, kind] += probs[:, k]
        digits[:, digit] += probs[:, k]
        givens[:, digit if kind == 1 else 0] += probs[:, k]
        entries[:, digit if kind == 2 else 0] += probs[:, k]
    shape = (SIZE, SIZE)
    return CellKinds(kinds.reshape(shape + (4,)), digits.reshape(shape + (10,)),
                     givens.reshape(shape + (10,)), entries.reshape(shape + (10,)))


def _peers() -> np.ndarray:
    """(81, 81) bool: the other cells of each cell's row, column and box."""
    index = np.arange(SIZE * SIZE).reshape(SIZE, SIZE)
    peers = np.zeros((SIZE * SIZE, SIZE * SIZE), bool)
    for r in range(SIZE):
        for c in range(SIZE):
            i = index[r, c]
            peers[i, index[r]] = peers[i, index[:, c]] = True
            peers[i, index[r - r % 3:r - r % 3 + 3, c - c % 3:c - c % 3 + 3].ravel()] = True
            peers[i, i] = False
    return peers


PEERS = _peers()
# How strongly a digit in a peer cell speaks against the same digit here. Below 1: a
# person does write a digit twice in a row now and then (a wrong entry), and that must
# stay readable when the ink says so clearly.
ALL_DIFFERENT = 0.9
SWEEPS = 3


def with_peers(probs: np.ndarray, strength: float = ALL_DIFFERENT,
               sweeps: int = SWEEPS) -> np.ndarray:
    """Class probabilities whose digits also weigh the cell's row, column and box.

    On half-solved val photos every misread digit (53 cells: a person's 9 read as a printed
    6, a 3 as an 8) repeated a digit read in one of its peers, and no true digit did: most
    of what a person writes is right, so a sudoku's digits differ along every house. Each
    cell's digit probabilities, within its kind (the printed/entry/blank/notes split is
    the ink's alone), are multiplied by prod over peers of (1 - strength * q), q the peer's
    probability of holding that digit (mean field, a few sweeps). A clear digit beside a
    doubtful twin keeps its reading; the doubtful one moves to its next most likely digit
    and keeps that doubt in its probability.
    """
    totals, shares = [], []
    for part in (PRINTED_CLASSES, ENTRY_CLASSES):
        total = probs[:, part].sum(axis=1, keepdims=True)
        totals.append(total)
        shares.append(probs[:, part] / np.maximum(total, 1e-12))
    current = list(shares)
    weights = PEERS.astype(np.float64)
    for _ in range(sweeps):
        holds = np.clip(totals[0] * current[0] + totals[1] * current[1], 0.0, 1.0)
        factor = np.exp(weights @ np.log1p(-strength * holds))
        current = [s * factor for s in shares]
        current = [c / np.maximum(c.sum(axis=1, keepdims=True), 1e-300) for c in current]
    out = probs.copy()
    out[:, PRINTED_CLASSES] = current[0] * totals[0]
    out[:, ENTRY_CLASSES] = current[1] * totals[1]
    return out


def with_classic_ink(probs: np.ndarray, classic: np.ndarray) -> np.ndarray:
    """Class probabilities whose blank share also heeds the classic digit model (cells.py),
    one way only: where that model sees a digit more surely than the cell model sees ink,
    the blank odds become the geometric mean of the two models' odds, the rest shared out
    as the cell model had it. On the half-solved val photos, the cell model called a
    clearly written digit blank in shadowed or tinted cells (21 cells) while the classic
    model saw it; it never saw ink in a truly blank cell the cell model called blank. Its
    "blank", though, is no evidence: light pencil falls under its stroke level."""
    classic = classic.reshape(len(probs), -1)
    seen_blank = classic[:, 0] / np.maximum(classic.sum(axis=1), 1e-12)
    blank = probs[:, 0]
    odds = np.sqrt(blank / np.maximum(1 - blank, 1e-12)
                   * seen_blank / np.maximum(1 - seen_blank, 1e-12))
    new_blank = np.where(seen_blank < blank, odds / (1 + odds), blank)
    out = probs * ((1 - new_blank) / np.maximum(1 - blank, 1e-12))[:, None]
    out[:, 0] = new_blank
    return out


def with_printed_digits(probs: np.ndarray, classic: np.ndarray) -> np.ndarray:
    """Class probabilities whose printed digits are the geometric mean of the cell model's
    and the classic digit model's (trained on many typefaces; the cell model has seen the
    print of 20 newspaper puzzles), the printed kind's total kept: on the half-solved val
    photos the cell model alone misread shaded or tinted printed digits (a 3 as an 8, a
    7 as a 4). The classic model's digits are taken whatever it thinks of the ink."""
    classic = classic.reshape(len(probs), -1)[:, 1:]
    classic = classic / np.maximum(classic.sum(axis=1, keepdims=True), 1e-12)
    return _with_mean_digits(probs, PRINTED_CLASSES, classic)


# The share of the classic digit model in a person's digit: it reads print and gets 84 %
# of handwritten digits right, so it rarely decides one; but where it reads another digit
# clearly, that digit keeps a probability the repair and "where did I go wrong?" can
# see, instead of two handwriting readers' confident misread (a shadowed 7 read as a 2
# at p 0.99 while the classic model read 7 at 0.98).
CLASSIC_IN_ENTRIES = 0.05


def with_classic_doubt(probs: np.ndarray, classic: np.ndarray,
                       share: float = CLASSIC_IN_ENTRIES) -> np.ndarray:
    """Class probabilities whose entry digits are a mixture: (1 - share) of their own and
    `share` of the classic digit model's digits, the entry kind's total kept."""
    classic = classic.reshape(len(probs), -1)[:, 1:]
    classic = classic / np.maximum(classic.sum(axis=1, keepdims=True), 1e-12)
    mine = probs[:, ENTRY_CLASSES]
    total = mine.sum(axis=1, keepdims=True)
    out = probs.copy()
    out[:, ENTRY_CLASSES] = total * ((1 - share) * mine / np.maximum(total, 1e-12)
                                     + share * classic)
    return out


def stroke_spans(straight: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE,) the height of each cell's tallest stroke (at the cell's own contrast)
    as a share of the cell's inset, from a grid straightened at CELL pixels per cell."""
    ink = ink_map(cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY), CELL)
    m = int(0.12 * CELL)
    spans = np.zeros(SIZE * SIZE)
    for k in range(SIZE * SIZE):
        r, c = divmod(k, SIZE)
        cell_ink = ink[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL]
        inner = cell_ink[m:CELL - m, m:CELL - m] * own_contrast(cell_ink)
        count, _, stats, _ = cv2.connectedComponentsWithStats(
            (inner >= 0.35).astype(np.uint8), connectivity=8)
        big = stats[1:, cv2.CC_STAT_AREA] >= 0.004 * inner.size
        if big.any():
            spans[k] = stats[1:, cv2.CC_STAT_HEIGHT][big].max() / inner.shape[0]
    return spans


# Pencil candidates are small digits: on the train photos' 376 note cells the tallest
# stroke spans at most 0.69 of the inset (val: 0.72). A taller one is a full-size digit or
# a shadow's edge across the cell. Measured at the cell's own contrast (marks().span), the
# train photos' note cells span at most 0.71 and their digits at least 0.79.
NOTES_SPAN = 0.85
NOTES_MARK_SPAN = 0.75


def without_tall_notes(probs: np.ndarray, tall: np.ndarray, classic: np.ndarray | None,
                       marked: np.ndarray | None = None) -> np.ndarray:
    """Class probabilities in which a cell with a tall stroke (`tall`: a stroke spans
    more than NOTES_SPAN of the inset, or NOTES_MARK_SPAN at the cell's own contrast)
    holds no notes: their share goes to blank as far as neither the classic digit model
    nor the cell's own marks (`marked`: the probability that a mark is seen, see
    mark_seen) see anything there, the rest to the digit classes as they stood. On val
    the cell model read 8 large digits (light pencil, a red-tinted photo) and 3 blanks
    crossed by a shadow's edge as notes."""
    out = probs.copy()
    seen_blank = _classic_blank(classic, len(probs))
    if marked is not None:
        seen_blank = seen_blank * (1.0 - marked)
    for k in np.flatnonzero(tall):
        notes = out[k, NOTES_CLASS]
        out[k, NOTES_CLASS] = 0.0
        digits = out[k, 1:NOTES_CLASS].sum()
        to_digits = notes * (1 - seen_blank[k]) if digits > 0 else 0.0
        out[k, 0] += notes - to_digits
        if digits > 0:
            out[k, 1:NOTES_CLASS] *= (digits + to_digits) / digits
    return out


# Paper that follows shadow edges: a grey-level closing (a max filter, then a min filter
# as wide) wipes out strokes narrower than the kernel but keeps a shadow's edge where it
# is, where the blurred max filter of cells.ink_map smears it into a false stroke beside
# the edge. Pencil and print strokes at CELL pixels are under a third of this wide.
PAPER_KERNEL = 17
MARK_MARGIN = 0.15  # of the cell's side: the inset kept clear of grid lines


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


# A mark's pixels are those darker than this share of the way from the inset's median to
# its peak: low, as a light pencil stroke fades along its length.
SPAN_LEVEL = 0.25


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


# Page lines. A crease, the edge of a shadow or stripe, or a grid line the outline missed
# runs straight through several cells and on across the grid lines between them; a
# person's writing stays inside its cell (two digits written one above the other line
# up, but the paper between them is clear). A line's pixels are LINE_LEVEL of the page's
# darkest ink or darker (or LINE_NOISE sigmas of its pixel noise); it counts when it
# crosses at least LINE_CELLS insets from side to side, dark along LINE_COVER of its
# course in each and between them, and its pixels (up to LINE_WIDTH from its axis) are
# then no marks.
LINE_LEVEL = 0.12
LINE_NOISE = 4.0
LINE_CELLS = 2
LINE_COVER = 0.8
LINE_WIDTH = 4
# The stems of two printed digits one above the other (or strokes side by side) line up
# along the grid's axes across the grid line between them, dark all the way where the
# digits are tall: a line within AXIS_TILT degrees of a row or column counts only when it
# crosses AXIS_LINE_CELLS insets. A page line along the axes (a grid line the outline
# missed, a crease or shadow edge parallel to the rules) runs on through the whole grid.
AXIS_TILT = 3.0
AXIS_LINE_CELLS = 3


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


# Read off the train photos (never val): their blank cells' marks reach a contrast of
# 0.18 when at least MARK_HEIGHT tall and 0.22 when shorter (erased notes, show-through,
# specks); every written digit has 0.242 or more and every note cell 0.285. Between
# the two ends of TALL_MARK_SEEN (a digit's height) or SMALL_MARK_SEEN (log scale) a
# mark goes from no evidence to a sure one. No mark at all: under NO_MARK[0] (the 95th
# percentile of train's blank cells) a cell is surely blank, over NO_MARK[1] (half the
# faintest written digit) no evidence.
TALL_MARK_SEEN = (0.18, 0.24)
SMALL_MARK_SEEN = (0.22, 0.28)
MARK_HEIGHT = 0.4
NO_MARK = (0.08, 0.12)


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


def read_cell_kinds(colour: np.ndarray, lattice: np.ndarray,
                    classic: np.ndarray | None = None) -> CellKinds:
    """The kind and digit probabilities of every cell of the grid at `lattice`;
    `classic`: the classic digit model's (SIZE, SIZE, 10) reading of the same cells."""
    return read_straight_kinds(straighten(colour, lattice, CELL), classic)


def read_straight_kinds(straight: np.ndarray, classic: np.ndarray | None = None) -> CellKinds:
    """read_cell_kinds of a grid already straightened at CELL pixels per cell."""
    return kinds_of(kind_evidence(straight, classic))


@dataclass
class KindEvidence:
    """What the kinds of a page's cells are decided from (see kind_evidence)."""

    probs: np.ndarray  # (SIZE*SIZE, 20) the cell model's classes, the classic model heeded
    as_read: np.ndarray  # probs without notes in cells with a tall stroke
    spans: np.ndarray  # stroke_spans
    seen: Marks
    classic: np.ndarray | None


def kind_evidence(straight: np.ndarray, classic: np.ndarray | None = None) -> KindEvidence:
    probs = load_kind_model().predict_proba(straight_features(straight))
    if classic is not None:
        classic = np.asarray(classic, np.float64)
        probs = with_classic_doubt(
            with_printed_digits(with_classic_ink(probs, classic), classic), classic)
    spans = stroke_spans(straight)
    return KindEvidence(probs, without_tall_notes(probs, spans > NOTES_SPAN, classic), spans,
                        marks(straight), classic)


def kinds_of(ev: KindEvidence, setting: tuple | None = None) -> CellKinds:
    """The cells' kinds: a page written on (written_on) gets its cells' own marks weighed;
    any other page the print view (_print_view). `setting`: other values of (NOISE_MARKS,
    MIN_MARKS, MARKS_PRINTED) (bench/written_on.py fits them)."""
    noise_marks, min_marks, marks_printed = setting or (NOISE_MARKS, MIN_MARKS, MARKS_PRINTED)
    writing = persons_marks(ev.seen, noise_marks)
    unexplained = writing & (_classic_blank(ev.classic, len(ev.probs)) > 0.5)
    if not written_on(marginals(ev.as_read).kinds, writing, unexplained, min_marks,
                      marks_printed):
        # The cell model's kinds are kept where a mark stands above the grain as well:
        # a small grainy photo's blank cells pass at one pixel's noise (Marks.grain).
        clear = mark_seen(ev.seen.contrast - noise_marks * ev.seen.grain, ev.seen.span) > 0.5
        return _print_view(ev.as_read, ev.classic, unexplained & clear)
    return written_kinds(ev, noise_marks)


def written_kinds(ev: KindEvidence, noise_marks: float | None = None) -> CellKinds:
    """The cells' kinds on a page taken as written on: each cell's own marks weighed."""
    noise_marks = NOISE_MARKS if noise_marks is None else noise_marks
    seen = ev.seen
    probs = with_mark_evidence(ev.probs, seen.contrast, seen.span, seen.with_lines,
                               noise_marks * seen.grain)
    # A light pencil stroke breaks up at the page's ink scale: its span at its own too.
    tall = (ev.spans > NOTES_SPAN) | (seen.span > NOTES_MARK_SPAN)
    probs = without_tall_notes(probs, tall, ev.classic, mark_seen(seen.contrast, seen.span))
    kinds = marginals(with_peers(probs))
    kinds.written = True
    return kinds


def _classic_blank(classic: np.ndarray | None, n: int) -> np.ndarray:
    """(n,) the classic digit model's p(blank) per cell (1 without its reading)."""
    if classic is None:
        return np.ones(n)
    flat = np.asarray(classic, np.float64).reshape(n, -1)
    return flat[:, 0] / np.maximum(flat.sum(axis=1), 1e-12)


def _print_view(as_read: np.ndarray, classic: np.ndarray | None,
                unexplained: np.ndarray) -> CellKinds:
    """The kinds of a page not written on: blank or printed as the classic digit model
    reads the cell, except where a person's mark lies in a cell that model sees blank
    (a few light digits or notes on a page with little writing): there the cell model's
    kinds. Its entries and notes elsewhere are print in an unfamiliar face or noise read
    as writing: on synthetic print-only photos (heavy noise, dark, stripes) they were
    most of the cells read wrong, and the solver would list them as the person's
    digits."""
    kinds = marginals(with_peers(as_read))
    if classic is None:
        return kinds
    blank = _classic_blank(classic, len(as_read)).reshape(SIZE, SIZE)
    view = np.stack([blank, 1.0 - blank, np.zeros_like(blank), np.zeros_like(blank)], axis=-1)
    none = np.zeros((SIZE, SIZE, 10))
    none[..., 0] = 1.0
    keep = unexplained.reshape(SIZE, SIZE, 1)
    return CellKinds(np.where(keep, kinds.kinds, view), kinds.digits, kinds.givens,
                     np.where(keep, kinds.entries, none))


def kind_fields(kinds: CellKinds) -> dict:
    """The Reading's fields for cell kinds (rounded: they travel as JSON)."""
    return {"cell_kinds": np.round(kinds.kinds, 5).tolist(),
            "entries": np.round(kinds.entries, 5).tolist()}


# A page counts as written on when cells hold a person's marks (persons_marks) that the
# cell model reads as sure entries (MIN_ENTRIES: print in a face the model has not seen
# gives a few confident "entries", up to 9 on a real print-only photo in the shared dev
# set) or as sure pencil notes (MIN_NOTES), or when MIN_MARKS cells the classic digit
# model sees blank hold such a mark (light pencil the cell model reads as blank) on a page
# whose print is read well (MARKS_PRINTED sure printed cells: stripes or fading that hide
# much of the print leave marks the classic model cannot explain); and the page shows the
# printed givens a written page still has (MIN_PRINTED).
SURE_KIND = 0.9
MIN_ENTRIES = 10
MIN_NOTES = 1
MIN_PRINTED = 10
# Fitted by bench/written_on.py on synthetic print-only photos (ten failure classes),
# synthetic written pages (seven kinds, drawn and photographed, and light pencil
# photographed with creases or stripes) and the half_solved_photos train/ photos, never
# val/: the fewest cells lost on the print-only pages first (a page nobody wrote on must
# not pay for the decision), then on the written ones, ties to the setting that takes
# the fewest pages for written. A person's mark stands NOISE_MARKS times the page's pixel
# noise above what mark_seen asks (heavy noise and dark photos give blank cells marks as
# dark as light pencil, 0.4 of the print; their noise sigma is 0.02-0.06 of it, a clean
# photo's about 0.01). Before the page's lines were taken out of the marks (page_lines),
# creases and stripes made the print-first fit ask for 20 sigmas, which hid light pencil
# (a third of the print's darkness) on every photographed page.
NOISE_MARKS = 4.0
MIN_MARKS = 5
MARKS_PRINTED = 23


def persons_marks(seen: Marks, noise_marks: float | None = None) -> np.ndarray:
    """(SIZE*SIZE,) bool: the cell holds a mark as dark as a person's writing (mark_seen)
    once the page's pixel noise (NOISE_MARKS sigmas) is taken off its contrast."""
    k = NOISE_MARKS if noise_marks is None else noise_marks
    return mark_seen(seen.contrast - k * seen.noise, seen.span) > 0.5


def half_solved_reading(colour: np.ndarray, lattice: np.ndarray,
                        probs: np.ndarray) -> tuple[np.ndarray, dict]:
    """(cell probabilities for the Reading, the Reading's kind fields).

    On a page the person wrote on, a cell's probabilities become those of a printed
    given (an entry or notes count as no given), so the puzzle is the printed one and
    the repair weighs a cell's kind like any other reading. On a print-only page the
    digit model's probabilities are kept as they were, and the kind fields are its
    blank / printed split (_print_view); where the cell model sees a person's digit, the
    page read as written on goes along too ("written_reading").
    """
    straight = straighten(colour, lattice, CELL)
    evidence = kind_evidence(straight, probs)
    kinds = kinds_of(evidence)
    if kinds.written:
        return kinds.givens, kind_fields(kinds)
    fields = kind_fields(kinds)
    # Too few of a person's digits to take the page as written on (print in an unfamiliar
    # face reads as a few sure entries too): the page read as written on goes along, for
    # the solver to turn to if the print-only reading cannot be solved.
    written = written_kinds(evidence)
    if (written.kinds[..., 2] > 0.5).any():
        fields["written_reading"] = {"cells": np.round(written.givens, 5).tolist(),
                                     **kind_fields(written),
                                     "second_ink": second_ink(straight, written.kinds)}
    return probs, fields


# The person's digits stand apart from the print when their ink's darkest strokes differ
# from the printed digits' (as shares of the paper's level, per channel) by INK_APART, and
# by INK_SPREAD times the printed digits' own spread (a thin face's strokes never reach
# full darkness, so its digits vary among themselves). On synthetic pages a pen's ink is
# 0.15 or more apart from black print, an app's entry colour 0.5; a printed digit the cell
# model reads as an entry, in the same ink, 0.09 or less.
INK_APART = 0.12
INK_SPREAD = 4.0
INK_CORE = 30  # percentile of a mark's pixels: its strokes' core, clear of anti-aliasing


def ink_tones(straight: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, channels) the colour of each cell's darkest strokes as a share of its
    paper's, per channel (nan in a cell with no mark)."""
    image = straight.astype(np.float32).reshape(*straight.shape[:2], -1)
    m = int(MARK_MARGIN * CELL)
    cells = image[:SIZE * CELL, :SIZE * CELL].reshape(SIZE, CELL, SIZE, CELL, -1)
    cells = cells.transpose(0, 2, 1, 3, 4)[:, :, m:CELL - m, m:CELL - m]
    tones = np.full((SIZE * SIZE, image.shape[-1]), np.nan)
    for i, cell in enumerate(cells.reshape(SIZE * SIZE, -1, image.shape[-1])):
        light = cell.mean(axis=1)
        paper = float(np.percentile(light, 90))
        dark = light < paper - 0.5 * (paper - light.min())
        if dark.sum() < 5 or paper < 1:
            continue
        core = dark & (light <= np.percentile(light[dark], INK_CORE))
        tones[i] = cell[core].mean(axis=0) / np.maximum(
            np.percentile(cell, 90, axis=0), 1.0)
    return tones


def second_ink(straight: np.ndarray, kinds: np.ndarray) -> bool:
    """Whether a cell these (SIZE, SIZE, 4) kinds take as the person's digit is written in
    an ink apart from the printed digits' (INK_APART): evidence of a person's writing that
    print in a face the cell model has not seen (read as entries) lacks."""
    kind = np.asarray(kinds).reshape(SIZE * SIZE, -1).argmax(axis=1)
    tones = ink_tones(straight)
    printed = tones[(kind == 1) & ~np.isnan(tones[:, 0])]
    entries = tones[(kind == 2) & ~np.isnan(tones[:, 0])]
    if not len(printed) or not len(entries):
        return False
    centre = np.median(printed, axis=0)
    spread = float(np.median(np.abs(printed - centre).max(axis=1)))
    apart = np.abs(entries - centre).max(axis=1)
    return bool((apart > max(INK_APART, INK_SPREAD * spread)).any())


def written_on(kinds: np.ndarray, writing: np.ndarray, unexplained: np.ndarray,
               min_marks: int = MIN_MARKS, marks_printed: int = MARKS_PRINTED) -> bool:
    """Whether a page with these (SIZE, SIZE, 4) kind probabilities (the cell model's) is
    written on. `writing`: (SIZE*SIZE,) cells holding a person's marks (persons_marks);
    `unexplained`: those the classic digit model sees blank. See MIN_ENTRIES."""
    sure = kinds.reshape(-1, len(KINDS)) > SURE_KIND
    by_marks = int(np.sum(unexplained)) >= min_marks and sure[:, 1].sum() >= marks_printed
    return bool(((sure[:, 2] & writing).sum() >= MIN_ENTRIES
                 or (sure[:, 3] & writing).sum() >= MIN_NOTES or by_marks)
                and sure[:, 1].sum() >= MIN_PRINTED)
