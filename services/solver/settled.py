"""Doubts about a sudoku reading that the puzzle itself settles.

A kept reading whose runner-up is likely (UNCERTAIN_RUNNER_UP) sends a solved grid to
review. Each other reading of the doubtful cells (their runner-ups put in, alone or
together) is solved: when every one leaves a grid with no solution, or with the answer
found as its one solution, no likely reading of the picture changes the answer, and the
doubt is settled. Two such doubts are common. A runner-up that clashes with the grid: no
printed puzzle reads that way. And a cell read as a digit or blank, printed or written
by the person (a half-solved page), whose digit is the answer's: the grid with it or
without it has that one answer. A check that runs out of time settles nothing.
"""

from __future__ import annotations

from itertools import product
from math import prod

from services.solver.budget import Budget
from services.solver.grid import Geometry
from services.solver.sudoku import solve_grid

MAX_READINGS = 32  # other readings of the doubtful cells tried at most
# A 9x9 is solved and proved unique (or unsolvable) in milliseconds, a 16x16 in a few
# (0.07 s for the slowest of 24 16x16 readings' whole check): CPU seconds for all the
# readings of one check, so that a hard one costs at most this before going to review.
SETTLE_CPU_SECONDS = 0.5


def runner_ups_settled(geo: Geometry, chosen: list[int], solution, doubtful: dict[int, list[int]]
                       ) -> bool:
    """Whether every other reading of the `doubtful` cells (index in `chosen` -> the likely
    values other than the chosen one) leaves the grid with no solution, or with `solution`
    as its only one."""
    if not doubtful or prod(1 + len(v) for v in doubtful.values()) - 1 > MAX_READINGS:
        return False
    cells, n = list(doubtful), geo.size
    budget = Budget.start(2 * SETTLE_CPU_SECONDS, SETTLE_CPU_SECONDS)
    for pick in product(*([chosen[i]] + doubtful[i] for i in cells)):
        if all(v == chosen[i] for i, v in zip(cells, pick, strict=True)):
            continue
        if budget.spent():
            return False
        grid = list(chosen)
        for i, v in zip(cells, pick, strict=True):
            grid[i] = v
        answer = solve_grid(geo, [grid[r * n:(r + 1) * n] for r in range(n)], None,
                            budget.wall_left(), work=budget.work())
        if answer.verdict == "none":
            continue
        if answer.verdict != "unique" or answer.solution != solution:
            return False
    return True
