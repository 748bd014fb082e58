"""A person's corrections: refused in words when they cannot hold, certain otherwise."""

from __future__ import annotations

import os
import random

import pytest

from gridsight.synth.puzzles import make_killer, make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Corrections, Reading
from services.corrections import CorrectionError, check_corrections
from services.jobs import JobStore
from tests.browser.test_page import killer_reading
from tests.conftest import wait_for_job
from tests.test_gateway import assert_problem
from tests.test_overlay import FONT, certain_cells
from tests.test_overlay import png as png_bytes


def read_sudoku(givens):
    """A solved picture job whose reading is `givens`, every cell certain, in the service's
    store: (the store, the job)."""
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("sudoku")
    store.update(job.id, status="solved",
                 reading=Reading(kind="sudoku", cells=certain_cells(givens)))
    return store, job


def killer_case(seed: int = 51):
    puzzle, solution = make_killer(random.Random(seed))
    picture = render_sudoku([[0] * 9 for _ in range(9)], font=FONT)
    return puzzle, solution, picture, killer_reading(puzzle, picture, wrong_sum=-1)


def two_cell_cage(puzzle):
    return next(c for c in puzzle.cages if len(c.cells) == 2)


def test_a_cage_sum_its_cage_cannot_make_is_refused_in_words():
    puzzle, _, _, reading = killer_case()
    cage = two_cell_cage(puzzle)
    row, col = min(map(tuple, cage.cells))
    with pytest.raises(CorrectionError) as refused:
        check_corrections(reading, Corrections.model_validate(
            {"cage_sums": [{"row": row, "col": col, "value": 30}]}))
    assert str(refused.value) == (f"cage sum 30 at row {row + 1}, column {col + 1} cannot "
                                  "hold: its cage has 2 cells, whose different digits add "
                                  "up to 3-17")
    check_corrections(reading, Corrections.model_validate(  # a sum that can hold passes
        {"cage_sums": [{"row": row, "col": col, "value": 17}]}))


def test_a_wall_fix_changes_the_cage_a_sum_is_checked_against():
    puzzle, _, _, reading = killer_case()
    cage = two_cell_cage(puzzle)
    (r1, c1), (r2, c2) = sorted(map(tuple, cage.cells))
    side = "right" if r1 == r2 else "down"
    fixes = {"cage_sums": [{"row": r1, "col": c1, "value": 9}],
             "walls": [{"row": r1, "col": c1, "side": side, "present": True}]}
    with pytest.raises(CorrectionError, match="its cage has 1 cell, whose different digits "
                                              "add up to 1-9"):
        check_corrections(reading, Corrections.model_validate(
            fixes | {"cage_sums": [{"row": r1, "col": c1, "value": 10}]}))
    check_corrections(reading, Corrections.model_validate(fixes))


def test_problems_name_cells_as_people_count():
    _, _, _, reading = killer_case()
    reading = reading.model_copy(update={"kind": "sudoku", "walls_right": None,
                                         "walls_down": None, "cage_sums": [],
                                         "cells": certain_cells([[0] * 9] * 9)})
    with pytest.raises(CorrectionError) as refused:
        check_corrections(reading, Corrections.model_validate(
            {"cells": [{"row": 0, "col": 0, "value": 5}, {"row": 0, "col": 1, "value": 5}]}))
    text = str(refused.value)
    assert "5 is typed twice in row 1, at row 1, column 1 and row 1, column 2" in text
    assert "5 is typed twice in box 1" in text
    assert "(0," not in text and "[(" not in text


def test_an_impossible_cage_sum_is_a_422_over_http(client):
    puzzle, _, picture, reading = killer_case()
    cage = two_cell_cage(puzzle)
    row, col = min(map(tuple, cage.cells))
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("killer", image=png_bytes(picture))
    store.update(job.id, status="needs_review", reading=reading)
    response = client.post(f"/v1/jobs/{job.id}/corrections",
                           json={"cage_sums": [{"row": row, "col": col, "value": 30}]})
    assert "cage sum 30 at row" in assert_problem(response, 422)["detail"]
    assert client.get(f"/v1/jobs/{job.id}").json()["revision"] == 1


