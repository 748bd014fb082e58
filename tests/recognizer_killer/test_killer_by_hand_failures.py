"""Printed killers a person wrote on by hand, photographed (bench group
`handwritten`). One test per failure class fixed:

* a light (pencil) digit breaks up at the stroke level and was left in the ink the wall
  model reads: its bars made walls at 1.00 between cells holding entries;
* a person's wide digit reaching a cell's corner stood as a stray number of two digits,
  read unsurely, and made a cage sum where none is printed (a printed sum a misread wall
  hides, in a cell nobody wrote in, may read as unsurely and stays);
* the cell model split one hand's digits between print and hand, and most of them were
  read as printed givens (a wrong entry then is a wrong given);
* a false wall made a person's digit a cage's first cell, and its top, read as a number,
  gave the false cage a sum.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.contracts import CageSumReading, SumCandidate
from services.recognizer.killer.cages import DIGIT_INK, NOTE_INK, without_large_digits
from services.recognizer.killer.marks import written_by_hand
from services.recognizer.killer.reading import off_line_numbers, unsure_strays
from services.recognizer.killer.sum_glyphs import cell_ink, corner_glyphs
from services.recognizer.killer.sum_tuning import SUM_CELL

P = 48  # pixels a cell


def _cell_with_pencil_seven_on_an_outline(pencil: float) -> tuple[np.ndarray, dict]:
    """Ink of a 3 x 3 grid whose middle cell holds a '7' in pencil of darkness `pencil`,
    its stem down to the dashed cage outline along the cell's foot; and where its bar and
    the outline lie."""
    ink = np.zeros((3 * P, 3 * P), np.float32)
    y0, x0 = P, P  # the middle cell
    bar_y = y0 + int(0.2 * P)
    ink[bar_y:bar_y + 2, x0 + int(0.35 * P):x0 + int(0.66 * P)] = pencil
    outline_y = y0 + int(0.85 * P)
    for k in range(bar_y, outline_y):  # the stem, slanting down to the outline
        x = x0 + int(0.64 * P - (k - bar_y) * 0.3)
        ink[k, x:x + 2] = pencil
    for x in range(x0 + int(0.15 * P), x0 + int(0.85 * P), 7):  # dashes 4 px, gaps 3 px
        ink[outline_y:outline_y + 2, x:x + 4] = 1.0
    return ink, {"bar": (slice(bar_y, bar_y + 2), slice(x0 + int(0.4 * P), x0 + int(0.6 * P))),
                 "outline": (slice(outline_y, outline_y + 2),
                             slice(x0 + int(0.15 * P), x0 + int(0.85 * P)))}


def test_a_pencil_digit_running_into_a_cage_outline_is_painted_out_and_the_outline_kept():
    pencil = 0.5 * (DIGIT_INK + NOTE_INK)  # lighter than the stroke level, darker than notes
    ink, where = _cell_with_pencil_seven_on_an_outline(pencil)
    clean = without_large_digits(ink, P)
    assert not clean[where["bar"]].any()  # its bar would read as a cage line
    outline = clean[where["outline"]]
    assert (outline == 1.0).sum() >= 0.9 * (ink[where["outline"]] == 1.0).sum()


def test_a_digit_as_dark_as_print_is_not_taken_for_pencil_at_the_faint_level():
    # Print and dark pen are found at the stroke level, as before; the faint level only
    # adds blobs lighter than print (a printed digit there would join the outline).
    ink, where = _cell_with_pencil_seven_on_an_outline(1.0)
    clean = without_large_digits(ink, P)
    assert (clean[where["outline"]] == 1.0).sum() >= 0.9 * (ink[where["outline"]] == 1.0).sum()


def _sum(cell, value, prob):
    rest = (1 - prob) / 2
    return CageSumReading(cell=cell, candidates=[SumCandidate(value=value, prob=prob),
                                                 SumCandidate(value=value + 1, prob=rest),
                                                 SumCandidate(value=value + 2, prob=rest)])


def test_a_stray_number_of_two_digits_read_unsurely_in_a_written_cell_is_no_sum():
    sums = [_sum((1, 2), 15, 0.63), _sum((4, 0), 20, 0.83), _sum((6, 6), 20, 0.49),
            _sum((5, 5), 7, 0.8), _sum((0, 0), 21, 0.5)]
    strays = {(1, 2): 2, (4, 0): 2, (6, 6): 2, (5, 5): 1}
    written = {(1, 2), (4, 0)}  # cells a person wrote in
    # A person's '5' read as 15 (0.63) goes; a printed stray sum beside writing read 0.83
    # stays, and so does one read unsurely in a cell nobody wrote in (a sum hidden by a
    # misread wall); a lone digit keeps its own, stricter bar; a head's sum is no stray.
    assert unsure_strays(sums, strays, written) == {(1, 2), (5, 5)}


def test_three_digits_surely_by_hand_make_the_page_written_on_whatever_the_rest():
    # Shares of one hand's digits on a by-hand photo: the cell model is sure of nine of
    # them, and as sure that nine others are print.
    split = [0.0, 0.01, 0.01, 0.01, 0.02, 0.02, 0.07, 0.09, 0.1, 0.19, 0.2, 0.2, 0.24, 0.24,
             0.27, 0.3, 0.35, 0.36, 0.38, 0.62, 0.73, 0.85, 0.88, 0.88, 0.91, 0.94, 0.95,
             0.99, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert written_by_hand(split)
    assert written_by_hand([0.0, 0.02, 0.95, 0.97, 0.99])
    # Printed givens: none surely by hand.
    assert not written_by_hand([0.0, 0.01, 0.02, 0.05, 0.1, 0.3, 0.6, 0.85])
    assert not written_by_hand([0.95, 0.99])  # two are not enough
    assert written_by_hand([0.4, 0.6, 0.7, 0.8, 0.55])  # most of five by hand


def _sums_page(moved: int = 0) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Sums' ink of a 9 x 9 grid (SUM_CELL pixels a cell) with a printed '12' in the
    corner of ten heads, all on one line but for the first `moved` (set lower)."""
    p = SUM_CELL
    ink = np.zeros((9 * p, 9 * p), np.float32)
    heads = [(r, (2 * r + 1) % 9) for r in range(9)] + [(0, 6)]
    for k, (r, c) in enumerate(heads):
        foot = int((0.3 + (0.12 if k < moved else 0.0)) * p)
        cv2.putText(ink, "12", (c * p + int(0.1 * p), r * p + foot),
                    cv2.FONT_HERSHEY_SIMPLEX, p / 110, 1.0, 2)
    return ink, heads


