"""Killer cages as clauses (the solver's own model) against the linear plain model."""

from __future__ import annotations

import random
from itertools import combinations

from gridsight.synth.puzzles import make_killer
from services.solver.grid import geometry
from services.solver.sudoku import OneHotModel, solve_grid


def cell_cages(puzzle):
    return [([r * puzzle.size + c for r, c in cage.cells], cage.sum) for cage in puzzle.cages]


def joined(cages, truth, size):
    """Two touching cages with distinct digits made one: the answer fits, others may too."""
    for a, b in combinations(range(len(cages)), 2):
        cells = cages[a][0] + cages[b][0]
        touch = any(abs(i // size - j // size) + abs(i % size - j % size) == 1
                    for i in cages[a][0] for j in cages[b][0])
        digits = [truth[i // size][i % size] for i in cells]
        if touch and len(set(digits)) == len(digits):
            rest = [c for k, c in enumerate(cages) if k not in (a, b)]
            return [(cells, cages[a][1] + cages[b][1])] + rest
    raise AssertionError("no neighbouring cages")


def holds(grid, cages, size):
    flat = [v for row in grid for v in row]
    return all(sorted(set(flat[i] for i in cells)) == sorted(flat[i] for i in cells)
               and sum(flat[i] for i in cells) == total for cells, total in cages)


def test_clausal_cages_give_the_verdicts_of_the_linear_model():
    rng = random.Random(11)
    verdicts = set()
    for size, max_cage in ((6, 5), (9, 6), (9, 8)):
        geo = geometry(size)
        puzzle, truth = make_killer(rng, size, max_cage=max_cage)
        for cages in (cell_cages(puzzle), joined(cell_cages(puzzle), truth, size),
                      joined(joined(cell_cages(puzzle), truth, size), truth, size)):
            clausal = solve_grid(geo, None, cages)  # killer reasoning: cages as clauses
            linear = solve_grid(geo, None, cages, killer_reasoning=False)
            assert clausal.verdict == linear.verdict
            verdicts.add(clausal.verdict)
            for grid in (clausal.solution, clausal.other):
                if grid:
                    assert holds(grid, cages, size)
            if clausal.verdict == "multiple":
                assert clausal.solution != clausal.other
    assert {"unique", "multiple"} <= verdicts


def test_clausal_cages_are_off_by_default():
    """The plain model seeds the puzzle generators: it must keep its linear form."""
    geo = geometry(4)
    assert not OneHotModel(geo, [geo.full] * geo.cells).clausal_cages
