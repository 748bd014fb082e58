"""Nonogram line solving for many lines at once, vectorised with NumPy.

A line of n cells gets two virtual empty cells at n and n+1, so positions run 0..n+1.
For the runs of a clue, with each run followed by an empty cell:

    head[j][i]  the first j runs fit the cells before i, ending exactly at i
    tail[j][i]  runs j.. fit the cells from i on

Both are reachability over positions: head[j][i] holds when some placement of run j ends
at t <= i and every cell t..i-1 may be empty, i.e. when the latest such t lies after the
latest cell before i that must be filled. So each run costs a handful of array operations
(a running maximum or minimum) over all lines of the batch instead of a loop over cells.
A cell is FILLED when every placement covers it, EMPTY when none does.
"""

from __future__ import annotations

import numpy as np

UNKNOWN, FILLED, EMPTY = 0, 1, 2
CONTRADICTION = -1
_FAR = 1 << 30


def pad_runs(clues: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """(runs, counts): clues as a matrix padded with 1s, and the number of runs per line."""
    counts = np.array([len(c) for c in clues], dtype=np.int64)
    runs = np.ones((len(clues), max(1, int(counts.max(initial=0)))), dtype=np.int64)
    for i, clue in enumerate(clues):
        runs[i, :len(clue)] = clue
    return runs, counts


def solve_lines(runs: np.ndarray, counts: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """What every placement fixes, line by line (L x n, int8); a line no placement fits
    comes back with a CONTRADICTION cell."""
    n_lines, n = lines.shape
    k_max = int(counts.max(initial=0))
    runs = runs[:, :max(1, k_max)]
    width = n + 2
    pos = np.arange(width)
    rows = np.arange(n_lines)
    base = rows[:, None] * width  # flat index of each line's position 0

    def shifted(table: np.ndarray, by: np.ndarray) -> np.ndarray:
        """table[line, i + by[line]] for every i, False where that falls off the line."""
        at = pos + by
        inside = (at >= 0) & (at < width)
        return table.ravel()[base + np.where(inside, at, 0)] & inside

    can_empty = np.ones((n_lines, width), dtype=bool)
    can_empty[:, :n] = lines != FILLED
    must_fill = np.where(can_empty, -1, pos)
    last_fill = np.full((n_lines, width), -1)  # latest must-fill cell before i
    last_fill[:, 1:] = np.maximum.accumulate(must_fill[:, :-1], axis=1)
    first_fill = np.minimum.accumulate(np.where(can_empty, width, pos)[:, ::-1],
                                       axis=1)[:, ::-1]  # first must-fill cell from i on
    is_empty = np.ones((n_lines, width), dtype=bool)
    is_empty[:, :n] = lines == EMPTY
    next_empty = np.minimum.accumulate(np.where(is_empty, pos, width)[:, ::-1],
                                       axis=1)[:, ::-1]
    room = next_empty - pos  # cells from i on that may be filled

    # fits[j][s]: run j may cover s..s+r-1 with an empty cell after it.
    fits = np.empty((k_max, n_lines, width), dtype=bool)
    for j in range(k_max):
        r = runs[:, j:j + 1]
        fits[j] = (pos + r <= n) & (room >= r) & shifted(can_empty, r)

    head = np.empty((k_max + 1, n_lines, width), dtype=bool)
    head[0] = last_fill < 0
    for j in range(1, k_max + 1):
        r = runs[:, j - 1:j]
        placed = head[j - 1] & fits[j - 1]  # run j-1 may start at s
        ends = shifted(placed, -r - 1)  # ... and then ends (after its empty cell) at s + r + 1
        latest = np.maximum.accumulate(np.where(ends, pos, -1), axis=1)
        head[j] = latest > last_fill
    fitting = head[counts, rows, n + 1]

    tail = np.empty((k_max + 1, n_lines, width), dtype=bool)
    bare = first_fill >= width  # no runs left: everything from i on may be empty
    tail[k_max] = bare
    finished = np.arange(k_max + 1)[:, None] >= counts[None, :]  # (j, line): j >= runs
    for j in range(k_max - 1, -1, -1):
        r = runs[:, j:j + 1]
        starts = fits[j] & shifted(tail[j + 1], r + 1)
        earliest = np.minimum.accumulate(np.where(starts, pos, _FAR)[:, ::-1],
                                         axis=1)[:, ::-1]
        tail[j] = np.where(finished[j][:, None], bare, earliest <= first_fill)

    used = ~finished[:k_max]  # (j, line): run j exists
    gaps = np.arange(k_max + 1)[:, None] <= counts[None, :]
    may_empty = (head[:, :, :n] & tail[:, :, 1:n + 1] & gaps[:, :, None]).any(axis=0)
    covered = np.zeros((n_lines, n), dtype=bool)
    for j in range(k_max):
        r = runs[:, j:j + 1]
        valid = head[j] & fits[j] & shifted(tail[j + 1], r + 1) & used[j][:, None]
        latest = np.maximum.accumulate(np.where(valid, pos, -_FAR), axis=1)
        covered |= (latest + r > pos)[:, :n]
        may_empty |= shifted(valid, -r)[:, :n]  # the empty cell that ends the run
    may_empty &= can_empty[:, :n]

    out = np.full((n_lines, n), CONTRADICTION, dtype=np.int8)
    out[covered & may_empty] = UNKNOWN
    out[covered & ~may_empty] = FILLED
    out[~covered & may_empty] = EMPTY
    out[~fitting] = CONTRADICTION
    return out
