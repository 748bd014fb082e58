"""Nonograms: line-by-line propagation, then CP-SAT with one automaton per line.

A cell is UNKNOWN, FILLED or EMPTY. The line solver (lines.py) finds, over all
placements of a line's runs that agree with what is known, the cells every placement
fills and the cells every placement leaves empty, for a whole batch of lines at once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from services.contracts import NonogramPuzzle, Verdict
from services.solver.cpsat import CpModel
from services.solver.errors import PuzzleError
from services.solver.lines import (
    CONTRADICTION,
    EMPTY,
    FILLED,
    UNKNOWN,
    pad_runs,
    solve_lines,
)

MAX_SIDE = 1000
SHORT_SEARCH_NODES = 64
# Cells of (runs x lines x positions) that one batch of line solving works on: bounds its
# memory (a 1000x1000 picture's rows at once took gigabytes) and how long it runs between
# two looks at the clock.
BATCH_CELLS = 4_000_000
# Past this many cells a CP-SAT model of the whole picture costs more memory and
# building time than any time limit we allow; line solving and search decide alone.
CPSAT_MAX_CELLS = 250 * 250
# CP-SAT loads line automata without looking at its clock: about 0.1 us per (line
# length x automaton state), 1.2-1.4 s for a random 200x200 picture on this machine. It is
# not started unless the time left is twice that.
CPSAT_LOAD_SECONDS_PER_UNIT = 1.2e-7
CELLS_PER_SEARCH_NODE = 8  # large pictures get more guesses: one per this many cells


@dataclass
class PictureAnswer:
    verdict: Verdict
    solution: list[str] | None = None
    other: list[str] | None = None


def check_nonogram(puzzle: NonogramPuzzle) -> tuple[list[list[int]], list[list[int]]]:
    """Clues with empty lines as [], or PuzzleError in words."""
    height, width = len(puzzle.rows), len(puzzle.cols)
    if not height or not width:
        raise PuzzleError("a nonogram needs at least one row clue and one column clue")
    if height > MAX_SIDE or width > MAX_SIDE:
        raise PuzzleError(f"nonograms up to {MAX_SIDE}x{MAX_SIDE} are supported")
    rows = [_check_line(c, width, f"row {i + 1}") for i, c in enumerate(puzzle.rows)]
    cols = [_check_line(c, height, f"column {i + 1}") for i, c in enumerate(puzzle.cols)]
    filled_rows, filled_cols = sum(map(sum, rows)), sum(map(sum, cols))
    if filled_rows != filled_cols:
        raise PuzzleError(f"row clues fill {filled_rows} cells but column clues fill "
                          f"{filled_cols}; they must agree")
    return rows, cols


def _check_line(clue: list[int], length: int, name: str) -> list[int]:
    for n in clue:
        if not isinstance(n, int) or n < 0:
            raise PuzzleError(f"{name} clue {clue} has {n!r}; runs must be whole numbers >= 0")
    runs = [n for n in clue if n > 0]
    if len(runs) != len(clue) and clue != [0]:
        raise PuzzleError(f"{name} clue {clue} mixes 0 with runs; use 0 alone for an "
                          f"empty line")
    need = sum(runs) + max(0, len(runs) - 1)
    if need > length:
        raise PuzzleError(f"{name} clue {' '.join(map(str, runs))} needs {need} cells but "
                          f"the line has {length}")
    return runs


def solve_line(runs: list[int], line: list[int]) -> list[int] | None:
    """What every placement of runs agreeing with line fixes; None when none agrees."""
    matrix, counts = pad_runs([runs])
    out = solve_lines(matrix, counts, np.array([line], dtype=np.int8))[0]
    return None if (out == CONTRADICTION).any() else out.tolist()


class OutOfTime(Exception):
    """The deadline passed in the middle of line solving."""


class Clues:
    """Row and column clues as padded matrices, ready for batches of lines."""

    def __init__(self, rows: list[list[int]], cols: list[list[int]]):
        self.rows = pad_runs(rows)
        self.cols = pad_runs(cols)


def _settle(clues: tuple[np.ndarray, np.ndarray], lines: np.ndarray,
            dirty: np.ndarray, deadline: float = float("inf")) -> np.ndarray | None:
    """Line-solve the dirty lines in place, in batches with a look at the clock between
    them (OutOfTime past the deadline); the cells (across) that changed, None on a
    contradiction."""
    runs, counts = clues
    per_line = max(1, int(counts.max(initial=0))) * (lines.shape[1] + 2)
    batch = max(1, BATCH_CELLS // per_line)
    touched = np.zeros(lines.shape[1], bool)
    dirty_index = np.flatnonzero(dirty)
    for start in range(0, len(dirty_index), batch):
        if time.perf_counter() > deadline:
            raise OutOfTime
        index = dirty_index[start:start + batch]
        before = lines[index]
        after = solve_lines(runs[index], counts[index], before)
        if (after == CONTRADICTION).any():
            return None
        touched |= (after != before).any(axis=0)
        lines[index] = after
    return touched


def propagate_lines(clues: Clues, grid: np.ndarray, dirty_rows: np.ndarray | None = None,
                    dirty_cols: np.ndarray | None = None,
                    deadline: float = float("inf")) -> bool:
    """Line solving on rows and columns of grid (int8, in place) until stable; False on a
    contradiction, OutOfTime past the deadline. Only the dirty lines (default: all) are
    solved first; lines whose cells change follow, a batch of rows then a batch of
    columns."""
    height, width = grid.shape
    rows = np.ones(height, bool) if dirty_rows is None else dirty_rows
    cols = np.ones(width, bool) if dirty_cols is None else dirty_cols
    while rows.any() or cols.any():
        if rows.any():
            touched = _settle(clues.rows, grid, rows, deadline)
            if touched is None:
                return False
            cols = cols | touched
        rows = np.zeros(height, bool)
        if cols.any():
            touched = _settle(clues.cols, grid.T, cols, deadline)
            if touched is None:
                return False
            rows = touched
        cols = np.zeros(width, bool)
    return True


def search_lines(clues: Clues, grid: np.ndarray, max_nodes: int,
                 deadline: float = float("inf")) -> tuple[list[np.ndarray], bool]:
    """Up to two solutions by guessing a cell and line solving; (solutions, complete)."""
    found: list[np.ndarray] = []
    nodes = 0
    height, width = grid.shape

    def visit(state: np.ndarray) -> bool:
        nonlocal nodes
        open_cells = np.flatnonzero(state == UNKNOWN)
        if not len(open_cells):
            found.append(state)
            return True
        r, c = divmod(int(open_cells[0]), width)
        for value in (FILLED, EMPTY):
            nodes += 1
            if nodes > max_nodes or time.perf_counter() > deadline:
                return False
            child = state.copy()
            child[r, c] = value
            rows, cols = np.zeros(height, bool), np.zeros(width, bool)
            rows[r] = cols[c] = True
            if propagate_lines(clues, child, rows, cols, deadline) and not visit(child):
                return False
            if len(found) >= 2:
                return True
        return True

    try:
        complete = visit(grid)
    except OutOfTime:
        complete = False
    return found, complete


def automaton(runs: list[int]) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Transitions (state, label, next) and final states of the language of a clue."""
    if not runs:
        return [(0, 0, 0)], [0]
    transitions = [(0, 0, 0)]
    state = 0
    for j, r in enumerate(runs):
        if j > 0:
            transitions.append((state, 0, state))  # more empty cells between runs
        transitions.append((state, 1, state + 1))
        for _ in range(r - 1):
            state += 1
            transitions.append((state, 1, state + 1))
        state += 1
        transitions.append((state, 0, state + 1))  # the empty cell that ends the run
        state += 1
    transitions.append((state, 0, state))
    return transitions, [state - 1, state]


