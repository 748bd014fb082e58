"""Each technique on a position made by hand: the step it finds and what it removes."""

from __future__ import annotations

import pytest

from services.solver.logic import (
    Board,
    als,
    chains,
    fish,
    forcing,
    hypothesis,
    killer,
    singles,
    subsets,
    uniqueness,
    wings,
)
from services.solver.logic.board import bit
from services.solver.logic.intersections import claiming, pointing
from services.solver.logic.path import next_step


def empty(cages=None) -> Board:
    return Board.start(None, 9, (3, 3), cages)


def at(r: int, c: int) -> int:
    return r * 9 + c


def keep(board: Board, r: int, c: int, *ds: int) -> None:
    board.cands[at(r, c)] = sum(bit(d) for d in ds)


def drop(board: Board, d: int, cells) -> None:
    for r, c in cells:
        board.cands[at(r, c)] &= ~bit(d)


def removed(step) -> set[tuple[int, int, int]]:
    return {(*divmod(cell, 9), d) for cell, d in step.eliminations}


def test_naked_single():
    board = empty()
    keep(board, 4, 4, 5)
    step = singles.naked_single(board)
    assert step.technique == "naked single" and step.placements == [(at(4, 4), 5)]
    assert "r5c5" in step.text


def test_hidden_single_in_a_box():
    board = empty()
    drop(board, 5, [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)])
    step = singles.hidden_single(board)
    assert step.placements == [(at(1, 1), 5)]
    assert step.text.startswith("In box 1 the 5 can only go in r2c2")


def test_pointing():
    board = empty()
    drop(board, 7, [(r, c) for r in (1, 2) for c in range(3)])
    step = pointing(board)
    assert removed(step) == {(0, c, 7) for c in range(3, 9)}
    assert "In box 1 the 7 can only go in row 1" in step.text


def test_claiming():
    board = empty()
    drop(board, 7, [(0, c) for c in range(3, 9)])
    step = claiming(board)
    assert removed(step) == {(r, c, 7) for r in (1, 2) for c in range(3)}


@pytest.mark.parametrize("n, cells", [
    (2, [(1, 2), (1, 2)]), (3, [(1, 2), (2, 3), (1, 3)]), (4, [(1, 2), (2, 3), (3, 4), (1, 4)])])
def test_naked_subsets(n, cells):
    board = empty()
    for c, ds in enumerate(cells):
        keep(board, 0, c, *ds)
    step = subsets.naked_subset(board, n)
    assert step.technique == f"naked {subsets.NAMES[n]}"
    assert removed(step) == {(0, c, d) for c in range(n, 9) for d in range(1, n + 1)}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_hidden_subsets(n):
    board = empty()
    for d in range(1, n + 1):
        drop(board, d, [(0, c) for c in range(n, 9)])
    step = subsets.hidden_subset(board, n)
    assert step.technique == f"hidden {subsets.NAMES[n]}"
    assert removed(step) == {(0, c, d) for c in range(n) for d in range(n + 1, 10)}


@pytest.mark.parametrize("n, lines", [(2, (0, 4)), (3, (0, 3, 6)), (4, (0, 2, 4, 6))])
def test_fish(n, lines):
    board = empty()
    for r in lines:
        drop(board, 1, [(r, c) for c in range(9) if c not in lines])
    step = fish.fish(board, n)
    assert step.technique == fish.NAMES[n]
    assert removed(step) == {(r, c, 1) for c in lines for r in range(9) if r not in lines}


def test_xy_wing():
    board = empty()
    keep(board, 0, 0, 1, 2)
    keep(board, 0, 4, 1, 3)
    keep(board, 4, 0, 2, 3)
    step = wings.xy_wing(board)
    assert step.technique == "XY-wing" and removed(step) == {(4, 4, 3)}


def test_xyz_wing():
    board = empty()
    keep(board, 0, 0, 1, 2, 3)
    keep(board, 0, 4, 1, 3)
    keep(board, 1, 1, 2, 3)
    step = wings.xyz_wing(board)
    assert step.technique == "XYZ-wing" and removed(step) == {(0, 1, 3), (0, 2, 3)}


def test_w_wing():
    board = empty()
    keep(board, 0, 0, 1, 2)
    keep(board, 4, 4, 1, 2)
    drop(board, 1, [(8, c) for c in range(9) if c not in (0, 4)])
    step = wings.w_wing(board)
    assert step.technique == "W-wing" and removed(step) == {(0, 4, 2), (4, 0, 2)}


def colouring_position() -> Board:
    board = empty()
    drop(board, 1, [(0, c) for c in range(9) if c not in (0, 4)])
    drop(board, 1, [(r, 4) for r in range(9) if r not in (0, 4)])
    drop(board, 1, [(4, c) for c in range(9) if c not in (4, 1)])
    return board


def test_simple_colouring():
    step = chains.simple_colouring(colouring_position())
    assert step.technique == "simple colouring"
    assert removed(step) == {(1, 1, 1), (2, 1, 1), (3, 0, 1), (5, 0, 1)}


def test_x_chain():
    step = chains.x_chain(colouring_position())
    assert step.technique == "X-chain"
    assert removed(step) <= {(1, 1, 1), (2, 1, 1), (3, 0, 1), (5, 0, 1)} and removed(step)


def test_unique_rectangle():
    board = empty()
    for r, c in ((0, 0), (0, 1), (3, 0)):
        keep(board, r, c, 1, 2)
    keep(board, 3, 1, 1, 2, 5)
    step = uniqueness.unique_rectangle(board)
    assert step.technique == "unique rectangle" and removed(step) == {(3, 1, 1), (3, 1, 2)}


