"""On a page a person wrote on, the drawn picture gives the answer beside their digit:
a wrong digit is crossed out with the right one written in, a doubtful one gets it too,
and pencil notes read as a digit are a doubt, never a wrong digit."""

from __future__ import annotations

import io
import random

import numpy as np
from PIL import Image

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Reading, SolveResult, Suspect, WrongEntry
from services.gateway.overlay import SOLUTION_RGB, UNCERTAIN_RGB, WRONG_RGB, draw_overlay
from services.solver import solve_page
from tests.test_overlay import FONT, certain_cells, png, quads_from_lattice

TOP_RIGHT = (0.55, 0.04, 0.96, 0.45)  # of a cell: left, top, right, bottom


def blue_in_corner(drawn: bytes, lattice, row: int, col: int) -> int:
    """Pixels of the solution's blue in the cell's top right."""
    image = np.asarray(Image.open(io.BytesIO(drawn)).convert("RGB")).astype(int)
    lat = np.asarray(lattice, float)
    (x0, y0), (x1, y1) = lat[row, col], lat[row + 1, col + 1]
    left, top, right, bottom = TOP_RIGHT
    part = image[int(y0 + top * (y1 - y0)):int(y0 + bottom * (y1 - y0)),
                 int(x0 + left * (x1 - x0)):int(x0 + right * (x1 - x0))]
    return int((np.abs(part - SOLUTION_RGB).sum(axis=-1) < 60).sum())


def test_a_wrong_digit_is_crossed_out_and_a_doubtful_one_gets_the_answer_beside_it():
    givens, solution = make_sudoku(random.Random(71))
    wrong_at, doubt_at = [(r, c) for r in range(9) for c in range(9) if not givens[r][c]][:2]
    page = [row[:] for row in givens]
    entries = [[0] * 9 for _ in range(9)]
    for r, c in (wrong_at, doubt_at):
        page[r][c] = entries[r][c] = solution[r][c] % 9 + 1
    picture = render_sudoku(page, font=FONT, seed=71)
    lattice = picture.info["lattice"]
    reading = Reading(kind="sudoku", cells=certain_cells(givens), image_size=picture.size,
                      cell_quads=quads_from_lattice(lattice))
    (wr, wc), (dr, dc) = wrong_at, doubt_at
    result = SolveResult(
        kind="sudoku", size=9, status="needs_review", verdict="unique", solution=solution,
        puzzle={"kind": "sudoku", "size": 9, "givens": givens}, entries=entries,
        wrong_entries=[WrongEntry(row=wr, col=wc, written=entries[wr][wc],
                                  correct=solution[wr][wc])],
        uncertain=[Suspect(what="cell", row=dr, col=dc, read=entries[dr][dc],
                           chosen=solution[dr][dc], read_prob=0.6, chosen_prob=0.3)])
    drawn = draw_overlay(png(picture), reading, result)
    for r, c in (wrong_at, doubt_at):
        assert blue_in_corner(drawn, lattice, r, c) > 20
        assert blue_in_corner(png(picture), lattice, r, c) == 0


def colour_in_cell(drawn: bytes, lattice, row: int, col: int, colour) -> int:
    """Pixels of `colour` anywhere in the cell."""
    image = np.asarray(Image.open(io.BytesIO(drawn)).convert("RGB")).astype(int)
    lat = np.asarray(lattice, float)
    (x0, y0), (x1, y1) = lat[row, col], lat[row + 1, col + 1]
    part = image[int(y0):int(y1), int(x0):int(x1)]
    return int((np.abs(part - colour).sum(axis=-1) < 60).sum())


