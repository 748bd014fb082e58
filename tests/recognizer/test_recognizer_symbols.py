"""The symbols of grids above 9x9: values printed as two digits, as letters after 9, or as
letters only, read glyph by glyph in fonts and styles held out of the symbol model.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.puzzles import make_sudoku
from gridsight.training.symbols import (
    HELD_OUT_STYLE,
    font_split,
    held_out_accuracy,
)
from services.contracts import symbol_text
from services.recognizer import recognize
from services.recognizer.cells.symbols import SYMBOL_MODEL_PATH, fold, load_symbol_model
from services.recognizer.grid.shape import box_shapes
from services.solver import solve_reading

from .conftest import read_digits, to_bytes
from .sizes_pictures import (
    assert_cells_read_and_solved,
    assert_right_or_reviewed,
    assert_solved_exactly,
    held_out_picture,
    picture,
    serif_letters_picture,
)

# Glyph accuracy of the shipped symbol model on held-out fonts + style. Each held-out font
# family alone is measured by bench/symbol_families.py (floor FAMILY_FLOOR there).
SYMBOL_FLOOR = 0.96


@pytest.mark.parametrize("symbols", ["digits", "hex", "letters"])
def test_16x16_in_each_convention_in_held_out_fonts_and_style(symbols):
    fonts = font_split()[1]
    data, givens, solution = picture(16, (4, 4), 20 + len(symbols), HELD_OUT_STYLE, symbols,
                                     font=fonts[len(symbols) % len(fonts)])
    reading = recognize(data)
    assert (reading.size, tuple(reading.box), reading.symbols) == (16, (4, 4), symbols)
    result = assert_solved_exactly(reading, givens, solution)
    assert result.symbols == symbols


def test_box_shapes_and_folding():
    assert box_shapes(6) == [(2, 3), (3, 2)]
    assert box_shapes(16) == [(4, 4)]
    assert box_shapes(12) == [(3, 4), (4, 3)]
    # A 6x6 cell the digit model called a 9 with some doubt: the 9's share is spread
    # over the values a 6x6 grid can hold, it does not all go to one of them.
    probs = np.array([0.0, 0.05, 0.0, 0.0, 0.0, 0.0, 0.45, 0.0, 0.0, 0.5])
    folded = fold(probs, 6)
    assert folded.shape == (7,) and np.isclose(folded.sum(), 1.0)
    assert folded[6] > folded[1] > 0.05


def test_symbol_text_conventions():
    assert [symbol_text(v, "digits") for v in (9, 10, 16)] == ["9", "10", "16"]
    assert [symbol_text(v, "hex") for v in (9, 10, 16)] == ["9", "A", "G"]
    assert [symbol_text(v, "letters") for v in (1, 9, 16)] == ["A", "I", "P"]


def test_shipped_symbol_model_loads_and_meets_its_floor():
    assert SYMBOL_MODEL_PATH.stat().st_size < 3_000_000
    model = load_symbol_model()
    assert model.info["held_out_style"] == HELD_OUT_STYLE
    scores = held_out_accuracy(model, grids=3, seed=770_000)
    worst = min(v for k, v in scores.items() if not k.endswith("glyphs"))
    assert worst >= SYMBOL_FLOOR, scores


@pytest.mark.parametrize(("seed", "convention"), [
    (755512, "digits"),  # slab-serif 12s whose digits touch: read as one speck, blank
    (755536, "digits"),  # a 10 whose 0 nearly touches the right line: read as 1
])
def test_glyphs_touching_each_other_or_the_lines_are_read(seed, convention):
    data, givens, solution = held_out_picture(16, (4, 4), seed, convention)
    reading = recognize(data)
    assert (reading.size, reading.symbols) == (16, convention)
    assert_right_or_reviewed(reading, givens, solution)


@pytest.mark.parametrize(("size", "seed", "convention", "photo"), [
    # The 0 of a 10 as round as an O (geometric sans faces): the symbol model says O, which
    # the digits convention does not hold, and the 10 was read as a 1.
    (12, 954015, "digits", False),  # Quicksand
    (16, 955075, "digits", False),  # Quicksand Light
    # The 1 of a 10 or 16 left of the middle, thin and tall: dropped as a line's remnant,
    # the number read as its second digit (a 16 as a 6).
    (16, 955033, "digits", False),  # Universalis bold condensed
    (12, 954524, "digits", True),
    # A glyph touching a line whose edge lies half below the stroke level (the lattice a
    # half pixel off): joined with it into a speck, the cell read as blank at p >= 0.93
    # (on 954542 the answer was given as solved without the 2).
    (16, 955020, "letters", False),  # a J's serif on the top line
    (12, 954542, "digits", True),  # a 2 set high
])
def test_glyph_classes_read_in_held_out_faces(size, seed, convention, photo):
    box = (4, 4) if size == 16 else (3, 4)
    data, givens, solution = held_out_picture(size, box, seed, convention, photo=photo)
    reading = recognize(data)
    assert (reading.size, reading.symbols) == (size, convention)
    assert_right_or_reviewed(reading, givens, solution)


def test_each_convention_reads_0_or_o_and_1_or_i_as_the_value_it_holds():
    """Symbol readings of O for a 10's second glyph and I for its first: the digits
    convention reads 10 (and 12 for I then 2); a lone 0 is an O in the letters convention."""
    from services.recognizer.cells.symbols import SYMBOL_CLASSES, _values

    def glyph(name):
        p = np.full(len(SYMBOL_CLASSES), 1e-4)
        p[SYMBOL_CLASSES.index(name)] = 1.0
        return p

    digit_one = np.zeros(9)
    digit_one[0] = 1.0
    ten = _values("digits", 16, np.stack([digit_one, np.eye(9)[5]]),
                  np.stack([glyph("I"), glyph("O")]))
    assert ten.argmax() == 9 and ten[9] > 0.5
    lone_zero = _values("letters", 16, np.eye(9)[5][None], glyph("0")[None])
    assert lone_zero.argmax() == 14  # O
    twelve = _values("digits", 16, np.stack([digit_one, np.eye(9)[1]]),
                     np.stack([glyph("I"), glyph("digit")]))
    assert twelve.argmax() == 11
    lone_i = _values("digits", 16, np.eye(9)[8][None], glyph("I")[None])
    assert lone_i.max() < 0.01  # no 1: a heavy 10 as one glyph reads I-like



def test_a_glyph_joined_to_a_grid_line_is_doubted():
    """A bold P set high in its cell, its bowl's top on the grid line: the stroke along
    the line is cleared with it and the rest reads F at 0.98. The answer was given as
    `solved` with F (16x16 screenshot 955014); the glyph's strokes run on from the line,
    so its reading is doubted. (The picture's own looks put every P right, and the puzzle
    settles the thin margins left, so the answer may go out as `solved`, but only with
    the Ps read as P.)"""
    from services.recognizer.cells.symbols import joins_a_line

    data, givens, solution = held_out_picture(16, (4, 4), 955014, "letters", photo=False)
    reading = recognize(data)
    result = solve_reading(reading)
    read = np.asarray(reading.cells).argmax(axis=2)
    assert result.status in ("solved", "needs_review")
    assert result.status != "solved" or (
        result.solution == solution and (read[np.asarray(givens) == 16] == 16).all())
    # The test of joining: a glyph whose stem runs on from the top line, and one apart.
    ink = np.zeros((48, 48), np.float32)
    ink[:3] = 1.0  # the line along the top
    ink[10:34, 20:24] = 1.0  # a stem ...
    ink[12:16, 20:32] = 1.0  # ... with a bar: an F, standing apart
    assert not joins_a_line(ink)
    ink[3:10, 20:24] = 1.0  # the stem carried on up into the line
    assert joins_a_line(ink)


@pytest.mark.parametrize(("seed", "convention", "photo", "misread"), [
    # Both 12s of a face read as 6 (p 0.78-0.85), a 6 that is also printed six times.
    (1400015, "digits", False, 12),
    # Every M of a face read as A (p 0.89-0.997): no M was read at all.
    (1400505, "letters", True, 13),
])
def test_a_symbol_read_in_two_looks_is_parted(seed, convention, photo, misread):
    """A grid is printed in one face: the cells of the symbol the model takes another for
    fall into a second, clearly different look beside the real ones, and are read as the
    symbol never read (or whose cells they look like)."""
    data, givens, solution = held_out_picture(16, (4, 4), seed, convention, photo=photo)
    reading = recognize(data)
    read = read_digits(reading)
    givens = np.asarray(givens)
    assert np.array_equal(read[givens == misread], givens[givens == misread])
    result = solve_reading(reading)
    assert result.status != "solved" or result.solution == solution


def test_looks_of_one_symbol_are_not_parted():
    """Cells of one look stay as read; cells of a second look go to the absent symbol the
    model likes best, or to the symbol whose cells they look like."""
    from services.recognizer.cells.glyph_looks import absent_symbols_read_apart

    rng = np.random.default_rng(0)

    def looks_near(centre, k):
        out = centre + 0.05 * rng.standard_normal((k, centre.size))
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    a, b, c = (v / np.linalg.norm(v) for v in rng.standard_normal((3, 64)))
    n = 16
    probs = np.full((n, n, n + 1), 1e-4)
    probs[..., 0] = 1.0
    looks = {}
    cells = [(r, col) for r in range(n) for col in range(n)]
    for cell, look in zip(cells[:8], looks_near(a, 8), strict=True):  # real 1s
        probs[cell] = 1e-4
        probs[cell][1] = 0.99
        looks[cell] = look
    for cell, look in zip(cells[8:14], looks_near(b, 6), strict=True):  # 13s read as 1
        probs[cell] = 1e-4
        probs[cell][1], probs[cell][13], probs[cell][7] = 0.9, 0.05, 0.04
        looks[cell] = look
    for value in range(2, n + 1):  # every other symbol but 13 read once, in a look of c
        if value != 13:
            cell = cells[20 + value]
            probs[cell] = 1e-4
            probs[cell][value] = 0.99
            looks[cell] = looks_near(c, 1)[0] if value == 5 else looks_near(
                rng.standard_normal(64), 1)[0]
    out = absent_symbols_read_apart(probs, looks)
    assert [int(np.argmax(out[cell])) for cell in cells[8:14]] == [13] * 6
    assert [int(np.argmax(out[cell])) for cell in cells[:8]] == [1] * 8
    one_look = dict(looks)
    for cell in cells[8:14]:
        one_look[cell] = looks_near(a, 1)[0]
    assert np.array_equal(absent_symbols_read_apart(probs, one_look), probs)



@pytest.mark.parametrize(("seed", "convention"), [
    (61000008, "letters"),  # GentiumAlt J, its hook in the bottom line: read I 0.57
    (61000081, "digits"),  # Lato Bold 12 read 9 at 0.994
    (1400024, "digits"),  # Lato Black 12 read 9 at 0.998
])
def test_a_lone_twin_of_another_symbols_cells_is_read_as_that_symbol(seed, convention):
    """A cell whose look is a twin of another symbol's cells (as alike as they are to each
    other) and clearly unlike its own symbol's cells is a lone misread of that symbol,
    however surely the model read it; the grid is read exactly and solved."""
    data, givens, solution = held_out_picture(16, (4, 4), seed, convention, photo=False)
    assert_solved_exactly(recognize(data), givens, solution)


def test_a_cell_only_half_like_another_symbols_cells_keeps_its_reading():
    """A Pagella J set low shows its top serif, which the line took from its other Js:
    unlike them (0.62), 0.94 like an I but no twin of the Is (0.99 among them). It was
    moved to I, 0.98 sure after the looks' runner-up check, and the grid went to review;
    read J as the model read it (0.92), the grid is solved."""
    data, givens, solution = held_out_picture(16, (4, 4), 61000101, "letters", photo=False)
    assert_solved_exactly(recognize(data), givens, solution)


def test_a_lone_twin_moved_first_leaves_its_group_to_be_parted():
    """Two P052 Bold Ps read F: one a twin of the grid's Ps, the other only 0.94 like
    them. Moved alone first, the twin left its fellow the only odd F, no look of its own,
    and it stayed F; the looks are parted as the model read them, and both go to P."""
    data, givens, solution = held_out_picture(16, (4, 4), 61000032, "letters", photo=False)
    assert_solved_exactly(recognize(data), givens, solution)

def test_a_look_moves_to_the_symbol_each_of_its_cells_is_nearer():
    """Four P052 Bold Ps read F (0.6-0.93) are 0.95-0.998 like the grid's Ps and each at
    most 0.72-0.85 like its Fs; one P was 0.85 like an F, and the look stayed F while the
    move asked the least P-like cell to be 0.1 more like a P than the most alike pair
    across the two looks. Each cell is now held to its own likeness to the Fs."""
    data, givens, solution = held_out_picture(16, (4, 4), 65000110, "letters", photo=False)
    assert_solved_exactly(recognize(data), givens, solution)


def test_a_symbol_of_few_cells_rules_out_a_runner_up_unlike_them():
    """A C059 photo's three Es, read 0.5-0.6 E and 0.2-0.3 L, are 0.96-0.99 alike and no
    more than 0.64 like any of its Ls: L is ruled out although E holds only three cells
    (the grid went to review with every cell read right)."""
    data, givens, solution = held_out_picture(16, (4, 4), 66500005, "letters", photo=True)
    assert_solved_exactly(recognize(data), givens, solution)


def test_cells_read_with_a_stroke_given_back_make_no_second_look():
    """Four DejaVu Serif Js read J with their hooks given back from a line (0.6 J, 0.3 I)
    look, so rebuilt, 0.63-0.69 like the grid's other Js: their symbol is not one of two
    looks for that, and the Is they are unlike are ruled out (the grid went to review
    with every cell read right)."""
    data, givens, solution = held_out_picture(16, (4, 4), 64000053, "letters", photo=False)
    assert_solved_exactly(recognize(data), givens, solution)


def test_cells_read_with_a_stroke_given_back_move_to_the_symbol_they_are_twins_of():
    """Three NimbusSansNarrow Bold Ms set high, their peaks joined along the top line,
    read D (0.28-0.34) with the line given back; as cut they are twins of the grid's Ms
    (0.99) and unlike its Ds: they move to M."""
    data, givens, solution = held_out_picture(16, (4, 4), 64000122, "letters", photo=False)
    assert_solved_exactly(recognize(data), givens, solution)


def test_a_runner_up_unlike_its_own_cells_is_ruled_out():
    """Every M of a face the model never saw is read 0.5 M / 0.3 H: where the grid's Hs
    look nothing like its Ms, H is ruled out and the Ms are sure; a cell that does look
    like the Hs, and a runner-up no cell is read as, keep their doubt."""
    from services.recognizer.cells.glyph_looks import runner_ups_unlike_their_cells

    rng = np.random.default_rng(1)

    def looks_near(centre, k):
        out = centre + 0.05 * rng.standard_normal((k, centre.size))
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    m_look, h_look = (v / np.linalg.norm(v) for v in rng.standard_normal((2, 64)))
    n, m, h, never_read = 16, 13, 8, 6
    probs = np.full((n, n, n + 1), 1e-4)
    probs[..., 0] = 1.0
    looks = {}
    cells = [(r, c) for r in range(n) for c in range(n)]
    for cell, look in zip(cells[:6], looks_near(m_look, 6), strict=True):  # doubtful Ms
        probs[cell] = 1e-4
        probs[cell][m], probs[cell][h], probs[cell][never_read] = 0.5, 0.3, 0.19
        looks[cell] = look
    for cell, look in zip(cells[6:12], looks_near(h_look, 6), strict=True):  # sure Hs
        probs[cell] = 1e-4
        probs[cell][h] = 0.99
        looks[cell] = look
    out = runner_ups_unlike_their_cells(probs, looks)
    for cell in cells[:6]:
        assert out[cell][h] < 0.05 and out[cell][m] > 0.75
        assert out[cell][never_read] == probs[cell][never_read]
    assert all(abs(out[cell][h] - probs[cell][h]) < 1e-3 for cell in cells[6:12])
    # The Ms drawn like the Hs: nothing in the picture speaks against H.
    alike = dict(looks)
    for cell, look in zip(cells[:6], looks_near(h_look, 6), strict=True):
        alike[cell] = look
    assert np.allclose(runner_ups_unlike_their_cells(probs, alike), probs)


def test_a_stroke_lying_on_a_grid_line_is_given_back_to_its_glyph():
    """A serif bold face set high: the top arm of an F or E lies on the grid line and is
    cleared with it, and the arm's end serif, cut off from the stem, is dropped as a
    line's remnant. The rest read H (F) and L (E); now the line between the stem and the
    serif is read as the glyph's too, and every cell of this grid is read right."""
    from gridsight.synth.render import render_sudoku as render

    font = next(f for f in font_split()[1] if f.endswith("/C059-Bold.otf"))
    rng = random.Random(101)
    givens, solution = make_sudoku(rng, 16, (4, 4))
    image = render(givens, font=font, style=HELD_OUT_STYLE, box=(4, 4),
                   cell_px=rng.randint(26, 40), seed=101, jitter=rng.uniform(0, 0.04),
                   symbols="letters")
    reading = recognize(to_bytes(image))
    read = read_digits(reading)
    for cell in ((0, 7), (3, 0), (8, 5)):  # an F read H, two Es read L
        assert read[cell] == givens[cell[0]][cell[1]]
    assert_right_or_reviewed(reading, givens, solution)


