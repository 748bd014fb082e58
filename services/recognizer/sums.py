"""Cage sums: find the small number in a cell's top-left corner and read its digits.

The corner of the straightened cell (SUM_CELL pixels a side) is cut into ink blobs. Blobs
that are digit-shaped (taller than wide, a sensible height), near the top and next to each
other on one text line form the sum; dash pieces of the cage outline are left out because
they are too short, too flat, or continue along the cell's side. Sums in one grid share
one text height, so blobs far from the grid's typical height are dropped too. Each digit
is read by a small classifier over 0..9 (scripts/train_sums.py) and a sum's candidates
are the products of its digits' probabilities. A second classifier reads the number as a
whole (1..45): it sees two digits that ran together ('11' as one blob, which the digit
model calls '8') as the number they are; the two readings are mixed with a weight fitted
on held-apart grids. A thin bar beside a number may be its '1' or a dash of the cage
outline: where the finder's geometry decides it, the other reading keeps a small prior.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import joblib
import numpy as np

from services.contracts import CageSumReading, SumCandidate
from services.recognizer.classifier import tempered_softmax

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

SUM_CELL = 80  # pixels per cell when reading sums
CORNER = (0.8, 0.52)  # width, height of the corner looked at, as shares of the cell
EDGE = 0.06  # ink this close to the cell's edge is the grid line
MAX_CANDIDATES = 20  # a digit lost in a photo spreads a sum over ten values or more
CLEAR_PAIR = 1.1  # a blob this much wider than tall is two digits
PAIR_WIDE = 2.2  # ... and at most this much wider than tall
MAYBE_PAIR = 0.8  # from here to CLEAR_PAIR it may be one wide digit or two
PAIR_RATIO, PAIR_SPREAD = 1.3, 0.07  # glyph width / digit width where two digits get likely
# A glyph from this many of the grid's digit widths on may be two digits though narrower
# than MAYBE_PAIR: condensed faces set tight join their two-digit numbers ('17' in Bebas
# Neue: 0.72 of its height, its lone digits 0.42-0.53), all of them or only those with
# a '1' (a hairline face at small cells: '10' one glyph beside '27' as two).
JOINED_FROM = 1.4
# The whole-number reader also sees a number's two digits this many text heights apart
# where they stand closer (or were cut from one glyph): at its coarse scale the strokes
# of a hairline '1' and '0' a pixel apart merge, and it reads '11' (Bebas Neue Light).
SET_APART = 0.12
APART_SHARE = 0.5  # ... the share of that view in its reading of two glyphs
JOINED_PERCENTILE = 30  # the lone digits' width: most numbers of one glyph are wider
RECUT_PRIOR = 0.3  # prior that two glyphs apart in the picture are cut elsewhere
MISSED_DIGIT = 0.02  # prior that a sum's second digit went unseen
MAX_SUM = 45
MODEL_PATH = Path(__file__).parent / "models" / "killer.joblib"
GLYPH = 28  # side of the normalised glyph image
GLYPH_BOX = 20  # the glyph's longer side is scaled to this
STROKE_SHARE = 0.35  # a stroke is at least this share as dark as the darkest ink nearby
FAINTEST = 0.08  # below this darkness, paper noise
FAINT_PEAK = 0.2  # a blob whose darkest pixel is fainter than this is no print
LEFT_SLACK = 0.15  # text heights a number may start left of where the grid's numbers do
TALL_OUTLINE = 1.25  # text heights an outline piece beside a number may reach
START_PERCENTILE = 20  # where the grid's numbers start: outline pieces are a few heads' first
SHIFTED = 0.25  # text heights a digit's top or baseline may lie off the number's
# A piece this share of the cell high may be a digit's top broken off at a hairline: a
# small face's '1' keeps only its flag above its faint stem (FreeMono at 38-px cells).
REJOIN_FROM = 0.03
PIECE = 0.08  # ... while a top piece this high or more is a digit's part anyway
ROW_GAP = 0.25  # share of the cell between two pieces of one outline's dotted line
ROW_TALL = 2.0  # ... each at most this many times as tall as the other
FOOT_WIDER = 1.5  # a '1's foot is this many times as wide as its flag and stem's top
NUMBER_H, NUMBER_W = 24, 48  # the whole number's normalised image (text height 20 px)
NUMBER_TEXT = 20
DASH_LIKE = 1.5  # a bar this much longer than the outline's dashes is no dash of it
TOUCH_TOP = 0.3  # a blob starting this far down (share of the cell) may be a sum's digit ...
TOUCH_HEIGHT = 1.05  # ... cut this many text heights under its top,
TOUCH_UPPER = 0.7  # ... as wide as its ink in this upper share of that
GRAIN_SHARE = 0.4  # a blob whose darkest ink is fainter than this share of the digits'
# ... or than this share of a thin bar's on the top line (a '1' over the outline's side,
# or the outline: printed ink either way, and grain is far fainter than both)
BAR_GRAIN_SHARE = 0.3
BAR_DOUBT = 0.15  # prior that a thin bar beside a number was put on the wrong side
# The cage outline's corner lies along the top and left of its box, at least CORNER_SHARE
# of its ink in the outer CORNER_BAND of each (digits: at most 0.77, a '7' in a serif face).
CORNER_BAND, CORNER_SHARE = 0.3, 0.85
SIDE_WIDTH = 0.1  # an outline side's piece is at most this share of the cell wide
OUTLINED_HEADS = 0.5  # share of heads with an outline's top line: the grid draws them
CORNER_GAP = 1.0  # a side dash at most this many of its heights under the top line hangs from it
# A '1' with its flag, as tall as the sums within this share of their height: the flag
# reaches left of the stem in its top rows (ONE_FLAG_ROWS of them at most) by at least
# half the stem's width, the stem's left edge right of where the sums start. An outline's
# side is a bar without a flag, standing left of the sums (they are set inside it), and
# its corner turns right, not left.
ONE_TALL = 0.1
ONE_FLAG_ROWS = 0.4
NARROW = 0.45  # a glyph narrower than this share of its height is a bar
SIDE_CENTRED = 0.25  # ... or the ink under it is centred under it within this share of its width
# A blob shorter than this share of the tallest digit, with dots of a dotted outline on
# both sides of it in a row or a column, is a dot of the outline, not a digit.
SHORTER_THAN_TALL = 0.9
DOT_ALIKE = (0.6, 1.5)  # ... dots of one line: this share of its height and width
CORNER_DOT = (0.4, 0.8)  # ... or, somewhat larger than the dots beside it, its corner
# The outline's top line across the corner: rows in the top LINE_ZONE of the cell inked
# over LINE_SHARE of the corner's columns from LINE_FROM on (right of most numbers), at
# most LINE_ROWS of the cell thick. A grid sets its numbers under the line when at least
# UNDER_MIN of them, and UNDER_SHARE of those with a line found, start below it.
LINE_ZONE, LINE_FROM, LINE_SHARE, LINE_ROWS = 0.3, 0.6, 0.3, 0.1
UNDER_MIN, UNDER_SHARE = 3, 0.6
DIGIT_OF_TALLEST = 0.6  # a glyph this share of its number's tallest may be a digit
# Fewer numbers under it: a glyph on the line this much taller than the digits under it
# joined the line, when without the line's rows it is as tall as they are (within this).
JOINED_TALLER, TEXT_ALIKE = 1.2, 0.15


@dataclass
class Glyph:
    x: int
    y: int
    w: int
    h: int
    image: np.ndarray  # the blob's ink, cut to its box
    # The first glyph of a number may carry a doubt about a thin bar beside it: `lead`, a
    # bar level with the number just left of it that was set aside as the cage outline
    # (perhaps a '1'); `bar`, this glyph is a bar over the outline's side that was kept
    # as a '1' (perhaps the outline).
    lead: Glyph | None = None
    bar: bool = False


@dataclass
class KillerModel:
    """The shipped killer models: edge walls and sum digits, with their training facts."""

    walls: object  # classifier over edge_features rows -> P(wall)
    digits: object  # (scaler, network) over glyph features -> P(0..9)
    info: dict
    temperature: float = 1.0  # softens the network's overconfident probabilities
    # Whole-number reader: (scaler, network) over number_features rows -> P(1..45), its
    # temperature, and its share in the mixture with the digit reading (0: not used).
    numbers: object = None
    number_temperature: float = 1.0
    number_weight: float = 0.0

    def digit_proba(self, x: np.ndarray) -> np.ndarray:
        scaler, network = self.digits
        p = network.predict_proba(scaler.transform(x))
        return tempered_softmax(np.log(np.maximum(p, 1e-12)), self.temperature)

    def number_proba(self, x: np.ndarray) -> np.ndarray:
        """(rows, 46) probabilities of the values 0..45 (0 never), one row per number."""
        scaler, network = self.numbers
        p = network.predict_proba(scaler.transform(x))
        p = tempered_softmax(np.log(np.maximum(p, 1e-12)), self.number_temperature)
        out = np.zeros((len(x), MAX_SUM + 1))
        out[:, network.classes_.astype(int)] = p
        return out


@cache
def load_killer_model(path: Path | None = None) -> KillerModel:
    """The shipped model, or the one GRIDSIGHT_KILLER_MODEL names (held-out benchmarks)."""
    return joblib.load(path or os.environ.get("GRIDSIGHT_KILLER_MODEL") or MODEL_PATH)


def corner_glyphs(ink_cell: np.ndarray, left_limit: float | None = None,
                  text_height: float = 0.0, below: int = 0) -> list[Glyph]:
    """Digit-shaped blobs on the top line of a cell's corner, left to right.

    `left_limit`: where the grid's numbers start (find_sums); a blob no taller than the
    grid's `text_height` that starts left of it over a line running on down the cell's
    side is the cage outline, not a digit. (A taller one is a digit joined to the
    outline in a blurred photo: its top is cut out later.) `below`: the rows above this
    one are left out (the outline's top line, where the grid sets its numbers under it:
    find_sums)."""
    p = ink_cell.shape[0]
    w_lim, h_lim = int(CORNER[0] * p), int(CORNER[1] * p)
    edge = int(round(EDGE * p))
    region = ink_cell[:h_lim, :w_lim].copy()
    region[:max(edge, below), :] = 0
    region[:, :edge] = 0
    # Grey print in a photo is fainter than the cage lines beside it: a stroke is ink at
    # least STROKE_SHARE as dark as the darkest ink nearby (never more than 0.25 needed).
    k = max(3, int(0.1 * p)) | 1
    nearby = cv2.dilate(region, np.ones((k, k), np.uint8))
    threshold = np.maximum(np.minimum(0.25, STROKE_SHARE * nearby), FAINTEST)
    strokes = _rejoined(region >= threshold, region >= np.maximum(0.5 * threshold, FAINTEST), p)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    peak = np.zeros(count, np.float32)
    np.maximum.at(peak, labels.ravel(), region.ravel())
    blobs, set_aside = [], []  # set aside: thin bars taken for the outline
    running_on = []  # blobs from the top line on down the cell: a digit the person's touches
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if peak[i] < FAINT_PEAK:
            continue
        if y <= TOUCH_TOP * p and (h > 0.42 * p or y + h >= h_lim - 1):
            running_on.append(i)
        # Two large bold digits that touch are wider than half the cell (cut below).
        if not (0.09 * p <= h <= 0.42 * p and w <= max(0.5 * p, PAIR_WIDE * h)
                and h >= 1.05 * min(w, h * 0.6)):
            continue
        if area < 0.12 * h * max(2, w) or y > 0.3 * p:
            continue
        if y + h >= h_lim - 1 and y > 0.2 * p:
            continue  # runs on below the corner: a person's large digit, not the sum
        if along_top_left(region[y:y + h, x:x + w] * (labels[y:y + h, x:x + w] == i)):
            # The outline's corner, as tall as small text and above it (held-out textured:
            # a dashed or dotted corner read as '7' or '5', the number under it dropped).
            continue
        # A thin upright blob over ink running on down the cell's side may be a piece of
        # the cage outline -- or a '1' standing on it: decided below, against the text
        # height. A narrow '2' is not upright enough to be taken for the outline.
        line = w <= 0.09 * p and w < 0.5 * h and _continues_down(ink_cell, x, w, y + h)
        if left_limit is not None and x <= left_limit and h <= TALL_OUTLINE * text_height \
                and _continues_down(ink_cell, x, max(1, min(w, int(0.09 * p))), y + h):
            # The outline's side (a dash, or its corner turning down) left of it.
            set_aside.append((x, y, w, h, i, True))
            continue
        # ... unless the outline's next dash starts right under it: a '1' over the outline
        # stands on the paper box around the sum, a dash piece does not. The outline's
        # dashes are all alike: a bar far longer than those under it is no dash of it.
        if line and _dash_follows(ink_cell, x, w, y + h) \
                and _dash_like(ink_cell, x, w, h, y + h):
            set_aside.append((x, y, w, h, i, True))
            continue
        if w > CLEAR_PAIR * h:  # two digits that touch (bold faces): cut between them
            cut = _cut_column(labels[y:y + h, x:x + w] == i)
            mask = labels[y:y + h, x:x + w] == i
            labels[y:y + h, x + cut:x + w][mask[:, cut:]] = count + i  # right part's label
            blobs.append((x, y, cut, h, i, False))
            blobs.append((x + cut, y, w - cut, h, count + i, False))
            continue
        blobs.append((x, y, w, h, i, line))
    for i in running_on:
        kept = [b for b in blobs if b[4] == i]  # short enough to pass for a digit
        top = _top_part(labels, i, stats[i], [b for b in blobs + set_aside if b[4] != i],
                        text_height, p)
        if top is not None:
            blobs = [b for b in blobs if b[4] != i] + [(*top, i, False)]
        elif kept:
            continue
    # The digits of a sum are printed in one ink: a blob far fainter than the darkest
    # digit-shaped one is grain of a textured ground clumped into a digit-sized shape
    # (it may be taller than the digits and would then be taken for the number).
    # A thin '1' over the outline's side is set aside as a bar (b[5]), yet printed: grain
    # beside a lone '1' is far fainter than it too (held-out textured: '1' read as '16').
    printed = [peak[b[4] % count] for b in blobs if not b[5]]
    bars = [peak[b[4] % count] for b in blobs if b[5]]
    floor = max(GRAIN_SHARE * max(printed, default=0.0), BAR_GRAIN_SHARE * max(bars, default=0.0))
    blobs = [b for b in blobs if peak[b[4] % count] >= floor]
    if not blobs:
        return []
    # The sum is the top line of the corner; its tallest blob is a digit (dots and dashes
    # are shorter, or lower down the cell's side); then its neighbours on that line.
    tall = max(b[3] for b in blobs)
    # Dots of a dotted outline beside the number are no digits (its corner's dots run
    # together nearly as tall as small digits, above the number). They are told from
    # the tallest blob off the outline's side (a long dash of the side may be taller).
    digit_tall = max((b[3] for b in blobs if not _side_piece(ink_cell, b)), default=tall)
    blobs = [b for b in blobs if not _dotted_line_piece(stats, peak, b, digit_tall, p)]
    # A thin piece of the outline's side (its corner dots run together) may reach above
    # the number: it does not set the top line when something else as tall does.
    tall_ones = [b for b in blobs if b[3] >= 0.6 * tall]
    off_side = [b for b in tall_ones if not _side_piece(ink_cell, b)]
    top = min(b[1] for b in off_side or tall_ones)
    blobs = [b for b in blobs if b[1] <= top + 0.5 * tall]
    blobs.sort(key=lambda b: (b[5], -b[3], b[1], b[0]))
    ax, ay, aw, ah, _, _ = blobs[0]
    # Digits of a number share their top and their baseline; a dot of the outline beside
    # the number is shorter and sits higher or lower, a thin dash of the outline's side as
    # tall as the digits starts and ends lower (or higher) than they do.
    line = [b for b in blobs if _overlap(b[1], b[3], ay, ah) >= 0.5 * min(b[3], ah)
            and 0.55 * ah <= b[3] <= 1.4 * ah and (not b[5] or b[3] >= 0.85 * ah)
            and (b[3] >= 0.8 * ah or abs(b[1] + b[3] - ay - ah) <= 0.3 * ah)
            and (not b[5] or min(abs(b[1] - ay), abs(b[1] + b[3] - ay - ah)) <= SHIFTED * ah)]
    line.sort(key=lambda b: b[0])
    # The outline runs right of and below the number: of the blobs as tall as the text
    # on its top line, the leftmost starts the number (a '1' before the outline's corner).
    first = next(b for b in line if b[3] >= 0.85 * ah and abs(b[1] - ay) <= 0.25 * ah)
    anchor = line.index(first)
    # Chain the neighbours: a gap wider than the text height ends the number.
    start = end = anchor
    while start > 0 and line[start][0] - (line[start - 1][0] + line[start - 1][2]) < 0.8 * ah:
        start -= 1
    while end + 1 < len(line) and line[end + 1][0] - (line[end][0] + line[end][2]) < 0.8 * ah:
        end += 1
    chosen = line[start:end + 1]
    # Digits of a number stand side by side: a first blob reaching a third of the way
    # over the next one is the cage outline's corner around it (Comfortaa: '4' read as
    # '14'). A sum has at most two digits: of three blobs, a first one that is a thin bar
    # over a line running on down the cell's side is the outline too ('|14' read as '11'),
    # as is the side's large dots run together into a column no wider than the digits
    # beside it (held-out Universalis Condensed on grain: '15' read as '21').
    if len(chosen) > 1 and (chosen[0][0] + chosen[0][2] > chosen[1][0] + 0.3 * chosen[1][2]
                            or (len(chosen) > 2 and (chosen[0][5]
                                                     or _side_column(ink_cell, chosen)))):
        set_aside += chosen[:1]
        chosen = chosen[1:]
    chosen = chosen[:2]
    glyphs = [_trimmed(region * (labels == i), x, y, w, h) for x, y, w, h, i, _ in chosen]
    if len(chosen) == 2 and chosen[0][5]:
        glyphs[0].bar = True
    lead = _lead_bar(set_aside, chosen[0]) if len(chosen) == 1 else None
    if lead is not None:
        x, y, w, h, i, _ = lead
        glyphs[0].lead = _trimmed(region * (labels == i), x, y, w, h)
    return glyphs


def _side_piece(ink_cell: np.ndarray, blob: tuple) -> bool:
    """Whether a blob is thin and ink runs on under it down the cell: the outline's side."""
    x, y, w, h = blob[:4]
    return w <= SIDE_WIDTH * ink_cell.shape[0] and _continues_down(ink_cell, x, w, y + h)


