"""The killer repair's settle budget counts work, not the wall clock, and the
usual misread-sum class settles well within it."""

from __future__ import annotations

import random
import time

import pytest
from solver_readings import killer_reading, misread_two_sums

from gridsight.synth.puzzles import make_killer
from services.contracts import CageSumReading, SumCandidate
from services.solver import solve_reading
from services.solver.budget import Budget


def two_sums_misread(seed: int):
    """A killer read with every sum confident (0.999) but two: one whose true value is
    none of its candidates (a digit lost), one whose true value is the runner-up."""
    rng = random.Random(seed)
    puzzle, truth = make_killer(rng, 9)
    reading, _ = killer_reading(puzzle)
    reading.cage_sums = [CageSumReading(cell=s.cell, candidates=[
        SumCandidate(value=s.candidates[0].value, prob=0.999),
        SumCandidate(value=s.candidates[0].value + 10, prob=0.001)])
        for s in reading.cage_sums]
    return reading, truth, misread_two_sums(reading, rng)


@pytest.mark.parametrize("seed", [11, 13, 15])
def test_two_misread_sums_among_confident_ones_settle_within_the_default_budget(seed):
    # Letting only the doubtful sums take unread values first: about 0.15 s of CPU
    # (before, with every sum free at once, most did not settle within 0.8 s).
    reading, truth, misread = two_sums_misread(seed)
    result = solve_reading(reading)
    assert result.solution == truth and result.verdict == "unique"
    assert result.status == "needs_review"
    assert {(s.row, s.col) for s in result.suspects if s.what == "cage_sum"} == misread


def test_the_same_reading_settles_the_same_way_on_a_busy_machine(monkeypatch):
    # A busy machine, as the wall clock sees it: the working thread gets 1/25 of a core,
    # so 25 wall seconds pass for each second of its work. The budget counts the work,
    # so the answer is the one a quiet machine gives (with the wall-clock budget this
    # reading was handed to a person unsettled). The time limit is stretched alike.
    reading, truth, _ = two_sums_misread(12)
    quiet = solve_reading(reading, time_limit=250.0)
    real = time.perf_counter
    origin = real()
    monkeypatch.setattr(time, "perf_counter", lambda: origin + 25 * (real() - origin))
    busy = solve_reading(reading, time_limit=250.0)
    monkeypatch.undo()
    assert quiet.solution == truth
    assert (busy.status, busy.verdict, busy.solution) == \
        (quiet.status, quiet.verdict, quiet.solution)
    assert {(s.what, s.row, s.col, s.chosen) for s in busy.suspects} == \
        {(s.what, s.row, s.col, s.chosen) for s in quiet.suspects}


def test_a_budget_counts_the_threads_cpu_time_and_stops_at_the_wall_cap():
    budget = Budget.start(wall_seconds=60.0, cpu_seconds=0.05)
    time.sleep(0.1)  # waiting is not work
    assert not budget.spent() and budget.cpu_left() > 0.04
    while not budget.spent():
        pass
    assert budget.wall_left() > 0
    assert Budget.start(wall_seconds=0.0).spent()  # the wall cap alone
    assert Budget.start(wall_seconds=60.0).work() is None  # no CPU budget: no work limit
    half = Budget.start(60.0, 1.0).part(0.5)
    assert 0.4 < half.cpu_left() <= 0.5
