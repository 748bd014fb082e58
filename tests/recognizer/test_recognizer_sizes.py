"""Sudoku of other sides read from pictures: 4x4 .. 16x16 and their box shapes.

A picture that is not a 9x9 sudoku must never be forced into one, and a 9x9 must stay
one: the side comes from counting the lattice's lines.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.recognizer import RecognitionError, recognize
from services.solver import solve_reading

from .conftest import bench_photo, givens_for, read_digits, to_bytes
from .sizes_pictures import (
    assert_right_or_reviewed,
    assert_solved_exactly,
    held_out_picture,
    lighter_lined_photo,
    picture,
)


@pytest.mark.parametrize(("size", "box", "style", "seed"), [
    (4, (2, 2), "screenshot", 1),
    (6, (2, 3), "app", 2),
    (6, (3, 2), "newspaper", 3),  # boxes three rows high: the thick lines say which
    (8, (2, 4), "thin", 4),
    (12, (3, 4), "bold", 5),
])
def test_screenshot_of_another_side_is_read_and_solved(size, box, style, seed):
    data, givens, solution = picture(size, box, seed, style)
    reading = recognize(data)
    assert (reading.kind, reading.size, tuple(reading.box)) == ("sudoku", size, box)
    assert len(reading.cell_quads) == size and len(reading.cells[0][0]) == size + 1
    result = assert_solved_exactly(reading, givens, solution)
    assert result.size == size and result.puzzle.box == box


@pytest.mark.parametrize(("size", "box", "seed"), [(4, (2, 2), 11), (6, (2, 3), 12)])
def test_photo_of_a_small_grid_is_read_and_solved(size, box, seed):
    data, givens, solution = picture(size, box, seed, "newspaper", photo=True)
    reading = recognize(data)
    assert (reading.size, tuple(reading.box)) == (size, box)
    assert_solved_exactly(reading, givens, solution)


def test_16x16_photo_is_never_forced_into_9x9():
    data, givens, solution = picture(16, (4, 4), 31, "newspaper", "hex", photo=True)
    reading = recognize(data)
    assert (reading.size, tuple(reading.box), reading.symbols) == (16, (4, 4), "hex")
    result = solve_reading(reading)
    # Doubt surfaces as needs_review; a "solved" answer must be the right one.
    assert result.status in ("solved", "needs_review")
    if result.status == "solved":
        assert result.solution == solution


def test_nine_by_nine_stays_nine_by_nine():
    data, givens, solution = picture(9, None, 41, "app", photo=True)
    reading = recognize(data)
    assert reading.size == 9 and reading.symbols is None
    assert_solved_exactly(reading, givens, solution)


def test_killer_is_not_read_from_an_8x8_picture():
    # Killers are read at 6x6 and 9x9 (tests/recognizer_killer/test_killer_six.py).
    data, _, _ = picture(8, (2, 4), 51)
    with pytest.raises(RecognitionError, match="8x8"):
        recognize(data, "killer")


@pytest.mark.parametrize("box", [(2, 3), (3, 2)])
def test_unclear_box_lines_are_settled_by_the_digits(box):
    """A 6x6 grid whose box lines are drawn as thin as the others: 2x3 or 3x2 cannot be
    told from the lines, so the reading warns; the digits make a puzzle with one shape
    only, and that shape's answer is given (main sent every such picture to review)."""
    from gridsight.synth.render import Style

    givens, solution = make_sudoku(random.Random(61), 6, box)
    flat = Style(thin=0.03, thick=0.03, outer=0.08)
    reading = recognize(to_bytes(render_sudoku(givens, style=flat, seed=61, box=box,
                                               cell_px=44)))
    assert reading.size == 6 and reading.box_confidence < 0.5
    assert any("box lines" in w for w in reading.warnings)
    result = solve_reading(reading)
    assert result.status == "solved" and "settled by the digits" in result.message
    assert tuple(result.puzzle.box) == box and result.solution == solution


@pytest.mark.parametrize("seed", [753503, 753517])
def test_8x8_photo_of_light_lines_is_not_read_as_the_page_around_it(seed):
    """Thin light-grey lines binarize in part: the 8x8 lattice lies on them at about 0.83,
    below the fit a 9x9 needs, and the page's outline was read as a 9x9 grid instead."""
    data, givens, solution = held_out_picture(8, (2, 4), seed)
    reading = recognize(data)
    assert (reading.size, tuple(reading.box)) == (8, (2, 4))
    assert_right_or_reviewed(reading, givens, solution)


