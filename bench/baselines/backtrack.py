"""Naive backtracking: fill cells in reading order, try digits 1..n, undo on a clash."""

from __future__ import annotations

import time


class OutOfTime(Exception):
    pass


def solve(givens: list[list[int]], box: tuple[int, int], time_limit: float = 1.0
          ) -> list[list[int]] | None:
    """One solution or None; raises OutOfTime after time_limit seconds."""
    n = len(givens)
    br, bc = box
    grid = [row.copy() for row in givens]
    rows = [set(v for v in row if v) for row in grid]
    cols = [set(grid[r][c] for r in range(n) if grid[r][c]) for c in range(n)]
    boxes = [set() for _ in range(n)]
    for r in range(n):
        for c in range(n):
            if grid[r][c]:
                boxes[(r // br) * (n // bc) + c // bc].add(grid[r][c])
    empty = [(r, c) for r in range(n) for c in range(n) if not grid[r][c]]
    deadline = time.perf_counter() + time_limit
    steps = 0

    def place(k: int) -> bool:
        nonlocal steps
        if k == len(empty):
            return True
        steps += 1
        if steps % 4096 == 0 and time.perf_counter() > deadline:
            raise OutOfTime
        r, c = empty[k]
        b = (r // br) * (n // bc) + c // bc
        for d in range(1, n + 1):
            if d in rows[r] or d in cols[c] or d in boxes[b]:
                continue
            grid[r][c] = d
            rows[r].add(d)
            cols[c].add(d)
            boxes[b].add(d)
            if place(k + 1):
                return True
            rows[r].discard(d)
            cols[c].discard(d)
            boxes[b].discard(d)
        grid[r][c] = 0
        return False

    return grid if place(0) else None
