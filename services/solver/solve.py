"""solve_puzzle: facts in, verdict and solutions out."""

from __future__ import annotations

import time

from pydantic import TypeAdapter, ValidationError

from services.contracts import KillerPuzzle, NonogramPuzzle, Puzzle, SolveResult, SudokuPuzzle
from services.solver.cages import check_cages
from services.solver.conflicts import explain
from services.solver.errors import PuzzleError
from services.solver.grid import check_givens, check_shape, geometry
from services.solver.nonogram import solve_nonogram
from services.solver.sudoku import Cages, GridAnswer, solve_grid

_PUZZLE = TypeAdapter(Puzzle)

MESSAGES = {
    "unique": "solved; the solution is unique",
    "multiple": "the puzzle has more than one solution; two of them are shown",
    "none": "the puzzle has no solution",
    "unknown": "the time limit ran out before the search finished",
}


def as_puzzle(puzzle) -> SudokuPuzzle | KillerPuzzle | NonogramPuzzle:
    if isinstance(puzzle, SudokuPuzzle | KillerPuzzle | NonogramPuzzle):
        return puzzle
    try:
        return _PUZZLE.validate_python(puzzle)
    except ValidationError as e:
        raise PuzzleError(f"not a puzzle: {e.errors()[0]['msg']} at "
                          f"{'.'.join(map(str, e.errors()[0]['loc']))}") from None


def cage_cells(puzzle: KillerPuzzle) -> Cages:
    return [([r * puzzle.size + c for r, c in cage.cells], cage.sum) for cage in puzzle.cages]


def check_grid_puzzle(puzzle: SudokuPuzzle | KillerPuzzle) -> tuple[int, int]:
    """The box shape; PuzzleError unless the puzzle is well formed."""
    box = check_shape(puzzle.size, puzzle.box)
    check_givens(puzzle.givens, puzzle.size)
    if isinstance(puzzle, KillerPuzzle):
        check_cages([([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages],
                    puzzle.size)
    return box


def solve_puzzle(puzzle: Puzzle, time_limit: float = 10.0) -> SolveResult:
    """Solve a puzzle given as facts; the verdict says whether its solution is unique.

    Raises PuzzleError (a ValueError) when the puzzle is malformed: wrong sizes, digits out
    of range, cages that overlap or do not cover the grid, clues longer than their line.
    """
    puzzle = as_puzzle(puzzle)
    started = time.perf_counter()
    if isinstance(puzzle, NonogramPuzzle):
        answer = solve_nonogram(puzzle, time_limit)
        return SolveResult(
            kind="nonogram", width=len(puzzle.cols), height=len(puzzle.rows),
            status=status_of(answer.verdict, answer.solution is not None),
            verdict=answer.verdict, puzzle=puzzle, solution=answer.solution,
            other_solution=answer.other, message=MESSAGES[answer.verdict],
            conflicts=["the row and column clues contradict each other"]
            if answer.verdict == "none" else [],
            seconds=round(time.perf_counter() - started, 6))
    box = check_grid_puzzle(puzzle)
    geo = geometry(puzzle.size, box)
    cages = cage_cells(puzzle) if isinstance(puzzle, KillerPuzzle) else None
    answer = solve_grid(geo, puzzle.givens, cages, time_limit)
    return grid_result(puzzle, geo, answer, cages, started, time_limit)


def grid_result(puzzle, geo, answer: GridAnswer, cages: Cages | None, started: float,
                time_limit: float) -> SolveResult:
    conflicts = []
    if answer.verdict == "none":
        left = max(0.5, time_limit - (time.perf_counter() - started))
        conflicts = explain(geo, puzzle.givens, cages, min(left, 2.0))
    return SolveResult(
        kind=puzzle.kind, size=puzzle.size,
        status=status_of(answer.verdict, answer.solution is not None),
        verdict=answer.verdict, puzzle=puzzle, solution=answer.solution,
        other_solution=answer.other, conflicts=conflicts, message=MESSAGES[answer.verdict],
        seconds=round(time.perf_counter() - started, 6))


def status_of(verdict: str, has_solution: bool) -> str:
    if verdict == "unique":
        return "solved"
    if verdict == "none" or not has_solution:
        return "failed"
    return "needs_review"
