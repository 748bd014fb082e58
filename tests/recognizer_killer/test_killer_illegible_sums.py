"""Issue 14: a killer whose sums from 10 to 19 cannot be read is still a killer.

At 38-px cells, a monospaced face's hairline '1' (FreeMono) falls apart at the sums'
sampling, and every sum from 10 to 19 is unread: a quarter of the cages looked as if
they held no number, the numbers read added up far from 405, and the picture was read
as a classic sudoku (held-out app 9300514, and these seeds, all on session 14's code).
The unread numbers still stand where every cage's sum stands, which nothing in a
classic grid does: they count as numbers of unknown value.
"""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.synth.fonts import digit_fonts
from services.recognizer import recognize
from services.recognizer.kind import cage_sum_range, killer_probability

from .conftest import screenshot


def free_mono() -> str:
    return dict(digit_fonts())["FreeMono"]


@pytest.mark.parametrize("seed", [1, 5, 6])
def test_killer_with_illegible_teens_is_read_as_a_killer(seed):
    data, puzzle, _, _ = screenshot(seed, "app", cell_px=38, sum_font=free_mono())
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    assert reading.kind_confidence > 0.9
    # Read as a killer, the sums it could make out come out (the most of them right).
    truth = {min(map(tuple, cage.cells)): cage.sum for cage in puzzle.cages}
    sure = {tuple(s.cell): s.candidates[0].value for s in reading.cage_sums
            if s.candidates[0].prob >= 0.9}
    assert sum(truth.get(cell) == value for cell, value in sure.items()) >= 0.5 * len(truth)


def test_cage_sum_range():
    assert cage_sum_range(1, 9) == (1, 9)
    assert cage_sum_range(2, 9) == (3, 17)
    assert cage_sum_range(9, 9) == (45, 45)
    assert cage_sum_range(3, 6) == (6, 15)


def test_illegible_numbers_only_need_to_make_the_total_reachable():
    walls = np.ones((9, 8)), np.ones((8, 9))
    # 30 heads all numbered, walls everywhere; the legible numbers add to 350.
    missing = killer_probability(*walls, 30, 30, 350)
    reachable = killer_probability(*walls, 30, 30, 350, unknown=(8, 72))
    short = killer_probability(*walls, 30, 30, 250, unknown=(8, 72))
    assert missing < 0.95 < reachable
    assert short < reachable
