"""The killer renderer: every style draws, and its ground truth matches the puzzle."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.killer_render import cage_owner, head_cells, render_killer, walls_of
from gridsight.synth.killer_styles import STYLES, vary

from .conftest import killer


@pytest.mark.parametrize("style", sorted(STYLES))
def test_styles_draw_with_ground_truth(style):
    puzzle, _ = killer(11)
    image = render_killer(puzzle, style=style, seed=3, cell_px=40)
    info = image.info
    assert np.asarray(info["lattice"]).shape == (10, 10, 2)
    assert np.asarray(info["walls_right"]).shape == (9, 8)
    assert np.asarray(info["walls_down"]).shape == (8, 9)
    assert info["sums"] == head_cells(puzzle)
    assert sum(info["sums"].values()) == 405


def test_walls_separate_exactly_the_cages():
    puzzle, _ = killer(12)
    owner = cage_owner(puzzle)
    right, down = walls_of(owner)
    for r in range(9):
        for c in range(8):
            assert right[r][c] == (owner[r][c] != owner[r][c + 1])
    # Each cage's head is its first cell in reading order.
    for cage in puzzle.cages:
        first = min(tuple(x) for x in cage.cells)
        assert head_cells(puzzle)[first] == cage.sum


def test_cage_outline_is_drawn_inset_and_only_at_walls():
    puzzle, _ = killer(13)
    look = STYLES["web"]
    image = render_killer(puzzle, style=look, seed=1, cell_px=60, selected=(0, 0))
    gray = np.asarray(image.convert("L")).astype(int)
    lattice = np.asarray(image.info["lattice"])
    inset = round(look.inset * 60)
    right = np.asarray(image.info["walls_right"])
    for r in range(9):
        for c in range(8):
            x = int(lattice[r, c + 1][0]) - inset  # the left cell's outline, if any
            y0, y1 = int(lattice[r, c][1]) + 20, int(lattice[r + 1, c][1]) - 20
            darkest = gray[y0:y1, x - 1:x + 2].min()
            assert (darkest < 128) == bool(right[r, c]), (r, c)


def test_variations_stay_readable():
    rng = random.Random(0)
    for _ in range(50):
        look = vary(STYLES[rng.choice(sorted(STYLES))], rng)
        assert look.inset >= look.grid.thick / 2 + 0.05
        assert look.gap >= 0.05 and 0.0 < look.cage_width < 0.1