@pytest.mark.parametrize(("seed", "lighter"), [(5253513, False), (123, True)])
def test_9x9_lattice_with_a_line_over_blank_paper_loses_to_a_light_8x8(seed, lighter):
    """The 8x8's light thin lines binarize in part, so its lattice lies below GOOD_FIT
    (0.81); a 9x9 lattice on the page's outline lay at 0.64 on the grid's rules and the
    page's text, too close for CLEARLY_BETTER_FIT. Line by line they differ: one of the
    9x9's lines runs over blank paper (0.10) while every 8x8 line lies on ink (0.56 up)."""
    data, givens, solution = (lighter_lined_photo(seed) if lighter
                              else held_out_picture(8, (2, 4), seed))
    reading = recognize(data)
    assert (reading.kind, reading.size, tuple(reading.box)) == ("sudoku", 8, (2, 4))


@pytest.mark.parametrize(("seed", "convention"), [(755506, "digits"), (755508, "letters")])
def test_16x16_photo_is_not_read_as_nine_of_its_own_rows_and_columns(seed, convention):
    """A shadow across a corner bends the best outline a little off the 16x16 grid: its
    lines then count as no side but 9, and nine rows and columns cut out of the grid by
    its own lines lie on them perfectly. The larger grid among the next outlines that
    encloses them with cells of their size wins."""
    data, givens, solution = held_out_picture(16, (4, 4), seed, convention)
    reading = recognize(data)
    assert (reading.size, tuple(reading.box), reading.symbols) == (16, (4, 4), convention)
    assert_right_or_reviewed(reading, givens, solution)


@pytest.mark.parametrize(("size", "box", "seed"), [
    (6, (2, 3), 5251524),  # a 4x4 lattice across the page's top half, cells twice as wide
    (8, (2, 4), 5253500),  # a 4x4 block of the 8x8 grid, one side's lines running on
    (8, (2, 4), 6253511),  # a 4x4 lattice on a hull cut short of the grid's corner
])
def test_a_lattice_of_another_side_lying_only_fairly_well_does_not_end_the_search(
        size, box, seed):
    """A skewed outline tried before the grid's own (a page, a hull cut short of a
    corner) traced a 4x4 lattice lying on lines at 0.85-0.88, and a side other than 9
    lying from GOOD_FIT up was taken at once: the grid's own outline, lying clearly
    better, was never tried. Such a lattice is now held as the best so far, and the
    outlines left, of every side, are tried."""
    data, givens, solution = held_out_picture(size, box, seed)
    reading = recognize(data)
    assert reading.size == size
    assert tuple(reading.box) == box
    assert_right_or_reviewed(reading, givens, solution)


def test_16x16_photo_whose_nine_rows_run_on_past_one_side_each_way_is_not_read_as_9x9():
    """A hull cut short of the 16x16 grid's corner traced a 9x9 lattice skewed over the
    grid's lines (cells a third taller than wide) lying at 0.99; its lines ran on 0.88
    below it, 0.38 and 0.5 left and right (digits beside the rest): neither a mean over
    INSIDE_LARGER nor two sides, so it was read at once. Lines running on past a side each
    way set it aside now, and the 16x16 grid enclosing it, lying at 1.0, wins though its
    cells are not the skewed lattice's size."""
    data, givens, solution = held_out_picture(16, (4, 4), 6255509, "digits")
    reading = recognize(data)
    assert reading.size == 16
    assert (reading.size, tuple(reading.box), reading.symbols) == (16, (4, 4), "digits")
    assert_right_or_reviewed(reading, givens, solution)


def test_12x12_photo_whose_bold_digits_flank_its_lines_is_not_read_as_9x9():
    """The page's outline is tried first and nine of the 12x12 grid's rows and columns
    lie on its lines perfectly; their lines run on past two sides (1.0 and 0.75), but
    bold digits beside them on one side looked like text there, the mean fell to 0.44,
    and the grid was read as 9x9. Two sides running on set the 9x9 aside too."""
    data, givens, solution = held_out_picture(12, (3, 4), 4800010, "hex")
    reading = recognize(data)
    assert (reading.size, tuple(reading.box), reading.symbols) == (12, (3, 4), "hex")
    assert_right_or_reviewed(reading, givens, solution)


def test_small_quads_between_digits_are_not_a_grid():
    """A 4x4 screenshot in which a quad of 40 px between the digits lay on lines as a
    9x9 lattice (cells of 4 px) and was read instead of the grid."""
    data, givens, solution = held_out_picture(4, (2, 2), 750017, photo=False)
    reading = recognize(data)
    assert (reading.size, tuple(reading.box)) == (4, (2, 2))
    assert_right_or_reviewed(reading, givens, solution)


