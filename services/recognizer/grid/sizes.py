"""Grids other than 9x9: a larger grid around a 9x9 found, a 9x9 block in a larger one,
and finer rulings that a 9x9 reading would miss."""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.grid.blocks import around
from services.recognizer.grid.fit import GOOD_FIT, lattice_in, midlines
from services.recognizer.grid.glyph_pitch import centred_glyphs
from services.recognizer.grid.lattice import (
    SIZE,
    corners_of,
    even_lattice,
    lattice_fit,
    widened_line_fits,
)
from services.recognizer.grid.outlines import (
    binarize,
    faint_lines,
    sides_continued,
    trimmed_outlines,
)
from services.recognizer.grid.shape import box_shape, lattice_count, nine_count
from services.recognizer.grid.tuning import (
    APART,
    BOXES_SHOWN,
    DIGITS_CENTRED,
    DIGITS_OWN,
    DIGITS_SEEN,
    INSIDE_LARGER,
    LINES_CLEARER,
    MIN_CELL_PX,
    NOT_SQUARE,
    OFF_LINE,
    OFF_PICTURE,
    ON_LINE,
    SAME_PITCH,
    SIDE_RUNS_ON,
    SOME_RUN_ON,
)


def digits_in_nine_cells(gray: np.ndarray, nine_digits: tuple[int, float],
                          other: np.ndarray) -> bool:
    """Whether the digits sit one to a cell of a 9x9 lattice (centred_glyphs there:
    `nine_digits`), and hardly any fit the cells of the `other` lattice of a smaller side
    (see DIGITS_SEEN)."""
    seen, centred = nine_digits
    if seen * centred < DIGITS_SEEN or centred < DIGITS_CENTRED:
        return False
    own, own_centred = centred_glyphs(gray, other)
    return own * own_centred < DIGITS_OWN * seen * centred


def lies_apart(outline: np.ndarray, corners: np.ndarray) -> bool:
    """Whether `outline` lies apart from the grid at `corners` (see APART)."""
    quad, grid = outline.astype(np.float32), corners.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(quad, grid)
    quad_area, grid_area = cv2.contourArea(quad), cv2.contourArea(grid)
    union = quad_area + grid_area - shared
    return quad_area <= grid_area and shared < APART * union


def not_alone(runs_on: np.ndarray) -> bool:
    """Whether lines running on past the sides (sides_continued) make a lattice a block
    of a larger grid's cells."""
    return bool(runs_on.mean() > 0.5 or (runs_on >= SIDE_RUNS_ON).sum() >= 2)


def grid_around(binary: np.ndarray, corners: np.ndarray, side: int, runs_on: np.ndarray,
                 line_ink):
    """(side, lattice_in's result) of the grid around a block whose lines run on past
    one side (see blocks.around) lying best on the lines, its own lines stopping at its
    sides; None when none does."""
    best = None
    height, width = binary.shape[:2]
    middle = tuple(float(v) for v in corners.mean(axis=0))
    for larger, widened in around(corners, side, runs_on, SIDE_RUNS_ON):
        for outline in trimmed_outlines(binary, widened, larger):
            if np.abs(outline - widened).max() < 1.0 or off_picture(outline, (height, width)) \
                    or cv2.pointPolygonTest(outline.astype(np.float32), middle, False) < 0:
                continue  # no rules of the larger grid found, or not around the block
            found = lattice_in(binary, outline, larger, line_ink)
            if found is None or found[2] < GOOD_FIT or \
                    (best is not None and found[2] <= best[1][2]):
                continue
            if sides_continued(binary, found[0], larger).max() >= SIDE_RUNS_ON:
                continue  # its lines too run on: a block still
            best = larger, found
    return best


def inside_larger(binary: np.ndarray, corners: np.ndarray) -> bool:
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


