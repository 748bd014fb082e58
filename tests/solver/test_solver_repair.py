"""Confidence-weighted repair of readings with known truth."""

from __future__ import annotations

import random

import pytest
from solver_readings import (
    clashing_digit,
    confident_cell,
    killer_reading,
    misread_cell,
    misread_two_sums,
    sudoku_reading,
)

from gridsight.synth.puzzles import make_killer, make_sudoku
from services.contracts import CageSumReading, SumCandidate
from services.solver import PuzzleError, solve_reading
from services.solver.grid import geometry
from services.solver.review import UNCERTAIN_RUNNER_UP
from services.solver.sudoku import solve_grid


def test_a_clean_reading_is_solved_without_suspects():
    givens, truth = make_sudoku(random.Random(1), 9)
    result = solve_reading(sudoku_reading(givens))
    assert result.status == "solved" and result.verdict == "unique"
    assert result.solution == truth and result.suspects == [] and result.uncertain == []
    assert result.puzzle.givens == givens


@pytest.mark.parametrize("seed, wrong", [(1, 1), (2, 2), (3, 3), (4, 2), (5, 3)])
def test_misread_givens_are_repaired_and_named(seed, wrong):
    rng = random.Random(seed)
    givens, truth = make_sudoku(rng, 9)
    reading = sudoku_reading(givens)
    shown = [(r, c) for r in range(9) for c in range(9) if givens[r][c]]
    bad = {}
    for r, c in rng.sample(shown, wrong):
        bad[(r, c)] = clashing_digit(givens, r, c, rng)
        reading.cells[r][c] = misread_cell(9, bad[(r, c)], givens[r][c])
    result = solve_reading(reading)
    assert result.status == "needs_review"
    assert result.solution == truth
    assert result.puzzle.givens == givens
    assert {(s.row, s.col) for s in result.suspects} == set(bad)
    for s in result.suspects:
        assert (s.what, s.read, s.chosen) == ("cell", bad[(s.row, s.col)], truth[s.row][s.col])
        assert (s.read_prob, s.chosen_prob) == pytest.approx((0.6, 0.35))


def test_a_digit_read_as_blank_is_restored_when_needed_for_uniqueness():
    rng = random.Random(8)
    givens, truth = make_sudoku(rng, 9)
    r, c = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    reading = sudoku_reading(givens)
    reading.cells[r][c] = misread_cell(9, 0, givens[r][c], 0.55, 0.4)
    result = solve_reading(reading)
    assert result.verdict == "unique" and result.solution == truth
    assert [(s.row, s.col, s.read, s.chosen) for s in result.suspects] == \
        [(r, c, 0, givens[r][c])]


def needed_given(givens: list[list[int]]) -> tuple[int, int]:
    """A given without which the grid has several solutions."""
    geo = geometry(9)
    for r, c in ((r, c) for r in range(9) for c in range(9) if givens[r][c]):
        fewer = [row[:] for row in givens]
        fewer[r][c] = 0
        if solve_grid(geo, fewer).verdict == "multiple":
            return r, c
    raise AssertionError("every given is redundant")


def test_a_thin_margin_is_reported_as_uncertain():
    """A given whose runner-up is blank, and without which the grid has several
    solutions: the answer hangs on the reading, so a person is asked."""
    givens, truth = make_sudoku(random.Random(4), 9)
    r, c = needed_given(givens)
    reading = sudoku_reading(givens)
    reading.cells[r][c] = misread_cell(9, givens[r][c], 0, 0.7, UNCERTAIN_RUNNER_UP + 0.05)
    result = solve_reading(reading)
    assert result.status == "needs_review" and result.suspects == []
    assert [(u.row, u.col, u.chosen) for u in result.uncertain] == [(r, c, givens[r][c])]
    assert result.uncertain[0].alternatives[0].value == 0


def test_a_digit_the_grid_has_the_same_answer_without_is_settled():
    """A digit read as the answer's, maybe blank (a half-solved page's digit, printed or
    the person's): with it or without it the grid has that one answer."""
    givens, truth = make_sudoku(random.Random(4), 9)
    r, c = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    more = [row[:] for row in givens]
    more[r][c] = truth[r][c]
    reading = sudoku_reading(more)
    reading.cells[r][c] = misread_cell(9, truth[r][c], 0, 0.6, UNCERTAIN_RUNNER_UP + 0.15)
    result = solve_reading(reading)
    assert result.status == "solved" and result.solution == truth
    assert result.uncertain == [] and result.suspects == []


