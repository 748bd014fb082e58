"""A nonogram read from a picture, shown and corrected on the page (issue 17): each row's
and column's clue as read, editable, the suspects pointing at them, and a typed clue
solved again. Before, a nonogram picture's reading broke the page (it was drawn as a
sudoku grid of no cells)."""

from __future__ import annotations

import random
import re

from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.puzzles import make_unique_nonogram
from tests.browser.test_page import FINISHED, choose_picture
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
