"""The nonogram solver stops at its time limit, whatever the picture's size."""

from __future__ import annotations

import random
import time

import pytest

from gridsight.synth.puzzles import make_nonogram
from services.solver import solve_puzzle

# Line solving, the guessing search and CP-SAT's model loading each run a while between
# two looks at the clock; this much past the limit is allowed.
SLACK_SECONDS = 0.75


@pytest.mark.parametrize(("side", "limit"), [(200, 2.0), (1000, 2.0)])
def test_large_random_nonograms_stop_at_the_limit(side, limit):
    puzzle, _ = make_nonogram(random.Random(5), side, side)
    started, cpu_started = time.perf_counter(), time.process_time()
    result = solve_puzzle(puzzle, time_limit=limit)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    # CPU time, so that other processes on a busy machine do not count; the wall clock
    # gets room for them.
    assert cpu < limit + SLACK_SECONDS, f"{side}x{side} took {cpu:.1f} s of CPU"
    assert elapsed < limit + 5 * SLACK_SECONDS, f"{side}x{side} took {elapsed:.1f} s"
    assert result.verdict in ("unknown", "multiple", "unique")
    if result.verdict == "unknown":
        assert result.status in ("failed", "needs_review")
        assert "time limit" in result.message


def test_a_cage_larger_than_the_digits_is_told_so():
    """One cage over a whole 9x9 grid: no nonsense range of sums."""
    from services.solver import PuzzleError

    cells = [[r, c] for r in range(9) for c in range(9)]
    with pytest.raises(PuzzleError) as error:
        solve_puzzle({"kind": "killer", "size": 9, "cages": [{"sum": 405, "cells": cells}]})
    assert "holds at most 9" in str(error.value) and "-" not in str(error.value)
