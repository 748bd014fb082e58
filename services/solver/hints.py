"""Hints: the next human-style step of a sudoku or killer, from where the person is.

The board starts from the givens plus the person's own digits. A digit of theirs that
the solution contradicts is named first: every step after it would build on a mistake.
"""

from __future__ import annotations

from services.contracts import (
    VERDICT_WORDS,
    Difficulty,
    KillerPuzzle,
    SolveResult,
    SudokuPuzzle,
    WrongEntry,
)
from services.solver.errors import PuzzleError
from services.solver.grid import cell_name, check_givens, geometry
from services.solver.logic import Board, Step, next_step, solve_path
from services.solver.solve import as_puzzle, check_grid_puzzle
from services.solver.sudoku import solve_grid

Grid = list[list[int]]


def board_of(puzzle: SudokuPuzzle | KillerPuzzle, entries: Grid | None = None,
             solution: Grid | None = None) -> Board:
    """Givens, then the person's entries that agree with the solution (all of them when
    no solution is known)."""
    box = check_grid_puzzle(puzzle)
    cages = ([([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]
             if isinstance(puzzle, KillerPuzzle) else None)
    board = Board.start(puzzle.givens, puzzle.size, box, cages)
    for r, row in enumerate(entries or []):
        for c, v in enumerate(row):
            cell = r * puzzle.size + c
            if v and not board.values[cell] and (solution is None or solution[r][c] == v):
                board.place(cell, v)
    return board


def solution_of(puzzle: SudokuPuzzle | KillerPuzzle, time_limit: float = 10.0) -> Grid:
    """The unique solution; PuzzleError when there is none or more than one (a hint
    from a puzzle with two answers could lead anywhere)."""
    box = check_grid_puzzle(puzzle)
    cages = ([([r * puzzle.size + c for r, c in cage.cells], cage.sum) for cage in puzzle.cages]
             if isinstance(puzzle, KillerPuzzle) else None)
    answer = solve_grid(geometry(puzzle.size, box), puzzle.givens, cages, time_limit)
    if answer.verdict != "unique":
        raise PuzzleError("hints need a puzzle with exactly one solution, and "
                          f"{VERDICT_WORDS[answer.verdict]}")
    return answer.solution


def wrong_entry_steps(entries: Grid | None, solution: Grid,
                      wrong: list[WrongEntry] | None = None) -> list[dict]:
    """Steps naming the person's wrong digits: `wrong` (the page's answer, which leaves
    out digits more likely misread than mistaken) or every entry the solution contradicts."""
    if wrong is None:
        wrong = [WrongEntry(row=r, col=c, written=v, correct=solution[r][c])
                 for r, row in enumerate(entries or []) for c, v in enumerate(row)
                 if v and solution[r][c] != v]
    return [{"technique": "wrong entry",
             "text": f"The {w.written} in {cell_name(w.row, w.col)} is wrong: the solution "
                     f"has {w.correct} there. Rub it out before going on.",
             "cells": [[w.row, w.col]], "digits": [w.written], "placements": [],
             "eliminations": [{"row": w.row, "col": w.col, "value": w.written}]}
            for w in wrong]


def hints(puzzle: SudokuPuzzle | KillerPuzzle, solution: Grid | None = None,
          entries: Grid | None = None, whole_path: bool = False,
          rating: dict | None = None, wrong: list[WrongEntry] | None = None,
          seconds: float | None = None) -> dict:
    """{"rating", "steps"}: the next step (or the whole path) from the givens plus the
    person's entries; wrong entries come first as steps of their own. The rating is the
    puzzle's, from the givens alone (`rating` when already known)."""
    puzzle = as_puzzle(puzzle)
    if not isinstance(puzzle, SudokuPuzzle | KillerPuzzle):
        raise PuzzleError("hints are for sudoku and killer sudoku")
    if entries is not None:
        check_givens(entries, puzzle.size, "entries")
    solution = solution or solution_of(puzzle)
    flat = [v for row in solution for v in row]
    size = puzzle.size
    steps = wrong_entry_steps(entries, solution, wrong)
    board = board_of(puzzle, entries, solution)
    if whole_path:
        path = solve_path(board, flat, seconds=seconds)
        steps += [s.as_dict(size) for s in path.steps]
        if rating is None and not any(v for row in entries or [] for v in row):
            rating = path.rating()  # from the givens alone: the rating's own path
    elif not steps:
        step: Step | None = next_step(board, flat)
        if step is not None:
            steps.append(step.as_dict(size))
    return {"rating": rating or difficulty(puzzle, solution, seconds), "steps": steps}


def difficulty(puzzle: SudokuPuzzle | KillerPuzzle, solution: Grid,
               seconds: float | None = None) -> dict:
    """The puzzle's rating: the hardest technique its logical path needs, and its steps."""
    board = board_of(puzzle)
    return solve_path(board, [v for row in solution for v in row], seconds=seconds).rating()


PATH_SECONDS = 2.5  # for each of the two paths a solved job gets
MAX_RATED_SIDE = 16  # beyond, one step of the wider techniques can take seconds


def rate_result(result: SolveResult, seconds: float = PATH_SECONDS
                ) -> tuple[SolveResult, dict | None]:
    """(the result with its difficulty, the hint path from the givens plus the person's
    entries: wrong entries first), for a sudoku or killer with one solution; else
    (result, None)."""
    if (result.kind not in ("sudoku", "killer") or result.verdict != "unique"
            or (result.size or 0) > MAX_RATED_SIDE
            or not result.solution or not isinstance(result.puzzle, SudokuPuzzle | KillerPuzzle)):
        return result, None
    # hints() rates the puzzle too: from the hint path itself when no entries change it.
    path = hints(result.puzzle, result.solution, result.entries, whole_path=True,
                 wrong=result.wrong_entries if result.entries else None, seconds=seconds)
    return result.model_copy(update={"difficulty": Difficulty(**path["rating"])}), path
