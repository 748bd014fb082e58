"""recognize(): picture bytes in, a Reading with a probability for every cell out."""

from __future__ import annotations

import time

import cv2
import numpy as np

from services.contracts import Reading
from services.recognizer.blocks import around
from services.recognizer.cell_kinds import half_solved_reading
from services.recognizer.cells import (
    PATCH,
    ink_map,
    normalised_features,
    read_grid_cells,
    straighten,
)
from services.recognizer.classifier import load_model, load_soft_model
from services.recognizer.decode import decode, decode_colour, decode_region
from services.recognizer.errors import RecognitionError
from services.recognizer.focus import focus_views, in_focus, sharpened_picture
from services.recognizer.glyph_pitch import centred_glyphs
from services.recognizer.grid import (
    MIN_SCORE,
    NO_GRID,
    WEAK_SCORE,
    binarize,
    faint_lines,
    grid_score,
    scored_grids,
    sides_continued,
    trimmed_outlines,
)
from services.recognizer.killer import (
    cage_walls_seen,
    killer_cells,
    read_killer,
    reading_fields,
    regions,
    unread,
)
from services.recognizer.killer_marks import read_marks
from services.recognizer.kind import (
    SURE_SUM,
    cage_sum_range,
    decide,
    killer_probability,
    min_heads,
    numbers_total,
)
from services.recognizer.lattice import (
    even_lattice,
    lattice_fit,
    snap_outline,
    trace_lattice,
    widened_fit,
    widened_line_fits,
)
from services.recognizer.nonogram_reading import nonogram_reading
from services.recognizer.orientation import (
    turn_lattice,
    turn_picture,
    turn_points,
    upright_turns,
)
from services.recognizer.shape import box_shape, grid_size, lattice_count, nine_count
from services.recognizer.symbols import read_symbols

SIZE = 9
# Sides at which a picture may be a killer: the killer reader and the kind evidence run
# there. Other sides are read as classic grids.
KILLER_SIDES = (6, 9)


def _points(array: np.ndarray) -> list:
    return [(round(float(x), 2), round(float(y), 2)) for x, y in array]


PAD = 8  # paper-coloured frame, so a grid drawn to the picture's edge still has a closed outline


# Said when something grid-like was seen but its outline could not be followed all round:
# cut off by the picture's edge, or broken by a shadow, glare or a fold (which, the
# picture alone cannot tell).
OUTLINE_BROKEN = ("the grid's outline could not be followed all the way round: make sure the "
                  "whole grid is in the picture with a little margin, evenly lit, with no "
                  "shadow or fold across its border")
GOOD_FIT = 0.85  # a weakly scored outline counts when its lattice lies this well on lines
# A 9x9 outline that had to be trimmed or moved is taken at once only when its lattice
# lies this well on the lines: a heading's outline trimmed a row off lies nearly as well
# as the grid's own, so the other outlines are tried too.
CLEAR_FIT = 0.98
# Grids above 9x9 in photos have thin lines a few pixels apart, often light grey, which
# binarize in part only: a 16x16 lattice on every line fits from about 0.75 up.
LARGE_GOOD_FIT = 0.75
OUTLINES_TRIED = 6  # per framing, best-scoring first