def test_strokes_along_a_line_join_one_glyph_only():
    """The rule itself: ink hanging from a wiped line beside a glyph that meets the line
    (an F's arm serif) is joined to it along the line; two glyphs meeting the line (the
    digits of an 11) are not joined."""
    from services.recognizer.cells.symbols import glyph_masks, strokes_along_lines

    ink = np.zeros((48, 48), np.float32)
    ink[:3] = 1.0  # the top line, the F's arm inside it
    ink[3:36, 14:21] = 1.0  # the stem, from the line down
    ink[18:22, 14:28] = 1.0  # the middle arm
    ink[3:11, 31:36] = 1.0  # the top arm's serif, hanging from the line
    parts = glyph_masks(ink)
    assert len(parts) == 1 and not parts[0][3:11, 31:36].any()  # the serif was dropped
    given = strokes_along_lines(ink, parts)
    assert given is not None
    glyph = given[1][0]
    assert glyph[3:11, 31:36].all() and glyph[1:3, 14:36].all()
    ones = np.zeros((48, 48), np.float32)
    ones[:3] = 1.0
    ones[3:36, 12:17] = 1.0
    ones[3:36, 28:33] = 1.0
    assert len(glyph_masks(ones)) == 2 and strokes_along_lines(ones, glyph_masks(ones)) is None


