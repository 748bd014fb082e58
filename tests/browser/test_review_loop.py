"""The review loop and the page as a new user meets them, at desktop and phone sizes, in
a real Chromium against the real stack: what the person typed is what a clash points
at, counts match what is shown, a failed job looks failed, colours can be read."""

from __future__ import annotations

import os
import random
import re

import pytest

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Reading, SolveResult, Suspect
from services.jobs import JobStore
from tests.browser.conftest import SIZES
from tests.browser.forms import solve_nonogram, solve_typed
from tests.browser.test_page import FINISHED, cell_input
from tests.browser.test_page_usability import contrast, reading_job
from tests.conftest import wait_for_job
from tests.test_overlay import FONT, certain_cells, png, quads_from_lattice


def clashing_correction(client_url: str, seed: int):
    """A solved picture job, then a typed digit that clashes with a printed one in its
    row, sent over HTTP: (job id, typed cell, the printed cell)."""
    import httpx

    givens, _ = make_sudoku(random.Random(seed))
    picture = render_sudoku(givens, font=FONT, seed=seed)
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("sudoku", image=png(picture))
    store.update(job.id, status="solved", reading=Reading(
        kind="sudoku", cells=certain_cells(givens), image_size=picture.size,
        cell_quads=quads_from_lattice(picture.info["lattice"])))
    row = next(r for r in range(9) if 0 in givens[r] and any(givens[r]))
    blank, shown = givens[row].index(0), next(c for c in range(9) if givens[row][c])
    with httpx.Client(base_url=client_url, timeout=30) as http:
        response = http.post(f"/v1/jobs/{job.id}/corrections", json={
            "cells": [{"row": row, "col": blank, "value": givens[row][shown]}]})
        assert response.status_code == 202, response.text
        wait_for_job(http, job.id)
    return job.id, (row, blank), (row, shown)


# --- 6: a clash the person's correction makes points at what they typed ------------------


def test_a_clash_of_the_persons_own_correction_points_at_what_they_typed(sized, service):
    job_id, (row, col), (_, shown) = clashing_correction(service, 64)
    sized.goto(f"/#job={job_id}")
    sized.wait_for_selector(FINISHED + " #review:not([hidden])")
    typed = cell_input(sized, row, col)
    assert "suspect" in typed.locator("..").get_attribute("class")
    assert "you typed" in typed.get_attribute("aria-label")
    assert typed.get_attribute("tabindex") == "0"  # Tab enters the grid there
    first = sized.locator("#suspects li button").first
    assert first.inner_text().startswith(f"Row {row + 1}, column {col + 1}: you typed")
    first.click()
    assert typed.evaluate("n => n === document.activeElement")
    # The printed digit it clashes with is marked too.
    assert "suspect" in cell_input(sized, row, shown).locator("..").get_attribute("class")


# --- 3: counts match what is shown -------------------------------------------------------


def test_a_nonogram_with_two_solutions_shows_both(sized):
    solve_nonogram(sized, [[1], [1]], [[1], [1]])
    assert "two of them are shown" in sized.locator("#verdict").inner_text()
    pictures = sized.locator("#solution [role=img]")
    assert pictures.count() == 2
    assert sized.evaluate("() => new Set([...document.querySelectorAll('[id]')]"
                          ".map((n) => n.id)).size === document.querySelectorAll('[id]').length")


# --- 5: a typed-in puzzle has nothing read -----------------------------------------------


def test_a_typed_puzzle_in_review_does_not_speak_of_a_reading(sized):
    solve_nonogram(sized, [[1], [1]], [[1], [1]])
    status = sized.locator("#status").inner_text()
    assert status == "Done, but the puzzle needs your check."
    assert "reading" not in status


# --- 8: a failed job looks failed --------------------------------------------------------


