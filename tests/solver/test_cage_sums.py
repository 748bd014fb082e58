"""A killer read with many doubtful cage sums settles within the repair's budget,
the 45 rule pruning the sums' candidates before any search (cage_sums.py)."""

from __future__ import annotations

import random
import time

import pytest
from doubtful_sums import doubtful_reading

from gridsight.synth.puzzles import make_killer
from services.solver import solve_reading
from services.solver.cage_sums import prune_sums, sum_rules
from services.solver.grid import geometry
from services.solver.repair import KILLER_SETTLE_SECONDS

GEO = geometry(9, (3, 3))
HARD_SEEDS = (0, 1, 2, 5, 6)  # make_killer(hard=True) makes these in under a second


@pytest.fixture(scope="module")
def hard_killers():
    """Killers with large cages (mostly 2-7 cells), as newspapers print the hard ones."""
    return {seed: make_killer(random.Random(seed), 9, hard=True) for seed in HARD_SEEDS}


def cage_cells(puzzle) -> list[list[int]]:
    return [[r * 9 + c for r, c in cage.cells] for cage in puzzle.cages]


def test_every_rule_holds_for_the_true_sums(hard_killers):
    for puzzle, _ in hard_killers.values():
        cages = cage_cells(puzzle)
        for rule in sum_rules(GEO, cages):
            total = sum(puzzle.cages[k].sum for k in rule.cages)
            assert rule.low <= total <= rule.high
        assert prune_sums(GEO, cages, [[c.sum] for c in puzzle.cages]) is not None


def test_the_45_rule_settles_most_doubtful_sums_before_any_search(hard_killers):
    # Five sums, each with the right value among four: the cage sizes and region totals
    # alone leave the right value, and rule out most of the wrong ones.
    kept_wrong = offered_wrong = 0
    for seed, (puzzle, _) in hard_killers.items():
        rng = random.Random(seed)
        doubtful = set(rng.sample(range(len(puzzle.cages)), 5))
        candidates = []
        for k, cage in enumerate(puzzle.cages):
            wrong = rng.sample([v for v in range(1, 46) if v != cage.sum], 3) \
                if k in doubtful else []
            candidates.append([*wrong, cage.sum])
            offered_wrong += len(wrong)
        kept = prune_sums(GEO, cage_cells(puzzle), candidates)
        assert all(cage.sum in values for cage, values in zip(puzzle.cages, kept,
                                                               strict=True))
        kept_wrong += sum(len(values) - 1 for values in kept)
    assert kept_wrong <= offered_wrong / 4


def test_a_total_no_choice_of_sums_reaches_rules_the_reading_out(hard_killers):
    puzzle, _ = hard_killers[0]
    candidates = [[c.sum] for c in puzzle.cages]
    candidates[0] = [candidates[0][0] + 1]  # the grid no longer adds up to 405
    assert prune_sums(GEO, cage_cells(puzzle), candidates) is None


# Readings the repair without the pruning handed over as `unknown` within its budget.
SETTLING = [(1, 5), (5, 5), (6, 5), (2, 10), (0, 20)]


@pytest.mark.parametrize(("seed", "k"), SETTLING)
def test_many_doubtful_sums_on_large_cages_settle_within_the_budget(hard_killers, seed, k):
    puzzle, truth = hard_killers[seed]
    reading, _ = doubtful_reading(puzzle, k, random.Random(seed * 100 + k))
    started = time.thread_time()
    result = solve_reading(reading)
    assert time.thread_time() - started < KILLER_SETTLE_SECONDS + 0.3
    assert result.verdict == "unique" and result.solution == truth
    assert result.status == "needs_review"  # doubtful sums: a person confirms


def test_when_the_answer_stays_open_the_suspects_are_the_sums_that_decide_it(hard_killers):
    # No time to search: the reading is handed over unsettled. The suspects are the sums
    # whose likely values the 45 rule leaves open, or narrows to one other than the one
    # read, not the eight least certain of all.
    puzzle, _ = hard_killers[1]
    reading, doubtful = doubtful_reading(puzzle, 12, random.Random(6))
    result = solve_reading(reading, settle_seconds=0.0)
    assert result.verdict == "unknown" and result.status == "needs_review"
    named = {(s.row, s.col) for s in result.suspects}
    heads = {min(map(tuple, cage.cells)): k for k, cage in enumerate(puzzle.cages)}
    ranked = sorted(reading.cage_sums, key=lambda s: heads[tuple(s.cell)])
    likely = [[c.value for c in s.candidates if c.prob >= 0.01] for s in ranked]
    kept = prune_sums(GEO, cage_cells(puzzle), likely)
    deciding = {tuple(s.cell) for s, read, values in zip(ranked, likely, kept, strict=True)
                if len(values) > 1 or values[0] != read[0]}
    assert named == deciding
    assert 0 < len(named) < len(doubtful)
    assert "leaves open" in result.message
