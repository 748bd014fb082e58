"""Doubts about a sudoku reading that the puzzle itself settles.

A kept reading whose runner-up is likely (UNCERTAIN_RUNNER_UP) sends a solved grid to
review. When putting the runner-up in its place, alone or together with the other doubtful
cells' runner-ups, leaves a grid with no solution at all, the picture cannot hold that
reading: whatever was printed has a solution. The doubt is then settled. A runner-up that
removes a digit (blank) is never settled this way, as a grid with fewer digits keeps every
solution it had; a check that runs out of time settles nothing.
"""

from __future__ import annotations

from itertools import product

from services.solver.grid import Geometry
from services.solver.sudoku import solve_grid

MAX_DOUBTFUL_CELLS = 3  # at most 3**3 - 1 other readings are tried
CHECK_SECONDS = 0.5  # a 9x9 with no solution is proved so in milliseconds


def runner_ups_unsolvable(geo: Geometry, chosen: list[int], doubtful: dict[int, list[int]]
                          ) -> bool:
    """Whether every other reading of the `doubtful` cells (index in `chosen` -> the likely
    values other than the chosen one) leaves the grid with no solution."""
    if not doubtful or len(doubtful) > MAX_DOUBTFUL_CELLS:
        return False
    if any(0 in values for values in doubtful.values()):
        return False
    cells, n = list(doubtful), geo.size
    for pick in product(*([chosen[i]] + doubtful[i] for i in cells)):
        if all(v == chosen[i] for i, v in zip(cells, pick, strict=True)):
            continue
        grid = list(chosen)
        for i, v in zip(cells, pick, strict=True):
            grid[i] = v
        givens = [grid[r * n:(r + 1) * n] for r in range(n)]
        if solve_grid(geo, givens, None, CHECK_SECONDS).verdict != "none":
            return False
    return True