def test_aic_along_bivalue_cells():
    board = empty()
    keep(board, 0, 0, 1, 2)
    keep(board, 0, 4, 2, 3)
    keep(board, 4, 4, 3, 4)
    keep(board, 4, 8, 4, 1)
    assert wings.xy_wing(board) is None
    step = chains.aic(board)
    assert step.technique == "AIC" and removed(step) == {(0, 8, 1), (4, 0, 1)}
    assert step.text.startswith("Follow the chain: if ")


def test_cage_combinations():
    board = empty([([(0, 0), (0, 1)], 3)])
    step = killer.cage_combinations(board)
    assert removed(step) == {(0, c, d) for c in (0, 1) for d in range(3, 10)}
    assert "{1,2}" in step.text


def row_cages(*cages):
    """Cages over row 1 (0-based row 0) plus what they take of row 2."""
    return [([tuple(cell) for cell in cells], total) for cells, total in cages]


def test_cage_splitting():
    board = empty(row_cages(([(0, c) for c in range(8)], 36), ([(0, 8), (1, 8)], 10)))
    step = killer.innies_outies(board)
    assert step.technique == "cage splitting"
    assert removed(step) == {(0, 8, d) for d in range(1, 9)}


def test_innies():
    board = empty(row_cages(([(0, c) for c in range(7)], 28), ([(0, 7), (1, 7)], 10),
                            ([(0, 8), (1, 8)], 12)))
    step = killer.innies_outies(board)
    assert step.technique == "innies"
    assert removed(step) == {(0, c, d) for c in (7, 8) for d in range(1, 8)}


def test_outies():
    board = empty(row_cages(([(0, c) for c in range(6)] + [(1, 0)], 28),
                            ([(0, 6), (0, 7), (0, 8), (1, 8)], 25)))
    step = killer.innies_outies(board)
    assert step.technique == "outies"
    assert removed(step) == {(1, c, d) for c in (0, 8) for d in (4, 8, 9)}


def test_forcing_chain_and_trial_come_after_everything_else():
    # the empty grid: no technique finds anything, and no choice breaks it
    assert next_step(empty()) is None




def test_als_xz():
    board = empty()
    keep(board, 0, 0, 1, 2)  # a set of one cell
    keep(board, 1, 1, 1, 3)  # with r3c3, two cells of box 1 holding 1, 2, 3
    keep(board, 2, 2, 2, 3)
    step = als.als_xz(board)
    assert step.technique == "ALS-XZ"
    # the 1s see each other, so one of the sets holds 2: r1c1 or r3c3
    assert removed(step) == {(r, c, 2) for r in range(3) for c in range(3)} - {
        (0, 0, 2), (1, 1, 2), (2, 2, 2)}
    assert "Their 1s see each other" in step.text


def test_forcing_follows_naked_and_hidden_pairs():
    board = empty()
    cands = board.cands.copy()
    cands[at(0, 0)] = cands[at(0, 1)] = bit(1) | bit(2)  # a naked pair in row 1
    for c in range(2, 9):
        cands[at(1, c)] &= ~(bit(3) | bit(4))  # 3 and 4 only in r2c1, r2c2: a hidden pair
    assert hypothesis.pairs(cands, board)
    assert all(not cands[at(0, c)] & (bit(1) | bit(2)) for c in range(2, 9))
    assert cands[at(1, 0)] == cands[at(1, 1)] == bit(3) | bit(4)


def test_forcing_follows_naked_triples():
    board = empty()
    cands = board.cands.copy()
    cands[at(0, 0)], cands[at(0, 1)], cands[at(0, 2)] = bit(1) | bit(2), bit(2) | bit(3), \
        bit(1) | bit(3)
    assert hypothesis.naked_triples(cands, board)
    assert all(not cands[at(0, c)] & (bit(1) | bit(2) | bit(3)) for c in range(3, 9))


def test_nested_rule_rules_out_a_digit_whose_singles_break_the_grid():
    board = empty()
    cands = board.cands.copy()
    cands[at(0, 0)] = bit(1) | bit(2)
    cands[at(0, 1)] = cands[at(0, 2)] = bit(1) | bit(3)  # r1c1 = 1 would leave both 3
    assert hypothesis.pair_contradictions(cands, board) == [at(0, 0)]
    assert cands[at(0, 0)] == bit(2)


def test_a_hypothesis_that_breaks_keeps_what_it_showed_before():
    board = empty()
    keep(board, 0, 0, 1, 2)
    keep(board, 0, 1, 1, 3)
    for r, c in ((1, 1), (1, 2), (2, 2)):
        keep(board, r, c, 4, 5)  # three cells of box 1 with only 4 and 5: a pair breaks it
    cands, breaks = hypothesis.follow(board, at(0, 0), bit(1))
    assert breaks
    assert cands[at(0, 1)] == bit(3)  # singles from r1c1 = 1, before the pair broke it


def test_digit_forcing_chain_follows_a_candidate_both_ways():
    board = empty()
    keep(board, 0, 0, 1, 2, 3)
    drop(board, 1, [(r, c) for r in range(3) for c in range(3) if (r, c) > (0, 1)])
    # r1c1 is 1, or it is not and r1c2 is box 1's 1: either way row 1 has its 1 there
    step = forcing._digit_forcing_chain(board, {})
    assert step.technique == "digit forcing chain"
    assert removed(step) == {(0, c, 1) for c in range(3, 9)}
    assert step.text.startswith("Either r1c1 is 1 or it is not. From each, following")
