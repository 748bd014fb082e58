"""Hard killers (large cages, implied sums) and the batched nonogram line solver."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from gridsight.synth.puzzles import HARD_MEAN_CAGE, make_killer
from services.contracts import Cage, KillerPuzzle
from services.solver import solve_puzzle
from services.solver.cages import region_sums
from services.solver.check import sudoku_errors
from services.solver.grid import default_box
from services.solver.lines import CONTRADICTION, EMPTY, FILLED, UNKNOWN, pad_runs, solve_lines


def cages_of(puzzle: KillerPuzzle):
    return [([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]


def cell_cages(puzzle: KillerPuzzle):
    return [([r * puzzle.size + c for r, c in cage.cells], cage.sum) for cage in puzzle.cages]


@pytest.fixture(scope="module")
def hard_killer():
    return make_killer(random.Random(1), 9, hard=True)


def test_hard_killer_has_large_cages_and_one_answer(hard_killer):
    puzzle, truth = hard_killer
    sizes = [len(cage.cells) for cage in puzzle.cages]
    assert sum(sizes) / len(sizes) >= HARD_MEAN_CAGE
    assert max(sizes) >= 5
    result = solve_puzzle(puzzle)
    assert result.verdict == "unique"
    assert result.solution == truth
    assert sudoku_errors(truth, None, (3, 3), cages_of(puzzle)) == []


def test_implied_sums_hold_for_the_solution(hard_killer):
    puzzle, truth = hard_killer
    groups = region_sums(9, (3, 3), cell_cages(puzzle))
    assert len(groups) >= 5
    for cells, total in groups:
        assert 1 <= len(cells) <= 4
        assert sum(truth[i // 9][i % 9] for i in cells) == total


def _whole_rows_killer() -> KillerPuzzle:
    return KillerPuzzle(size=4, cages=[Cage(sum=10, cells=[(r, c) for c in range(4)])
                                       for r in range(4)])


def _broken_killer() -> KillerPuzzle:
    grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
    return KillerPuzzle(size=4, cages=[Cage(sum=grid[r][c], cells=[(r, c)])
                                       for r in range(4) for c in range(4)])


def _loosened(puzzle: KillerPuzzle, truth) -> KillerPuzzle:
    """The puzzle with two neighbouring cages of different digits joined: the answer
    still fits, and often another one does too."""
    cages = [list(map(tuple, c.cells)) for c in puzzle.cages]
    sums = [c.sum for c in puzzle.cages]
    for a, b in combinations(range(len(cages)), 2):
        touch = any(abs(r - i) + abs(c - j) == 1 for r, c in cages[a] for i, j in cages[b])
        digits = [truth[r][c] for r, c in cages[a] + cages[b]]
        if touch and len(set(digits)) == len(digits):
            joined = [Cage(sum=sums[a] + sums[b], cells=cages[a] + cages[b])]
            rest = [Cage(sum=s, cells=c) for k, (c, s) in enumerate(zip(cages, sums))
                    if k not in (a, b)]
            return KillerPuzzle(size=puzzle.size, cages=joined + rest)
    raise AssertionError("no neighbouring cages")


def test_implied_sums_and_thorough_search_keep_every_verdict(monkeypatch, hard_killer):
    from services.solver import sudoku

    puzzles = [hard_killer[0], _loosened(*hard_killer), make_killer(random.Random(3), 6)[0],
               _whole_rows_killer(), _broken_killer()]
    with_sums = [solve_puzzle(p) for p in puzzles]
    monkeypatch.setattr(sudoku, "IMPLIED_SUM_CELLS", 0)
    monkeypatch.setattr(sudoku, "QUICK_KILLER_SECONDS", 0.0)  # thorough settings only
    plain = [solve_puzzle(p) for p in puzzles]
    assert [r.verdict for r in with_sums] == [r.verdict for r in plain]
    assert {"unique", "multiple", "none"} <= {r.verdict for r in plain}
    for result, p in zip(with_sums, puzzles, strict=True):
        if result.solution:
            assert sudoku_errors(result.solution, None, default_box(p.size), cages_of(p)) == []


def _placements(runs: list[int], n: int):
    """Every line of n cells whose runs are runs, by brute force."""
    for bits in range(1 << n):
        line = [FILLED if bits >> i & 1 else EMPTY for i in range(n)]
        text = "".join("#" if v == FILLED else "." for v in line)
        if [len(s) for s in text.split(".") if s] == runs:
            yield line


def test_batched_line_solver_agrees_with_brute_force():
    rng = random.Random(4)
    for _ in range(40):
        n = rng.randint(1, 9)
        clues, lines = [], []
        for _ in range(rng.randint(1, 6)):
            runs = [rng.randint(1, 3) for _ in range(rng.randint(0, 3))]
            clues.append(runs)
            lines.append([rng.choice([UNKNOWN, UNKNOWN, UNKNOWN, FILLED, EMPTY])
                          for _ in range(n)])
        matrix, counts = pad_runs(clues)
        out = solve_lines(matrix, counts, np.array(lines, dtype=np.int8))
        for runs, line, got in zip(clues, lines, out.tolist(), strict=True):
            fitting = [p for p in _placements(runs, n)
                       if all(v == UNKNOWN or v == p[i] for i, v in enumerate(line))]
            if not fitting:
                assert CONTRADICTION in got
                continue
            want = [p[0] if len(set(p)) == 1 else UNKNOWN for p in zip(*fitting)]
            assert got == want
