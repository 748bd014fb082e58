"""How well a lattice lies on the picture's lines, and the outlines refined around a found one."""

from __future__ import annotations

import numpy as np

from services.recognizer.grid.lattice import (
    even_lattice,
    lattice_fit,
    snap_outline,
    trace_lattice,
    widened_fit,
)
from services.recognizer.grid.outlines import grid_score, trimmed_outlines
from services.recognizer.grid.tuning import (
    CLEAR_FIT,
    FAINT_FIT,
    FAINT_MID,
    GOOD_FIT,
    RUNNER_UP_MARGIN,
)


def midlines(lattice: np.ndarray) -> np.ndarray:
    """The lattice of lines through the middles of `lattice`'s cells."""
    return (lattice[:-1, :-1] + lattice[1:, 1:]) / 2


def lattice_in(binary: np.ndarray, outline: np.ndarray, size: int, line_ink=None):
    """(outline refined, lattice, fit, grid score of the refined outline) of a size x size
    grid in the outline, the refinement whose lattice lies best on the lines (see
    refined_outlines); None when no refinement's four sides can be traced along ink.

    `line_ink()`: (faint thin lines (grid.faint_lines), those with the binarized ink). A
    9x9 lattice lying below GOOD_FIT on the binarized ink is traced again along the faint
    lines and judged on both: the thin lines of app screenshots binarize in part only, so
    the tracer follows a cage's dotted outline beside them, no lattice lies well, and
    every outline, framing and side would be tried (most of a killer screenshot's time).
    The faint lattice counts from FAINT_FIT only. Failing that, the evenly spaced lattice
    counts when it lies better on the binarized ink than the traced one: on a grainy
    ground the tracer follows clumps of grain and dotted cage outlines beside the lines,
    and the faint lines test cannot tell the grain (which lies under the cells' middles
    too) from a dark photo's negative."""
    found = None
    for corners, runner_up in refined_outlines(binary, outline, size):
        if runner_up and found is not None and found[2] + RUNNER_UP_MARGIN > 1.0:
            continue  # no fit (at most 1) can beat it by the margin: not worth a trace
        lattice, rows, cols = trace_lattice(binary, corners, size)
        if not (rows[[0, -1]].all() and cols[[0, -1]].all()):
            continue
        fit = lattice_fit(binary, lattice)
        if fit < GOOD_FIT and line_ink is not None:
            lines, ink = line_ink()
            # Traced along the faint lines, or (a flat screenshot, where a cage's thin
            # solid outline beside a grid line can lead the tracer astray) evenly spaced.
            traced, rows, cols = trace_lattice(lines, corners, size)
            options = [even_lattice(corners, size)]
            if rows[[0, -1]].all() and cols[[0, -1]].all():
                options.insert(0, traced)
            fits = [widened_fit(ink, option) for option in options]
            option = options[int(np.argmax(fits))]
            if max(fits) >= FAINT_FIT and widened_fit(ink, midlines(option)) <= FAINT_MID:
                lattice, fit = option, max(fits)
            else:
                even = options[-1]
                even_fit = lattice_fit(binary, even)
                if even_fit > fit:
                    lattice, fit = even, even_fit
        if runner_up and (fit < CLEAR_FIT or found is not None
                          and fit < found[2] + RUNNER_UP_MARGIN):
            continue
        if found is None or fit > found[2]:
            moved = np.abs(corners - outline).max() >= 1.0
            # A heading or the page around the grid lowered the outline's own score.
            score = grid_score(binary, corners, size) if moved else -1.0
            found = corners, lattice, fit, score
    return found


def refined_outlines(binary: np.ndarray, outline: np.ndarray,
                     size: int) -> list[tuple[np.ndarray, bool]]:
    """(outline, whether it is the runner-up) pairs: the outline trimmed to the grid's own
    rules (see trimmed_outlines), each also with its sides moved onto the grid's outer
    lines (see snap_outline) where that moves it. Of such a pair the more grid-like comes
    first; the other is the runner-up, which counts only when its lattice lies on the lines
    at CLEAR_FIT and clearly better (RUNNER_UP_MARGIN; see lattice_in).

    Both are kept for the lattice to decide: where a deep shadow's edges run on from a
    grid corner, the hull's corner is pulled up to a cell in, and the grid score (lines
    widened by a third of a cell) preferred it to the snapped outline, whose lattice lies
    on every line. A runner-up lying only fairly well was a spur's skewed outline."""
    refined = []
    for trimmed in trimmed_outlines(binary, outline, size):
        snapped = trimmed_outlines(binary, snap_outline(binary, trimmed, size), size)[0]
        if np.abs(snapped - trimmed).max() < 1.0:
            refined.append((trimmed, False))
        elif grid_score(binary, snapped, size) > grid_score(binary, trimmed, size):
            refined += [(snapped, False), (trimmed, True)]
        else:
            refined += [(trimmed, False), (snapped, True)]
    return refined
