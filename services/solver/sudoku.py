"""Sudoku and killer sudoku: propagation first, then CP-SAT on what is left.

The CP-SAT model is Norvig's representation made Boolean: x[cell, d] is true when the
cell holds digit d. Each cell holds one digit and each unit holds each digit once;
a killer cage picks one of the digit sets that make its sum. Killers also get the sums
their cages imply for small groups of cells (cages.region_sums, the "45 rule"), redundant
constraints that cut the search on puzzles with large cages.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from ortools.sat.python import cp_model

from services.contracts import Verdict
from services.solver.budget import WORK_PER_CPU_SECOND
from services.solver.cages import MAX_DIGIT_SETS, digit_sets, reachable, region_sums
from services.solver.cpsat import CpModel
from services.solver.grid import Geometry
from services.solver.propagate import (
    bit,
    digits,
    initial_candidates,
    is_single,
    propagate,
    search,
    solved,
    to_grid,
)

Grid = list[list[int]]
SHORT_SEARCH_OPEN_CELLS = 50
SHORT_SEARCH_NODES = 25
QUICK_KILLER_SECONDS = 0.06
IMPLIED_SUM_CELLS = 4  # groups of up to this many cells get their implied sum (0: none)
CageCells = list[int]  # cell numbers r * size + c
Cages = list[tuple[CageCells, int]]


@dataclass
class GridAnswer:
    verdict: Verdict
    solution: Grid | None = None
    other: Grid | None = None


def solver_parameters(solver: cp_model.CpSolver, time_limit: float,
                      work: float | None = None) -> None:
    """`work`: a limit in CP-SAT's deterministic time as well, so that the search stops at
    the same point however busy the machine is (budget.py)."""
    # One worker: on two cores the default portfolio is about ten times slower here. It
    # also searches on the calling thread, whose CPU time the repair's budget counts.
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    if work is not None:
        solver.parameters.max_deterministic_time = max(0.001, work)


def quick_parameters(solver: cp_model.CpSolver) -> None:
    """For enumerating sudoku solutions: the extra reasoning below costs more than it saves
    on these small Boolean models (measured by bench/solver.py: about 3x faster)."""
    p = solver.parameters
    p.cp_model_presolve = False
    p.use_sat_inprocessing = False
    p.linearization_level = 0
    p.cp_model_probing_level = 0
    p.symmetry_level = 0


def reduce_by_cages(cands: list[int], cages: Cages, geo: Geometry,
                    pointing: bool = True) -> bool:
    """Keep only digits that some digit set of its cage allows; False when a cage breaks.

    A digit every allowed set has must go in one of the cage's cells that can take it: when
    those cells share a unit, the rest of that unit cannot hold it (pointing, for cages).
    """
    size = geo.size
    for cells, total in cages:
        sets = digit_sets(size, len(cells), total)
        if not sets:
            continue  # too many sets to list, or unreachable (validation reports that)
        placed = union = 0
        for i in cells:
            m = cands[i]
            union |= m
            if is_single(m):
                placed |= m
        allowed = 0
        for s in sets:
            if s & placed == placed and s & union == s and all(cands[i] & s for i in cells):
                allowed |= s
        if not allowed:
            return False
        required = allowed
        for s in sets:
            if s & placed == placed and s & union == s and all(cands[i] & s for i in cells):
                required &= s
        for i in cells:
            cands[i] &= allowed
            if not cands[i]:
                return False
        if pointing and required and not point_out(cands, cells, required, geo):
            return False
    return True


def point_out(cands: list[int], cells: CageCells, required: int, geo: Geometry) -> bool:
    """Remove each required digit from the cells outside the cage that see all its places
    in the cage (with places in one row, column or box: the rest of that unit)."""
    for d in digits(required):
        places = [i for i in cells if cands[i] & bit(d)]
        if not places:
            return False
        shared = set(geo.peers[places[0]]).union([places[0]])
        for i in places[1:]:
            shared.intersection_update(geo.peers[i])
        for j in shared.difference(cells):
            if cands[j] & bit(d):
                cands[j] &= ~bit(d)
                if not cands[j]:
                    return False
    return True


def cage_sums_hold(cands: list[int], cages: Cages) -> bool:
    """For a filled grid: each cage has distinct digits with the right sum."""
    for cells, total in cages:
        ds = [cands[i].bit_length() for i in cells]
        if len(set(ds)) != len(ds) or sum(ds) != total:
            return False
    return True


def propagate_all(cands: list[int], geo: Geometry, cages: Cages | None,
                  pointing: bool = True) -> bool:
    """Singles and cage digit sets (and pointing, for cages), to a fixed point."""
    while True:
        before = sum(m.bit_count() for m in cands)
        if not propagate(cands, geo):
            return False
        if not cages:
            return True
        if not reduce_by_cages(cands, cages, geo, pointing):
            return False
        if sum(m.bit_count() for m in cands) == before:
            return True


@lru_cache(maxsize=16)
def rules_template(geo: Geometry) -> cp_model.CpModel:
    """The sudoku rules over x[i, d] (proto variable i * size + d - 1), built once per shape."""
    n = geo.size
    model = CpModel()
    x = [[model.new_bool_var(f"x{i}_{d}") for d in range(1, n + 1)] for i in range(geo.cells)]
    for i in range(geo.cells):
        model.add_exactly_one(x[i])  # each cell holds one digit
    for unit in geo.units:
        for d in range(n):
            model.add_exactly_one(x[i][d] for i in unit)  # each unit holds each digit once
    return model


class OneHotModel:
    """x[i, d] for each cell i and digit d with the sudoku rules; cands fix what is known.

    The rules come from a template copied per puzzle (cheaper than building them in
    Python); known digits and eliminated candidates enter as one conjunction of literals.
    """

    def __init__(self, geo: Geometry, cands: list[int]):
        self.geo = geo
        self.cands = cands
        self.model = CpModel()
        self.model.Proto().copy_from(rules_template(geo).Proto())
        n = geo.size
        known: list[int] = []
        for i, m in enumerate(cands):
            if m == geo.full:
                continue
            single = is_single(m)
            for d in range(n):
                index = i * n + d
                if not m >> d & 1:
                    known.append(-index - 1)
                elif single:
                    known.append(index)
        if known:
            self.model.Proto().constraints.add().bool_and.literals.extend(known)
        self.open_cells = [i for i, m in enumerate(cands) if not is_single(m)]
        self._vars: dict[int, cp_model.IntVar] = {}
        # Cage digit counts as clauses rather than linear equalities: CP-SAT learns better
        # from them (bench/solver.py: hard killer worst case about 40 % lower). Off by
        # default so the plain model, which seeds the puzzle generators, stays the same.
        self.clausal_cages = False

    def index(self, i: int, d: int) -> int:
        return i * self.geo.size + d - 1

    def lit(self, i: int, d: int):
        """The literal for 'cell i holds d': a variable, or the constant 0 or 1."""
        m = self.cands[i]
        if not m >> (d - 1) & 1:
            return 0
        if is_single(m):
            return 1
        k = self.index(i, d)
        if k not in self._vars:
            self._vars[k] = self.model.get_bool_var_from_proto_index(k)
        return self._vars[k]

    def value_expr(self, i: int):
        return sum(d * self.lit(i, d) for d in digits(self.cands[i]))

    def add_cage(self, cells: CageCells, total) -> None:
        """Distinct digits adding up to total (an int, or an expression for repair)."""
        n = self.geo.size
        union = 0
        for i in cells:
            union |= self.cands[i]
        sets = digit_sets(n, len(cells), total) if isinstance(total, int) else ()
        sets = [s for s in sets if s & union == s]
        if sets and len(sets) <= MAX_DIGIT_SETS:
            self._add_digit_sets(cells, sets)
            return
        for d in digits(union):
            self.require(sum(self.lit(i, d) for i in cells) <= 1)
        self.require(sum(self.value_expr(i) for i in cells) == total)

    def add_cage_choice(self, cells: CageCells, totals) -> dict[int, list] | None:
        """The cage holds one digit set whose sum is one of `totals`, for repair.

        Returns {total: the literals of its digit sets} (exactly one literal of all holds),
        or None when the sets are too many to list: the caller then adds a sum constraint.
        Counting digits per set propagates far better than a linear sum over a choice.
        """
        n = self.geo.size
        union = 0
        for i in cells:
            union |= self.cands[i]
        by_total = {t: [s for s in digit_sets(n, len(cells), t) if s & union == s]
                    for t in totals}
        by_total = {t: sets for t, sets in by_total.items() if sets}
        sets = [s for group in by_total.values() for s in group]
        if len(sets) > MAX_DIGIT_SETS or any(not digit_sets(n, len(cells), t) for t in totals
                                             if reachable(n, len(cells), t)):
            return None
        if not sets:
            self.model.add_bool_or([])  # no listed total fits the cage
            return {}
        choices = self._add_digit_sets(cells, sets)
        out, k = {}, 0
        for t, group in by_total.items():
            out[t] = choices[k:k + len(group)]
            k += len(group)
        return out

    def _add_digit_sets(self, cells: CageCells, sets: list[int]) -> list:
        """The cage holds one of the digit sets: d appears once iff the chosen set has d.
        Returns each set's literal (the constant 1 for a single set)."""
        used = 0
        for s in sets:
            used |= s
        if len(sets) == 1:
            for d in digits(used):
                self.require_exactly_one([self.lit(i, d) for i in cells])
            return [1]
        choices = [self.model.new_bool_var("") for _ in sets]
        self.model.add_exactly_one(choices)
        for d in digits(used):
            having = [z for z, s in zip(choices, sets, strict=True) if s & bit(d)]
            lits = [self.lit(i, d) for i in cells]
            if self.clausal_cages and not any(isinstance(v, int) and v == 1 for v in lits):
                self._count_as_clauses([v for v in lits if not isinstance(v, int)], having)
            else:
                self.require(sum(lits) == sum(having))
        for i in cells:
            for d in digits(self.cands[i] & ~used):
                self.require(self.lit(i, d) == 0)
        return choices

    def _count_as_clauses(self, lits: list, having: list) -> None:
        """sum(lits) == sum(having), where at most one of having holds, as clauses: the
        digit is in the cage (some cell holds it) iff the chosen set has it. Each side is
        one exactly-one with `inside` negated: the same as an at-most-one, an implication
        per literal and a clause back, but far fewer constraints to build (a
        hard killer's model: 12 ms instead of 19; its search 15 % faster)."""
        model = self.model
        if not lits:
            for z in having:
                model.add(z == 0)
            return
        inside = model.new_bool_var("")
        model.add_exactly_one([*lits, inside.Not()])  # sum(lits) == inside
        model.add_exactly_one([*having, inside.Not()])  # sum(having) == inside

    def require_exactly_one(self, lits: list) -> None:
        ones = sum(1 for v in lits if isinstance(v, int) and v == 1)
        options = [v for v in lits if not isinstance(v, int)]
        if ones > 1 or (ones == 0 and not options):
            self.model.add_bool_or([])  # cannot hold
        elif ones == 1:
            for v in options:
                self.model.add(v == 0)
        else:
            self.model.add_exactly_one(options)

    def require(self, constraint) -> None:
        """Add a constraint; one that compares constants is checked here instead."""
        if isinstance(constraint, bool):
            if not constraint:
                self.model.add_bool_or([])  # false: the model has no solution
        else:
            self.model.add(constraint)

    def grid(self, holds) -> Grid:
        """The grid of a solution; holds(proto index) tells whether a literal is true."""
        n = self.geo.size
        out = [[digit_of(self.cands[r * n + c]) for c in range(n)] for r in range(n)]
        for i in self.open_cells:
            out[i // n][i % n] = next(d for d in digits(self.cands[i])
                                      if holds(self.index(i, d)))
        return out