def test_a_failed_job_looks_failed_and_offers_another_picture(sized):
    givens, _ = make_sudoku(random.Random(86))
    job_id = reading_job(givens, status="failed")
    sized.goto(f"/#job={job_id}")
    sized.wait_for_selector(FINISHED + " #error:not([hidden])")
    assert sized.locator("#steps li.done").count() == 0
    assert sized.locator("#steps li[data-step=done]").inner_text() == "Failed"
    assert sized.locator("#result").is_hidden()  # no empty "Solution" heading
    assert "picture" not in sized.locator("#delete-job").inner_text()
    again = sized.get_by_role("button", name="Try another picture")
    box = again.bounding_box()
    assert box and box["y"] + box["height"] <= SIZES["phone"]["height"] + sized.evaluate(
        "window.scrollY")  # in view with the error, no scrolling up needed
    again.click()
    assert sized.locator("#job").is_hidden()
    assert sized.evaluate("document.activeElement.id") == "file"


# --- 7: corrections counted as the person made them ---------------------------------------


def test_back_at_the_original_reading_no_correction_is_counted(sized, service):
    job_id, _, _ = clashing_correction(service, 65)
    sized.goto(f"/#job={job_id}")
    sized.wait_for_selector(FINISHED + " #review:not([hidden])")
    assert "(correction 1)" in sized.locator("#status").inner_text()
    sized.get_by_role("button", name="Back to the original reading").click()
    sized.wait_for_function("() => document.querySelector('#job').getAttribute('aria-busy')"
                            " === 'false' && !document.querySelector('#status').textContent"
                            ".includes('correction')")
    assert sized.locator("#status").inner_text() == "Solved."


# --- 9: large pictures are shrunk by their pixel count -----------------------------------


def test_a_picture_of_many_pixels_but_few_bytes_is_shrunk_before_upload(sized):
    sized.goto("/")
    shrunk = sized.evaluate("""async () => {
      const { shrinkPicture } = await import("/static/shrink.js");
      const canvas = document.createElement("canvas");
      canvas.width = 9000; canvas.height = 6750;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, 9000, 6750);
      const blob = await new Promise((r) => canvas.toBlob(r, "image/jpeg", 0.9));
      const file = new File([blob], "big.jpg", { type: "image/jpeg" });
      const out = await shrinkPicture(file);
      const bitmap = await createImageBitmap(out);
      return { bytes: file.size, width: bitmap.width, height: bitmap.height };
    }""")
    assert shrunk["bytes"] < 3 * 1024 * 1024
    assert (shrunk["width"], shrunk["height"]) == (2400, 1800)


# --- 4 and 14: colours that can be read --------------------------------------------------

# Every element's own text against what lies behind it (backgrounds composed up the
# tree), and every control's outline or border against the background around it.
MEASURE = """() => {
  const rgba = (text) => { const v = text.match(/[\\d.]+/g).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const lum = (c) => { const l = c.map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const behind = (node) => { const chain = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) chain.push(n);
    let colour = rgba(getComputedStyle(document.documentElement).backgroundColor);
    if (colour[3] === 0) colour = [255, 255, 255, 1];
    colour = colour.slice(0, 3);
    for (const n of chain.reverse()) {
      const style = getComputedStyle(n);
      colour = over(rgba(style.backgroundColor), colour);
    }
    return colour; };
  const shown = (n) => { const box = n.getBoundingClientRect();
    const style = getComputedStyle(n);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden"
      && !n.closest("[hidden], [aria-hidden=true], .skip"); };
  const low = [];
  for (const n of document.querySelectorAll("body *")) {
    if (!shown(n)) continue;
    const style = getComputedStyle(n);
    const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())
      || (n.matches("input, textarea, select") && n.value);
    const back = behind(n);
    if (own && style.color !== "rgba(0, 0, 0, 0)" && !n.matches("#solution.veiled td")) {
      const text = over(rgba(style.color), back);
      const r = ratio(text, back);
      if (r < 4.5) low.push(`text ${n.tagName}#${n.id}.${n.className}: ${r.toFixed(2)}`);
    }
    if (n.matches(".grid.reading .cell:not(.unsure), table.grid td")) {
      // The lines between a grid's cells, against the cell's own ground (a shaded cell's
      // lines border unshaded ground too).
      const line = over(rgba(style.borderBottomColor), back);
      const r = ratio(line, back);
      if (r < 3) low.push(`cell line ${n.tagName}.${n.className}: ${r.toFixed(2)}`);
    }
    const edge = n.matches(".cell.suspect, .cell.uncertain, input.cage-sum.suspect, "
      + "input.cage-sum.uncertain") ? "outline"
      : n.matches("button, select, textarea, input[type=checkbox], input[type=radio], "
        + ".button.secondary") ? "border" : null;
    if (!edge) continue;
    const width = parseFloat(style[`${edge}Width`] || style[`${edge}TopWidth`]);
    const colour = style[`${edge}Color`] || style[`${edge}TopColor`];
    const none = style[`${edge}Style`] === "none"
      || (edge === "border" && style.borderTopStyle === "none");
    if (!width || none) {
      // A filled control shows by its fill: the fill against what is around it.
      const fill = rgba(style.backgroundColor);
      if (fill[3] > 0 && n.matches("button")) {
        const r = ratio(over(fill, behind(n.parentElement)), behind(n.parentElement));
        if (r < 3) low.push(`fill ${n.tagName}#${n.id}: ${r.toFixed(2)}`);
      }
      continue;
    }
    const inside = back;
    const around = behind(n.parentElement);
    const line = over(rgba(colour), edge === "outline" ? inside : around);
    const r = Math.min(ratio(line, inside), ratio(line, around));
    if (r < 3) low.push(`${edge} ${n.tagName}#${n.id}.${n.className}: ${r.toFixed(2)}`);
  }
  return low;
}"""