@pytest.mark.parametrize("seed", [954563, 954566])
def test_blurred_box_lines_of_a_12x12_photo_are_clear_when_the_other_shape_is_not(seed):
    """A blurred photo spreads thin lines nearly as wide as the box lines: every third row
    line was only a little heavier than the heaviest thin one (clarity 0.45), and the
    right answer went to review as a guessed box shape, though 4x3 boxes' lines hold
    less ink than some thin lines."""
    data, givens, solution = held_out_picture(12, (3, 4), seed, "digits")
    reading = recognize(data)
    assert tuple(reading.box) == (3, 4) and reading.box_confidence >= 0.5
    assert_solved_exactly(reading, givens, solution)


@pytest.mark.parametrize("seed", [
    7000096,  # a 4x4 lattice on one box column, cells twice as tall as wide, at 0.93
    7000224,  # a 4x4 lattice on two boxes, cells of the 8x8's size, at 0.884 against 0.876
])
def test_a_block_of_an_8x8_does_not_beat_the_8x8_around_it(seed):
    """An 8x8 photo with light thin lines: its own lattice lies just above GOOD_FIT and
    is held as best while the other outlines are tried, and a 4x4 lattice on part of it
    lay better on the lines and was read. A lattice whose cells are far less square than
    the held one's, or a smaller one of the same cells inside it, is part of that grid."""
    data, givens, solution = held_out_picture(8, (2, 4), seed)
    reading = recognize(data)
    assert reading.size == 8
    assert_right_or_reviewed(reading, givens, solution)


def test_a_lattice_on_part_of_the_grid_held_is_told():
    from services.recognizer.grid.sizes import part_of

    def lattice(side, x0=0.0, y0=0.0, wide=40.0, tall=40.0):
        xs, ys = np.meshgrid(x0 + wide * np.arange(side + 1), y0 + tall * np.arange(side + 1))
        return np.stack([xs, ys], axis=-1)

    eight = lattice(8)
    assert part_of(lattice(4, x0=160, wide=40, tall=80), eight)  # one box column
    assert part_of(lattice(4, y0=160), eight)  # two boxes, cells of the 8x8's size
    assert not part_of(lattice(4, x0=400), eight)  # beside it: another grid
    assert not part_of(lattice(9, x0=-20, y0=-20), eight)  # a larger grid around it
    assert not part_of(lattice(4, wide=80, tall=80), eight)  # the same outline, coarser


@pytest.mark.parametrize("seed", [114, 30700032])
def test_light_8x8_whose_lines_stand_out_beats_a_9x9_over_the_page_text(seed):
    """The 8x8's lighter thin lines binarize in part: its lattice lies below GOOD_FIT
    (0.85, 0.77) and only 0.17 better than a 9x9 lattice traced over the grid's lower
    rows and the page's text. Judged on the same ink, every 8x8 line lies on more ink than
    any line through its cells' middles, while the 9x9 lattice has a middle line on the
    text nearly as busy as its weakest line, or busier (see LINES_CLEARER)."""
    data, givens, solution = lighter_lined_photo(seed)
    reading = recognize(data)
    assert (reading.kind, reading.size, tuple(reading.box)) == ("sudoku", 8, (2, 4))


@pytest.mark.parametrize("seed", [30700004, 30700007, 30700013])
def test_light_thin_lines_through_a_4x4_lattice_rule_it_into_the_8x8(seed):
    """Only the box lines of an 8x8 (2x4 boxes) with lighter thin lines count as rules:
    the outline is counted as 4x4, its lattice lies on the box lines (0.84-0.90) and
    the 8x8 is never traced. The thin lines run through the 4x4 cells' middles, busier
    than its weakest line; the 8x8 lattice in the same outline stands out of its cells'
    ink clearly more, or (30700013: -0.07 against 0.06) at all while the 4x4 does not."""
    data, givens, solution = lighter_lined_photo(seed)
    reading = recognize(data)
    assert (reading.kind, reading.size, tuple(reading.box)) == ("sudoku", 8, (2, 4))


@pytest.mark.parametrize(("size", "box", "seed", "convention"), [
    (16, (4, 4), 41800002, "digits"),  # counted 4x4 on its box lines, lying at 0.96
    (12, (3, 4), 41700001, "hex"),  # its 4x4 count lay at 0.74; refined, nine of its rows
])
def test_light_cell_lines_of_a_large_grid_are_counted_row_by_row(size, box, seed, convention):
    """The light grey cell lines of a photographed 12x12 or 16x16 lie a few grey levels
    below the paper: lost to the binarization and the faint lines alike, only the box
    lines counted, as a 4x4 grid (or none). Each cell line darkens its whole row's median
    while digits darken only part of theirs: counted row by row, every rule is there."""
    data, givens, solution = lighter_lined_photo(seed, size, box, convention)
    reading = recognize(data)
    assert (reading.kind, reading.size, tuple(reading.box)) == ("sudoku", size, box)
    assert_right_or_reviewed(reading, givens, solution)