def digit_of(mask: int) -> int:
    return mask.bit_length() if is_single(mask) else 0


class _FirstTwo(cp_model.CpSolverSolutionCallback):
    def __init__(self, model: OneHotModel):
        super().__init__()
        self.owner = model
        self.found: list[Grid] = []

    def on_solution_callback(self) -> None:
        self.found.append(self.owner.grid(self.SolutionBooleanValue))
        if len(self.found) >= 2:
            self.stop_search()


def thorough_parameters(solver: cp_model.CpSolver) -> None:
    """For the hard killers the quick settings do not settle soon: presolve with probing
    costs a few milliseconds but cuts the long searches (bench/solver.py: worst case about
    halved on the hard killer set)."""
    quick_parameters(solver)
    solver.parameters.cp_model_presolve = True
    solver.parameters.cp_model_probing_level = 2


def enumerate_two(model: OneHotModel, time_limit: float, thorough: bool = False,
                  work: float | None = None) -> GridAnswer:
    """Up to two solutions by CP-SAT enumeration, and the verdict they imply."""
    solver = cp_model.CpSolver()
    solver_parameters(solver, time_limit, work)
    (thorough_parameters if thorough else quick_parameters)(solver)
    solver.parameters.enumerate_all_solutions = True
    callback = _FirstTwo(model)
    status = solver.solve(model.model, callback)
    found = callback.found
    if len(found) >= 2:
        return GridAnswer("multiple", found[0], found[1])
    if found:
        return GridAnswer("unique" if status == cp_model.OPTIMAL else "unknown", found[0])
    return GridAnswer("none" if status == cp_model.INFEASIBLE else "unknown")


