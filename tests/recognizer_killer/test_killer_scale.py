"""Thin cage dashes in large cells, and a small grid in a big page."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from gridsight.synth.killer_render import on_page, render_killer
from gridsight.synth.killer_styles import STYLES
from services.recognizer import recognize
from services.recognizer.grid.decode import decode
from services.recognizer.killer.cage_lattice import thin_ink
from services.recognizer.killer.cages import CELL, straighten_at, wall_ink
from services.solver import solve_reading

from .conftest import killer, sums_read, to_bytes, walls_read

# A web page's cages: 1-px dashes a fifth of a cell in, at cells of 100 px and more.
THIN_WEB = replace(STYLES["web"], cage_width=0.011, inset=0.19, cage=(70, 70, 80))


def test_a_thin_dash_keeps_its_darkness_when_large_cells_are_shrunk():
    puzzle, _ = killer(21)
    image = render_killer(puzzle, style=THIN_WEB, seed=2, cell_px=104)
    gray = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2GRAY)
    lattice = np.asarray(image.info["lattice"], float)
    kept = wall_ink(gray, lattice)
    faded = thin_ink(straighten_at(gray, lattice, CELL), CELL)  # smoothed, then shrunk
    assert kept.shape == faded.shape == (9 * CELL, 9 * CELL)

    def dash_darkness(ink: np.ndarray) -> float:
        # Cage lines run 0.19 of a cell in from the cell's sides: the darkest pixel across
        # them, down the lower middle of each cell (away from grid lines and sums); the
        # darkest dashes of the grid.
        darkest = [ink[int((r + 0.5) * CELL):int((r + 0.75) * CELL),
                       int((c + f) * CELL) - 2:int((c + f) * CELL) + 3].max(axis=1)
                   for r in range(9) for c in range(9) for f in (0.19, 0.81)]
        return float(np.percentile(np.concatenate(darkest), 95))

    assert dash_darkness(kept) > 1.25 * dash_darkness(faded)


@pytest.mark.parametrize("seed", [22, 23])
def test_thin_dashes_in_large_cells_are_read_as_walls(seed):
    puzzle, solution = killer(seed)
    image = render_killer(puzzle, style=THIN_WEB, seed=seed, cell_px=104, margin=20)
    reading = recognize(to_bytes(image), "auto")
    assert reading.kind == "killer"
    right, down = walls_read(reading)
    assert (right == np.asarray(image.info["walls_right"])).all()
    assert (down == np.asarray(image.info["walls_down"])).all()
    assert solve_reading(reading).solution == solution


def test_a_small_grid_in_a_page_screenshot_is_read_at_full_resolution():
    puzzle, solution = killer(24)
    grid = render_killer(puzzle, style="app", seed=24, cell_px=56, margin=12)
    page = on_page(grid, random.Random(5))
    data = to_bytes(page)
    gray, scale, _ = decode(data)
    assert scale > 2  # shrunk to the working size, the grid's cells would be ~25 px
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    assert sums_read(reading) == page.info["sums"]
    # Geometry comes back in the upload's own pixels.
    corners = np.asarray(reading.corners)
    truth = np.asarray(page.info["lattice"], float)
    want = np.array([truth[0, 0], truth[0, -1], truth[-1, -1], truth[-1, 0]])
    assert np.abs(corners - want).max() < 0.1 * 56
    result = solve_reading(reading)
    assert result.solution == solution and result.status == "solved"
