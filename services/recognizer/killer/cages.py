"""Killer sudoku cages: the grid lattice among dashed outlines, and a wall probability per edge.

Cage outlines are dashed or dotted lines inset from the cell edges. Two things follow:

* The grid lines must be told from cage lines. Both are thin dark lines; grid lines are
  solid, cage lines broken. A grey-level opening along each line direction keeps only ink
  that runs unbroken for a third of a cell, so `killer_lattice` traces grid lines alone.
* Whether a wall runs between two cells shows as a thin line parallel to their shared edge,
  a short way inside one or both cells. `edge_features` measures, for each edge, the ink
  profile across it (how much ink and how unbroken, at each distance from the grid line,
  on both sides); a small classifier trained on rendered killers of many styles
  (scripts/train_sums.py trains it with the sum reader) turns that into a probability.

Everything works on the grid straightened cell by cell from the lattice, at CELL pixels.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from services.recognizer.grid.lattice import cell_side
from services.recognizer.grid.straighten import straighten
from services.recognizer.killer.cage_lattice import thin_ink
from services.recognizer.killer.tuning import (
    CROSSING,
    DASH_GAP,
    DIGIT_CENTRED_ACROSS,
    DIGIT_CENTRED_DOWN,
    DIGIT_INK,
    DIGIT_TALL,
    DIGIT_WIDE,
    GRID_BAND,
    LINE_OWN,
    LINE_RUN,
    NOTE_INK,
    NOTE_LINE_OUT,
    NOTE_LINE_RUN,
    NOTE_MIDDLE,
    NOTE_PIECE,
    NOTE_ROW_ALIKE,
    NOTE_ROW_END,
    NOTE_ROW_GAP,
    NOTE_ROW_HEIGHTS,
    NOTE_ROW_MIDDLE,
    NOTE_ROW_SPREAD,
    NOTE_TALL,
    NOTE_WIDE,
    OUTLINE_BAND,
    OUTLINE_RUN,
    PENCIL_SHARE,
    PHASES,
    REACH,
    SPAN,
)
from services.recognizer.killer.tuning import (
    WALL_CELL as CELL,
)


def straighten_at(gray: np.ndarray, lattice: np.ndarray, cell: int = CELL) -> np.ndarray:
    """The grid straightened at `cell` pixels per cell (finer than the digit reader's)."""
    return straighten(gray, lattice, cell)


def wall_ink(gray: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """Thin-stroke ink of the grid straightened at CELL pixels a cell, for the wall model.

    Large cells are shrunk to CELL: smoothing before the shrink (as `straighten` does
    against aliasing) fades a 1-2 px dash at 100-px cells to a tenth of its darkness,
    and its walls read as none. A minimum filter as wide as the shrink first spreads
    each stroke's darkness over the pixels that become one, so a thin dash stays a dark
    1-px dash, as it is drawn at CELL-sized cells.
    """
    cell_px = cell_side(lattice)
    shrink = int(round(cell_px / CELL))
    if shrink >= 2:
        gray = cv2.erode(gray, np.ones((shrink, shrink), np.uint8))
    return thin_ink(straighten_at(gray, lattice, CELL), CELL)


def without_large_digits(ink: np.ndarray, cell_px: int) -> np.ndarray:
    """`ink` with the cells' large centred digits and written notes painted out.

    A tall digit's top bar or foot (a '5', a '7', a '2', handwriting filling the cell)
    runs parallel to the cell's edge as far in as a cage outline, and the wall model took
    it for one. Cage outlines never form such a blob: dashes and dots are short, a solid
    outline runs on into the next cell (or rings a one-cell cage, wider than a digit),
    and a sum sits in its cell's corner. Where a large digit crosses a cage outline, the
    outline's dashes join its blob: the blob's pixels in a row (column) of the cell that
    holds other ink along LINE_RUN of the cell stay, the cage line through them. What
    is left of a cage line the digit covered is often too little to show the wall: see
    digit_free_features for what the wall model is given.
    """
    p = cell_px
    # Lighter than the wall model's strokes: a pencil digit breaks up at that level, and
    # its pieces would stay. Pencil notes, lighter still, break up even here: they are
    # looked for among the faint strokes too.
    strokes = ink >= DIGIT_INK
    faint = ink >= NOTE_INK
    # Handwriting is often lighter than print: a pencil digit breaks up at the stroke
    # level, and its bars, left in, read as cage lines. It is looked for among the faint
    # strokes too (lighter than print only), cut apart from the outlines and grid lines
    # it runs into at that level.
    large = _written_blobs(strokes, p)
    large |= _pencil(_written_blobs(faint & ~_line_runs(faint, p), p, notes=False), strokes)
    notes = _pencil(_written_blobs(faint, p, digits=False), strokes) & ~large
    mask = large | notes
    if not mask.any():
        return ink
    others = (strokes & ~mask).astype(np.float32)
    ys, xs = np.nonzero(large)
    line = np.zeros_like(mask)
    line[ys, xs] = _on_line(others, ys, xs, p, LINE_RUN, own=LINE_OWN)
    line |= _outline_under_notes(notes, others, p)
    # ... or, all of it covered, in a cell's row (column) where the strokes, notes and
    # all, hold dashes along NOTE_LINE_RUN of the cell. (Notes found among the strokes
    # themselves are apart from the outline: this would keep their own bars.)
    ys, xs = np.nonzero(notes)
    dashes = [cv2.morphologyEx(strokes.astype(np.uint8), cv2.MORPH_OPEN,
                               np.ones(shape, np.uint8)).astype(np.float32)
              for shape in ((1, 3), (3, 1))]
    line[ys, xs] |= _on_line(dashes[0], ys, xs, p, NOTE_LINE_RUN, 0) | \
        _on_line(dashes[1], ys, xs, p, NOTE_LINE_RUN, 1)
    # The anti-aliased fringe below the stroke threshold goes with it.
    erase = (cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0) & ~line
    out = ink.copy()
    out[erase] = 0.0
    return out


def _line_runs(strokes: np.ndarray, p: int) -> np.ndarray:
    """The pixels of `strokes` on a line along a row (a column) near a cell's top or
    bottom (left or right side), within OUTLINE_BAND of the cell, that runs on for
    OUTLINE_RUN of a cell with gaps of up to DASH_GAP of a cell bridged: dashed and
    dotted cage outlines and grid lines. A digit's bar, even a person's wide one, is
    shorter, and a tall digit's stem stands away from the sides."""
    gap = max(3, int(round(DASH_GAP * p)))
    length = max(5, int(round(OUTLINE_RUN * p)))
    s = strokes.astype(np.uint8)
    within = np.arange(max(strokes.shape)) % p
    near_side = np.minimum(within, p - 1 - within) < OUTLINE_BAND * p
    runs = np.zeros(strokes.shape, bool)
    for bridge, run, axis in (((1, gap), (1, length), 0), ((gap, 1), (length, 1), 1)):
        joined = cv2.morphologyEx(s, cv2.MORPH_CLOSE, np.ones(bridge, np.uint8))
        found = cv2.morphologyEx(joined, cv2.MORPH_OPEN, np.ones(run, np.uint8)) > 0
        band = near_side[:strokes.shape[axis]]
        runs |= found & (band[:, None] if axis == 0 else band[None, :])
    return runs & strokes


def _pencil(blobs: np.ndarray, strokes: np.ndarray) -> np.ndarray:
    """The blobs of `blobs` lighter than print: less than PENCIL_SHARE of their pixels
    strokes (a printed digit is dark but for its rim, about 0.7-0.9 of it; pencil notes
    found among the faint strokes 0-0.4)."""
    count, labels, _, _ = cv2.connectedComponentsWithStats(blobs.astype(np.uint8),
                                                           connectivity=8)
    if count < 2:
        return blobs
    sizes = np.bincount(labels.ravel(), minlength=count)
    dark = np.bincount(labels.ravel(), weights=strokes.ravel(), minlength=count)
    light = dark < PENCIL_SHARE * np.maximum(sizes, 1)
    light[0] = False
    return light[labels]


def _outline_under_notes(notes: np.ndarray, others: np.ndarray, p: int) -> np.ndarray:
    """The pixels of `notes` that are a cage outline's: rows (columns) of a note blob in
    which the outline runs on beside the blob, NOTE_LINE_OUT of the cell of `others`
    ink in that row of the cell outside the blob's own columns (lines crossing the row
    aside). A row of faint notes written over an outline runs into its dashes and would
    take them with it; a row of notes holds pieces of its own digits along a row of
    pixels, which a row of notes' cell does not hold outside the notes."""
    rows, cols = others.shape[0] // p, others.shape[1] // p
    others = others[:rows * p, :cols * p]
    across = np.repeat(others.reshape(rows, p, -1).sum(axis=1) >= CROSSING * p, p, axis=0)
    level = np.repeat(others.reshape(-1, cols, p).sum(axis=2) >= CROSSING * p, p, axis=1)
    along_rows, along_cols = others * ~across, others * ~level
    count, labels, stats, _ = cv2.connectedComponentsWithStats(notes.astype(np.uint8),
                                                               connectivity=8)
    out = np.zeros_like(notes)
    need = NOTE_LINE_OUT * p
    for i in range(1, count):
        x, y, w, h, _ = stats[i]
        cx0, cy0 = (x // p) * p, (y // p) * p  # the blob's cell
        if cx0 + p > others.shape[1] or cy0 + p > others.shape[0]:
            continue
        strip = along_rows[y:y + h, cx0:cx0 + p].copy()
        strip[:, max(0, x - cx0 - 1):x - cx0 + w + 1] = 0
        band = along_cols[cy0:cy0 + p, x:x + w].copy()
        band[max(0, y - cy0 - 1):y - cy0 + h + 1] = 0
        keep = np.zeros((h, w), bool)
        keep[strip.sum(axis=1) >= need] = True
        keep[:, band.sum(axis=0) >= need] = True
        out[y:y + h, x:x + w] |= keep & (labels[y:y + h, x:x + w] == i)
    return out


def _on_line(others: np.ndarray, ys: np.ndarray, xs: np.ndarray, p: int, run: float,
             axis: int | None = None, own: float | None = None) -> np.ndarray:
    """Whether each pixel (ys, xs) lies in a row (axis 0) or a column (axis 1) of its cell,
    or either (None), that holds `others` ink along `run` of the cell.

    Lines crossing a row (the grid line and the outline down each side of the cell, a
    column of ink along CROSSING of the cell) do not count for it, nor lines crossing a
    column for that column: dotted sides, dot beside dot, would otherwise make a row.
    With `own`, they count towards `run`, but the row must hold `own` of ink besides
    them (a large digit's foot on a dotted outline leaves few of the outline's dots).
    """
    rows, cols = others.shape[0] // p, others.shape[1] // p
    others = others[:rows * p, :cols * p]
    along_rows = others.reshape(-1, cols, p).sum(axis=2)  # (H, cols)
    along_cols = others.reshape(rows, p, -1).sum(axis=1)  # (rows, W)
    across = np.repeat(along_cols >= CROSSING * p, p, axis=0)  # pixels of upright lines
    level = np.repeat(along_rows >= CROSSING * p, p, axis=1)  # ... of lines along rows
    out = np.zeros(len(ys), bool)
    r, c = np.minimum(ys // p, rows - 1), np.minimum(xs // p, cols - 1)
    y, x = np.minimum(ys, rows * p - 1), np.minimum(xs, cols * p - 1)
    if axis in (None, 0):
        alone = (others * ~across).reshape(-1, cols, p).sum(axis=2)[y, c]
        out |= (along_rows[y, c] >= run * p) & (alone >= own * p) if own is not None \
            else alone >= run * p
    if axis in (None, 1):
        alone = (others * ~level).reshape(rows, p, -1).sum(axis=1)[r, x]
        out |= (along_cols[r, x] >= run * p) & (alone >= own * p) if own is not None \
            else alone >= run * p
    return out


def _written_blobs(strokes: np.ndarray, p: int, digits: bool = True, notes: bool = True
                   ) -> np.ndarray:
    """Mask of the blobs of `strokes` that are large centred digits (unless not
    `digits`) or written notes (unless not `notes`; see without_large_digits)."""
    # A digit written down to the grid line would join it, and the whole grid would be
    # one blob: the blobs are found with the grid lines cut out.
    apart = strokes.copy()
    band = max(1, round(GRID_BAND * p))
    for k in range(0, max(strokes.shape) + 1, p):
        apart[max(0, k - band):k + band + 1] = False
        apart[:, max(0, k - band):k + band + 1] = False
    count, labels, stats, _ = cv2.connectedComponentsWithStats(apart.astype(np.uint8),
                                                               connectivity=8)
    x, y, w, h = (stats[1:, k] for k in range(4))
    cx, cy = (x + w / 2) % p / p, (y + h / 2) % p / p
    one_cell = (x // p == (x + w - 1) // p) & (y // p == (y + h - 1) // p)
    digit = ((h >= DIGIT_TALL * p) & (w <= DIGIT_WIDE * p) & one_cell
             & (np.abs(cx - 0.5) <= DIGIT_CENTRED_ACROSS)
             & (np.abs(cy - 0.5) <= DIGIT_CENTRED_DOWN) & digits)
    if not notes:
        return _chosen(labels, digit)
    # Pencil notes written in a row along a cell's top or bottom look like a dashed
    # line there; a note is thicker than any line both ways, and its middle lies inside
    # the band where outlines run (a blurred dotted line runs together into a bar as
    # thick as a note).
    shaped = ((h >= NOTE_TALL[0] * p) & (h < NOTE_TALL[1] * p) & (w <= DIGIT_WIDE * p)
              & one_cell & (np.abs(cx - 0.5) <= NOTE_MIDDLE) & (np.abs(cy - 0.5) <= NOTE_MIDDLE))
    note = shaped & (w >= NOTE_WIDE * p)
    cell_of = (y // p) * (strokes.shape[1] // p + 1) + x // p
    left, right = x % p / p, (x % p + w) / p
    # A note '1' is as narrow as a dash of the outline's side, the last note of a row may
    # lie off the middle: each is a note when a note of about its height stands next to
    # it in its row (and so on along the row; an outline's corner beside a sum is lower).
    beside = one_cell & (h < NOTE_TALL[1] * p) & (w <= DIGIT_WIDE * p) & \
        (shaped | ((h >= NOTE_PIECE * p) & (w >= NOTE_PIECE * p)))
    for _ in range(3):
        joined = note.copy()
        # Only a blob in a cell that holds a note can join one (the faint strokes hold
        # many specks, each tried in turn).
        for i in np.flatnonzero(beside & ~note & np.isin(cell_of, cell_of[note])):
            gap = np.maximum(left - right[i], left[i] - right)
            joined[i] = bool((note & (cell_of == cell_of[i]) & (gap <= NOTE_ROW_GAP)
                              & (np.abs(cy - cy[i]) <= NOTE_ROW_SPREAD)
                              & (np.abs(h - h[i]) <= NOTE_ROW_HEIGHTS * np.maximum(h, h[i]))
                              ).any())
        if (joined == note).all():
            break
        note = joined
    # A sum's corner is kept, unless its blob is part of a row of notes of its height
    # centred in the cell: a cage sum starts at the cell's left and never reaches that
    # far right. (An outline's corner beside a sum, dashes or dots run together, is
    # lower or taller than its digits.)
    corner = note & (cx < 0.45) & (cy < 0.4)
    row_on = np.zeros_like(corner)
    for i in np.flatnonzero(corner):
        row = note & (cell_of == cell_of[i]) & (np.abs(cy - cy[i]) <= NOTE_ROW_SPREAD) \
            & (np.abs(h - h[i]) <= NOTE_ROW_ALIKE * np.maximum(h, h[i]))
        start, end = left[row].min(), right[row].max()
        row_on[i] = end >= NOTE_ROW_END and (start + end) / 2 >= NOTE_ROW_MIDDLE
    digit |= note & (~corner | row_on)
    return _chosen(labels, digit)


def _chosen(labels: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """The pixels of the blobs `chosen` (one flag a label, the background's left out)."""
    keep = np.zeros(len(chosen) + 1, bool)
    keep[1:] = chosen
    return keep[labels]


# --- Walls -----------------------------------------------------------------------------


SUMMARY = 6  # side_summary's length


def side_summary(mean: np.ndarray, cover: np.ndarray) -> np.ndarray:
    """Where the cage line is, if any, on one side of an edge, whatever its inset or ground.

    The profile's own bins tie the model to the insets it was trained on, and a grainy
    ground raises every bin. The strongest bin against the side's median (a line stands
    out of grain; grain is everywhere) and its distance, in either measure, do not.
    `mean`, `cover`: (..., bins) profiles, one per edge; (..., SUMMARY) out.
    """
    m, c = mean[..., 1:], cover[..., 1:]  # the grid line's own spread fills the first bin
    peak_m = m.argmax(axis=-1)[..., None]
    median_m, median_c = np.median(m, axis=-1), np.median(c, axis=-1)
    top_m = np.take_along_axis(m, peak_m, axis=-1)[..., 0]
    top_c = c.max(axis=-1)
    return np.stack([top_m - median_m, top_c - median_c, top_m, top_c,
                     (peak_m[..., 0] / m.shape[-1]).astype(np.float32),
                     np.sort(m, axis=-1)[..., -2] - median_m], axis=-1).astype(np.float32)


def edge_profiles(ink: np.ndarray, n: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """(right, down) arrays of edge features: (n, n-1, F) and (n-1, n, F).

    For each edge, along the middle of it (SPAN), per distance from the grid line on
    either side: the mean ink and the share of samples with ink (a dashed line has gaps).
    The side nearer the top-left comes first. All edges of a kind are measured at once.
    """
    p = ink.shape[0] // n
    reach = int(REACH * p)
    along = np.arange(int(SPAN[0] * p), int(SPAN[1] * p))
    across = np.arange(-reach, reach + 1)
    cells = p * np.arange(n)[:, None] + along  # (n, along): the span of each cell
    lines = p * np.arange(1, n)[:, None] + across  # (n-1, across): around each inner line
    strokes = (ink >= 0.35).astype(np.float32)

    def features(strips: np.ndarray, hits: np.ndarray, along_axis: int) -> np.ndarray:
        # Profiles across the grid line (at index `reach`), averaged along the edge. The
        # sums run in the order the edge-by-edge reading used (a float32 mean depends on
        # it), so the wall model sees the features it was trained on, bit for bit.
        mean, cover = strips.mean(axis=along_axis), hits.mean(axis=along_axis)
        before = [mean[..., :reach][..., ::-1], cover[..., :reach][..., ::-1]]
        after = [mean[..., reach + 1:], cover[..., reach + 1:]]
        line = [mean[..., reach:reach + 1], cover[..., reach:reach + 1]]
        return np.concatenate([*before, side_summary(*before), *after, side_summary(*after),
                               *line], axis=-1).astype(np.float32)

    # right[r, c]: the edge between cells (r, c) and (r, c+1): [along, across] strips.
    rows, cols = cells[:, None, :, None], lines[None, :, None, :]
    right = features(ink[rows, cols], strokes[rows, cols], -2)
    # down[r, c]: between (r, c) and (r+1, c): [across, along] strips.
    rows, cols = lines[:, None, :, None], cells[None, :, None, :]
    down = features(ink[rows, cols], strokes[rows, cols], -1)
    return right, down


def mirrored(x: np.ndarray) -> np.ndarray:
    """The same edge features seen from the other side."""
    half = (x.shape[-1] - 2) // 2
    return np.concatenate([x[..., half:2 * half], x[..., :half], x[..., 2 * half:]], axis=-1)


def digit_free_features(ink: np.ndarray, n: int = 9, plain: tuple | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
    """edge_profiles of `ink`, each side of an edge seen without the large digits on it
    (`plain`: edge_profiles(ink, n), when the caller has them).

    A wall shows as a cage line on both sides of the grid line (each cage has its own
    outline), so where a large digit lies on one side only (see without_large_digits),
    the other side is taken for both: the digit's bar can make no wall, and a wall line
    the digit covered still shows across the grid line. With digits on both sides, both
    are seen with the digits painted out. Edges without large digits are as before.
    """
    plain = edge_profiles(ink, n) if plain is None else plain
    cleaned = without_large_digits(ink, ink.shape[0] // n)
    if cleaned is ink:
        return plain
    free = edge_profiles(cleaned, n)
    changed = edge_profiles(np.abs(ink - cleaned), n)
    out = []
    for before, after, moved in zip(plain, free, changed, strict=True):
        half = (before.shape[-1] - 2) // 2
        reach = (half - SUMMARY) // 2  # mean profile bins of one side
        first = moved[..., :reach].sum(axis=-1) > 0  # the top-left side had a digit on it
        second = moved[..., half:half + reach].sum(axis=-1) > 0
        features = before.copy()
        only_first = first & ~second
        only_second = second & ~first
        both = first & second
        features[only_first, :half] = before[only_first, half:2 * half]
        features[only_second, half:2 * half] = before[only_second, :half]
        features[both] = after[both]
        out.append(features)
    return out[0], out[1]


@cache
def _threadpools() -> ThreadpoolController:
    """The process's thread pools, looked up once (by the first wall reading the model's
    OpenMP runtime is loaded): each lookup scans every loaded library, 10-20 ms."""
    return ThreadpoolController()


def wall_probabilities(ink: np.ndarray, model, n: int = 9, plain: tuple | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """(walls_right n x n-1, walls_down n-1 x n) probabilities from the straightened ink
    (the large digits' ink aside: see digit_free_features; `plain` as it takes)."""
    return edge_probabilities(*digit_free_features(ink, n, plain), model)


def edge_probabilities(right: np.ndarray, down: np.ndarray, model
                       ) -> tuple[np.ndarray, np.ndarray]:
    """wall_probabilities from edge features as edge_profiles gives them."""
    flat = np.concatenate([right.reshape(-1, right.shape[-1]), down.reshape(-1, down.shape[-1])])
    # Either side may come first: average the two views (one call for both). One OpenMP
    # thread: for 288 rows the threads' hand-offs per tree cost far more than they save,
    # seconds per picture when the cores are busy.
    with _threadpools().limit(limits=1, user_api="openmp"):
        both = model.predict_proba(np.concatenate([flat, mirrored(flat)]))[:, 1]
    prob = 0.5 * (both[:len(flat)] + both[len(flat):])
    prob = np.clip(prob, 0.002, 0.998)
    k = right.shape[0] * right.shape[1]
    return prob[:k].reshape(right.shape[:2]), prob[k:].reshape(down.shape[:2])


def phase_steady_walls(gray: np.ndarray, lattice: np.ndarray, model, n: int = 9
                       ) -> tuple[np.ndarray, np.ndarray]:
    """wall_probabilities of the grid straightened with the lattice at each of PHASES
    (along both axes) where its cells are shrunk, averaged. Not the highest: a pencil
    stroke or a pasted scrap of outline that one phase alone takes for a line made false
    sure walls in photographed notes; a hairline lost at one phase shows at the others."""
    cell_px = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / n
    source_px = cell_px / CELL  # one straightened pixel, in the picture's pixels
    reads = [wall_probabilities(wall_ink(gray, lattice + phase * source_px), model, n)
             for phase in (PHASES if source_px > 1 else PHASES[:1])]
    return tuple(np.mean(np.stack(side), axis=0) for side in zip(*reads, strict=True))