def locate(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(grid corners, (n+1)^2 line intersections) in `gray`'s pixels; n is the grid's side
    (see located)."""
    return located(gray)[:2]


def located(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(grid corners, (n+1)^2 line intersections, fit) as _located finds them, ruled
    finer where a lattice of another side has light lines through its cells (see
    _ruled_finer_by_light_lines)."""
    return _ruled_finer_by_light_lines(gray, _located(gray))


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
    rules the grey picture shows line by line in the same outline (see _counted_finer).
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
                        _apart(outline, best[0] + pad):
                    continue  # elsewhere on the page: only this grid's own outlines can win
                tried[pad].append(outline)
                seen_any |= score >= MIN_SCORE and not other_sides  # as 9x9 scores it
                size = grid_size(binary, outline, framed)
                if aside is not None and size <= SIZE:
                    continue  # only a larger grid enclosing the 9x9 set aside may win now
                for side in (size, SIZE) if size != SIZE and not other_sides else (size,):
                    if other_sides and side == SIZE or aside is not None and side <= SIZE:
                        break
                    if _shortest_side(outline) < MIN_CELL_PX * side:
                        continue  # cells too small to hold a readable digit
                    found = _lattice_in(binary, outline, side,
                                        lambda pad=pad: line_ink(pad))
                    if found is None:
                        continue
                    corners, lattice, fit, refined_score = found
                    if pad and _off_picture(corners - pad, gray.shape):
                        continue  # the frame's own edge, not the picture's ink
                    if side != SIZE or fit < GOOD_FIT:
                        corners, side, lattice, fit = _counted_finer(framed, outline, found,
                                                                     side)
                    # Still a 4x4 once counted finer (a light 12x12's 4x4 is counted to 12
                    # first: a block of three of its cells a side is nine of its rows).
                    nine = _nine_in_a_block(framed, binary, lattice,
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
                        if fit < LARGE_GOOD_FIT or _not_alone(runs_on):
                            continue
                        if runs_on.max() >= SOME_RUN_ON:
                            larger = _grid_around(binary, corners, side, runs_on,
                                                  lambda pad=pad: line_ink(pad))
                            if larger is not None:
                                side, (corners, lattice, fit, refined_score) = larger
                        if _ruled_finer(light, corners - pad, side):
                            return light
                    if aside is not None:
                        # A larger lattice lying at least as well on the lines as the 9x9
                        # one set aside wins at any pitch: that 9x9 lattice was skewed
                        # over the larger grid's lines (cells a third taller than wide).
                        if _encloses(corners - pad, side, aside[0], any_pitch=fit >= aside[2]):
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
                    if fit > best_fit >= GOOD_FIT and _part_of(lattice - pad, best[1]):
                        break  # a block of the grid held as best, not a grid of its own
                    if fit > best_fit:
                        best, best_fit = (corners - pad, lattice - pad, fit), fit
                    as_found = np.abs(corners - outline).max() < 1.0
                    if side != SIZE and GOOD_FIT <= fit < CLEAR_FIT:
                        break  # held as best: the outlines left may hold the whole grid
                    if fit >= CLEAR_FIT or (fit >= GOOD_FIT and (as_found or side != SIZE)):
                        if side == SIZE and _inside_larger(binary, corners):
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
                _digits_in_nine_cells(gray, centred_glyphs(gray, nine[1]), light[1]):
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
    return _pitch_misses(ink, best[1], light[1]) or _lines_clearer(ink, light[1], best[1])


# A 9x9 of light thin lines on a small photo shows only its box lines (a 3x3 lattice)
# even counted line by line; with a page's edge and a deep shadow's edge running on from
# a grid side, the outline round them and a row and a column of the page beyond counted
# as a 4x4 lying on the lines (0.75-0.76) far better than the grid's own 9x9 lattice
# (0.44-0.55), its thin lines unseen, and not on the grid's box lines (the page's margin
# is no box wide). The digits tell them apart: 27-32 of the grid's blobs of a digit's
# size sat centred in the 9x9's cells (78-100 %), none of a 4x4 cell's size in the
# 4x4's. A smaller grid's digits are too tall for a 9x9 lattice's cells, and sit centred
# in its own.
DIGITS_SEEN = 9  # glyphs centred in the 9x9 lattice's cells, about one a box at least
DIGITS_CENTRED = 0.7  # ... as a share of the digit-sized blobs there
DIGITS_OWN = 0.2  # the other lattice's own centred digits, against the 9x9 one's


def _digits_in_nine_cells(gray: np.ndarray, nine_digits: tuple[int, float],
                          other: np.ndarray) -> bool:
    """Whether the digits sit one to a cell of a 9x9 lattice (centred_glyphs there:
    `nine_digits`), and hardly any fit the cells of the `other` lattice of a smaller side
    (see DIGITS_SEEN)."""
    seen, centred = nine_digits
    if seen * centred < DIGITS_SEEN or centred < DIGITS_CENTRED:
        return False
    own, own_centred = centred_glyphs(gray, other)
    return own * own_centred < DIGITS_OWN * seen * centred


# Once a 9x9 lattice lies well on the lines, an outline sharing less than this of its area
# (intersection over union) and no larger is not traced: on written-on photos the
# outlines after the grid's own were the page's text, a hand or pieces of one box (at
# most 0.13), whose lattices never won and took most of the slowest photos' time. Those
# that may still win share most of the grid: its outline with a heading (about 0.9) or a
# larger grid around it (larger, so always traced). A lattice of another side held as
# best is no such grid: the outlines left may hold the whole grid, and are all traced.
APART = 0.25


def _apart(outline: np.ndarray, corners: np.ndarray) -> bool:
    """Whether `outline` lies apart from the grid at `corners` (see APART)."""
    quad, grid = outline.astype(np.float32), corners.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(quad, grid)
    quad_area, grid_area = cv2.contourArea(quad), cv2.contourArea(grid)
    union = quad_area + grid_area - shared
    return quad_area <= grid_area and shared < APART * union


# A grid of another side whose inner lines carry on this much past two of its sides is a
# block of a larger grid's cells (a 4x4 block in the corner of a 6x6 killer, whose heavy
# dotted cages let the faint-line trace lie on it at 1.0, its outline a little skewed:
# two of three lines ran on past two sides, a mean of 0.33). Such blocks measured
# 0.67-1.0 on the sides where the grid goes on; grids standing on their own 0-0.2, but a
# heading over a photographed grid 1.0 on its one side. (A grainy ground's specks or the
# text of a page run through the band between the lines too, and do not count.)
SIDE_RUNS_ON = 0.6
# A grid of another side whose lines run on this much past one of its sides may still
# be a block of a larger grid (digits beside its lines hide the run past the others):
# the grids around it are traced too (see _grid_around).
SOME_RUN_ON = 0.3


def _not_alone(runs_on: np.ndarray) -> bool:
    """Whether lines running on past the sides (sides_continued) make a lattice a block
    of a larger grid's cells."""
    return bool(runs_on.mean() > 0.5 or (runs_on >= SIDE_RUNS_ON).sum() >= 2)


def _grid_around(binary: np.ndarray, corners: np.ndarray, side: int, runs_on: np.ndarray,
                 line_ink):
    """(side, _lattice_in's result) of the grid around a block whose lines run on past
    one side (see blocks.around) lying best on the lines, its own lines stopping at its
    sides; None when none does."""
    best = None
    height, width = binary.shape[:2]
    middle = tuple(float(v) for v in corners.mean(axis=0))
    for larger, widened in around(corners, side, runs_on, SIDE_RUNS_ON):
        for outline in trimmed_outlines(binary, widened, larger):
            if np.abs(outline - widened).max() < 1.0 or _off_picture(outline, (height, width)) \
                    or cv2.pointPolygonTest(outline.astype(np.float32), middle, False) < 0:
                continue  # no rules of the larger grid found, or not around the block
            found = _lattice_in(binary, outline, larger, line_ink)
            if found is None or found[2] < GOOD_FIT or \
                    (best is not None and found[2] <= best[1][2]):
                continue
            if sides_continued(binary, found[0], larger).max() >= SIDE_RUNS_ON:
                continue  # its lines too run on: a block still
            best = larger, found
    return best


# A 9x9 lattice whose inner lines carry on past two of its four sides may be nine rows
# and columns of a 12x12 or 16x16 grid whose own outline was traced a little off (a
# shadow across a corner): the sub-lattice then lies perfectly. It is set aside, and loses
# only to a larger grid found among the next outlines that encloses it with cells of its
# size; otherwise it is read as before (real 9x9 pages may print lines past the grid).
INSIDE_LARGER = 0.45
SAME_PITCH = 0.2  # cells of the larger grid within this share of the 9x9 lattice's


def _inside_larger(binary: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a 9x9 lattice's lines carry on outside it as a larger grid's would: over
    its sides (INSIDE_LARGER), or on two sides of its own (SIDE_RUNS_ON, as for a block of
    another side). Bold digits beside the lines on one of those sides fill the places a
    line's run is checked against (grid.FLANK), as text does: nine rows and columns of a
    12x12 photo measured 1.0 and 0.75 on two sides, a mean of 0.44, and were read as 9x9.

    Nine rows and columns of a larger grid leave rows of it above or below, and columns
    of it to the left or right: lines running on clearly past one side and in part past a
    side the other way (SOME_RUN_ON, digits beside the rest) count too. Nine of a 16x16
    photo's rows and columns measured 0.88 below, 0.38 and 0.5 left and right (a mean of
    0.44) and were read as 9x9. Setting a 9x9 lattice aside costs only the search for an
    enclosing grid: it is read as 9x9 when none is found."""
    runs_on = sides_continued(binary, corners, SIZE)
    down_ways, across_ways = runs_on[:2].max(), runs_on[2:].max()
    each_way = min(down_ways, across_ways) >= SOME_RUN_ON and \
        max(down_ways, across_ways) >= SIDE_RUNS_ON
    return bool(runs_on.mean() > INSIDE_LARGER or (runs_on >= SIDE_RUNS_ON).sum() >= 2
                or each_way)


# A side below 9 counted row by row must show boxes of its own: its box lines heavier than
# its cell lines each way (shape.box_shape's clarity; a light 6x6 photo measured 1.0). A
# block of a 9x9's cells with light dashed lines, lying in a deep shadow that hid its
# lines' run past its sides, counted a perfect 6x6 (1.0 of its rules) but has the 9x9's
# box lines where no 6x6 has them (every third line, each way): clarity 0.0.
BOXES_SHOWN = 0.5


def _counted_finer(gray: np.ndarray, outline: np.ndarray, found,
                   side: int) -> tuple[np.ndarray, int, np.ndarray, float]:
    """(corners, side, lattice, fit) of a lattice of another side found in an outline (or
    of a 9x9 lying poorly); or, evenly spaced in the refined outline or the outline as
    traced, of a finer grid whose rules the grey picture shows line by line there
    (shape.lattice_count), its fit the share of its rules so found. The light grey cell
    lines of a photographed 12x12 or 16x16 are lost to the binarization and the faint
    lines alike: only the box lines count, as a 4x4 or a poor 9x9 (refined, the outline
    may be trimmed to nine of its rows); a light 6x6's, as its 4x4-like box lines. A
    lattice is only counted finer, and a 9x9 only to a side above 9: a 9x9 far out of
    focus was counted 4x4 there (0.66 on the ink, 0.8 on the rules row by row). A side
    below 9 must show its own boxes (see BOXES_SHOWN)."""
    corners, lattice, fit, _ = found
    for quad in (corners, outline):
        counted, share = lattice_count(gray, quad)
        if counted is None or counted <= side or \
                _shortest_side(quad) < MIN_CELL_PX * counted:
            continue
        finer = even_lattice(quad, counted)
        if counted < SIZE and box_shape(gray, finer)[1] < BOXES_SHOWN:
            continue  # no boxes of its own: maybe a block of a 9x9's cells
        return quad, counted, finer, share
    return corners, side, lattice, fit


# A 9x9 of light thin lines shows only its box lines to the binarization: a 3x3 lattice,
# which no sudoku has, until a page's edge or a deep shadow's edge running on from a grid
# side adds a fourth box row and column beyond the grid, and the outline round them all
# is counted as a 4x4 lying on the lines (0.78-0.86), as well as or better than the 9x9
# lattice of the grid's own outline (0.65, its corner in the shadow pulled 0.4 cell in),
# or ruled into a 12x12 by the thin lines of three of its four box rows. The 3x3 block of
# those cells that is the grid shows it two ways: counted line by line, every one of a
# 9x9's rules each way (shape.nine_count; a block of a 4x4 lattice laid over a 9x9
# photo's heading and grid counted nine of ten, so all ten are asked for); or, its thin
# lines too light even for that on a small photo, the most digits of the blocks sitting
# one to a cell of a 9x9 lattice there while hardly any is of a size for the lattice's own
# cells (see _digits_in_nine_cells). No block of a 4x4, 6x6 or 8x8's own cells has rules
# a third of a cell apart, and their digits are too tall for a 9x9 lattice's cells.
# Only lattices of fewer than two boxes' cells a side are looked into (a 4x4): more would
# need several ruled rows of the page beyond the grid.
BOX = 3  # a 9x9's boxes, in cells


def _nine_in_a_block(gray: np.ndarray, binary: np.ndarray, lattice: np.ndarray, line_ink):
    """_lattice_in's result for a 9x9 in the BOX x BOX block of the lattice's cells that
    shows all of a 9x9's rules counted line by line, or else holds the most digits one to
    a cell of a 9x9 lattice (see _digits_in_nine_cells); None when no block does."""
    side = lattice.shape[0] - 1
    blocks = []
    for row in range(side - BOX + 1):
        for col in range(side - BOX + 1):
            quad = np.array([lattice[row, col], lattice[row, col + BOX],
                             lattice[row + BOX, col + BOX], lattice[row + BOX, col]], float)
            if _shortest_side(quad) >= MIN_CELL_PX * SIZE:
                blocks.append(quad)
    chosen = next((quad for quad in blocks if nine_count(gray, quad) >= 1.0), None)
    if chosen is None and blocks:
        digits = [centred_glyphs(gray, even_lattice(quad, SIZE)) for quad in blocks]
        most = int(np.argmax([seen * centred for seen, centred in digits]))
        if _digits_in_nine_cells(gray, digits[most], lattice):
            chosen = blocks[most]
    return None if chosen is None else _lattice_in(binary, chosen, SIZE, line_ink)


def _ruled_finer(light, corners: np.ndarray, side: int) -> bool:
    """Whether the light lattice set aside (corners, lattice, fit) rules the same outline
    as a side x side lattice at `corners` into finer cells, every side'th line shared: the
    thick rules of an 8x8 (2x4 boxes) make a 4x4 lattice that lies better on the ink than
    the 8x8 one whose light thin lines binarize in part, but only the finer one is the grid."""
    if light is None:
        return False
    fine = light[1].shape[0] - 1
    cell = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean()) / fine
    return fine > side and fine % side == 0 and \
        float(np.abs(light[0] - corners).max()) < 0.5 * cell


# A grid's lines all lie on ink, however light they are: the thin lines of an 8x8 in a
# shadowed photo lay at 0.56 and up on the binarized and faint ink. A lattice with a line
# on less than OFF_LINE runs that line over blank paper at the wrong pitch: a page's
# outline traced as 9x9 over a light 8x8 grid had two such lines (0.10, 0.36) and still
# lay at 0.64 overall on the grid's rules and the page's text, too close to the 8x8's
# 0.81 for CLEARLY_BETTER_FIT.
OFF_LINE = 0.3
ON_LINE = 0.5


def _pitch_misses(ink: np.ndarray, nine: np.ndarray, light: np.ndarray) -> bool:
    """Whether the 9x9 lattice `nine` has a line over blank paper while every line of the
    smaller light lattice lies on ink (binarized or faint, widened as widened_fit does)."""
    return bool(widened_line_fits(ink, nine).min() < OFF_LINE
                and widened_line_fits(ink, light).min() >= ON_LINE)


# However light a grid's lines are, each lies on more ink than any line through the middle
# of its cells (digits only cross those here and there). A lattice traced over a page's
# text or the wrong pitch has a weakest line close to, or below, its busiest middle line:
# a 9x9 lattice over a light 8x8 grid and the text under it measured 0.01 and -0.21
# (weakest line less busiest middle), the 8x8 lattice 0.25 and 0.08 while lying below
# GOOD_FIT (0.85, 0.77) and only 0.15-0.17 better than the 9x9 one overall. Judged on the
# same ink, the smaller light lattice wins when it stands out this much more.
LINES_CLEARER = 0.15


def _standing_out(ink: np.ndarray, lattice: np.ndarray) -> float:
    """The lattice's weakest line on ink less its busiest line through the cells' middles
    (widened as widened_fit widens the ink)."""
    return float(widened_line_fits(ink, lattice).min()
                 - widened_line_fits(ink, midlines(lattice)).max())


def _lines_clearer(ink: np.ndarray, light: np.ndarray, nine: np.ndarray) -> bool:
    """Whether the smaller light lattice's lines stand out of its cells' ink clearly more
    than the 9x9 lattice's do (see LINES_CLEARER)."""
    return _standing_out(ink, light) >= _standing_out(ink, nine) + LINES_CLEARER


# Sides a lattice of another side may be ruled into by light thin lines the outline's
# count (shape.grid_size) missed: the box lines of an 8x8 (2x4 boxes) make a 4x4 lattice
# lying on the binarized ink from GOOD_FIT up, its cells' middles on the thin lines.
# (A 16x16's light thin lines, closer together, were found too broken to stand out.)
FINER_SIDES = (8, 12, 16)


def _ruled_finer_by_light_lines(gray: np.ndarray, found):
    """`found` (corners, lattice, fit), or the finer lattice in the same outline whose
    lines stand clearly more out of its cells' ink than found's (see LINES_CLEARER), or
    stand out at all where found's do not, on the binarized ink with the faint thin
    lines. Only for sides other than 9: a 9x9 reading is left as it is."""
    corners, lattice, fit = found
    side = lattice.shape[0] - 1
    if side == SIZE:
        return found
    binary = binarize(gray)
    lines = faint_lines(gray)
    ink = binary | lines
    coarse = _standing_out(ink, lattice)
    bar = coarse + LINES_CLEARER
    if coarse < 0:
        # A line through the cells' middles lies on more ink than the lattice's own
        # weakest line: a finer lattice whose lines stand out at all is the grid.
        bar = min(bar, 0.0)
    best = found
    for finer in FINER_SIDES:
        if finer <= side or finer % side:
            continue
        traced = _lattice_in(binary, corners, finer, lambda: (lines, ink))
        options = [even_lattice(corners, finer)]
        if traced is not None:
            options.append(traced[1])
        for option in options:
            out = _standing_out(ink, option)
            if out > bar:
                best, bar = (corners_of(option), option, lattice_fit(binary, option)), out
    return best


def _encloses(corners: np.ndarray, side: int, inner: np.ndarray,
              any_pitch: bool = False) -> bool:
    """Whether the side x side grid at `corners` holds the 9x9 outline `inner` inside it
    (to half a cell), with cells of about the same size unless `any_pitch`."""
    cell = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean()) / side
    inner_cell = float(np.linalg.norm(inner - np.roll(inner, 1, axis=0), axis=1).mean()) / SIZE
    if side <= SIZE or (abs(cell / inner_cell - 1.0) > SAME_PITCH and not any_pitch):
        return False
    contour = corners.reshape(-1, 1, 2).astype(np.float32)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -0.5 * cell
               for x, y in inner)


