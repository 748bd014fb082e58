"""On a page a person wrote on, the drawn picture gives the answer beside their digit:
a wrong digit is crossed out with the right one written in, a doubtful one gets it too."""

from __future__ import annotations

import io
import random

import numpy as np
from PIL import Image

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Reading, SolveResult, Suspect, WrongEntry
from services.gateway.overlay import SOLUTION_RGB, draw_overlay
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
