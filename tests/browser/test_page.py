"""The web page in a real browser, against the real gateway, workers, recognizer and solver."""

from __future__ import annotations

import base64
import itertools
import os
import random
import re

from gridsight.synth.puzzles import make_killer, make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import (
    CageSumReading,
    Reading,
    SolveResult,
    SudokuPuzzle,
    SumCandidate,
    Suspect,
)
from services.jobs import JobStore
from tests.browser.forms import FINISHED, solve_nonogram
from tests.test_overlay import FONT, certain_cells, png, quads_from_lattice, wrong_given


def solved_digits(page) -> list[list[int]]:
    texts = page.locator("#solution-grid td").all_inner_texts()
    n = round(len(texts) ** 0.5)
    return [[int(t) for t in texts[r * n:(r + 1) * n]] for r in range(n)]


def cell_input(page, row: int, col: int):
    """A cell of the reading, found by its accessible name as a person would."""
    name = re.compile(rf"^Row {row + 1}, column {col + 1}(,|$)")
    return page.get_by_role("textbox", name=name)


def choose_picture(page, tmp_path, picture, kind="auto"):
    path = tmp_path / "puzzle.png"
    picture.save(path)
    page.goto("/")
    page.get_by_label("Puzzle kind").select_option(kind)
    page.get_by_label("A picture from this device").set_input_files(path)


def test_uploaded_picture_is_solved_and_drawn_into(page, tmp_path):
    givens, solution = make_sudoku(random.Random(31))
    picture = render_sudoku(givens, font=FONT, seed=5)
    choose_picture(page, tmp_path, picture)
    page.wait_for_selector("#solution-grid")
    assert solved_digits(page) == solution
    assert page.locator("#status").inner_text() == "Solved."
    # The overlay image is the picture's own size (small pictures are not scaled), drawn
    # by the gateway.
    page.wait_for_function("() => { const img = document.querySelector('#overlay');"
                           " return img.src.includes('overlay.jpg') && img.complete"
                           " && img.naturalWidth > 0; }")
    size = page.eval_on_selector("#overlay", "img => [img.naturalWidth, img.naturalHeight]")
    assert tuple(size) == picture.size
    # The reading shows the printed digits, and blanks as empty inputs.
    for (row, col) in [(0, 0), (4, 4), (8, 8)]:
        expected = str(givens[row][col] or "")
        assert cell_input(page, row, col).input_value() == expected


DROP = """async (encoded) => {
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
  const zone = document.querySelector("#drop-zone");
  for (const type of ["dragover", "drop"]) {
    zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true,
                                             cancelable: true }));
  }
}"""


def test_dropped_picture_is_solved(page):
    givens, solution = make_sudoku(random.Random(36))
    page.goto("/")
    page.evaluate(DROP, base64.b64encode(png(render_sudoku(givens, font=FONT))).decode())
    page.wait_for_selector(FINISHED + " #solution-grid")
    assert solved_digits(page) == solution


def test_person_corrects_a_misread_digit_and_solves_again(page, tmp_path):
    """The picture shows a digit its row already holds. That never comes back plainly
    solved: either no solution (and the person is told why), or one that changed a reading,
    marked on the page. The person types the true digit into that cell and solves again."""
    givens, solution = make_sudoku(random.Random(32))
    wrong, (row, col) = wrong_given(givens)
    choose_picture(page, tmp_path, render_sudoku(wrong, font=FONT, seed=6), kind="sudoku")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    status = page.locator("#status").inner_text()
    if status == "It did not work.":
        assert page.get_by_role("alert").inner_text()
    else:
        assert status == "Done, but the reading needs your check."
        assert page.locator(".grid.reading .cell.suspect").count() >= 1
        assert page.locator("#suspects li").count() >= 1

    cell = cell_input(page, row, col)
    assert cell.input_value() == str(wrong[row][col])
    cell.fill(str(givens[row][col]))
    page.get_by_role("button", name="Solve again").click()
    page.wait_for_selector(FINISHED + " #solution-grid")
    assert page.locator("#status").inner_text() == "Solved. (correction 1)"
    assert solved_digits(page) == solution
    # The corrected cell stays marked as the person's.
    assert "corrected by you" in cell_input(page, row, col).get_attribute("aria-label")


