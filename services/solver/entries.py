"""Half-solved pages: the person's own digits checked against the printed puzzle.

The puzzle is its printed givens (the Reading's `cells` on such a page). The person's
entries and pencil notes come from the Reading's `cell_kinds` and `entries`; each entry
that contradicts the solution is a wrong entry, the answer to "where did I go wrong?".
When the givens alone have several solutions, the page is solved again with the entries
as further givens, and the result says so.
"""

from __future__ import annotations

import numpy as np

from services.contracts import Reading, SolveResult, Suspect, WrongEntry
from services.solver.repair import normalise_fixed, solve_reading
from services.solver.review import CLASH_MESSAGE

BLANK, PRINTED, ENTRY, NOTES = range(4)
ENTRY_PROB = 0.999  # an entry taken as a given is near-certain, but the repair may drop it


def page_marks(reading: Reading) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """(entries: rows of ints, 0 = none; notes: [row, col] of cells with pencil notes),
    each cell taken as its most probable kind."""
    kinds = np.asarray(reading.cell_kinds)
    kind = kinds.argmax(axis=-1)
    digits = np.asarray(reading.entries)[..., 1:].argmax(axis=-1) + 1
    entries = np.where(kind == ENTRY, digits, 0)
    notes = [(int(r), int(c)) for r, c in zip(*np.nonzero(kind == NOTES), strict=True)]
    return entries.tolist(), notes


# An entry is called wrong only when its reading leaves the correct digit less than this
# probability: a handwritten 1 read as a 7 with p = 0.7 is more likely a misread than a
# mistake, and telling a person a right digit is wrong is the worse error. (On the val/
# photos with labelled givens, 0.05 listed 36 right digits as wrong, 0.005 listed 24.)
MISREAD_FLOOR = 0.005
# Nor is a cell called wrong whose kind reading leaves pencil notes this likely: notes
# read as one digit are no mistake. (The train/ photos' 2 cells of notes read as a digit
# leave notes 0.24 and 0.43, and none of their 535 digits read as one 0.005; of 678
# synthetic entries 2 leave 0.05, and none of 60 wrong ones 0.02. On val/, measured
# only: notes read as a digit 0.13 and 0.17, none of 2435 digits 0.05.)
NOTES_FLOOR = 0.05
# Nor is an entry that agrees with the solution taken as right unless its reading gives
# that digit at least ENTRY_SURE (among digits): a person's wrong digit read with doubt
# can come out as the right one by chance. (Synthetic pages, seeds 7 400 000 and
# 7 500 000, 24 a kind: of 18 wrong digits read as the solution's, 7 are under 0.7, and
# 29 of 15 953 right ones.)
ENTRY_SURE = 0.7


def contradictions(entries: list[list[int]], solution: list[list[int]],
                   entry_probs: list | None = None, kind_probs: list | None = None
                   ) -> tuple[list[WrongEntry], list[Suspect]]:
    """(wrong entries, doubtful entries): the entries that contradict the solution, split
    by their reading. Most of a person's digits are right, so an entry whose reading
    leaves the correct digit MISREAD_FLOOR or more is more likely a misread than a
    mistake, and one whose cell's kind reading (`kind_probs`, the Reading's cell_kinds)
    leaves pencil notes NOTES_FLOOR or more may be no digit at all: either is reported as
    doubtful (an `uncertain` suspect: read, and the solution's digit), not listed as
    wrong. Without `entry_probs` every contradiction is wrong."""
    wrong, doubtful = [], []
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            right = solution[r][c]
            if not v or v == right:
                continue
            if entry_probs is not None:
                doubt = entry_doubt(entry_probs, r, c, v, right)
                notes = kind_probs[r][c][NOTES] if kind_probs is not None else 0.0
                if doubt.chosen_prob >= MISREAD_FLOOR or notes >= NOTES_FLOOR:
                    doubtful.append(doubt)
                    continue
            wrong.append(WrongEntry(row=r, col=c, written=v, correct=right))
    return wrong, doubtful