def counted_finer(gray: np.ndarray, outline: np.ndarray, found,
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
                shortest_side(quad) < MIN_CELL_PX * counted:
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
# cells (see digits_in_nine_cells). No block of a 4x4, 6x6 or 8x8's own cells has rules
# a third of a cell apart, and their digits are too tall for a 9x9 lattice's cells.
# Only lattices of fewer than two boxes' cells a side are looked into (a 4x4): more would
# need several ruled rows of the page beyond the grid.
BOX = 3  # a 9x9's boxes, in cells


def nine_in_a_block(gray: np.ndarray, binary: np.ndarray, lattice: np.ndarray, line_ink):
    """lattice_in's result for a 9x9 in the BOX x BOX block of the lattice's cells that
    shows all of a 9x9's rules counted line by line, or else holds the most digits one to
    a cell of a 9x9 lattice (see digits_in_nine_cells); None when no block does."""
    side = lattice.shape[0] - 1
    blocks = []
    for row in range(side - BOX + 1):
        for col in range(side - BOX + 1):
            quad = np.array([lattice[row, col], lattice[row, col + BOX],
                             lattice[row + BOX, col + BOX], lattice[row + BOX, col]], float)
            if shortest_side(quad) >= MIN_CELL_PX * SIZE:
                blocks.append(quad)
    chosen = next((quad for quad in blocks if nine_count(gray, quad) >= 1.0), None)
    if chosen is None and blocks:
        digits = [centred_glyphs(gray, even_lattice(quad, SIZE)) for quad in blocks]
        most = int(np.argmax([seen * centred for seen, centred in digits]))
        if digits_in_nine_cells(gray, digits[most], lattice):
            chosen = blocks[most]
    return None if chosen is None else lattice_in(binary, chosen, SIZE, line_ink)


def ruled_finer(light, corners: np.ndarray, side: int) -> bool:
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


def pitch_misses(ink: np.ndarray, nine: np.ndarray, light: np.ndarray) -> bool:
    """Whether the 9x9 lattice `nine` has a line over blank paper while every line of the
    smaller light lattice lies on ink (binarized or faint, widened as widened_fit does)."""
    return bool(widened_line_fits(ink, nine).min() < OFF_LINE
                and widened_line_fits(ink, light).min() >= ON_LINE)


def _standing_out(ink: np.ndarray, lattice: np.ndarray) -> float:
    """The lattice's weakest line on ink less its busiest line through the cells' middles
    (widened as widened_fit widens the ink)."""
    return float(widened_line_fits(ink, lattice).min()
                 - widened_line_fits(ink, midlines(lattice)).max())


def lines_clearer(ink: np.ndarray, light: np.ndarray, nine: np.ndarray) -> bool:
    """Whether the smaller light lattice's lines stand out of its cells' ink clearly more
    than the 9x9 lattice's do (see LINES_CLEARER)."""
    return _standing_out(ink, light) >= _standing_out(ink, nine) + LINES_CLEARER


# Sides a lattice of another side may be ruled into by light thin lines the outline's
# count (shape.grid_size) missed: the box lines of an 8x8 (2x4 boxes) make a 4x4 lattice
# lying on the binarized ink from GOOD_FIT up, its cells' middles on the thin lines.
# (A 16x16's light thin lines, closer together, were found too broken to stand out.)
FINER_SIDES = (8, 12, 16)


def ruled_finer_by_light_lines(gray: np.ndarray, found):
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
        traced = lattice_in(binary, corners, finer, lambda: (lines, ink))
        options = [even_lattice(corners, finer)]
        if traced is not None:
            options.append(traced[1])
        for option in options:
            out = _standing_out(ink, option)
            if out > bar:
                best, bar = (corners_of(option), option, lattice_fit(binary, option)), out
    return best


def encloses(corners: np.ndarray, side: int, inner: np.ndarray,
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


def off_picture(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    height, width = shape[:2]
    return bool((corners.min(axis=0) < -OFF_PICTURE).any()
                or (corners[:, 0] > width - 1 + OFF_PICTURE).any()
                or (corners[:, 1] > height - 1 + OFF_PICTURE).any())


def shortest_side(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())


def _cell_sides(lattice: np.ndarray) -> tuple[float, float]:
    """The lattice's cells' mean width and mean height."""
    return (float(np.linalg.norm(np.diff(lattice, axis=1), axis=-1).mean()),
            float(np.linalg.norm(np.diff(lattice, axis=0), axis=-1).mean()))


def _cell_aspect(lattice: np.ndarray) -> float:
    """How far the lattice's cells are from square (width over height, or its inverse)."""
    wide, tall = _cell_sides(lattice)
    return max(wide / tall, tall / wide)


def part_of(lattice: np.ndarray, held: np.ndarray) -> bool:
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
