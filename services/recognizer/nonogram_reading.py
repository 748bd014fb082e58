"""The nonogram branch of recognize(): a picture's nonogram as a Reading, or None."""

from __future__ import annotations

import time

import numpy as np

from services.contracts import Reading
from services.recognizer.decode import decode
from services.recognizer.errors import RecognitionError
from services.recognizer.nonogram import read_nonogram


def _points(array: np.ndarray) -> list:
    return [(round(float(x), 2), round(float(y), 2)) for x, y in array]


def nonogram_reading(image: bytes, kind: str) -> Reading | None:
    """The Reading of a nonogram picture. With kind 'auto', None when the grid found has
    no clues beside it (a sudoku, say) or no grid is found at all (the sudoku reader then
    gives its own advice); with kind 'nonogram', RecognitionError then."""
    started = time.perf_counter()
    gray, scale, (width, height) = decode(image)
    try:
        read = read_nonogram(gray)
    except RecognitionError:
        if kind == "nonogram":
            raise
        return None
    lattice = read.lattice * scale
    lattice[..., 0] = np.clip(lattice[..., 0], 0, width - 1)
    lattice[..., 1] = np.clip(lattice[..., 1], 0, height - 1)
    quads = [[_points(np.array([lattice[r, c], lattice[r, c + 1], lattice[r + 1, c + 1],
                                lattice[r + 1, c]])) for c in range(read.width)]
             for r in range(read.height)]
    corners = np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])
    return Reading(kind="nonogram", size=max(read.width, read.height), width=read.width,
                   height=read.height, cells=[], row_clues=read.row_clues,
                   col_clues=read.col_clues, entries=read.entries, image_size=(width, height),
                   corners=_points(corners), cell_quads=quads,
                   timings={"nonogram": round(time.perf_counter() - started, 4)})