def test_a_blank_whose_likely_digit_is_the_answers_is_settled():
    """Blank or the answer's digit: the digit put in leaves the one answer there was."""
    givens, truth = make_sudoku(random.Random(4), 9)
    r, c = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    reading = sudoku_reading(givens)
    reading.cells[r][c] = misread_cell(9, 0, truth[r][c], 0.7, UNCERTAIN_RUNNER_UP + 0.05)
    result = solve_reading(reading)
    assert result.status == "solved" and result.solution == truth
    assert result.uncertain == []


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_runner_ups_that_leave_no_solution_are_settled_by_the_puzzle(seed):
    """Up to three thin margins whose runner-ups, alone or together, clash with the grid:
    no printed puzzle reads that way, so the doubt is settled and the grid is solved."""
    rng = random.Random(seed)
    givens, truth = make_sudoku(rng, 9)
    reading = sudoku_reading(givens)
    shown = [(r, c) for r in range(9) for c in range(9) if givens[r][c]]
    for r, c in rng.sample(shown, 3):
        other = clashing_digit(givens, r, c, rng)
        reading.cells[r][c] = misread_cell(9, givens[r][c], other, 0.6,
                                           UNCERTAIN_RUNNER_UP + 0.1)
    result = solve_reading(reading)
    assert result.status == "solved" and result.solution == truth
    assert result.uncertain == [] and result.suspects == []


def test_one_runner_up_the_puzzle_allows_keeps_the_others_in_review():
    rng = random.Random(7)
    givens, truth = make_sudoku(rng, 9)
    reading = sudoku_reading(givens)
    b = needed_given(givens)
    r, c = next((r, c) for r in range(9) for c in range(9) if givens[r][c] and (r, c) != b)
    reading.cells[r][c] = misread_cell(9, givens[r][c], clashing_digit(givens, r, c, rng),
                                       0.6, UNCERTAIN_RUNNER_UP + 0.1)
    reading.cells[b[0]][b[1]] = misread_cell(9, givens[b[0]][b[1]], 0, 0.6,
                                             UNCERTAIN_RUNNER_UP + 0.1)
    result = solve_reading(reading)
    assert result.status == "needs_review" and result.solution == truth
    assert {(u.row, u.col) for u in result.uncertain} == {(r, c), b}


def test_confident_clash_asks_for_review_with_words_and_suspects():
    """A misprinted grid read with certainty: the person can still fix the reading, so the
    job needs review, and both clashing readings are marked as suspects."""
    givens, _ = make_sudoku(random.Random(6), 9)
    row = givens[0]
    c1, c2 = [c for c in range(9) if row[c]][:2]
    givens[0][c2] = givens[0][c1]
    reading = sudoku_reading(givens)
    for r in range(9):
        for c in range(9):  # certain readings: nothing is left to repair
            reading.cells[r][c] = [float(v == givens[r][c]) for v in range(10)]
    result = solve_reading(reading, time_limit=5)
    assert result.status == "needs_review" and result.verdict == "none"
    assert result.solution is None
    assert any(f"row 1 has 2 {row[c1]}s" in c for c in result.conflicts)
    assert {(s.row, s.col) for s in result.suspects} >= {(0, c1), (0, c2)}
    assert all(s.read == s.chosen == row[c1] for s in result.suspects
               if (s.row, s.col) in {(0, c1), (0, c2)})


def test_fixed_readings_are_trusted_over_probabilities():
    rng = random.Random(9)
    givens, truth = make_sudoku(rng, 9)
    r, c = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    reading = sudoku_reading(givens)
    wrong = clashing_digit(givens, r, c, rng)
    reading.cells[r][c] = confident_cell(9, wrong)  # confidently wrong
    # Confirmed by a person, as JSON would carry it: "r,c" string keys.
    result = solve_reading(reading, fixed={"cells": {f"{r},{c}": givens[r][c]}})
    assert result.verdict == "unique" and result.solution == truth
    assert result.suspects == []


