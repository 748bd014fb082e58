"""Nonograms as CP-SAT alone: one automaton per line, no line solving first."""

from __future__ import annotations

from ortools.sat.python import cp_model


def line_automaton(runs: list[int]):
    transitions, state = [(0, 0, 0)], 0
    for j, r in enumerate(runs):
        if j:
            transitions.append((state, 0, state))
        for _ in range(r):
            transitions.append((state, 1, state + 1))
            state += 1
        transitions.append((state, 0, state + 1))
        state += 1
    if runs:
        transitions.append((state, 0, state))
        return transitions, [state - 1, state]
    return transitions, [0]


def solve(rows: list[list[int]], cols: list[list[int]], time_limit: float = 10.0,
          limit: int = 2) -> tuple[int, bool]:
    """(solutions found up to limit, search complete) for the puzzle."""
    model = cp_model.CpModel()
    x = [[model.new_bool_var("") for _ in cols] for _ in rows]
    for r, runs in enumerate(rows):
        model.add_automaton(x[r], 0, *reversed(line_automaton(runs)))
    for c, runs in enumerate(cols):
        model.add_automaton([row[c] for row in x], 0, *reversed(line_automaton(runs)))
    count = 0

    class Stop(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            nonlocal count
            count += 1
            if count >= limit:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(model, Stop())
    return count, status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or count >= limit