def test_suspects_are_marked_and_reachable_by_keyboard(page):
    """A job as the solver leaves it when it changed a reading. The real pipeline cannot be
    made to misread on purpose, so the job's record is written into the service's store."""
    givens, solution = make_sudoku(random.Random(33))
    picture = render_sudoku(givens, font=FONT, seed=7)
    blank = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    cells = certain_cells(givens)
    cells[blank[0]][blank[1]] = [0.3 if v == 0 else 0.7 if v == 5 else 0.0 for v in range(10)]
    reading = Reading(kind="sudoku", cells=cells, image_size=picture.size,
                      cell_quads=quads_from_lattice(picture.info["lattice"]))
    suspect = Suspect(what="cell", row=blank[0], col=blank[1], read=5, chosen=0,
                      read_prob=0.7, chosen_prob=0.3)
    result = SolveResult(kind="sudoku", size=9, status="solved", verdict="unique",
                         puzzle=SudokuPuzzle(givens=givens), solution=solution,
                         suspects=[suspect])
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("sudoku", image=png(picture))
    store.update(job.id, status="solved", reading=reading, result=result)

    page.goto(f"/#job={job.id}")
    page.wait_for_selector("#solution-grid")
    assert solved_digits(page) == solution
    marked = cell_input(page, *blank)
    assert marked.input_value() == "5"
    assert "read 5 (70% sure), solver chose blank" in marked.get_attribute("aria-label")
    assert "suspect" in marked.locator("..").get_attribute("class")
    assert "unsure" in marked.locator("..").get_attribute("class")  # 70 % is shaded

    page.get_by_role("button", name=re.compile(r"read 5 \(70% sure\), solver chose blank")).click()
    assert marked.evaluate("node => node === document.activeElement")
    row, col = blank
    step = ("ArrowLeft", col - 1) if col > 0 else ("ArrowRight", col + 1)
    page.keyboard.press(step[0])
    assert cell_input(page, row, step[1]).evaluate("node => node === document.activeElement")


def nonogram_clues(picture: list[str]) -> tuple[list[list[int]], list[list[int]]]:
    def runs(line: str) -> list[int]:
        return [len(run) for run in line.split(".") if run]

    columns = ["".join(row[c] for row in picture) for c in range(len(picture[0]))]
    return [runs(row) for row in picture], [runs(col) for col in columns]


def count_solutions(rows: list[list[int]], cols: list[list[int]], width: int) -> int:
    """Brute force over each row's placements: small pictures only."""
    def placements(clue):
        for bits in itertools.product(".#", repeat=width):
            line = "".join(bits)
            if [len(run) for run in line.split(".") if run] == clue:
                yield line

    options = [list(placements(clue)) for clue in rows]
    found = 0
    for grid in itertools.product(*options):
        if nonogram_clues(list(grid))[1] == cols:
            found += 1
    return found


HEART = [".##.##.",
         "#######",
         "#######",
         ".#####.",
         "..###..",
         "...#..."]


def test_nonogram_form_shows_the_picture(page):
    rows, cols = nonogram_clues(HEART)
    assert count_solutions(rows, cols, len(HEART[0])) == 1
    # Both ways of writing clues: "2 2" and "2_2"; "0" for an empty line.
    solve_nonogram(page, rows, cols, col_joiner="_")
    assert page.locator("#nonogram-text").text_content().split("\n") == HEART
    assert page.locator("#nonogram-picture span.on").count() == "".join(HEART).count("#")
    assert page.get_by_role("img", name="Solved picture, 7 by 6 cells").is_visible()


def test_errors_are_shown_to_the_person(page):
    page.goto("/")
    page.get_by_label("Row clues").fill("3 x")
    page.get_by_label("Column clues").fill("1")
    page.get_by_role("button", name="Solve nonogram").click()
    assert "Row clues line 1" in page.get_by_role("alert").inner_text()

    page.get_by_label(re.compile("^Sudoku")).fill("12345")
    page.get_by_role("button", name="Solve sudoku").click()
    page.wait_for_selector(FINISHED)
    alert = page.get_by_role("alert")
    assert alert.is_visible() and len(alert.inner_text()) > 10
    assert page.locator("#status").inner_text() == "It did not work."