def test_fixed_readings_accept_triples_and_reject_unknown_parts():
    givens, _ = make_sudoku(random.Random(2), 4)
    reading = sudoku_reading(givens)
    assert solve_reading(reading, fixed={"cells": [[0, 0, givens[0][0]]]}).verdict == "unique"
    with pytest.raises(PuzzleError, match="unknown part"):
        solve_reading(reading, fixed={"colours": {}})


@pytest.mark.parametrize("seed, bad_sums, bad_walls", [(1, 1, 0), (2, 2, 0), (3, 0, 1),
                                                       (4, 2, 1), (5, 3, 0)])
def test_killer_cage_sums_and_walls_are_repaired(seed, bad_sums, bad_walls):
    rng = random.Random(seed)
    puzzle, truth = make_killer(rng, 9)
    reading, owner = killer_reading(puzzle)
    expected = set()
    for k in rng.sample(range(len(reading.cage_sums)), bad_sums):
        s = reading.cage_sums[k]
        truth_sum = s.candidates[0].value
        wrong = truth_sum + rng.choice([-2, -1, 1, 2])
        reading.cage_sums[k] = CageSumReading(cell=s.cell, candidates=[
            SumCandidate(value=wrong, prob=0.6), SumCandidate(value=truth_sum, prob=0.35)])
        expected.add(("cage_sum", *s.cell))
    walls = [(r, c) for r in range(9) for c in range(8) if reading.walls_right[r][c] > 0.5]
    for r, c in rng.sample(walls, bad_walls):
        reading.walls_right[r][c] = 0.4
        expected.add(("wall_right", r, c))
    result = solve_reading(reading)
    assert result.solution == truth and result.verdict == "unique"
    assert {(s.what, s.row, s.col) for s in result.suspects} == expected
    assert sorted(sorted(map(tuple, c.cells)) for c in result.puzzle.cages) == \
        sorted(sorted(map(tuple, c.cells)) for c in puzzle.cages)
    assert result.status == ("solved" if not expected else "needs_review")


@pytest.mark.parametrize("seed", [11, 12])
def test_a_cage_sum_none_of_whose_candidates_is_true_is_found(seed):
    """The true sum is not among the read candidates (a digit lost in a photo), and a
    second sum is misread too, so the grid total cannot pin the first down alone."""
    rng = random.Random(seed)
    puzzle, truth = make_killer(rng, 9)
    reading, _ = killer_reading(puzzle)
    misread = misread_two_sums(reading, rng)
    # This deep repair takes seconds: past the default settle time a killer reading is
    # handed to a person instead (test_killer_budget.py), so it is given the whole limit.
    result = solve_reading(reading, settle_seconds=10.0)
    assert result.solution == truth and result.verdict == "unique"
    assert {(x.what, x.row, x.col) for x in result.suspects} == {
        ("cage_sum", *cell) for cell in misread}


def test_killer_reading_without_walls_is_refused():
    puzzle, _ = make_killer(random.Random(1), 4)
    reading, _ = killer_reading(puzzle)
    reading.walls_right = None
    with pytest.raises(PuzzleError, match="walls"):
        solve_reading(reading)


def test_reading_of_the_wrong_shape_is_refused():
    reading = sudoku_reading([[0] * 9 for _ in range(9)])
    reading.cells[3] = reading.cells[3][:8]
    with pytest.raises(PuzzleError, match="not a 9x9 grid"):
        solve_reading(reading)
    reading = sudoku_reading([[0] * 9 for _ in range(9)])
    reading.cells[0][0] = [0.5, 0.5]
    with pytest.raises(PuzzleError, match="needs 10 probabilities"):
        solve_reading(reading)


def test_killer_fixed_sum_and_wall_override_the_reading():
    rng = random.Random(21)
    puzzle, truth = make_killer(rng, 6)
    reading, _ = killer_reading(puzzle)
    k = 0
    s = reading.cage_sums[k]
    true_sum = s.candidates[0].value
    reading.cage_sums[k] = CageSumReading(cell=s.cell, candidates=[
        SumCandidate(value=true_sum + 1, prob=0.99), SumCandidate(value=true_sum, prob=0.01)])
    r, c = next((r, c) for r in range(6) for c in range(5) if reading.walls_right[r][c] > 0.5)
    reading.walls_right[r][c] = 0.01  # confidently missing, but a person said it is there
    fixed = {"cage_sums": {tuple(s.cell): true_sum}, "walls_right": [[r, c, 1]]}
    result = solve_reading(reading, fixed=fixed)
    assert result.verdict == "unique" and result.solution == truth
    assert result.suspects == [] and result.status == "solved"


