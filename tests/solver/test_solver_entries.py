"""Half-solved pages: the person's digits checked against the printed puzzle."""

from __future__ import annotations

import random

from gridsight.synth.puzzles import make_sudoku
from services.contracts import Reading
from services.solver import solve_page
from tests.solver.solver_readings import confident_cell

KINDS = {"blank": [0.97, 0.01, 0.01, 0.01], "printed": [0.01, 0.97, 0.01, 0.01],
         "entry": [0.01, 0.01, 0.97, 0.01], "notes": [0.01, 0.01, 0.01, 0.97]}


def page_reading(givens, entries, notes=()) -> Reading:
    """A Reading of a page with printed `givens`, the person's `entries` and notes cells."""
    kinds = [[KINDS["printed" if g else "entry" if e else "notes" if (r, c) in notes
                    else "blank"] for c, (g, e) in enumerate(zip(gr, er, strict=True))]
             for r, (gr, er) in enumerate(zip(givens, entries, strict=True))]
    return Reading(kind="sudoku", cells=[[confident_cell(9, v) for v in row] for row in givens],
                   cell_kinds=kinds,
                   entries=[[confident_cell(9, v) for v in row] for row in entries])


def test_wrong_entries_are_listed_against_the_printed_puzzle():
    givens, solution = make_sudoku(random.Random(3))
    open_cells = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]]
    entries = [[0] * 9 for _ in range(9)]
    for r, c in open_cells[:10]:
        entries[r][c] = solution[r][c]
    (wr, wc), (nr, nc) = open_cells[10], open_cells[11]
    written = solution[wr][wc] % 9 + 1
    entries[wr][wc] = written
    result = solve_page(page_reading(givens, entries, notes={(nr, nc)}))
    assert result.status == "solved" and result.solution == solution
    assert result.puzzle.givens == givens  # the entries are not part of the puzzle
    assert result.entries == entries
    assert result.notes == [(nr, nc)]
    assert [(w.row, w.col, w.written, w.correct) for w in result.wrong_entries] == \
        [(wr, wc, written, solution[wr][wc])]
    assert "contradict" in result.message


def test_right_entries_give_no_wrong_entries():
    givens, solution = make_sudoku(random.Random(4))
    entries = [[solution[r][c] if not givens[r][c] and (r + c) % 2 else 0 for c in range(9)]
               for r in range(9)]
    result = solve_page(page_reading(givens, entries))
    assert result.status == "solved" and result.wrong_entries == []
    assert not result.entries_used


def test_givens_with_several_solutions_are_solved_with_the_entries_and_say_so():
    givens, solution = make_sudoku(random.Random(5))
    # Drop givens until the printed puzzle alone has more than one solution.
    weaker = [row[:] for row in givens]
    cells = [(r, c) for r in range(9) for c in range(9) if givens[r][c]]
    from services.solver import solve_puzzle
    for r, c in cells:
        weaker[r][c] = 0
        if solve_puzzle({"kind": "sudoku", "givens": weaker}).verdict == "multiple":
            break
    assert solve_puzzle({"kind": "sudoku", "givens": weaker}).verdict == "multiple"
    entries = [[solution[r][c] if not weaker[r][c] else 0 for c in range(9)] for r in range(9)]
    result = solve_page(page_reading(weaker, entries))
    assert result.verdict == "unique" and result.solution == solution
    assert result.entries_used and "your own digits" in result.message
    assert result.status == "needs_review"  # the entries chose it: never plainly solved


def test_a_reading_without_cell_kinds_is_solved_as_before():
    givens, solution = make_sudoku(random.Random(6))
    reading = Reading(kind="sudoku", cells=[[confident_cell(9, v) for v in row]
                                            for row in givens])
    result = solve_page(reading)
    assert result.solution == solution and result.entries is None and result.notes == []