def _side_column(ink_cell: np.ndarray, chosen: list) -> bool:
    """Whether the first of a number's blobs is the outline's side: thin, or no wider than
    the others with ink running on down the cell centred under it (a deeply inset
    outline's side runs down under the left of a sum's first digit)."""
    x, y, w, h = chosen[0][:4]
    if _side_piece(ink_cell, chosen[0]):
        return True
    if w > max(b[2] for b in chosen[1:]) or not _continues_down(ink_cell, x, w, y + h):
        return False
    below = ink_cell[y + h + 1:int(0.85 * ink_cell.shape[0]), max(0, x - 1):x + w + 1]
    weight = (below >= 0.35).sum(axis=0)
    centre = float((weight * np.arange(len(weight))).sum() / max(1, weight.sum()))
    return abs(centre - (x - max(0, x - 1)) - (w - 1) / 2) <= SIDE_CENTRED * w


def _dotted_line_piece(stats: np.ndarray, peak: np.ndarray, blob: tuple, tall: int,
                       p: int) -> bool:
    """Whether a blob clearly shorter than the tallest one (a digit) is a piece of a dotted
    line: printed pieces of its size (DOT_ALIKE) stand near it on both sides, centred on
    its row (the outline's top line) or on its column (its side); or it is the outline's
    top-left corner, the first dots of both lines run together: smaller dots (CORNER_DOT)
    stand right of it, level with its top, and under it, in line with its left, and
    nothing of its size left of it or above it. A sum's digits are as tall as one
    another, the outline's dots beside a digit are far smaller than it, a digit on the
    corner (a paper box) breaks the lines there, and grain is fainter than print."""
    x, y, w, h, i = blob[:5]
    if h >= SHORTER_THAN_TALL * tall:
        return False
    own = i % len(stats)  # the blob's label (a digit cut from a touching pair: the pair's)
    low, high = DOT_ALIKE

    def alike(bw: int, bh: int) -> bool:  # a dot of the same line: as wide and as tall
        return low * w <= bw <= high * w and low * h <= bh <= high * h

    sides = set()
    for j in range(1, len(stats)):
        if j == own or peak[j] < GRAIN_SHARE * peak[own]:
            continue
        bx, by, bw, bh, _ = stats[j]
        # Along the row (x along, y across), then along the column (y along, x across).
        for (at, across, long, size), (b_at, b_across, b_long, b_size), names in (
                ((x, y, w, h), (bx, by, bw, bh), ("left", "right", "corner right")),
                ((y, x, h, w), (by, bx, bh, bw), ("up", "down", "corner down"))):
            if _overlap(across, size, b_across, b_size) < 0.5 * min(size, b_size) or \
                    max(b_at - at - long, at - b_at - b_long) >= ROW_GAP * p:
                continue
            centred = abs(2 * b_across + b_size - 2 * across - size) <= 2 * SHIFTED * size
            if alike(bw, bh) and centred:
                sides.add(names[0] if b_at < at else names[1])
            if b_at > at and CORNER_DOT[0] * size <= b_size <= CORNER_DOT[1] * size \
                    and abs(b_across - across) <= SHIFTED * b_size:
                sides.add(names[2])
            break  # level with it: no piece of its column
    if {"corner right", "corner down"} <= sides and not sides & {"left", "up"}:
        return True
    return {"left", "right"} <= sides or {"up", "down"} <= sides


