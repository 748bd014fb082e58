"""Readings that break the cage rules lose confidence before the solver sees them."""

from __future__ import annotations

import numpy as np
import pytest

from services.contracts import CageSumReading, SumCandidate
from services.recognizer import RecognitionError
from services.recognizer.killer.kind import (
    LOOKS_CLASSIC,
    LOOKS_KILLER,
    decide,
    killer_probability,
    numbers_total,
)
from services.recognizer.killer.reading import consistent_walls, plausible_sums, regions
from services.recognizer.killer.sums import sum_candidates


def _two_by_one_cages():
    """Walls making horizontal dominoes: cells (r, 2k) and (r, 2k+1), column 8 alone."""
    right = np.full((9, 8), 0.02)
    right[:, 1::2] = 0.98
    down = np.full((8, 9), 0.97)
    return right, down


def test_regions_follow_walls():
    right, down = _two_by_one_cages()
    cages = regions(right, down)
    assert len(cages) == 9 * 5
    assert [(0, 0), (0, 1)] in cages and [(0, 8)] in cages


def test_region_without_sum_makes_its_walls_doubtful():
    right, down = _two_by_one_cages()
    heads = {min(c) for c in regions(right, down)} - {(4, 2)}  # cage (4,2)-(4,3): no sum
    new_right, new_down = consistent_walls(right, down, heads)
    assert 0.5 < new_right[4, 1] < right[4, 1]  # its left wall
    assert 0.5 < new_down[3, 2] < down[3, 2]  # the wall above it
    assert new_right[0, 1] == right[0, 1]  # elsewhere unchanged


def test_region_with_two_sums_makes_its_inside_doubtful():
    right, down = _two_by_one_cages()
    heads = {min(c) for c in regions(right, down)} | {(4, 3)}
    new_right, _ = consistent_walls(right, down, heads)
    assert right[4, 2] < new_right[4, 2] < 0.5


def test_unreachable_sums_lose_probability():
    reading = CageSumReading(cell=(0, 0), candidates=[SumCandidate(value=19, prob=0.6),
                                                      SumCandidate(value=13, prob=0.4)])
    # A 2-cell cage holds at most 9 + 8 = 17.
    fixed = plausible_sums([reading], [[(0, 0), (0, 1)]])[0]
    assert fixed.candidates[0].value == 13 and fixed.candidates[0].prob > 0.9


def test_sum_candidates_combine_digit_probabilities():
    one = np.eye(10)[1] * 0.8 + np.eye(10)[7] * 0.2
    seven = np.eye(10)[7]
    candidates = sum_candidates([one, seven])
    assert candidates[0].value == 17
    assert all(c.value <= 45 for c in candidates)
    assert abs(sum(c.prob for c in candidates) - 1) < 0.02


def test_kind_probability_and_decisions():
    walls = np.full((9, 8), 0.6), np.full((8, 9), 0.6)
    assert killer_probability(*walls, heads=30, heads_with_numbers=30, sum_total=405) > 0.99
    # A killer with a few sums misread or missing still reads as one.
    assert killer_probability(*walls, heads=32, heads_with_numbers=29, sum_total=362) > 0.9
    none = np.full((9, 8), 0.01), np.full((8, 9), 0.01)
    assert killer_probability(*none, heads=1, heads_with_numbers=0, sum_total=0) < 0.01
    # A classic page whose handwriting and lines look like walls and corner numbers: the
    # numbers sit in some heads only and do not add up to 405.
    assert killer_probability(*walls, heads=15, heads_with_numbers=12, sum_total=365) < 0.2
    assert killer_probability(*walls, heads=32, heads_with_numbers=21, sum_total=420) < 0.05
    # A person's digits written into cells' corners read, with doubt, as extra sums: a
    # printed killer written on by hand (38 heads, every one numbered, 493 in all, of which
    # 88 read below 0.9) is still a killer; the doubtful part cannot rescue a classic page.
    assert killer_probability(*walls, heads=38, heads_with_numbers=38, sum_total=493) < 0.5
    assert killer_probability(*walls, heads=38, heads_with_numbers=38, sum_total=493,
                              doubtful_total=88) > 0.9
    assert killer_probability(*walls, heads=32, heads_with_numbers=21, sum_total=420,
                              doubtful_total=15) < 0.05
    assert decide("auto", 0.97) == ("killer", 0.97, [])
    assert decide("sudoku", 0.5)[:2] == ("sudoku", 0.5)
    # An explicit kind is honoured; the other kind's look is a warning.
    kind, _, warnings = decide("sudoku", 0.95)
    assert kind == "sudoku" and warnings == [LOOKS_KILLER]
    kind, _, warnings = decide("killer", 0.05)
    assert kind == "killer" and warnings == [LOOKS_CLASSIC]
    with pytest.raises(RecognitionError, match="classic sudoku"):
        decide("killer", 0.05, sums_found=False)


