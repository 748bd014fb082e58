"""What each cell of a half-solved page holds: blank, a printed given, the person's own
digit (handwritten, or entered in an app), or small pencil candidates.

One classifier reads every cell into one of 20 classes: blank, printed 1-9, entry 1-9,
notes. The kind probabilities (blank / printed / entry / notes) and the digit
probabilities are its marginals, so a cell whose printed/handwritten split is uncertain
carries that doubt to the solver instead of a hard choice.

Features, per cell of the grid straightened at CELL pixels: the centred digit's HOG and
shape measures from cells/features.py (which digit), a coarse picture of the cell's ink as it sits
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

from services.recognizer.cells.classifier import load_model as load_digit_model
from services.recognizer.cells.classifier import tempered_softmax
from services.recognizer.cells.features import (
    apart,
    cells_of,
    digit_masks,
    features,
    normalise_cell,
)
from services.recognizer.cells.tuning import (
    ALL_DIFFERENT,
    CLASSIC_IN_ENTRIES,
    ENTRY_DOUBT,
    ENTRY_SUPPORT,
    MAX_GAIN,
    PEAK_FLOOR,
    SWEEPS,
)
from services.recognizer.grid.straighten import ink_map, straighten
from services.recognizer.networks import logits, scaled

MODEL_PATH = Path(__file__).parents[1] / "models" / "cell_kinds.joblib"
# Screenshots' own cell model (print_look.rendered): trained on screens alone, with the
# ink's colour, so that photos keep the model fitted on real photographed pages.
SCREEN_MODEL_PATH = MODEL_PATH.with_name("screen_kinds.joblib")
SIZE = 9
CELL = 40  # pixels per straightened cell: small pencil digits need more than PATCH (32)
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


STROKE_MARGIN = 0.12  # share of the cell left out around the inset the stroke measures see


def stroke_measures(inks: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, 10) darkness, thickness, colour and blob measures of the ink inside each
    of a grid's (SIZE*SIZE, p, p) cells' inset (STROKE_MARGIN clear of its edges); `lab`:
    the insets' colour in Lab (_inset_lab). A cell of fewer than 4 stroke pixels measures
    0. The ranks come from one sort of every cell's pixels and the blobs from one
    labelling (features.apart); only the stroke thickness is worked out cell by cell."""
    count, p = inks.shape[:2]
    m = int(STROKE_MARGIN * p)
    out = np.zeros((count, 10), np.float32)
    strokes = inks[:, m:p - m, m:p - m] >= 0.35
    inked = np.flatnonzero(strokes.sum(axis=(1, 2)) >= 4)
    if not len(inked):
        return out
    inner = inks[inked, m:p - m, m:p - m]
    strokes = strokes[inked]
    side = inner.shape[1]
    size = side * side
    n_ink = strokes.sum(axis=(1, 2))
    lab = lab.reshape(count, size, 3)[inked]
    flat = strokes.reshape(-1, size)
    p90, median = _masked_ranks(inner.reshape(-1, size), flat, n_ink, 90)
    # The paper's colour: the median of each channel off the strokes (an inset all ink:
    # its mean colour).
    paper = np.stack([_masked_ranks(lab[:, :, k], ~flat, size - n_ink, None)[1]
                      for k in range(3)], axis=1)
    for i in np.flatnonzero(n_ink == size):
        paper[i] = lab[i].mean(axis=0)
    # The strokes' mean colour, summed pixel after pixel as numpy's mean over them does.
    summed = np.cumsum(np.where(flat[..., None], lab, np.float32(0)), axis=1)[:, -1]
    ink_lab = (summed / n_ink[:, None]).astype(np.float32) - paper
    thickness = np.empty(len(inked))
    for i, cell in enumerate(strokes):
        if n_ink[i] == size:
            # No paper pixel at all (a shaded or misplaced cell): OpenCV's distance to
            # paper is then endless; the stroke is as thick as the inset can tell.
            thickness[i] = side / 2
        else:
            dist = cv2.distanceTransform(cell.astype(np.uint8), cv2.DIST_L2, 3)
            thickness[i] = float(dist[cell].mean())
    laid_out = np.zeros((count, side, side), np.uint8)
    laid_out[inked] = strokes
    _, _, stats, _ = cv2.connectedComponentsWithStats(apart(laid_out, SIZE), connectivity=8)
    stats = stats[1:]
    position = np.zeros(count, int)
    position[inked] = np.arange(len(inked))
    owner = position[(stats[:, cv2.CC_STAT_TOP] // (side + 1)) * SIZE
                     + stats[:, cv2.CC_STAT_LEFT] // (side + 1)]
    big = stats[:, cv2.CC_STAT_AREA] >= 0.004 * size
    blobs = np.bincount(owner[big], minlength=len(inked))
    tallest = np.zeros(len(inked))
    np.maximum.at(tallest, owner[big], stats[big, cv2.CC_STAT_HEIGHT])
    first_row = strokes.any(axis=2).argmax(axis=1)
    out[inked] = np.stack([
        median, p90, thickness / p * 10,
        ink_lab[:, 0] / 50, ink_lab[:, 1] / 20, ink_lab[:, 2] / 20,
        blobs / 4, tallest / side, first_row / side, n_ink / size * 4,
    ], axis=1)
    return out


def _masked_ranks(values: np.ndarray, kept: np.ndarray, counts: np.ndarray,
                  percent: float | None) -> tuple[np.ndarray | None, np.ndarray]:
    """(the `percent` percentile, the median) of each row's `kept` values (`counts` of
    them, at least one), as ranked gives them: the kept values sorted first in each row."""
    ordered = np.sort(np.where(kept, values, np.float32(np.inf)), axis=1)
    rows = np.arange(len(values))
    low, high = ordered[rows, (counts - 1) // 2], ordered[rows, counts // 2]
    median = np.where(counts % 2 == 0,
                      ((low.astype(np.float64) + high) / 2).astype(np.float32), high)
    if percent is None:
        return None, median
    at = (percent / 100) * (counts - 1)
    below = np.floor(at).astype(int)
    a, b = ordered[rows, below], ordered[rows, np.minimum(below + 1, counts - 1)]
    gamma = at - below
    # As numpy's scalars compute it: the weights (Python floats) taken as float32.
    step = b - a
    top = b - step * (1 - gamma).astype(np.float32)
    bottom = a + step * gamma.astype(np.float32)
    return np.where(gamma >= 0.5, top, bottom), median


def _inset_lab(insets: np.ndarray) -> np.ndarray:
    """The Lab colour (float32) of insets of a BGR picture, any shape (..., 3): one
    conversion for many cells gives each pixel what its own cell's conversion would
    (checked to the bit in tests/recognizer/test_cell_kinds.py)."""
    col = np.ascontiguousarray(insets, np.float32)
    return cv2.cvtColor((col / 255.0).astype(np.float32).reshape(-1, 1, 3),
                        cv2.COLOR_BGR2Lab).reshape(insets.shape)


def own_contrast(cell_ink: np.ndarray) -> float:
    """The gain (>= 1) that brings the ink inside the cell's inset to its own contrast."""
    p = cell_ink.shape[0]
    m = int(0.16 * p)
    peak = float(np.percentile(cell_ink[m:p - m, m:p - m], 99))
    return float(min(MAX_GAIN, max(1.0, 1.0 / max(peak, PEAK_FLOOR))))


def gains(ink: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE,) own_contrast of each cell of a grid's ink at CELL pixels per cell, row
    by row, in one percentile over the stacked insets."""
    p = CELL
    m = int(0.16 * p)
    insets = ink[:SIZE * p, :SIZE * p].reshape(SIZE, p, SIZE, p).transpose(0, 2, 1, 3)[
        :, :, m:p - m, m:p - m].reshape(SIZE * SIZE, -1)
    peak = np.percentile(insets, 99, axis=1).astype(np.float64)
    return np.minimum(MAX_GAIN, np.maximum(1.0, 1.0 / np.maximum(peak, PEAK_FLOOR)))


def digit_features(cell_ink: np.ndarray, gain: float | None = None) -> np.ndarray:
    """The centred digit's features (cells/features.py) of one cell's ink at its own
    contrast (`gain`: own_contrast(cell_ink), when the caller has it)."""
    gain = own_contrast(cell_ink) if gain is None else gain
    digit, shape, _ = normalise_cell(cell_ink * gain)
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
    cell_gains = gains(ink)
    m = int(STROKE_MARGIN * CELL)
    lab = _inset_lab(straight[:SIZE * CELL, :SIZE * CELL].reshape(SIZE, CELL, SIZE, CELL, 3)
                     .transpose(0, 2, 1, 3, 4)[:, :, m:CELL - m, m:CELL - m])
    inks = cells_of(ink, SIZE, CELL)
    masks = digit_masks(inks, SIZE)
    # Each cell at its own contrast, as digit_features makes it (a float32 gain).
    gained = inks * cell_gains.astype(np.float32)[:, None, None]
    gained_masks = digit_masks(gained, SIZE)
    strokes = stroke_measures(inks, lab)
    rows = []
    every = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    for r, c in every if cells is None else cells:
        k = r * SIZE + c
        cell_ink = inks[k]
        digit, shape, box = normalise_cell(cell_ink, mask=masks[k])
        coarse = cv2.resize(np.minimum(cell_ink, 1.5), (COARSE, COARSE),
                            interpolation=cv2.INTER_AREA).ravel()
        gain = float(cell_gains[k])
        as_read = features(digit, shape)
        # At a gain of 1 the cell's own contrast is the page's: the same features.
        own = as_read if gain == 1.0 else features(
            *normalise_cell(gained[k], mask=gained_masks[k])[:2])
        rows.append(np.concatenate([as_read, box * 4, coarse, strokes[k] * 4, own,
                                    [1.0 / gain]]))
    return np.stack(rows).astype(np.float32)


HAND_FEATURES = len(digit_features(np.zeros((CELL, CELL), np.float32)))
KIND_FEATURES = HAND_FEATURES + 4 + COARSE * COARSE + 10  # digit, box, coarse, strokes
ALL_FEATURES = KIND_FEATURES + HAND_FEATURES + 1


def mlp_logits(scaler, net, x: np.ndarray) -> np.ndarray:
    """The network's output scores; `net` may be a tuple of networks fitted from other
    seeds on the same rows, whose mean scores (the geometric mean of their odds) vary
    less from one training to the next than any one network's."""
    x = scaled(scaler, x)
    if isinstance(net, tuple):
        return np.mean([logits(member, x) for member in net], axis=0)
    return logits(net, x)


@dataclass
class HandDigitModel:
    """Which digit 1-9 a person wrote (column d-1), from digit_features: trained on
    thousands of real handwritten digits (gridsight/training/hand_digits.py)."""

    scaler: object
    network: object
    temperature: float

    def logits(self, x: np.ndarray) -> np.ndarray:
        """From hand features alone (HAND_FEATURES columns) or a whole feature row."""
        if x.shape[1] >= ALL_FEATURES:
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
    # The screens' model also reads the ink colour features (ink.ink_colour_features)
    # that follow the ALL_FEATURES columns.
    colour: bool = False

    def inputs(self, x: np.ndarray) -> np.ndarray:
        if self.colour:
            return np.hstack([x[:, :self.columns], x[:, ALL_FEATURES:]])
        return x[:, :self.columns]

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        probs = tempered_softmax(mlp_logits(self.scaler, self.network, self.inputs(x)),
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
    """Class probabilities whose blank share also heeds the classic digit model (cells/features.py),
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


def with_typed_entries(probs: np.ndarray, typed: np.ndarray) -> np.ndarray:
    """with_printed_digits for the person's digits of a screenshot: an app types them in a
    face of its own, which the classic digit model reads as it reads print (`typed`:
    own_contrast_digits)."""
    typed = typed.reshape(len(probs), -1)[:, 1:]
    typed = typed / np.maximum(typed.sum(axis=1, keepdims=True), 1e-12)
    return _with_mean_digits(probs, ENTRY_CLASSES, typed)


def own_contrast_digits(x: np.ndarray) -> np.ndarray:
    """(cells, 10) the classic digit model's reading of each cell at its own contrast
    (straight_features' second digit columns). An app's typed entries are often in a
    colour whose grey lies near the ground's (magenta on a dark ground): at the
    picture's contrast the classic reading takes them for blank cells."""
    return load_digit_model().predict_proba(x[:, KIND_FEATURES:KIND_FEATURES + HAND_FEATURES])


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


def with_unsupported_entries_doubted(probs: np.ndarray, own: np.ndarray,
                                     support: float = ENTRY_SUPPORT,
                                     doubt: float = ENTRY_DOUBT) -> np.ndarray:
    """Class probabilities whose entry digits are flattened by `doubt` (the entry kind's
    total and the most likely digit kept) in the cells where the classic digit model at
    the cell's own contrast (`own`: own_contrast_digits) gives the most likely entry digit
    less than `support`: two readers that disagree on a digit leave its value in doubt."""
    mine = probs[:, ENTRY_CLASSES]
    total = np.maximum(mine.sum(axis=1, keepdims=True), 1e-12)
    written = mine.argmax(axis=1) + 1  # own's columns: blank, then 1-9
    unsupported = own.reshape(len(probs), -1)[np.arange(len(probs)), written] < support
    out = probs.copy()
    flat = total * ((1 - doubt) * mine / total + doubt / mine.shape[1])
    out[unsupported, ENTRY_CLASSES] = flat[unsupported]
    return out


def stroke_spans(straight: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE,) the height of each cell's tallest stroke (at the cell's own contrast)
    as a share of the cell's inset, from a grid straightened at CELL pixels per cell."""
    ink = ink_map(cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY), CELL)
    m = int(0.12 * CELL)
    cell_gains = gains(ink)
    inners = cells_of(ink, SIZE, CELL)[:, m:CELL - m, m:CELL - m] * \
        cell_gains.astype(np.float32)[:, None, None]
    return tallest_strokes(inners >= 0.35, 0.004 * inners[0].size) / inners.shape[1]


def tallest_strokes(strokes: np.ndarray, least_area: float) -> np.ndarray:
    """(SIZE*SIZE,) the height in pixels of each cell's (SIZE*SIZE, h, w) tallest
    8-connected blob of at least `least_area` pixels (0 where none is), the cells
    labelled together (features.apart)."""
    h, w = strokes.shape[1:]
    _, _, stats, _ = cv2.connectedComponentsWithStats(
        apart(strokes.astype(np.uint8), SIZE), connectivity=8)
    stats = stats[1:]
    big = stats[:, cv2.CC_STAT_AREA] >= least_area
    owner = (stats[big, cv2.CC_STAT_TOP] // (h + 1)) * SIZE + \
        stats[big, cv2.CC_STAT_LEFT] // (w + 1)
    tallest = np.zeros(SIZE * SIZE)
    np.maximum.at(tallest, owner, stats[big, cv2.CC_STAT_HEIGHT])
    return tallest


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
    seen_blank = classic_blank(classic, len(probs))
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


def classic_blank(classic: np.ndarray | None, n: int) -> np.ndarray:
    """(n,) the classic digit model's p(blank) per cell (1 without its reading)."""
    if classic is None:
        return np.ones(n)
    flat = np.asarray(classic, np.float64).reshape(n, -1)
    return flat[:, 0] / np.maximum(flat.sum(axis=1), 1e-12)
