"""The nonogram branch of recognize(): a picture's nonogram as a Reading, or None."""

from __future__ import annotations

import time

import numpy as np

from services.contracts import Reading
from services.recognizer.errors import RecognitionError
from services.recognizer.grid.decode import decode, decode_region
from services.recognizer.nonogram.clues import SOME_CLUES, NoGrid, NotANonogram, read_nonogram
from services.recognizer.nonogram.tuning import FINE_SIDE, SHRUNK, SMALL_CELL


def _points(array: np.ndarray) -> list:
    return [(round(float(x), 2), round(float(y), 2)) for x, y in array]


def _cell_side(read) -> float:
    corners = read.corners
    return min(float(np.linalg.norm(corners[1] - corners[0])) / read.width,
               float(np.linalg.norm(corners[3] - corners[0])) / read.height)


def _at_full_resolution(image: bytes, width: int, height: int, read, scale: float, reader):
    """(the nonogram `reader` finds in the upload at up to FINE_SIDE pixels, its scale);
    `read` (may be None) stays when the finer picture cannot be decoded or read."""
    region = decode_region(image, (0, 0, width, height), FINE_SIDE)
    if region is None or region.scale >= scale:
        if read is None:
            raise RecognitionError("the picture could not be read at a finer resolution")
        return read, scale
    try:
        return reader(region.gray), region.scale
    except RecognitionError:
        if read is None:
            raise
        return read, scale  # the finer picture lost what the working one showed


def read_picture(image: bytes, kind: str, reader=read_nonogram, decoded=None):
    """(what `reader` finds in the picture, at the scale it was found, the upload's width
    and height). With kind 'auto', None when the grid found has no clues beside it (a
    sudoku, say) or no grid is found at all; with kind 'nonogram', RecognitionError then.
    The training of the clue model finds its glyphs so (reader: find_nonogram).
    `decoded`: decode(image), when the caller has it already."""
    gray, scale, (width, height) = decode(image) if decoded is None else decoded
    try:
        read = reader(gray)
        if scale > SHRUNK and _cell_side(read) < SMALL_CELL:
            read, scale = _at_full_resolution(image, width, height, read, scale, reader)
    except RecognitionError as error:
        # A photo of a large puzzle, shrunk to the working size, may keep its grid's
        # lines but lose the thin ones or the clues' digits: read again finer, unless
        # the picture plainly holds no grid, or a square grid with nearly no clues (a
        # sudoku). A grid counted wider than high is no sudoku: its lines may have been
        # miscounted where the thin ones vanished, and its clues looked for beside the
        # wrong lines.
        hopeless = isinstance(error, NoGrid) or (
            isinstance(error, NotANonogram) and error.clue_rate < SOME_CLUES
            and error.square)
        if scale <= SHRUNK or (hopeless and kind != "nonogram"):
            if kind == "nonogram":
                raise
            return None
        try:
            read, scale = _at_full_resolution(image, width, height, None, scale, reader)
        except RecognitionError:
            if kind == "nonogram":
                raise error from None
            return None
    return read, scale, (width, height)


def nonogram_reading(image: bytes, kind: str, decoded=None) -> Reading | None:
    """The Reading of a nonogram picture, or None (see read_picture)."""
    started = time.perf_counter()
    found = read_picture(image, kind, decoded=decoded)
    if found is None:
        return None
    read, scale, (width, height) = found
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
