"""A thin bar beside a cage sum: the number's '1' or a piece of the cage outline.

App styles put the sum in a paper box over the outline's corner: a '1' then stands right
over the outline's dashed side, the next dash starting just under it (bench: app 700508,
Cabin Medium at 110-px cells, the '1' of all seven sums 10-19 dropped as outline). Dashes
of one outline are alike: a bar far longer than the dashes under it is the number's '1'.
Where the finder cannot tell, the other reading stays possible instead of the read one
being sure.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.killer.sum_finding import find_sums
from services.recognizer.killer.sum_glyphs import corner_glyphs
from services.recognizer.killer.sum_tuning import SUM_CELL
from services.recognizer.killer.sums import read_sums

P = SUM_CELL


def _dashes(cell: np.ndarray, x: int, first: int, dash: int, gap: int) -> None:
    for y in range(first, int(0.95 * P), dash + gap):
        cell[y:y + dash, x:x + 4] = 0.9


def _one(cell: np.ndarray, x: int, top: int, height: int) -> None:
    """A sans '1': an upright stem with a short flag down to the left of its top."""
    cell[top:top + height, x + 3:x + 7] = 0.9
    for k in range(4):
        cell[top + 1 + k, x + 2 - k // 2:x + 4] = 0.9


def test_a_one_over_the_outlines_dashed_side_is_kept():
    # Cabin Medium at 110-px cells (app 700508): the outline's side runs down under the
    # '1''s flag, its first dash two pixels under the '1''s foot, its dashes about half
    # as long as the digits.
    for dash in (6, 8, 10):
        cell = np.zeros((P, P), np.float32)
        top, height = 10, 19
        _one(cell, 10, top, height)
        cv2.putText(cell, "7", (20, top + height), cv2.FONT_HERSHEY_SIMPLEX, 0.75, 0.9, 3)
        _dashes(cell, 9, top + height + 1, dash, 3)
        glyphs = corner_glyphs(cell)
        assert len(glyphs) == 2 and glyphs[0].x <= 12, dash


def test_a_bar_no_longer_than_the_dashes_under_it_stays_outline():
    # The same place, but the outline's dashes as long as the bar: a dash of it.
    cell = np.zeros((P, P), np.float32)
    cell[10:26, 12:15] = 0.9  # bar, 16 px
    _dashes(cell, 12, 27, 16, 3)
    cell[10:26, 18:28] = np.where(np.arange(10)[None, :] % 9 < 3, 0.9, 0.0)  # a digit
    cell[10:13, 18:28] = cell[23:26, 18:28] = 0.9
    glyphs = corner_glyphs(cell)
    assert len(glyphs) == 1 and glyphs[0].x >= 17


def _numbers_by_dashes(text: str, x: int, scale: float, odd: tuple[int, int], shift: int,
                       longer: int, gap: int, side: int) -> tuple[np.ndarray, list]:
    """Sum ink of 18 heads holding `text`, the outline's dashed side at column `side`
    left of it: clear of the number's line but at the `odd` head, where a dash starts
    `shift` px from the digits' top and is `longer` px taller than they are."""
    ink = np.zeros((9 * P, 9 * P), np.float32)
    heads = [(r, c) for r in range(9) for c in (0, 4)]
    for r, c in heads:
        cell = ink[r * P:(r + 1) * P, c * P:(c + 1) * P]
        cv2.putText(cell, text, (x, 25), cv2.FONT_HERSHEY_SIMPLEX, scale, 1.0, 2, cv2.LINE_AA)
        rows = np.flatnonzero(cell[:, x:x + 16].max(axis=1) > 0.5)
        top, height = int(rows[0]), int(rows[-1] - rows[0] + 1)
        first = top + shift if (r, c) == odd else top + height + 4
        for y in range(first, int(0.95 * P), height + gap):
            cell[y:y + height + longer, side:side + 3] = 0.9
    return ink, heads


def _sum_probs(ink: np.ndarray, heads: list) -> dict:
    return {tuple(s.cell): {c.value: c.prob for c in s.candidates}
            for s in read_sums(ink, heads)}


def test_a_bar_set_aside_as_outline_leaves_its_number_in_doubt():
    # Dashes as tall as the digits, one level with the number: taken for the outline,
    # but the number with a leading '1' must keep a real probability (was < 0.001).
    ink, heads = _numbers_by_dashes("6", 14, 0.5, (3, 4), 0, 0, 5, 6)
    found = find_sums(ink, heads)
    assert found[(3, 4)][0].lead is not None
    assert all(found[cell][0].lead is None for cell in heads if cell != (3, 4))
    reading = _sum_probs(ink, heads)
    assert max(reading[(3, 4)], key=reading[(3, 4)].get) == 6
    assert reading[(3, 4)].get(16, 0.0) >= 0.03
    assert reading[(0, 0)].get(16, 0.0) < 0.01


def test_a_dash_kept_as_a_leading_one_leaves_the_lone_digit_possible():
    # Textured style, Hack (704508): the sums stand just right of the outline, whose long
    # dashes nearly meet; one runs level with an '8', a little taller than it, and is read
    # as its '1' ('8' -> '18' at 0.7). The '8' alone must stay a real candidate.
    ink, heads = _numbers_by_dashes("8", 12, 0.55, (5, 0), -2, 6, 8, 5)
    reading = _sum_probs(ink, heads)
    assert reading[(5, 0)].get(8, 0.0) >= 0.05
    assert max(reading[(0, 0)], key=reading[(0, 0)].get) == 8