def along_top_left(ink: np.ndarray) -> bool:
    """Whether a blob's ink lies along the top and left of its box only: a corner."""
    total = float(ink.sum())
    if total <= 0:
        return False
    h, w = ink.shape
    band = np.zeros(ink.shape, bool)
    band[:max(1, round(CORNER_BAND * h))] = True
    band[:, :max(1, round(CORNER_BAND * w))] = True
    return float(ink[band].sum()) >= CORNER_SHARE * total


def _top_part(labels: np.ndarray, i: int, stat: np.ndarray, blobs: list,
              text_height: float, p: int) -> tuple | None:
    """(x, y, w, h) of the top of blob `i`, a sum's digit that the person's large digit
    below it touches, cut off one text height under its top; `labels` lose the rest.
    None when no text height is known or the top is no digit's shape.

    The text height is that of the digits (or bars set aside as the outline: a '1') beside
    it on the line (`blobs` found so far), else the grid's (`text_height`, known in
    find_sums' second look). The person's digit often overlaps the sum's foot along its
    width (a '5' whose bar lies along a '2's foot): the digit's width is taken from its
    upper rows, above where they meet.
    """
    x, y, w, h, _ = stat
    beside = [b[3] for b in blobs if abs(b[1] - y) <= SHIFTED * b[3]]
    height = max(beside, default=0) or text_height
    if not height:
        return None
    cut = y + int(round(TOUCH_HEIGHT * height))
    if cut >= y + h - 1:
        return None  # no taller than the text: nothing runs on below it
    mask = labels[y:cut, x:x + w] == i
    cols = np.flatnonzero(mask[:int(TOUCH_UPPER * len(mask))].any(axis=0))
    if cols.size == 0:
        return None
    left, right = x + int(cols[0]), x + int(cols[-1]) + 1
    if right - left > 0.5 * p or right - left > 1.2 * height:
        return None  # an outline's corner and side, not a digit
    if right - left <= 0.09 * p and right - left < 0.5 * height:
        return None  # a thin bar running on down the cell's side: the outline
    keep = np.zeros_like(labels, bool)
    keep[y:cut, left:right] = labels[y:cut, left:right] == i
    labels[(labels == i) & ~keep] = 0
    return left, y, right - left, cut - y


