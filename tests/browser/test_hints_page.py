"""The Hint button and Next in a real browser: the step's sentence (read out), its
proving cells and the candidates it removes on a grid."""

from __future__ import annotations

import random

from gridsight.synth.puzzles import make_sudoku
from tests.browser.forms import solve_typed
from tests.test_hints_api import HARD


def test_hint_and_next_show_steps_on_a_grid(page):
    givens, solution = make_sudoku(random.Random(95))
    solve_typed(page, givens)
    page.locator("#hint-rating", has_text="Difficulty:").wait_for()
    status = page.locator("#hint-text")
    assert status.get_attribute("aria-live") == "polite"
    page.get_by_role("button", name="Hint").click()
    assert status.inner_text().startswith("Step 1 of ")
    assert page.locator("#hint-grid td.hint-proof").count() >= 1
    placed = page.locator("#hint-grid td.hint-place")
    if placed.count():
        r, c = page.evaluate("""() => {
            const td = document.querySelector('#hint-grid td.hint-place');
            return [td.parentElement.rowIndex, td.cellIndex];
        }""")
        assert placed.first.inner_text().strip() == str(solution[r][c])
    # keyboard: Tab to Next and press Enter
    page.locator("#hint-next").focus()
    page.keyboard.press("Enter")
    assert status.inner_text().startswith("Step 2 of ")


def test_the_panel_says_the_rating_is_being_worked_out_until_the_hints_are_ready(page):
    """A hard puzzle is answered first and rated after (seconds): meanwhile the panel says
    so, its Hint button not yet usable; then the difficulty and the steps arrive."""
    solve_typed(page, [[0 if ch == "." else int(ch) for ch in HARD[r * 9:r * 9 + 9]]
                       for r in range(9)])
    hint = page.get_by_role("button", name="Hint")
    page.locator("#hint-rating", has_text="Working out").wait_for()
    assert hint.is_disabled()
    page.locator("#hint-rating", has_text="Difficulty:").wait_for(timeout=30_000)
    assert hint.is_enabled()
    hint.click()
    assert page.locator("#hint-text").inner_text().startswith("Step 1 of ")
