"""What a repaired reading tells a person: the result, its suspects and doubts."""

from __future__ import annotations

import time

from services.contracts import (
    Cage,
    KillerPuzzle,
    Reading,
    SolveResult,
    SudokuPuzzle,
    SumCandidate,
    Suspect,
)
from services.solver.conflicts import NOT_NARROWED, explain_conflicts
from services.solver.grid import Geometry
from services.solver.read_options import Options
from services.solver.settled import runner_ups_settled
from services.solver.solve import MESSAGES, status_of

DOUBTFUL_SUM = 0.99  # a cage sum whose top candidate is less likely than this is in doubt
UNCERTAIN_RUNNER_UP = 0.2  # a kept reading whose runner-up is this likely gets reviewed
MAX_DOUBTFUL_SUMS = 8
CHECK_FIRST = 3  # with nothing named by a conflict, this many least sure readings to check


def kept(o: Options) -> Suspect:
    """A reading the solver kept, listed for a person to check."""
    ranked = o.alternatives or o.values
    value, prob = o.best, round(o.prob(o.best), 6)
    return Suspect(what=o.what, row=o.row, col=o.col, read=value, chosen=value,
                   read_prob=prob, chosen_prob=prob,
                   alternatives=[SumCandidate(value=v, prob=round(p, 6))
                                 for v, p in ranked[:4] if v != value])


def place(row: int, col: int) -> str:
    return f"row {row + 1}, column {col + 1}"


def typed_clashes(geo: Geometry, cells: list[Options], confident: float
                  ) -> list[tuple[str, Options, Options]]:
    """Each typed digit against the confident readings of the same digit in its row, column
    or box (at least `confident` likely): (the clash in words, the typed digit, the
    confident reading)."""
    out = []
    for i, o in enumerate(cells):
        if not (o.fixed and o.best):
            continue
        for j in geo.peers[i]:
            other = cells[j]
            if not other.fixed and other.best == o.best and \
                    other.values[0][1] >= confident:
                out.append((f"your {o.best} at {place(o.row, o.col)} clashes with the "
                            f"{other.best} read at {place(other.row, other.col)}", o, other))
    return out


CLASH_MESSAGE = ("a correction clashes with what was read: change the marked reading, or "
                 "your correction")


def clash_result(reading: Reading, clashes: list[tuple[str, Options, Options]],
                 started: float) -> SolveResult:
    # What the person just typed comes first (the page outlines and focuses it), then
    # the confident readings it clashes with.
    suspects = {(o.row, o.col): kept(o) for _, o, _ in clashes}
    suspects |= {(o.row, o.col): kept(o) for _, _, o in clashes}
    return SolveResult(
        kind=reading.kind, size=reading.size, status="needs_review", verdict="none",
        conflicts=[text for text, _, _ in clashes], suspects=list(suspects.values()),
        message=CLASH_MESSAGE,
        seconds=round(time.perf_counter() - started, 6))


def unsolvable_result(reading: Reading, geo: Geometry, cells: list[Options],
                      sums: list[Options], started: float) -> SolveResult:
    """No repair works: say why, and mark the readings a person should check."""
    n = geo.size
    givens = [[cells[r * n + c].best for c in range(n)] for r in range(n)]
    found = explain_conflicts(geo, givens, None, 2.0 if reading.kind == "sudoku" else 1.0)
    found = [c for c in found if c.text != NOT_NARROWED] or found
    conflicts = [c.text for c in found]
    if reading.kind == "killer":
        conflicts = ["no way of reading the cage walls and sums close to the picture "
                     "gives a solvable puzzle"] + conflicts[:3]
    named = {cell for c in found for cell in c.cells}
    # The person's own corrections in the conflict first: what they just typed is what
    # the page outlines and focuses.
    suspects = [kept(o) for o in cells if (o.row, o.col) in named and o.fixed and o.best]
    suspects += [kept(o) for o in cells if (o.row, o.col) in named and not o.fixed]
    if not suspects:
        doubtful = sorted((o for o in cells + sums if not o.fixed and o.prob(o.best) < 1),
                          key=lambda o: o.prob(o.best))
        suspects = [kept(o) for o in doubtful[:CHECK_FIRST]]
    return SolveResult(
        kind=reading.kind, size=n, status="needs_review", verdict="none",
        conflicts=conflicts, suspects=suspects,
        message="no reading of the picture gives a solvable puzzle; check the marked "
                "readings",
        seconds=round(time.perf_counter() - started, 6))


def unsettled_killer(reading: Reading, by_cell: dict, started: float,
                     undecided: list[Options] | None = None) -> SolveResult:
    """needs_review for a killer reading the repair could not settle in time: the cage sums
    the puzzle leaves open (`undecided`), else those read with the least confidence, are
    the suspects a person should check first."""
    ranked = sorted((o for o in (by_cell.values() if not undecided else undecided)
                     if not o.fixed), key=lambda o: o.prob(o.best))
    doubtful = [o for o in ranked if o.prob(o.best) < DOUBTFUL_SUM] or ranked[:3]
    suspects = [suspect(o, o.best) for o in doubtful[:MAX_DOUBTFUL_SUMS]]
    return SolveResult(
        kind=reading.kind, size=reading.size, status="needs_review", verdict="unknown",
        suspects=suspects,
        message=f"the cage sums could not be settled quickly; check the {len(suspects)} "
                + ("sum(s) the puzzle leaves open" if undecided else "least certain sum(s)")
                + " and solve again",
        seconds=round(time.perf_counter() - started, 6))


