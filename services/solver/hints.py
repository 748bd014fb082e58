"""Hints: the next human-style step of a sudoku or killer, from where the person is.

The board starts from the givens plus the person's own digits. A digit of theirs that
the solution contradicts is named first: every step after it would build on a mistake.
"""

from __future__ import annotations

from services.contracts import KillerPuzzle, SudokuPuzzle
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
        raise PuzzleError(f"hints need a puzzle with one solution; this one's verdict is "
                          f"{answer.verdict}")
    return answer.solution


def wrong_entry_steps(entries: Grid | None, solution: Grid) -> list[dict]:
    steps = []
    for r, row in enumerate(entries or []):
        for c, v in enumerate(row):
            if v and solution[r][c] != v:
                steps.append({
                    "technique": "wrong entry",
                    "text": f"The {v} in {cell_name(r, c)} (row {r + 1}, column {c + 1}) "
                            f"is wrong: the solution has {solution[r][c]} there. Rub it out "
                            f"before going on.",
                    "cells": [[r, c]], "digits": [v], "placements": [],
                    "eliminations": [{"row": r, "col": c, "value": v}]})
    return steps


def hints(puzzle: SudokuPuzzle | KillerPuzzle, solution: Grid | None = None,
          entries: Grid | None = None, whole_path: bool = False,
          rating: dict | None = None) -> dict:
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
    steps = wrong_entry_steps(entries, solution)
    board = board_of(puzzle, entries, solution)
    if whole_path:
        path = solve_path(board, flat)
        steps += [s.as_dict(size) for s in path.steps]
    elif not steps:
        step: Step | None = next_step(board, flat)
        if step is not None:
            steps.append(step.as_dict(size))
    return {"rating": rating or difficulty(puzzle, solution), "steps": steps}


def difficulty(puzzle: SudokuPuzzle | KillerPuzzle, solution: Grid) -> dict:
    """The puzzle's rating: the hardest technique its logical path needs, and its steps."""
    board = board_of(puzzle)
    return solve_path(board, [v for row in solution for v in row]).rating()
