"""solve_nonogram_reading: the most probable reading of a nonogram's clues that solves.

Each clue number comes with candidate values and their probabilities. The argmax reading
is solved first. When its clues cannot hold (a line's runs longer than the line, row and
column totals that differ, no solution), readings that change one or two of the least
certain numbers to their runner-up values are tried, in order of the probability they
lose, and the first whose puzzle has a unique solution wins; the numbers it changed are
the suspects. Row and column totals must agree, so most changes are refused before any
solving.

Status: "solved" when the argmax reading has a unique solution and no other reading of two
uncertain numbers also solves (one number alone cannot change without breaking the totals);
"needs_review" when a number was changed, the solution is not unique, or no reading
worked (the least certain numbers are then the suspects, for a person to correct).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from itertools import combinations

from services.contracts import (
    NonogramPuzzle,
    Reading,
    SolveResult,
    SumCandidate,
    Suspect,
    WrongEntry,
)
from services.solver.nonogram import solve_nonogram
from services.solver.solve import MESSAGES

MAX_LOSS = math.log(1e4)  # a changed reading this much less likely is not tried
SINGLE_CHANGES = 40  # the least costly single changes tried
PAIR_SOURCES = 14  # pairs of changes are drawn from this many of the cheapest singles
UNCERTAIN_RUNNER_UP = 0.2  # a number whose runner-up is this likely is uncertain
MAX_RIVAL_NUMBERS = 8  # uncertain numbers paired up to look for another solvable reading
SHOWN_SUSPECTS = 3  # with no reading solvable, this many least sure numbers are named
UNTOUCHED, FILLED, CROSSED = 0, 1, 2


@dataclass(frozen=True)
class Number:
    what: str  # "row_clue" or "col_clue"
    line: int
    place: int
    values: tuple[tuple[int, float], ...]  # most probable first
    fixed: bool = False

    @property
    def best(self) -> int:
        return self.values[0][0]

    def prob(self, value: int) -> float:
        return dict(self.values).get(value, 0.0)


def read_numbers(reading: Reading, fixed: dict | None) -> list[Number]:
    """Every clue number of the reading. A line whose clue a person typed
    (fixed = {"row_clues": [[line, [runs]], ...], "col_clues": ...}) holds the typed
    numbers instead, certain, however many were read there."""
    out = []
    for what, clues in (("row_clue", reading.row_clues), ("col_clue", reading.col_clues)):
        typed = {int(line): [int(v) for v in runs]
                 for line, runs in (fixed or {}).get(f"{what}s", [])}
        for line, clue in enumerate(clues or []):
            if line in typed:
                out += [Number(what, line, place, ((value, 1.0),), fixed=True)
                        for place, value in enumerate(typed[line])]
                continue
            for place, number in enumerate(clue):
                values = tuple((c.value, max(c.prob, 1e-9)) for c in number.candidates)
                out.append(Number(what, line, place, values))
    return out


def puzzle_of(reading: Reading, numbers: list[Number], values: list[int]
              ) -> NonogramPuzzle | None:
    """The puzzle these values make, or None when its clues cannot hold: a 0 beside other
    runs, a line's runs longer than the line, row and column totals that differ."""
    rows = [[] for _ in range(reading.height or 0)]
    cols = [[] for _ in range(reading.width or 0)]
    for n, v in zip(numbers, values, strict=True):
        (rows if n.what == "row_clue" else cols)[n.line].append(v)
    for lines, length in ((rows, len(cols)), (cols, len(rows))):
        for k, runs in enumerate(lines):
            if 0 in runs:
                if len(runs) > 1:
                    return None
                lines[k] = []
            elif sum(runs) + len(runs) - 1 > length:
                return None
    if sum(map(sum, rows)) != sum(map(sum, cols)):
        return None
    return NonogramPuzzle(rows=rows, cols=cols)


def changes(numbers: list[Number]) -> list[tuple[float, tuple[tuple[int, int], ...]]]:
    """(probability lost, ((number index, value), ...)): one or two numbers changed to a
    runner-up value, cheapest first."""
    singles = []
    for i, n in enumerate(numbers):
        if n.fixed:
            continue
        best_p = n.values[0][1]
        for v, p in n.values[1:]:
            loss = math.log(best_p) - math.log(p)
            if loss <= MAX_LOSS:
                singles.append((loss, ((i, v),)))
    singles.sort()
    singles = singles[:SINGLE_CHANGES]
    pairs = [(a[0] + b[0], a[1] + b[1]) for a, b in combinations(singles[:PAIR_SOURCES], 2)
             if a[1][0][0] != b[1][0][0] and a[0] + b[0] <= MAX_LOSS]
    return sorted(singles + pairs)