def test_sums_that_miss_405_favour_the_alternative_that_fixes_it():
    from services.recognizer.killer.reading import balanced_sums

    def reading(cell, *pairs):
        return CageSumReading(cell=cell, candidates=[SumCandidate(value=v, prob=p)
                                                     for v, p in pairs])

    # 43 cages of 9 and one of 18 make 405; the 18 read as 24 (runner-up 18) makes 411.
    sums = [reading((k // 9, k % 9), (9, 0.99), (4, 0.01)) for k in range(43)]
    sums.append(reading((8, 0), (24, 0.6), (18, 0.4)))
    fixed = balanced_sums(sums)
    assert fixed[-1].candidates[0].value == 18
    assert abs(fixed[-1].candidates[0].prob - 1.2 / 1.8) < 1e-3
    for after in fixed[:43]:
        # No alternative of theirs closes the gap: 9 - 6 joins them, as unlikely as a
        # hundredth of their doubt.
        assert after.candidates[0].value == 9 and after.candidates[0].prob > 0.98
        assert {c.value: c.prob for c in after.candidates}[3] < 2e-4
    # Totals that are right are left alone.
    sums[-1] = reading((8, 0), (18, 0.6), (24, 0.4))
    assert balanced_sums(sums) == sums


def test_a_true_sum_missing_from_the_candidates_is_added_from_the_total():
    from services.recognizer.killer.reading import balanced_sums

    # 44 cages of 9 and one of 9 read as 30 or 20 (a digit seen that is not there).
    sums = [CageSumReading(cell=(k // 9, k % 9), candidates=[
        SumCandidate(value=9, prob=0.999), SumCandidate(value=4, prob=0.001)])
        for k in range(44)]
    sums.append(CageSumReading(cell=(8, 0), candidates=[
        SumCandidate(value=30, prob=0.6), SumCandidate(value=20, prob=0.4)]))
    fixed = balanced_sums(sums)[-1]
    probs = {c.value: c.prob for c in fixed.candidates}
    assert 0.001 < probs[9] < 0.01  # likely enough for the solver's first tries
    assert fixed.candidates[0].value == 30


def test_numbers_where_a_wall_was_missed_count_toward_the_total():
    """A held-out web killer (seed 1901509): its wall model missed five walls, so 30 heads
    held numbers totalling 283 and the picture was called classic; with the numbers in
    the cells that may start a cage, 397. The total nearer 405 counts, and it is a killer;
    a grid whose extra numbers overshoot keeps its heads' total."""
    walls = np.full((9, 8), 0.7)
    assert killer_probability(walls, walls.T, 30, 30, 283) < 0.5
    assert numbers_total(283, 397, 9) == 397
    assert killer_probability(walls, walls.T, 30, 30, numbers_total(283, 397, 9)) > 0.9
    assert numbers_total(405, 470, 9) == 405
    assert numbers_total(120, 126, 6) == 126
