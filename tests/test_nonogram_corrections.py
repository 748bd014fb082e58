"""A nonogram read from a picture is corrected clue by clue. A person types a
line's whole clue (a number missed or read in excess is mended as well as a misread one),
the corrections are checked in words, and the solver takes the typed lines as certain.
Before, every correction of a nonogram reading was refused ("not taken yet")."""

from __future__ import annotations

import io
import random

import pytest

from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.puzzles import make_unique_nonogram
from services.contracts import ClueReading, Corrections, NonogramPuzzle, Reading, SumCandidate
from services.corrections import CorrectionError, as_fixed, check_corrections, merge
from services.solver.repair import solve_reading
from tests.conftest import finished_job, wait_for_job
from tests.test_gateway import assert_problem


def sure_clues(lines: list[list[int]]) -> list[list[ClueReading]]:
    return [[ClueReading(candidates=[SumCandidate(value=v, prob=0.99)]) for v in runs]
            for runs in lines]


def nonogram_reading(puzzle: NonogramPuzzle) -> Reading:
    return Reading(kind="nonogram", cells=[], width=len(puzzle.cols), height=len(puzzle.rows),
                   row_clues=sure_clues(puzzle.rows), col_clues=sure_clues(puzzle.cols))


def with_a_number_missed(puzzle: NonogramPuzzle) -> tuple[NonogramPuzzle, int]:
    """The puzzle as a misprint (or a misreading) leaves it: the first row with two runs
    or more lost its first number. Returns (that puzzle, the row)."""
    row = next(r for r, runs in enumerate(puzzle.rows) if len(runs) >= 2)
    rows = [runs[1:] if r == row else runs for r, runs in enumerate(puzzle.rows)]
    return NonogramPuzzle(rows=rows, cols=puzzle.cols), row


def fixes(*clues: dict) -> Corrections:
    return Corrections.model_validate({"clues": list(clues)})


@pytest.mark.parametrize("clue, words", [
    ({"line": "row", "index": 10, "clue": [1]},
     'clues: "line": "row", "index": 10 is no line of the nonogram: its 10 rows have '
     '"index" 0 to 9 (counted from 0)'),
    ({"line": "col", "index": 3, "clue": [5, 5]},
     "column 4: 5 5 needs 11 cells, and the line has 10"),
    ({"line": "row", "index": 0, "clue": [0, 2]},
     "row 1: a 0 stands alone, for a line with nothing to fill"),
])
def test_a_clue_that_cannot_hold_is_refused_in_words(clue, words):
    puzzle, _ = make_unique_nonogram(random.Random(1731), 10, 10)
    with pytest.raises(CorrectionError) as refused:
        check_corrections(nonogram_reading(puzzle), fixes(clue))
    assert str(refused.value) == words


def test_clues_typed_for_every_line_must_agree_on_the_filled_cells():
    puzzle, _ = make_unique_nonogram(random.Random(1732), 8, 6)
    reading = nonogram_reading(puzzle)
    every = [{"line": "row", "index": r, "clue": runs} for r, runs in enumerate(puzzle.rows)]
    every += [{"line": "col", "index": c, "clue": runs} for c, runs in enumerate(puzzle.cols)]
    check_corrections(reading, fixes(*every))  # the true clues hold
    cut = next(f for f in every if f["line"] == "row" and f["clue"])
    cut["clue"] = cut["clue"][1:] or [0]
    with pytest.raises(CorrectionError, match="the row clues add up to .* filled cells and "
                                              "the column clues to .*: they must agree"):
        check_corrections(reading, fixes(*every))


def test_clue_fixes_and_grid_fixes_do_not_mix():
    puzzle, _ = make_unique_nonogram(random.Random(1733), 10, 10)
    with pytest.raises(CorrectionError, match="a nonogram takes corrections of its clues "
                                              "only"):
        check_corrections(nonogram_reading(puzzle), Corrections.model_validate(
            {"cells": [{"row": 0, "col": 0, "value": 1}]}))
    sudoku = Reading(kind="sudoku", cells=[[[1.0] + [0.0] * 9] * 9] * 9)
    with pytest.raises(CorrectionError, match="clue corrections apply only to nonograms"):
        check_corrections(sudoku, fixes({"line": "row", "index": 0, "clue": [1]}))


def test_later_clue_fixes_replace_earlier_ones_and_reach_the_solver_whole():
    first = fixes({"line": "row", "index": 2, "clue": [3]},
                  {"line": "col", "index": 0, "clue": [0]})
    later = fixes({"line": "row", "index": 2, "clue": [1, 1]})
    merged = merge(first, later)
    assert as_fixed(merged) == {"row_clues": [[2, [1, 1]]], "col_clues": [[0, []]]}


def test_a_typed_line_replaces_however_many_numbers_were_read_there():
    """The reader lost a number: the clues cannot hold (totals differ), no runner-up value
    can mend it, and the conflicts say so; the person's whole line makes it solve."""
    puzzle, picture = make_unique_nonogram(random.Random(1734), 10, 10)
    misread, row = with_a_number_missed(puzzle)
    reading = nonogram_reading(misread)
    as_read = solve_reading(reading)
    assert as_read.status == "needs_review" and as_read.solution is None
    assert any("a number may be missing" in text for text in as_read.conflicts)
    corrected = solve_reading(reading, fixed=as_fixed(fixes(
        {"line": "row", "index": row, "clue": puzzle.rows[row]})))
    assert corrected.status == "solved" and corrected.verdict == "unique"
    assert corrected.solution == picture and corrected.puzzle.rows == puzzle.rows
    assert not corrected.suspects


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_a_nonogram_picture_corrected_over_http_is_solved(client):
    """Over the real workers: a picture whose printed clue lost a number is read, sent to
    review; the person types that row's clue, and the new revision is solved."""
    puzzle, picture = make_unique_nonogram(random.Random(1721), 10, 10)
    printed, row = with_a_number_missed(puzzle)
    job = finished_job(client, "nono.png", png(render_nonogram(printed, style="app",
                                                               seed=1721)), kind="auto")
    assert job["reading"]["kind"] == "nonogram" and job["status"] == "needs_review"
    assert job["result"]["solution"] is None

    too_long = {"clues": [{"line": "row", "index": row, "clue": [6, 6]}]}
    refused = client.post(f"/v1/jobs/{job['id']}/corrections", json=too_long)
    assert assert_problem(refused, 422)["detail"] == (
        f"row {row + 1}: 6 6 needs 13 cells, and the line has 10")

    fix = {"clues": [{"line": "row", "index": row, "clue": puzzle.rows[row]}]}
    response = client.post(f"/v1/jobs/{job['id']}/corrections", json=fix)
    assert response.status_code == 202, response.text
    done = wait_for_job(client, job["id"])
    assert done["revision"] == 2 and done["corrections"]["clues"] == fix["clues"]
    assert done["status"] == "solved", done["result"]
    assert done["result"]["solution"] == picture
    assert done["result"]["puzzle"]["rows"] == puzzle.rows