@pytest.mark.parametrize(("box", "seed"), [
    ((3, 2), 9400002),  # counted 4x4 on its box lines
    ((3, 2), 9400005),  # read as 9x9
    ((3, 2), 9400015),  # no outline followed
    ((2, 3), 9500006),  # read as 9x9
])
def test_light_cell_lines_of_a_6x6_are_counted_row_by_row(box, seed):
    """A light-lined 6x6 photo shows only its box lines to the binarization, a 4x4-like
    lattice or none; counted row by row its cell lines are all there, and its box lines,
    heavier than the cell lines each way, show it is a grid of its own."""
    data, givens, solution = lighter_lined_photo(seed, 6, box)
    reading = recognize(data)
    assert (reading.kind, reading.size, tuple(reading.box)) == ("sudoku", 6, box)
    assert_right_or_reviewed(reading, givens, solution)


def test_a_block_of_a_9x9_in_a_deep_shadow_is_not_counted_as_a_6x6():
    """A deep shadow at the grid's corner hides the run of the cell lines past a block of
    a 9x9's cells; counted row by row, the block is a perfect 6x6 (every rule found). Its
    heavy lines lie every third line each way, where no 6x6 has its box lines: it stays
    a block of the 9x9 (bench seed 47306004, deep shadow at a grid corner)."""
    photo, givens, _ = bench_photo(47306004, corner_shadow=True)
    reading = recognize(to_bytes(photo, "JPEG", quality=90))
    assert (reading.kind, reading.size) == ("sudoku", 9)
    assert (read_digits(reading) == np.asarray(givens)).mean() >= 80 / 81


@pytest.mark.parametrize(("seed", "thin_line", "read_on_main"), [
    (9200004, None, "4x4"),  # the box lines and a row and a column of the page beyond
    (9200039, None, "4x4"),
    (9200066, None, "12x12"),  # that 4x4, its cells then ruled by the 9x9's thin lines
    (9200013, (228, 230, 236), "4x4"),  # that 4x4 lying at 0.86, taken at once
])
def test_a_light_lined_9x9_in_a_corner_shadow_is_read_as_9x9(seed, thin_line, read_on_main):
    """A 9x9 of light grey thin lines on a small photo shows only its box lines; with the
    page's edge and a deep shadow's edge running on from a grid side, a row and a column
    of the page beyond them were counted as a 4x4 grid lying on the lines better than the
    9x9 lattice. The grid's digits sit one to a cell of the 9x9 lattice, and none is of a
    4x4 cell's size (bench class "photo: light-lined, deep shadow at a grid corner"; the
    last with its thin lines lighter still)."""
    from dataclasses import replace

    from gridsight.synth.render import LIGHT_LINED

    style = LIGHT_LINED if thin_line is None else replace(LIGHT_LINED, line=thin_line)
    photo, givens, _ = bench_photo(seed, style=style, corner_shadow=True)
    reading = recognize(to_bytes(photo, "JPEG", quality=90))
    assert (reading.kind, reading.size) == ("sudoku", 9), f"read as {read_on_main} on main"
    assert (read_digits(reading) == np.asarray(givens)).mean() >= 78 / 81


def test_digits_sit_one_to_a_cell_of_their_own_grids_lattice():
    """The evidence that tells a 9x9 from a 4x4 laid over its boxes: a grid's digits are
    centred blobs of a digit's size for its own lattice's cells only (glyph_pitch)."""
    from services.recognizer.grid.glyph_pitch import centred_glyphs
    from services.recognizer.grid.lattice import even_lattice
    from services.recognizer.grid.sizes import DIGITS_SEEN

    nine = render_sudoku(givens_for(7), style="app", seed=7, cell_px=40)
    gray, lattice = np.asarray(nine.convert("L")), np.asarray(nine.info["lattice"], float)
    seen, centred = centred_glyphs(gray, lattice)
    assert seen >= 20 and centred >= 0.9
    assert centred_glyphs(gray, lattice[::3, ::3])[0] == 0  # its boxes as cells

    givens, _ = make_sudoku(random.Random(7), 4, (2, 2))
    four = render_sudoku(givens, style="app", seed=7, box=(2, 2), cell_px=40)
    gray, lattice = np.asarray(four.convert("L")), np.asarray(four.info["lattice"], float)
    seen, centred = centred_glyphs(gray, lattice)
    assert seen >= 4 and centred >= 0.9
    corners = lattice[[0, 0, -1, -1], [0, -1, -1, 0]]
    seen, centred = centred_glyphs(gray, even_lattice(corners, 9))
    assert seen * centred < DIGITS_SEEN  # its digits too tall for a 9x9 lattice's cells