def maybe_notes(entries: list[list[int]], solution: list[list[int]], entry_probs: list,
                kind_probs: list | None) -> list[Suspect]:
    """The entries that agree with the solution but whose cell's kind reading leaves pencil
    notes NOTES_FLOOR or more: the cell may hold notes, not the person's answer, so it is
    a doubt (read and chosen the same digit) and the answer is shown beside it."""
    if kind_probs is None:
        return []
    return [entry_doubt(entry_probs, r, c, v, v)
            for r, row in enumerate(entries) for c, v in enumerate(row)
            if v and v == solution[r][c] and kind_probs[r][c][NOTES] >= NOTES_FLOOR]


def unsure_agreements(entries: list[list[int]], solution: list[list[int]],
                      entry_probs: list, skip: set) -> list[Suspect]:
    """The entries that agree with the solution but whose reading gives that digit less
    than ENTRY_SURE: the person may have written another (cells in `skip` are doubted
    already)."""
    doubts = []
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            if v and v == solution[r][c] and (r, c) not in skip:
                doubt = entry_doubt(entry_probs, r, c, v, v)
                if doubt.read_prob < ENTRY_SURE:
                    doubts.append(doubt)
    return doubts


def entry_doubt(entry_probs: list, r: int, c: int, read: int, right: int) -> Suspect:
    """The entry read `read` in (r, c) against the solution's `right`, as a doubt, with the
    entry reading's probabilities of both digits (among digits)."""
    digits = np.asarray(entry_probs[r][c][1:], float)
    digits = digits / max(digits.sum(), 1e-12)
    return Suspect(what="cell", row=r, col=c, read=read, chosen=right,
                   read_prob=round(float(digits[read - 1]), 6),
                   chosen_prob=round(float(digits[right - 1]), 6))


def wrong_entries(entries: list[list[int]], solution: list[list[int]],
                  entry_probs: list | None = None) -> list[WrongEntry]:
    """Entries that contradict the solution; with `entry_probs` ([r][c][v] as in the
    Reading), only those whose reading gives the correct digit < MISREAD_FLOOR."""
    return contradictions(entries, solution, entry_probs)[0]


def with_entries_as_givens(reading: Reading, entries: list[list[int]]) -> Reading:
    cells = [row[:] for row in reading.cells]
    rest = (1.0 - ENTRY_PROB) / 9
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            if v:
                cells[r][c] = [ENTRY_PROB if d == v else rest for d in range(10)]
    return reading.model_copy(update={"cells": cells})


def typed_entries(fixed: dict | None) -> tuple[dict | None, dict[tuple[int, int], int]]:
    """(the fixed readings for the solver, the cells a person marked as their own digits:
    {(row, col): digit}); those cells are fixed blank in the former (see as_fixed)."""
    if not fixed or "entries" not in fixed:
        return fixed, {}
    rest = {k: v for k, v in fixed.items() if k != "entries"}
    typed = normalise_fixed({"cells": fixed["entries"]})["cells"]
    cells = normalise_fixed({"cells": rest.get("cells", [])})["cells"]
    rest["cells"] = [[r, c, v] for (r, c), v in cells.items()] + [
        [r, c, 0] for (r, c) in typed if (r, c) not in cells]
    return rest, typed


def without_cells(fixed: dict | None, cells) -> dict | None:
    """`fixed` without its fixed cells at `cells`."""
    if not fixed:
        return fixed
    kept = normalise_fixed({"cells": fixed.get("cells", [])})["cells"]
    return {**fixed, "cells": [[r, c, v] for (r, c), v in kept.items() if (r, c) not in cells]}


def solve_page(reading: Reading, time_limit: float = 10.0, fixed: dict | None = None
               ) -> SolveResult:
    """solve_reading, plus entries, notes and wrong entries on a page a person wrote on
    (a classic page, or a killer in progress: its entries are checked the same way).
    `fixed` may hold "entries": cells a person marked as their own digits, which are no
    clues and are checked against the solution as certain."""
    if reading.kind == "nonogram":
        return solve_reading(reading, time_limit=time_limit, fixed=fixed)
    if reading.written_reading is not None and not reading.written_reading.second_ink:
        reading = same_ink_entries_as_print(reading)
    return with_distinct_doubts(_answer_page(reading, time_limit, fixed))