def test_a_correction_that_clashes_with_a_confident_digit_is_named_not_made_room_for():
    """A person types a 6 into a row that shows a confidently read 6: the answer names the
    clash in 1-based words and rewrites nothing."""
    givens, _ = make_sudoku(random.Random(41), 9)
    reading = sudoku_reading(givens)
    row = next(r for r in range(9) if 0 in givens[r] and any(givens[r]))
    blank = givens[row].index(0)
    shown = next(c for c in range(9) if givens[row][c])
    digit = givens[row][shown]
    result = solve_reading(reading, fixed={"cells": [[row, blank, digit]]})
    assert result.status == "needs_review" and result.verdict == "none"
    assert result.solution is None
    assert f"your {digit} at row {row + 1}, column {blank + 1} clashes with the {digit} " \
        f"read at row {row + 1}, column {shown + 1}" in result.conflicts
    assert (shown) in {s.col for s in result.suspects if s.row == row}
    assert (result.suspects[0].row, result.suspects[0].col) == (row, blank)  # the typed one
    assert all(s.read == s.chosen for s in result.suspects)


def test_confident_readings_are_not_rewritten_to_make_room_for_a_correction():
    """A typed digit that clashes with no single reading, yet leaves the confident givens
    with no solution. Before the rule, the repair rewrote givens read at p = 0.97 and
    answered with an invented puzzle; now the confident readings stay and the person is
    asked to review."""
    givens, truth = make_sudoku(random.Random(42), 9)
    reading = sudoku_reading(givens)
    n = 9
    for r in range(n):
        for c in range(n):
            if givens[r][c]:
                continue
            seen = {givens[r][j] for j in range(n)} | {givens[i][c] for i in range(n)} | {
                givens[i][j] for i in range(r - r % 3, r - r % 3 + 3)
                for j in range(c - c % 3, c - c % 3 + 3)}
            wrong = [d for d in range(1, 10) if d not in seen and d != truth[r][c]]
            if wrong:
                break
        else:
            continue
        break
    result = solve_reading(reading, fixed={"cells": [[r, c, wrong[0]]]})
    assert result.verdict == "none" and result.status == "needs_review"
    assert result.solution is None and result.conflicts
    assert all(s.read == s.chosen for s in result.suspects)
    # What the person typed is the first reading to check: the page outlines it.
    assert (result.suspects[0].row, result.suspects[0].col, result.suspects[0].read) == \
        (r, c, wrong[0])


def test_after_a_correction_unsure_readings_are_still_repaired():
    rng = random.Random(43)
    givens, truth = make_sudoku(rng, 9)
    reading = sudoku_reading(givens)
    r, c = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    bad = clashing_digit(givens, r, c, rng)
    reading.cells[r][c] = misread_cell(9, bad, givens[r][c])  # 60 % sure: may be repaired
    r2, c2 = next((i, j) for i in range(9) for j in range(9) if givens[i][j] and (i, j) != (r, c))
    result = solve_reading(reading, fixed={"cells": [[r2, c2, givens[r2][c2]]]})
    assert result.solution == truth and result.verdict == "unique"
    assert [(s.row, s.col, s.chosen) for s in result.suspects] == [(r, c, givens[r][c])]


def test_a_wrong_digit_typed_into_a_killer_is_not_made_room_for():
    """A cage sum's '17' typed into its cell as '1'. The confident sums and walls
    stay as read, so the answer is a review without an invented grid."""
    rng = random.Random(44)
    puzzle, truth = make_killer(rng, 9)
    reading, _ = killer_reading(puzzle)
    r, c = next((r, c) for r in range(9) for c in range(9) if truth[r][c] != 1)
    result = solve_reading(reading, fixed={"cells": [[r, c, 1]]}, time_limit=5)
    assert result.status == "needs_review" and result.verdict == "none"
    assert result.solution is None
    assert all(s.read == s.chosen for s in result.suspects)
