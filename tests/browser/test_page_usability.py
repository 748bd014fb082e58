"""The page as a new user meets it, in a real browser."""

from __future__ import annotations

import base64
import os
import random
import re

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Reading
from services.jobs import JobStore
from tests.browser.forms import choose_file
from tests.browser.test_page import FINISHED, cell_input, choose_picture, solved_digits
from tests.browser.test_review import killer_job_with_suspect_sum
from tests.test_overlay import FONT, certain_cells, png, quads_from_lattice

IN_VIEW = """(node) => { const box = node.getBoundingClientRect();
  return box.top >= -1 && box.top < window.innerHeight; }"""
FOCUSED = "(node) => node === document.activeElement || node.contains(document.activeElement)"


def contrast(rgb_a: str, rgb_b: str) -> float:
    def luminance(text: str) -> float:
        channels = [int(v) / 255 for v in re.findall(r"\d+", text)[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    a, b = sorted((luminance(rgb_a), luminance(rgb_b)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def reading_job(givens, status="solved", unsure=None):
    """A finished picture job with a reading, written into the service's store."""
    picture = render_sudoku(givens, font=FONT, seed=12)
    cells = certain_cells(givens)
    if unsure:
        r, c, v = unsure
        cells[r][c] = [0.4 if x == 0 else 0.6 if x == v else 0.0 for x in range(10)]
    reading = Reading(kind="sudoku", cells=cells, image_size=picture.size,
                      cell_quads=quads_from_lattice(picture.info["lattice"]))
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("sudoku", image=png(picture))
    store.update(job.id, status=status, reading=reading)
    return job.id


# --- 5: results and errors in view and focus ---------------------------------------


def test_the_result_is_brought_into_view_and_focus(page, tmp_path):
    givens, _ = make_sudoku(random.Random(81))
    choose_picture(page, tmp_path, render_sudoku(givens, font=FONT, seed=11))
    page.wait_for_selector(FINISHED + " #solution-grid")
    page.wait_for_function("() => document.activeElement.id === 'job'")
    assert page.locator("#job").evaluate(IN_VIEW)


def test_a_shared_link_shows_its_job_in_view(page, tmp_path):
    givens, _ = make_sudoku(random.Random(82))
    job_id = reading_job(givens, status="failed")
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    page.wait_for_function(f"() => {{ const n = document.querySelector('#error'); "
                           f"return ({FOCUSED})(n) || document.activeElement.id === 'job'; }}")


def test_a_failed_jobs_page_says_its_picture_was_deleted(page):
    # The store deletes a failed job's upload: no broken picture.
    givens, _ = make_sudoku(random.Random(84))
    job_id = reading_job(givens, status="failed")
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #picture-deleted:not([hidden])")
    assert page.locator("#picture").is_hidden()
    assert page.locator("#review").is_visible()  # the reading is still shown
    assert page.request.get(f"/v1/jobs/{job_id}/image").status == 404


def test_an_ended_job_is_deleted_from_the_page(page):
    givens, _ = make_sudoku(random.Random(85))
    job_id = reading_job(givens, status="needs_review")
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    page.get_by_role("button", name="Delete this job and its picture from the server").click()
    page.wait_for_function("() => document.querySelector('#status').textContent"
                           ".startsWith('Deleted')")
    assert page.locator("#review").is_hidden() and page.locator("#result").is_hidden()
    assert "#job=" not in page.url
    assert page.request.get(f"/v1/jobs/{job_id}").status == 404


def test_a_refused_upload_ends_the_status_and_shows_its_error_in_view(page):
    alert = choose_file(page, "puzzle.png", "image/png", b"not a picture at all")
    page.wait_for_selector(FINISHED)
    assert page.locator("#status").inner_text() == "It did not work."
    assert alert.evaluate(IN_VIEW) and alert.evaluate(FOCUSED)


def test_a_text_file_is_refused_where_the_person_looks(page):
    alert = choose_file(page, "notes.txt", "text/plain", b"53..7....")
    assert "notes.txt is not a picture" in alert.inner_text()
    assert alert.evaluate(IN_VIEW) and alert.evaluate(FOCUSED)


# --- 6: messages in words that fit the job -------------------------------------------


def test_two_solutions_are_both_shown_and_typed_puzzles_are_not_told_to_check_a_reading(
        page):
    givens, _ = make_sudoku(random.Random(83))
    sparse = [[v if (r * 9 + c) % 4 == 0 else 0 for c, v in enumerate(row)]
              for r, row in enumerate(givens)]
    page.goto("/")
    page.get_by_label(re.compile("^Sudoku")).fill(
        "".join(str(v) for row in sparse for v in row))
    page.get_by_role("button", name="Solve sudoku").click()
    page.wait_for_selector(FINISHED + " #solution-grid")
    verdict = page.locator("#verdict").inner_text()
    assert "two of them are shown" in verdict
    assert page.locator("#solution table.grid").count() == 2
    assert page.locator("#solution td.differs").count() >= 2
    assert "reading" not in verdict.lower()


def test_review_messages_are_in_words_not_verdict_strings(page):
    givens, _ = make_sudoku(random.Random(84))
    job_id = reading_job(givens)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    row = next(r for r in range(9) if givens[r].count(0) >= 2)
    first, second = [c for c in range(9) if not givens[row][c]][:2]
    digit = next(d for d in range(1, 10) if d not in givens[row])
    cell_input(page, row, first).fill(str(digit))
    cell_input(page, row, second).fill(str(digit))
    page.get_by_role("button", name="Solve again").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    text = alert.inner_text()
    assert f"{digit} is typed twice in row {row + 1}" in text
    assert "(0," not in text and "[(" not in text
    assert page.locator("#status").inner_text() == "It did not work."
    assert not page.get_by_role("button", name="Solve again").is_disabled()


# --- 9: keyboard, touch and contrast ---------------------------------------------------


def test_the_reading_is_one_tab_stop_and_enter_solves_again(page):
    givens, _ = make_sudoku(random.Random(85))
    blank = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    job_id = reading_job(givens, status="needs_review", unsure=(*blank, 7))
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    stops = page.locator(".grid.reading .cell input:not(.cage-sum)").evaluate_all(
        "nodes => nodes.filter((n) => n.tabIndex >= 0).length")
    assert stops == 1
    first = cell_input(page, 0, 0)
    first.focus()
    page.keyboard.press("Tab")
    assert not page.evaluate("() => document.activeElement.matches('.grid.reading input')")
    # Details of a reading show on focus, for touch screens too.
    cell_input(page, *blank).focus()
    assert "60% sure" in page.locator("#cell-info").inner_text()
    cell_input(page, *blank).fill("")
    with page.expect_request(lambda r: r.url.endswith("/corrections")):
        page.keyboard.press("Enter")


def test_outlines_and_borders_can_be_seen_and_targets_are_big_enough(page):
    givens, _ = make_sudoku(random.Random(86))
    job_id = reading_job(givens)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    colours = page.evaluate("""() => {
      const probe = document.createElement('div');
      probe.className = 'cell uncertain';
      document.querySelector('.grid.reading').append(probe);
      const outline = getComputedStyle(probe).outlineColor;
      probe.remove();
      return [outline, getComputedStyle(document.querySelector('#kind')).borderTopColor,
              getComputedStyle(document.querySelector('.card')).backgroundColor];
    }""")
    assert contrast(colours[0], colours[2]) >= 3
    assert contrast(colours[1], colours[2]) >= 3
    skip = page.locator(".skip")
    assert skip.get_attribute("href") == "#job" and page.locator("#job").is_visible()


def test_cage_sum_inputs_are_touch_sized(page):
    job_id, *_ = killer_job_with_suspect_sum(87)
    page.goto(f"/#job={job_id}")
    page.wait_for_selector(FINISHED + " #review:not([hidden])")
    sizes = page.locator("input.cage-sum").evaluate_all(
        "nodes => nodes.map((n) => [n.offsetWidth, n.offsetHeight])")
    assert sizes and all(w >= 24 and h >= 24 for w, h in sizes)


def test_the_skip_link_is_hidden_until_there_is_a_result(page):
    page.goto("/")
    assert page.locator("#job").is_hidden()
    assert page.locator(".skip").get_attribute("hidden") is not None


# --- 10: the first visit -----------------------------------------------------------------


def test_the_first_visit_says_what_the_page_takes(page):
    page.goto("/")
    assert "nonogram" in page.locator("header").inner_text().lower()
    label = page.locator("label[for='sudoku-text']").inner_text()
    assert "25×25" in label
    visible_pickers = page.locator("input[type='file']").evaluate_all(
        "nodes => nodes.filter((n) => n.offsetParent !== null).length")
    assert visible_pickers == 1


def test_a_phone_is_not_told_to_drop_files(browser, service):
    context = browser.new_context(base_url=service, viewport={"width": 360, "height": 740},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto("/")
        hint = page.locator("#drop-hint").inner_text().lower()
        assert "drop" not in hint and "photo" in hint
        assert page.get_by_label("A photo with the camera").is_visible()
        size = page.locator("#sudoku-text").evaluate("n => getComputedStyle(n).fontSize")
        assert float(size.rstrip("px")) >= 16
    finally:
        context.close()


DROP_BESIDE = """async (encoded) => {
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
  const beside = document.querySelector("header");
  return ["dragover", "drop"].map((type) => beside.dispatchEvent(
    new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true })));
}"""


def test_a_picture_dropped_beside_the_zone_is_taken_not_opened(page):
    """A drop the page does not cancel makes the browser open the file instead of the
    page; dispatchEvent answers false once the page has cancelled it."""
    givens, solution = make_sudoku(random.Random(88))
    page.goto("/")
    encoded = base64.b64encode(png(render_sudoku(givens, font=FONT))).decode()
    assert page.evaluate(DROP_BESIDE, encoded) == [False, False]
    page.wait_for_selector(FINISHED + " #solution-grid")
    assert solved_digits(page) == solution


def test_sizes_in_errors_are_in_megabytes(page):
    """A file too big for the server that the browser cannot shrink (it does not decode):
    the refusal names the limit in MB, not in bytes."""
    page.goto("/")
    page.get_by_label("A picture from this device").set_input_files(
        {"name": "huge.png", "mimeType": "image/png", "buffer": b"\0" * (11 * 1024 * 1024)})
    alert = page.get_by_role("alert")
    alert.wait_for()
    text = alert.inner_text()
    assert re.search(r"\b10(\.\d)? MB\b", text), text
    assert "bytes" not in text