def a_job_to_look_at(seed: int) -> str:
    """A job in review: a shaded reading outlined amber, one outlined red, a solution."""
    givens, solution = make_sudoku(random.Random(seed))
    (r, c), (sr, sc) = [(r, c) for r in range(9) for c in range(9) if givens[r][c]][:2]
    job_id = reading_job(givens, status="needs_review", unsure=(r, c, givens[r][c]))

    def doubt(row, col, read, chosen):
        return Suspect(what="cell", row=row, col=col, read=read, chosen=chosen,
                       read_prob=0.6, chosen_prob=0.6)

    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    store.update(job_id, result=SolveResult(
        kind="sudoku", size=9, status="needs_review", verdict="unique", solution=solution,
        puzzle={"kind": "sudoku", "size": 9, "givens": givens},
        uncertain=[doubt(r, c, givens[r][c], givens[r][c])],
        suspects=[doubt(sr, sc, givens[sr][sc] % 9 + 1, givens[sr][sc])],
        conflicts=["a clash, in words"], message="solved; check the marked readings"))
    return job_id


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_and_control_outlines_can_be_read_in_both_themes(browser, service, scheme):
    job_id = a_job_to_look_at(87)
    for size in SIZES.values():
        context = browser.new_context(base_url=service, viewport=size, color_scheme=scheme)
        page = context.new_page()
        try:
            page.goto("/")
            low = page.evaluate(MEASURE)
            page.goto(f"/#job={job_id}")
            page.wait_for_selector(FINISHED + " #review:not([hidden])")
            page.wait_for_selector(".grid .cell.unsure")
            low += page.evaluate(MEASURE)
            page.evaluate("document.querySelector('#solve-again').disabled = true")
            low += page.evaluate(MEASURE)
            assert not low, f"{scheme} at {size['width']} px: {low}"
        finally:
            context.close()