def test_an_entry_that_may_be_a_misread_of_the_right_digit_is_not_called_wrong():
    givens, solution = make_sudoku(random.Random(7))
    (r, c), (r2, c2) = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]][:2]
    right, written = solution[r][c], solution[r][c] % 9 + 1
    reading = page_reading(givens, [[0] * 9 for _ in range(9)])
    entries = [[list(p) for p in row] for row in reading.entries]
    doubtful = [0.0] * 10
    doubtful[written], doubtful[right] = 0.7, 0.3  # a 1 that may be a 7
    sure = [0.0] * 10
    right2 = solution[r2][c2]
    written2 = right2 % 9 + 1
    sure[written2], sure[right2] = 0.999, 0.001
    entries[r][c], entries[r2][c2] = doubtful, sure
    kinds = [[list(p) for p in row] for row in reading.cell_kinds]
    kinds[r][c] = kinds[r2][c2] = KINDS["entry"]
    result = solve_page(reading.model_copy(update={"entries": entries, "cell_kinds": kinds}))
    assert result.entries[r][c] == written and result.entries[r2][c2] == written2
    assert [(w.row, w.col) for w in result.wrong_entries] == [(r2, c2)]
    # The doubtful one surfaces for review: read, the solution's digit and both chances.
    doubt = [(s.row, s.col, s.read, s.chosen, s.read_prob, s.chosen_prob)
             for s in result.uncertain]
    assert doubt == [(r, c, written, right, 0.7, 0.3)]
    assert result.status == "needs_review" and result.solution == solution


def test_an_entry_read_with_doubt_as_the_right_digit_is_checked_not_taken_as_right():
    """A person's wrong 5 read with doubt as the solution's 1 (0.55 against 0.40) agrees
    with the solution by chance: the page goes to review with that digit amber; the same
    digit read surely is no doubt."""
    givens, solution = make_sudoku(random.Random(8))
    (r, c), (r2, c2) = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]][:2]
    right, other = solution[r][c], solution[r][c] % 9 + 1
    entries = [[0] * 9 for _ in range(9)]
    entries[r][c], entries[r2][c2] = right, solution[r2][c2]
    reading = page_reading(givens, entries)
    sure = solve_page(reading)
    assert sure.status == "solved" and sure.uncertain == [] and sure.wrong_entries == []
    probs = [[list(p) for p in row] for row in reading.entries]
    probs[r][c] = [0.0] * 10
    probs[r][c][right], probs[r][c][other] = 0.55, 0.4
    probs[r][c][0] = 0.05
    result = solve_page(reading.model_copy(update={"entries": probs}))
    assert result.solution == solution and result.wrong_entries == []
    assert [(s.row, s.col, s.read, s.chosen) for s in result.uncertain] == [(r, c, right, right)]
    assert result.status == "needs_review" and "hard to read" in result.message


def test_a_corrected_cell_is_no_entry_whatever_form_the_corrections_take():
    """The review route passes corrections as [row, col, value] triples."""
    givens, solution = make_sudoku(random.Random(7))
    entries = [[solution[r][c] if not givens[r][c] and (r + c) % 2 else 0 for c in range(9)]
               for r in range(9)]
    (r, c) = next((r, c) for r in range(9) for c in range(9) if entries[r][c])
    for fixed in ({"cells": [[r, c, solution[r][c]]]}, {"cells": {f"{r},{c}": solution[r][c]}}):
        result = solve_page(page_reading(givens, entries), fixed=fixed)
        assert result.entries[r][c] == 0


def test_a_cell_a_person_marks_as_their_own_digit_is_no_clue_and_is_checked():
    """A handwritten digit read as printed: the person marks it as theirs. It leaves the
    puzzle, comes back as an entry, and a wrong one is listed as wrong for certain."""
    from services.contracts import Corrections
    from services.corrections import as_fixed

    givens, solution = make_sudoku(random.Random(6))
    open_cells = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]]
    (r, c), (wr, wc) = open_cells[0], open_cells[1]
    read = [row[:] for row in givens]
    read[r][c] = solution[r][c]  # the person's right digit, read as printed
    no_entries = [[0] * 9 for _ in range(9)]
    written = solution[wr][wc] % 9 + 1
    fixes = Corrections.model_validate({"cells": [
        {"row": r, "col": c, "value": solution[r][c], "kind": "entry"},
        {"row": wr, "col": wc, "value": written, "kind": "entry"}]})
    result = solve_page(page_reading(read, no_entries), fixed=as_fixed(fixes))
    assert result.puzzle.givens == givens and result.solution == solution
    assert result.entries[r][c] == solution[r][c] and result.entries[wr][wc] == written
    assert [(w.row, w.col, w.written, w.correct) for w in result.wrong_entries] == \
        [(wr, wc, written, solution[wr][wc])]


