"""The grid is found where it is, in pictures where that used to go wrong.

A lattice that is off cuts digits or shows a neighbour's, and the classifier then reads
them confidently wrong: geometry errors were behind every confident misread seen in
synthetic photos.
"""

from __future__ import annotations

import numpy as np

from services.recognizer.decode import decode
from services.recognizer.pipeline import locate


def worst_intersection_error(data: bytes, truth) -> float:
    """The farthest located line intersection from the truth, in cells."""
    gray, scale, _ = decode(data)
    _, lattice = locate(gray)
    cell = np.linalg.norm(truth.lattice[0, -1] - truth.lattice[0, 0]) / 9
    return float((np.linalg.norm(lattice * scale - truth.lattice, axis=-1) / cell).max())


def worst_errors(synthetic_photo, style: str, seeds: range, out_size) -> list[float]:
    return [worst_intersection_error(data, truth) for data, _, truth in
            (synthetic_photo(seed, style, out_size=out_size) for seed in seeds)]


def test_thick_lined_grid_in_a_small_photo_is_not_mistaken_for_its_page(synthetic_photo):
    # Thick lines blur together in a small photo, so the grid's outline scores low as a
    # grid while the sheet of paper around it scores fairly well: the page must not win.
    errors = worst_errors(synthetic_photo, "bold", range(400, 430), (640, 480))
    assert max(errors) < 0.3, np.round(errors, 2)


def test_faint_inner_lines_are_not_bent_by_digits(synthetic_photo):
    # Thin light-grey lines binarize into fragments; a curve fitted through a few of them
    # and a digit's stroke must not swing across the neighbouring cells.
    errors = worst_errors(synthetic_photo, "app", range(500, 540), (1024, 768))
    assert max(errors) < 0.35, np.round(errors, 2)