def test_dark_modes_filled_buttons_are_dark_on_light_blue(browser, service):
    context = browser.new_context(base_url=service, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto("/")
        button = page.get_by_role("button", name="Solve sudoku")
        colours = button.evaluate("n => [getComputedStyle(n).color, "
                                  "getComputedStyle(n).backgroundColor]")
        assert contrast(*colours) >= 4.5, colours
        assert sum(map(int, re.findall(r"\d+", colours[0])[:3])) < 150  # dark text
    finally:
        context.close()


# --- 2: on a phone, a tap on a cage's first cell never types into its sum ----------------


def test_on_a_phone_a_tap_types_into_the_cell_and_the_sum_has_its_own_button(browser,
                                                                            service):
    from tests.browser.test_review import killer_job_with_suspect_sum, sum_input

    job_id, cage, (row, col), _ = killer_job_with_suspect_sum()
    context = browser.new_context(base_url=service, viewport=SIZES["phone"], has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"/#job={job_id}")
        page.wait_for_selector(FINISHED + " #review:not([hidden])")
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        total = sum_input(page, row, col)
        before = total.input_value()
        total.scroll_into_view_if_needed()
        box = total.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.keyboard.type("7")
        assert total.input_value() == before  # the sum is untouched
        assert cell_input(page, row, col).input_value() == "7"
        page.get_by_role("button", name=f"Change the cage sum at row {row + 1}, column "
                                        f"{col + 1}").click()
        assert total.evaluate("n => n === document.activeElement")
        page.keyboard.type(str(cage.sum))
        assert total.input_value() == str(cage.sum)
    finally:
        context.close()


# --- 15: the kind menu names every kind; the picture downloads in three formats ----------


def test_the_kind_menu_has_nonogram_and_the_picture_downloads_as_jpeg_and_webp(sized,
                                                                               tmp_path):
    from tests.browser.test_page import choose_picture

    sized.goto("/")
    kinds = sized.locator("#kind option").evaluate_all("nodes => nodes.map((n) => n.value)")
    assert "nonogram" in kinds
    givens, _ = make_sudoku(random.Random(93))
    choose_picture(sized, tmp_path, render_sudoku(givens, font=FONT, seed=14))
    sized.wait_for_selector(FINISHED + " #solution-grid")
    for name, suffix, magic in (("Download as JPEG", ".jpg", b"\xff\xd8"),
                                ("Download as WebP", ".webp", b"RIFF")):
        link = sized.get_by_role("link", name=name)
        assert link.get_attribute("download").endswith(suffix)
        with sized.expect_download() as download:
            link.click()
        saved = tmp_path / f"saved{suffix}"
        download.value.save_as(saved)
        assert saved.read_bytes()[:len(magic)] == magic


# --- 13: the solved picture's place is kept before it arrives ----------------------------


def test_the_pictures_place_is_reserved_before_it_arrives(sized):
    givens, _ = make_sudoku(random.Random(94))
    job_id = reading_job(givens, status="needs_review")
    held = []
    sized.route(re.compile(r".*/v1/jobs/[^/]+/(image|overlay\.\w+)(\?.*)?$"),
                lambda route: held.append(route))
    sized.goto(f"/#job={job_id}")
    sized.wait_for_selector(FINISHED + " #review:not([hidden])")
    sized.wait_for_function("() => document.querySelector('#overlay').src")
    reserved = sized.locator("#overlay").evaluate(
        "n => [n.getBoundingClientRect().width, n.getBoundingClientRect().height]")
    for route in held:
        route.continue_()
    sized.wait_for_function("() => document.querySelector('#overlay').complete")
    loaded = sized.locator("#overlay").evaluate(
        "n => [n.getBoundingClientRect().width, n.getBoundingClientRect().height]")
    assert reserved[1] > 100 and abs(reserved[1] - loaded[1]) <= 1, (reserved, loaded)


# --- 11: a hidden solution is one tab stop, and copying it says what was copied ----------


def test_a_hidden_solution_is_one_tab_stop_and_copying_it_says_so(browser, service):
    for size in SIZES.values():
        context = browser.new_context(base_url=service, viewport=size)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=service)
        page = context.new_page()
        try:
            givens, _ = make_sudoku(random.Random(97))
            solve_typed(page, givens)
            page.get_by_label(re.compile("Hide the solution")).check()
            stops = page.locator("#solution-grid [tabindex='0']")
            assert stops.count() == 1
            stops.first.focus()
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.classList.contains('found')")
            assert focused and stops.count() == 1
            page.get_by_role("button", name="Copy the solution as text").click()
            page.wait_for_function("() => document.querySelector('#status').textContent"
                                   ".includes('copied')")
            assert "hidden digits too" in page.locator("#status").inner_text()
        finally:
            context.close()


