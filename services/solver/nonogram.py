"""Nonograms: line-by-line propagation, then CP-SAT with one automaton per line.

A cell is UNKNOWN, FILLED or EMPTY. The line solver finds, over all placements of a
line's runs that agree with what is known, the cells every placement fills and the
cells every placement leaves empty (dynamic programming over prefixes and suffixes).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from services.contracts import NonogramPuzzle, Verdict
from services.solver.errors import PuzzleError

UNKNOWN, FILLED, EMPTY = 0, 1, 2
MAX_SIDE = 1000
SHORT_SEARCH_NODES = 64


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
    n, k = len(line), len(runs)
    can_empty = [v != FILLED for v in line] + [True]  # a virtual empty cell at the end
    # open_from[i]: how many cells from i on are not known empty (run room at i).
    open_from = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        open_from[i] = open_from[i + 1] + 1 if line[i] != EMPTY else 0
    # fits[r][s]: a run of r may cover s..s+r-1 with an empty cell (maybe virtual) after.
    fits = {r: [s + r <= n and open_from[s] >= r and can_empty[s + r] for s in range(n + 1)]
            for r in set(runs)}

    # head[j][i]: the first j runs (each with its trailing empty) fit line[:i] exactly.
    head = [[False] * (n + 2) for _ in range(k + 1)]
    row = head[0]
    row[0] = True
    for i in range(1, n + 2):
        row[i] = row[i - 1] and can_empty[i - 1]
    for j in range(1, k + 1):
        r = runs[j - 1]
        row, prev, fit = head[j], head[j - 1], fits[r]
        for i in range(r + 1, n + 2):
            row[i] = (row[i - 1] and can_empty[i - 1]) or (prev[i - r - 1] and fit[i - r - 1])
    if not head[k][n + 1]:
        return None
    # tail[j][i]: runs j.. (with trailing empties) fit line[i:] plus the virtual cell.
    tail = [[False] * (n + 2) for _ in range(k + 1)]
    row = tail[k]
    row[n + 1] = True
    for i in range(n, -1, -1):
        row[i] = row[i + 1] and can_empty[i]
    for j in range(k - 1, -1, -1):
        r = runs[j]
        row, nxt, fit = tail[j], tail[j + 1], fits[r]
        for i in range(n - r, -1, -1):
            row[i] = (row[i + 1] and can_empty[i]) or (nxt[i + r + 1] and fit[i])
    may_empty = [False] * n
    for j in range(k + 1):
        hj, tj = head[j], tail[j]
        for i in range(n):
            if hj[i] and tj[i + 1] and can_empty[i]:
                may_empty[i] = True
    cover = [0] * (n + 1)  # difference array of the cells some run placement fills
    for j in range(k):
        r = runs[j]
        hj, tj, fit = head[j], tail[j + 1], fits[r]
        for s in range(0, n - r + 1):
            if hj[s] and fit[s] and tj[s + r + 1]:
                cover[s] += 1
                cover[s + r] -= 1
                if s + r < n:
                    may_empty[s + r] = True  # the empty cell that ends this run
    out, running = [], 0
    for i in range(n):
        running += cover[i]
        if running > 0:
            out.append(UNKNOWN if may_empty[i] else FILLED)
        elif may_empty[i]:
            out.append(EMPTY)
        else:
            return None
    return out


def propagate_lines(rows: list[list[int]], cols: list[list[int]], grid: list[list[int]],
                    dirty_rows: set[int] | None = None,
                    dirty_cols: set[int] | None = None) -> bool:
    """Line solving on rows and columns in place until stable; False on a contradiction.

    Only the dirty lines (default: all) are solved first; lines whose cells change follow.
    """
    height, width = len(rows), len(cols)
    dirty_rows = set(range(height)) if dirty_rows is None else dirty_rows
    dirty_cols = set(range(width)) if dirty_cols is None else dirty_cols
    while dirty_rows or dirty_cols:
        for r in sorted(dirty_rows):
            new = solve_line(rows[r], grid[r])
            if new is None:
                return False
            for c in range(width):
                if new[c] != grid[r][c]:
                    grid[r][c] = new[c]
                    dirty_cols.add(c)
        dirty_rows.clear()
        for c in sorted(dirty_cols):
            new = solve_line(cols[c], [grid[r][c] for r in range(height)])
            if new is None:
                return False
            for r in range(height):
                if new[r] != grid[r][c]:
                    grid[r][c] = new[r]
                    dirty_rows.add(r)
        dirty_cols.clear()
    return True


def search_lines(rows: list[list[int]], cols: list[list[int]], grid: list[list[int]],
                 max_nodes: int, deadline: float = float("inf")
                 ) -> tuple[list[list[list[int]]], bool]:
    """Up to two solutions by guessing a cell and line solving; (solutions, complete)."""
    found: list[list[list[int]]] = []
    nodes = 0

    def visit(state: list[list[int]]) -> bool:
        nonlocal nodes
        cell = next(((r, c) for r, row in enumerate(state) for c, v in enumerate(row)
                     if v == UNKNOWN), None)
        if cell is None:
            found.append(state)
            return True
        r, c = cell
        for value in (FILLED, EMPTY):
            nodes += 1
            if nodes > max_nodes or time.perf_counter() > deadline:
                return False
            child = [line.copy() for line in state]
            child[r][c] = value
            if propagate_lines(rows, cols, child, {r}, {c}) and not visit(child):
                return False
            if len(found) >= 2:
                return True
        return True

    complete = visit(grid)
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


def render(grid: list[list[int]]) -> list[str]:
    return ["".join("#" if v == FILLED else "." for v in row) for row in grid]


def solve_nonogram(puzzle: NonogramPuzzle, time_limit: float = 10.0) -> PictureAnswer:
    started = time.perf_counter()
    rows, cols = check_nonogram(puzzle)
    height, width = len(rows), len(cols)
    grid = [[UNKNOWN] * width for _ in range(height)]
    if not propagate_lines(rows, cols, grid):
        return PictureAnswer("none")
    if all(v != UNKNOWN for row in grid for v in row):
        return PictureAnswer("unique", render(grid))
    # A short search (guess a cell, line-solve) usually settles the cells left open, or
    # finds two answers, sooner than a CP-SAT model of the whole picture; CP-SAT takes over
    # when its nodes run out.
    found, complete = search_lines(rows, cols, grid, SHORT_SEARCH_NODES,
                                   started + time_limit / 2)
    if complete:
        if len(found) >= 2:
            return PictureAnswer("multiple", render(found[0]), render(found[1]))
        return PictureAnswer("unique", render(found[0])) if found else PictureAnswer("none")
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(width)] for r in range(height)]
    for r in range(height):
        for c in range(width):
            if grid[r][c] != UNKNOWN:
                model.add(x[r][c] == int(grid[r][c] == FILLED))
    for r, runs in enumerate(rows):
        transitions, finals = automaton(runs)
        model.add_automaton(x[r], 0, finals, transitions)
    for c, runs in enumerate(cols):
        transitions, finals = automaton(runs)
        model.add_automaton([x[r][c] for r in range(height)], 0, finals, transitions)

    found: list[list[str]] = []

    class FirstTwo(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(["".join("#" if self.boolean_value(v) else "." for v in row)
                          for row in x])
            if len(found) >= 2:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.01, time_limit - (time.perf_counter()
                                                                    - started))
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(model, FirstTwo())
    if len(found) >= 2:
        return PictureAnswer("multiple", found[0], found[1])
    if found:
        return PictureAnswer("unique" if status == cp_model.OPTIMAL else "unknown", found[0])
    return PictureAnswer("none" if status == cp_model.INFEASIBLE else "unknown")
