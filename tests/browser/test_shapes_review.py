"""Shapes beyond 9x9 read from a picture, shown and corrected on the page. A
nonogram: each row's and column's clue as read, editable, the suspects pointing at them,
and a typed clue solved again (before, a nonogram picture's reading broke the page: it was
drawn as a sudoku grid of no cells). A 16x16 grid: its symbols as the picture printed
them."""

from __future__ import annotations

import random
import re

from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.puzzles import make_sudoku, make_unique_nonogram
from gridsight.synth.render import render_sudoku
from tests.browser.test_page import FINISHED, cell_input, choose_picture
from tests.test_nonogram_corrections import with_a_number_missed


def clue_input(page, line: str, index: int):
    return page.get_by_role("textbox", name=re.compile(rf"^{line} {index + 1} clue(,|$)"))


def test_a_nonogram_pictures_clues_are_shown_and_corrected(page, tmp_path):
    puzzle, picture = make_unique_nonogram(random.Random(1721), 10, 10)
    printed, row = with_a_number_missed(puzzle)
    choose_picture(page, tmp_path, render_nonogram(printed, style="app", seed=1721))
    page.wait_for_selector(FINISHED + " #review:not([hidden]) .clue-editor")
    for r, runs in enumerate(printed.rows):
        assert clue_input(page, "Row", r).input_value() == (" ".join(map(str, runs)) or "0")
    for c, runs in enumerate(printed.cols):
        assert clue_input(page, "Column", c).input_value() == (" ".join(map(str, runs)) or "0")
    assert "a number may be missing" in page.locator("#conflicts").inner_text()
    link = page.locator("#suspects button").first
    assert re.match(r"Clue of (row|column) \d+, its \w+ number: ", link.inner_text())
    link.click()
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert re.match(r"(Row|Column) \d+ clue", focused)

    target = clue_input(page, "Row", row)
    target.fill(" ".join(map(str, puzzle.rows[row])))
    target.press("Enter")
    page.wait_for_selector(FINISHED + " #nonogram-picture")
    assert page.locator("#status").inner_text() == "Solved. (correction 1)"
    assert page.locator("#nonogram-text").text_content().split("\n") == picture
    target = clue_input(page, "Row", row)
    assert "corrected by you" in target.get_attribute("aria-label")
    assert "corrected" in target.locator("..").get_attribute("class")
    assert page.get_by_role("button", name="Back to the original reading").is_visible()


def test_a_clue_that_is_not_numbers_is_refused_on_the_page(page, tmp_path):
    puzzle, _ = make_unique_nonogram(random.Random(1722), 10, 10)
    choose_picture(page, tmp_path, render_nonogram(puzzle, style="app", seed=1722))
    page.wait_for_selector(FINISHED + " #nonogram-picture")
    target = clue_input(page, "Column", 2)
    target.fill("3 x")
    page.get_by_role("button", name="Solve again").click()
    assert "check the column 3 clue" in page.locator("#error").inner_text()
    assert target.get_attribute("aria-invalid") == "true"


def test_a_16x16_reading_is_shown_and_corrected_in_the_pictures_letters(page, tmp_path):
    """A 16x16 grid printed in hex (1-9, A-G): its reading shows the letters as printed,
    and a letter typed into a cell is the value it stands for (before, the reading showed
    10-16 as numbers and refused a typed letter)."""
    givens, solution = make_sudoku(random.Random(1616), 16, (4, 4))
    choose_picture(page, tmp_path, render_sudoku(givens, style="screenshot", seed=1616,
                                                 box=(4, 4), symbols="hex", cell_px=40))
    page.wait_for_selector(FINISHED + " #solution-grid")
    row, col = next((r, c) for r in range(16) for c in range(16) if givens[r][c] > 9)
    assert cell_input(page, row, col).input_value() == "ABCDEFG"[givens[row][col] - 10]
    row, col = next((r, c) for r in range(16) for c in range(16)
                    if not givens[r][c] and solution[r][c] > 9)
    letter = "abcdefg"[solution[row][col] - 10]  # typed in lower case
    cell_input(page, row, col).fill(letter)
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('correction 1')")
    page.wait_for_selector(FINISHED + " #solution-grid")
    job_id = page.evaluate("location.hash").split("=", 1)[1]
    job = page.request.get(f"/v1/jobs/{job_id}").json()
    assert job["corrections"]["cells"] == [
        {"row": row, "col": col, "value": solution[row][col], "kind": None}]
    assert job["status"] == "solved" and job["result"]["solution"] == solution
    assert cell_input(page, row, col).input_value() == letter.upper()
    cell_input(page, 0, 0).fill("H")  # no symbol of this grid
    page.get_by_role("button", name="Solve again").click()
    assert "Cells take 1-9 or A-G or nothing" in page.locator("#error").inner_text()
