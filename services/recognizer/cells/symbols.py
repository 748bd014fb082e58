"""Cell values of grids other than 9x9: digits 1..n, two-digit numbers, or letters.

Grids of 8 or fewer reuse the digit model: the probability it gives to digits the grid
cannot hold is not dropped but spread evenly, so a cell the model was unsure of stays
unsure and the solver's repair can weigh it.

12x12 and 16x16 grids print values above 9 one of three ways: as two digits ("digits":
10..16), as letters after 9 ("hex": A-G) or as letters only ("letters": A-P). Each cell's
ink is cut into glyphs (one, or two side by side); each glyph is read by the digit model
(1..9) and by the small symbol model (0, A-P, or "a digit 1-9", see
gridsight/training/symbols.py). Every convention turns the glyph readings into values;
the convention that explains the most ink wins, and its values are the cells' readings.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import joblib
import numpy as np

from services.recognizer.cells.classifier import load_model
from services.recognizer.cells.features import (
    BORDER,
    FAINT_LEVEL,
    LINE_RUN,
    MIN_BLOB,
    cleared_strokes,
    digit_mask,
    features,
    longest_runs,
    normalise_cell,
    read_grid_cells,
)
from services.recognizer.cells.glyph_looks import (
    absent_symbols_read_apart,
    look_of,
    runner_ups_unlike_their_cells,
)
from services.recognizer.cells.tuning import (
    ALONG,
    CLOSE_END,
    FLOOR,
    GLYPH_CELL,
    LINE_INK,
    NEAR_EDGE,
    OTHER_CUT,
    SERIF_DEPTH,
    SHORT_PIECE,
    SMALL_END,
    SURE_AS_CUT,
    THICKER,
    TOUCHING_TEMPER,
    WIDE_GLYPH,
)
from services.recognizer.grid.straighten import ink_map, straighten

SYMBOL_MODEL_PATH = Path(__file__).parents[1] / "models" / "symbols.joblib"
# The symbol model's classes: any digit 1-9 (told apart by the digit model), 0, A..P, and
# a speck (ink in a blank cell that is no symbol: noise, a shadow's edge).
LETTERS = "ABCDEFGHIJKLMNOP"
SYMBOL_CLASSES = ("digit", "0", *LETTERS, "speck")
SPECK = len(SYMBOL_CLASSES) - 1
LETTER_O, LETTER_I = LETTERS.index("O"), LETTERS.index("I")
CONVENTIONS = ("digits", "hex", "letters")


@cache
def load_symbol_model(path: Path = SYMBOL_MODEL_PATH):
    """scikit-learn pipeline: glyph features -> probabilities of SYMBOL_CLASSES."""
    return joblib.load(path)


def fold(probs: np.ndarray, n: int) -> np.ndarray:
    """(.., 10) blank/1..9 probabilities to (.., n+1) for a grid of side n <= 9: the mass on
    digits above n is spread evenly over blank and 1..n."""
    kept = probs[..., :n + 1]
    lost = probs[..., n + 1:].sum(axis=-1, keepdims=True)
    return kept + lost / (n + 1)


def glyph_masks(ink: np.ndarray) -> list[np.ndarray]:
    """The cell's digit ink cut into glyphs, left to right: columns with no ink part them.
    At most two (a two-digit number); more pieces join the nearest neighbour."""
    mask = digit_mask(ink, centred_bars=True)
    pieces = _gap_pieces(mask)
    if not pieces:
        return []
    heights = [_height(mask[:, a:b + 1]) for a, b in pieces]
    # A piece much shorter than the tallest is a serif or a broken stroke, not a glyph of
    # its own (the two digits of a number stand equally tall): it joins its neighbour.
    while len(pieces) > 1 and min(heights) < SHORT_PIECE * max(heights):
        k = int(np.argmin(heights))
        j = k - 1 if k == len(pieces) - 1 or (
            k > 0 and pieces[k][0] - pieces[k - 1][1] < pieces[k + 1][0] - pieces[k][1]) else k + 1
        lo, hi = min(k, j), max(k, j)
        pieces[lo:hi + 1] = [(pieces[lo][0], pieces[hi][1])]
        heights[lo:hi + 1] = [_height(mask[:, pieces[lo][0]:pieces[lo][1] + 1])]
    while len(pieces) > 2:  # a broken stroke: join the two pieces with the smallest gap
        k = int(np.argmin([b[0] - a[1] for a, b in zip(pieces, pieces[1:], strict=False)]))
        pieces[k:k + 2] = [(pieces[k][0], pieces[k + 1][1])]
    return [_columns(mask, start, end) for start, end in pieces]


def _gap_pieces(mask: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) columns of each run of inked columns, left to right."""
    columns = np.flatnonzero(mask.any(axis=0))
    if not len(columns):
        return []
    gaps = np.flatnonzero(np.diff(columns) > 1)
    return list(zip([columns[0], *columns[gaps + 1]], [*columns[gaps], columns[-1]],
                    strict=True))