def test_a_two_digit_number_read_surely_when_split_is_no_speck():
    """A slab face's 12 whose 1 and 2 touch at their feet: as one glyph a digit at 0.76
    and a speck at 0.20, its halves a sure 1 and 2. The speck chance of the one-glyph cut
    was the cell's blank runner-up (0.204), and a grid read right went to review; a cut
    reading every glyph surely now bounds it. A smudge whose halves still read partly as
    specks keeps its own."""
    from services.recognizer.cells.symbols import OTHER_CUT, SPECK, SYMBOL_CLASSES, _cell_values

    data, givens, solution = held_out_picture(16, (4, 4), 8455000, "digits", photo=False)
    reading = recognize(data)
    assert np.asarray(reading.cells)[15, 8, 0] < 0.05
    assert_solved_exactly(reading, givens, solution)

    def glyphs(*specks, weight=1.0):  # (digit model's 1..9, symbol model's classes) of
        symbols = np.zeros((len(specks), len(SYMBOL_CLASSES)))  # each glyph; the weight
        symbols[:, 0], symbols[:, SPECK] = 1 - np.asarray(specks), specks
        return np.full((len(specks), 9), 1 / 9), symbols, weight

    split = OTHER_CUT  # the halves of a wide glyph
    assert _cell_values("digits", 16, [glyphs(0.2), glyphs(0.001, 0.001, weight=split)])[1] < 0.01
    assert _cell_values("digits", 16, [glyphs(0.9), glyphs(0.7, 0.7, weight=split)])[1] == \
        pytest.approx(0.9)


