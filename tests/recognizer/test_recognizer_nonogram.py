"""Nonograms read from pictures, made by the project's own renderer.

Before the nonogram reader, kind=auto read a nonogram screenshot as a 9x9 sudoku (or
found no grid) and kind=nonogram was refused.
"""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
from PIL import Image

from gridsight.synth.nonogram_render import (
    CROSSED,
    FILLED,
    NONOGRAM_STYLES,
    half_filled_marks,
    render_nonogram,
)
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku, make_unique_nonogram
from gridsight.synth.render import render_sudoku
from services.contracts import ClueReading, SumCandidate
from services.recognizer import RecognitionError, recognize
from services.solver import solve_page

from .conftest import to_bytes


def clue_values(reading):
    def line(clue):
        values = [n.candidates[0].value for n in clue]
        return [] if values == [0] else values

    return [line(c) for c in reading.row_clues], [line(c) for c in reading.col_clues]


@pytest.mark.parametrize(("width", "height", "style", "held_out", "seed"), [
    (10, 10, "plain", False, 1),
    (15, 20, "app", False, 2),
    (20, 15, "grey", True, 3),  # held-out fonts
    (25, 25, "newspaper", False, 4),
    (30, 20, "pastel", True, 5),  # held-out style and fonts
])
def test_screenshot_is_read_and_solved_exactly(width, height, style, held_out, seed):
    puzzle, picture = make_unique_nonogram(random.Random(seed), width, height)
    image = render_nonogram(puzzle, style=style, seed=seed, held_out_fonts=held_out,
                            title=seed % 2 == 1)
    reading = recognize(to_bytes(image))  # kind=auto
    assert reading.kind == "nonogram"
    assert (reading.width, reading.height) == (width, height)
    assert clue_values(reading) == (puzzle.rows, puzzle.cols)
    lattice = np.asarray(image.info["lattice"])
    corners = np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])
    assert np.abs(np.asarray(reading.corners) - corners).max() < 3
    result = solve_page(reading)
    assert result.status == "solved", result.message
    assert result.solution == picture


def test_half_filled_screenshot_reads_marks_as_entries():
    puzzle, picture = make_unique_nonogram(random.Random(7), 15, 15)
    marks = half_filled_marks(picture, random.Random(7))
    image = render_nonogram(puzzle, style="app", seed=7, marks=marks)
    reading = recognize(to_bytes(image), "nonogram")
    read = np.asarray(reading.entries).argmax(axis=-1)
    assert (read == np.asarray(marks)).all()
    assert (np.asarray(marks) == FILLED).any() and (np.asarray(marks) == CROSSED).any()
    result = solve_page(reading)
    assert result.status == "solved" and result.solution == picture
    assert result.entries == marks and result.wrong_entries == []


def test_a_misread_clue_number_is_repaired_and_named():
    puzzle, picture = make_unique_nonogram(random.Random(8), 10, 10)
    reading = recognize(to_bytes(render_nonogram(puzzle, style="plain", seed=8)))
    # The first row's first number read as another value, its true one the runner-up.
    true = puzzle.rows[0][0]
    wrong = true + 1 if true < 9 else true - 1
    reading.row_clues[0][0] = ClueReading(candidates=[SumCandidate(value=wrong, prob=0.6),
                                                      SumCandidate(value=true, prob=0.4)])
    result = solve_page(reading)
    assert result.status == "needs_review"
    assert result.solution == picture
    assert [(s.what, s.row, s.col, s.read, s.chosen) for s in result.suspects] == [
        ("row_clue", 0, 0, wrong, true)]


def test_clues_that_cannot_hold_go_to_review_not_solved():
    puzzle, _ = make_unique_nonogram(random.Random(9), 10, 10)
    reading = recognize(to_bytes(render_nonogram(puzzle, style="plain", seed=9)))
    reading.row_clues[0] = [ClueReading(candidates=[SumCandidate(value=12, prob=1.0)])]
    result = solve_page(reading)  # 12 does not fit a line of 10, and nothing else was read
    assert result.status == "needs_review" and result.solution is None
    assert result.suspects