def with_distinct_doubts(result: SolveResult) -> SolveResult:
    """`result` with each reading doubted once in `uncertain` (the first doubt kept): a
    cell doubted by the repair and again as a person's digit is one reading to check."""
    seen, distinct = set(), []
    for doubt in result.uncertain:
        where = (doubt.what, doubt.row, doubt.col)
        if where not in seen:
            seen.add(where)
            distinct.append(doubt)
    if len(distinct) == len(result.uncertain):
        return result
    return result.model_copy(update={"uncertain": distinct})


def _answer_page(reading: Reading, time_limit: float, fixed: dict | None) -> SolveResult:
    result = _solve_page(reading, time_limit, fixed)
    if reading.written_reading is None:
        return result
    if result.solution is not None:
        return with_unseen_mistakes(result, reading.written_reading)
    written = reading.written_reading
    if not written.second_ink or result.message == CLASH_MESSAGE:
        # No evidence of a person's writing (a misprint, or print in a face the cell
        # model reads as entries), or a typed correction is what clashes: the clash and
        # the readings to check are the answer, never "your digits".
        return result
    # Read as print-only, the page's digits cannot all be printed ones: a person's wrong
    # digit (in an ink of its own) taken as a given leaves no solution. Read as written
    # on, a clean solution with that digit checked against it is the answer; whether the
    # page is written on is the person's to confirm. (A print-only reading the repair
    # solves is kept: its doubts are the digits it changed, not the page's kind.)
    again = _solve_page(reading.model_copy(update={
        "cells": written.cells, "cell_kinds": written.cell_kinds,
        "entries": written.entries, "written_reading": None}), time_limit, fixed)
    if again.solution is None or again.suspects:
        return result
    return again.model_copy(update={
        "status": "needs_review", "message": again.message + "; read as a page you wrote "
        "on: your digits are no printed givens"})


def same_ink_entries_as_print(reading: Reading) -> Reading:
    """A page read as print-only whose marks show in no ink apart from the print's: a
    cell its print view takes as the person's digit (a mark the digit model reads as
    blank) is print the digit model missed, never a person's digit. It is read as a
    printed digit, as the cell model reads it."""
    if reading.cell_kinds is None or reading.entries is None:
        return reading
    kinds = np.asarray(reading.cell_kinds, float)
    entry = kinds.argmax(axis=-1) == ENTRY
    if not entry.any():
        return reading
    entries = np.asarray(reading.entries, float)
    cells = np.asarray(reading.cells, float)
    cells[entry] = entries[entry] / np.maximum(entries[entry].sum(-1, keepdims=True), 1e-12)
    kinds[entry] = [0.0, 1.0, 0.0, 0.0]
    entries[entry] = [1.0] + [0.0] * (entries.shape[-1] - 1)
    return reading.model_copy(update={"cells": cells.tolist(), "cell_kinds": kinds.tolist(),
                                      "entries": entries.tolist()})


def with_unseen_mistakes(result: SolveResult, written) -> SolveResult:
    """A page read as print-only may still hold a person's digits, too few or too faint to
    take it as written on. Read as written on (`written`), a digit the person may have
    written in a cell the puzzle holds blank, contradicting the solution, may be a
    mistake the print-only reading cannot see: it goes to the person as a doubt
    (`uncertain`, needs_review), so that "solved" never hides it."""
    entries, _ = page_marks(written)
    givens = getattr(result.puzzle, "givens", None) or []
    for r, row in enumerate(givens):
        for c, v in enumerate(row):
            if v:
                entries[r][c] = 0  # held as printed, and so agreeing with the solution
    doubts = []
    for r, row in enumerate(entries):
        for c, v in enumerate(row):
            right = result.solution[r][c]
            if v and v != right:
                doubts.append(entry_doubt(written.entries, r, c, v, right))
    if not doubts:
        return result
    one = len(doubts) == 1
    seen = (("digit that may be your own contradicts" if one else
             "digits that may be your own contradict") if written.second_ink else
            ("mark read as blank that may be a digit contradicts" if one else
             "marks read as blank that may be digits contradict"))
    return result.model_copy(update={
        "uncertain": result.uncertain + doubts,
        "status": "needs_review" if result.status == "solved" else result.status,
        "message": result.message + f"; {len(doubts)} {seen} the solution"})