def short_piece_apart(parts: list[np.ndarray]) -> list[np.ndarray] | None:
    """The two glyphs a gap parts when glyph_masks joined the shorter to the other as a
    serif: an old-style face's 1 stands x-height tall beside the ascending 6 of a "16".
    None when the gaps part the ink otherwise."""
    if len(parts) != 1:
        return None
    pieces = _gap_pieces(parts[0])
    if len(pieces) != 2:
        return None
    return [_columns(parts[0], start, end) for start, end in pieces]


def _height(part: np.ndarray) -> int:
    rows = np.flatnonzero(part.any(axis=1))
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


def _columns(mask: np.ndarray, start: int, end: int) -> np.ndarray:
    part = np.zeros_like(mask)
    part[:, start:end + 1] = mask[:, start:end + 1]
    return part


def split_glyph(part: np.ndarray) -> list[np.ndarray] | None:
    """A wide glyph cut in two at its thinnest column in the middle: the other reading
    of two digits printed close enough to touch. None when the glyph is not wide."""
    ys, xs = np.nonzero(part)
    x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
    width, height = x1 - x0 + 1, y1 - y0 + 1
    if width < WIDE_GLYPH * height or width < 6:
        return None
    lo, hi = x0 + int(0.3 * width), x0 + int(np.ceil(0.7 * width))
    cut = lo + int(np.argmin(part[:, lo:hi].sum(axis=0)))
    return [_columns(part, x0, cut - 1), _columns(part, cut + 1, x1)]