@pytest.mark.parametrize(("seed", "photo", "cell"), [
    (8455025, False, (8, 13)),  # an 8 set high: read blank at 0.51
    (7055531, True, (12, 1)),  # a 4: read blank at 0.96
    (7055501, True, (15, 15)),  # a 3: read blank at 0.84
])
def test_a_line_wider_than_the_edge_band_is_cleared_at_its_own_width(seed, photo, cell):
    """A heavy line three rows wide, its inner edge row stroke-dark only where a glyph
    touches it: the fixed edge band (two rows at 48 px a cell) cleared the rest of the
    line, that row stayed and, read with the glyph, made it a speck."""
    data, givens, solution = held_out_picture(16, (4, 4), seed, "hex", photo=photo)
    reading = recognize(data)
    assert read_digits(reading)[cell] == givens[cell[0]][cell[1]]
    assert_right_or_reviewed(reading, givens, solution)


@pytest.mark.parametrize(("seed", "cells", "value"), [
    # Old-style figures (Fanwood): the 1 of a 16 stands x-height tall beside the
    # ascending 6, was joined to it as its serif, and the whole read as a 4 (0.82-0.88).
    (10555015, ((3, 3), (4, 15), (15, 2)), 16),
    # A bold 11 whose serifs touch: as one glyph a digit at 0.53 (6 at 0.42), a speck at
    # 0.22; its halves a sure 1 and 1 lost to that unsure glyph (read 9 at 0.37).
    (10555006, ((15, 5),), 11),
])
def test_a_two_digit_number_is_read_as_its_two_digits(seed, cells, value):
    data, givens, solution = held_out_picture(16, (4, 4), seed, "digits", photo=False)
    assert_cells_read_and_solved(data, givens, solution, cells, value)


