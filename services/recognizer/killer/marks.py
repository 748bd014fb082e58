"""A killer in progress: the person's own digits and pencil notes, told from givens and sums.

Apps draw the player's digits large and centred in a colour of their own (blue, green,
purple), and pencil notes small in a 3x3 keypad below the cage sum. Neither may be read
as a given (the puzzle would change) or as a sum (the cages would). After killer_cells
has read each cell's large centred digit with the cage outline and the sum painted out:

* a cell whose digit's ink differs in colour from the cage sums' ink is the person's
  entry; one in the sums' own ink is a printed given (some killers print a few);
* a cell without a large digit holding small digit-sized blobs inside its outline (away
  from the sum's corner) holds pencil notes.

The Reading gets the same fields as a classic page a person wrote on: `cell_kinds`
(blank, printed, entry, notes) and `entries`, with `cells` holding the givens only.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.cells import kinds as kinds_model
from services.recognizer.cells.classifier import load_model
from services.recognizer.cells.features import cell_features
from services.recognizer.grid.straighten import PATCH, straighten
from services.recognizer.killer.cage_lattice import thin_ink
from services.recognizer.killer.tuning import (
    DIGIT_SURE,
    DOT_ALIGN,
    DOT_SIZE,
    DOTS,
    EDGE,
    ENTRY_DELTA,
    ENTRY_SPREAD,
    FAINT_STROKE,
    HAND_NOTE_HIGH,
    HAND_NOTE_LOW,
    HAND_NOTE_WIDE,
    LAB_WEIGHTS,
    LARGE,
    LARGE_BESIDE_SUM,
    NOTE_HIGH,
    NOTE_LOW,
    NOTE_SHARE,
    NOTES_SURE,
    PAGE_HAND_MIN,
    PAGE_MEDIAN_MIN,
    PAGE_WRITTEN,
    PAPER_INK,
    PINCH,
    ROW_SPREAD,
    STROKE,
    SUM_CORNER,
    SURE_HAND,
    WIDE,
    WIDER,
)
from services.recognizer.killer.tuning import (
    MARK_CELL as CELL,
)
from services.recognizer.killer.tuning import (
    NOTES_INSIDE as INSIDE,
)

SIZE = 9


def _lab(pixels: np.ndarray) -> np.ndarray:
    """Median CIELAB colour of (k, 3) BGR pixels (a few pixels of a cage line do not
    move it)."""
    lab = cv2.cvtColor((pixels.reshape(-1, 1, 3) / 255.0).astype(np.float32), cv2.COLOR_BGR2Lab)
    return np.median(lab.reshape(-1, 3), axis=0)


def read_marks(colour: np.ndarray, gray: np.ndarray, lattice: np.ndarray, heads: set,
               probs: np.ndarray) -> tuple[np.ndarray, dict]:
    """(cell probabilities holding givens only, {"cell_kinds", "entries"}) for a killer.

    `probs` (n, n, n + 1) are killer_cells' readings of each cell's large digit;
    `heads` the cells holding a cage sum. `colour` is BGR at `gray`'s size.
    """
    p = CELL
    n = lattice.shape[0] - 1
    straight = straighten(colour, lattice, p)
    grey = straighten(gray, lattice, p)
    ink = thin_ink(grey, p)
    strokes = ink >= STROKE
    # Pencil notes are often light grey and thin: a note's stroke is ink at least a share
    # as dark as the darkest ink around it.
    nearby = cv2.dilate(ink, np.ones((5, 5), np.uint8))
    faint = ink >= np.maximum(FAINT_STROKE, NOTE_SHARE * nearby)
    h, w = int(SUM_CORNER[0] * p), int(SUM_CORNER[1] * p)
    e = int(EDGE * p)  # boundaries drawn on the grid lines, in a colour of their own
    sum_pixels = [straight[r * p + e:r * p + h, c * p + e:c * p + w][
        strokes[r * p + e:r * p + h, c * p + e:c * p + w]] for r, c in heads]
    sum_pixels = [s for s in sum_pixels if len(s)]
    sum_colour = _lab(np.concatenate(sum_pixels)) if sum_pixels else None
    kinds = np.zeros((n, n, 4))
    kinds[..., 0] = 1.0
    digit_cells = np.full((n * p, n * p), 255, np.uint8)  # the large digits alone
    large_at = {}
    lo = int(INSIDE * p)
    for r in range(n):
        for c in range(n):
            sl = (slice(r * p, (r + 1) * p), slice(c * p, (c + 1) * p))
            large, small = _blobs(_inner(faint[sl], lo), p, (r, c) in heads)
            if large is not None:
                mask = cv2.dilate(large.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
                digit_cells[sl][mask] = grey[sl][mask]
                large_at[(r, c)] = large, mask
            elif small:
                kinds[r, c] = [1 - NOTES_SURE, 0.0, 0.0, NOTES_SURE]
    digits = load_model().predict_proba(
        cell_features(cv2.resize(digit_cells, (n * PATCH,) * 2,
                                 interpolation=cv2.INTER_AREA), n)).reshape(n, n, -1)
    entries = np.zeros((n, n, n + 1))
    entries[..., 0] = 1.0
    # A given is a large digit in the sums' ink: cells without a large digit hold none
    # (a note or a stray mark the digit model saw is no given).
    givens = np.zeros_like(probs)
    givens[..., 0] = 1.0
    by_colour = {}
    for (r, c), (large, _) in large_at.items():
        pixels = straight[r * p:(r + 1) * p, c * p:(c + 1) * p][large]
        by_colour[(r, c)] = 1.0
        if sum_colour is not None and len(pixels):
            # Mostly by hue: thin small sums look lighter than a large digit in the
            # same ink (their edges are half paper), so lightness counts for less.
            delta = float(np.linalg.norm((_lab(pixels) - sum_colour) * LAB_WEIGHTS))
            by_colour[(r, c)] = 1.0 / (1.0 + np.exp(-(delta - ENTRY_DELTA) / ENTRY_SPREAD))
    # Written by hand in an ink like the print's: the strokes tell, cell by cell and as a
    # page (one hand wrote them all; a printed killer seldom prints givens, and never
    # in a hand).
    like_print = [cell for cell, share in by_colour.items() if share < 0.5]
    by_hand = handwriting(straight, ink, {cell: large_at[cell] for cell in like_print}, n) \
        if like_print else {}
    page_hand = PAGE_WRITTEN if written_by_hand([by_hand[cell][0] for cell in like_print]) \
        else 0.0
    for (r, c) in large_at:
        # The blob is there: the digit model only says which digit it is (isolated, a
        # thin '1' can look like an empty cell to it).
        value = digits[r, c, 1:] / max(float(digits[r, c, 1:].sum()), 1e-9)
        p_entry = by_colour[(r, c)]
        if (r, c) in by_hand:
            written, hand = by_hand[(r, c)]
            p_entry = 1.0 - (1.0 - p_entry) * (1.0 - max(written, page_hand))
            # Which digit a person wrote: the print reader and the handwriting reader
            # (cell_kinds) together, as the half-solved pages read entries.
            mixed = np.sqrt(value * hand)
            mixed /= max(float(mixed.sum()), 1e-300)
            value = p_entry * mixed + (1.0 - p_entry) * value
        value = value[:n] / max(float(value[:n].sum()), 1e-300)  # digits 1..n only
        value = np.concatenate([[1.0 - DIGIT_SURE], DIGIT_SURE * value])
        kinds[r, c] = [1 - DIGIT_SURE, DIGIT_SURE * (1 - p_entry), DIGIT_SURE * p_entry, 0.0]
        entries[r, c] = value * p_entry
        entries[r, c, 0] += 1 - p_entry
        # A given is what the killer reader saw, unless the digit is the person's.
        givens[r, c] = probs[r, c] * (1 - p_entry)
        givens[r, c, 0] += p_entry
    fields = {"cell_kinds": np.round(kinds, 5).tolist(),
              "entries": np.round(entries, 5).tolist()}
    return givens, fields


def written_by_hand(shares: list[float]) -> bool:
    """Whether a page whose large digits in the sums' ink have these shares of having
    been written by hand (handwriting) is one a person wrote on: PAGE_HAND_MIN of them
    surely so (a printed killer never prints a given in a hand, whatever the cell model
    makes of the rest of one hand's digits: on by-hand photos it called as many of them
    surely print as surely hand), or PAGE_MEDIAN_MIN or more, most of them by hand."""
    sure = sum(share >= SURE_HAND for share in shares)
    return sure >= PAGE_HAND_MIN or \
        (len(shares) >= PAGE_MEDIAN_MIN and float(np.median(shares)) >= 0.5)


def handwriting(straight: np.ndarray, ink: np.ndarray, large_at: dict,
                n: int = SIZE) -> dict:
    """{cell: (probability that a person wrote its large digit, (9,) which digit, read as
    a person's)} from the half-solved pages' cell model (cell_kinds), on the large digits
    alone, each on its cell's paper with the cage outline, the sum and any notes
    painted out: pen or pencil strokes against type.

    Apps draw the person's digits in a colour of their own; on a printed killer a person
    writes in a pen or pencil near the print's own black, which only the strokes tell.
    `large_at`: {cell: (its large digit's blob, the blob widened by a pixel)}; only these
    cells are read; `n` is the grid's side.
    """
    p = CELL
    clean = np.empty_like(straight)
    for r in range(n):
        for c in range(n):
            sl = (slice(r * p, (r + 1) * p), slice(c * p, (c + 1) * p))
            cell = straight[sl]
            ground = ink[sl] < PAPER_INK
            clean[sl] = np.median(cell[ground], axis=0) if ground.any() else cell.max((0, 1))
    for (r, c), (_, mask) in large_at.items():
        sl = (slice(r * p, (r + 1) * p), slice(c * p, (c + 1) * p))
        clean[sl][mask] = straight[sl][mask]
    side = n * kinds_model.CELL
    cells = list(large_at)
    # The cell model reads a 9x9 grid: a smaller one (6x6) fills its top-left corner,
    # the rest bare paper.
    grid = cv2.resize(clean, (side, side), interpolation=cv2.INTER_AREA)
    if n != kinds_model.SIZE:
        paper = np.median(grid.reshape(-1, *grid.shape[2:]), axis=0)
        full = np.full((kinds_model.SIZE * kinds_model.CELL,) * 2 + grid.shape[2:], paper,
                       grid.dtype)
        full[:side, :side] = grid
        grid = full
    probs = kinds_model.load_kind_model().predict_proba(
        kinds_model.straight_features(grid, cells))
    entry = probs[:, kinds_model.ENTRY_CLASSES]
    printed = probs[:, kinds_model.PRINTED_CLASSES].sum(axis=1)
    total = entry.sum(axis=1)
    written = total / np.maximum(total + printed, 1e-9)
    digits = entry / np.maximum(total[:, None], 1e-12)
    return {cell: (float(written[k]), digits[k]) for k, cell in enumerate(cells)}


def _inner(cell: np.ndarray, lo: int) -> np.ndarray:
    """The cell's strokes away from its sides, where cage lines run."""
    cell = cell.copy()
    p = cell.shape[0]
    cell[:, :lo] = cell[:, p - lo:] = False
    cell[:lo // 2] = cell[p - lo // 2:] = False
    return cell


def _pinched(blob: np.ndarray) -> bool:
    """Whether a narrow blob narrows in its middle half to under PINCH of its typical
    width: a waist where two stacked notes touch. A '1' keeps its stem's width."""
    rows = blob.sum(axis=1)
    h = len(rows)
    return bool(rows[h // 4:h - h // 4].min() < PINCH * np.median(rows[rows > 0]))


def _written_notes(stats: np.ndarray, p: int, head: bool) -> int:
    """How many notes a row of pencil notes written by hand holds (0: no such row).

    Written notes are larger than an app's (up to HAND_NOTE_HIGH of the cell) and often
    touch: a row of two or more blobs of a note's height side by side, or one blob of a
    note's height wider than tall (touching notes), and nothing as tall as a digit. An
    app's entry below a sum is a single blob, taller than wide.
    """
    x, y, w, h, area = stats.T
    # Taller than a cage line is thick (a dash along the cell is a short wide blob too).
    note = ((h >= HAND_NOTE_LOW * p) & (h < HAND_NOTE_HIGH * p) & (w <= 0.7 * p)
            & (area >= 0.25 * h * np.maximum(w, 2)))
    if head:
        note &= y >= 0.45 * p  # the sum's corner
    if not note.any() or (h >= HAND_NOTE_HIGH * p).any():
        return 0
    middles = y[note] + h[note] / 2
    # Dashes of a cage's two sides lie side by side too, but are thin: a row holds a
    # digit wider than a line.
    in_row = note.sum() >= 2 and np.ptp(middles) <= ROW_SPREAD * p and \
        (w[note] >= HAND_NOTE_WIDE * p).any()
    touching = (w[note] >= WIDER * h[note]).any()
    return int(max(note.sum(), 2)) if in_row or touching else 0


def _dotted_line(stats: np.ndarray, p: int) -> np.ndarray:
    """Which blobs are dots of a dotted cage line: DOTS or more dots (blobs at most
    DOT_SIZE of a cell tall) in one row, of about one height, or in one column, of
    about one width. A column's dots must be short too: the pieces of a note's thin
    '1' line up in a column. (An app's notes keypad holds three a row and a column.)"""
    x, y, w, h, _ = stats.T.astype(float)
    cx, cy = x + w / 2, y + h / 2
    near = DOT_ALIGN * p
    dot = h <= DOT_SIZE * p  # dots run together along a row: any width
    upright_dot = dot & (w <= DOT_SIZE * p)
    in_row = ((np.abs(cy[:, None] - cy[None]) <= near)
              & (np.abs(h[:, None] - h[None]) <= near) & dot[None]).sum(axis=1)
    in_col = ((np.abs(cx[:, None] - cx[None]) <= near)
              & (np.abs(w[:, None] - w[None]) <= near) & upright_dot[None]).sum(axis=1)
    return (dot & (in_row >= DOTS)) | (upright_dot & (in_col >= DOTS))


def _blobs(cell: np.ndarray, p: int, head: bool
           ) -> tuple[np.ndarray | None, int]:
    """(mask of the cell's large digit or None, how many note-sized blobs it holds).

    In a cage's first cell the sum sits in the top-left corner, above the middle: a large
    digit reaches well below it, notes lie below it.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cell.astype(np.uint8),
                                                               connectivity=8)
    written = _written_notes(stats[1:], p, head)
    if written:
        return None, written
    large, small = None, 0
    dotted = _dotted_line(stats[1:], p)
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        # Two notes stacked in the keypad can touch: as tall as a digit, but narrow, and
        # pinched where they meet (a large '1' is narrow too, but solid all the way down).
        # Below a sum the keypad is smaller.
        if head:
            large_digit = h >= LARGE_BESIDE_SUM * p
        else:
            large_digit = h >= LARGE * p and (w >= WIDE * p or not _pinched(labels[
                y:y + h, x:x + w] == i))
        if large_digit and w <= 0.7 * p and y + h > 0.6 * p:
            large = labels == i if large is None else large | (labels == i)
        elif NOTE_LOW * p <= h < NOTE_HIGH * p and w <= 0.25 * p and not dotted[i - 1] \
                and area >= 0.25 * h * max(w, 2) and not (head and y < 0.45 * p):
            small += 1
    return large, small
