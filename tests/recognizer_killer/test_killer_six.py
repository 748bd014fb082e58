"""6x6 killers (2x3 boxes) read from pictures with kind=auto, as 9x9 ones are.

Before, a 6x6 killer picture was read as a classic 6x6 sudoku (its sums as givens), as a
4x4 or 9x9 grid, or not found at all. Each picture below stands for a class that failed
on the way: light app lines (no lattice lay on them), a grainy ground (the tracer followed
the grain), a picture whose light margin met the
padded frame's tint (a lattice on the frame's edge), solid cage outlines beside thin lines
taken for 3x3 box lines, and a heavy dotted print whose 4x4 corner block was read as a
4x4 grid; grain or a page's text beside the grid, which ran on past every side as the
lines of a larger grid would (read as 9x9, or no grid found at all).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.killer_render import on_page, pick_sum_font, render_killer
from gridsight.synth.killer_styles import ALL_STYLES, vary
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_killer
from gridsight.training.sums import cell_size, photo_options
from services.recognizer import RecognitionError, recognize
from services.recognizer.killer.kind import killer_probability
from services.solver import solve_reading

from .conftest import sums_read, to_bytes, walls_read


def six(seed: int, style: str, photo: bool = False, page: bool = False):
    """(picture bytes, puzzle, solution, image info) of a 6x6 killer drawn in a random
    variation of `style` (photographed when `photo`, set in a page of text when `page`),
    as bench/recognition_killer.py --side 6 draws its seed."""
    rng = random.Random(seed)
    puzzle, solution = make_killer(rng, size=6)
    look = vary(ALL_STYLES[style], rng)
    font = pick_sum_font(look, rng)
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_size(rng),
                          margin=rng.randint(6, 40), sum_font=font)
    info = dict(image.info)
    if photo:
        image, _ = photograph(image, rng=np.random.default_rng(seed), **photo_options(rng))
        return to_bytes(image, "JPEG", quality=90), puzzle, solution, info
    if page:
        image = on_page(image, rng)
    return to_bytes(image), puzzle, solution, info


def test_six_by_six_killers_are_generated_unique_with_sums_adding_to_126():
    for seed in range(3):
        puzzle, solution = make_killer(random.Random(seed), size=6)
        assert puzzle.size == 6 and sum(cage.sum for cage in puzzle.cages) == 126
        assert all(sorted(row) == list(range(1, 7)) for row in solution)
        image = render_killer(puzzle, style="web", seed=seed, cell_px=50)
        assert np.asarray(image.info["lattice"]).shape == (7, 7, 2)
        assert sum(image.info["sums"].values()) == 126


@pytest.mark.parametrize(("style", "seed", "photo"), [
    ("app", 1_600_000, False),  # light grey lines: only the faint-line trace lies on them
    ("textured", 1_604_001, False),  # grain: the tracer followed it; the even lattice lies
    ("textured", 1_604_000, False),  # grain ran on past every side: read as 9x9
    ("fills", 1_607_000, False),  # the padded frame's edge was taken for the outline
    ("thin_colour", 1_610_001, False),  # solid cage lines captured a thin line
    ("print", 1_602_001, False),  # its 4x4 corner block read as a 4x4 grid
    ("print", 1_611_000, True),  # printed and photographed
    ("print", 1_711_004, True),  # a heading over the grid: lines "ran on" past one side
])
def test_six_by_six_killer_is_read_and_solved(style, seed, photo):
    data, puzzle, solution, info = six(seed, style, photo)
    reading = recognize(data, "auto")
    assert (reading.kind, reading.size, tuple(reading.box)) == ("killer", 6, (2, 3))
    right, down = walls_read(reading)
    assert right.tolist() == info["walls_right"] and down.tolist() == info["walls_down"]
    assert sums_read(reading) == info["sums"]
    assert len(reading.cells[0][0]) == 7  # blank, 1..6
    result = solve_reading(reading)
    assert result.status == "solved", result.message
    assert result.solution == solution
    assert sum(cage.sum for cage in result.puzzle.cages) == 126


@pytest.mark.parametrize(("style", "seed"), [("print", 2_612_006), ("bold_serif", 2_612_002)])
def test_six_by_six_killer_in_a_page_of_text_is_found(style, seed):
    """A small grid among a page's lines of text: the text filled the bands beyond the
    grid's sides as the lines of a larger grid would, the 6x6 outline scored below any
    grid, and no grid was found."""
    data, puzzle, solution, info = six(seed, style, page=True)
    reading = recognize(data, "auto")
    assert (reading.kind, reading.size, tuple(reading.box)) == ("killer", 6, (2, 3))
    assert sums_read(reading) == info["sums"]
    result = solve_reading(reading)
    assert result.status == "solved" and result.solution == solution


def test_kind_evidence_weighs_the_six_by_six_total():
    walls = (np.full((6, 5), 0.6), np.full((5, 6), 0.6))
    assert killer_probability(*walls, heads=15, heads_with_numbers=15, sum_total=126) > 0.99
    # The same heads with numbers adding up to a 9x9 grid's total, or to far less: a
    # classic 6x6 page's digits taken for sums.
    assert killer_probability(*walls, heads=15, heads_with_numbers=15, sum_total=405) < 0.5
    assert killer_probability(*walls, heads=15, heads_with_numbers=7, sum_total=40) < 0.01


def test_a_classic_six_by_six_sent_as_killer_says_it_has_no_cage_sums():
    from gridsight.synth.puzzles import make_sudoku
    from gridsight.synth.render import render_sudoku

    givens, _ = make_sudoku(random.Random(51), 6, (2, 3))
    data = to_bytes(render_sudoku(givens, seed=51, box=(2, 3), cell_px=40))
    with pytest.raises(RecognitionError, match="hardly any cage sums"):
        recognize(data, "killer")
