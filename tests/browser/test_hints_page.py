"""The Hint button and Next in a real browser: the step's sentence (read out), its
proving cells and the candidates it removes on a grid."""

from __future__ import annotations

import random

from gridsight.synth.puzzles import make_sudoku
from tests.browser.forms import solve_typed


def test_hint_and_next_show_steps_on_a_grid(page):
    givens, solution = make_sudoku(random.Random(95))
    solve_typed(page, givens)
    assert "Difficulty:" in page.locator("#hint-rating").inner_text()
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
