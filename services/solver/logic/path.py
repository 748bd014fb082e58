"""The next step and the whole path, techniques tried from the easiest, and a rating.

Techniques are tried in the order a person learns them; the first that changes anything
gives the step. When none does, a trial (assume a digit, follow singles to a
contradiction) removes a candidate, and as a last resort the known solution gives a digit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial

from services.solver.logic import (
    als,
    chains,
    fish,
    forcing,
    intersections,
    killer,
    singles,
    subsets,
    uniqueness,
    wings,
)
from services.solver.logic.board import Board, Step, popcount

# (name, weight, finder): the weight rates a puzzle by the hardest technique it needs.
TECHNIQUES = [
    ("naked single", 1.0, singles.naked_single),
    ("hidden single", 1.2, singles.hidden_single),
    ("cage combinations", 1.5, killer.cage_combinations),
    ("pointing", 2.0, intersections.pointing),
    ("claiming", 2.1, intersections.claiming),
    ("innies", 2.3, killer.innies_outies),
    ("naked pair", 2.5, partial(subsets.naked_subset, n=2)),
    ("hidden pair", 2.7, partial(subsets.hidden_subset, n=2)),
    ("naked triple", 3.0, partial(subsets.naked_subset, n=3)),
    ("hidden triple", 3.2, partial(subsets.hidden_subset, n=3)),
    ("X-wing", 3.4, partial(fish.fish, n=2)),
    ("naked quad", 3.5, partial(subsets.naked_subset, n=4)),
    ("hidden quad", 3.6, partial(subsets.hidden_subset, n=4)),
    ("XY-wing", 3.8, wings.xy_wing),
    ("XYZ-wing", 4.0, wings.xyz_wing),
    ("W-wing", 4.2, wings.w_wing),
    ("swordfish", 4.4, partial(fish.fish, n=3)),
    ("simple colouring", 4.5, chains.simple_colouring),
    ("unique rectangle", 4.7, uniqueness.unique_rectangle),
    ("jellyfish", 5.0, partial(fish.fish, n=4)),
    ("AIC", 6.0, chains.aic),  # an X-chain (4.6) when its chain keeps to one digit
    # easier to see than a long chain, but slower to look for: tried after chains
    ("ALS-XZ", 5.5, als.als_xz),
]
TRIAL = "trial and error"
FROM_SOLUTION = "from the solution"
WEIGHTS = {name: w for name, w, _ in TECHNIQUES} | {
    "X-chain": 4.6, "outies": 2.3, "cage splitting": 2.4, "forcing chain": 7.0,
    "digit forcing chain": 7.5, "nested forcing chain": 7.8, TRIAL: 8.0, FROM_SOLUTION: 9.0}

LEVELS = [(1.2, "easy"), (2.1, "medium"), (3.6, "hard"), (5.0, "expert"), (6.0, "extreme"),
          (7.8, "fiendish"), (99.0, "beyond logic")]


def next_step(board: Board, solution: list[int] | None = None,
              quick: bool = False) -> Step | None:
    """The easiest step from here, or None when the board is solved. quick: singles, then
    the solution's digit (when the time for a whole path has run out)."""
    if board.solved():
        return None
    for _name, _weight, find in TECHNIQUES[:2] if quick else TECHNIQUES:
        step = find(board)
        if step:
            return step
    step = None if quick else forcing.forcing_chain_or_trial(board)
    if step:
        return step
    if solution is None:
        return None
    cell = min((i for i in range(len(board.values)) if not board.values[i]),
               key=lambda i: popcount(board.cands[i]))
    d = solution[cell]
    return Step(FROM_SOLUTION, f"No technique here finds the next digit; the solution has "
                f"{d} in {board.name(cell)}.", [cell], placements=[(cell, d)], digits=[d])


@dataclass
class Path:
    steps: list[Step]
    finished: bool  # the board is solved

    @property
    def hardest(self) -> str | None:
        return max((s.technique for s in self.steps), key=WEIGHTS.__getitem__, default=None)

    def rating(self) -> dict:
        hardest = self.hardest
        weight = WEIGHTS[hardest] if hardest else 0.0
        # Among puzzles needing the same hardest technique, more hard steps is harder.
        hard_steps = sum(1 for s in self.steps if WEIGHTS[s.technique] >= 2.0)
        score = round(weight + min(hard_steps, 99) / 100, 2)
        level = next(name for top, name in LEVELS if weight <= top)
        return {"level": level, "score": score, "hardest": hardest,
                "steps": len(self.steps), "logical": not any(
                    s.technique in (TRIAL, FROM_SOLUTION) for s in self.steps)}


def solve_path(board: Board, solution: list[int] | None = None,
               max_steps: int = 2000, seconds: float | None = None) -> Path:
    """Steps from here to the end (the board is changed). After `seconds`, only singles
    and the solution's digits: the path ends, but its rating then says less."""
    steps: list[Step] = []
    deadline = None if seconds is None else time.perf_counter() + seconds
    while len(steps) < max_steps:
        quick = deadline is not None and time.perf_counter() > deadline
        step = next_step(board, solution, quick)
        if step is None:
            break
        step.apply(board)
        steps.append(step)
    return Path(steps, board.solved())
