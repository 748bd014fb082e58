"""Cheap looks at a grid read as classic: is it plainly cage free (cage_free), plainly
print only, a screenshot nobody wrote on (plainly_printed), drawn by a program at all
(rendered)?

Telling a person's digits and pencil notes from print (cells/half_solved.py) costs as
much as the rest of the reading, and the cage wall test (killer/reading.py) much of it. A
screenshot shows its paper in one flat grey; where print is all
there is, every digit's darkest pixel is the font's one colour and every cell the digit
model reads blank is that flat paper. A person's entries (an app's are another colour),
notes and marks in cells read blank, a highlighted cell, the grain of a photo: any of
them sends the grid to the full reading. A blank cell of a killer shows its cage's
outline, fill or coloured line: a grey flat grid whose blank cells are bare paper but for
the grid's own solid lines has no cages.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.cells.tuning import (
    CELL_SHADE,
    DEEP_INK,
    FLAT_PAPER,
    GREY,
    MARK,
    ONE_COLOUR,
    OPEN_SHARE,
    RENDERED,
    SHADED_CELLS,
    SOLID_LINE,
)
from services.recognizer.cells.tuning import (
    LOOK_INSET as MARGIN,
)
from services.recognizer.ranks import grey_counts
from services.recognizer.stages import enter


def _flat_paper(gray: np.ndarray) -> tuple[int, int] | None:
    """(the paper's grey, grey levels from it to the darkest ink) of a flat screenshot's
    grid, None when its paper is not flat or its ink not deep."""
    counts = grey_counts(gray)
    paper = int(counts.argmax())
    depth = paper - int(gray.min())
    if counts[paper] < FLAT_PAPER * gray.size or depth < DEEP_INK:
        return None
    return paper, depth


def _insets(image: np.ndarray, n: int, margin: float) -> np.ndarray:
    """(n*n, pixels[, channels]) each cell's inset, `margin` of its side from its edges."""
    cell = image.shape[0] // n
    m = int(round(margin * cell))
    grid = image[:n * cell, :n * cell].reshape(n, cell, n, cell, *image.shape[2:])
    return np.moveaxis(grid, 2, 1)[:, :, m:cell - m, m:cell - m].reshape(
        n * n, -1, *image.shape[2:])


def _blank(classic: np.ndarray) -> np.ndarray:
    flat = np.asarray(classic, np.float64).reshape(classic.shape[0] ** 2, -1)
    return flat[:, 0] > 0.5 * flat.sum(axis=1)


def _solid_lines(away: np.ndarray, mark: float) -> np.ndarray:
    """The pixels next to a row or column running solid along the straightened grid (at
    least SOLID_LINE of its length marked); `away`: each pixel's grey levels from the
    paper, `mark`: the least that is a mark. A thin line lying between two pixel columns
    wavers from one to the other along its length, its ink shared between them: two
    neighbours are taken together, their levels summed, and the darker of them is the
    line's."""
    return cv2.dilate((_solid(away, mark)[None, :] | _solid(away.T, mark)[:, None])
                      .astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


def _solid(away: np.ndarray, mark: float) -> np.ndarray:
    """(columns,) bool: the columns of _solid_lines' vertical lines."""
    pairs = ((away[:, :-1] + away[:, 1:]) > mark).mean(axis=0) >= SOLID_LINE
    darkness = away.sum(axis=0)
    first = darkness[:-1] >= darkness[1:]
    columns = np.zeros(away.shape[1], bool)
    columns[:-1] |= pairs & first
    columns[1:] |= pairs & ~first
    return columns


def cage_free(straight: np.ndarray, classic: np.ndarray) -> bool:
    """Whether the grid, straightened (BGR, n*cell pixels square), is a flat screenshot
    whose cells read blank (at least OPEN_SHARE of them) are bare grey paper but for the
    grid's solid lines: no cage outline, coloured cage line or fill is there, and
    cage_walls_seen need not look."""
    enter("cage_look")
    n = classic.shape[0]
    cell = straight.shape[0] // n
    gray = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY)[:n * cell, :n * cell]
    flat = _flat_paper(gray)
    blank = _blank(classic)
    if flat is None or blank.sum() < OPEN_SHARE * n * n:
        return False
    paper, depth = flat
    away = np.abs(gray.astype(np.int16) - paper)
    marked = away > MARK * depth
    lines = _solid_lines(away, MARK * depth)
    stray = (marked & ~lines).reshape(n, cell, n, cell).any(axis=(1, 3)).ravel()
    if (stray & blank).any():
        return False
    # A cage's colour (its outline or fill) shows in its blank cells, off the grid's
    # solid lines; coloured print (the givens, the lines themselves) says nothing of cages.
    # Channel by channel: a reduction over the short last axis costs far more.
    square = straight[:n * cell, :n * cell]
    b, g, r = square[..., 0], square[..., 1], square[..., 2]
    chroma = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    open_paper = ~lines & np.repeat(np.repeat(blank.reshape(n, n), cell, axis=0), cell, axis=1)
    return int(chroma[open_paper].max(initial=0)) <= GREY


def plainly_printed(straight: np.ndarray, classic: np.ndarray) -> bool:
    """Whether the grid, straightened (BGR, n*cell pixels square), is a flat screenshot
    of print alone; `classic`: the digit model's (n, n, values) probabilities."""
    enter("print_look")
    n = classic.shape[0]
    gray = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY)
    flat = _flat_paper(gray)
    if flat is None:
        return False
    paper, depth = flat
    insets = _insets(gray, n, MARGIN)
    marked = (np.abs(insets.astype(np.int16) - paper) > MARK * depth).any(axis=1)
    if (marked == _blank(classic)).any():
        # A mark where no digit is read (notes, a highlight), or a digit read where the
        # paper is clear: the full reading decides.
        return False
    inked = np.flatnonzero(marked)
    cores = _insets(straight, n, MARGIN)[inked, insets[inked].argmin(axis=1)].astype(np.int16)
    return not len(cores) or int((cores.max(axis=0) - cores.min(axis=0)).max()) <= ONE_COLOUR