# --- 10: the controls and help that fit the puzzle at hand -------------------------------


def print_only_job(seed: int) -> str:
    """A classic picture read as printed only: cell kinds blank or printed, no entries."""
    givens, _ = make_sudoku(random.Random(seed))
    picture = render_sudoku(givens, font=FONT, seed=seed)
    one_hot = lambda index, size: [1.0 if k == index else 0.0 for k in range(size)]  # noqa: E731
    reading = Reading(kind="sudoku", cells=certain_cells(givens), image_size=picture.size,
                      cell_quads=quads_from_lattice(picture.info["lattice"]),
                      cell_kinds=[[one_hot(1 if v else 0, 4) for v in row] for row in givens],
                      entries=[[one_hot(0, 10) for _ in row] for row in givens])
    store = JobStore.from_url(os.environ["REDIS_URL"], 600)
    job = store.create("sudoku", image=png(picture))
    store.update(job.id, status="needs_review", reading=reading)
    return job.id


def shown_help(page) -> list[str]:
    return page.locator("#review-help [data-for]").evaluate_all(
        "parts => parts.filter((p) => !p.hidden).map((p) => p.dataset.for)")


def test_a_printed_page_shows_the_help_and_controls_of_its_kind_only(sized):
    from tests.browser.test_review import killer_job_with_suspect_sum

    sized.goto(f"/#job={print_only_job(98)}")
    sized.wait_for_selector(FINISHED + " #review:not([hidden])")
    assert sized.locator("fieldset.cell-kind").is_hidden()
    assert shown_help(sized) == ["sudoku killer", "sudoku"]
    sized.get_by_role("button", name="Some digits on this page are my own").click()
    assert sized.locator("fieldset.cell-kind").is_visible()
    job_id = killer_job_with_suspect_sum()[0]
    sized.goto(f"/#job={job_id}")
    sized.wait_for_selector(FINISHED + " #review:not([hidden]) .cage-sum")
    assert shown_help(sized) == ["sudoku killer", "killer"]


# --- 15: the browser's Back goes to the job before --------------------------------------


def test_back_shows_the_job_before_and_then_the_empty_page(sized):
    first, _ = make_sudoku(random.Random(101))
    second, _ = make_sudoku(random.Random(102))
    solve_typed(sized, first)
    first_address = sized.evaluate("location.hash")
    sized.get_by_label(re.compile("^Sudoku")).fill("".join(str(v) for row in second
                                                           for v in row))
    sized.get_by_role("button", name="Solve sudoku").click()
    sized.wait_for_function(f"() => location.hash && location.hash !== '{first_address}'")
    sized.wait_for_selector(FINISHED + " #solution-grid")
    sized.go_back()
    sized.wait_for_function(f"() => location.hash === '{first_address}'")
    shown = ("() => [...document.querySelectorAll('#solution-grid td')].map("
             "(c) => c.classList.contains('given') ? Number(c.textContent) : 0).join()")
    expected = ",".join(str(v) for row in first for v in row)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # The second job's grid stays on screen until the first one's is drawn in its place.
    try:
        sized.wait_for_function(f"() => ({shown})() === '{expected}'", timeout=10_000)
    except PlaywrightTimeout:
        pass  # the assertion below says what is shown instead
    givens = sized.locator("#solution-grid td").evaluate_all(
        "cells => cells.map((c) => c.classList.contains('given') ? Number(c.textContent) : 0)")
    assert givens == [v for row in first for v in row]
    sized.go_back()
    sized.wait_for_function("() => document.querySelector('#job').hidden")


# --- 14: a suspect cage sum's close-up is large enough to read ---------------------------


def test_a_suspect_sums_close_up_shows_its_corner_large(sized):
    from tests.browser.test_review import killer_job_with_suspect_sum

    sized.goto(f"/#job={killer_job_with_suspect_sum()[0]}")
    close_up = sized.get_by_role("img", name="Close-up of this cage sum in your picture")
    close_up.wait_for()
    box = close_up.bounding_box()
    assert box["width"] >= 96 and box["height"] >= 96
