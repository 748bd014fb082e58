"""Correcting a half-solved page's cell kinds in a real browser: the person says a digit
read as printed is their own (or a cell is blank), and the real solver takes it so."""

from __future__ import annotations

import os
import random
import re

import numpy as np

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Reading
from services.jobs import JobStore
from services.solver import solve_page
from tests.browser.test_page import FINISHED, cell_input
from tests.test_overlay import FONT, certain_cells, png, quads_from_lattice


def one_hot(index: int, size: int) -> list[float]:
    return [1.0 if k == index else 0.0 for k in range(size)]


def half_solved_job(seed: int):
    """A page the person wrote on, as the recognizer may read it: their correct digit at
    `own` taken for a printed one, and another of their digits at `entry` read right."""
    givens, solution = make_sudoku(random.Random(seed))
    picture = render_sudoku(givens, font=FONT, seed=seed)
    open_cells = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]]
    own, entry = open_cells[0], open_cells[5]
    read_givens = [row[:] for row in givens]
    read_givens[own[0]][own[1]] = solution[own[0]][own[1]]
    kinds = [[one_hot(1 if read_givens[r][c] else 0, 4) for c in range(9)] for r in range(9)]
    kinds[entry[0]][entry[1]] = one_hot(2, 4)
    entries = [[one_hot(0, 10) for _ in range(9)] for _ in range(9)]
    entries[entry[0]][entry[1]] = one_hot(solution[entry[0]][entry[1]], 10)
    reading = Reading(kind="sudoku", cells=certain_cells(read_givens), image_size=picture.size,
                      cell_quads=quads_from_lattice(picture.info["lattice"]),
                      cell_kinds=kinds, entries=entries)
    result = solve_page(reading)
    jobs = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = jobs.create("sudoku", image=png(picture))
    jobs.update(job.id, status=result.status, reading=reading, result=result)
    return job.id, givens, solution, own, entry


def kind_radio(page, words: str):
    return page.get_by_role("radio", name=words)


def test_a_digit_read_as_printed_is_switched_to_the_persons_own(page):
    job_id, givens, solution, (r, c), (er, ec) = half_solved_job(71)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #solution-grid")
    # The entry read as such shows as the person's own digit, in their colour.
    entry = cell_input(page, er, ec)
    assert entry.input_value() == str(solution[er][ec])
    assert "your own digit" in entry.get_attribute("aria-label")
    entry.focus()
    assert kind_radio(page, "your own digit").is_checked()
    assert page.locator("fieldset.cell-kind legend").inner_text() == \
        f"Row {er + 1}, column {ec + 1} holds"
    # The misread one: a printed digit to the reader, the person's own in truth.
    mine = cell_input(page, r, c)
    mine.focus()
    assert kind_radio(page, "a printed digit").is_checked()
    kind_radio(page, "your own digit").check()
    assert "kind-entry" in mine.locator("..").get_attribute("class").split()
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('correction 1')")
    page.wait_for_selector(FINISHED + " #solution-grid")
    job = page.request.get(f"/v1/jobs/{job_id}").json()
    assert job["corrections"]["cells"] == [{"row": r, "col": c, "value": solution[r][c],
                                            "kind": "entry"}]
    result = job["result"]
    assert result["puzzle"]["givens"] == givens  # no longer a clue
    assert result["entries"][r][c] == solution[r][c] and result["wrong_entries"] == []
    cells = page.locator("#solution-grid td")
    assert "entry" in cells.nth(r * 9 + c).get_attribute("class").split()
    assert "your own digit" in cell_input(page, r, c).get_attribute("aria-label")


def test_a_cell_switched_to_blank_is_cleared_and_sent_as_blank(page):
    job_id, givens, solution, (r, c), _ = half_solved_job(72)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #solution-grid")
    mine = cell_input(page, r, c)
    mine.focus()
    kind_radio(page, "nothing").check()
    assert mine.input_value() == ""
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('correction 1')")
    page.wait_for_selector(FINISHED + " #solution-grid")
    job = page.request.get(f"/v1/jobs/{job_id}").json()
    assert job["corrections"]["cells"] == [{"row": r, "col": c, "value": 0, "kind": "blank"}]
    assert job["result"]["puzzle"]["givens"] == givens
    assert np.array(job["result"]["entries"])[r, c] == 0
    assert re.fullmatch(r"\d", cells_text := page.locator("#solution-grid td").nth(
        r * 9 + c).inner_text()) and int(cells_text) == solution[r][c]
