"""Killers in progress, the person's digits and pencil notes beside the
cage sums, read as entries and notes (never as givens or sums) and checked."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.killer_render import (
    ENTRY_COLOURS,
    Marks,
    head_cells,
    in_progress,
    render_killer,
)
from gridsight.synth.killer_styles import ALL_STYLES, TRAINED_STYLES, vary
from services.recognizer import recognize
from services.recognizer.killer.fills import fill_walls
from services.solver import solve_page
from services.solver.entries import page_marks

from .conftest import killer, sums_read, to_bytes, walls_read


def progress_picture(seed: int, style: str, wrong: int = 1, entry_share: float = 0.35,
                     notes_share: float = 0.15, cell_px: int = 56):
    puzzle, solution = killer(seed)
    rng = random.Random(seed)
    marks = in_progress(solution, rng, entry_share, notes_share, wrong=wrong)
    image = render_killer(puzzle, style=vary(ALL_STYLES[style], rng), seed=seed,
                          cell_px=cell_px, marks=marks)
    return to_bytes(image), solution, dict(image.info), marks


def test_marks_are_drawn_with_their_truth_and_heads_keep_their_sums():
    puzzle, solution = killer(31)
    rng = random.Random(1)
    marks = in_progress(solution, rng, 0.4, 0.2, wrong=2)
    n_entries = sum(v > 0 for row in marks.entries for v in row)
    assert n_entries == round(0.4 * 81)
    assert len(marks.notes) == round(0.2 * 81)
    wrong = [(r, c) for r in range(9) for c in range(9)
             if marks.entries[r][c] and marks.entries[r][c] != solution[r][c]]
    assert len(wrong) == 2
    assert all(solution[r][c] in digits for (r, c), digits in marks.notes.items())
    plain = np.asarray(render_killer(puzzle, style="app", seed=1, cell_px=50)).astype(int)
    image = render_killer(puzzle, style="app", seed=1, cell_px=50, marks=marks)
    assert image.info["entries"] == marks.entries
    drawn = np.abs(np.asarray(image).astype(int) - plain).sum(axis=-1) > 60
    sum_ink = plain.sum(axis=-1) < 300
    for r, c in head_cells(puzzle):  # marks keep clear of the sums: no sum pixel changes
        x, y = 25 + 50 * c, 25 + 50 * r
        corner = (slice(y + 3, y + 25), slice(x + 3, x + 30))
        near = cv2.dilate(sum_ink[corner].astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        assert not (drawn[corner] & near).any()
    # An entry's ink is the entry colour, not the sums' dark grey.
    (r, c) = next((r, c) for r in range(9) for c in range(9) if marks.entries[r][c])
    cell = np.asarray(image)[25 + 50 * r + 15:25 + 50 * r + 35, 25 + 50 * c + 15:25 + 50 * c + 35]
    darkest = cell.reshape(-1, 3)[cell.reshape(-1, 3).sum(axis=1).argmin()]
    assert np.abs(darkest - np.array(ENTRY_COLOURS)).sum(axis=1).min() < 90


# edge_colour: cages drawn only as coloured grid lines, which the grey wall model cannot
# see; the kind must still come from them, not from the person's many large digits.
@pytest.mark.parametrize(("seed", "style"), [(32, "app"), (33, "web"), (34, "print"),
                                             (35, "plain"), (39, "edge_colour")])
def test_a_killer_in_progress_reads_entries_and_notes_not_givens(seed, style):
    data, solution, info, marks = progress_picture(seed, style)
    reading = recognize(data, "auto")
    # Many large digits (the person's): still a killer, told by its cages and sums.
    assert reading.kind == "killer"
    assert (np.asarray(reading.cells).argmax(axis=-1) == 0).all()  # no givens
    entries, notes = page_marks(reading)
    # Every entry read is the person's digit; at most one is missed (read as blank).
    wrong = [(r, c) for r in range(9) for c in range(9)
             if entries[r][c] and entries[r][c] != marks.entries[r][c]]
    missed = [(r, c) for r in range(9) for c in range(9)
              if marks.entries[r][c] and not entries[r][c]]
    assert wrong == [] and len(missed) <= 1
    # No cell taken for notes that holds none. Notes squeezed under a large cage sum (about
    # 5 px at these cells) may be missed: never more than one cell in five.
    notes = set(map(tuple, notes))
    assert notes <= set(marks.notes)
    missed = set(marks.notes) - notes
    assert len(missed) <= 0.2 * len(marks.notes)
    assert missed <= set(info["sums"])
    assert solve_page(reading).solution == solution
    if style in TRAINED_STYLES:  # 'plain' was never trained on: the repair may settle it
        assert sums_read(reading) == info["sums"]
        right, down = walls_read(reading)
        assert (right == np.asarray(info["walls_right"])).all()
        assert (down == np.asarray(info["walls_down"])).all()


def test_a_wrong_entry_in_a_killer_is_named_and_never_solves_the_puzzle():
    data, solution, info, marks = progress_picture(36, "app", wrong=1)
    reading = recognize(data, "auto")
    result = solve_page(reading)
    assert result.solution == solution
    assert result.status in ("solved", "needs_review")
    (r, c) = next((r, c) for r in range(9) for c in range(9)
                  if marks.entries[r][c] and marks.entries[r][c] != solution[r][c])
    assert [(w.row, w.col, w.written, w.correct) for w in result.wrong_entries] == \
        [(r, c, marks.entries[r][c], solution[r][c])]


def test_a_killer_without_marks_reads_none():
    puzzle, _ = killer(37)
    reading = recognize(to_bytes(render_killer(puzzle, style="web", seed=37, cell_px=52)))
    entries, notes = page_marks(reading)
    assert not any(map(any, entries)) and notes == []


def test_a_printed_given_in_the_sums_ink_stays_a_given():
    puzzle, solution = killer(38)
    givens = [[0] * 9 for _ in range(9)]
    for r, c in [(0, 4), (4, 4), (8, 2)]:
        givens[r][c] = solution[r][c]
    puzzle = puzzle.model_copy(update={"givens": givens})
    image = render_killer(puzzle, style="web", seed=38, cell_px=56,
                          marks=Marks([[0] * 9 for _ in range(9)], {}))
    reading = recognize(to_bytes(image), "killer")
    cells = np.asarray(reading.cells).argmax(axis=-1)
    assert ((cells > 0) == (np.asarray(givens) > 0)).all()  # read as givens, no more
    entries, _ = page_marks(reading)
    assert not any(map(any, entries))


# Handwriting fills a cell's height: its tops and feet near the horizontal grid lines
# looked like cage walls to the wall model (46 of 80 real half-solved photos), which sent
# written classic pages through the slow killer reader. Cages tile the grid and show walls
# both ways; handwriting does not.
@pytest.mark.parametrize("app", [False, True])
def test_a_written_classic_page_shows_no_cages(app):
    for seed in range(4):
        page = half_solved_page(700 + seed, app=app, entry_share=0.8, cell_px=60)
        reading = recognize(to_bytes(page.image), "auto")
        assert reading.kind == "sudoku"
        assert "killer" not in reading.timings  # the cage reader was not even asked


@pytest.mark.parametrize("style", sorted(ALL_STYLES))
def test_a_killer_full_of_the_persons_digits_still_shows_its_cages(style):
    data, *_ = progress_picture(40, style, entry_share=0.6, notes_share=0.1)
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    assert "killer" in reading.timings


def test_fill_walls_by_hue_ignore_a_shadow():
    # Lab fills: warm paper, a shadow darkening the right half; then two cage colours.
    paper = np.zeros((9, 9, 3), np.float32)
    paper[..., 0], paper[..., 2] = 92.0, 12.0
    paper[:, 5:, 0] = 60.0
    paper[:, 5:, 2] = 9.0
    assert fill_walls(paper)[0][:, 4].min() > 0.9  # by lightness: the shadow is a wall
    assert fill_walls(paper, hue_only=True)[0].max() < 0.1
    caged = paper.copy()
    caged[:, 5:, 1:] = (-20.0, 25.0)  # a green cage beside the warm ones
    assert fill_walls(caged, hue_only=True)[0][:, 4].min() > 0.9