# In the paper-coloured frame, a side traced this many pixels outside the picture lies on
# the frame's own edge: where the picture's margin is lighter than the frame's colour (its
# median grey, a cage fill's tint), the frame binarizes as a line along the picture's
# border, and a 6x6 lattice on it lay at 0.92 (the grid's own outline at 0.97 was not
# tried yet). A grid drawn to the picture's edge has its outer lines inside the picture.
OFF_PICTURE = 1.0


def _off_picture(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    height, width = shape[:2]
    return bool((corners.min(axis=0) < -OFF_PICTURE).any()
                or (corners[:, 0] > width - 1 + OFF_PICTURE).any()
                or (corners[:, 1] > height - 1 + OFF_PICTURE).any())


# An outline whose side is shorter than this many pixels a cell is no grid one can read:
# such small quads (between a small screenshot's digits, say) can still lie on lines.
MIN_CELL_PX = 8


def _shortest_side(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())


# Cells of one grid seen in one picture are alike in shape. A lattice whose cells are
# this much farther from square than those of the lattice held as best lies on part of
# that grid: a 4x4 lattice on one box column of an 8x8 with 2x4 boxes (cells twice as
# tall as wide) lay on its lines at 0.93, the 8x8's own at 0.86 (light thin lines).
NOT_SQUARE = 1.4


def _cell_sides(lattice: np.ndarray) -> tuple[float, float]:
    """The lattice's cells' mean width and mean height."""
    return (float(np.linalg.norm(np.diff(lattice, axis=1), axis=-1).mean()),
            float(np.linalg.norm(np.diff(lattice, axis=0), axis=-1).mean()))


def _cell_aspect(lattice: np.ndarray) -> float:
    """How far the lattice's cells are from square (width over height, or its inverse)."""
    wide, tall = _cell_sides(lattice)
    return max(wide / tall, tall / wide)


def _part_of(lattice: np.ndarray, held: np.ndarray) -> bool:
    """Whether `lattice` lies on part of the grid whose lattice `held` is (`held` lying
    well on the lines: a weak one may be the page around a grid): its cells far less
    square (NOT_SQUARE), or a smaller side with cells of the held ones' size (SAME_PITCH)
    inside the held outline, to half a cell (the 4x4 of two boxes of an 8x8 lay at 0.884
    on the lines, the 8x8 lattice around it at 0.876)."""
    if _cell_aspect(lattice) >= NOT_SQUARE * _cell_aspect(held):
        return True
    cell, held_cell = np.mean(_cell_sides(lattice)), np.mean(_cell_sides(held))
    if lattice.shape[0] >= held.shape[0] or abs(cell / held_cell - 1.0) > SAME_PITCH:
        return False
    contour = corners_of(held).reshape(-1, 1, 2).astype(np.float32)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -0.5 * held_cell
               for x, y in corners_of(lattice))


