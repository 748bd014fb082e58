"""Damaged printed photos (gridsight.synth.degrade) mended before reading, and a clean
photo that pays for no mend: grid/restore.py, seen through the Reading's stages."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.synth.degrade import degraded_photo
from services.recognizer import recognize
from services.solver import solve_page

RESTORATION = ("restore: impulse noise", "restore: shadow")


def solved_right(picture) -> tuple[bool, list[str]]:
    reading = recognize(picture.data, "auto")
    result = solve_page(reading)
    right = result.status == "solved" and np.array_equal(np.asarray(result.solution),
                                                         picture.solution)
    return right, reading.stages


@pytest.mark.parametrize(("kind", "strength", "seed", "mend"), [
    ("salt and pepper", 2, 2201, "restore: impulse noise"),
    ("shadow stripes", 2, 4201, "restore: shadow"),
])
def test_a_damaged_photo_is_mended_read_and_solved(kind, strength, seed, mend):
    right, stages = solved_right(degraded_photo(seed, kind, strength))
    assert mend in stages
    assert right


def test_an_inverted_photo_is_read_and_solved_without_a_mend():
    right, stages = solved_right(degraded_photo(4201, "inverted", 2))
    assert right
    assert not set(RESTORATION) & set(stages)


def test_a_clean_photo_enters_no_restoration():
    right, stages = solved_right(degraded_photo(4001, "clean", 0))
    assert right
    assert "nonogram_look" in stages  # the stages were recorded
    assert not set(RESTORATION) & set(stages)
