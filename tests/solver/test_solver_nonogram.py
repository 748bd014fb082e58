"""Nonograms: generated pictures of growing size, crafted verdicts, bad clues."""

from __future__ import annotations

import random

import pytest

from gridsight.synth.puzzles import make_nonogram
from services.contracts import NonogramPuzzle
from services.solver import PuzzleError, solve_puzzle
from services.solver.check import nonogram_errors
from services.solver.nonogram import EMPTY, FILLED, UNKNOWN, solve_line


@pytest.mark.parametrize("width, height", [(1, 1), (5, 5), (10, 10), (20, 15), (30, 30),
                                           (60, 60)])
def test_generated_nonograms_are_solved_and_checked(width, height):
    puzzle, picture = make_nonogram(random.Random(width * height), width, height, 0.6)
    result = solve_puzzle(puzzle)
    assert result.verdict in ("unique", "multiple")
    assert (result.width, result.height) == (width, height)
    assert nonogram_errors(result.solution, puzzle.rows, puzzle.cols) == []
    if result.verdict == "unique":
        assert result.solution == picture
        assert result.status == "solved"
    else:
        assert result.solution != result.other_solution
        assert nonogram_errors(result.other_solution, puzzle.rows, puzzle.cols) == []


def test_a_nonogram_needing_search_beyond_line_solving():
    # Several 0.5-density pictures stall line solving; collect one and check it still ends.
    rng = random.Random(2)
    for _ in range(20):
        puzzle, picture = make_nonogram(rng, 15, 15, 0.5)
        result = solve_puzzle(puzzle)
        assert nonogram_errors(result.solution, puzzle.rows, puzzle.cols) == []
        if result.verdict == "multiple":
            break
    assert result.verdict == "multiple"


def test_two_diagonals_are_multiple():
    result = solve_puzzle(NonogramPuzzle(rows=[[1], [1]], cols=[[1], [1]]))
    assert result.verdict == "multiple"
    assert {tuple(result.solution), tuple(result.other_solution)} == {("#.", ".#"),
                                                                       (".#", "#.")}


def test_clues_that_contradict_give_none():
    result = solve_puzzle(NonogramPuzzle(rows=[[2], []], cols=[[], [2]]))
    assert result.verdict == "none" and result.status == "failed"
    assert result.conflicts


def test_line_solver_finds_the_overlap():
    assert solve_line([3], [UNKNOWN] * 5) == [UNKNOWN, UNKNOWN, FILLED, UNKNOWN, UNKNOWN]
    assert solve_line([1, 1], [UNKNOWN] * 3) == [FILLED, EMPTY, FILLED]
    assert solve_line([], [UNKNOWN] * 2) == [EMPTY, EMPTY]
    assert solve_line([2], [UNKNOWN, FILLED, UNKNOWN, EMPTY]) == [UNKNOWN, FILLED, UNKNOWN,
                                                                  EMPTY]
    assert solve_line([2], [EMPTY, UNKNOWN, EMPTY]) is None


@pytest.mark.parametrize("rows, cols, words", [
    ([[4]], [[1], [1], [1]], "needs 4 cells but the line has 3"),
    ([[1, 1]], [[1], [1], [1], [1]], "row clues fill 2 cells but column clues fill 4"),
    ([[-1]], [[1]], "runs must be whole numbers"),
    ([[1, 0]], [[1], [0]], "mixes 0 with runs"),
    ([], [[1]], "at least one row clue"),
])
def test_bad_clues_are_explained(rows, cols, words):
    with pytest.raises(PuzzleError, match=words):
        solve_puzzle(NonogramPuzzle(rows=rows, cols=cols))


def test_short_search_and_cp_sat_give_the_same_verdicts(monkeypatch):
    from services.solver import nonogram

    rng = random.Random(5)
    puzzles = [make_nonogram(rng, 15, 15, 0.5)[0] for _ in range(8)]
    short = [solve_puzzle(p) for p in puzzles]
    monkeypatch.setattr(nonogram, "SHORT_SEARCH_NODES", 0)  # CP-SAT only
    full = [solve_puzzle(p) for p in puzzles]
    assert [r.verdict for r in short] == [r.verdict for r in full]
    assert "multiple" in {r.verdict for r in full}
    for result, p in zip(full, puzzles, strict=True):
        assert nonogram_errors(result.solution, p.rows, p.cols) == []