def _lead_bar(bars: list, first: tuple) -> tuple | None:
    """The bar set aside as the outline that stands just left of a one-glyph number, its
    top and foot level with the digit's: it may be the number's '1'."""
    fx, fy, _, fh = first[:4]
    level = [b for b in bars if b[2] < 0.5 * b[3] and b[0] + b[2] <= fx + 1
             and fx - b[0] - b[2] < 0.8 * fh and abs(b[1] - fy) <= SHIFTED * fh
             and abs(b[1] + b[3] - fy - fh) <= SHIFTED * fh]
    return max(level, key=lambda b: b[0], default=None)


def _rejoined(strong: np.ndarray, weak: np.ndarray, p: int) -> np.ndarray:
    """The stroke mask, with a digit broken at a hairline put back together.

    Small serif digits have hairlines fainter than the stroke threshold ('2's diagonal):
    the digit falls into a top piece and a foot. Where, right under a piece, another one
    starts within two pixels and spans half its width or more, and fainter ink bridges
    every row between them, the bridge joins them (the foot may already touch the next
    digit; the pair cut below separates the two digits again). The top piece may be as
    small as a '1's flag (a small face's hairline stem is fainter than the threshold)
    when its foot is wider than it and it stands alone (not a dash of the outline's
    side over the next dash, nor a dot of its top line).
    """
    mask = strong.astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for a in range(1, count):
        x, y, w, h, _ = stats[a]
        if not REJOIN_FROM * p <= h <= 0.42 * p:
            continue
        if h < PIECE * p and _in_a_row(stats, a, p):
            continue  # a dot of a dotted outline over the number, no digit's flag
        below = labels[y + h:y + h + 3, x:x + w]
        hits = below[(below > 0) & (below != a)]
        if hits.size == 0:
            continue
        b = np.bincount(hits).argmax()
        if stats[b][1] + stats[b][3] - y > 0.42 * p:
            continue  # the piece below reaches too far down for one line of text
        if (below == b).any(axis=0).sum() < 0.5 * w:
            continue  # a foot spans the digit; a dash of the outline below does not
        if h < PIECE * p and stats[b][2] < FOOT_WIDER * w:
            continue  # a dash of the outline's side over the next one: no flag over a foot
        rows = np.flatnonzero((below == b).any(axis=1))
        bridge = weak[y + h - 1:y + h + int(rows[0]) + 1, x:x + w]
        if bridge.any(axis=1).all():
            mask[y + h - 1:y + h + int(rows[0]) + 1, x:x + w] |= bridge.astype(np.uint8)
    return mask


def _in_a_row(stats: np.ndarray, a: int, p: int) -> bool:
    """Whether two other pieces about as small stand level with piece `a`, near it: dots
    or dashes of an outline's line, where a '1's flag stands alone (the digit beside it
    is far taller) or beside one other flag ('11')."""
    x, y, w, h, _ = stats[a].astype(np.int64)
    bx, by, bw, bh = stats[1:, :4].astype(np.int64).T  # every piece at once: grain makes many
    level = (bh <= ROW_TALL * h) & (np.minimum(y + h, by + bh) > np.maximum(y, by)) \
        & (np.maximum(bx - x - w, x - bx - bw) < ROW_GAP * p)
    level[a - 1] = False
    return int(level.sum()) >= 2


def _cut_column(mask: np.ndarray) -> int:
    """Where to cut a blob of two touching digits: a thin column near the middle."""
    w = mask.shape[1]
    cols = mask.sum(axis=0).astype(float)
    lo, hi = int(0.3 * w), int(0.7 * w) + 1
    span = np.arange(lo, hi)
    # Digits of a number are about equally wide: the cut stays near the middle.
    cost = cols[lo:hi] + cols.max() * ((span - w / 2) / (w / 2)) ** 2
    return lo + int(cost.argmin())


def split_glyph(glyph: Glyph) -> list[Glyph]:
    """The two digits a wide glyph may be."""
    cut = _cut_column(glyph.image > 0)
    h = glyph.h
    left = _trimmed(glyph.image[:, :cut], 0, 0, cut, h)
    right = _trimmed(glyph.image[:, cut:], 0, 0, glyph.w - cut, h)
    return [Glyph(glyph.x + left.x, glyph.y + left.y, left.w, left.h, left.image),
            Glyph(glyph.x + cut + right.x, glyph.y + right.y, right.w, right.h, right.image)]


