"""Killers of few huge cages are killers.

Some apps draw killers of 6-9-cell cages (sums up to 45, as few as nine cages) outlined by
dots one pixel wide just inside the thick box lines, with givens. Such a grid has fewer
than ten cages, and a dotted wall missed beside a box line joins two of them into a
region no cage can be (more than nine cells): 5 to 7 regions were read where the
renderer drew 12 or 13, and the kind test, asking for ten cages with a number, read every
one as a classic sudoku. A region too large for a cage now stands for the cages it needs,
its numbers counting as theirs and its sum bounded by what its cells can hold
(kind.hidden_cages, kind.region_sum_range).

The class: make_killer(huge=True) drawn in the huge_dotted style at phone and web cell
sizes. A wall still missed must surface as doubt, never as a wrong answer given as solved.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.killer_render import cage_owner, render_killer
from gridsight.synth.puzzles import make_killer
from services.recognizer import recognize
from services.recognizer.killer.kind import (
    hidden_cages,
    killer_probability,
    region_sum_range,
)
from services.solver import solve_reading

from .conftest import to_bytes

CASES = [(0, 56), (1, 56), (4, 64)]


def huge_killer(seed: int, cell_px: int):
    puzzle, solution = make_killer(random.Random(seed), givens=True, huge=True)
    image = render_killer(puzzle, style="huge_dotted", seed=seed, cell_px=cell_px)
    return to_bytes(image), puzzle, solution


def test_huge_cage_puzzles_have_few_large_cages():
    for seed in range(4):
        puzzle, solution = make_killer(random.Random(seed), givens=True, huge=True)
        sizes = [len(cage.cells) for cage in puzzle.cages]
        assert len(sizes) <= 13 and np.mean(sizes) >= 6
        assert max(cage.sum for cage in puzzle.cages) >= 40
        owner = cage_owner(puzzle)
        assert min(min(row) for row in owner) >= 0


@pytest.mark.parametrize(("seed", "cell_px"), CASES)
def test_huge_cage_killer_is_read_as_a_killer(seed, cell_px):
    data, puzzle, solution = huge_killer(seed, cell_px)
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    result = solve_reading(reading)
    assert result.status != "solved" or result.solution == solution


def test_regions_too_large_for_a_cage_count_as_their_cages():
    assert hidden_cages(9, 9) == 1 and hidden_cages(10, 9) == 2 and hidden_cages(81, 9) == 9
    # Two 9-cell cages read as one region: their sums add up to 90 exactly.
    assert region_sum_range(18, 9) == (90, 90)
    assert region_sum_range(17, 9) == (81, 89)
    assert region_sum_range(7, 9) == (28, 42)
    walls = np.full((9, 8), 0.35), np.full((8, 9), 0.35)
    # Nine cages, each numbered, adding up to the grid's total: a killer.
    assert killer_probability(*walls, heads=9, heads_with_numbers=9, sum_total=405) > 0.99
    # Few numbers on a classic grid's noise stays classic.
    assert killer_probability(*walls, heads=9, heads_with_numbers=3, sum_total=405) < 0.01
