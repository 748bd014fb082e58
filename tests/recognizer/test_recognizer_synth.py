"""The generators' ground truth is true: lattices sit on the drawn lines, in every style."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.synth.photo import photograph
from gridsight.synth.render import STROKES, STYLES, render_sudoku

from .conftest import givens_for


def darkness_at(image, points) -> np.ndarray:
    grey = np.asarray(image.convert("L"), dtype=float)
    xs = np.clip(np.round(points[..., 0]).astype(int), 0, grey.shape[1] - 1)
    ys = np.clip(np.round(points[..., 1]).astype(int), 0, grey.shape[0] - 1)
    return 255 - grey[ys, xs]


@pytest.mark.parametrize("style", sorted(STYLES))
def test_render_lattice_is_on_the_lines(style):
    image = render_sudoku(givens_for(1), style=style, cell_px=40, seed=1)
    lattice = np.asarray(image.info["lattice"])
    assert lattice.shape == (10, 10, 2)
    centres = (lattice[:-1, :-1] + lattice[1:, 1:]) / 2
    empty = np.asarray(givens_for(1)) == 0
    assert darkness_at(image, lattice).min() > 40
    assert darkness_at(image, centres)[empty].max() < 15


def test_stroke_digits_draw_every_digit():
    givens = [[(r * 3 + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]
    image = render_sudoku(givens, font=STROKES, seed=4, cell_px=40)
    lattice = np.asarray(image.info["lattice"])
    centres = (lattice[:-1, :-1] + lattice[1:, 1:]) / 2
    grey = np.asarray(image.convert("L"), dtype=float)
    for r in range(9):
        for c in range(9):
            x, y = centres[r, c].astype(int)
            assert (grey[y - 14:y + 14, x - 10:x + 10] < 128).sum() > 20


@pytest.mark.parametrize("curvature", [0.0, 0.05])
def test_photo_truth_follows_the_grid(curvature):
    image = render_sudoku(givens_for(2), style="bold", cell_px=48, seed=2)
    photo, truth = photograph(image, rng=np.random.default_rng(2), curvature=curvature,
                              blur=0.5, noise=1.0, shadow=0.0, fill=(0.8, 0.9))
    lattice = truth.lattice
    assert lattice.shape == (10, 10, 2)
    w, h = photo.size
    assert (lattice[..., 0] > 0).all() and (lattice[..., 0] < w).all()
    assert (lattice[..., 1] > 0).all() and (lattice[..., 1] < h).all()
    # Ink at the intersections, paper half way between them along the lines' normal.
    centres = truth.cell_centers
    empty = np.asarray(givens_for(2)) == 0
    paper = np.median(darkness_at(photo, centres)[empty])
    assert np.median(darkness_at(photo, lattice)) > paper + 60
    assert np.allclose(truth.corners[0], lattice[0, 0])


def _sharpness(photo, lattice) -> float:
    """Mean gradient of the grid straightened to 32 px a cell: blur measured by the cell."""
    from services.recognizer.grid.straighten import straighten

    grey = straighten(np.asarray(photo.convert("L")), lattice).astype(float)
    return float(np.abs(np.diff(grey, axis=1)).mean())


def test_defocus_blurs_by_the_cell():
    image = render_sudoku(givens_for(3), style="bold", cell_px=48, seed=3)
    kwargs = dict(blur=0.5, noise=0.0, shadow=0.0, fill=(0.9, 0.9), rotation=0.0,
                  perspective=0.0, clutter=False, jpeg_quality=95)
    for size in ((640, 480), (1600, 1200)):
        sharp, truth = photograph(image, rng=np.random.default_rng(3), out_size=size, **kwargs)
        same, _ = photograph(image, rng=np.random.default_rng(3), out_size=size, defocus=0.0,
                             **kwargs)
        assert np.array_equal(np.asarray(sharp), np.asarray(same))  # no defocus: as before
        soft, _ = photograph(image, rng=np.random.default_rng(3), out_size=size, defocus=0.08,
                             **kwargs)
        # As soft on a grid 2.5x larger in pixels: the blur grows with the cell.
        ratio = _sharpness(soft, truth.lattice) / _sharpness(sharp, truth.lattice)
        assert 0.25 < ratio < 0.5, (size, ratio)


def _box_sharpness(photo, lattice) -> np.ndarray:
    """_sharpness of each 3x3 box of the grid."""
    return np.array([_sharpness(photo, lattice[r:r + 4, c:c + 4])
                     for r in range(0, 9, 3) for c in range(0, 9, 3)])


def test_tilted_defocus_blurs_one_side_of_the_grid_more():
    image = render_sudoku(givens_for(4), style="bold", cell_px=48, seed=4)
    kwargs = dict(blur=0.5, noise=0.0, shadow=0.0, fill=(0.9, 0.9), rotation=0.0,
                  perspective=0.0, clutter=False, jpeg_quality=95, out_size=(640, 480))
    for seed in (4, 5):
        even, truth = photograph(image, rng=np.random.default_rng(seed), defocus=0.08,
                                 **kwargs)
        tilted, _ = photograph(image, rng=np.random.default_rng(seed), defocus=0.08,
                               defocus_tilt=0.6, **kwargs)
        # Each box against itself evenly defocused: the digits' own edges cancel out.
        ratio = _box_sharpness(tilted, truth.lattice) / _box_sharpness(even, truth.lattice)
        assert ratio.min() < 0.85 and ratio.max() > 1.2, ratio