def render(grid: np.ndarray) -> list[str]:
    return ["".join("#" if v == FILLED else "." for v in row) for row in grid.tolist()]


def solve_nonogram(puzzle: NonogramPuzzle, time_limit: float = 10.0) -> PictureAnswer:
    """Every stage looks at the clock: the answer is 'unknown' once time_limit has passed,
    whatever the picture's size."""
    started = time.perf_counter()
    deadline = started + time_limit
    rows, cols = check_nonogram(puzzle)
    height, width = len(rows), len(cols)
    clues = Clues(rows, cols)
    grid = np.full((height, width), UNKNOWN, dtype=np.int8)
    try:
        if not propagate_lines(clues, grid, deadline=deadline):
            return PictureAnswer("none")
    except OutOfTime:
        return PictureAnswer("unknown")
    if not (grid == UNKNOWN).any():
        return PictureAnswer("unique", render(grid))
    # A short search (guess a cell, line-solve) usually settles the cells left open, or
    # finds two answers, sooner than a CP-SAT model of the whole picture; CP-SAT takes over
    # when its nodes run out.
    # Large pictures that line solving barely starts (several answers, typically) get
    # more guesses: there the search finds two answers far sooner than CP-SAT does
    # (bench/solver.py, 200x200: about 2.5 s against 16 s).
    nodes = SHORT_SEARCH_NODES and max(SHORT_SEARCH_NODES,
                                       height * width // CELLS_PER_SEARCH_NODE)
    too_big = height * width > CPSAT_MAX_CELLS
    found, complete = search_lines(clues, grid, nodes if not too_big else 1 << 62,
                                   deadline if too_big else started + time_limit / 2)
    if complete:
        if len(found) >= 2:
            return PictureAnswer("multiple", render(found[0]), render(found[1]))
        return PictureAnswer("unique", render(found[0])) if found else PictureAnswer("none")
    if too_big or time.perf_counter() > deadline:
        return PictureAnswer("unknown", render(found[0]) if found else None)
    return _solve_with_cpsat(rows, cols, grid, deadline)


def _solve_with_cpsat(rows: list[list[int]], cols: list[list[int]], grid: np.ndarray,
                      deadline: float) -> PictureAnswer:
    height, width = grid.shape
    loading = CPSAT_LOAD_SECONDS_PER_UNIT * (
        width * sum(sum(runs) + len(runs) + 1 for runs in rows)
        + height * sum(sum(runs) + len(runs) + 1 for runs in cols))
    if deadline - time.perf_counter() < 2 * loading:
        return PictureAnswer("unknown")
    model = CpModel()
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(width)] for r in range(height)]
    for r in range(height):
        for c in range(width):
            if grid[r, c] != UNKNOWN:
                model.add(x[r][c] == int(grid[r, c] == FILLED))
    for r, runs in enumerate(rows):
        transitions, finals = automaton(runs)
        model.add_automaton(x[r], 0, finals, transitions)
    for c, runs in enumerate(cols):
        transitions, finals = automaton(runs)
        model.add_automaton([x[r][c] for r in range(height)], 0, finals, transitions)
    left = deadline - time.perf_counter() - loading
    if left <= loading / 2:
        return PictureAnswer("unknown")

    found: list[list[str]] = []

    class FirstTwo(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(["".join("#" if self.boolean_value(v) else "." for v in row)
                          for row in x])
            if len(found) >= 2:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.01, left)
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(model, FirstTwo())
    if len(found) >= 2:
        return PictureAnswer("multiple", found[0], found[1])
    if found:
        return PictureAnswer("unique" if status == cp_model.OPTIMAL else "unknown", found[0])
    return PictureAnswer("none" if status == cp_model.INFEASIBLE else "unknown")
