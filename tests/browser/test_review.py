"""The review loop in a real browser: suspects pointed at, corrections kept certain,
conflicts shown, results in view. Each test failed before its fix."""

from __future__ import annotations

import io
import os
import random
import re

import numpy as np
from PIL import Image

from gridsight.synth.puzzles import make_killer, make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import KillerPuzzle, Reading, SolveResult, SudokuPuzzle, Suspect
from services.jobs import JobStore
from tests.browser.test_page import (
    FINISHED,
    cell_input,
    choose_picture,
    killer_reading,
    solved_digits,
)
from tests.test_overlay import FONT, certain_cells, png, quads_from_lattice, wrong_given

REVIEW = "Done, but the reading needs your check."


def store() -> JobStore:
    return JobStore.from_url(os.environ["REDIS_URL"], 600)


def killer_job_with_suspect_sum(seed: int = 61):
    """A killer job as the solver leaves it when it changed a cage sum it read: the reading
    says one too many, the result names the sum as a suspect."""
    puzzle, solution = make_killer(random.Random(seed))
    picture = render_sudoku([[0] * 9 for _ in range(9)], font=FONT)
    wrong = max(range(len(puzzle.cages)), key=lambda i: len(puzzle.cages[i].cells))
    cage = puzzle.cages[wrong]
    row, col = min(map(tuple, cage.cells))
    reading = killer_reading(puzzle, picture, wrong)
    suspect = Suspect(what="cage_sum", row=row, col=col, read=cage.sum + 1, chosen=cage.sum,
                      read_prob=0.6, chosen_prob=0.3)
    result = SolveResult(kind="killer", size=9, status="needs_review", verdict="unique",
                         puzzle=KillerPuzzle(cages=puzzle.cages), solution=solution,
                         suspects=[suspect])
    jobs = store()
    job = jobs.create("killer", image=png(picture))
    jobs.update(job.id, status="needs_review", reading=reading, result=result)
    return job.id, cage, (row, col), solution


def sum_input(page, row, col):
    return page.get_by_role("textbox", name=re.compile(
        rf"^Cage sum in row {row + 1}, column {col + 1}(,|$)"))


def is_focused(locator) -> bool:
    return locator.evaluate("node => node === document.activeElement")


def test_the_link_of_a_suspect_cage_sum_focuses_the_sum_not_the_cell(page):
    job_id, cage, (row, col), solution = killer_job_with_suspect_sum()
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #solution-grid")
    page.get_by_role("button", name=re.compile(rf"Cage sum at row {row + 1}, column "
                                               rf"{col + 1}: read {cage.sum + 1}")).click()
    target = sum_input(page, row, col)
    assert is_focused(target)
    page.keyboard.type(str(cage.sum + 10))  # two digits stay two digits
    assert target.input_value() == str(cage.sum + 10)
    assert cell_input(page, row, col).input_value() == ""


def test_suspect_sums_are_highlighted_and_corrected_sums_marked(page):
    job_id, cage, (row, col), solution = killer_job_with_suspect_sum(62)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #solution-grid")
    target = sum_input(page, row, col)
    outline = target.evaluate("n => [getComputedStyle(n).outlineStyle, "
                              "getComputedStyle(n).outlineColor]")
    assert outline[0] == "solid" and outline[1] != "rgb(0, 0, 0)"
    target.fill(str(cage.sum))
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_selector(FINISHED + " #solution-grid")
    assert page.locator("#status").inner_text() == "Solved. (correction 1)"
    assert solved_digits(page) == solution
    target = sum_input(page, row, col)
    assert "corrected by you" in target.get_attribute("aria-label")
    assert "corrected" in target.get_attribute("class")


def test_a_correction_clashing_with_a_printed_digit_is_named_not_made_room_for(page, tmp_path):
    """A 6 typed into a row that already shows a printed 6: the answer is a review naming
    the clash with 1-based rows and columns, never a rewritten 'unique' grid."""
    givens, solution = make_sudoku(random.Random(63))
    choose_picture(page, tmp_path, render_sudoku(givens, font=FONT, seed=8), kind="sudoku")
    page.wait_for_selector(FINISHED + " #solution-grid")
    row = next(r for r in range(9) if 0 in givens[r] and any(givens[r]))
    blank, shown = givens[row].index(0), next(c for c in range(9) if givens[row][c])
    digit = givens[row][shown]
    cell_input(page, row, blank).fill(str(digit))
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".includes('correction 1')")
    assert page.locator("#status").inner_text() == f"{REVIEW} (correction 1)"
    clash = (f"your {digit} at row {row + 1}, column {blank + 1} clashes with the {digit} "
             f"read at row {row + 1}, column {shown + 1}")
    assert clash in page.locator("#conflicts").inner_text()
    assert page.locator("#solution-grid").count() == 0  # no invented grid
    printed = cell_input(page, row, shown)
    assert "suspect" in printed.locator("..").get_attribute("class")
    assert printed.input_value() == str(digit)
    assert "unique" not in page.locator("#verdict").inner_text()


