"""Sums inside a dotted cage outline whose dots stand close around them.

Short dashes at small cells are drawn as dots, and with no paper box behind the sum the
outline's top-left corner (its first two dots run together into one blob nearly as tall
as the digits) stands just above the number and a dot of its side just left of it. The
corner blob set the number's top line, so the digits under it were dropped; without
it, the side's dot was chained to the number as its first digit. Every sum of such a
grid was misread and the killer was read as a classic sudoku (held-out textured
20304555 and these pictures, without the rule below). Dots of a dotted line (pieces as
small as they are on both sides, or right and under the corner) are now no digits
(sums._dotted_line_piece).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from gridsight.synth.fonts import digit_fonts
from gridsight.synth.killer_styles import NEW_STYLES
from services.recognizer import recognize

from .conftest import screenshot, sums_read

# The textured look with short dashes (drawn as dots, as dash <= 1.5 widths), inset
# about an eighth of the cell, small sums and no paper box: varied as the bench does.
DOTTED_CLOSE = replace(
    NEW_STYLES["textured"],
    cage_width=0.035,
    dash=0.053,
    gap=0.08,
    inset=0.128,
    sum_height=0.19,
    sum_box=False,
)


@pytest.mark.parametrize(
    ("seed", "cell_px", "face"),
    [
        (1, 49, "DejaVuSansCondensed-Bold"),
        (4, 49, "Inter-Regular"),
    ],
)
def test_sums_inside_close_dots_are_read(seed, cell_px, face):
    data, puzzle, _, _ = screenshot(
        seed, DOTTED_CLOSE, cell_px=cell_px, sum_font=dict(digit_fonts())[face]
    )
    truth = {min(map(tuple, cage.cells)): cage.sum for cage in puzzle.cages}
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    read = sums_read(reading)
    assert sum(read.get(cell) == value for cell, value in truth.items()) >= len(truth) - 1