def test_page_fits_a_phone_screen(browser, service):
    width = 360  # a small phone, in CSS pixels
    context = browser.new_context(base_url=service, viewport={"width": width, "height": 740},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        givens, solution = make_sudoku(random.Random(34))
        page.goto("/")
        page.get_by_label(re.compile("^Sudoku")).fill(
            "".join(str(v) for row in givens for v in row))
        page.get_by_role("button", name="Solve sudoku").click()
        page.wait_for_selector("#solution-grid", timeout=20_000)
        assert solved_digits(page) == solution
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.get_by_label("A photo with the camera").get_attribute("capture") == \
            "environment"
    finally:
        context.close()


def killer_reading(puzzle, picture, wrong_sum: int) -> Reading:
    """What a recognizer would read from a killer picture: blank cells, cage walls, and each
    cage's sum in its first cell; the sum of cage `wrong_sum` read one too high."""
    n = puzzle.size
    owner = {cell: i for i, cage in enumerate(puzzle.cages) for cell in map(tuple, cage.cells)}
    walls_right = [[float(owner[(r, c)] != owner[(r, c + 1)]) for c in range(n - 1)]
                   for r in range(n)]
    walls_down = [[float(owner[(r, c)] != owner[(r + 1, c)]) for c in range(n)]
                  for r in range(n - 1)]
    sums = [CageSumReading(cell=min(map(tuple, cage.cells)),
                           candidates=[SumCandidate(value=cage.sum + (i == wrong_sum), prob=1.0)])
            for i, cage in enumerate(puzzle.cages)]
    return Reading(kind="killer", cells=certain_cells([[0] * n for _ in range(n)]),
                   walls_right=walls_right, walls_down=walls_down, cage_sums=sums,
                   image_size=picture.size,
                   cell_quads=quads_from_lattice(picture.info["lattice"]))


def test_person_corrects_a_cage_sum_of_a_killer(page):
    """A killer reading with one cage sum misread, written into the service's store as the
    recognizer would leave it (no killer pictures are rendered yet). The person fixes the sum
    on the page; the real solver solves the corrected reading."""
    puzzle, solution = make_killer(random.Random(35))
    picture = render_sudoku([[0] * 9 for _ in range(9)], font=FONT)
    wrong = max(range(len(puzzle.cages)), key=lambda i: len(puzzle.cages[i].cells))
    cage = puzzle.cages[wrong]
    row, col = min(map(tuple, cage.cells))
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("killer", image=png(picture))
    store.update(job.id, status="needs_review", reading=killer_reading(puzzle, picture, wrong))

    page.goto(f"/#job={job.id}")
    sum_input = page.get_by_role("textbox", name=f"Cage sum in row {row + 1}, column {col + 1}")
    assert sum_input.input_value() == str(cage.sum + 1)
    walls = page.locator(".grid.reading .wall-right, .grid.reading .wall-down").count()
    assert walls >= len(puzzle.cages) - 1
    sum_input.fill(str(cage.sum))
    with page.expect_request(lambda r: r.url.endswith("/corrections")) as posted:
        page.get_by_role("button", name="Solve again").click()
    assert posted.value.post_data_json == {
        "cells": [], "cage_sums": [{"row": row, "col": col, "value": cage.sum}]}
    page.wait_for_selector(FINISHED + " #solution-grid")
    assert solved_digits(page) == solution


def test_killer_sent_as_sudoku_shows_the_warning(page, tmp_path):
    from gridsight.synth.killer_render import render_killer

    puzzle, _ = make_killer(random.Random(41))
    choose_picture(page, tmp_path, render_killer(puzzle, style="app", seed=41, cell_px=48),
                   kind="sudoku")
    page.wait_for_selector(FINISHED)
    warning = page.locator("#warnings li")
    warning.first.wait_for()
    assert "looks like a killer sudoku" in warning.first.inner_text()


def test_half_solved_page_shows_the_persons_digits_and_where_they_went_wrong(page):
    """A page the person wrote on: their digits are marked apart from the printed ones,
    and each digit that contradicts the solution is named ("where did I go wrong?")."""
    from services.contracts import WrongEntry

    givens, solution = make_sudoku(random.Random(34))
    picture = render_sudoku(givens, font=FONT, seed=8)
    open_cells = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]]
    (right_r, right_c), (wrong_r, wrong_c) = open_cells[:2]
    written = solution[wrong_r][wrong_c] % 9 + 1
    entries = [[0] * 9 for _ in range(9)]
    entries[right_r][right_c] = solution[right_r][right_c]
    entries[wrong_r][wrong_c] = written
    reading = Reading(kind="sudoku", cells=certain_cells(givens), image_size=picture.size,
                      cell_quads=quads_from_lattice(picture.info["lattice"]))
    result = SolveResult(kind="sudoku", size=9, status="solved", verdict="unique",
                         puzzle=SudokuPuzzle(givens=givens), solution=solution,
                         entries=entries, notes=[],
                         wrong_entries=[WrongEntry(row=wrong_r, col=wrong_c, written=written,
                                                   correct=solution[wrong_r][wrong_c])])
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("sudoku", image=png(picture))
    store.update(job.id, status="solved", reading=reading, result=result)

    page.goto(f"/#job={job.id}")
    page.wait_for_selector("#solution-grid")
    cells = page.locator("#solution-grid td")
    assert "entry" in cells.nth(right_r * 9 + right_c).get_attribute("class").split()
    mistake = cells.nth(wrong_r * 9 + wrong_c)
    assert "wrong-entry" in mistake.get_attribute("class").split()
    assert mistake.get_attribute("title") == \
        f"you wrote {written}; the answer is {solution[wrong_r][wrong_c]}"
    listed = page.locator("#wrong-entries li").all_inner_texts()
    assert listed == [f"Row {wrong_r + 1}, column {wrong_c + 1}: you wrote {written}, "
                      f"the answer is {solution[wrong_r][wrong_c]}."]
    assert "your own digits in purple" in page.locator("#solution-grid caption").inner_text()
