"""Synthetic print-only puzzles with one answer (bench/recognition.py --unique)."""

from __future__ import annotations

import random

from solver_readings import sudoku_reading

from gridsight.synth.grids import random_solution
from gridsight.synth.puzzles import made_unique
from services.solver import solve_reading
from services.solver.grid import geometry
from services.solver.sudoku import solve_grid


def drawn_givens(seed: int) -> tuple[list[list[int]], list[list[int]]]:
    """The bench's draw: a random 30-45 % of a solution's digits, most often not enough for
    one answer (seed 5105011: a shadow-stripes picture read right in every cell that the
    solver could only send to review, the printed puzzle having several answers)."""
    rng = random.Random(seed)
    solution = random_solution(9, None, rng)
    givens = [[v if rng.random() < rng.uniform(0.3, 0.45) else 0 for v in row]
              for row in solution]
    return givens, solution


def test_random_givens_get_digits_until_the_answer_is_unique():
    geo = geometry(9, (3, 3))
    givens, solution = drawn_givens(5105011)
    assert solve_grid(geo, givens).verdict == "multiple"
    unique = made_unique(givens, solution)
    answer = solve_grid(geo, unique)
    assert answer.verdict == "unique" and answer.solution == solution
    # Only digits of the solution are added; the drawn ones stay.
    for row, drawn, full in zip(unique, givens, solution, strict=True):
        assert all(v in (d, f) and (not d or v == d) for v, d, f in zip(row, drawn, full,
                                                                       strict=True))


def test_a_unique_print_only_puzzle_read_right_is_solved():
    givens, solution = drawn_givens(5108018)
    assert solve_reading(sudoku_reading(givens)).status == "needs_review"
    result = solve_reading(sudoku_reading(made_unique(givens, solution)))
    assert result.status == "solved" and result.solution == solution