def _trimmed(ink: np.ndarray, x: int, y: int, w: int, h: int) -> Glyph:
    """The glyph cut to the rows and columns its ink really covers."""
    cut = ink[y:y + h, x:x + w]
    rows, cols = np.flatnonzero(cut.max(axis=1) > 0), np.flatnonzero(cut.max(axis=0) > 0)
    if rows.size == 0 or cols.size == 0:
        return Glyph(x, y, w, h, cut)
    cut = cut[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    return Glyph(x + int(cols[0]), y + int(rows[0]), cut.shape[1], cut.shape[0], cut)


def _overlap(y0: int, h0: int, y1: int, h1: int) -> int:
    return max(0, min(y0 + h0, y1 + h1) - max(y0, y1))


def _dash_follows(ink_cell: np.ndarray, x: int, w: int, bottom: int) -> bool:
    """Whether dark ink resumes within a pixel under a thin blob, in its own columns."""
    below = ink_cell[bottom:bottom + 2, max(0, x - 1):x + w + 1]
    return below.size > 0 and float(below.max()) >= 0.4


def _dash_like(ink_cell: np.ndarray, x: int, w: int, h: int, bottom: int) -> bool:
    """Whether a bar `h` high could be one of the outline's dashes under it: no more
    than DASH_LIKE times as long as the longest whole dash there (a solid or unbroken
    line under it: yes)."""
    p = ink_cell.shape[0]
    band = ink_cell[bottom:int(0.95 * p), max(0, x - 1):x + w + 1]
    if band.shape[0] < 2:
        return True
    inked = np.concatenate([[False], band.max(axis=1) >= 0.35, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(inked))
    starts, ends = edges[::2], edges[1::2]
    whole = ends[ends < band.shape[0]] - starts[ends < band.shape[0]]
    return whole.size == 0 or h <= DASH_LIKE * float(whole.max())


def _continues_down(ink_cell: np.ndarray, x: int, w: int, bottom: int) -> bool:
    p = ink_cell.shape[0]
    below = ink_cell[bottom + 1:int(0.85 * p), max(0, x - 1):x + w + 1]
    if below.shape[0] < 0.2 * p:
        return False
    return float((below.max(axis=1) >= 0.35).mean()) > 0.3


@cache
def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((GLYPH, GLYPH), (14, 14), (7, 7), (7, 7), 9)


def glyph_features(glyph: Glyph, text_height: float) -> np.ndarray:
    """HOG, half-resolution pixels and shape of one glyph, centred and scaled."""
    blob = glyph.image.astype(np.float32)
    blob = blob / max(float(blob.max()), 1e-3)  # faint print reads like dark print
    h, w = blob.shape
    scale = GLYPH_BOX / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(blob, (nw, nh), interpolation=cv2.INTER_AREA)
    digit = np.zeros((GLYPH, GLYPH), np.float32)
    top, left = (GLYPH - nh) // 2, (GLYPH - nw) // 2
    digit[top:top + nh, left:left + nw] = small
    hog = _hog().compute((digit * 255).astype(np.uint8)).ravel()
    pixels = cv2.resize(digit, (GLYPH // 2, GLYPH // 2), interpolation=cv2.INTER_AREA).ravel()
    shape = np.array([h / text_height, w / h, float(blob.mean())], np.float32) * 4
    return np.concatenate([hog, pixels, shape]).astype(np.float32)


def number_features(glyphs: list[Glyph], text_height: float) -> np.ndarray:
    """HOG, pixels and shape of a whole number (its glyphs as found), at one text height.

    The number keeps its proportions: scaled so that the text is NUMBER_TEXT pixels high
    (narrower if it would not fit), so '11' run together stays twice a '1' wide and
    unlike an '8'.
    """
    number = _joined(glyphs) if len(glyphs) > 1 else glyphs[0]
    blob = number.image.astype(np.float32)
    blob = blob / max(float(blob.max()), 1e-3)
    h, w = blob.shape
    scale = min(NUMBER_TEXT / max(h, 1), (NUMBER_W - 4) / max(w, 1))
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(blob, (nw, nh), interpolation=cv2.INTER_AREA)
    image = np.zeros((NUMBER_H, NUMBER_W), np.float32)
    top, left = (NUMBER_H - nh) // 2, (NUMBER_W - nw) // 2
    image[top:top + nh, left:left + nw] = small
    hog = _number_hog().compute((image * 255).astype(np.uint8)).ravel()
    pixels = cv2.resize(image, (NUMBER_W // 2, NUMBER_H // 2),
                        interpolation=cv2.INTER_AREA).ravel()
    shape = np.array([h / text_height, w / h, len(glyphs) - 1.5, float(blob.mean())],
                     np.float32) * 4
    return np.concatenate([hog, pixels, shape]).astype(np.float32)


@cache
def _number_hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((NUMBER_W, NUMBER_H), (12, 12), (6, 6), (6, 6), 9)


def cell_ink(ink: np.ndarray, r: int, c: int, n: int = 9) -> np.ndarray:
    """Cell (r, c) of a straightened n x n ink map."""
    p = ink.shape[0] // n
    return ink[r * p:(r + 1) * p, c * p:(c + 1) * p]


def find_sums(ink: np.ndarray, heads, maybe=(), n: int = 9
              ) -> dict[tuple[int, int], list[Glyph]]:
    """{cell: its sum's glyphs} for the cells in `heads` and `maybe` whose corner holds one.

    `heads` are the cells the walls make the first of their cage; `maybe` are cells that
    would be so if a doubtful wall were read the other way. The heads' text height is the
    grid's: blobs far from it are dashes or specks, not numbers.
    """
    found = {}
    for r, c in list(heads) + list(maybe):
        glyphs = corner_glyphs(cell_ink(ink, r, c, n))
        if glyphs:
            found[(r, c)] = glyphs
    found = _under_the_line(ink, found, n)
    sure = [found[cell][0].h for cell in heads if cell in found]
    if not sure:
        return {}
    typical = float(np.median(sure))
    # The numbers of one grid are set alike, from the same place in their corner (their
    # first digits' bearings differ by a fifth of the text height). Ink starting left of
    # where nearly all of them start, over a line running on down the cell's
    # side, is the outline: a dash broken off beside the number ('19' read as '1' '1' in
    # the textured style) or the outline's corner ('6' read as '16').
    start = float(np.percentile([found[cell][0].x for cell in heads if cell in found],
                                START_PERCENTILE))
    limit = start - LEFT_SLACK * typical
    for cell, gs in list(found.items()):
        if gs[0].x <= limit:
            again = corner_glyphs(cell_ink(ink, *cell, n), limit, typical)
            if again:
                found[cell] = again
            else:
                # Nothing but the outline: two of a dotted side's dots, joined by the
                # faint ink between them, pass for an '8' (held-out print: a sum read in
                # a blank cell whose top wall was in doubt).
                del found[cell]
    # Under a cage's first cell, the cage's inset side runs down through the corner of
    # each cell. Where a doubtful wall makes such a cell a maybe-head, a lone bar of that
    # side with no flag is no '1' when no outline's top line crosses the corner, as a
    # cage's first cell has (held-out textured: a dash read '1' at 0.998, and the repair
    # never settled), or when the top line turns down into the bar: the outline's corner
    # of a cage whose first cell lies elsewhere (held-out web: an L-shaped cage's lower
    # corner read '1'). A number the outline runs around breaks the line above it.
    if sum(top_line(cell_ink(ink, *cell, n)) is not None for cell in heads) \
            >= OUTLINED_HEADS * len(heads):
        for cell in maybe:
            gs, raw = found.get(tuple(cell)), cell_ink(ink, *cell, n)
            if gs and len(gs) == 1 \
                    and _side_piece(raw, (gs[0].x, gs[0].y, gs[0].w, gs[0].h)) \
                    and not flagged_one(gs[0], start, typical):
                line = top_line(raw)
                if line is None or _turns_down_into(raw, line, gs[0]):
                    del found[tuple(cell)]
    # The grid prints its numbers in one ink: in a maybe-head, a number far fainter than
    # the heads' is grain of a textured ground clumped into a digit's shape (held-out
    # textured: a '6' at 0.22 of the sums' darkness, in an empty cell under a doubtful
    # wall, and the repair never settled).
    printed = float(np.median([peak_ink(found[cell]) for cell in heads if cell in found]))
    for cell in maybe:
        if tuple(cell) in found and peak_ink(found[tuple(cell)]) < GRAIN_SHARE * printed:
            del found[tuple(cell)]
    # A head whose lone digit the person's digit touches: looked at again, now that the
    # text height is known.
    for cell in heads:
        if tuple(cell) not in found:
            again = corner_glyphs(cell_ink(ink, *cell, n), text_height=typical)
            if again:
                found[tuple(cell)] = again
    # Digits on a line share their top and height: ink hanging below that (or, beside a
    # digit of the text's height, above it) is a piece of the cage outline that touches
    # the number.
    found = {cell: _cut_number(gs, typical) for cell, gs in found.items()}
    return {cell: gs for cell, gs in found.items() if 0.65 * typical <= gs[0].h <= 1.35 * typical}


def peak_ink(glyphs: list[Glyph]) -> float:
    """The darkest ink of a number's glyphs."""
    return max(float(g.image.max()) for g in glyphs)


def _turns_down_into(ink_cell: np.ndarray, line: tuple[int, int], glyph) -> bool:
    """Whether the outline's top `line` (top_line) runs over the glyph's columns just
    above it (the corner's arm and a dash's break between at most): its corner, turning
    down into the side."""
    if glyph.y - line[1] - 1 > max(line[1] - line[0] + 2, CORNER_GAP * glyph.h):
        return False
    over = ink_cell[line[0]:line[1] + 1, glyph.x:glyph.x + glyph.w] >= 0.35
    return bool(over.any(axis=0).mean() >= 0.5)  # its faint anti-aliased edge aside


def flagged_one(glyph, x0: float, tall: float) -> bool:
    """Whether a glyph is a '1' set as the grid's sums are (their start `x0`, their height
    `tall`): a stem as tall as they are, of the same width in every lower row, with a flag
    reaching left from its top (ONE_TALL, ONE_FLAG_ROWS). A lone narrow bar is the cage
    outline's side as well; the flag and the stem's place tell the digit."""
    if abs(glyph.h - tall) > ONE_TALL * tall or glyph.h < 6:
        return False
    dark = glyph.image >= 0.5 * glyph.image.max()
    h = dark.shape[0]
    lower = dark[h // 2:h - max(1, h // 6)]  # above a serif foot
    spans = [np.flatnonzero(row) for row in lower]
    if any(len(s) == 0 or s[-1] - s[0] + 1 != len(s) for s in spans):
        return False  # the stem is one solid run in every lower row
    left = int(np.median([s[0] for s in spans]))
    right = int(np.median([s[-1] for s in spans]))
    stem = right - left + 1
    if stem > NARROW * h or glyph.x + left <= x0:
        return False
    top = dark[:max(2, int(ONE_FLAG_ROWS * h))]
    inked = np.flatnonzero(top.any(axis=0))
    if len(inked) == 0:
        return False  # the glyph's box reaches above its dark ink: faint top, no flag
    reach = int(inked[0])
    # The flag stays level with the stem's top: no ink right of the stem up there (an
    # outline corner turning right) nor left of it lower down.
    return left - reach >= max(2.0, 0.5 * stem) and not top[:, right + 2:].any() \
        and not dark[int(ONE_FLAG_ROWS * h):h - max(1, h // 6), :max(0, left - 1)].any()


def top_line(ink_cell: np.ndarray) -> tuple[int, int] | None:
    """(first, last) row of the cage outline's top line across the cell's corner, or None.

    The line (solid, dashes or dots) is inked over much of the corner right of where
    numbers reach, a line's thickness high, near the top of the cell.
    """
    p = ink_cell.shape[0]
    edge = int(round(EDGE * p))
    inked = ink_cell[:int(LINE_ZONE * p), int(LINE_FROM * p):int(CORNER[0] * p)] >= 0.35
    share = inked.mean(axis=1)
    share[:edge] = 0  # the grid line
    rows = np.flatnonzero(share >= LINE_SHARE)
    if rows.size == 0:
        return None
    first = last = int(rows[0])
    while last + 1 < len(share) and share[last + 1] >= LINE_SHARE:
        last += 1
    return (first, last) if last - first + 1 <= LINE_ROWS * p else None


def _under_the_line(ink: np.ndarray, found: dict, n: int) -> dict:
    """The numbers looked at again under the outline's top line, where the grid sets them
    there: a digit that touches the line above it joins it (a dash on a '9' reads '6', two
    digits joined through the dots read as one), so its blob starts on the line.

    Where most numbers of the grid have a digit starting below their cell's top line,
    those with a glyph starting on it are found again without the rows down to the
    line's last. A digit counts, not the number's first glyph: that may be the outline's
    side, its dots run together from the top line down (held-out Universalis Condensed on
    grain: 13 sums of a grid). Where fewer do (large dots close over small condensed
    digits join most of them), a number is found again when a glyph starting on the line
    is clearly taller than the digits under it elsewhere, and the new one is as tall as
    those. A grid whose numbers sit level with the line (a paper box breaks it around
    them) has no digits under it, and is left as it is.
    """
    lines = {cell: top_line(cell_ink(ink, *cell, n)) for cell in found}
    lines = {cell: line for cell, line in lines.items() if line}
    under = {cell: _digits_under(found[cell], line) for cell, line in lines.items()}
    heights = [g.h for gs in under.values() for g in gs]
    numbered = sum(bool(gs) for gs in under.values())
    if numbered < UNDER_MIN:
        return found
    most = numbered >= UNDER_SHARE * len(lines)
    text = float(np.median(heights))
    out = dict(found)
    for cell, line in lines.items():
        on_line = [g for g in found[cell] if g.y <= line[1]]
        if not on_line or not most and max(g.h for g in on_line) < JOINED_TALLER * text:
            continue
        again = corner_glyphs(cell_ink(ink, *cell, n), below=line[1] + 1)
        if again and (most or abs(max(g.h for g in again) - text) <= TEXT_ALIKE * text):
            out[cell] = again
    return out


def _digits_under(glyphs: list[Glyph], line: tuple[int, int]) -> list[Glyph]:
    """The glyphs as tall as a digit (the outline's dots are far shorter) that start below
    the top line."""
    tallest = max(g.h for g in glyphs)
    return [g for g in glyphs if g.y > line[1] and g.h >= DIGIT_OF_TALLEST * tallest]


def _cut_number(glyphs: list[Glyph], height: float) -> list[Glyph]:
    """The number's glyphs cut to the text's rows: a digit joined to the outline's dots
    above it (held-out textured, Roboto: '15' read as '12') is cut to the rows of the
    other digit when that one is as tall as the grid's text and on the same baseline."""
    if len(glyphs) == 2:
        short, tall = sorted(glyphs, key=lambda g: g.h)
        if 0.85 * height <= short.h <= 1.15 * height < tall.h \
                and abs(short.y + short.h - tall.y - tall.h) <= 0.15 * height:
            top = max(0, short.y - tall.y)
            part = _trimmed(tall.image[top:top + short.h], 0, 0, tall.w, short.h)
            cut = replace(tall, x=tall.x + part.x, y=tall.y + top + part.y, w=part.w,
                          h=part.h, image=part.image)
            return [cut if g is tall else g for g in glyphs]
    return [_cut_to(g, height) for g in glyphs]


def _cut_to(glyph: Glyph, height: float) -> Glyph:
    if glyph.h <= 1.15 * height:
        return glyph
    keep = int(round(1.05 * height))
    g = _trimmed(glyph.image[:keep], 0, 0, glyph.w, keep)
    return replace(glyph, x=glyph.x + g.x, y=glyph.y + g.y, w=g.w, h=g.h, image=g.image)


def sum_candidates(digit_probs: list[np.ndarray]) -> list[SumCandidate]:
    """Most probable values of a 1- or 2-digit sum from its digits' probabilities."""
    if len(digit_probs) == 1:
        values = [(d, float(digit_probs[0][d])) for d in range(1, 10)]
        # A second digit lost in the picture: the read digit then leads a 2-digit sum.
        values += [(10 * a + b, float(digit_probs[0][a]) * MISSED_DIGIT / 20)
                   for a in range(1, 5) for b in range(10) if 10 * a + b <= 45]
        values += [(10 * a + b, float(digit_probs[0][b]) * MISSED_DIGIT / 8)
                   for a in range(1, 5) for b in range(10) if 10 * a + b <= 45]
    else:
        first, second = digit_probs[0], digit_probs[1]
        values = [(10 * a + b, float(first[a] * second[b])) for a in range(1, 5)
                  for b in range(10) if 10 * a + b <= 45]
        # A 2-glyph reading could still be a single digit beside a speck: keep it possible.
        values += [(d, float(first[d]) * MISSED_DIGIT / 10) for d in range(1, 10)]
    values.sort(key=lambda v: -v[1])
    total = sum(p for _, p in values) or 1.0
    kept = [SumCandidate(value=v, prob=round(p / total, 6)) for v, p in values[:MAX_CANDIDATES]
            if p / total >= 1e-4]
    return kept or [SumCandidate(value=values[0][0], prob=1.0)]


def digit_width(found: dict[tuple[int, int], list[Glyph]]) -> float | None:
    """The grid's typical width-to-height ratio of one digit other than '1'.

    Glyphs of two-glyph numbers are single digits; narrow ones are '1's.
    """
    ratios = [g.w / g.h for gs in found.values() if len(gs) == 2 for g in gs
              if g.w >= 0.45 * g.h]
    return float(np.median(ratios)) if len(ratios) >= 3 else None


def joined_width(found: dict[tuple[int, int], list[Glyph]]) -> float | None:
    """The width-to-height ratio of one digit in a grid none of whose numbers stands as
    two glyphs: its one-glyph numbers are lone digits and joined pairs, the narrower ones
    (but '1's) lone digits."""
    ratios = [gs[0].w / gs[0].h for gs in found.values()
              if len(gs) == 1 and gs[0].w >= 0.3 * gs[0].h]
    return float(np.percentile(ratios, JOINED_PERCENTILE)) if len(ratios) >= 6 else None


def pair_prior(glyph: Glyph, width: float | None) -> float:
    """Prior that one wide glyph is two touching digits, from the grid's digit width.

    One digit is about `width` wide; two (at least a '1' and a digit) about 1.4 times that
    or more. Without a width known, both are equally likely.
    """
    if width is None:
        return 0.5
    ratio = glyph.w / glyph.h / width
    return float(np.clip(1 / (1 + np.exp(-(ratio - PAIR_RATIO) / PAIR_SPREAD)), 0.02, 0.98))


def _read_number(glyphs: list[Glyph], typical: float, model: KillerModel,
                 width: float | None = None) -> list[SumCandidate]:
    """Candidates for one sum: its digits' reading mixed with the whole-number reading.

    A thin bar beside the number that the finder put on one side of the outline/'1'
    question (Glyph.lead, Glyph.bar) is read the other way too, at a small prior: a '16'
    whose '1' stood over the outline is then no sure '6', nor an '8' with a dash beside
    it a sure '18', and the cage sizes, the total and the repair decide.
    """
    def read(gs: list[Glyph]) -> list[SumCandidate]:
        return mixed_candidates(digit_reading(gs, typical, model, width), gs, typical,
                                model, width)

    found = read(glyphs)
    if glyphs[0].lead is not None and len(glyphs) == 1:
        other = [glyphs[0].lead, glyphs[0]]
    elif glyphs[0].bar and len(glyphs) == 2:
        other = glyphs[1:]
    else:
        return found
    mixed: dict[int, float] = {}
    for candidates, share in ((found, 1 - BAR_DOUBT), (read(other), BAR_DOUBT)):
        for c in candidates:
            mixed[c.value] = mixed.get(c.value, 0.0) + share * c.prob
    return _ranked(mixed)


def digit_reading(glyphs: list[Glyph], typical: float, model: KillerModel,
                  width: float | None = None) -> dict[int, float]:
    """{value: prob} of a sum from its digits; a single wide glyph is also read as two
    touching digits (`width`: the grid's digit width, digit_width or joined_width; one
    JOINED_FROM of those wide may be two: maybe_pair).

    Each reading is weighted by its prior (from the glyph's width against the grid's digit
    width) and by how sure the classifier is of its digits.
    """
    readings = [(glyphs, 1.0)]
    if len(glyphs) == 2 and glyphs[1].x - (glyphs[0].x + glyphs[0].w) <= 1:
        # Perhaps cut from one blob, perhaps not where the digits meet: the classifier's
        # best cut competes with the first, which the picture's own gap favours.
        readings = [(glyphs, 1 - RECUT_PRIOR),
                    (_best_split(_joined(glyphs), typical, model), RECUT_PRIOR)]
    elif maybe_pair(glyphs, width):
        pair = pair_prior(glyphs[0], width)
        readings = [(glyphs, 1 - pair), (_best_split(glyphs[0], typical, model), pair)]
    merged: dict[int, float] = {}
    scored = []
    for gs, prior in readings:
        probs = model.digit_proba(np.stack([glyph_features(g, typical) for g in gs]))
        scored.append((prior * float(np.prod(probs.max(axis=1))),
                       sum_candidates(list(probs))))
    total = sum(score for score, _ in scored) or 1.0
    for score, candidates in scored:
        for c in candidates:
            merged[c.value] = merged.get(c.value, 0.0) + c.prob * score / total
    return merged


def maybe_pair(glyphs: list[Glyph], width: float | None) -> bool:
    """Whether a number found as one glyph may be two digits run together: wider than
    MAYBE_PAIR of its height, or JOINED_FROM of the grid's digit width (`width`)."""
    if len(glyphs) != 1:
        return False
    g = glyphs[0]
    return g.w > MAYBE_PAIR * g.h or width is not None and g.w >= JOINED_FROM * width * g.h


def set_apart(pair: list[Glyph], typical: float) -> list[Glyph]:
    """A number's two digits, the second moved right to stand SET_APART of the first."""
    gap = int(round(SET_APART * typical))
    return [pair[0], replace(pair[1], x=max(pair[1].x, pair[0].x + pair[0].w + gap))]


def apart_view(glyphs: list[Glyph], typical: float, model: KillerModel,
               width: float | None) -> tuple[list[Glyph], float] | None:
    """(the number's digits set apart, the share of that view) for the whole-number
    reader: two glyphs found apart but closer than SET_APART (APART_SHARE), or a glyph
    that may be two digits run together in a grid whose digit width is known (cut where
    the digit reader cuts it, at its pair_prior); None where the digits already stand
    apart. Two glyphs the finder cut from one blob are read as found: the cut may be off
    (a bold '18' cut through its '8', set apart, read '19')."""
    if len(glyphs) == 2:
        gap = glyphs[1].x - (glyphs[0].x + glyphs[0].w)
        close = 1 <= gap < round(SET_APART * typical)
        return (set_apart(glyphs, typical), APART_SHARE) if close else None
    if width is not None and maybe_pair(glyphs, width):
        return (set_apart(_best_split(glyphs[0], typical, model), typical),
                pair_prior(glyphs[0], width))
    return None


def whole_number_proba(glyphs: list[Glyph], typical: float, model: KillerModel,
                       width: float | None = None) -> np.ndarray:
    """The whole-number reader's probabilities of 0..45 for a number as found, mixed
    with its reading of the digits set apart where they stand close (apart_view)."""
    whole = model.number_proba(number_features(glyphs, typical)[None])[0]
    apart = apart_view(glyphs, typical, model, width)
    if apart is None:
        return whole
    view, share = apart
    return (1 - share) * whole + share * model.number_proba(
        number_features(view, typical)[None])[0]


def mixed_candidates(digit_reading: dict[int, float], glyphs: list[Glyph], typical: float,
                     model: KillerModel, width: float | None = None) -> list[SumCandidate]:
    """The digit reading's {value: prob} mixed with the whole-number reading.

    A mixture, not a product: where the two disagree (the digit model sure of '8', the
    number model of '11') both values stay likely and the cage sizes, the total and the
    solver decide; where they agree the sum stays sure. The whole-number reader reads
    digits that stand close both as found and set apart (apart_view).
    """
    total = sum(digit_reading.values()) or 1.0
    mixed = {v: p / total for v, p in digit_reading.items()}
    if model.numbers is not None and model.number_weight > 0:
        whole = whole_number_proba(glyphs, typical, model, width)
        w = model.number_weight
        mixed = {v: (1 - w) * mixed.get(v, 0.0) + w * float(whole[v])
                 for v in set(mixed) | set(range(1, MAX_SUM + 1))}
        mixed = {v: p for v, p in mixed.items() if p >= 1e-5}
    return _ranked(mixed)


def _ranked(probs: dict[int, float]) -> list[SumCandidate]:
    """The MAX_CANDIDATES likeliest values, their probabilities summing to one."""
    ranked = sorted(probs.items(), key=lambda vp: -vp[1])[:MAX_CANDIDATES]
    norm = sum(p for _, p in ranked) or 1.0
    return [SumCandidate(value=v, prob=round(p / norm, 6)) for v, p in ranked]


def _joined(glyphs: list[Glyph]) -> Glyph:
    x, y = min(g.x for g in glyphs), min(g.y for g in glyphs)  # pieces may overlap
    w = max(g.x + g.w for g in glyphs) - x
    h = max(g.y + g.h for g in glyphs) - y
    image = np.zeros((h, w), np.float32)
    for g in glyphs:
        part = image[g.y - y:g.y - y + g.h, g.x - x:g.x - x + g.w]
        np.maximum(part, g.image, out=part)
    return Glyph(x, y, w, h, image)


def _best_split(glyph: Glyph, typical: float, model: KillerModel) -> list[Glyph]:
    """The cut of a two-digit blob whose halves the classifier reads most surely."""
    options = []
    for cut in range(max(2, int(0.3 * glyph.w)), min(glyph.w - 2, int(0.7 * glyph.w) + 1)):
        parts = [_trimmed(glyph.image[:, :cut], 0, 0, cut, glyph.h),
                 _trimmed(glyph.image[:, cut:], 0, 0, glyph.w - cut, glyph.h)]
        if min(p.w for p in parts) < 1:
            continue
        options.append([Glyph(glyph.x + parts[0].x, glyph.y + parts[0].y, parts[0].w,
                              parts[0].h, parts[0].image),
                        Glyph(glyph.x + cut + parts[1].x, glyph.y + parts[1].y, parts[1].w,
                              parts[1].h, parts[1].image)])
    if not options:
        return split_glyph(glyph)
    rows = [glyph_features(g, typical) for pair in options for g in pair]
    probs = model.digit_proba(np.stack(rows)).max(axis=1).reshape(-1, 2)
    return options[int(probs.prod(axis=1).argmax())]


def read_sums(ink: np.ndarray, heads, maybe=(), n: int = 9,
              model: KillerModel | None = None, sure_heads=None) -> list[CageSumReading]:
    """Cage sums in the straightened ink map (SUM_CELL pixels a cell).

    A head of `sure_heads` (default: all heads) whose number cannot be found still gets a
    reading: every sum 1..45, equally unlikely, so the solver can work it out from the rest
    of the puzzle. A head that only a doubtful wall makes gets none: more likely the wall
    is not there.
    """
    found = find_sums(ink, heads, maybe, n)
    out = []
    if found:
        model = model or load_killer_model()
        typical = float(np.median([g[0].h for g in found.values()]))
        width = digit_width(found)
        # No number stands as two glyphs: the lone digits give the width.
        joined = width is None and joined_width(found) is not None
        width = joined_width(found) if joined else width
        for cell in sorted(found):
            out.append(CageSumReading(cell=cell, candidates=_read_number(
                found[cell], typical, model, width)))
    for cell in heads if sure_heads is None else sure_heads:
        if tuple(cell) not in found:
            out.append(CageSumReading(cell=tuple(cell), candidates=[
                SumCandidate(value=v, prob=round(1 / 45, 6)) for v in range(1, 46)]))
    return sorted(out, key=lambda s: s.cell)
