"""One face per puzzle: cells showing one symbol look alike.

A grid is printed in a single face, so all its cells holding one symbol share one look.
The symbol model reads a face it never saw with a steady bias: every M of one face read
as A, every P as F (its bowl thinned), every 12 as 6. Such a symbol is then never read,
while the symbol it is taken for holds cells of two clearly different looks. When that is
so, the look the model is less sure of is read as the symbol whose cells it looks like,
or else as the absent symbol the model likes best for it.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.cells.glyphs import centred
from services.recognizer.cells.tuning import (
    DISPROVED,
    GLYPHS_BOX,
    LONE_GAP,
    LOOK,
    MIN_CLASS,
    MIN_LOOK,
    RELABEL,
    SPLIT_GAP,
    TWIN_SLACK,
    WAVERS,
)


def look_of(cell_ink: np.ndarray, masks: list[np.ndarray]) -> np.ndarray | None:
    """A cell's glyphs (all of them, as one picture) scaled into LOOK x LOOK, as a unit
    vector with its mean taken off; None for a cell with no glyph."""
    if not masks:
        return None
    union = np.logical_or.reduce(masks)
    ys, xs = np.nonzero(union)
    crop = np.where(union, cell_ink, 0)[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    out = centred(crop.astype(np.float32), GLYPHS_BOX / max(crop.shape), (LOOK, LOOK))
    vector = cv2.GaussianBlur(out, (3, 3), 0.8).ravel()
    vector = vector - vector.mean()
    return vector / max(float(np.linalg.norm(vector)), 1e-9)


def two_looks(looks: np.ndarray) -> tuple[np.ndarray, float] | None:
    """(0/1 per cell, the likeness of the most alike pair across) when the cells fall into
    two distinct looks (each cell's nearest twin in its own look is SPLIT_GAP more alike
    than any pair across), else None."""
    alike = looks @ looks.T
    a, b = np.unravel_index(np.argmin(alike), alike.shape)
    side = (alike[:, b] > alike[:, a]).astype(int)
    for _ in range(10):  # two means on the unit sphere, seeded by the least alike pair
        if side.min() == side.max():
            return None
        centres = [looks[side == k].mean(axis=0) for k in (0, 1)]
        moved = (looks @ centres[1] > looks @ centres[0]).astype(int)
        if (moved == side).all():
            break
        side = moved
    if min(np.sum(side == 0), np.sum(side == 1)) < MIN_LOOK:
        return None
    np.fill_diagonal(alike, -2.0)
    across = alike[side[:, None] != side[None, :]].max()
    nearest_twin = min(alike[np.ix_(side == k, side == k)].max(axis=1).min() for k in (0, 1))
    return (side, float(across)) if nearest_twin - across >= SPLIT_GAP else None


def absent_symbols_read_apart(probs: np.ndarray, looks: dict[tuple[int, int], np.ndarray],
                              fixed: frozenset = frozenset()) -> np.ndarray:
    """`probs` ((n, n, n+1): blank, 1..n) with the cells of the less sure look of a symbol
    read in two looks moved towards the symbol whose cells they look like (see
    _look_alike), else towards the absent symbol the model likes best for them. Cells in
    `fixed` (read with a stroke given back from a grid line) move only to a symbol whose
    cells they look like, never to an absent one."""
    n = probs.shape[0]
    out = probs.copy()
    read = {cell: int(np.argmax(probs[cell])) for cell in looks}
    # Looks are parted as the model read them: a lone twin moved first would leave the
    # rest of its group one cell, no look of its own (two P052 Ps read F: one a twin of
    # the Ps, moved; the other, 0.94 like them, then stayed F).
    as_read = dict(read)
    for cell, other in _lookalikes(read, looks).items():
        if cell in fixed:
            continue  # a lone twin of another symbol's cells is moved however sure (TWIN_SLACK)
        _move(out, [cell], read[cell], other)
        read[cell] = other
    counts = np.bincount(list(read.values()), minlength=n + 1)
    absent = [v for v in range(1, n + 1) if counts[v] == 0]
    for value in range(1, n + 1):
        cells = [cell for cell, v in as_read.items() if v == value]
        if len(cells) < MIN_CLASS:
            continue
        parted = two_looks(np.stack([looks[cell] for cell in cells]))
        if parted is None:
            continue
        side = parted[0]
        sureness = [np.mean([np.log(probs[cells[i]][value]) for i in np.flatnonzero(side == k)])
                    for k in (0, 1)]
        if np.exp(min(sureness)) >= WAVERS:
            continue  # the model reads both looks surely (a J at two pixel offsets)
        odd_side = side == int(np.argmin(sureness))
        odd = [cells[i] for i in np.flatnonzero(odd_side)]
        rest = [cells[i] for i in np.flatnonzero(~odd_side)]
        other = _look_alike(odd, rest, value, read, looks)
        if other is None:
            # A cell read with a stroke given back from a line looks, as cut, like the
            # glyph without it (a J whose hook is lost looks like an I): it moves only
            # with a look like another symbol's cells, never to a symbol the picture
            # shows not. Three NimbusSansNarrow Bold Ms set high, their peaks joined
            # along the line, read D: as cut they are twins of the grid's Ms (0.99).
            odd = [cell for cell in odd if cell not in fixed]
            if odd and absent:
                other = max(absent, key=lambda v: sum(np.log(probs[cell][v]) for cell in odd))
                absent.remove(other)
        if other is not None:
            _move(out, odd, value, other)
    return out


def _move(probs: np.ndarray, cells: list, value: int, other: int) -> None:
    for cell in cells:
        moved = RELABEL * probs[cell][value]
        probs[cell][value] -= moved
        probs[cell][other] += moved


def _lookalikes(read: dict, looks: dict) -> dict:
    """{cell: symbol} for cells that look like a twin of another symbol's cells (as alike
    as the picture's cells of one symbol typically are, less SPLIT_GAP, and as those
    cells are to each other, see TWIN_SLACK) and LONE_GAP less like any cell read as
    their own symbol: a lone misread in a face the model misjudges."""
    cells = [cell for cell, v in read.items() if v]
    if len(cells) < 2 * MIN_CLASS:
        return {}
    values = np.array([read[cell] for cell in cells])
    alike, own, twin, one_look = _likeness(cells, values, looks)
    same = values[:, None] == values[None, :]
    out = {}
    for i, cell in enumerate(cells):
        j = int(np.argmax(np.where(same[i], -2.0, alike[i])))
        their_twins = float(own[values == values[j]].min()) - TWIN_SLACK
        if alike[i, j] >= max(twin - SPLIT_GAP, own[i] + LONE_GAP, their_twins) and \
                values[j] in one_look:
            out[cell] = int(values[j])
    return out


def _likeness(cells: list, values: np.ndarray, looks: dict, rebuilt: frozenset = frozenset()
              ) -> tuple[np.ndarray, np.ndarray, float, set[int]]:
    """(how alike each pair of `cells` looks, -2 on the diagonal; each cell's likeness to
    its nearest twin among the cells read as its own symbol; the picture's typical twin
    likeness; the symbols whose cells come in one look). A symbol whose cells come in two
    looks is no model to follow: its second look may be another symbol misread (three Ps
    read F and the one P read right). Cells in `rebuilt` show a look with a stroke given
    back from a grid line, drawn as a plain bar, which need not be their face's: they
    make no second look of their symbol (four DejaVu Serif Js, their hooks given back,
    0.63-0.69 like the grid's other Js, which are 0.95 like its Is)."""
    alike = np.stack([looks[cell] for cell in cells])
    alike = alike @ alike.T
    np.fill_diagonal(alike, -2.0)
    same = values[:, None] == values[None, :]
    own = np.where(same, alike, -2.0).max(axis=1)
    twin = float(np.median(own[own > -2.0])) if (own > -2.0).any() else 1.0
    one_look = set()
    for v in set(values.tolist()):
        count = int(np.sum(values == v))
        as_cut = [looks[c] for c, w in zip(cells, values) if w == v and c not in rebuilt]
        if count >= MIN_LOOK and (len(as_cut) < 2 * MIN_LOOK
                                  or two_looks(np.stack(as_cut)) is None):
            one_look.add(v)
    return alike, own, twin, one_look


def _look_alike(odd: list, rest: list, value: int, read: dict, looks: dict) -> int | None:
    """The symbol (other than `value`) every odd cell looks like: each cell SPLIT_GAP more
    like that symbol's cells than like any of the `rest` of `value`'s cells, and all
    nearly (SPLIT_GAP) as much as like each other; or None."""
    own = np.stack([looks[cell] for cell in odd])
    alike = own @ own.T
    np.fill_diagonal(alike, -2.0)
    twins = float(alike.max(axis=1).min())
    # Each cell against the rest of its symbol's cells, not the most alike pair across the
    # two looks: four P052 Bold Ps read F were 0.95-0.998 like the grid's Ps and each at
    # most 0.72-0.85 like its Fs, yet one P was 0.85 like an F, too near the Ps' 0.95.
    like_rest = (own @ np.stack([looks[cell] for cell in rest]).T).max(axis=1)
    best, best_likeness = None, twins - SPLIT_GAP
    for symbol in set(read.values()) - {0, value}:
        theirs = np.stack([looks[cell] for cell, v in read.items() if v == symbol])
        like_theirs = (own @ theirs.T).max(axis=1)
        likeness = float(like_theirs.min())
        if (like_theirs >= like_rest + SPLIT_GAP).all() and likeness >= best_likeness:
            best, best_likeness = symbol, likeness
    return best


def runner_ups_unlike_their_cells(probs: np.ndarray, looks: dict[tuple[int, int], np.ndarray],
                                  rebuilt: frozenset = frozenset()) -> np.ndarray:
    """`probs` with runner-ups the picture itself rules out given back to the reading: a
    cell that is a twin of the other cells read as its symbol (as alike as the picture's
    twins typically are) and clearly unlike every cell read as the runner-up (SPLIT_GAP
    less alike than its own twin) is not the runner-up, whatever the model's doubt. A
    face the model never saw leaves every M of the grid at 0.5 M / 0.2 H, and the grid is
    sent to review although its Hs look nothing like its Ms.

    Only symbols read in one look speak for or against (a symbol read in two looks holds a
    misread), blank is never ruled out, and a runner-up no cell is read as stays: nothing
    in the picture shows what it would look like. A symbol speaks from two cells: its
    cells need be no more than twins (a C059 photo's three Es at 0.5-0.6 E, 0.2-0.3 L,
    0.96-0.99 alike and at most 0.64 like its Ls, were sent to review)."""
    cells = [cell for cell in looks if int(np.argmax(probs[cell]))]
    if len(cells) < 2 * MIN_CLASS:
        return probs
    values = np.array([int(np.argmax(probs[cell])) for cell in cells])
    alike, own, twin, one_look = _likeness(cells, values, looks, rebuilt)
    out = probs.copy()
    for i, cell in enumerate(cells):
        v = int(values[i])
        if v not in one_look or own[i] < twin - SPLIT_GAP:  # one_look: MIN_LOOK cells or more
            continue
        for u in one_look - {v}:
            if alike[i, values == u].max() <= own[i] - SPLIT_GAP:
                given_back = DISPROVED * out[cell][u]
                out[cell][u] -= given_back
                out[cell][v] += given_back
    return out