def test_photo_of_a_nonogram_is_read_as_one():
    puzzle, picture = make_unique_nonogram(random.Random(10), 10, 10)
    image = render_nonogram(puzzle, style="plain", seed=10, cell_px=40)
    photo, _ = photograph(image, rng=np.random.default_rng(10), fill=(0.85, 0.95),
                          out_size=(1600, 1200), rotation=3, perspective=0.03, clutter=False)
    reading = recognize(to_bytes(photo, "JPEG", quality=90))
    assert reading.kind == "nonogram"
    assert (reading.width, reading.height) == (10, 10)


def test_sudoku_picture_is_still_a_sudoku_and_not_a_nonogram():
    givens, _ = make_sudoku(random.Random(11))
    data = to_bytes(render_sudoku(givens, style="app", seed=11))
    assert recognize(data).kind == "sudoku"
    with pytest.raises(RecognitionError):
        recognize(data, "nonogram")


def bench_picture(seed: int, held_out: bool = True, photo: bool = True):
    """A nonogram drawn as bench/recognition_nonogram.py draws its sets: the held-out
    style (faint grey thin lines) and fonts, or the styles and fonts the reader was built
    on; a photo or a screenshot. (bytes, puzzle, picture)"""
    from gridsight.synth.nonogram_render import HELD_OUT_STYLES
    from gridsight.synth.puzzles import make_nonogram
    from services.solver import solve_puzzle

    rng = random.Random(seed)
    width, height = rng.choice((10, 15, 20, 25, 30)), rng.choice((10, 15, 20, 25, 30))
    while True:
        puzzle, picture = make_nonogram(rng, width, height, rng.uniform(0.45, 0.6), smooth=1)
        if solve_puzzle(puzzle).verdict == "unique":
            break
    styles = tuple(HELD_OUT_STYLES if held_out else NONOGRAM_STYLES)
    image = render_nonogram(puzzle, style=rng.choice(styles), seed=seed,
                            held_out_fonts=held_out, title=rng.random() < 0.5)
    if not photo:
        return to_bytes(image), puzzle, picture
    image, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.85, 0.95),
                          rotation=4, perspective=0.04, out_size=(2400, 1800))
    return to_bytes(image, "JPEG", quality=90), puzzle, picture


@pytest.mark.parametrize("seed", [805002, 900012])
def test_photo_of_faint_thin_lines_is_read_as_a_nonogram(seed):
    """Large photos of faint-lined grids, read as sudoku before: at the working size one
    was read, but its finer re-read found no web of lines (thin lines showing in part of
    the grid, 5x5 blocks elsewhere: the holes alike the median were none) and the working
    reading was dropped; the other's lines were miscounted at the working size (30x20 as
    15x23), so its clues were looked for beside the wrong lines, and the finer re-read was
    not tried. A grid counted wider than high is no sudoku: it is now read again finer."""
    data, puzzle, picture = bench_picture(seed)
    reading = recognize(data)
    assert reading.kind == "nonogram"
    assert (reading.width, reading.height) == (len(puzzle.cols), len(puzzle.rows))
    result = solve_page(reading)
    assert result.status in ("solved", "needs_review")
    assert result.status != "solved" or result.solution == picture