def _with_written_digit(ink: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
    """`ink` with a person's '5' in `cell` reaching into its corner, its top well below
    the sums' line (the corner holds as much of a large digit as a sum's height)."""
    p = SUM_CELL
    out = ink.copy()
    r, c = cell
    cv2.putText(out, "5", (c * p + int(0.2 * p), r * p + int(0.42 * p)),
                cv2.FONT_HERSHEY_SIMPLEX, p / 110, 1.0, 2)
    return out


def test_the_top_of_a_persons_digit_in_a_false_cage_head_is_no_sum():
    printed, heads = _sums_page()
    false_head = (4, 4)
    written = _with_written_digit(printed, false_head)
    assert corner_glyphs(cell_ink(written, *false_head, 9))  # its top reads as a number
    cells = [false_head, heads[0], heads[3]]
    assert off_line_numbers(written, printed, heads + [false_head], cells) == {false_head}
    # Nothing painted out there (no writing): a number off the line stays.
    assert off_line_numbers(written, written, heads + [false_head], cells) == set()


def test_numbers_off_a_line_that_is_not_clear_are_kept():
    printed, heads = _sums_page(moved=3)  # three of ten off the line: no clear line
    false_head = (4, 4)
    written = _with_written_digit(printed, false_head)
    assert off_line_numbers(written, printed, heads + [false_head], [false_head]) == set()