# A smaller grid with thin light-grey lines, which binarize in part only, lies on them
# less well than GOOD_FIT; it still counts from LARGE_GOOD_FIT when it lies this much
# better than every 9x9 lattice found (the page's outline taken for a 9x9 grid lies at
# about 0.5). It is judged once all outlines were tried: a noisy 9x9 photo's first
# outline may trace a 4x4 or 6x6 lattice at 0.8 before its own 9x9 lattice is traced.
CLEARLY_BETTER_FIT = 0.2


# A 9x9 lattice traced along faint lines as well as the binarized ink counts when it lies
# on them this well: unbroken thin lines where every line of the lattice runs.
FAINT_FIT = 0.95
# ... and when lines through the cells' middles lie on far less ink: ink everywhere (the
# negative of a dark photo, where the table turns light) lies under any lattice. Faint
# killer grids measured 0.15-0.27 there, the negative of a dark photo 0.98.
FAINT_MID = 0.5


def midlines(lattice: np.ndarray) -> np.ndarray:
    """The lattice of lines through the middles of `lattice`'s cells."""
    return (lattice[:-1, :-1] + lattice[1:, 1:]) / 2


def _lattice_in(binary: np.ndarray, outline: np.ndarray, size: int, line_ink=None):
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


# A runner-up refinement (see refined_outlines) wins only by this much fit: the fit
# saturates near 1, and a snapped outline lying at 1.0 against 0.999 had its lattice
# 4.6 px off (shadow stripes, seed 904006); the pulled corners it puts right lay at
# 0.86-0.96 against its 1.0.
RUNNER_UP_MARGIN = 0.02