def _solve_page(reading: Reading, time_limit: float, fixed: dict | None) -> SolveResult:
    fixed, typed = typed_entries(fixed)
    result = solve_reading(reading, time_limit=time_limit, fixed=fixed)
    if not typed and (reading.cell_kinds is None or reading.entries is None):
        return result
    n = reading.size
    if reading.cell_kinds is not None and reading.entries is not None:
        entries, notes = page_marks(reading)
        entry_probs = [[list(p) for p in row] for row in reading.entries]
        kind_probs = [[list(p) for p in row] for row in reading.cell_kinds]
    else:  # a print-only reading: the person's own digits are the ones they marked
        entries, notes = [[0] * n for _ in range(n)], []
        entry_probs = [[[1.0] + [0.0] * n for _ in range(n)] for _ in range(n)]
        kind_probs = [[[0.0, 0.0, 1.0, 0.0] for _ in range(n)] for _ in range(n)]
    givens = getattr(result.puzzle, "givens", None) or []
    for r, row in enumerate(givens):  # a cell the puzzle holds as printed is no entry
        for c, v in enumerate(row):
            if v:
                entries[r][c] = 0
    # A cell a person confirmed as a given (or blank) is no entry; one they marked as
    # their own digit holds it for certain.
    for r, c in normalise_fixed(fixed).get("cells", {}):
        entries[r][c] = 0
    for (r, c), v in typed.items():
        entries[r][c] = v
        entry_probs[r][c] = [1.0 if d == v else 0.0 for d in range(n + 1)]
        kind_probs[r][c] = [0.0, 0.0, 1.0, 0.0]  # the person said: their own digit
    notes = [cell for cell in notes if not entries[cell[0]][cell[1]]
             and cell not in normalise_fixed(fixed).get("cells", {})]
    update: dict = {"entries": entries, "notes": notes}
    if result.verdict == "multiple" and any(map(any, entries)):
        # The entries become givens, so the cells marked as entries are no longer fixed blank.
        again = solve_reading(with_entries_as_givens(reading, entries), time_limit=time_limit,
                              fixed=without_cells(fixed, typed))
        if again.verdict == "unique":
            # The entries chose among the solutions: they cannot be checked against it,
            # so the answer goes to review, never out as plainly solved.
            result = again
            update |= {"entries_used": True, "status": "needs_review",
                       "message": "the printed givens have more than one solution; this "
                       "one is the solution that agrees with your own digits"}
    if result.solution is not None and result.verdict in ("unique", "multiple"):
        update["wrong_entries"], doubtful = contradictions(entries, result.solution,
                                                            entry_probs, kind_probs)
        # The solution stands; whether these digits are what the person wrote, or their
        # mistakes, is for them to look at.
        with_doubts(update, result, doubtful, "was hard to read and disagrees with the "
                    "solution", "were hard to read and disagree with the solution")
        notes = maybe_notes(entries, result.solution, entry_probs, kind_probs)
        with_doubts(update, result, notes, "may be pencil notes", "may be pencil notes")
        unsure = unsure_agreements(entries, result.solution, entry_probs,
                                   {(d.row, d.col) for d in notes})
        with_doubts(update, result, unsure, "was hard to read", "were hard to read")
        if update["wrong_entries"] and not update.get("entries_used"):
            wrong = len(update["wrong_entries"])
            update["message"] = update.get("message", result.message) + (
                "; one of your digits contradicts the solution" if wrong == 1 else
                f"; {wrong} of your digits contradict the solution")
    return result.model_copy(update=update)


def with_doubts(update: dict, result: SolveResult, doubts: list[Suspect], one: str,
                many: str) -> None:
    """Adds `doubts` about the person's digits to `update` (uncertain, status, message):
    "check one of your digits (amber): it <one>" or "... they <many>"."""
    if not doubts:
        return
    update["uncertain"] = update.get("uncertain", result.uncertain) + doubts
    if result.status == "solved":
        update["status"] = "needs_review"
    update["message"] = update.get("message", result.message) + (
        f"; check one of your digits (amber): it {one}" if len(doubts) == 1
        else f"; check {len(doubts)} of your digits (amber): they {many}")