def test_a_short_piece_joined_as_a_serif_is_also_read_apart():
    """The rule itself: a piece much shorter than its neighbour joins it (a serif, a
    broken stroke), and the gaps' own cut, the two pieces apart, is offered beside it."""
    from services.recognizer.cells.symbols import glyph_masks, short_piece_apart

    ink = np.zeros((48, 48), np.float32)
    ink[22:38, 12:16] = 1.0  # an old-style 1, x-height tall
    ink[10:38, 20:34] = 1.0  # an ascending 6
    parts = glyph_masks(ink)
    assert len(parts) == 1
    apart = short_piece_apart(parts)
    assert apart is not None and len(apart) == 2
    assert apart[0][22:38, 12:16].all() and not apart[0][:, 20:].any()
    assert apart[1][10:38, 20:34].all() and not apart[1][:, :20].any()
    six = ink.copy()
    six[:, :18] = 0.0
    assert short_piece_apart(glyph_masks(six)) is None  # one glyph, no gap


@pytest.mark.parametrize(("font", "seed", "cells", "value"), [
    # A serif J whose hook curves along the bottom line: the curve is cleared with the
    # line, the ball ending it is too small to count as a serif, and the J read as I
    # (at up to 0.99, and moved to I by its I-like look). On main: needs_review.
    ("DejaVuSerif-Bold.ttf", 203, ((7, 8), (8, 3)), 10),
    # A serif E set high: its top arm lies on the line, the arm's hairline end serif is
    # a piece of 8 px, 14 px from the stem. On main: E read L, the repair failed.
    ("Fanwood.otf", 206, ((0, 12), (4, 4)), 5),
])
def test_a_stroke_end_too_small_for_a_serif_still_gives_its_stroke_back(font, seed, cells, value):
    data, givens, solution = serif_letters_picture(font, seed)
    assert_cells_read_and_solved(data, givens, solution, cells, value)