def solve_grid(geo: Geometry, givens: Grid | None, cages: Cages | None = None,
               time_limit: float = 10.0, killer_reasoning: bool = True,
               work: float | None = None) -> GridAnswer:
    """Verdict and up to two solutions for a sudoku (cages=None) or a killer sudoku.

    killer_reasoning=False leaves out implied sums, pointing and the thorough restart: the
    plain model, whose two witnesses the puzzle generators' seeds were made with. `work`:
    the search's limit in CP-SAT's deterministic time too (the repair's budget, budget.py).
    """
    cands = initial_candidates(givens, geo)
    return solve_candidates(geo, cands, cages, time_limit, killer_reasoning, work)


def implied_sums(geo: Geometry, cages: Cages) -> tuple[Cages, Cages]:
    """(like cages, plain sums): the sums cages imply for small groups of cells; a group
    whose cells all see each other holds distinct digits, so it counts as a cage."""
    if not IMPLIED_SUM_CELLS:
        return [], []
    like_cages, plain = [], []
    for cells, total in region_sums(geo.size, geo.box, cages, IMPLIED_SUM_CELLS):
        distinct = all(j in geo.peers[i] for k, i in enumerate(cells) for j in cells[k + 1:])
        (like_cages if distinct else plain).append((cells, total))
    return like_cages, plain


