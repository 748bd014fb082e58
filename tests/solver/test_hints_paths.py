"""The whole logical path of fixed puzzles, step by step, against recorded digests.

A change that only makes the solver faster must leave every step as it was (technique,
cells, placements, eliminations, digits). The digests were recorded with the solver as it
was before its hot spots were made faster; bench/hints_exact.py compares two checkouts on
many more puzzles.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from gridsight.synth.puzzles import make_killer, make_sudoku
from services.solver.grid import geometry
from services.solver.logic import Board, solve_path
from services.solver.propagate import initial_candidates, search

# puzzle -> (steps, digest of the path): wings, fish, chains, ALS, unique rectangles,
# forcing chains, nested ones and trial among them
HARD = {
    # top1465
    "...4.........61.7.....984....16.9..2.5...39..3..7....57.3..6.8..18...7....4.....9":
        (87, "98dc583df9dd0391"),
    ".29..........4....7..1593.......573..........17..835.92.4..6..1...5..8..9........":
        (90, "993c03218308a768"),
    "6..3.2....4.....8..........7.26............543.........8.15........8.2........7..":
        (81, "c408386baf40d312"),
    "8.....5.......2....9..7......4...978.32......1...9..2...1.8..94.5....6....96.....":
        (93, "896496096d5fed6f"),
    # forum hardest 11+
    "98.7..6..75..6..9...6......43..8......89...7......23....58...6.....1...2.....41..":
        (65, "d4d8896e279a47a7"),
    "92.76.5..6...8.9....5..9...5....76....163...........2.3..9..8......7...4.....8.5.":
        (87, "aac677f08617bf20"),
}
# seed of gridsight.synth.puzzles -> (steps, digest)
SUDOKU = {1: (66, "f43287d6b34f3df3"), 3: (75, "4f438946ba027ddd")}
KILLER = {0: (135, "6e2f0f8bfb1c3d0a"), 1: (128, "421356d7976aceda"),
          2: (152, "bd2337414633c2ef")}


def grid_of(line: str) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in line[r * 9:r * 9 + 9]] for r in range(9)]


def solution_of(givens) -> list[int]:
    geo = geometry(9, (3, 3))
    found, _ = search(initial_candidates(givens, geo), geo, limit=1)
    return [m.bit_length() for m in found[0]]


def digest(board: Board, truth: list[int]) -> tuple[int, str]:
    steps = solve_path(board, truth).steps
    text = json.dumps([[s.technique, s.cells, s.placements, s.eliminations, s.digits]
                       for s in steps])
    return len(steps), hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("line", sorted(HARD))
def test_hard_paths_are_as_recorded(line):
    givens = grid_of(line)
    assert digest(Board.start(givens, 9, (3, 3)), solution_of(givens)) == HARD[line]


@pytest.mark.parametrize("seed", sorted(SUDOKU))
def test_generated_paths_are_as_recorded(seed):
    givens, solution = make_sudoku(random.Random(seed), 9)
    truth = [v for row in solution for v in row]
    assert digest(Board.start(givens, 9, (3, 3)), truth) == SUDOKU[seed]


@pytest.mark.parametrize("seed", sorted(KILLER))
def test_killer_paths_are_as_recorded(seed):
    puzzle, solution = make_killer(random.Random(seed), 9)
    cages = [([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]
    truth = [v for row in solution for v in row]
    assert digest(Board.start(None, 9, (3, 3), cages), truth) == KILLER[seed]
