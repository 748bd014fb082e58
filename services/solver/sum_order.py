"""A killer repaired by trying its cage sums likeliest first, with the cells as read.

With the cells as read, a reading of the grid is one value per cage sum, and its cost is
the sum of the chosen values' costs. The 45 rule's ranges (cage_sums.SumRule) hold for
the true sums, so the choices are listed in order of cost, cheapest first (A* over the
cages; a partial choice goes on only while every range it touches can still be met), and
each is solved as a killer with known sums (sudoku.solve_grid): the first solvable one
is the most probable solvable reading, as long as it costs less than changing any cell
would (past that, the caller's joint model of cells and sums takes over). A killer with
known sums is far easier than one whose sums are chosen in the same search: on hard
killers with 20 doubtful sums, the joint CP-SAT model took 0.3 s or more to find its
first grid, while the ranges left the true sums among the first few choices (at most 26
on 24 readings), each solved in 0.02-0.05 s.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator

import numpy as np

from services.solver.budget import Budget
from services.solver.cage_sums import SumRule
from services.solver.sudoku import GridAnswer

BUDGET_CHECK_EVERY = 256  # partial choices expanded between looks at the clock
TIE_COST = 200  # values whose costs differ by this little (a factor 1.22) are about tied


def likeliest_first(costs: list[dict[int, int]], rules: list[SumRule],
                    budget: Budget) -> Iterator[tuple[int, list[int]]]:
    """(cost, one value per cage) for every choice from `costs` ({value: cost} per cage)
    that meets every rule, cheapest first (ties in a fixed order). Stops early when the
    budget is spent."""
    # Cages with one value first (they cost nothing), then in the layout's order, top to
    # bottom, so that the ranges of the top rows close early.
    order = sorted(range(len(costs)), key=lambda k: (len(costs[k]) > 1, k))
    depth_of = {k: d for d, k in enumerate(order)}
    ranked = [sorted(costs[k].items(), key=lambda vc: (vc[1], vc[0])) for k in order]
    low = [min(costs[k]) for k in order]
    high = [max(costs[k]) for k in order]
    cheapest_rest = [0] * (len(order) + 1)  # an A* bound: the cheapest value of each cage
    for d in range(len(order) - 1, -1, -1):
        cheapest_rest[d] = cheapest_rest[d + 1] + ranked[d][0][1]
    # The ranges as arrays over the rules: the cages each has (by depth), and at each depth
    # the least and most the cages chosen so far may add up to for the cages after them
    # to complete the range (a partial choice carries its totals per rule).
    member = np.zeros((len(order), len(rules)), dtype=np.int64)
    for r, rule in enumerate(rules):
        for k in rule.cages:
            member[depth_of[k], r] = 1
    lows, highs = np.array(low)[:, None], np.array(high)[:, None]
    rule_low = np.array([rule.low for rule in rules], dtype=np.int64)
    rule_high = np.array([rule.high for rule in rules], dtype=np.int64)
    least = rule_low - np.cumsum((member * highs)[::-1], axis=0)[::-1] + member * highs
    most = rule_high - np.cumsum((member * lows)[::-1], axis=0)[::-1] + member * lows

    def first_fitting(d: int, start: int, cost: int, chosen: tuple[int, ...],
                      totals: np.ndarray) -> tuple | None:
        """The cheapest value from ranked[d][start:] that fits after `chosen`, as a
        frontier entry (the bound, cost, choices, totals per rule, its index)."""
        for i in range(start, len(ranked[d])):
            v, c = ranked[d][i]
            longer = totals + v * member[d]
            if not ((longer < least[d]) | (longer > most[d])).any():
                return cost + c + cheapest_rest[d + 1], cost + c, (*chosen, v), longer, i
        return None

    # A* with each node's children put on the frontier one at a time, cheapest first: a
    # child taken off brings its next sibling, so a cage's unlikely values (most of a wide
    # stage's) are never checked until the choices before them are.
    frontier = [(cheapest_rest[0], 0, (), np.zeros(len(rules), dtype=np.int64), -1)]
    expanded = 0
    while frontier:
        expanded += 1
        if expanded % BUDGET_CHECK_EVERY == 0 and budget.spent():
            return
        _, cost, chosen, totals, index = heapq.heappop(frontier)
        d = len(chosen)
        if d:
            v = chosen[-1]
            sibling = first_fitting(d - 1, index + 1, cost - ranked[d - 1][index][1],
                                    chosen[:-1], totals - v * member[d - 1])
            if sibling is not None:
                heapq.heappush(frontier, sibling)
        if d == len(order):
            values = [0] * d
            for depth, v in enumerate(chosen):
                values[order[depth]] = v
            yield cost, values
            continue
        child = first_fitting(d, 0, cost, chosen, totals)
        if child is not None:
            heapq.heappush(frontier, child)


def tied_values(costs: list[dict[int, int]], within: int = TIE_COST) -> list[list[int]]:
    """Each cage's values that cost at most `within` more than its cheapest one."""
    return [[v for v, c in cage.items() if c - min(cage.values()) <= within]
            for cage in costs]


def settle_by_sums(costs: list[dict[int, int]], rules: list[SumRule],
                   answer_of: Callable[[list[int]], GridAnswer],
                   score: Callable[[list[int]], float], budget: Budget, loss: float,
                   tries: int, below: float = math.inf
                   ) -> tuple[list[tuple[list[int], GridAnswer, float]], bool] | str:
    """The sum choices `likeliest_first` lists, solved in turn (answer_of) until one has a
    unique solution, the choices fall more than `loss` below the first solvable one's
    score, or `tries` solvable ones had several solutions; choices that cost `below` or
    more are left to the caller (a reading that changes a cell costs that much).

    Returns the solvable choices found, (sums, answer, score), the first the likeliest and
    the last unique when one is, and whether they settle the reading (False: the caller
    must look at readings that cost `below` or more); "unknown" when the budget ran out
    before any choice was solvable."""
    solvable: list[tuple[list[int], GridAnswer, float]] = []
    for cost, totals in likeliest_first(costs, rules, budget):
        if budget.spent():
            break
        s = score(totals)
        if solvable and s < solvable[0][2] - loss:
            return solvable, True
        if cost >= below:
            return solvable, False
        answer = answer_of(totals)
        if answer.verdict == "none":
            continue
        if answer.verdict == "unknown":
            break  # cut short by the budget
        solvable.append((totals, answer, s))
        if answer.verdict == "unique" or len(solvable) >= tries:
            return solvable, True
    else:
        if not budget.spent():
            return solvable, True  # every choice the rules allow was tried
    return (solvable, True) if solvable else "unknown"
