"""Hairline dotted cage outlines lost to the sampling phase.

The wall reader straightens the grid at CELL (48) pixels a cell. A cage outline about a
pixel wide, in mid grey, keeps its darkness there only where a sample falls on it; where
the lattice found lies half a pixel off, the line lands half on each of two pixels,
under the stroke threshold, and its walls read as none. Held-out bold_serif 56615541
(66-px cells, 1.4-px grey dots): 16 walls missed with the lattice the reader traced,
none with the lattice the renderer drew, a fraction of a pixel away. The walls are now
read at three sampling phases (cages.phase_steady_walls), averaged.

The class: killers of the printed looks (varied as the bench varies them) with hairline
grey cage outlines, 54-74 px cells, read with the shipped models. Of 25 such pictures
per look drawn for this test, main misread the walls of four; the fix reads three of them
right (below). The fourth, bold_serif 9122, keeps a wall wrong: the average of the phases
is not always enough (their highest read it right, but made false walls elsewhere).
"""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from gridsight.synth.killer_render import render_killer
from gridsight.synth.killer_styles import ALL_STYLES, vary
from gridsight.synth.puzzles import make_killer
from services.recognizer.grid.outlines import binarize, find_grid
from services.recognizer.killer import cage_lattice, cages
from services.recognizer.killer.reading import read_killer
from services.recognizer.killer.sums import load_killer_model

HAIRLINE_PX = 1.2  # the cage outline's width in the picture's pixels


def hairline_killer(look_name: str, seed: int):
    """(grey picture, walls_right, walls_down) of a killer in a varied `look_name` whose
    cage outlines are a hairline in mid grey."""
    rng = random.Random(seed)
    puzzle, _ = make_killer(rng)
    look = vary(ALL_STYLES[look_name], rng)
    cell_px = rng.randint(54, 74)
    grey = rng.randint(50, 90)
    look = replace(look, cage_width=HAIRLINE_PX / cell_px, cage=(grey, grey, grey + 5))
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_px,
                          margin=rng.randint(6, 30))
    gray = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2GRAY)
    return gray, np.asarray(image.info["walls_right"]), np.asarray(image.info["walls_down"])


@pytest.mark.parametrize(("look_name", "seed"), [("bold_serif", 9106), ("bold_serif", 9116),
                                                 ("print", 9109)])
def test_hairline_cage_walls_read_right(look_name, seed):
    gray, right, down = hairline_killer(look_name, seed)
    read = read_killer(gray, find_grid(gray, binarize(gray)))
    assert ((np.asarray(read.walls_right) >= 0.5) == right).all()
    assert ((np.asarray(read.walls_down) >= 0.5) == down).all()


def test_walls_do_not_depend_on_the_lattice_phase():
    """The same walls whether the lattice lies a little left and up or right and down:
    the lattice the reader traced, moved by up to 0.6 px either way."""
    gray, right, down = hairline_killer("bold_serif", 9116)
    corners = find_grid(gray, binarize(gray))
    lattice = cage_lattice.killer_lattice(gray, corners)
    model = load_killer_model().walls
    for shift in (-0.6, -0.3, 0.3, 0.6):
        got_right, got_down = cages.phase_steady_walls(gray, lattice + shift, model)
        assert ((got_right >= 0.5) == right).all(), shift
        assert ((got_down >= 0.5) == down).all(), shift