def test_a_clashing_correction_ends_in_review_naming_the_clash(client, service):
    """Over the real workers: a typed digit clashing with a confident reading is
    needs_review with the clash in words, and the reading is not rewritten."""
    givens, _ = make_sudoku(random.Random(52))
    row = next(r for r in range(9) if 0 in givens[r] and any(givens[r]))
    blank, shown = givens[row].index(0), next(c for c in range(9) if givens[row][c])
    digit = givens[row][shown]
    _, job = read_sudoku(givens)
    response = client.post(f"/v1/jobs/{job.id}/corrections",
                           json={"cells": [{"row": row, "col": blank, "value": digit}]})
    assert response.status_code == 202, response.text
    done = wait_for_job(client, job.id)
    assert done["status"] == "needs_review" and done["result"]["verdict"] == "none"
    assert f"your {digit} at row {row + 1}, column {blank + 1} clashes with the {digit} " \
        f"read at row {row + 1}, column {shown + 1}" in done["result"]["conflicts"]
    # What the person typed first (the page outlines it), then the reading it clashes with.
    assert [(s["row"], s["col"]) for s in done["result"]["suspects"]] == [(row, blank),
                                                                          (row, shown)]


def test_a_reset_drops_the_corrections_and_solves_the_reading_as_read(client):
    givens, solution = make_sudoku(random.Random(53))
    _, job = read_sudoku(givens)
    blank = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    fix = {"cells": [{"row": blank[0], "col": blank[1],
                      "value": solution[blank[0]][blank[1]]}]}
    assert client.post(f"/v1/jobs/{job.id}/corrections", json=fix).status_code == 202
    corrected = wait_for_job(client, job.id)
    assert corrected["revision"] == 2 and corrected["corrections"]["cells"] == [
        f | {"kind": None} for f in fix["cells"]]
    assert corrected["result"]["puzzle"]["givens"][blank[0]][blank[1]] != 0
    undone = client.post(f"/v1/jobs/{job.id}/reset")
    assert undone.status_code == 202, undone.text
    back = wait_for_job(client, job.id)
    assert back["revision"] == 3 and back["corrections"] is None
    assert back["status"] == "solved" and back["result"]["puzzle"]["givens"] == givens
    assert back["result"]["solution"] == solution
    assert_problem(client.post("/v1/jobs/" + "y" * 24 + "/reset"), 404)


@pytest.mark.parametrize("fix, words", [
    ({"row": 0, "col": 0, "value": 4, "kind": "blank"},
     "row 1, column 1: a blank cell holds no digit (send value 0)"),
    ({"row": 0, "col": 1, "value": 0, "kind": "entry"},
     "row 1, column 2: your own digit needs a value 1-9"),
    ({"row": 0, "col": 2, "value": 0, "kind": "printed"},
     "row 1, column 3: a printed digit needs a value 1-9"),
])
def test_a_cell_kind_that_cannot_go_with_its_value_is_refused_in_words(fix, words):
    givens, _ = make_sudoku(random.Random(54))
    reading = Reading(kind="sudoku", cells=certain_cells(givens))
    with pytest.raises(CorrectionError) as refused:
        check_corrections(reading, Corrections.model_validate({"cells": [fix]}))
    assert str(refused.value) == words


def test_the_persons_own_digit_is_no_clue_and_may_repeat_a_printed_one():
    """An entry is checked against the solution, not against the printed digits: two
    fixes naming the same digit in a row are refused only when both are printed."""
    from services.corrections import as_fixed

    givens, _ = make_sudoku(random.Random(55))
    row = next(r for r in range(9) if givens[r].count(0) >= 2)
    a, b = [c for c in range(9) if not givens[row][c]][:2]
    reading = Reading(kind="sudoku", cells=certain_cells(givens))
    both = [{"row": row, "col": a, "value": 5, "kind": "entry"},
            {"row": row, "col": b, "value": 5, "kind": "printed"}]
    fixes = Corrections.model_validate({"cells": both})
    check_corrections(reading, fixes)  # no error
    assert as_fixed(fixes)["cells"] == [[row, a, 0], [row, b, 5]]
    assert as_fixed(fixes)["entries"] == [[row, a, 5]]
    both[0]["kind"] = "printed"
    with pytest.raises(CorrectionError, match="5 is typed twice in row"):
        check_corrections(reading, Corrections.model_validate({"cells": both}))
    killer = killer_case()[3]
    with pytest.raises(CorrectionError, match="applies only to classic sudoku"):
        check_corrections(killer, Corrections.model_validate({"cells": [
            {"row": 0, "col": 0, "value": 3, "kind": "entry"}]}))