def test_a_small_stroke_end_counts_only_near_its_glyph():
    """The rule itself: a ball hanging from the bottom line just beside a J's stem (its
    hook's curve on the line) is joined to the J along the line, and the cut is no longer
    trusted alone; the same ball far off to the side of an I is not."""
    from services.recognizer.cells.symbols import glyph_masks, strokes_along_lines

    ink = np.zeros((48, 48), np.float32)
    ink[45:] = 1.0  # the bottom line
    ink[9:45, 20:28] = 1.0  # the stem, down to the line
    ink[9:12, 16:32] = 1.0  # its top serif
    ink[41:45, 13:17] = 1.0  # the hook's ball, 16 px: less than a serif
    parts = glyph_masks(ink)
    assert len(parts) == 1 and not parts[0][41:45, 13:17].any()
    given = strokes_along_lines(ink, parts)
    assert given is not None and given[2]  # ink the cut left out was taken
    assert given[1][0][41:45, 13:17].all() and given[1][0][45:47, 13:28].all()
    far = np.zeros((48, 48), np.float32)
    far[45:] = 1.0
    far[9:45, 10:18] = 1.0  # an I set left
    far[9:12, 6:22] = 1.0
    far[41:45, 34:38] = 1.0  # the ball 16 px off, beyond the I's span: no stroke of it
    assert strokes_along_lines(far, glyph_masks(far)) is None
    near = far.copy()
    near[41:45, 34:38] = 0.0
    near[41:45, 24:28] = 1.0  # 6 px off: the I's stroke end, as the J's above
    assert strokes_along_lines(near, glyph_masks(near)) is not None