def refined_outlines(binary: np.ndarray, outline: np.ndarray,
                     size: int) -> list[tuple[np.ndarray, bool]]:
    """(outline, whether it is the runner-up) pairs: the outline trimmed to the grid's own
    rules (see trimmed_outlines), each also with its sides moved onto the grid's outer
    lines (see snap_outline) where that moves it. Of such a pair the more grid-like comes
    first; the other is the runner-up, which counts only when its lattice lies on the lines
    at CLEAR_FIT and clearly better (RUNNER_UP_MARGIN; see _lattice_in).

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


DARK_GROUND = 110  # a picture's commonest grey below this may be a dark-mode screenshot
GROUND_SHARE = 0.2  # ... when this share of its pixels is that grey (flat, not a photo)


def dark_ground(gray: np.ndarray) -> bool:
    """Whether the picture looks like a dark-mode screenshot: a flat dark ground."""
    counts = np.convolve(np.bincount(gray.ravel(), minlength=256), np.ones(5), "same")
    ground = int(counts.argmax())
    return ground < DARK_GROUND and counts[ground] >= GROUND_SHARE * gray.size


UNDER_EXPOSED = 100  # a photo whose lightest percent is darker than this grey


def brightened(gray: np.ndarray) -> np.ndarray:
    """An under-exposed photo stretched to the full grey range: its faint rules then clear
    the local threshold's margin. (Stretching every low-contrast photo was tried: real
    photos of normal exposure read worse.)"""
    low, high = np.percentile(gray, [1, 99])
    if high >= UNDER_EXPOSED:
        return gray
    lut = np.clip((np.arange(256) - low) * 255.0 / max(1.0, high - low), 0, 255)
    return lut.astype(np.uint8)[gray]


def locate_either_way(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grey picture with dark ink on light ground, grid corners, lattice).

    Dark-mode apps draw light lines and digits on a dark ground. Any picture in which no
    grid is found, or whose grid's lines are lighter than its ground, is also tried
    inverted (a negative). A picture with a flat
    dark ground is read both inverted and as it is (a photo on a dark table, or an
    under-exposed one, has one too): the reading whose grid has ground lighter than its
    lines wins, and of two such, the one whose lattice lies better on its lines.
    """
    if not dark_ground(gray):
        try:
            corners, lattice = locate(gray)
        except RecognitionError as error:
            # A negative, or light print on a dark page photographed on a light table.
            inverted = 255 - gray
            try:
                corners, lattice = locate(inverted)
            except RecognitionError:
                raise error from None
            if not ground_lighter_than_lines(inverted, lattice):
                raise
            return inverted, corners, lattice
        if ground_lighter_than_lines(gray, lattice):
            return gray, corners, lattice
        # The lattice found has lines lighter than its ground: a dark page photographed
        # on a light table, where the page's edge and the grid's light rules can trace a
        # smaller grid. The negative's lattice wins when its own ground is lighter.
        inverted = 255 - gray
        try:
            found = locate(inverted)
        except RecognitionError:
            return gray, corners, lattice
        if ground_lighter_than_lines(inverted, found[1]):
            return (inverted, *found)
        return gray, corners, lattice
    found, error = [], None
    for candidate in (255 - gray, gray):
        try:
            corners, lattice, fit = located(candidate)
        except RecognitionError as e:
            error = error or e
            continue
        lighter = ground_lighter_than_lines(candidate, lattice)
        if lighter and fit >= GOOD_FIT and candidate is not gray:
            # A dark-mode grid, inverted, lying well on its lines: the picture as it is
            # shows its dark ground between light lines, no grid to weigh against it.
            return candidate, corners, lattice
        fit = lattice_fit(binarize(candidate), lattice)
        found.append(((lighter, fit), candidate, corners, lattice))
    if not found:
        raise error
    _, picture, corners, lattice = max(found, key=lambda f: f[0])
    return picture, corners, lattice


