"""A small grid in a big upload, cut out and traced again at full resolution."""

from __future__ import annotations

import numpy as np

from services.recognizer.grid.decode import decode_region
from services.recognizer.grid.lattice import corners_of, lattice_fit, trace_lattice
from services.recognizer.grid.outlines import binarize
from services.recognizer.grid.tuning import CROP_MARGIN, SHRUNK, SMALL_CELL


def full_resolution_grid(image: bytes, lattice: np.ndarray, scale: float, inverted: bool):
    """(region, (grey picture, corners, lattice) in the region's pixels) for a small grid
    in a big upload, or None.

    A grid covering a tenth of a page screenshot keeps cells of about 25 px once the page
    is shrunk to the working size, and its cage sums (a fifth of a cell) shrink to 5 px,
    too small to read. The grid found in the shrunk picture is cut out of the upload at
    full resolution (at most the working size a side), and its lines traced again there
    from where they were found: looking for the outline afresh in the crop could join the
    page's text around it to the grid.
    """
    n = lattice.shape[0] - 1
    cell = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / n
    if scale < SHRUNK or cell >= SMALL_CELL:
        return None
    corners = corners_of(lattice) * scale
    lo = corners.min(axis=0) - CROP_MARGIN * cell * scale
    hi = corners.max(axis=0) + CROP_MARGIN * cell * scale
    region = decode_region(image, (lo[0], lo[1], hi[0], hi[1]))
    if region is None or region.scale > 0.95 * scale:
        return None  # no finer than the working picture: nothing to gain
    gray = 255 - region.gray if inverted else region.gray
    mapped = (lattice * scale - np.array(region.origin)) / region.scale
    binary = binarize(gray)
    traced, rows, cols = trace_lattice(binary, corners_of(mapped), n)
    if rows[[0, -1]].all() and cols[[0, -1]].all() and \
            lattice_fit(binary, traced) >= lattice_fit(binary, mapped):
        mapped = traced
    return region, (gray, corners_of(mapped), mapped)