def test_put_replaces_the_corrections_rather_than_adding_to_them(client):
    """Undo over HTTP: two corrections, then PUT with the first alone is the job as if
    only the first had been made; PUT with none is the reading as read."""
    givens, solution = make_sudoku(random.Random(56))
    _, job = read_sudoku(givens)
    first, second = [{"row": r, "col": c, "value": solution[r][c]}
                     for r in range(9) for c in range(9) if not givens[r][c]][:2]
    assert client.post(f"/v1/jobs/{job.id}/corrections", json={"cells": [first]}
                       ).status_code == 202
    only_first = wait_for_job(client, job.id)
    assert client.post(f"/v1/jobs/{job.id}/corrections", json={"cells": [second]}
                       ).status_code == 202
    both = wait_for_job(client, job.id)
    assert [(f["row"], f["col"]) for f in both["corrections"]["cells"]] == [
        (first["row"], first["col"]), (second["row"], second["col"])]

    undone = client.put(f"/v1/jobs/{job.id}/corrections", json={"cells": [first]})
    assert undone.status_code == 202, undone.text
    assert undone.headers["location"] == f"/v1/jobs/{job.id}"
    back = wait_for_job(client, job.id)
    assert back["revision"] == 4 and back["corrections"] == only_first["corrections"]
    assert back["result"]["puzzle"] == only_first["result"]["puzzle"]
    assert back["result"]["puzzle"]["givens"][second["row"]][second["col"]] == 0
    assert (back["status"], back["result"]["solution"]) == (
        only_first["status"], only_first["result"]["solution"])

    assert client.put(f"/v1/jobs/{job.id}/corrections", json={}).status_code == 202
    original = wait_for_job(client, job.id)
    assert original["revision"] == 5 and original["corrections"] is None
    assert original["result"]["puzzle"]["givens"] == givens


def test_put_checks_the_whole_set_as_post_does(client):
    givens, _ = make_sudoku(random.Random(57))
    store, job = read_sudoku(givens)
    url = f"/v1/jobs/{job.id}/corrections"
    row = next(r for r in range(9) if givens[r].count(0) >= 2)
    a, b = [c for c in range(9) if not givens[row][c]][:2]
    twice = {"cells": [{"row": row, "col": a, "value": 5}, {"row": row, "col": b, "value": 5}]}
    assert "5 is typed twice in row" in assert_problem(client.put(url, json=twice),
                                                       422)["detail"]
    outside = {"cells": [{"row": 9, "col": 0, "value": 1}]}
    assert "outside the 9x9 grid" in assert_problem(client.put(url, json=outside),
                                                    422)["detail"]
    assert_problem(client.put(url, json={"cells": [{"row": 0, "col": 0, "value": "5"}]}), 422)
    assert client.get(f"/v1/jobs/{job.id}").json()["revision"] == 1
    store.update(job.id, status="solving")
    assert_problem(client.put(url, json={}), 409)
    typed = store.create("sudoku", puzzle_text="1" * 81)
    store.update(typed.id, status="solved")
    assert_problem(client.put(f"/v1/jobs/{typed.id}/corrections", json={}), 409)
    assert_problem(client.put("/v1/jobs/" + "y" * 24 + "/corrections", json={}), 404)
    put = client.get("/openapi.json").json()["paths"]["/v1/jobs/{job_id}/corrections"]["put"]
    assert {"202", "404", "409", "413", "422"} <= set(put["responses"])
    assert "in place of those in force" in put["description"]
    assert put["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/Corrections")