# The lattice found in the sharpened picture of one far out of focus replaces the one
# found as it is when it lies this much better on the sharpened picture's lines.
# Synthetic photos defocused by 10 % of a cell (fresh seeds 16 500 000+): the grid placed
# wrong, on the page's edge or the photo's, lay at 0.19-0.46 and the grid's own lattice
# found after sharpening at 0.61-0.71; where the plain lattice was right, the sharpened
# picture's own lattice lay 0.09-0.70 below it, or on the same lines.
SHARPENED_BETTER = 0.1


def locate_through_blur(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """locate_either_way, and on a picture far out of focus whose lattice does not lie well
    on its lines, again on the picture sharpened (focus.sharpened_picture): the lattice
    lying clearly better on the sharpened lines wins. The picture returned is never the
    sharpened one (the cells are read from the picture as it is, focus.py)."""
    sharp = sharpened_picture(gray)
    try:
        found = locate_either_way(gray)
    except RecognitionError:
        if sharp is None:
            raise
        found = None
    if sharp is None:
        return found

    def sharp_fit(lattice: np.ndarray, inverted: bool) -> float:
        return lattice_fit(binarize(255 - sharp if inverted else sharp), lattice)

    if found is not None:
        fit = sharp_fit(found[2], found[0] is not gray)
        if fit >= GOOD_FIT:
            return found
    try:
        picture, corners, lattice = locate_either_way(sharp)
    except RecognitionError:
        if found is None:
            raise
        return found
    inverted = picture is not sharp
    if found is not None and (lattice.shape != found[2].shape
                              or sharp_fit(lattice, inverted) < fit + SHARPENED_BETTER):
        return found
    return (255 - gray if inverted else gray), corners, lattice


def ground_lighter_than_lines(gray: np.ndarray, lattice: np.ndarray) -> bool:
    """Whether the grid's ground is lighter than its lines, as ink on paper is. Relative,
    not against a fixed grey: an under-exposed photo has dark paper with darker lines."""
    lines = np.zeros(gray.shape, np.uint8)
    points = np.round(lattice).astype(np.int32)
    for k in range(lattice.shape[0]):
        cv2.polylines(lines, [np.ascontiguousarray(points[k]), np.ascontiguousarray(points[:, k])],
                      False, 1, 1)
    inside = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners_of(lattice)).astype(np.int32), 1)
    ground = (inside > 0) & (lines == 0)
    if not lines.any() or not ground.any():
        return False
    return float(np.median(gray[ground])) > float(np.median(gray[lines > 0]))


def read_lattice(gray: np.ndarray) -> np.ndarray:
    """The (SIZE+1)^2 grid line intersections in `gray`'s pixels."""
    return locate(gray)[1]


CLASSIC_GIVENS = 12  # this many large, confidently read digits make a 9x9 grid classic
CLASSIC_CONFIDENCE = 0.99
LARGE_DIGIT = 0.4  # a given's height as a share of the cell; cage sums are smaller
# Taller than this is not a digit but ink joined along the cell, such as a dotted cage
# outline with its sum, which the digit model can take for a 1.
TALLEST_DIGIT = 0.8
# A given's box centre lies this close to the cell's centre, across and down (many fonts
# sit high or low in their cells; a cage sum sits in the top-left corner).
CENTRED_ACROSS, CENTRED_DOWN = 0.12, 0.2
UPRIGHT = 1.15
# The soft-photo digit model's share of a soft grid's reading, the main model's the rest.
# The two models err on different cells, and either alone is surer when wrong. Chosen on
# synthetic soft photos only (bench/soft_share.py, 1 267 soft grids of seeds 61 000 000+
# and 62 000 000+: a Gaussian, a lens's disk and a tilted page's defocus, 6-12 % of a
# cell), as the share with the fewest cells misread at p > 0.9, the misreads the repair
# does not question: 0 / 0.5 / 0.6 / 1 give 2 063 / 744 / 728 / 1 455 (cells misread
# 8 208 / 6 568 / 6 351 / 6 372); 0.6 also lies lower in likelihood loss than 0.5.
SOFT_SHARE = 0.6


