"""Random complete sudoku grids of any box shape."""

from __future__ import annotations

import random

from services.solver.grid import default_box


def random_solution(size: int = 9, box: tuple[int, int] | None = None,
                    rng: random.Random | None = None) -> list[list[int]]:
    """A uniformly shuffled valid grid: a base pattern with bands, stacks and digits permuted."""
    rng = rng or random.Random()
    br, bc = box or default_box(size)

    def pattern(r: int, c: int) -> int:
        return (bc * (r % br) + r // br + c) % size

    def shuffled(groups: int, width: int) -> list[int]:
        order = rng.sample(range(groups), groups)
        return [g * width + i for g in order for i in rng.sample(range(width), width)]

    rows = shuffled(size // br, br)
    cols = shuffled(size // bc, bc)
    digits = rng.sample(range(1, size + 1), size)
    return [[digits[pattern(r, c)] for c in cols] for r in rows]
