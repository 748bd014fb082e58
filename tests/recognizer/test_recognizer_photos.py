"""Synthetic photos -- flat, bent, small and large -- read well, and misreads are unsure."""

from __future__ import annotations

import numpy as np
import pytest

from services.recognizer import recognize

from .conftest import read_digits

STYLES = ["screenshot", "newspaper", "app", "bold", "thin"]


def check_reading(data, givens, truth, min_share: float, reading=None):
    """The picture's reading (as a classic sudoku, unless the test read it already) holds
    the givens, doubts its misreads and puts the cells where the photo has them."""
    reading = reading or recognize(data, "sudoku")
    probs = np.asarray(reading.cells)
    assert np.allclose(probs.sum(axis=-1), 1.0, atol=1e-6)
    digits = read_digits(reading)
    right = digits == givens
    assert right.mean() >= min_share, f"{int((~right).sum())} cells misread"
    # A misread must not be confident: the chosen wrong value stays well below certainty.
    wrong_conf = probs.max(axis=-1)[~right]
    assert (wrong_conf < 0.9).all(), f"confident misreads: {wrong_conf}"
    # Cell quads are where the photo put the cells: most within a tenth of a cell.
    quads = np.asarray(reading.cell_quads)
    cell = np.linalg.norm(truth.lattice[0, -1] - truth.lattice[0, 0]) / 9
    error = np.linalg.norm(quads[:, :, 0] - truth.lattice[:-1, :-1], axis=-1) / cell
    assert np.percentile(error, 90) < 0.1 and error.max() < 0.4, error.max()
    width, height = reading.image_size
    assert (quads[..., 0] >= 0).all() and (quads[..., 0] < width).all()
    assert (quads[..., 1] >= 0).all() and (quads[..., 1] < height).all()
    return right.mean()


@pytest.mark.parametrize("seed", range(5))
def test_flat_photo(synthetic_photo, seed):
    data, givens, truth = synthetic_photo(100 + seed, STYLES[seed], curvature=0.0,
                                          out_size=(1024, 768))
    check_reading(data, givens, truth, min_share=80 / 81)


@pytest.mark.parametrize("seed", range(5))
def test_curved_photo(synthetic_photo, seed):
    data, givens, truth = synthetic_photo(200 + seed, STYLES[seed], curvature=0.04,
                                          out_size=(1024, 768))
    check_reading(data, givens, truth, min_share=79 / 81)


def test_low_resolution_photo(synthetic_photo):
    data, givens, truth = synthetic_photo(300, "newspaper", out_size=(640, 480), fill=(0.8, 0.9))
    check_reading(data, givens, truth, min_share=79 / 81)


def test_high_resolution_photo(synthetic_photo):
    data, givens, truth = synthetic_photo(301, "screenshot", out_size=(3000, 2250), blur=3.0)
    check_reading(data, givens, truth, min_share=80 / 81)


def test_photo_on_a_flat_dark_table_is_read_as_it_is(synthetic_photo):
    # A flat dark ground is also what a dark-mode screenshot has: such a picture is read
    # both ways, and the grid with light paper between its lines must win.
    from services.recognizer.grid.decode import decode
    from services.recognizer.grid.exposure import dark_ground

    data, givens, truth = synthetic_photo(300, "newspaper", curvature=0.0, clutter=False,
                                          noise=0.0, shadow=0.0, lighting=0.0,
                                          fill=(0.5, 0.55), out_size=(1024, 768))
    assert dark_ground(decode(data)[0])
    check_reading(data, givens, truth, min_share=80 / 81)