def rendered(gray: np.ndarray, lattice: np.ndarray, straight: np.ndarray) -> bool:
    """Whether the grid at `lattice` in `gray` is drawn by a program (a screenshot), not
    photographed: at least RENDERED of its neighbouring pixels are exactly alike, and
    each cell's paper is one shade (`straight`: the grid straightened, BGR). A screen's
    paper, highlights and digits are flat colours, a highlight filling whole cells; a
    camera's grain makes neighbours differ by a level or two nearly everywhere, and a
    shadow's edge crosses cells."""
    (x0, y0), (x1, y1) = lattice.reshape(-1, 2).min(axis=0), lattice.reshape(-1, 2).max(axis=0)
    dx, dy = 0.1 * (x1 - x0), 0.1 * (y1 - y0)
    inner = gray[max(0, int(y0 + dy)):int(y1 - dy), max(0, int(x0 + dx)):int(x1 - dx)]
    if inner.shape[0] < 2 or inner.shape[1] < 2:
        return False
    alike = (np.count_nonzero(inner[:, 1:] == inner[:, :-1])
             + np.count_nonzero(inner[1:] == inner[:-1]))
    pairs = inner.shape[0] * (inner.shape[1] - 1) + (inner.shape[0] - 1) * inner.shape[1]
    return alike >= RENDERED * pairs and _paper_flat_in_cells(straight, lattice.shape[0] - 1)


def _paper_flat_in_cells(straight: np.ndarray, n: int) -> bool:
    """Whether the paper of all cells but SHADED_CELLS of them (its inset, the ink closed
    over) spans at most CELL_SHADE grey levels between its 5th and 95th percentiles (a
    shadow's edge runs across several cells; a grid found a little off takes in some of
    the screen beside it at a corner)."""
    gray = cv2.cvtColor(straight, cv2.COLOR_BGR2GRAY)
    cell = gray.shape[0] // n
    # Half a cell wide: a large bold digit's joins and bowls are not closed by less.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (cell // 2 | 1,) * 2)
    paper = _insets(cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel), n, MARGIN)
    low, high = np.percentile(paper, [5, 95], axis=1)
    return int(np.count_nonzero(high - low > CELL_SHADE)) <= SHADED_CELLS
