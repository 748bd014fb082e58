"""Readings with known truth, built from the project's own puzzle generators."""

from __future__ import annotations

import random

from services.contracts import CageSumReading, KillerPuzzle, Reading, SumCandidate

SURE = 0.97


def confident_cell(n: int, value: int) -> list[float]:
    probs = [(1 - SURE) / n] * (n + 1)
    probs[value] = SURE
    return probs


def misread_cell(n: int, read: int, truth: int, read_prob: float = 0.6,
                 truth_prob: float = 0.35) -> list[float]:
    probs = [(1 - read_prob - truth_prob) / (n - 1)] * (n + 1)
    probs[read], probs[truth] = read_prob, truth_prob
    return probs


def sudoku_reading(givens: list[list[int]]) -> Reading:
    n = len(givens)
    return Reading(kind="sudoku", size=n,
                   cells=[[confident_cell(n, v) for v in row] for row in givens])


def clashing_digit(givens: list[list[int]], r: int, c: int, rng: random.Random) -> int:
    """A wrong digit for (r, c) that another given in its row, column or box already shows."""
    n = len(givens)
    seen = {givens[r][j] for j in range(n)} | {givens[i][c] for i in range(n)}
    br = 3 if n == 9 else 2
    bc = n // br
    r0, c0 = r - r % br, c - c % bc
    seen |= {givens[i][j] for i in range(r0, r0 + br) for j in range(c0, c0 + bc)}
    options = sorted(seen - {0, givens[r][c]})
    return rng.choice(options)


def killer_reading(puzzle: KillerPuzzle) -> tuple[Reading, dict]:
    """A confident reading of a killer puzzle: walls, cage sums at each cage's top-left cell."""
    n = puzzle.size
    owner = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    right = [[0.98 if owner[(r, c)] != owner[(r, c + 1)] else 0.02 for c in range(n - 1)]
             for r in range(n)]
    down = [[0.98 if owner[(r, c)] != owner[(r + 1, c)] else 0.02 for c in range(n)]
            for r in range(n - 1)]
    sums = [CageSumReading(cell=min(tuple(x) for x in cage.cells),
                           candidates=[SumCandidate(value=cage.sum, prob=0.95),
                                       SumCandidate(value=cage.sum + 10, prob=0.04)])
            for cage in puzzle.cages]
    cells = [[confident_cell(n, 0) for _ in range(n)] for _ in range(n)]
    reading = Reading(kind="killer", size=n, cells=cells, walls_right=right, walls_down=down,
                      cage_sums=sums)
    return reading, owner


def misread_two_sums(reading: Reading, rng: random.Random) -> set[tuple[int, int]]:
    """Misreads two of a killer reading's sums in place: one whose true value is none of
    its candidates (a digit lost in a photo), one whose true value is the runner-up, so
    the grid total cannot pin the first down alone. Returns the two sums' cells."""
    first, second = rng.sample(range(len(reading.cage_sums)), 2)
    s = reading.cage_sums[first]
    reading.cage_sums[first] = CageSumReading(cell=s.cell, candidates=[
        SumCandidate(value=v, prob=p) for v, p in ((45, 0.5), (0, 0.3), (44, 0.2))])
    t = reading.cage_sums[second]
    right = t.candidates[0].value
    reading.cage_sums[second] = CageSumReading(cell=t.cell, candidates=[
        SumCandidate(value=right + 1, prob=0.7), SumCandidate(value=right, prob=0.3)])
    return {tuple(s.cell), tuple(t.cell)}
