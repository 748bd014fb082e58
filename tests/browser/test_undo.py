"""Undo on the page, step by step: a person makes two corrections, takes back the last with
the Undo button and the one before with Ctrl+Z, over the real stack in Chromium, for a
sudoku's cells (desktop and phone), a killer's cage sums and a nonogram's clues."""

from __future__ import annotations

import random
import re

from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.puzzles import make_sudoku, make_unique_nonogram
from tests.browser.test_page import FINISHED, cell_input
from tests.browser.test_page_usability import reading_job
from tests.browser.test_review import killer_job_with_suspect_sum, store, sum_input
from tests.browser.test_review_loop import MEASURE
from tests.browser.test_shapes_review import clue_input
from tests.test_nonogram_corrections import nonogram_reading, with_a_number_missed
from tests.test_overlay import png

UNDO = "Undo the last correction"


def settled(page, words: str) -> None:
    """Wait until the job has ended with `words` in its status."""
    page.wait_for_function(
        "(words) => document.querySelector('#job').getAttribute('aria-busy') === 'false'"
        " && document.querySelector('#status').textContent.includes(words)", arg=words)


def correct(page, field, value: str, count: int) -> None:
    """Type `value` into a reading's field, solve again, and wait for correction `count`."""
    field.fill(value)
    page.get_by_role("button", name="Solve again").click()
    settled(page, f"(correction {count})")


def corrections_in_force(page) -> dict | None:
    job_id = page.evaluate("location.hash").split("=", 1)[1]
    return page.request.get(f"/v1/jobs/{job_id}").json()["corrections"]


def undo_with_the_button(page) -> dict | None:
    """Press Undo after the second correction: the corrections then in force."""
    undo = page.get_by_role("button", name=UNDO)
    assert undo.get_attribute("aria-keyshortcuts") == "Control+Z Meta+Z"
    undo.click()
    settled(page, "Undone.")
    settled(page, "(correction 1)")
    assert undo.is_enabled()
    assert undo.evaluate("n => n === document.activeElement")  # the focus stays
    return corrections_in_force(page)


def undo_with_ctrl_z(page, keys: str = "Control+z") -> None:
    """Ctrl+Z (or Cmd+Z: `keys`) wherever the answer left the keyboard focus: back to the
    original reading."""
    page.keyboard.press(keys)
    page.wait_for_function("() => document.querySelector('#job').getAttribute('aria-busy')"
                           " === 'false' && !document.querySelector('#status').textContent"
                           ".includes('(correction')")
    assert corrections_in_force(page) is None
    assert page.get_by_role("button", name=UNDO).is_disabled()  # nothing left to take back
    redo = page.get_by_role("button", name="Redo")
    assert redo.is_enabled() and redo.evaluate("n => n === document.activeElement")


def test_undo_takes_back_a_sudokus_corrections_one_at_a_time(sized):
    givens, solution = make_sudoku(random.Random(381))
    sized.goto(f"/#job={reading_job(givens)}")
    sized.wait_for_selector(FINISHED + " #review:not([hidden])")
    assert sized.get_by_role("button", name=UNDO).is_disabled()
    (r1, c1), (r2, c2) = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]][:2]
    correct(sized, cell_input(sized, r1, c1), str(solution[r1][c1]), 1)
    correct(sized, cell_input(sized, r2, c2), str(solution[r2][c2]), 2)

    between = undo_with_the_button(sized)
    assert between["cells"] == [{"row": r1, "col": c1, "value": solution[r1][c1],
                                 "kind": None}]
    assert cell_input(sized, r1, c1).input_value() == str(solution[r1][c1])
    assert "corrected by you" in cell_input(sized, r1, c1).get_attribute("aria-label")
    assert cell_input(sized, r2, c2).input_value() == ""
    assert "corrected" not in cell_input(sized, r2, c2).get_attribute("aria-label")
    undo_with_ctrl_z(sized)
    assert cell_input(sized, r1, c1).input_value() == ""
    assert sized.locator("#status").inner_text() == "Undone. Solved."
    assert not sized.evaluate(MEASURE)  # Redo shown, Undo disabled: both can be read

    sized.get_by_role("button", name="Redo").click()  # and forward again
    settled(sized, "Redone. Solved. (correction 1)")
    assert cell_input(sized, r1, c1).input_value() == str(solution[r1][c1])
    # In a cell the person is typing into, Ctrl+Z undoes the typing, not a correction.
    sent = []
    sized.on("request", lambda request: sent.append(request.method))
    cell_input(sized, r2, c2).click()
    sized.keyboard.type("7")
    sized.keyboard.press("Control+z")
    assert cell_input(sized, r2, c2).input_value() == ""
    sized.wait_for_timeout(300)
    assert "PUT" not in sent
    assert sized.locator("#status").inner_text() == "Redone. Solved. (correction 1)"


