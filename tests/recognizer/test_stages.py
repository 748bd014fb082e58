"""Each picture pays only for the stages it needs: the Reading's `stages` (stages.py) shows
which costly stages the reader entered, and a stage that every picture would pay for
cannot slip in unseen. Deterministic: which stages ran, never how long they took."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.killer_render import in_progress, render_killer
from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_killer, make_nonogram, make_sudoku
from gridsight.synth.render import render_sudoku
from services.recognizer import recognize
from services.recognizer.cells.digits import read_cells, stand_upright
from services.recognizer.cells.half_solved import half_solved_reading, print_only_fields
from services.recognizer.cells.kinds import CELL
from services.recognizer.grid.decode import decode, decode_colour
from services.recognizer.grid.exposure import brightened, locate_through_blur
from services.recognizer.grid.straighten import straighten
from tests.recognizer.conftest import to_bytes

CLUE_READER, CAGE_READER, HALF_SOLVED = "nonogram_clues", "cages", "cell_kinds"
DIGITS_OUT = "cage_walls: digits out"


@pytest.fixture(scope="module")
def printed_screenshot() -> bytes:
    givens, _ = make_sudoku(random.Random(4300))
    return to_bytes(render_sudoku(givens, style="screenshot", seed=4300))


def test_a_printed_screenshot_skips_the_nonogram_and_half_solved_readers_and_cage_test(
        printed_screenshot):
    reading = recognize(printed_screenshot, "auto")
    assert reading.kind == "sudoku"
    assert "nonogram_look" in reading.stages and "print_look" in reading.stages
    assert not {CLUE_READER, "cage_walls", CAGE_READER, HALF_SOLVED} & set(reading.stages)
    # Nobody wrote on it: every cell blank or printed, as the digit model reads it.
    kinds = np.asarray(reading.cell_kinds).argmax(axis=-1)
    digits = np.asarray(reading.cells).argmax(axis=-1)
    assert np.array_equal(kinds, (digits > 0).astype(int))


def test_an_app_screenshot_in_colour_skips_the_cage_test():
    """Coloured givens and tinted thin lines lying between two pixel columns are print and
    grid: no cage's outline or fill is in the blank cells, so cage_walls_seen need not
    look."""
    givens, _ = make_sudoku(random.Random(4302))
    reading = recognize(to_bytes(render_sudoku(givens, style="app", seed=4302)), "auto")
    assert reading.kind == "sudoku"
    assert "cage_look" in reading.stages
    assert not {"cage_walls", CAGE_READER, HALF_SOLVED} & set(reading.stages)


def test_the_print_look_gives_the_fields_the_half_solved_reading_gives_a_print_page(
        printed_screenshot):
    """What the cheap look puts in the Reading is what the skipped stage would have."""
    gray, _, _ = decode(printed_screenshot)
    gray, _, lattice = locate_through_blur(brightened(gray))
    lattice, _, features = stand_upright(gray, lattice)
    probs, _ = read_cells(gray, lattice, features)
    colour = decode_colour(printed_screenshot, gray.shape)
    kept, fields = half_solved_reading(colour, lattice, probs,
                                       straighten(colour, lattice, CELL))
    assert np.array_equal(kept, probs)
    assert fields == print_only_fields(probs)


def test_a_dark_printed_screenshot_gets_the_print_look_alone():
    """A dark theme's grid is read ink-dark (as its grey picture is): a screenshot of
    print alone is told by the cheap print look, no half-solved reading."""
    givens, _ = make_sudoku(random.Random(4311))
    reading = recognize(to_bytes(render_sudoku(givens, style="dark", seed=4311)), "auto")
    assert reading.kind == "sudoku"
    assert reading.stages[-1] == "print_look"
    assert not {CLUE_READER, CAGE_READER, HALF_SOLVED} & set(reading.stages)
    kinds = np.asarray(reading.cell_kinds).argmax(axis=-1)
    digits = np.asarray(reading.cells).argmax(axis=-1)
    assert np.array_equal(kinds, (digits > 0).astype(int))


def test_a_plain_photo_skips_the_cage_reader_and_the_print_look_sends_it_on():
    givens, _ = make_sudoku(random.Random(4301))
    image = render_sudoku(givens, style="screenshot", seed=4301, cell_px=44)
    photo, _ = photograph(image, rng=np.random.default_rng(4301), fill=(0.7, 0.9),
                          rotation=5, out_size=(1024, 768))
    reading = recognize(to_bytes(photo, "JPEG", quality=90), "auto")
    assert reading.kind == "sudoku"
    assert CAGE_READER not in reading.stages
    # Its walls are plainly too few: the large digits are not painted out to look again.
    assert "cage_walls" in reading.stages and DIGITS_OUT not in reading.stages
    # A photo's paper is never flat: a person may have written on it.
    assert reading.stages[-2:] == ["print_look", HALF_SOLVED]


def test_an_app_screenshot_with_the_persons_digits_gets_the_half_solved_reading():
    page = half_solved_page(4302, app=True)
    reading = recognize(to_bytes(page.image), "auto")
    assert HALF_SOLVED in reading.stages
    assert np.asarray(reading.cell_kinds).argmax(axis=-1).max() >= 2  # entries or notes


def test_a_killer_skips_the_nonogram_and_half_solved_readers():
    rng = random.Random(4303)
    puzzle, _ = make_killer(rng, size=9)
    reading = recognize(to_bytes(render_killer(puzzle, style="print", seed=4303)), "auto")
    assert reading.kind == "killer"
    assert CAGE_READER in reading.stages
    assert not {CLUE_READER, HALF_SOLVED, "print_look"} & set(reading.stages)


def test_a_killer_in_progress_has_its_walls_looked_at_without_the_persons_digits():
    # As many large digits as a classic grid: the cage test decides, and its walls are
    # many enough on the plain features to be looked at again with the digits painted out.
    rng = random.Random(4305)
    puzzle, solution = make_killer(rng, size=9)
    marks = in_progress(solution, rng, 0.45, 0.1)
    image = render_killer(puzzle, style="print", seed=4305, marks=marks)
    reading = recognize(to_bytes(image), "auto")
    assert reading.kind == "killer"
    assert ["cage_walls", DIGITS_OUT] == [s for s in reading.stages if s.startswith("cage_w")]


def test_a_nonogram_skips_the_sudoku_readers():
    rng = random.Random(4304)
    puzzle, _ = make_nonogram(rng, 10, 10, 0.5, smooth=1)
    reading = recognize(to_bytes(render_nonogram(puzzle, seed=4304)), "auto")
    assert reading.kind == "nonogram"
    assert reading.stages == ["nonogram_look", CLUE_READER]