def digit_view(gray: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """The grid straightened for the digit model, sharpened when it is out of focus."""
    return in_focus(straighten(gray, lattice))


def cell_probabilities(gray: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """(n, n, 10) probabilities of blank, 1..9 for each cell of a 9x9 or smaller grid."""
    return read_cells(gray, lattice)[0]


def read_cells(gray: np.ndarray, lattice: np.ndarray,
               features: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, int]:
    """(cell probabilities, how many cells hold a large, centred digit read with p > 0.9:
    a given, not a cage sum in a corner). `features`: read_grid_cells' output, if known."""
    n = lattice.shape[0] - 1
    views = focus_views(straighten(gray, lattice))
    features, boxes = features or read_grid_cells(views[0], n)
    if len(views) > 1:
        # An out-of-focus grid: its blur is only estimated, so its digits are read at
        # each plausible sharpening and the readings averaged (focus.py); the boxes, for
        # telling givens, stay the first view's.
        features = np.concatenate([features, *(read_grid_cells(view, n)[0]
                                               for view in views[1:])])
        probs = soft_grid_probabilities(features, len(views))
    else:
        probs = load_model().predict_proba(features)
    probs = probs.reshape(n, n, -1)
    x0, y0, x1, y1 = np.moveaxis(boxes, -1, 0)
    centred = ((np.abs((x0 + x1) / 2 - 0.5) < CENTRED_ACROSS)
               & (np.abs((y0 + y1) / 2 - 0.5) < CENTRED_DOWN))
    upright = (y1 - y0) >= UPRIGHT * (x1 - x0)  # digits are taller than wide; cage boxes not
    height = y1 - y0
    given = ((1.0 - probs[..., 0] > 0.9) & (height >= LARGE_DIGIT) & (height <= TALLEST_DIGIT)
             & centred & upright)
    return probs, int(given.sum())


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


def read_upright_killer(gray: np.ndarray, colour: np.ndarray, corners: np.ndarray,
                        turns: int, n: int = SIZE, box: tuple[int, int] = (3, 3)):
    """The killer reader run on the picture turned upright (cage sums sit in the top-left
    corners of their cells), with its lattice brought back to `gray`'s pixels. `box`: the
    boxes' rows and columns, upright."""
    if not turns:
        return read_killer(gray, corners, colour, n, box)
    killer = read_killer(turn_picture(gray, turns), turn_points(corners, turns, gray.shape),
                         turn_picture(colour, turns), n, box)
    turned_shape = gray.shape if turns % 2 == 0 else gray.shape[::-1]
    killer.lattice = turn_points(killer.lattice, 4 - turns, turned_shape)
    return killer


SMALL_CELL = 40  # a grid whose cells are smaller than this in the working picture ...
SHRUNK = 1.2  # ... of an upload shrunk at least this much is read again at full resolution
CROP_MARGIN = 0.6  # cells of margin around the grid in that crop


def killer_evidence(killer, n: int) -> float:
    """The probability that an n x n grid the killer reader read is a killer (kind.py)."""
    illegible = set(killer.illegible)
    legible = [s for s in killer.sums if tuple(s.cell) not in illegible]
    head_sums = [s.candidates[0] for s in legible if tuple(s.cell) in killer.heads]
    total = numbers_total(sum(top.value for top in head_sums),
                          sum(s.candidates[0].value for s in legible if not unread(s)), n)
    cage_size = {min(cage): len(cage) for cage in regions(killer.walls_right, killer.walls_down)}
    bounds = [cage_sum_range(cage_size.get(cell, 1), n) for cell in illegible]
    doubtful = [cage_sum_range(cage_size.get(tuple(s.cell), 1), n) for s in legible
                if tuple(s.cell) in killer.heads and s.candidates[0].prob < SURE_SUM]
    return killer_probability(
        killer.walls_right, killer.walls_down, len(killer.heads), killer.numbered_heads,
        total, doubtful_total=sum(top.value for top in head_sums if top.prob < SURE_SUM),
        unknown=(sum(lo for lo, _ in bounds), sum(hi for _, hi in bounds)),
        placed=killer.placed,
        doubtful_range=(sum(lo for lo, _ in doubtful), sum(hi for _, hi in doubtful)))


def _killer_as_shown(gray: np.ndarray, lattice: np.ndarray, colour: np.ndarray, n: int):
    """(killer read, box fields) of the grid as the picture shows it, unturned; None
    when too few of its cages' first cells hold a number either."""
    boxes = _box_fields(gray, lattice) if n != SIZE else {}
    killer = read_killer(gray, corners_of(lattice), colour, n, boxes.get("box", (3, 3)))
    return (killer, boxes) if killer.numbered_heads >= min_heads(n) else None


def full_resolution_grid(image: bytes, lattice: np.ndarray, scale: float, inverted: bool):
    """(region, (grey picture, corners, lattice) in the region's pixels) for a small grid
    in a big upload, or None.

    A grid covering a tenth of a page screenshot keeps cells of about 25 px once the page
    is shrunk to the working size, and its cage sums (a fifth of a cell) shrink to 5 px,
    too small to read. The grid found in the shrunk picture is cut out of the upload at
    full resolution (at most the working size a side), and its lines traced again there
    from where they were found: looking for the outline afresh in the crop could join the
    page's text around it to the grid.
    """
    n = lattice.shape[0] - 1
    cell = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / n
    if scale < SHRUNK or cell >= SMALL_CELL:
        return None
    corners = corners_of(lattice) * scale
    lo = corners.min(axis=0) - CROP_MARGIN * cell * scale
    hi = corners.max(axis=0) + CROP_MARGIN * cell * scale
    region = decode_region(image, (lo[0], lo[1], hi[0], hi[1]))
    if region is None or region.scale > 0.95 * scale:
        return None  # no finer than the working picture: nothing to gain
    gray = 255 - region.gray if inverted else region.gray
    mapped = (lattice * scale - np.array(region.origin)) / region.scale
    binary = binarize(gray)
    traced, rows, cols = trace_lattice(binary, corners_of(mapped), n)
    if rows[[0, -1]].all() and cols[[0, -1]].all() and \
            lattice_fit(binary, traced) >= lattice_fit(binary, mapped):
        mapped = traced
    return region, (gray, corners_of(mapped), mapped)


def corners_of(lattice: np.ndarray) -> np.ndarray:
    """Grid corners TL, TR, BR, BL of a lattice."""
    return np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])