def test_undo_takes_back_a_killers_cage_sum_and_cell_one_at_a_time(page):
    job_id, cage, (row, col), solution = killer_job_with_suspect_sum(382)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden]) .cage-sum")
    read = sum_input(page, row, col).input_value()
    correct(page, sum_input(page, row, col), str(cage.sum), 1)
    other = next((r, c) for r in range(9) for c in range(9) if (r, c) != (row, col))
    correct(page, cell_input(page, *other), str(solution[other[0]][other[1]]), 2)
    page.reload()  # the steps are kept with the job in this tab
    settled(page, "(correction 2)")

    between = undo_with_the_button(page)
    assert between["cage_sums"] == [{"row": row, "col": col, "value": cage.sum}]
    assert between["cells"] == []
    assert sum_input(page, row, col).input_value() == str(cage.sum)
    assert cell_input(page, *other).input_value() == ""
    undo_with_ctrl_z(page)
    assert sum_input(page, row, col).input_value() == read


def test_undo_takes_back_a_nonograms_clues_one_at_a_time(page):
    puzzle, _ = make_unique_nonogram(random.Random(383), 10, 10)
    printed, row = with_a_number_missed(puzzle)
    jobs = store()
    job = jobs.create("auto", image=png(render_nonogram(printed, style="app", seed=383)))
    jobs.update(job.id, status="needs_review", reading=nonogram_reading(printed))
    page.goto(f"/#job={job.id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden]) .clue-editor")
    right = " ".join(map(str, puzzle.rows[row]))
    correct(page, clue_input(page, "Row", row), right, 1)
    column = " ".join(map(str, printed.cols[0])) or "0"
    correct(page, clue_input(page, "Column", 0), column, 2)  # retyped: confirmed

    between = undo_with_the_button(page)
    assert between["clues"] == [{"line": "row", "index": row, "clue": puzzle.rows[row]}]
    assert clue_input(page, "Row", row).input_value() == right
    assert "corrected by you" not in clue_input(page, "Column", 0).get_attribute("aria-label")
    undo_with_ctrl_z(page, "Meta+z")  # as on a Mac
    assert clue_input(page, "Row", row).input_value() == (
        " ".join(map(str, printed.rows[row])) or "0")
    assert re.search("corrected", clue_input(page, "Row", row).get_attribute("aria-label")
                     ) is None


def test_going_back_to_the_original_reading_can_be_undone_too(page):
    givens, solution = make_sudoku(random.Random(384))
    page.goto(f"/#job={reading_job(givens)}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    row, col = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    correct(page, cell_input(page, row, col), str(solution[row][col]), 1)
    page.get_by_role("button", name="Back to the original reading").click()
    page.wait_for_function("() => document.querySelector('#job').getAttribute('aria-busy')"
                           " === 'false' && document.querySelector('#status').textContent"
                           " === 'Solved.'")
    assert cell_input(page, row, col).input_value() == ""
    page.get_by_role("button", name=UNDO).click()
    settled(page, "Undone. Solved. (correction 1)")
    assert cell_input(page, row, col).input_value() == str(solution[row][col])
    assert corrections_in_force(page)["cells"] == [
        {"row": row, "col": col, "value": solution[row][col], "kind": None}]
    # The steps are kept in the tab with the job, and go when the job is deleted.
    job_id = page.evaluate("location.hash").split("=", 1)[1]
    kept = f"sessionStorage.getItem('gridsight-steps:{job_id}')"
    assert page.evaluate(kept)
    page.get_by_role("button", name=re.compile("^Delete this job")).click()
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".startsWith('Deleted')")
    assert page.evaluate(kept) is None
