"""What users of puzzle apps expect, in a real browser."""

from __future__ import annotations

import random
import re

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from tests.browser.forms import solve_nonogram, solve_typed
from tests.browser.test_page import FINISHED, HEART, cell_input, choose_picture, nonogram_clues
from tests.browser.test_page_usability import reading_job
from tests.browser.test_review import killer_job_with_suspect_sum
from tests.test_overlay import FONT


def test_the_solution_is_copied_as_text(browser, service):
    context = browser.new_context(base_url=service)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service)
    page = context.new_page()
    try:
        givens, solution = make_sudoku(random.Random(91))
        solve_typed(page, givens)
        page.get_by_role("button", name="Copy the solution as text").click()
        page.wait_for_function("() => document.querySelector('#status').textContent"
                               ".includes('copied')")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == "\n".join("".join(map(str, row)) for row in solution)
    finally:
        context.close()


def test_the_drawn_picture_can_be_downloaded(page, tmp_path):
    givens, _ = make_sudoku(random.Random(92))
    choose_picture(page, tmp_path, render_sudoku(givens, font=FONT, seed=13))
    page.wait_for_selector(FINISHED + " #solution-grid")
    link = page.get_by_role("link", name="Download the picture")
    assert link.get_attribute("download").endswith(".png")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "saved.png"
    download.value.save_as(saved)
    assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_dark_mode_follows_the_system(browser, service):
    context = browser.new_context(base_url=service, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto("/")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert sum(map(int, re.findall(r"\d+", background)[:3])) < 150
    finally:
        context.close()


def test_a_correction_can_be_undone_back_to_the_original_reading(page):
    givens, solution = make_sudoku(random.Random(93))
    job_id = reading_job(givens)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    undo = page.get_by_role("button", name="Back to the original reading")
    assert undo.is_hidden()
    blank = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    cell_input(page, *blank).fill(str(solution[blank[0]][blank[1]]))
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('correction 1')")
    page.wait_for_selector(FINISHED)
    assert "corrected by you" in cell_input(page, *blank).get_attribute("aria-label")
    undo.click()
    # Back at the original reading, no correction is in force nor counted.
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           " === 'Solved.'")
    page.wait_for_selector(FINISHED + " #solution-grid")
    assert cell_input(page, *blank).input_value() == ""
    assert "corrected" not in cell_input(page, *blank).get_attribute("aria-label")
    assert undo.is_hidden()


def test_solve_another_starts_over(page):
    givens, _ = make_sudoku(random.Random(94))
    solve_typed(page, givens)
    page.get_by_role("button", name="Solve another").click()
    assert page.locator("#job").is_hidden()
    assert "#job=" not in page.url
    assert page.evaluate("() => document.activeElement.id") == "file"


def test_nonogram_clues_are_drawn_beside_the_picture(page):
    rows, cols = nonogram_clues(HEART)
    solve_nonogram(page, rows, cols)
    shown_cols = page.locator("#nonogram-clued .col-clues > span").all_inner_texts()
    assert [t.split() for t in shown_cols] == [[str(v) for v in c] for c in cols]
    shown_rows = page.locator("#nonogram-clued .row-clues > span").all_inner_texts()
    assert shown_rows == [" ".join(map(str, r)) for r in rows]
    # Each row's clue sits level with its row of the picture.
    tops = page.evaluate("""() => {
      const clues = [...document.querySelectorAll('#nonogram-clued .row-clues > span')];
      const cells = [...document.querySelectorAll('#nonogram-picture span')];
      const width = getComputedStyle(document.querySelector('#nonogram-picture'))
        .getPropertyValue('--cols');
      return clues.map((c, i) => [c.getBoundingClientRect().top,
                                  cells[i * Number(width)].getBoundingClientRect().top]);
    }""")
    assert all(abs(a - b) < 3 for a, b in tops)


def test_suspects_come_with_close_ups_from_the_picture(page):
    job_id, *_ = killer_job_with_suspect_sum(95)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #suspects li")
    page.wait_for_selector("#suspects canvas.close-up")
    assert page.locator("#suspects canvas.close-up").count() == \
        page.locator("#suspects li").count()
    # Not blank: the picture was drawn into it.
    inked = page.eval_on_selector("#suspects canvas.close-up", """(c) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let seen = 0; for (let i = 3; i < data.length; i += 4) seen += data[i] > 0;
      return seen; }""")
    assert inked > 1000


def test_the_solution_can_be_hidden_and_revealed_one_cell_at_a_time(page):
    givens, solution = make_sudoku(random.Random(96))
    solve_typed(page, givens)
    page.get_by_label(re.compile("Hide the solution")).check()
    found = page.locator("#solution-grid td.found")
    colours = found.evaluate_all("cells => cells.map((c) => getComputedStyle(c).color)")
    assert all(c == "rgba(0, 0, 0, 0)" for c in colours)
    first = found.first
    first.click()
    assert first.evaluate("c => getComputedStyle(c).color") != "rgba(0, 0, 0, 0)"
    second = found.nth(1)
    second.focus()
    page.keyboard.press("Enter")
    assert second.evaluate("c => getComputedStyle(c).color") != "rgba(0, 0, 0, 0)"
    assert found.nth(2).evaluate("c => getComputedStyle(c).color") == "rgba(0, 0, 0, 0)"
