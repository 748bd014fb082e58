"""A printed page is never answered as the person's own digits, over the real stack.

A clean printed screenshot holds no writing: a typed digit that clashes with a printed
one, or a digit printed twice in a row, is a clash to check (conflicts, suspects), never
"your digits". The screenshot's face makes the cell model read some of its digits as a
person's, in the print's own ink.
"""

from __future__ import annotations

import io
import random

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from tests.conftest import finished_job, wait_for_job

# A screenshot whose face the digit model misses some digits of and the cell model reads
# as a person's: read as written on, its printed digits would be "your digits".
SEED = 67


def png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def no_persons_digits(result: dict) -> None:
    assert "your digits" not in result["message"] and "wrote on" not in result["message"]
    assert result["wrong_entries"] == []
    assert not any(map(any, result["entries"] or []))


def test_a_typed_digit_clashing_with_a_printed_one_is_a_clash_not_your_digits(client):
    givens, _ = make_sudoku(random.Random(SEED))
    job = finished_job(client, "screenshot.png",
                       png(render_sudoku(givens, style="screenshot", seed=SEED)), kind="sudoku")
    no_persons_digits(job["result"])
    row = next(r for r in range(9) if 0 in givens[r] and any(givens[r]))
    blank, shown = givens[row].index(0), next(c for c in range(9) if givens[row][c])
    digit = givens[row][shown]
    response = client.post(f"/v1/jobs/{job['id']}/corrections",
                           json={"cells": [{"row": row, "col": blank, "value": digit}]})
    assert response.status_code == 202, response.text
    result = wait_for_job(client, job["id"])["result"]
    assert result["verdict"] == "none", result["message"]
    assert f"your {digit} at row {row + 1}, column {blank + 1} clashes with the {digit} " \
        f"read at row {row + 1}, column {shown + 1}" in result["conflicts"]
    assert [(s["row"], s["col"]) for s in result["suspects"]] == [(row, blank), (row, shown)]
    no_persons_digits(result)


def misprinted(client, row: int) -> tuple[dict, int, int]:
    """The screenshot with the first blank of `row` misprinted as the row's first printed
    digit, read and solved: (the ended job, the misprinted cell's column, the printed
    digit's column)."""
    givens, _ = make_sudoku(random.Random(SEED))
    blank, shown = givens[row].index(0), next(c for c in range(9) if givens[row][c])
    misprint = [line[:] for line in givens]
    misprint[row][blank] = givens[row][shown]
    job = finished_job(client, "misprint.png",
                       png(render_sudoku(misprint, style="screenshot", seed=SEED)),
                       kind="sudoku")
    return job, blank, shown


def test_a_digit_printed_twice_in_a_row_is_a_reading_to_check_not_your_digits(client):
    row = 8
    job, blank, shown = misprinted(client, row)
    assert job["status"] == "needs_review"
    result = job["result"]
    no_persons_digits(result)
    doubted = {(s["row"], s["col"]) for s in result["suspects"]}
    assert doubted & {(row, blank), (row, shown)}, result["message"]


def test_a_reading_doubted_twice_is_counted_and_listed_once(client):
    """A misprinted 1 the reader may doubt as a reading, as a mark read as blank or both:
    the result names the cell, each list once, as the page marks it once."""
    row = 6
    job, blank, _ = misprinted(client, row)
    result = job["result"]
    doubted = [(u["what"], u["row"], u["col"]) for u in result["uncertain"]]
    suspects = [(s["row"], s["col"]) for s in result["suspects"]]
    assert ("cell", row, blank) in doubted or (row, blank) in suspects, result["message"]
    assert len(doubted) == len(set(doubted)) and len(suspects) == len(set(suspects))
    no_persons_digits(result)