def test_a_print_only_reading_takes_the_digits_a_person_marks_as_their_own():
    givens, solution = make_sudoku(random.Random(8))
    r, c = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    read = [row[:] for row in givens]
    read[r][c] = solution[r][c]
    reading = Reading(kind="sudoku", cells=[[confident_cell(9, v) for v in row] for row in read])
    result = solve_page(reading, fixed={"cells": [[r, c, 0]], "entries": [[r, c, solution[r][c]]]})
    assert result.puzzle.givens == givens
    assert result.entries[r][c] == solution[r][c] and result.wrong_entries == []


def pen_cell(value: int) -> list[float]:
    """A digit in pen, read beyond doubt: no other reading is likely enough to try."""
    probs = [1e-6] * 10
    probs[value] = 1 - 9e-6
    return probs


def print_only_reading(givens, entries) -> Reading:
    """A page read as print-only (every digit a given, `cell_kinds` blank or printed), the
    person's `entries` among its digits, which the page read as written on shows."""
    shown = [[g or e for g, e in zip(gr, er, strict=True)]
             for gr, er in zip(givens, entries, strict=True)]
    written = page_reading(givens, entries)
    return Reading(kind="sudoku", cells=[[pen_cell(v) for v in row] for row in shown],
                   cell_kinds=[[KINDS["printed" if v else "blank"] for v in row] for row in shown],
                   entries=[[confident_cell(9, 0)] * 9 for _ in range(9)],
                   written_reading={"cells": written.cells, "cell_kinds": written.cell_kinds,
                                    "entries": written.entries, "second_ink": True})


def test_a_page_read_as_print_only_with_a_wrong_digit_is_answered_as_written_on():
    """A person's wrong digit taken as a given leaves no solution: the page read as
    written on answers, the mistake named, for the person to confirm."""
    givens, solution = make_sudoku(random.Random(6))
    (r, c), (wr, wc) = [(i, j) for i in range(9) for j in range(9) if not givens[i][j]][:2]
    entries = [[0] * 9 for _ in range(9)]
    entries[r][c] = solution[r][c]
    entries[wr][wc] = written = solution[wr][wc] % 9 + 1
    result = solve_page(print_only_reading(givens, entries))
    assert result.status == "needs_review" and result.solution == solution
    assert [(w.row, w.col, w.written, w.correct) for w in result.wrong_entries] == \
        [(wr, wc, written, solution[wr][wc])]
    assert "wrote on" in result.message


def test_a_page_whose_marks_show_in_no_second_ink_is_never_answered_as_written_on():
    """The same page without evidence of writing (its "entries" in the print's own ink: a
    misprint, or print in a face the cell model reads as entries): the print-only
    reading's clash is the answer, never "your digits"."""
    givens, solution = make_sudoku(random.Random(6))
    (r, c), (wr, wc) = [(i, j) for i in range(9) for j in range(9) if not givens[i][j]][:2]
    entries = [[0] * 9 for _ in range(9)]
    entries[r][c] = solution[r][c]
    entries[wr][wc] = solution[wr][wc] % 9 + 1
    reading = print_only_reading(givens, entries)
    reading.written_reading.second_ink = False
    result = solve_page(reading)
    assert result.verdict == "none" and result.status == "needs_review"
    assert result.wrong_entries == [] and not any(map(any, result.entries))
    assert "your digits" not in result.message and "wrote on" not in result.message


def test_a_digit_the_print_only_reading_missed_is_no_silent_mistake():
    """Too faint for the print-only reading (a blank cell there), a digit the page read as
    written on shows contradicts the solution: the answer goes to review, the cell a doubt."""
    givens, solution = make_sudoku(random.Random(7))
    (wr, wc), (r, c) = [(i, j) for i in range(9) for j in range(9) if not givens[i][j]][:2]
    entries = [[0] * 9 for _ in range(9)]
    entries[wr][wc] = written = solution[wr][wc] % 9 + 1
    entries[r][c] = solution[r][c]
    reading = print_only_reading(givens, [[0] * 9 for _ in range(9)])
    written_page = page_reading(givens, entries)
    reading.written_reading.cell_kinds = written_page.cell_kinds
    reading.written_reading.entries = written_page.entries
    result = solve_page(reading)
    assert result.solution == solution and result.status == "needs_review"
    assert [(u.row, u.col, u.read, u.chosen) for u in result.uncertain] == \
        [(wr, wc, written, solution[wr][wc])]
    # A right digit there, or none, leaves the answer solved.
    entries[wr][wc] = 0
    reading.written_reading.cell_kinds = page_reading(givens, entries).cell_kinds
    reading.written_reading.entries = page_reading(givens, entries).entries
    assert solve_page(reading).status == "solved"

