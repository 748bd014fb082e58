"""A box shape the picture only guessed: kept, turned or left to a person by the digits."""

from __future__ import annotations

import random

from gridsight.synth.puzzles import make_sudoku
from services.solver import solve_reading
from tests.solver.solver_readings import sudoku_reading

# Valid with 2x3 and with 3x2 boxes alike: the digits cannot tell the shapes apart.
BOTH_SHAPES = [[1, 4, 3, 2, 5, 6], [2, 6, 5, 1, 3, 4], [5, 3, 6, 4, 2, 1],
               [4, 1, 2, 3, 6, 5], [3, 5, 1, 6, 4, 2], [6, 2, 4, 5, 1, 3]]


def guessed(givens, box):
    return sudoku_reading(givens).model_copy(update={"box": box, "box_confidence": 0.0})


def test_a_guess_the_digits_confirm_is_solved():
    givens, solution = make_sudoku(random.Random(5), 6, (2, 3))
    result = solve_reading(guessed(givens, (2, 3)))
    assert result.status == "solved" and result.solution == solution
    assert tuple(result.puzzle.box) == (2, 3) and "settled by the digits" in result.message


def test_a_wrong_guess_is_turned_to_the_shape_the_digits_fit():
    givens, solution = make_sudoku(random.Random(6), 6, (3, 2))
    result = solve_reading(guessed(givens, (2, 3)))
    assert result.status == "solved" and result.solution == solution
    assert tuple(result.puzzle.box) == (3, 2)


def test_digits_that_fit_both_shapes_leave_the_guess_to_a_person():
    result = solve_reading(guessed(BOTH_SHAPES, (2, 3)))
    assert result.status == "needs_review" and "was a guess" in result.message
    assert tuple(result.puzzle.box) == (2, 3)
