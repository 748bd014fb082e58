"""How the killer repair's stages share the settle budget. Reasoned in CPU time
of the thread (budget.py), with the searches replaced by stand-ins, so that the checks do
not depend on how busy the machine is."""

from __future__ import annotations

import random

from solver_readings import killer_reading

from gridsight.synth.puzzles import make_killer
from services.solver import repair, solve_reading
from services.solver.budget import Budget
from services.solver.grid import geometry
from services.solver.repair import DOUBTFUL_SUM, EVERY_SUM, Options, repair_grid


def options():
    """Cells with readings at 0.005 and 0.0005, and a doubtful sum: every stage differs."""
    cells = [Options("cell", i // 9, i % 9, [(0, 0.9945), (5, 0.005), (6, 0.0005)])
             for i in range(81)]
    sums = [Options("cage_sum", 0, 0, [(10, 0.9), (11, 0.1)]),
            Options("cage_sum", 0, 2, [(12, 0.999)])]
    return geometry(9, (3, 3)), cells, [[0, 1], [2, 3]], sums


def test_the_every_sum_stage_gets_all_the_time_the_narrower_ones_leave(monkeypatch):
    given = {}

    def stage(geo, cells, cages, sums, budget, doubt=0.0, region_rule=False,
              solved=None):
        floor = min(p for o in cells for _, p in o.values)
        # The stage's unread sum values come in its options (ruled out by the 45 rule
        # first): one doubtful sum free, or both.
        free = sum(any(p == repair.UNLISTED_SUM_PROB for _, p in o.values) for o in sums)
        doubt = doubt or (0.0, DOUBTFUL_SUM, EVERY_SUM)[free]
        given[floor, doubt] = budget.cpu_left()
        return None  # no solvable reading: the stage ends at once

    monkeypatch.setattr(repair, "repair_on_layout", stage)
    budget = Budget.start(wall_seconds=600.0, cpu_seconds=10.0)
    assert repair_grid(*options(), budget) is None
    assert given[0.005, 0.0] < 5.0  # the narrow stages: half of what is left
    assert given[0.005, DOUBTFUL_SUM] < 5.0
    # Before, half of it (the search one held-out picture needs took 0.6 s of 0.78 left).
    assert given[0.005, EVERY_SUM] > 9.0


def test_sum_choices_left_untried_go_on_in_the_next_stage_without_unread_values(monkeypatch):
    given = {}

    def stage(geo, cells, cages, sums, budget, doubt=0.0, region_rule=False,
              solved=None):
        floor = min(p for o in cells for _, p in o.values)
        free = sum(any(p == repair.UNLISTED_SUM_PROB for _, p in o.values) for o in sums)
        given[floor, free] = budget.cpu_left()
        # The first stage runs out of time with sum choices left to try.
        return repair.UNTRIED if len(given) == 1 else None

    monkeypatch.setattr(repair, "repair_on_layout", stage)
    budget = Budget.start(wall_seconds=600.0, cpu_seconds=10.0)
    assert repair_grid(*options(), budget) == "unknown"  # not every choice was tried
    # No stage with unread sum values: the wider stages without them get all the time.
    assert all(free == 0 for _, free in given)
    assert given[0.9945, 0] < 5.0
    assert given[0.005, 0] > 9.0 and given[0.0005, 0] > 9.0


def test_no_stage_starts_once_the_budget_is_spent(monkeypatch):
    budget = Budget.start(wall_seconds=600.0, cpu_seconds=0.05)
    calls = []

    def stage(geo, cells, cages, sums, part, doubt=0.0, region_rule=False,
              solved=None):
        calls.append(doubt)
        while not budget.spent():  # a search cut short by the budget: it spends it all
            pass
        return "unknown"

    monkeypatch.setattr(repair, "repair_on_layout", stage)
    assert repair_grid(*options(), budget) == "unknown"
    # Before, the five wider stages each still ran (repeating the argmax check).
    assert len(calls) == 1


def test_other_wall_layouts_get_a_short_extra_time_after_a_unique_answer(monkeypatch):
    # Before, the extra time (1.5 s) exceeded the settle budget, so it never limited the
    # search: a reading settled at once could spend the whole budget on other layouts.
    reading, _ = killer_reading(make_killer(random.Random(3), 9)[0])
    real = repair.repair_grid
    later = []

    def layout(geo, cells, cages, sums, budget):
        if later or not cages:
            later.append(budget.cpu_left())
            return None
        later.append(None)
        found = real(geo, cells, cages, sums, budget)
        found.log_prob -= 1000  # so unlikely that no layout's bound ends the search
        return found

    monkeypatch.setattr(repair, "repair_grid", layout)
    result = solve_reading(reading)
    assert result.verdict == "unique" and len(later) > 2
    # The layouts after it share the extra time, a small part of the settle budget.
    assert max(later[1:]) <= repair.EXTRA_LAYOUT_SECONDS
    assert max(later[1:]) < repair.KILLER_SETTLE_SECONDS / 2