def test_photo_of_a_large_grid_whose_thin_lines_vanish_is_read_again_finer():
    """A 30x25 grid photographed at 2400 px: shrunk to the working size its thin lines
    vanish and the grid counts as its 6x5 blocks, beside which no clue is found. That
    verdict said "square" whatever the shape, so the picture passed for a sudoku with no
    clues and was read as a sudoku (bench photo 174027, 25x30, the same way). A grid
    counted wider or taller than square is read again finer."""
    from gridsight.synth.puzzles import make_nonogram
    from services.solver import solve_puzzle

    rng = random.Random(4)
    while True:
        puzzle, picture = make_nonogram(rng, 30, 25, rng.uniform(0.45, 0.6), smooth=1)
        if solve_puzzle(puzzle).verdict == "unique":
            break
    image = render_nonogram(puzzle, style="app", seed=4, held_out_fonts=False, title=True)
    image, _ = photograph(image, rng=np.random.default_rng(4), fill=(0.85, 0.95),
                          rotation=4, perspective=0.04, out_size=(2400, 1800))
    reading = recognize(to_bytes(image, "JPEG", quality=90))
    assert reading.kind == "nonogram"
    assert (reading.width, reading.height) == (30, 25)
    result = solve_page(reading)
    assert result.status != "solved" or result.solution == picture


@pytest.mark.parametrize("seed", [910002, 910007, 910032, 910016, 800010])
def test_touching_ones_and_broad_digits_are_told_by_the_face(seed):
    """Two 1s that touch ('11') were read as one '1' (the classifier reads both so), a
    lone '1' in a face with a broad foot as '11', and a slab face's '4', as wide as high,
    as two digits. The face's own 1s (the glyphs read surely as 1) set how wide a '1' is:
    a glyph read as 1 and much wider is two, one as narrow is one; a wide lone glyph is
    read both ways and the classifier's certainty decides."""
    data, puzzle, picture = bench_picture(seed, held_out=False, photo=False)
    reading = recognize(data)
    assert clue_values(reading) == (puzzle.rows, puzzle.cols)
    result = solve_page(reading)
    assert result.status == "solved" and result.solution == picture


def test_a_clue_number_larger_than_its_line_is_no_candidate():
    """A broad digit cut in two ('4' read as '44') cannot be a clue of a line of ten; a
    number none of whose candidates fits keeps them for the repair to weigh."""
    from services.recognizer.nonogram.clues import within_line

    def clue(*pairs):
        return ClueReading(candidates=[SumCandidate(value=v, prob=p) for v, p in pairs])

    fitted = within_line([clue((44, 0.5), (4, 0.36), (41, 0.09), (1, 0.05)),
                          clue((12, 0.7), (13, 0.3))], 10)
    assert [c.value for c in fitted[0].candidates] == [4, 1]
    assert fitted[0].candidates[0].prob == pytest.approx(0.36 / 0.41, abs=1e-5)
    assert [c.value for c in fitted[1].candidates] == [12, 13]


