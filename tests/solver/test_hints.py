"""The logical path on generated and known puzzles: every step agrees with the solution."""

from __future__ import annotations

import random

import pytest

from gridsight.synth.puzzles import make_killer, make_sudoku
from services.contracts import SudokuPuzzle
from services.solver.grid import default_box, geometry
from services.solver.hints import hints
from services.solver.logic import Board, next_step, solve_path
from services.solver.propagate import initial_candidates, search

# Typed in from well-known lists: an easy newspaper grid and two of the hardest known.
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASTER_MONSTER = ("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2....."
                  "1")
TOP1465_FIRST = ("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9...."
                 "....")


def grid_of(line: str) -> list[list[int]]:
    return [[0 if ch in ".0" else int(ch) for ch in line[r * 9:r * 9 + 9]] for r in range(9)]


def solution_of(givens) -> list[int]:
    geo = geometry(9, (3, 3))
    found, complete = search(initial_candidates(givens, geo), geo, limit=2)
    assert complete and len(found) == 1
    return [m.bit_length() for m in found[0]]


def check_path(board: Board, truth: list[int]):
    """Walk the whole path, checking each step before it is applied."""
    path = solve_path(board.copy(), truth)
    for step in path.steps:
        assert step.placements or step.eliminations, step.technique
        assert step.text and step.cells
        for cell, d in step.placements:
            assert truth[cell] == d, (step.technique, step.text)
            assert not board.values[cell]
        for cell, d in step.eliminations:
            assert truth[cell] != d, (step.technique, step.text)
            assert board.cands[cell] & (1 << (d - 1)), (step.technique, step.text)
        step.apply(board)
        assert all(board.cands[i] & (1 << (truth[i] - 1)) for i in range(len(truth)))
    assert path.finished and board.values == truth
    return path


@pytest.mark.parametrize("size, box, seed", [
    (4, (2, 2), 0), (6, (2, 3), 1), (6, (3, 2), 2), (8, (2, 4), 3), (9, (3, 3), 4),
    (9, (3, 3), 5), (12, (3, 4), 6), (16, (4, 4), 7)])
def test_generated_sudoku_paths_are_sound(size, box, seed):
    givens, solution = make_sudoku(random.Random(seed), size, box)
    board = Board.start(givens, size, box)
    path = check_path(board, [v for row in solution for v in row])
    assert path.rating()["logical"]


KNOWN_PATHS: dict[str, object] = {}


@pytest.mark.parametrize("line", [EASY, TOP1465_FIRST, EASTER_MONSTER])
def test_known_puzzles(line):
    givens = grid_of(line)
    path = KNOWN_PATHS[line] = check_path(Board.start(givens, 9, (3, 3)), solution_of(givens))
    assert len(path.steps) >= 81 - sum(ch != "." for ch in line)
    if line == EASY:
        assert path.rating()["level"] == "easy"
    else:
        assert path.rating()["score"] >= 6.0  # chains or beyond


def test_the_rating_orders_easy_below_hard():
    easy = hints(SudokuPuzzle(size=9, givens=grid_of(EASY)))["rating"]
    hard = hints(SudokuPuzzle(size=9, givens=grid_of(TOP1465_FIRST)))["rating"]
    assert easy["score"] < hard["score"] and easy["steps"] > 0


@pytest.mark.parametrize("seed", range(4))
def test_generated_killer_paths_are_sound(seed):
    puzzle, solution = make_killer(random.Random(seed), 9)
    cages = [([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]
    board = Board.start(puzzle.givens, 9, (3, 3), cages)
    path = check_path(board, [v for row in solution for v in row])
    assert "cage combinations" in {s.technique for s in path.steps}


def test_killer_6x6_path():
    puzzle, solution = make_killer(random.Random(3), 6)
    cages = [([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]
    check_path(Board.start(None, 6, default_box(6), cages), [v for row in solution for v in row])


def test_a_wrong_entry_is_named_before_any_hint():
    givens = grid_of(EASY)
    truth = solution_of(givens)
    entries = [[0] * 9 for _ in range(9)]
    entries[0][0] = truth[0] % 9 + 1  # wrong
    entries[0][1] = truth[1]  # right
    answer = hints(SudokuPuzzle(size=9, givens=givens), entries=entries)
    (step,) = answer["steps"]
    assert step["technique"] == "wrong entry" and step["cells"] == [[0, 0]]
    assert f"the solution has {truth[0]}" in step["text"]


def test_the_hint_starts_from_the_persons_entries():
    givens = grid_of(EASY)
    truth = solution_of(givens)
    board = Board.start(givens, 9, (3, 3))
    first = next_step(board, truth)
    (cell, d), = first.placements
    entries = [[0] * 9 for _ in range(9)]
    entries[cell // 9][cell % 9] = d
    answer = hints(SudokuPuzzle(size=9, givens=givens), entries=entries)
    (step,) = answer["steps"]
    assert step["placements"] and [step["placements"][0]["row"],
                                   step["placements"][0]["col"]] != [cell // 9, cell % 9]
    whole = hints(SudokuPuzzle(size=9, givens=givens), entries=entries, whole_path=True)
    placed = {(p["row"], p["col"]) for s in whole["steps"] for p in s["placements"]}
    assert len(placed) == sum(v == 0 for row in givens for v in row) - 1


def test_hard_9x9_paths_use_the_hard_techniques():
    seen = set()
    for line in (TOP1465_FIRST, EASTER_MONSTER):
        if line not in KNOWN_PATHS:  # run alone
            givens = grid_of(line)
            KNOWN_PATHS[line] = solve_path(Board.start(givens, 9, (3, 3)), solution_of(givens))
        seen |= {s.technique for s in KNOWN_PATHS[line].steps}
    assert {"AIC", "X-chain", "forcing chain", "trial and error"} <= seen


def test_a_forcing_chain_gives_everything_its_choice_proves_in_one_step():
    if TOP1465_FIRST not in KNOWN_PATHS:  # run alone
        givens = grid_of(TOP1465_FIRST)
        KNOWN_PATHS[TOP1465_FIRST] = solve_path(Board.start(givens, 9, (3, 3)),
                                                solution_of(givens))
    forcing = [s for s in KNOWN_PATHS[TOP1465_FIRST].steps if s.technique == "forcing chain"]
    assert any(len({i for i, _ in s.placements + s.eliminations}) > 1 for s in forcing)


# From top1465: one needs a digit forcing chain, the other a nested one, and no trial.
NEEDS_DIGIT_FORCING = ("8.....4..16.3....2....2...1.3...92....9.....7..8"
                       "5...6..5..4..1.49...78........7..")
NEEDS_NESTED_FORCING = ("..3....9..5.2.......7361.........71.4....8....."
                        "..3...6...5..83..85.2....2...14...")


@pytest.mark.parametrize("line, technique", [(NEEDS_DIGIT_FORCING, "digit forcing chain"),
                                             (NEEDS_NESTED_FORCING, "nested forcing chain")])
def test_stronger_forcing_chains_are_sound_and_spare_trial(line, technique):
    givens = grid_of(line)
    path = check_path(Board.start(givens, 9, (3, 3)), solution_of(givens))
    used = {s.technique for s in path.steps}
    assert technique in used and path.rating()["logical"]
    step = next(s for s in path.steps if s.technique == technique)
    assert step.text.startswith("Either ") and "whichever is true" in step.text