def solve_nonogram_reading(reading: Reading, time_limit: float = 10.0,
                           fixed: dict | None = None) -> SolveResult:
    """Solve the clues read from a nonogram picture, repairing the least certain numbers
    when they cannot hold (see the module's docstring)."""
    started = time.perf_counter()
    deadline = started + time_limit
    numbers = read_numbers(reading, fixed)
    best = [n.best for n in numbers]
    tries = [(0.0, ())] + changes(numbers)
    fallback = None
    for _, changed in tries:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        values = best[:]
        for i, v in changed:
            values[i] = v
        puzzle = puzzle_of(reading, numbers, values)
        if puzzle is None:
            continue
        answer = solve_nonogram(puzzle, min(left, time_limit / 2 if changed else left))
        if answer.verdict == "unique":
            rival = None if changed else _rival_reading(reading, numbers, values, deadline)
            return _result(reading, numbers, values, changed, puzzle, answer, started, rival)
        if answer.verdict in ("multiple", "unknown") and fallback is None and \
                answer.solution is not None:
            fallback = (values, changed, puzzle, answer)
    if fallback is not None:
        return _result(reading, numbers, *fallback, started)
    doubtful = sorted((n for n in numbers if not n.fixed), key=lambda n: n.values[0][1])
    as_read = ("the clues, with your corrections," if any(n.fixed for n in numbers)
               else "the clues as read")
    conflicts = [f"{as_read} have no solution, even with the least certain numbers read "
                 "otherwise"]
    totals = [sum(v for n, v in zip(numbers, best, strict=True) if n.what == what)
              for what in ("row_clue", "col_clue")]
    if totals[0] != totals[1]:  # no runner-up mends a number missed or read in excess
        conflicts.append(f"the row clues add up to {totals[0]} filled cells and the column "
                         f"clues to {totals[1]}: a number may be missing, read in excess "
                         "or misread")
    return SolveResult(
        kind="nonogram", width=reading.width, height=reading.height, status="needs_review",
        verdict="none", suspects=[_suspect(n, n.best) for n in doubtful[:SHOWN_SUSPECTS]],
        conflicts=conflicts,
        message=f"{as_read} have no solution; check the clue numbers marked",
        seconds=round(time.perf_counter() - started, 6))


def _suspect(n: Number, chosen: int) -> Suspect:
    read, read_prob = n.values[0]
    return Suspect(what=n.what, row=n.line, col=n.place, read=read, chosen=chosen,
                   read_prob=round(read_prob, 6), chosen_prob=round(n.prob(chosen), 6),
                   alternatives=[SumCandidate(value=v, prob=round(p, 6))
                                 for v, p in n.values[:4] if v != chosen])


def _rival_reading(reading: Reading, numbers: list[Number], values: list[int],
                   deadline: float) -> tuple | None:
    """Another reading of the uncertain numbers (runner-up > UNCERTAIN_RUNNER_UP) whose
    clues also hold and solve: ((number index, value), ...), or None. One number alone
    cannot change without breaking the totals; two or more can."""
    uncertain = [i for i, n in enumerate(numbers) if not n.fixed and len(n.values) > 1
                 and n.values[1][1] > UNCERTAIN_RUNNER_UP][:MAX_RIVAL_NUMBERS]
    for i, j in combinations(uncertain, 2):
        other = values[:]
        other[i], other[j] = numbers[i].values[1][0], numbers[j].values[1][0]
        puzzle = puzzle_of(reading, numbers, other)
        left = deadline - time.perf_counter()
        if puzzle is None or left <= 0:
            continue
        if solve_nonogram(puzzle, min(left, 1.0)).solution is not None:
            return ((i, other[i]), (j, other[j]))
    return None


def _result(reading: Reading, numbers: list[Number], values: list[int], changed: tuple,
            puzzle: NonogramPuzzle, answer, started: float,
            rival: tuple | None = None) -> SolveResult:
    suspects = [_suspect(numbers[i], v) for i, v in changed]
    uncertain = [_suspect(n, n.best) for i, n in enumerate(numbers)
                 if not n.fixed and i not in {k for k, _ in changed} and len(n.values) > 1
                 and n.values[1][1] > UNCERTAIN_RUNNER_UP]
    status = "solved" if answer.verdict == "unique" else "needs_review"
    message = MESSAGES[answer.verdict]
    if suspects:
        status = "needs_review"
        word = "1 clue number was" if len(suspects) == 1 else f"{len(suspects)} clue numbers were"
        message += f"; {word} changed to make the puzzle solvable"
    elif rival is not None:
        status = "needs_review"
        message += ("; some clue numbers were hard to read, and read otherwise they make "
                    "another puzzle that solves: check the ones marked")
    entries, wrong = _entries(reading, answer.solution)
    return SolveResult(
        kind="nonogram", width=len(puzzle.cols), height=len(puzzle.rows), status=status,
        verdict=answer.verdict, puzzle=puzzle, solution=answer.solution,
        other_solution=answer.other, suspects=suspects, uncertain=uncertain,
        entries=entries, wrong_entries=wrong, message=message,
        seconds=round(time.perf_counter() - started, 6))


def _entries(reading: Reading, solution: list[str] | None
             ) -> tuple[list[list[int]] | None, list[WrongEntry]]:
    """The person's marks (0 none, 1 filled, 2 crossed) and those the solution
    contradicts (written: the mark; correct: the mark the solution wants there)."""
    if not reading.entries:
        return None, []
    marks = [[max(range(3), key=lambda k, p=p: p[k]) for p in row] for row in reading.entries]
    wrong = []
    if solution is not None:
        for r, row in enumerate(marks):
            for c, mark in enumerate(row):
                want = FILLED if solution[r][c] == "#" else CROSSED
                if mark != UNTOUCHED and mark != want:
                    wrong.append(WrongEntry(row=r, col=c, written=mark, correct=want))
    return marks, wrong