def test_two_touching_digits_of_a_broad_face_are_one_number_not_a_line():
    """Blurred in a photo, the two digits of a number in a broad face run together into
    one blob up to twice as wide as high ('20' beside a 25x10 grid: 1.73); such a blob
    was dropped as a piece of a line, and its row read with no clue at all."""
    from PIL import ImageDraw, ImageFont

    from gridsight.synth.fonts import find_font
    from services.recognizer.nonogram.clues import _blobs, digits_of

    font = ImageFont.truetype(find_font("DejaVuSans-Bold"), 30)
    image = Image.new("L", (120, 60), 255)
    draw = ImageDraw.Draw(image)
    draw.text((20, 10), "2", font=font, fill=0)
    draw.text((20 + font.getbbox("2")[2] - 4, 10), "0", font=font, fill=0)
    broad = cv2.resize(np.asarray(image), (150, 60), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(broad, (0, 0), 1.2)
    ink = (gray < 128).astype(np.uint8)
    darkness = (255 - gray).astype(np.float32) / 255
    blobs = _blobs(ink, lambda y0, y1, x0, x1: darkness[y0:y1, x0:x1])
    assert len(blobs) == 1 and 1.7 < blobs[0].w / blobs[0].h < 2.0
    assert len(digits_of(blobs)) == 2
    # A bar as long, as thin as a grid line, is still no number.
    bar = np.zeros((60, 150), np.uint8)
    bar[30:33, 20:60] = 1
    assert _blobs(bar, lambda y0, y1, x0, x1: bar[y0:y1, x0:x1].astype(np.float32)) == []


def test_the_classifiers_word_that_a_glyph_is_two_digits_raises_the_split_reading():
    """'12' of a narrow '1' run into a '2' is a glyph no wider than a '0' (0.86 of its
    height), read surely as '2': the width alone gave the split reading a prior of 0.45,
    which the single digit's certainty outweighed. The clue model also scores a lone
    glyph as two touching digits; that raises the prior (never lowers it)."""
    from services.recognizer.cells.glyphs import Glyph
    from services.recognizer.nonogram.clues import LOW_TWO_PRIOR, _two_prior

    glyph = Glyph(0, 0, 19, 22, np.ones((22, 19), np.float32))
    assert _two_prior(glyph, 0.01, None, None) == LOW_TWO_PRIOR
    assert _two_prior(glyph, 0.01, None, None, pair=0.9) == pytest.approx(0.9)
    assert _two_prior(glyph, 0.01, None, None, pair=0.1) == LOW_TWO_PRIOR
    # The width's prior odds scaled down (the clue model's fitted pair odds): the
    # classifier's word still stands.
    assert _two_prior(glyph, 0.01, None, None, pair=0.05, odds=0.1) == pytest.approx(
        0.45 * 0.1 / (0.55 + 0.45 * 0.1))
    assert _two_prior(glyph, 0.01, None, None, pair=0.9, odds=0.1) == pytest.approx(0.9)
    narrow = Glyph(0, 0, 10, 22, np.ones((22, 10), np.float32))
    assert _two_prior(narrow, 0.01, None, None, pair=0.9) is None  # plainly one digit


def test_lines_are_counted_past_missed_lines_and_cross_marks():
    """A person's filled cells hide the lines they run along from the local threshold,
    and cross marks leave ink inside a cell. The lines are counted by whole steps from the
    grid's first line, in a cell that most gaps are whole steps of."""
    from services.recognizer.nonogram.clues import _line_count

    def profile_of(lines, marks=()):
        profile = np.zeros(201)
        for k in lines:
            profile[max(0, 10 * k - 1):10 * k + 1] = 1.0
        for x in marks:
            profile[x:x + 2] = 1.0
        return profile

    every = range(21)
    assert _line_count(profile_of(every)) == 20
    # Two lines lost, a mark's ink a third of the way into a cell (was counted 21).
    assert _line_count(profile_of([k for k in every if k not in (7, 12)], marks=[143])) == 20
    # Most lines lost: the typical gap spans two cells, not one (was counted 10).
    assert _line_count(profile_of([0, 1, 2, 4, 6, 8, 10, 13, 16, 19, 20])) == 20


@pytest.mark.parametrize("seed", [75_200_004, 75_200_015, 75_200_024, 75_200_001])
def test_a_half_filled_grid_is_counted_by_its_lines(seed):
    """Grids a person half filled (half the solution's cells, a fifth of the rest crossed):
    most lines run along filled cells, where the local threshold lost them, and the grid
    was counted short or long (seeds 75 200 000+: size right on 25 of 30, now 30 of 30;
    the first three here were read 11x20, 10x16 and 17x6)."""
    from gridsight.synth.nonogram_render import HELD_OUT_STYLES
    from gridsight.synth.puzzles import make_nonogram

    rng = random.Random(seed)
    width, height = rng.choice([10, 15, 20, 25, 30]), rng.choice([10, 15, 20, 25, 30])
    puzzle, picture = make_nonogram(rng, width, height, rng.uniform(0.45, 0.6), smooth=1)
    marks = half_filled_marks(picture, rng, filled=0.5, crossed=0.2)
    image = render_nonogram(puzzle, style=rng.choice(sorted(NONOGRAM_STYLES | HELD_OUT_STYLES)),
                            seed=seed, marks=marks, held_out_fonts=rng.random() < 0.5)
    reading = recognize(to_bytes(image))
    assert (reading.kind, reading.width, reading.height) == ("nonogram", width, height)