def suspect(o: Options, chosen: int) -> Suspect:
    """What was read (the recognizer's most probable value) against what was chosen."""
    ranked = o.alternatives or o.values
    read, read_prob = ranked[0]
    alts = [SumCandidate(value=v, prob=round(p, 6)) for v, p in ranked[:4] if v != chosen]
    return Suspect(what=o.what, row=o.row, col=o.col, read=read, chosen=chosen,
                   read_prob=round(read_prob, 6), chosen_prob=round(o.prob(chosen), 6),
                   alternatives=alts)


def review_lists(options: list[Options], chosen: list[int]) -> tuple[list, list]:
    suspects, uncertain = [], []
    for o, v in zip(options, chosen, strict=True):
        if o.fixed:
            continue
        if v != o.best:
            suspects.append(suspect(o, v))
        elif len(o.alternatives) > 1 and o.alternatives[1][1] > UNCERTAIN_RUNNER_UP:
            uncertain.append(suspect(o, v))
    return suspects, uncertain


def likely_others(options: list[Options], chosen: list[int]) -> dict[int, list[int]]:
    """Cell index -> the values other than the chosen one that are read more likely than
    UNCERTAIN_RUNNER_UP, for the cells `review_lists` calls uncertain."""
    out = {}
    for i, (o, v) in enumerate(zip(options, chosen, strict=True)):
        others = [u for u, p in o.alternatives if u != v and p > UNCERTAIN_RUNNER_UP]
        if not o.fixed and v == o.best and others:
            out[i] = others
    return out


def build_result(reading: Reading, geo: Geometry, cells: list[Options], sums: list[Options],
                 layout, outcome, started: float) -> SolveResult:
    n = geo.size
    kind = reading.kind
    if outcome is None:
        return unsolvable_result(reading, geo, cells, sums, started)
    if isinstance(outcome, str):
        return SolveResult(kind=kind, size=n, status="failed", verdict="unknown",
                           message=MESSAGES["unknown"],
                           seconds=round(time.perf_counter() - started, 6))
    givens = [outcome.cells[r * n:(r + 1) * n] for r in range(n)]
    suspects, uncertain = review_lists(cells, outcome.cells)
    if kind == "sudoku":
        puzzle = SudokuPuzzle(size=n, box=geo.box, givens=givens)
    else:
        flipped, cages, walls = layout
        more_suspects, more_uncertain = review_lists(sums, outcome.sums)
        suspects += more_suspects
        uncertain += more_uncertain
        for k in sorted(flipped):
            w = walls[k]
            suspects.append(Suspect(what=w.what, row=w.row, col=w.col, read=int(w.read),
                                    chosen=int(not w.read),
                                    read_prob=round(max(w.prob, 1 - w.prob), 6),
                                    chosen_prob=round(min(w.prob, 1 - w.prob), 6)))
        for k, w in enumerate(walls):
            if k not in flipped and not w.fixed and min(w.prob, 1 - w.prob) > \
                    UNCERTAIN_RUNNER_UP:
                uncertain.append(Suspect(what=w.what, row=w.row, col=w.col, read=int(w.read),
                                         chosen=int(w.read),
                                         read_prob=round(max(w.prob, 1 - w.prob), 6),
                                         chosen_prob=round(max(w.prob, 1 - w.prob), 6)))
        puzzle = KillerPuzzle(
            size=n, box=geo.box,
            cages=[Cage(sum=t, cells=[divmod(i, n) for i in cage])
                   for cage, t in zip(cages, outcome.sums, strict=True)],
            givens=givens if any(map(any, givens)) else None)
    verdict = outcome.answer.verdict
    if kind == "sudoku" and verdict == "unique" and uncertain and not suspects and \
            runner_ups_settled(geo, outcome.cells, outcome.answer.solution,
                               likely_others(cells, outcome.cells)):
        uncertain = []  # no other likely reading changes the answer (settled.py)
    status = status_of(verdict, outcome.answer.solution is not None)
    if status == "solved" and (suspects or uncertain):
        status = "needs_review"
    message = MESSAGES[verdict]
    if suspects:
        changed = "1 reading was" if len(suspects) == 1 else f"{len(suspects)} readings were"
        message += f"; {changed} changed to make the puzzle solvable"
    return SolveResult(
        kind=kind, size=n, status=status, verdict=verdict, puzzle=puzzle,
        solution=outcome.answer.solution, other_solution=outcome.answer.other,
        suspects=suspects, uncertain=uncertain, message=message,
        seconds=round(time.perf_counter() - started, 6))
