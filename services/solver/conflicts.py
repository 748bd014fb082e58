"""Why a grid has no solution, in words a person can act on.

First the plain clashes (a digit twice in a row, column, box or cage; a cage whose
givens already exceed its sum). When there are none, a small set of givens and cages
that cannot hold together: CP-SAT's infeasible core over one assumption per fact,
shrunk by deleting facts one at a time while the rest stays infeasible.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from services.solver.grid import Geometry, cell_name
from services.solver.sudoku import Cages, OneHotModel, solver_parameters

MAX_SHRINK_SECONDS = 2.0


# No solution, and no few readings that cannot hold together were found in time.
NOT_NARROWED = ("no solution fits, and the clash could not be narrowed down to a few "
                "readings in time")


def cage_name(cells: list[int], total: int, n: int) -> str:
    """A cage as a person finds it on the page: by its sum and its first cell (the JSON's
    list order means nothing on a picture)."""
    return f"the cage of sum {total} at {cell_name(*divmod(min(cells), n))}"


@dataclass
class Conflict:
    """A reason in words, and the cells (row, col) whose readings it names."""

    text: str
    cells: list[tuple[int, int]] = field(default_factory=list)


def plain_clashes(geo: Geometry, givens: list[list[int]] | None,
                  cages: Cages | None = None) -> list[str]:
    return [c.text for c in plain_conflicts(geo, givens, cages)]


def plain_conflicts(geo: Geometry, givens: list[list[int]] | None,
                    cages: Cages | None = None) -> list[Conflict]:
    n = geo.size
    out = []
    if givens:
        for unit, name in zip(geo.units, geo.unit_names, strict=True):
            where: dict[int, list[int]] = {}
            for i in unit:
                v = givens[i // n][i % n]
                if v:
                    where.setdefault(v, []).append(i)
            for v, cells in sorted(where.items()):
                if len(cells) > 1:
                    at = " and ".join(cell_name(i // n, i % n) for i in cells)
                    out.append(Conflict(f"{name} has {len(cells)} {v}s, at {at}",
                                        [divmod(i, n) for i in cells]))
    for cells, total in cages or ():
        shown = [(i, givens[i // n][i % n]) for i in cells if givens and givens[i // n][i % n]]
        digits = [v for _, v in shown]
        if len(set(digits)) != len(digits):
            out.append(Conflict(f"{cage_name(cells, total, n)} is given the same digit twice",
                                [divmod(i, n) for i, _ in shown]))
        elif shown and sum(digits) + _least(len(cells) - len(shown), set(digits), n) > total:
            at = " and ".join(f"{v} at {cell_name(i // n, i % n)}" for i, v in shown)
            out.append(Conflict(f"{cage_name(cells, total, n)} is given {at}, too much for its "
                                "sum", [divmod(i, n) for i, _ in shown]))
    return out


def _least(count: int, used: set[int], size: int) -> int:
    free = [d for d in range(1, size + 1) if d not in used]
    return sum(free[:count])


def infeasible_core(geo: Geometry, givens: list[list[int]] | None, cages: Cages | None,
                    time_limit: float = MAX_SHRINK_SECONDS) -> list[tuple] | None:
    """A small set of facts with no common solution, as (words, fact) pairs; None if none
    was found. A fact is ("given", cell number, digit) or ("cage", cells, sum)."""
    started = time.perf_counter()
    n = geo.size
    facts: list[tuple[str, object]] = []
    if givens:
        facts += [(f"the {v} at {cell_name(r, c)}", ("given", r * n + c, v))
                  for r, row in enumerate(givens) for c, v in enumerate(row) if v]
    if cages:
        facts += [(cage_name(cells, t, n), ("cage", cells, t)) for cells, t in cages]

    def infeasible(keep: list[int]) -> bool | None:
        left = time_limit - (time.perf_counter() - started)
        if left <= 0:
            return None
        model = OneHotModel(geo, [geo.full] * geo.cells)
        for k in keep:
            fact = facts[k][1]
            if fact[0] == "given":
                model.require(model.lit(fact[1], fact[2]) == 1)
            else:
                model.add_cage(fact[1], fact[2])
        solver = cp_model.CpSolver()
        solver_parameters(solver, left)
        status = solver.solve(model.model)
        if status == cp_model.INFEASIBLE:
            return True
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False
        return None

    core = list(range(len(facts)))
    if infeasible(core) is not True:
        return None
    for k in list(core):
        trial = [j for j in core if j != k]
        verdict = infeasible(trial)
        if verdict is None:
            break  # out of time: report the set found so far
        if verdict:
            core = trial
    return [facts[k] for k in core]


def explain(geo: Geometry, givens: list[list[int]] | None, cages: Cages | None = None,
            time_limit: float = MAX_SHRINK_SECONDS) -> list[str]:
    return [c.text for c in explain_conflicts(geo, givens, cages, time_limit)]


def explain_conflicts(geo: Geometry, givens: list[list[int]] | None,
                      cages: Cages | None = None,
                      time_limit: float = MAX_SHRINK_SECONDS) -> list[Conflict]:
    """Why the facts have no solution, with the given cells each reason names."""
    clashes = plain_conflicts(geo, givens, cages)
    if clashes:
        return clashes
    core = infeasible_core(geo, givens, cages, time_limit)
    if core is None:
        return [Conflict(NOT_NARROWED)]
    if not core:
        return [Conflict("the grid rules alone have no solution")]
    cells = [divmod(fact[1], geo.size) for _, fact in core if fact[0] == "given"]
    return [Conflict("these cannot all hold together: " + "; ".join(w for w, _ in core),
                     cells)]
