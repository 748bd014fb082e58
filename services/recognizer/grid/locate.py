"""Finding the grid in a picture: its outline, the lattice of its lines, and its side."""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.errors import RecognitionError
from services.recognizer.grid.fit import CLEAR_FIT, GOOD_FIT, lattice_in
from services.recognizer.grid.glyph_pitch import centred_glyphs
from services.recognizer.grid.lattice import SIZE
from services.recognizer.grid.outlines import (
    MIN_SCORE,
    NO_GRID,
    binarize,
    faint_lines,
    scored_grids,
    sides_continued,
)
from services.recognizer.grid.shape import grid_size
from services.recognizer.grid.sizes import (
    BOX,
    MIN_CELL_PX,
    SOME_RUN_ON,
    counted_finer,
    digits_in_nine_cells,
    encloses,
    grid_around,
    inside_larger,
    lies_apart,
    lines_clearer,
    nine_in_a_block,
    not_alone,
    off_picture,
    part_of,
    pitch_misses,
    ruled_finer,
    ruled_finer_by_light_lines,
    shortest_side,
)
from services.recognizer.grid.tuning import (
    CLEARLY_BETTER_FIT,
    LARGE_GOOD_FIT,
    OUTLINES_TRIED,
    PAD,
    WEAK_SCORE,
)

# Said when something grid-like was seen but its outline could not be followed all round:
# cut off by the picture's edge, or broken by a shadow, glare or a fold (which, the
# picture alone cannot tell).
OUTLINE_BROKEN = ("the grid's outline could not be followed all the way round: make sure the "
                  "whole grid is in the picture with a little margin, evenly lit, with no "
                  "shadow or fold across its border")