def _features_of(ink: np.ndarray, parts: list[np.ndarray], as_cut: bool = False
                 ) -> list[np.ndarray]:
    """Each glyph's features. `as_cut`: the parts are the glyphs' pixels as they stand
    (strokes given back from a grid line, which the usual cut would clear again)."""
    vectors = []
    for part in parts:
        near = cv2.dilate(part.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        digit, shape, _ = normalise_cell(np.where(near, ink, 0.0).astype(np.float32),
                                         centred_bars=True, mask=part if as_cut else None)
        vectors.append(features(digit, shape))
    return vectors


def glyph_features(ink: np.ndarray) -> list[np.ndarray]:
    """Feature vectors (as the digit model takes them) of each glyph of one cell's ink."""
    return _features_of(ink, glyph_masks(ink))


class Cut(list):
    """One way to cut a cell's ink: each glyph's feature vector, and how far the cut is
    trusted beside the others (`weight`, see OTHER_CUT)."""

    def __init__(self, vectors: list[np.ndarray], weight: float = 1.0):
        super().__init__(vectors)
        self.weight = weight


def glyph_hypotheses(ink: np.ndarray, parts: list[np.ndarray] | None = None,
                     as_cut: bool = False) -> list[Cut]:
    """Ways to cut the cell's ink into glyphs: as the gaps part it (with a short piece
    joined to its neighbour, and also apart), and a single wide glyph also as two
    touching ones. `parts`: glyph_masks(ink), when the caller has them (`as_cut`: read as
    they stand)."""
    parts = glyph_masks(ink) if parts is None else parts
    if not parts:
        return []
    out = [Cut(_features_of(ink, parts, as_cut))]
    # The gaps part a short piece from its neighbour: as much a cut by the gaps as the
    # joined one, so it is trusted as fully.
    apart = short_piece_apart(parts)
    if apart is not None:
        out.append(Cut(_features_of(ink, apart, as_cut)))
    if len(parts) == 2:  # or one glyph whose strokes a gap parts (a serif face's F)
        out.append(Cut(_features_of(ink, [parts[0] | parts[1]], as_cut), OTHER_CUT))
    halves = split_glyph(parts[0]) if len(parts) == 1 else None
    if halves is not None:
        out.append(Cut(_features_of(ink, halves, as_cut), OTHER_CUT))
    return out


def strokes_along_lines(ink: np.ndarray, parts: list[np.ndarray]
                        ) -> tuple[np.ndarray, list[np.ndarray], bool] | None:
    """(the cell's ink, the glyphs `parts`, whether ink the cut left out was joined) with
    the strokes the glyphs may have along a grid line given back, or None when no glyph
    can have one. A stroke lying on a line is cleared with it: a bold P set high loses
    its bowl's top (read F), a serif F or E its top arm, and the arm's end serif, cut off
    from the stem, is dropped as a line's remnant (F read H, E read L). Where a glyph
    meets a line at two places, or meets it where ink cut off from every glyph hangs from
    it too, the line between them is given to the glyph. Two glyphs (the digits of "11")
    are never joined so. A piece too small for a serif counts only close beside the
    glyph: the ball ending a serif J's hook whose curve lies on the bottom line (the J
    read I)."""
    if not parts:
        return None
    p = ink.shape[0]
    band, lo, hi = int(0.2 * p), BORDER * p, (1 - BORDER) * p
    ys, xs = np.nonzero(np.logical_or.reduce(parts))
    near = int(NEAR_EDGE * p)
    if min(ys.min(), xs.min()) >= near and max(ys.max(), xs.max()) < p - near:
        return None  # no glyph reaches a line (the usual case, and cheap to tell)
    joined, strokes = cleared_strokes(ink, centred_bars=True)
    cleared = joined.astype(bool) & ~strokes.astype(bool)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    owner = np.full(count, -1)  # the glyph each piece of ink belongs to; -1: none
    for k, part in enumerate(parts):
        owner[np.unique(labels[part & (labels > 0)])] = k
    out = [part.copy() for part in parts]
    half_width = [int(round(cv2.distanceTransform(part.astype(np.uint8), cv2.DIST_L2, 3).max()))
                  for part in parts]
    changed = took_ink = False
    for turn in range(4):  # each side in turn as the top; rot90 views write through
        line_cleared, pieces = np.rot90(cleared, turn), np.rot90(labels, turn)
        # Rows of a line: wiped whole, and mostly ink (the faint edge of a line half a
        # pixel off is wiped too, see cells._clear_edge_lines).
        unstroked = ~np.rot90(strokes, turn)[:band].any(axis=1)
        rows = np.flatnonzero((line_cleared[:band].sum(axis=1) > LINE_RUN * p / 2) & unstroked)
        if len(rows):  # the line's faint edge, wiped by its faint run, is the line's too
            faint_run = longest_runs(np.rot90(ink, turn)[:band] >= FAINT_LEVEL) > LINE_RUN * p
            while rows.max() + 1 < band and unstroked[rows.max() + 1] \
                    and faint_run[rows.max() + 1]:
                rows = np.append(rows, rows.max() + 1)
        # The line's rows, and the first row below them; none when the line lies beyond
        # the cell and the glyph reaches into it (its arm's edge in the cell's first row).
        top, inside = (rows.min(), rows.max() + 1) if len(rows) else (0, 0)
        if inside >= band:
            continue
        edge = np.rot90(ink, turn)[inside] >= FAINT_LEVEL
        touching = pieces[inside]
        columns = np.flatnonzero(touching > 0)
        if not len(columns):
            continue
        groups = np.split(columns, np.flatnonzero(
            (np.diff(columns) > 1) | (np.diff(touching[columns]) != 0)) + 1)
        meets = []  # (first column, last column, glyph or -1, piece, small) where ink
        for group in groups:  # meets the line
            piece, small = int(touching[group[0]]), False
            if owner[piece] < 0:  # a piece hanging from the line, apart from every glyph
                ys, xs = np.nonzero(pieces == piece)
                if not lo <= xs.mean() <= hi:
                    continue
                depth = ys.max() - inside  # rows below the line's first inside row
                if stats[piece, 4] < MIN_BLOB * p * p or depth < SERIF_DEPTH * p:
                    # A J's hook ending in a ball just above the line whose curve lies
                    # on it: too small for a serif, yet a stroke's end when it hangs
                    # close beside where the glyph meets the line (see below).
                    if stats[piece, 4] < SMALL_END * MIN_BLOB * p * p or depth < 1:
                        continue
                    small = True
            meets.append((group[0], group[-1], int(owner[piece]), piece, small))
        for (a0, a1, ga, pa, sa), (b0, b1, gb, pb, sb) in zip(meets, meets[1:], strict=False):
            if ga == gb == -1 or (ga >= 0 and gb >= 0 and ga != gb) or b0 - a1 > 0.5 * p:
                continue
            if (sa or sb) and b0 - a1 > CLOSE_END * p:
                # A small piece counts farther off only under the glyph's own span (the
                # end serif of a serif E's top arm, above its lower arm's end).
                span = np.flatnonzero(np.rot90(parts[max(ga, gb)], turn).any(axis=0))
                end = (a0, a1) if sa else (b0, b1)
                if end[0] < span.min() or end[1] > span.max():
                    continue
            gap = edge[a1 + 1:b0]
            if top == inside and len(gap) and gap.mean() < ALONG:
                continue  # no line wiped, and no stroke's edge along the cell's edge
            k = max(ga, gb)
            glyph = np.rot90(out[k], turn)
            glyph[top:inside, a0:b1 + 1] |= line_cleared[top:inside, a0:b1 + 1]
            glyph[inside, a0:b1 + 1] |= edge[a0:b1 + 1]
            # What lay in or beyond the line is lost: the stroke is given back as thick
            # as the glyph's thinner strokes (half its widest), at least the line's width.
            glyph[top:max(inside, top + half_width[k]), a0:b1 + 1] = True
            for g, piece in ((ga, pa), (gb, pb)):
                if g < 0:
                    glyph |= pieces == piece
                    took_ink = True
            changed = True
    if not changed:
        return None
    given = np.logical_or.reduce(out) & ~np.logical_or.reduce(parts)
    return np.where(given, np.maximum(ink, 1.0), ink).astype(ink.dtype), out, took_ink


def _glyph_readings(cut: Cut) -> tuple[np.ndarray, np.ndarray, float]:
    """(digit model's 1..9 probabilities, symbol model's class probabilities) per glyph,
    and the cut's weight."""
    x = np.stack(cut)
    digits = load_model().predict_proba(x)[:, 1:]
    digits = digits / np.maximum(digits.sum(axis=1, keepdims=True), 1e-9)
    return digits, load_symbol_model().predict_proba(x), cut.weight


def _values(convention: str, n: int, digits: np.ndarray, symbols: np.ndarray) -> np.ndarray:
    """(n,) unnormalised probabilities of values 1..n for one cell's glyphs."""
    out = np.zeros(n)
    is_digit, zero, letter = symbols[:, 0], symbols[:, 1], symbols[:, 2:2 + len(LETTERS)]
    # 0 and O are one shape in many faces (geometric sans): each convention holds only one
    # of them (digits: the 0 of a 10; letters: O), so either reading counts as that one.
    zero = zero + letter[:, LETTER_O]
    letter = letter.copy()
    letter[:, LETTER_O] = zero
    if len(digits) == 1:
        if convention == "letters":
            out[:] = letter[0, :n]
            return out
        out[:9] = is_digit[0] * digits[0]
        if convention == "hex":
            out[9:] = letter[0, :n - 9]
        return out
    if convention == "digits" and len(digits) == 2:  # "1" then 0..(n-10)
        # The first glyph can only be a 1: a bar read as I (a face whose 1 has no flag, or
        # a 1 thinned by the line beside it) counts. A lone I does not: two touching
        # digits (a heavy 10) read as one glyph look I-like too.
        one = is_digit[0] * digits[0, 0] + letter[0, LETTER_I]
        right = np.concatenate([[zero[1]], is_digit[1] * digits[1, :n - 10]])
        out[9:] = one * right
    return out


def _cell_values(convention: str, n: int, ways: list) -> tuple[np.ndarray, float]:
    """(values 1..n of a cell under a convention, the chance its ink is specks), over the
    ways its ink can be cut (`ways`: each glyph's readings and the cut's weight): the way
    that reads a value of the convention best decides (a wide glyph is one letter, or two
    digits). The specks' chance is that way's too: two digits that
    touch ("12" in a slab face) look like no glyph the symbol model knows, so as one
    glyph they read as a speck, while their two halves read as digits.

    The ink is no speck either when another cut reads every one of its glyphs surely as
    a glyph, even if that cut explains less (a "12" whose slab serifs touch: as one glyph
    a digit at 0.76 and a speck at 0.2, its halves a 1 and a 2 at 1.0). Such a cut bounds
    the specks' chance by the chance that any of its glyphs is one, so that a smudge whose
    halves still read partly as specks keeps its own."""
    values = [_values(convention, n, digits, symbols) * weight
              for digits, symbols, weight in ways]
    # A cut is judged by the value it reads best: one glyph the models spread over
    # several digits (a bold "11" whose serifs touch: a digit at 0.53, 6 at 0.42) explains
    # no value as well as its halves read surely as 1 and 1.
    best = int(np.argmax([v.max() for v in values]))
    specks = float(np.prod(ways[best][1][:, SPECK]))
    for k, (_, symbols, _) in enumerate(ways):
        if k != best:
            specks = min(specks, 1.0 - float(np.prod(1.0 - symbols[:, SPECK])))
    return values[best], specks


def _either_reading(convention: str, n: int, readings: list, took_ink: bool = False
                    ) -> tuple[np.ndarray, float, bool]:
    """(_cell_values of a cell read as cut and, when a grid line may hold a stroke of its
    glyph, read with that stroke given back (strokes_along_lines), and whether the cell is
    read as given back): each counts half, as only the glyph model can tell an H set high
    from a P whose bowl's top is on the line. A glyph read surely as cut keeps its reading
    (an M set high, its two peaks on the line, is no M with a bar), unless the stroke
    given back `took_ink` the cut left out and reads another glyph: then the cut read
    less than the cell holds (a J without its hook's ball reads I at 0.99). Whether the
    cell holds a glyph at all is the cut's say: a stroke given back makes no speck of it."""
    values, specks = _cell_values(convention, n, readings[0])
    if len(readings) == 1:
        return values, specks, False
    given_back = _cell_values(convention, n, readings[1])[0]
    cut, back = int(np.argmax(values)), int(np.argmax(given_back))
    if values.max() >= SURE_AS_CUT * max(values.sum(), 1e-12) and not (took_ink and back != cut):
        return values, specks, False
    mixed = (values / max(values.sum(), 1e-12) + given_back / max(given_back.sum(), 1e-12)) / 2
    read = int(np.argmax(mixed))
    return mixed * values.sum(), specks, read == back and (took_ink or read != cut)


def joins_a_line(cell_ink: np.ndarray) -> bool:
    """Whether the cell's glyph ink runs on unbroken from one of its sides' grid lines:
    somewhere the dark run from the edge is THICKER than the line along the rest of that
    side and reaches the glyph cut from the cell."""
    mask = digit_mask(cell_ink, centred_bars=True)
    if not mask.any():
        return False
    p = cell_ink.shape[0]
    dark = cell_ink >= LINE_INK
    for turn in range(4):  # each side in turn as the top
        side, glyph = np.rot90(dark, turn), np.rot90(mask, turn)
        run = np.where(side.all(axis=0), p, np.argmin(side, axis=0))  # from the edge down
        top = np.flatnonzero(glyph.any(axis=1))[0]
        columns = glyph.any(axis=0)
        if (run[columns] >= max(top, np.median(run) + THICKER)).any():
            return True
    return False


def glyph_ink(gray: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """The grid's ink straightened at GLYPH_CELL pixels a cell. Glyphs are cut finer than
    the 9x9 reader's cells: a large letter's bar or a J's hook that nearly touches a grid
    line merges with it at 32 px a cell and is cleared with the line (F read as I)."""
    return ink_map(straighten(gray, lattice, GLYPH_CELL), GLYPH_CELL)


def read_symbols(gray: np.ndarray, lattice: np.ndarray,
                 cell_features: tuple | None = None) -> tuple[np.ndarray, str | None]:
    """((n, n, n+1) probabilities of blank, 1..n, and the convention read: None for sides
    up to 9, else "digits", "hex" or "letters") for a located grid."""
    n = lattice.shape[0] - 1
    straight = straighten(gray, lattice)
    if cell_features is None:
        cell_features = read_grid_cells(straight, n)
    blank_and_digits = load_model().predict_proba(cell_features[0]).reshape(n, n, -1)
    if n <= 9:
        return fold(blank_and_digits, n), None
    # The digit model's blank reading holds for cells without glyphs; it never saw
    # letters or two-digit numbers, so a cell with glyphs is blank when they are specks.
    blank = blank_and_digits[..., 0]
    ink = glyph_ink(gray, lattice)
    cells, touching, looks, took_ink, fixed = {}, set(), {}, set(), set()
    looks_given_back = {}
    for r in range(n):
        for c in range(n):
            cell_ink = ink[r * GLYPH_CELL:(r + 1) * GLYPH_CELL,
                           c * GLYPH_CELL:(c + 1) * GLYPH_CELL]
            parts = glyph_masks(cell_ink)
            ways = glyph_hypotheses(cell_ink, parts)
            if ways:
                cells[(r, c)] = [[_glyph_readings(vectors) for vectors in ways]]
                given_back = strokes_along_lines(cell_ink, parts)
                looks[(r, c)] = look_of(cell_ink, parts)
                if given_back is not None:
                    cells[(r, c)].append([_glyph_readings(vectors) for vectors in
                                          glyph_hypotheses(*given_back[:2], as_cut=True)])
                    looks_given_back[(r, c)] = look_of(*given_back[:2])
                    if given_back[2]:
                        took_ink.add((r, c))
                if joins_a_line(cell_ink):
                    touching.add((r, c))
    # The convention explaining the most of the glyphs' readings (log of each cell's
    # explained mass, summed).
    explained = {conv: sum(np.log(max(_cell_values(conv, n, readings[0])[0].sum(), 1e-12))
                           for readings in cells.values()) for conv in CONVENTIONS}
    convention = max(CONVENTIONS, key=lambda conv: explained[conv])
    probs = np.empty((n, n, n + 1))  # cells without a glyph: the blank reading's doubt
    probs[..., 0] = blank
    probs[..., 1:] = ((1 - blank) / n)[..., None]
    for (r, c), readings in cells.items():
        values, specks, as_given_back = _either_reading(convention, n, readings,
                                                        (r, c) in took_ink)
        if as_given_back:
            # Read as the glyph with a stroke given back from a line (a J its hook's
            # curve): as cut it looks like the glyph it would be without it (an I), and
            # comparing the cells' looks would move it there. Its look still stands for
            # its face (it is still a C's, its terminal on the line), but it is not moved.
            fixed.add((r, c))
        if (r, c) in touching:
            values = values ** TOUCHING_TEMPER  # some of its stroke may be the line's
        values = values / max(values.sum(), 1e-12) + FLOOR
        probs[r, c, 0] = specks
        probs[r, c, 1:] = (1 - specks) * values / values.sum()
    # Where looks only confirm readings, a cell read with its stroke given back shows
    # its look with the stroke: a J among the picture's Js, unlike its Is.
    confirming = looks | {cell: looks_given_back[cell] for cell in fixed}
    return runner_ups_unlike_their_cells(
        absent_symbols_read_apart(probs, looks, frozenset(fixed)), confirming,
        frozenset(fixed)), convention
