"""Sudoku and killer sudoku of every size, checked by the independent referee."""

from __future__ import annotations

import random

import pytest

from gridsight.synth.puzzles import make_killer, make_sudoku
from services.contracts import Cage, KillerPuzzle, SudokuPuzzle
from services.solver import PuzzleError, solve_puzzle
from services.solver.check import sudoku_errors
from services.solver.grid import default_box


def cages_of(puzzle: KillerPuzzle):
    return [([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16, 25])
def test_generated_sudoku_of_every_size_is_solved_uniquely(size):
    givens, truth = make_sudoku(random.Random(size), size)
    assert sum(v > 0 for row in givens for v in row) < size * size * 0.6
    result = solve_puzzle(SudokuPuzzle(size=size, givens=givens))
    assert result.verdict == "unique" and result.status == "solved"
    assert sudoku_errors(result.solution, givens, default_box(size)) == []
    assert result.solution == truth


def test_hard_nine_by_nine_needs_search_and_is_unique():
    # Arto Inkala's widely published puzzle: singles alone do not finish it.
    text = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    givens = [[int(ch) if ch != "." else 0 for ch in text[r * 9:r * 9 + 9]] for r in range(9)]
    result = solve_puzzle(SudokuPuzzle(givens=givens))
    assert result.verdict == "unique"
    assert sudoku_errors(result.solution, givens, (3, 3)) == []


def test_sudoku_with_a_box_shape_given():
    givens, truth = make_sudoku(random.Random(1), 6, box=(3, 2))
    result = solve_puzzle(SudokuPuzzle(size=6, box=(3, 2), givens=givens))
    assert result.verdict == "unique"
    assert sudoku_errors(result.solution, givens, (3, 2)) == []


def test_empty_grid_has_multiple_solutions_with_two_different_witnesses():
    result = solve_puzzle(SudokuPuzzle(size=9, givens=[[0] * 9 for _ in range(9)]))
    assert result.verdict == "multiple" and result.status == "needs_review"
    assert result.solution != result.other_solution
    for grid in (result.solution, result.other_solution):
        assert sudoku_errors(grid, None, (3, 3)) == []


def test_a_few_clues_removed_gives_multiple_solutions_that_keep_the_givens():
    rng = random.Random(7)
    givens, truth = make_sudoku(rng, 9)
    loose = [row.copy() for row in givens]
    for r, c in [(r, c) for r in range(9) for c in range(9) if givens[r][c]][:6]:
        loose[r][c] = 0
    result = solve_puzzle(SudokuPuzzle(givens=loose))
    assert result.verdict == "multiple"
    for grid in (result.solution, result.other_solution):
        assert sudoku_errors(grid, loose, (3, 3)) == []


def test_two_equal_digits_in_a_row_give_none_and_say_where():
    givens = [[0] * 9 for _ in range(9)]
    givens[2][0] = givens[2][5] = 7
    result = solve_puzzle(SudokuPuzzle(givens=givens))
    assert result.verdict == "none" and result.status == "failed"
    assert result.solution is None
    assert any("row 3 has 2 7s, at row 3, column 1 and row 3, column 6" in c
               for c in result.conflicts)


def test_hidden_contradiction_names_a_small_set_of_givens():
    # Row 1 needs a 3 in (1,3) or (1,4), but the top right box already has its 3 at (2,3).
    givens = [[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    result = solve_puzzle(SudokuPuzzle(size=4, givens=givens))
    assert result.verdict == "none"
    assert len(result.conflicts) == 1
    words = result.conflicts[0]
    assert "the 3 at row 2, column 3" in words and "row 1, column 1" in words
    assert "row 1, column 2" in words


@pytest.mark.parametrize("size", [4, 6, 8, 9])
def test_generated_killer_is_solved_uniquely(size):
    puzzle, truth = make_killer(random.Random(size), size)
    assert puzzle.givens is None
    result = solve_puzzle(puzzle)
    assert result.verdict == "unique" and result.status == "solved"
    assert sudoku_errors(result.solution, None, default_box(size), cages_of(puzzle)) == []
    assert result.solution == truth


def test_killer_with_givens_is_solved():
    puzzle, truth = make_killer(random.Random(11), 9, givens=True)
    result = solve_puzzle(puzzle)
    assert result.verdict == "unique"
    assert sudoku_errors(result.solution, puzzle.givens, (3, 3), cages_of(puzzle)) == []


def test_killer_of_whole_rows_has_multiple_solutions():
    cages = [Cage(sum=10, cells=[(r, c) for c in range(4)]) for r in range(4)]
    result = solve_puzzle(KillerPuzzle(size=4, cages=cages))
    assert result.verdict == "multiple"
    assert result.solution != result.other_solution
    for grid in (result.solution, result.other_solution):
        assert sudoku_errors(grid, None, (2, 2), cages_of(KillerPuzzle(size=4, cages=cages))) \
            == []


def test_killer_without_solution_is_none_with_conflicts():
    # One-cell cages copy a valid 4x4 grid with two digits of a row swapped: every cage
    # check passes, but the columns now repeat digits.
    grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
    cages = [Cage(sum=grid[r][c], cells=[(r, c)]) for r in range(4) for c in range(4)]
    result = solve_puzzle(KillerPuzzle(size=4, cages=cages))
    assert result.verdict == "none" and result.status == "failed"
    assert result.conflicts and "cage" in result.conflicts[0]


@pytest.mark.parametrize("cages, words", [
    ([Cage(sum=3, cells=[(0, 0), (0, 1)]), Cage(sum=7, cells=[(0, 1), (0, 2)])], "overlap"),
    ([Cage(sum=3, cells=[(0, 0), (1, 1)])], "not connected"),
    ([Cage(sum=2, cells=[(0, 0), (0, 1)])], "cannot add up to 2"),
    ([Cage(sum=5, cells=[(0, 0), (4, 0)])], "outside"),
    ([Cage(sum=10, cells=[(0, c) for c in range(4)])], "not in any cage"),
])
def test_bad_cages_are_explained(cages, words):
    with pytest.raises(PuzzleError, match=words):
        solve_puzzle(KillerPuzzle(size=4, cages=cages))


def test_cage_sums_must_add_up_to_the_grid_total():
    cages = [Cage(sum=7, cells=[(r, c), (r, c + 1)]) for r in range(4) for c in (0, 2)]
    with pytest.raises(PuzzleError, match="add up to 56"):
        solve_puzzle(KillerPuzzle(size=4, cages=cages))


@pytest.mark.parametrize("givens, words", [
    ([[0] * 9 for _ in range(8)], "8 rows, expected 9"),
    ([[0] * 9 for _ in range(8)] + [[0] * 8], "row 9 has 8 cells"),
    ([[0] * 9 for _ in range(8)] + [[0] * 8 + [10]], "digits must be 1..9"),
])
def test_bad_sudoku_givens_are_explained(givens, words):
    with pytest.raises(PuzzleError, match=words):
        solve_puzzle(SudokuPuzzle(givens=givens))


def test_box_that_does_not_fit_is_explained():
    with pytest.raises(PuzzleError, match="box of 2x2 does not fit"):
        solve_puzzle(SudokuPuzzle(size=6, box=(2, 2), givens=[[0] * 6 for _ in range(6)]))


def test_short_search_and_cp_sat_give_the_same_verdicts(monkeypatch):
    from services.solver import sudoku

    rng = random.Random(31)
    puzzles = []
    for _ in range(4):
        givens, _ = make_sudoku(rng, 9)
        loose = [row.copy() for row in givens]
        for r, c in [(r, c) for r in range(9) for c in range(9) if givens[r][c]][:3]:
            loose[r][c] = 0
        puzzles += [givens, loose]
    short = [solve_puzzle(SudokuPuzzle(givens=g)) for g in puzzles]
    monkeypatch.setattr(sudoku, "SHORT_SEARCH_OPEN_CELLS", -1)  # CP-SAT only
    full = [solve_puzzle(SudokuPuzzle(givens=g)) for g in puzzles]
    assert [r.verdict for r in short] == [r.verdict for r in full]
    assert {r.verdict for r in full} == {"unique", "multiple"}
    for result, givens in zip(full, puzzles, strict=True):
        assert sudoku_errors(result.solution, givens, (3, 3)) == []