def locate(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(grid corners, (n+1)^2 line intersections) in `gray`'s pixels; n is the grid's side
    (see located)."""
    return located(gray)[:2]


def located(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(grid corners, (n+1)^2 line intersections, fit) as _located finds them, ruled
    finer where a lattice of another side has light lines through its cells (see
    ruled_finer_by_light_lines)."""
    return ruled_finer_by_light_lines(gray, _located(gray))


def _located(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(grid corners, (n+1)^2 line intersections, how well the lattice lies on the lines)
    in `gray`'s pixels; n is the grid's side.

    Outlines are tried best-scoring first, as the picture is and then inside a
    paper-coloured frame (a grid drawn to the picture's edge has no closed outline
    otherwise). An outline counts only when its four sides are traced along ink; among
    those, the lattice lying best on the picture's lines wins. A weakly scored outline
    (faint lines, crowded digits) counts only when its lattice lies well on the lines:
    otherwise the sheet of paper around such a grid would win.

    The outlines that look like a 9x9 grid are tried first, each at the side its rules
    show (shape.grid_size). Only when none of them lies well on the lines are the outlines
    that look like a grid of another side tried; those count only at that side, lying well
    on the lines, and then win over a 9x9 lattice that does not. A 9x9 picture is read
    from the outlines it always was, unless another side fits its lines clearly. A
    smaller grid of light lines lying below GOOD_FIT wins over a 9x9 lattice lying below
    it too when it lies clearly better, or better with every line on ink while the 9x9
    one runs a line over blank paper (see OFF_LINE), or better with its lines standing
    clearly more out of its cells' ink than the 9x9 one's (see LINES_CLEARER). A lattice
    of another side, or a 9x9 one lying below GOOD_FIT, gives way to a finer grid whose
    rules the grey picture shows line by line in the same outline (see counted_finer).
    """
    seen_any = False
    best, best_fit = None, -1.0
    light = None  # (corners, lattice, fit) of a smaller side lying below GOOD_FIT
    weak = None  # (corners, lattice, fit) of the best weakly scored 9x9 outline below GOOD_FIT
    aside = None  # a 9x9 lattice whose lines carry on outside it (see INSIDE_LARGER)
    tried: dict[int, list[np.ndarray]] = {0: [], PAD: []}
    framings: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    faint: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def line_ink(pad: int) -> tuple[np.ndarray, np.ndarray]:
        if pad not in faint:
            framed, binary = framing(pad)
            lines = faint_lines(framed)
            faint[pad] = lines, binary | lines
        return faint[pad]

    def framing(pad: int) -> tuple[np.ndarray, np.ndarray]:
        if pad not in framings:
            framed = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                        value=int(np.median(gray))) if pad else gray
            framings[pad] = framed, binarize(framed)
        return framings[pad]

    for other_sides in (False, True):
        for pad in (0, PAD):
            if pad and best_fit >= GOOD_FIT:
                break  # the frame is for grids drawn to the picture's edge: one was found
            framed, binary = framing(pad)
            outlines = scored_grids(framed, binary, WEAK_SCORE, other_sides)[:OUTLINES_TRIED]
            for score, outline in outlines:
                if other_sides and any(np.abs(outline - q).max() < 1 for q in tried[pad]):
                    continue
                if best_fit >= GOOD_FIT and best[1].shape[0] - 1 == SIZE and \
                        lies_apart(outline, best[0] + pad):
                    continue  # elsewhere on the page: only this grid's own outlines can win
                tried[pad].append(outline)
                seen_any |= score >= MIN_SCORE and not other_sides  # as 9x9 scores it
                size = grid_size(binary, outline, framed)
                if aside is not None and size <= SIZE:
                    continue  # only a larger grid enclosing the 9x9 set aside may win now
                for side in (size, SIZE) if size != SIZE and not other_sides else (size,):
                    if other_sides and side == SIZE or aside is not None and side <= SIZE:
                        break
                    if shortest_side(outline) < MIN_CELL_PX * side:
                        continue  # cells too small to hold a readable digit
                    found = lattice_in(binary, outline, side,
                                        lambda pad=pad: line_ink(pad))
                    if found is None:
                        continue
                    corners, lattice, fit, refined_score = found
                    if pad and off_picture(corners - pad, gray.shape):
                        continue  # the frame's own edge, not the picture's ink
                    if side != SIZE or fit < GOOD_FIT:
                        corners, side, lattice, fit = counted_finer(framed, outline, found,
                                                                     side)
                    # Still a 4x4 once counted finer (a light 12x12's 4x4 is counted to 12
                    # first: a block of three of its cells a side is nine of its rows).
                    nine = nine_in_a_block(framed, binary, lattice,
                                            lambda pad=pad: line_ink(pad)) \
                        if side < 2 * BOX else None
                    if nine is not None:
                        side, (corners, lattice, fit, refined_score) = SIZE, nine
                    seen_any |= refined_score >= MIN_SCORE and not other_sides
                    side_score = max(score, refined_score)
                    # Another side is claimed only on clear evidence: a lattice lying well
                    # on the lines, standing on its own (not one box of a larger grid, nor
                    # a block of cells in its corner, whose lines run on past two sides).
                    if side != SIZE:
                        runs_on = sides_continued(binary, corners, side)
                        if fit < LARGE_GOOD_FIT or not_alone(runs_on):
                            continue
                        if runs_on.max() >= SOME_RUN_ON:
                            larger = grid_around(binary, corners, side, runs_on,
                                                  lambda pad=pad: line_ink(pad))
                            if larger is not None:
                                side, (corners, lattice, fit, refined_score) = larger
                        if ruled_finer(light, corners - pad, side):
                            return light
                    if aside is not None:
                        # A larger lattice lying at least as well on the lines as the 9x9
                        # one set aside wins at any pitch: that 9x9 lattice was skewed
                        # over the larger grid's lines (cells a third taller than wide).
                        if encloses(corners - pad, side, aside[0], any_pitch=fit >= aside[2]):
                            return corners - pad, lattice - pad, fit
                        break
                    if side < SIZE and fit < GOOD_FIT:
                        # Thin light lines: judged against every 9x9 lattice, at the end.
                        if light is None or fit > light[2]:
                            light = corners - pad, lattice - pad, fit
                        continue
                    # (A side other than 9 passed its own test above: the score here is
                    # the 9x9 one, low for a grid of thin light lines whose fit passed.)
                    if side_score < MIN_SCORE and fit < GOOD_FIT and side == SIZE:
                        if weak is None or fit > weak[2]:
                            weak = corners - pad, lattice - pad, fit
                        break
                    if fit > best_fit >= GOOD_FIT and part_of(lattice - pad, best[1]):
                        break  # a block of the grid held as best, not a grid of its own
                    if fit > best_fit:
                        best, best_fit = (corners - pad, lattice - pad, fit), fit
                    as_found = np.abs(corners - outline).max() < 1.0
                    if side != SIZE and GOOD_FIT <= fit < CLEAR_FIT:
                        break  # held as best: the outlines left may hold the whole grid
                    if fit >= CLEAR_FIT or (fit >= GOOD_FIT and (as_found or side != SIZE)):
                        if side == SIZE and inside_larger(binary, corners):
                            # Maybe nine rows of a larger grid: look on.
                            aside = corners - pad, lattice - pad, fit
                            break
                        return best
                    break
            if aside is not None:
                # No larger grid encloses it: a 9x9 page ruled past its grid.
                return best if best_fit > aside[2] else aside
        if best_fit >= GOOD_FIT and best[1].shape[0] - 1 == SIZE:
            return best  # a 9x9 lattice lying well: other sides are not tried
    if light is not None and _light_wins(lambda: line_ink(0)[1], light, best, best_fit):
        nine = best if best is not None and best[1].shape[0] - 1 == SIZE else weak
        if nine is not None and \
                digits_in_nine_cells(gray, centred_glyphs(gray, nine[1]), light[1]):
            return nine  # the 9x9's box lines, with a page's or a shadow's edge, ruled it
        return light
    if weak is not None and best is not None and weak[2] >= best_fit + CLEARLY_BETTER_FIT:
        # Far out of focus, a grid's thin lines blur into the paper: its own outline scores
        # weakly, and the sheet's edge, scoring well, would win lying on the lines far worse.
        return weak
    if best is not None:  # the best lattice found, though it lies less well on the lines
        return best
    if seen_any:
        raise RecognitionError(OUTLINE_BROKEN)
    raise RecognitionError(NO_GRID)


def _light_wins(line_ink, light, best, best_fit: float) -> bool:
    """Whether the smaller lattice of light lines set aside wins over the best lattice: it
    lies clearly better; or better than a 9x9 one, and line by line (that 9x9 has a line
    on blank paper, see OFF_LINE) or with its lines standing clearly more out of its
    cells' ink (see LINES_CLEARER). `line_ink()`: the binarized ink with the faint lines."""
    if light[2] >= best_fit + CLEARLY_BETTER_FIT:
        return True
    if best is None or best[1].shape[0] - 1 != SIZE or light[2] <= best_fit:
        return False
    ink = line_ink()
    return pitch_misses(ink, best[1], light[1]) or lines_clearer(ink, light[1], best[1])