def solve_candidates(geo: Geometry, cands: list[int], cages: Cages | None = None,
                     time_limit: float = 10.0, killer_reasoning: bool = True,
                     work: float | None = None) -> GridAnswer:
    started = time.perf_counter()
    cands = cands.copy()
    like_cages, plain_sums = implied_sums(geo, cages) if cages and killer_reasoning \
        else ([], [])
    if not propagate_all(cands, geo, cages and cages + like_cages, killer_reasoning):
        return GridAnswer("none")
    if solved(cands):
        if cages and not cage_sums_hold(cands, cages):
            return GridAnswer("none")
        return GridAnswer("unique", to_grid(cands, geo.size))
    open_cells = sum(1 for m in cands if m & (m - 1))
    if not cages and open_cells <= SHORT_SEARCH_OPEN_CELLS:
        # Few open cells: a short search in Python usually settles it before a CP-SAT
        # model would be built; when it runs out of nodes, CP-SAT takes over.
        found, complete = search(cands, geo, limit=2, max_nodes=SHORT_SEARCH_NODES)
        if complete:
            grids = [to_grid(f, geo.size) for f in found]
            if len(grids) == 2:
                return GridAnswer("multiple", grids[0], grids[1])
            return GridAnswer("unique", grids[0]) if grids else GridAnswer("none")
    model = OneHotModel(geo, cands)
    model.clausal_cages = killer_reasoning
    for cells, total in (cages or []) + like_cages:
        model.add_cage(cells, total)
    for cells, total in plain_sums:
        model.require(sum(model.value_expr(i) for i in cells) == total)
    left = time_limit - (time.perf_counter() - started)
    if not cages or not killer_reasoning:
        return enumerate_two(model, left, work=work)
    # Most killers settle within QUICK_KILLER_SECONDS with the quick settings; the rest
    # start again with the thorough ones. Within a work budget the quick try is measured
    # in work too, so that a busy machine does not cut it short.
    if work is None:
        answer = enumerate_two(model, min(left, QUICK_KILLER_SECONDS))
    else:
        quick = min(work, QUICK_KILLER_SECONDS * WORK_PER_CPU_SECOND)
        answer = enumerate_two(model, left, work=quick)
        work -= quick
    left = time_limit - (time.perf_counter() - started)
    if answer.verdict != "unknown" or left <= 0 or (work is not None and work <= 0):
        return answer
    return enumerate_two(model, left, thorough=True, work=work)