def test_amber_cells_the_picture_does_not_answer_get_the_answer_beside_them():
    """A doubtful reading of the person's own digit (the print view unsure it is blank)
    and a printed digit read unsure: their cells show what they hold, so the answer is
    written beside it, never left out."""
    givens, solution = make_sudoku(random.Random(72))
    entry_at = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    given_at = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    page = [row[:] for row in givens]
    entries = [[0] * 9 for _ in range(9)]
    (er, ec), (gr, gc) = entry_at, given_at
    page[er][ec] = entries[er][ec] = solution[er][ec]
    picture = render_sudoku(page, font=FONT, seed=72)
    lattice = picture.info["lattice"]
    reading = Reading(kind="sudoku", cells=certain_cells(givens), image_size=picture.size,
                      cell_quads=quads_from_lattice(lattice))
    result = SolveResult(
        kind="sudoku", size=9, status="needs_review", verdict="unique", solution=solution,
        puzzle={"kind": "sudoku", "size": 9, "givens": givens}, entries=entries,
        uncertain=[Suspect(what="cell", row=er, col=ec, read=0, chosen=0, read_prob=0.7,
                           chosen_prob=0.7),
                   Suspect(what="cell", row=gr, col=gc, read=givens[gr][gc],
                           chosen=givens[gr][gc], read_prob=0.7, chosen_prob=0.7)])
    drawn = draw_overlay(png(picture), reading, result)
    for r, c in (entry_at, given_at):
        assert blue_in_corner(drawn, lattice, r, c) > 20, (r, c)
        assert colour_in_cell(drawn, lattice, r, c, UNCERTAIN_RGB) > 20, (r, c)


def notes_read_as_a_digit(digit_of) -> tuple:
    """A synthetic half-solved page whose first pencil-notes cell is read as the person's
    digit `digit_of(answer)`, its kind reading leaving notes at 0.17 (as real photos' notes
    read as one digit do, at 0.13 and 0.17): (page, reading, the cell, the digit read)."""
    page = half_solved_page(73, notes_share=0.2, entry_share=0.3, cell_px=64)
    r, c = page.notes[0]
    read = digit_of(page.solution[r][c])
    kind = {"blank": [0.97, 0.01, 0.01, 0.01], "printed": [0.01, 0.97, 0.01, 0.01],
            "entry": [0.01, 0.01, 0.97, 0.01], "notes": [0.01, 0.01, 0.01, 0.97]}
    kinds = [[kind["printed" if page.givens[i][j] else "entry" if page.entries[i][j] else
                   "notes" if (i, j) in page.notes else "blank"] for j in range(9)]
             for i in range(9)]
    kinds[r][c] = [0.0, 0.0, 0.83, 0.17]
    read_entries = [row[:] for row in page.entries]
    read_entries[r][c] = read
    reading = Reading(kind="sudoku", cells=certain_cells(page.givens), cell_kinds=kinds,
                      entries=certain_cells(read_entries), image_size=page.image.size,
                      cell_quads=quads_from_lattice(page.image.info["lattice"]))
    return page, reading, (r, c), read


def test_pencil_notes_read_as_a_digit_are_no_wrong_digit_and_get_the_answer_beside():
    """Notes read as a wrong digit are no mistake to cross out: they are a doubt, in
    amber, with the answer beside what the cell holds."""
    page, reading, (r, c), misread = notes_read_as_a_digit(lambda answer: answer % 9 + 1)
    result = solve_page(reading)
    assert result.solution == page.solution
    assert result.wrong_entries == [] and result.status == "needs_review"
    assert [(s.row, s.col, s.read, s.chosen) for s in result.uncertain] == [
        (r, c, misread, page.solution[r][c])]
    lattice = page.image.info["lattice"]
    drawn = draw_overlay(png(page.image), reading, result)
    assert colour_in_cell(drawn, lattice, r, c, WRONG_RGB) == 0  # not crossed out
    assert colour_in_cell(drawn, lattice, r, c, UNCERTAIN_RGB) > 20
    assert blue_in_corner(drawn, lattice, r, c) > 20


def test_pencil_notes_read_as_the_right_digit_are_a_doubt_with_the_answer_beside():
    """Notes read as the person's digit that happens to be the answer: the cell may hold
    no answer at all, so it is a doubt too, and the answer is written beside it."""
    page, reading, (r, c), right = notes_read_as_a_digit(lambda answer: answer)
    result = solve_page(reading)
    assert result.solution == page.solution and result.wrong_entries == []
    assert result.status == "needs_review" and "pencil notes" in result.message
    assert [(s.row, s.col, s.read, s.chosen) for s in result.uncertain] == [(r, c, right, right)]
    lattice = page.image.info["lattice"]
    drawn = draw_overlay(png(page.image), reading, result)
    assert colour_in_cell(drawn, lattice, r, c, UNCERTAIN_RGB) > 20
    assert blue_in_corner(drawn, lattice, r, c) > 20