def recognize(image: bytes, kind: str = "auto") -> Reading:
    """Read a classic or killer sudoku from a photo or screenshot (JPEG, PNG, ...).

    kind="auto" tells the two apart (see kind.py for what a wrong explicit kind does).
    The grid's side (4, 6, 8, 9, 12 or 16) and box shape come from its lines (shape.py);
    killers are read at the sides in KILLER_SIDES (6x6 and 9x9).
    """
    if kind not in ("auto", "sudoku", "killer", "nonogram"):
        raise RecognitionError(f"unknown puzzle kind {kind!r}: choose 'auto', 'sudoku', "
                               "'killer' or 'nonogram'")
    clock = time.perf_counter()
    gray, scale, (width, height) = decode(image)
    if kind in ("auto", "nonogram"):
        # A nonogram's clues beside its grid are told first: its grid must never be read
        # as a sudoku's (see nonogram_reading.py).
        reading = nonogram_reading(image, kind, (gray.copy(), scale, (width, height)))
        if reading is not None:
            return reading
    timings: dict[str, float] = {"decode": round(time.perf_counter() - clock, 4)}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = round(now - clock, 4)
        clock = now

    gray = brightened(gray)
    as_decoded = gray
    gray, corners, lattice = locate_through_blur(gray)
    origin = (0.0, 0.0)
    colour = None  # decoded when a stage needs it

    def in_colour() -> np.ndarray:
        nonlocal colour
        if colour is None:
            colour = decode_colour(image, gray.shape)
        return colour

    lap("grid")
    region = full_resolution_grid(image, lattice, scale, gray is not as_decoded)
    if region is not None:
        region, (gray, corners, lattice) = region
        as_decoded, scale, origin, colour = region.gray, region.scale, region.origin, \
            region.colour
        lap("grid_full_resolution")
    shown = lattice  # as the picture shows it, before any turn
    lattice, turns, features = stand_upright(gray, lattice)
    corners = corners_of(lattice)
    lap("orientation")
    size = lattice.shape[0] - 1
    if size not in KILLER_SIDES:
        return _other_size_reading(gray, lattice, features, kind, scale, origin,
                                   (width, height), turns, timings, lap)
    probs, large_digits = read_cells(gray, lattice, features)
    lap("cells")
    killer, warnings, kind_extra = None, [], {}
    if kind == "auto" and large_digits >= classic_givens(size) and \
            not cage_walls_seen(gray, lattice, in_colour()):
        # Many large digits and no cage walls: a classic grid. (A killer in progress holds
        # many large digits too, the person's own, but shows its cages.) The cage reader,
        # the slow stage, is not asked.
        read_as, confidence = "sudoku", CLASSIC_CONFIDENCE
    elif kind == "sudoku" and large_digits >= classic_givens(size):
        read_as, confidence = "sudoku", CLASSIC_CONFIDENCE  # as asked, and it looks so
    else:
        # Boxes from the lattice found (6x6: 2x3 or 3x2), so that the killer lattice
        # traces the box lines first.
        boxes = _box_fields(gray, lattice) if size != SIZE else {}
        killer = read_upright_killer(gray, in_colour(), corners, turns, size,
                                     boxes.get("box", (3, 3)))
        p_killer = killer_evidence(killer, size)
        if turns and p_killer <= 0.5:
            # Turned by the digits' vote, yet the cages' first cells do not hold the
            # numbers a killer's do in their top-left corners: the voters may have been
            # cage outline pieces (small cells, closely dashed corners and one-cell boxes
            # the digit model took for digits). A killer's sums stand it upright as
            # surely as digits do: the picture as shown is read too, and kept when it
            # is the killer the turned one is not.
            as_shown = _killer_as_shown(gray, shown, in_colour(), size)
            p_shown = killer_evidence(as_shown[0], size) if as_shown is not None else 0.0
            if p_shown > 0.5:
                (killer, boxes), p_killer = as_shown, p_shown
                lattice, turns, features = shown, 0, read_grid_cells(
                    digit_view(gray, shown), size)
                probs, large_digits = read_cells(gray, lattice, features)
        read_as, confidence, warnings = decide(
            kind, p_killer, sums_found=killer.numbered_heads >= min_heads(size))
        lap("killer")
        if read_as == "killer":
            lattice = killer.lattice  # traced among the cage outlines
            probs = killer_cells(gray, lattice, killer)
            # A killer in progress: the person's digits and notes are no givens.
            sum_cells = {tuple(s.cell) for s in killer.sums} | set(killer.heads)
            probs, kind_extra = read_marks(in_colour(), gray, lattice, sum_cells, probs)
            lap("killer_cells")
    if read_as == "sudoku" and size != SIZE:
        return _other_size_reading(gray, lattice, features, "sudoku", scale, origin,
                                   (width, height), turns, timings, lap,
                                   kind_confidence=confidence, warnings=warnings)

    # Half-solved pages (cell_kinds.py): printed givens told from the person's digits and
    # pencil notes. Light-ground classic grids only: dark mode's colours are inverted.
    if read_as == "sudoku" and gray is as_decoded:
        probs, kind_extra = half_solved_reading(in_colour(), lattice, probs)
        lap("cell_kinds")

    probs = probs / probs.sum(axis=-1, keepdims=True)
    extra = reading_fields(killer) if killer is not None and read_as == "killer" else {}
    if size != SIZE:
        extra |= boxes
    return Reading(kind=read_as, kind_confidence=round(confidence, 4), size=size,
                   cells=probs.tolist(), image_size=(width, height), rotation=90 * turns,
                   warnings=warnings + extra.pop("warnings", []), timings=timings,
                   **_geometry(lattice, scale, origin, width, height), **extra, **kind_extra)


def _geometry(lattice: np.ndarray, scale: float, origin: tuple[float, float], width: int,
              height: int) -> dict:
    """Corners and cell quads back in the uploaded image's pixels, kept inside it."""
    n = lattice.shape[0] - 1
    lattice = lattice * scale + np.array(origin)
    lattice[..., 0] = np.clip(lattice[..., 0], 0, width - 1)
    lattice[..., 1] = np.clip(lattice[..., 1], 0, height - 1)
    quads = [[_points(np.array([lattice[r, c], lattice[r, c + 1], lattice[r + 1, c + 1],
                                lattice[r + 1, c]])) for c in range(n)] for r in range(n)]
    return {"corners": _points(corners_of(lattice)), "cell_quads": quads}


KILLER_SIDES_ONLY = ("this grid is {n}x{n}: killer sudoku are read from pictures at "
                     + " and ".join(f"{k}x{k}" for k in KILLER_SIDES)
                     + " only. Send it with kind 'sudoku' or 'auto', or type the cages in")


def _box_fields(gray: np.ndarray, lattice: np.ndarray) -> dict:
    """The Reading's box, box_confidence and (when the shape is a guess) a warning, from
    which of the grid's lines are thick."""
    n = lattice.shape[0] - 1
    (box_rows, box_cols), box_clarity = box_shape(gray, lattice)
    warnings = [UNCLEAR_BOXES.format(n=n, r=box_rows, c=box_cols)] \
        if box_clarity < CLEAR_BOXES else []
    return dict(box=(box_rows, box_cols), box_confidence=round(box_clarity, 4),
                warnings=warnings)


def _other_size_reading(gray: np.ndarray, lattice: np.ndarray, features: tuple, kind: str,
                        scale: float, origin: tuple[float, float],
                        image_size: tuple[int, int], turns: int,
                        timings: dict, lap, kind_confidence: float = 1.0,
                        warnings: list[str] | None = None) -> Reading:
    """A classic grid of a side other than 9: its box shape from the thick lines, its
    symbols (digits, or letters in 16x16 grids) read cell by cell."""
    n = lattice.shape[0] - 1
    if kind == "killer":
        raise RecognitionError(KILLER_SIDES_ONLY.format(n=n))
    boxes = _box_fields(gray, lattice)
    probs, symbols = read_symbols(gray, lattice, features)
    lap("cells")
    width, height = image_size
    return Reading(kind="sudoku", kind_confidence=round(kind_confidence, 4), size=n,
                   symbols=symbols, cells=probs.tolist(), image_size=image_size,
                   rotation=90 * turns, warnings=[*(warnings or []), *boxes.pop("warnings")],
                   timings=timings, **boxes, **_geometry(lattice, scale, origin, width, height))


CLEAR_BOXES = 0.5  # box clarity (shape.box_shape) below this: the shape is a guess
UNCLEAR_BOXES = ("the {n}x{n} grid's box lines are hard to tell from the others: it was "
                 "read with boxes of {r} rows by {c} columns; check that this is right")
