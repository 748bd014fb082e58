"""The nonogram look's cheap ink beside a grid (nonogram/ink.py band_ink) is the whole
straightened view's ink there, pixel for pixel: on screenshots whose grid fills the
picture, on nonograms with clues beside the grid, and on tilted photos whose picture
reaches only part of the view."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku, make_unique_nonogram
from gridsight.synth.render import render_sudoku
from services.recognizer.nonogram import clues
from services.recognizer.nonogram.ink import band_ink, ink_block, ink_of


def _gray(image) -> np.ndarray:
    return cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2GRAY)


def _pictures():
    givens, _ = make_sudoku(random.Random(5))
    sudoku = render_sudoku(givens, seed=5)
    puzzle, _ = make_unique_nonogram(random.Random(6), 10, 15)
    nonogram = render_nonogram(puzzle, style="app", seed=6)
    yield "sudoku screenshot", _gray(sudoku)
    yield "nonogram screenshot", _gray(nonogram)
    for seed, image in ((7, sudoku), (8, nonogram)):
        photo, _ = photograph(image, rng=random.Random(seed), perspective=0.12, rotation=12)
        yield f"photo {seed}", _gray(photo)


@pytest.mark.parametrize(("name", "gray"), list(_pictures()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_band_ink_is_the_whole_views_ink_in_the_band(name, gray):
    corners, _ = clues.grid_corners(ink_of(gray))
    width, height = clues.grid_size(gray, corners)
    margin = clues.MAX_CLUE_CELLS * clues.CLUE_CELL
    view = (margin + width * clues.CLUE_CELL + 4, margin + height * clues.CLUE_CELL + 4)
    homography = clues._homography(corners, width, height, clues.CLUE_CELL, margin, margin)
    paper = int(np.median(gray))
    whole = ink_of(cv2.warpPerspective(gray, homography, view, flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_CONSTANT, borderValue=paper), 15)
    edge = int(clues.GRID_EDGE * clues.CLUE_CELL)
    bands = [(0, margin, margin - edge, margin + height * clues.CLUE_CELL),
             (margin, 0, margin + width * clues.CLUE_CELL, margin - edge)]
    for x0, y0, x1, y1 in bands:
        cheap = band_ink(gray, homography, view, paper, ink_block((view[1], view[0])),
                         (x0, y0, x1, y1))
        assert np.array_equal(cheap, whole[y0:y1, x0:x1]), name
    if "nonogram" in name:
        assert whole[bands[0][1]:bands[0][3], :bands[0][2]].any()  # its clues are there