def test_a_misprinted_grid_asks_for_review_with_the_clashing_cells_marked(page, tmp_path):
    """Two 5s printed in one row, read with certainty: a person can fix that, so the page
    asks for review and marks both cells, instead of ending in 'It did not work.'"""
    givens, _ = make_sudoku(random.Random(30))
    wrong, (row, col) = wrong_given(givens)
    choose_picture(page, tmp_path, render_sudoku(wrong, font=FONT, seed=6), kind="sudoku")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    assert page.locator("#status").inner_text() == REVIEW
    marked = page.locator(".grid.reading .cell.suspect input")
    assert marked.count() >= 2
    assert "suspect" in cell_input(page, row, col).locator("..").get_attribute("class")
    assert page.locator("#suspects li").count() >= 2
    assert page.locator("#conflicts li").count() >= 1
    assert page.locator("#error").is_hidden()


def test_a_very_large_photo_is_shrunk_in_the_browser_and_solved(page, tmp_path):
    """A 12 MP photo of over 3 MB is shrunk before upload (instead of refused or sent
    whole), and its overlay comes back as a screen-sized JPEG."""
    givens, solution = make_sudoku(random.Random(64))
    grid = render_sudoku(givens, font=FONT, seed=10, cell_px=60)
    canvas = Image.new("RGB", (4000, 3000), (236, 233, 226))
    grid = grid.resize((2400, round(2400 * grid.height / grid.width)))
    canvas.paste(grid, (800, (3000 - grid.height) // 2))
    noise = np.random.default_rng(5).integers(-9, 10, (3000, 4000, 3))
    canvas = Image.fromarray(np.clip(np.asarray(canvas, np.int16) + noise, 0, 255)
                             .astype(np.uint8))
    path = tmp_path / "phone.jpg"
    canvas.save(path, "JPEG", quality=97)
    size = path.stat().st_size
    assert size > 3 * 1024 * 1024
    page.goto("/")
    page.get_by_label("A picture from this device").set_input_files(path)
    page.wait_for_function("() => location.hash.startsWith('#job=')")
    job_id = page.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('job')")
    stored = page.request.get(f"/v1/jobs/{job_id}/image").body()  # what the server got
    assert len(stored) < size / 2
    sent = Image.open(io.BytesIO(stored))
    assert sent.format == "JPEG" and sent.size == (2400, 1800)
    page.wait_for_selector(FINISHED + " #solution-grid", timeout=60_000)
    assert solved_digits(page) == solution
    page.wait_for_function("() => { const img = document.querySelector('#overlay');"
                           " return img.src.includes('overlay.jpg') && img.complete"
                           " && img.naturalWidth > 0; }")
    shown = page.eval_on_selector("#overlay", "img => [img.naturalWidth, img.naturalHeight]")
    assert max(shown) <= 1600


PIXEL_AT = """([x, y]) => {
  const img = document.querySelector('#overlay');
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  const size = 7, half = 3;
  const data = context.getImageData(Math.round(x) - half, Math.round(y) - half, size, size).data;
  const pixels = [];
  for (let i = 0; i < data.length; i += 4) pixels.push([data[i], data[i + 1], data[i + 2]]);
  return pixels;
}"""


def test_the_picture_on_the_page_shows_the_solvers_choice_for_a_suspect(page):
    """The solver changed a printed digit: the overlay the page shows has the solver's
    digit drawn in red where the printed one was, not the printed digit."""
    givens, solution = make_sudoku(random.Random(65))
    picture = render_sudoku(givens, font=FONT, seed=14, cell_px=60)
    row, col = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    misread = solution[row][col] % 9 + 1
    cells = certain_cells(givens)
    cells[row][col] = [0.0] * 10
    cells[row][col][misread], cells[row][col][givens[row][col]] = 0.6, 0.4
    reading = Reading(kind="sudoku", cells=cells, image_size=picture.size,
                      cell_quads=quads_from_lattice(picture.info["lattice"]))
    suspect = Suspect(what="cell", row=row, col=col, read=misread, chosen=givens[row][col],
                      read_prob=0.6, chosen_prob=0.4)
    result = SolveResult(kind="sudoku", size=9, status="needs_review", verdict="unique",
                         puzzle=SudokuPuzzle(givens=givens), solution=solution,
                         suspects=[suspect])
    jobs = store()
    job = jobs.create("sudoku", image=png(picture))
    jobs.update(job.id, status="needs_review", reading=reading, result=result)
    page.goto(f"/#job={job.id}")
    page.wait_for_function("() => { const img = document.querySelector('#overlay');"
                           " return img.src.includes('overlay.jpg') && img.complete"
                           " && img.naturalWidth > 0; }")
    quad = np.asarray(reading.cell_quads[row][col])
    pixels = np.asarray(page.evaluate(PIXEL_AT, list(quad.mean(axis=0))))
    # The middle of the cell is drawn over: red strokes or the paper around them, never the
    # black of the printed digit.
    reddish = (pixels[:, 0] > 150) & (pixels[:, 1] < 120) & (pixels[:, 2] < 100)
    black = pixels.sum(axis=1) < 200
    assert reddish.any() and not black.any()
