"""The grid's digits: each cell read by the digit models, and the picture stood upright."""

from __future__ import annotations

import numpy as np

from services.recognizer.cells.classifier import load_model, load_soft_model
from services.recognizer.cells.features import (
    normalised_features,
    read_grid_cells,
    screened_cells,
)
from services.recognizer.cells.orientation import turn_lattice, upright_turns
from services.recognizer.cells.tuning import (
    CENTRED_ACROSS,
    CENTRED_DOWN,
    CLASSIC_GIVENS,
    LARGE_DIGIT,
    SCREEN_TEMPER,
    SOFT_SHARE,
    TALLEST_DIGIT,
    UPRIGHT,
)
from services.recognizer.grid.focus import focus_views
from services.recognizer.grid.lattice import SIZE
from services.recognizer.grid.straighten import PATCH, ink_map, straighten


def digit_view(gray: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """The grid straightened for the digit model, sharpened when it is out of focus."""
    return digit_views(gray, lattice)[0]


# The last grid's views: stand_upright and read_cells ask for the same picture's on the
# same lattice, one after the other. Held by the picture's identity (the reader never
# writes into a picture it has handed on) and the lattice's bytes.
_last_views: list = [None, None]


def digit_views(gray: np.ndarray, lattice: np.ndarray) -> list[np.ndarray]:
    """focus_views of the grid straightened for the digit model (the first: digit_view)."""
    key = (lattice.dtype.str, lattice.shape, lattice.tobytes())
    held, views = _last_views
    if held is not None and held[0] is gray and held[1] == key:
        return views
    views = focus_views(straighten(gray, lattice))
    _last_views[:] = [(gray, key), views]
    return views


def cell_probabilities(gray: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """(n, n, 10) probabilities of blank, 1..9 for each cell of a 9x9 or smaller grid."""
    return read_cells(gray, lattice)[0]


def read_cells(gray: np.ndarray, lattice: np.ndarray,
               features: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, int]:
    """(cell probabilities, how many cells hold a large, centred digit read with p > 0.9:
    a given, not a cage sum in a corner). `features`: read_grid_cells' output, if known."""
    n = lattice.shape[0] - 1
    views = digit_views(gray, lattice)
    features, boxes = features or read_grid_cells(views[0], n)
    if len(views) > 1:
        # An out-of-focus grid: its blur is only estimated, so its digits are read at
        # each plausible sharpening and the readings averaged (grid/focus.py); the boxes, for
        # telling givens, stay the first view's.
        features = np.concatenate([features, *(read_grid_cells(view, n)[0]
                                               for view in views[1:])])
        probs = soft_grid_probabilities(features, len(views))
    else:
        probs = load_model().predict_proba(features)
    probs = with_screened_tempered(probs, screened_cells(views[0], n)).reshape(n, n, -1)
    x0, y0, x1, y1 = np.moveaxis(boxes, -1, 0)
    centred = ((np.abs((x0 + x1) / 2 - 0.5) < CENTRED_ACROSS)
               & (np.abs((y0 + y1) / 2 - 0.5) < CENTRED_DOWN))
    upright = (y1 - y0) >= UPRIGHT * (x1 - x0)  # digits are taller than wide; cage boxes not
    height = y1 - y0
    given = ((1.0 - probs[..., 0] > 0.9) & (height >= LARGE_DIGIT) & (height <= TALLEST_DIGIT)
             & centred & upright)
    return probs, int(given.sum())


def with_screened_tempered(probs: np.ndarray, screened: np.ndarray) -> np.ndarray:
    """(n*n, classes) probabilities, those of the `screened` cells (ink laid in halftone
    dots, features.descreened) flattened by SCREEN_TEMPER: the smoothed dots are a glyph
    sampled a few times across, which the digit model never saw, and it reads them as
    surely as a printed stroke, right or wrong (a screened 8 read 6 at 0.99+). Flattened,
    such a misread is a doubt the repair may question, and a person checks."""
    if not screened.any():
        return probs
    out = probs.copy()
    tempered = np.maximum(probs[screened], 1e-12) ** SCREEN_TEMPER
    out[screened] = tempered / tempered.sum(axis=1, keepdims=True)
    return out


def soft_grid_probabilities(features: np.ndarray, views: int) -> np.ndarray:
    """Each cell's probabilities on a soft grid: `features` holds every cell in each of
    `views` sharpened views, view after view; the readings of the main digit model and of
    the one trained on soft photos too, SOFT_SHARE of the weight, averaged over views."""
    probs = load_model().predict_proba(features)
    if SOFT_SHARE:
        probs = ((1 - SOFT_SHARE) * probs
                 + SOFT_SHARE * load_soft_model().predict_proba(features))
    return probs.reshape(views, -1, probs.shape[-1]).mean(axis=0)


def stand_upright(gray: np.ndarray, lattice: np.ndarray) -> tuple[np.ndarray, int, tuple]:
    """(lattice indexed by the puzzle's own rows and columns, clockwise quarter turns that
    stand the picture upright, the cells' features in that orientation).

    Only digits vote: cells whose blob is digit-sized and near the centre, and which the
    digit model reads as a digit in at least one of the four turns (a turned digit may
    look blank to it, a cage outline looks blank every way). Small cage sums in a corner
    and pencil notes do not vote."""
    straight = digit_view(gray, lattice)
    n = lattice.shape[0] - 1
    view = read_grid_cells(straight, n)
    if n > SIZE:
        # Grids above 9x9 may print letters, which the orientation model (trained on
        # digits) cannot stand upright: they are read as the picture shows them.
        return lattice, 0, view
    blank = load_model().predict_proba(view[0])[:, 0]
    x0, y0, x1, y1 = np.moveaxis(view[1].reshape(-1, 4), -1, 0)
    side = np.maximum(x1 - x0, y1 - y0)
    digit_sized = ((side >= LARGE_DIGIT) & (side <= TALLEST_DIGIT)
                   & (np.abs((x0 + x1) / 2 - 0.5) < 0.2) & (np.abs((y0 + y1) / 2 - 0.5) < 0.2))
    # Only a digit-sized blob that looks blank as the picture shows it can still turn out
    # a digit in another turn: just those cells are read turned (the rest cannot change
    # the vote, and reading every cell four times was a sixth of a killer's reading).
    doubtful = np.flatnonzero(digit_sized & (blank >= 0.5))
    if doubtful.size:
        blank[doubtful] = np.minimum(blank[doubtful],
                                     turned_blank(straight, n, doubtful).min(axis=0))
    turns = upright_turns(view[0], digit_sized & (blank < 0.5))
    if not turns:
        return lattice, 0, view
    return turn_lattice(lattice, turns), turns, \
        read_grid_cells(np.ascontiguousarray(np.rot90(straight, -turns)), n)


def turned_blank(straight: np.ndarray, n: int, cells: np.ndarray) -> np.ndarray:
    """(3, len(cells)) blank probabilities of `cells` (indices in the picture's row-major
    order) in the straightened grid turned clockwise 1, 2 and 3 times, each cell read as
    read_grid_cells reads it in that turn (the ink map of the whole turned grid)."""
    order = np.arange(n * n).reshape(n, n)
    out = []
    for k in (1, 2, 3):
        ink = ink_map(np.ascontiguousarray(np.rot90(straight, -k)))
        where = np.rot90(order, -k).ravel()  # picture cell at each place of the turned grid
        rows = []
        for cell in cells:
            r, c = divmod(int(np.flatnonzero(where == cell)[0]), n)
            rows.append(normalised_features(ink[r * PATCH:(r + 1) * PATCH,
                                                c * PATCH:(c + 1) * PATCH]))
        out.append(load_model().predict_proba(np.stack(rows))[:, 0])
    return np.array(out)


def classic_givens(n: int) -> int:
    """Large, confidently read digits that make an n x n grid classic (when it shows no
    cage walls): CLASSIC_GIVENS at 9x9, as many per cell at other sides (5 at 6x6)."""
    return max(2, round(CLASSIC_GIVENS * n * n / 81))
